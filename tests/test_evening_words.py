"""Issue 23, finding 6: the evening's headline and its figures never contradict each other.

In Hollywood the net points are what the table settles (the money is net points times the stake), so
the headline names who is ahead on net points and says so; matches and games won are the story, each
figure worded with the name it belongs to. Before, the leader was ranked by matches first, and
"Ben is ahead tonight: 1 match to 0, games 1–3, −78" named a player 78 points down.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from models.game.evening import Played, evenings, standing
from models.game.ledger import score_sheet
from models.files.matchfile import load_match
from models.game.stakes import Stake
from webutil import case, import_match

# Ben wins a single game by shutout: Ben +510 (see tests/test_players.py).
SHUTOUT = {"format": "single", "players": ["Ana", "Ben"],
           "hands": [{"winner": "Ben", "points": 60}, {"winner": "Ben", "points": 45}]}
# Then three Hollywood matches, each with its first game closed for Ana: Ana +196 each, still being played.
OPEN = "seed001-ana-ben"
T0 = datetime(2026, 11, 28, 19, 0, tzinfo=timezone.utc)


def sheet_of(doc: dict):
    return score_sheet(load_match(json.dumps(doc)))


def swapped(doc: dict) -> dict:
    """The same match with Ana and Ben swapped in every hand (and so in the result)."""
    swap = {"Ana": "Ben", "Ben": "Ana"}
    return {**doc, "players": [swap[name] for name in doc["players"]],
            "hands": [{key: swap.get(value, value) if isinstance(value, str) else value for key, value in hand.items()}
                      for hand in doc["hands"]]}


def the_evening(stake=None):
    sheets = [sheet_of(SHUTOUT)] + [sheet_of(case(OPEN)) for _ in range(3)]
    played = [Played(n, T0 + timedelta(minutes=30 * n), T0 + timedelta(minutes=30 * n + 20), sheet, stake)
              for n, sheet in enumerate(sheets, start=1)]
    [evening] = evenings(played)
    return evening


def test_the_leader_is_who_is_ahead_on_net_points_not_on_matches():
    state = standing(the_evening())
    assert state.matches_won == {"Ana": 0, "Ben": 1}
    assert state.games_won == {"Ana": 3, "Ben": 1}
    assert state.net == {"Ana": 3 * 196 - 510, "Ben": 510 - 3 * 196}
    assert state.leader == "Ana"


def test_the_money_goes_to_the_leader():
    state = standing(the_evening(Stake(Decimal("0.10"), "€")))
    [(stake, pay)] = state.money
    assert (pay.payee, pay.payer, pay.amount) == (state.leader, "Ben", Decimal("7.80"))


def seed(client) -> int:
    first = import_match(client, SHUTOUT)
    for _ in range(3):
        import_match(client, case(OPEN))
    return first


def test_the_evening_text_names_the_leader_by_net_points_and_words_each_figure(client):
    first = seed(client)
    lines = client.get(f"/matches/{first}/evening.txt").get_data(as_text=True).replace("\u2068", "").replace("\u2069", "").splitlines()
    assert lines[:3] == [
        "Tonight: Ana vs Ben",
        "Ana is ahead tonight on net points: +78",
        "Matches won: Ana 0, Ben 1; games won: Ana 3, Ben 1",
    ]
    assert not any("Ben is ahead" in line for line in lines)


def test_the_home_page_and_the_head_to_head_say_the_same(client):
    seed(client)
    for page in (client.get("/").get_data(as_text=True), client.get("/players/1/vs/2").get_data(as_text=True)):
        assert '<p class="ahead">Ana is ahead tonight on net points: +78</p>' in page
        assert "Matches won: Ana 0, Ben 1; games won: Ana 3, Ben 1" in page


def test_before_any_match_is_finished_only_games_are_counted(client):
    first = import_match(client, case(OPEN))
    import_match(client, case(OPEN))
    lines = client.get(f"/matches/{first}/evening.txt").get_data(as_text=True).replace("\u2068", "").replace("\u2069", "").splitlines()
    assert lines[1:3] == ["Ana is ahead tonight on net points: +392", "Games won: Ana 2, Ben 0"]


def test_a_level_evening_says_level_on_net_points(client):
    first = import_match(client, case("full-hollywood-match"))
    import_match(client, swapped(case("full-hollywood-match")))  # the same hands, Ben's: net 838 back
    lines = client.get(f"/matches/{first}/evening.txt").get_data(as_text=True).replace("\u2068", "").replace("\u2069", "").splitlines()
    assert lines[1:3] == ["Level tonight on net points", "Matches won: Ana 1, Ben 1; games won: Ana 3, Ben 3"]
