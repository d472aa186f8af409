"""The evening (models/game/evening.py) and what the pages make of it: tonight on the home page and the
head-to-head, the share texts, the final sheet as SVG."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from models.game.evening import Played, evening_of, evenings, standing, tonight
from models.game.ledger import score_sheet
from models.files.matchfile import load_match
from models.game.stakes import Stake
from webutil import case, import_match

T0 = datetime(2026, 11, 28, 19, 0, tzinfo=timezone.utc)
HOUR = timedelta(hours=1)


def sheet_of(name: str, players=("Ana", "Ben")):
    doc = case(name)
    doc["players"] = list(players)
    doc["hands"] = [{k: ({"Ana": players[0], "Ben": players[1]}.get(v, v) if isinstance(v, str) else v)
                     for k, v in hand.items()} for hand in doc["hands"]]
    return score_sheet(load_match(json.dumps(doc).encode()))


FULL, OPEN = sheet_of("full-hollywood-match"), sheet_of("seed001-ana-ben")


def played(id, start_hours, end_hours, sheet=FULL, stake=None):
    return Played(id, T0 + start_hours * HOUR, T0 + end_hours * HOUR, sheet, stake)


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

def test_matches_within_six_hours_of_the_last_hand_are_one_evening():
    found = evenings([played(1, 0, 1), played(2, 1.5, 3), played(3, 9.5, 10), played(4, 10.5, 11)])
    assert [[p.id for p in e.matches] for e in found] == [[1, 2], [3, 4]]


def test_a_gap_of_more_than_six_hours_starts_a_new_evening():
    found = evenings([played(1, 0, 1), played(2, 7.01, 8)])
    assert [[p.id for p in e.matches] for e in found] == [[1], [2]]


def test_other_players_sit_at_another_evening_and_the_seats_do_not_matter():
    eva = sheet_of("full-hollywood-match", ("Eva", "Ben"))
    ben_ana = sheet_of("full-hollywood-match", ("Ben", "Ana"))
    found = evenings([played(1, 0, 1), played(2, 1, 2, eva), played(3, 2, 3, ben_ana)])
    assert [[p.id for p in e.matches] for e in found] == [[1, 3], [2]]


def test_tonight_is_the_evenings_whose_last_hand_is_recent():
    matches = [played(1, 0, 1), played(2, 20, 21)]
    assert [e.matches[0].id for e in tonight(matches, T0 + 24 * HOUR)] == [2]
    assert tonight(matches, T0 + 28 * HOUR) == []
    assert [p.id for p in evening_of(matches, 1).matches] == [1]


def test_who_is_ahead_is_who_is_ahead_on_net_points():
    ben_wins = sheet_of("full-hollywood-match", ("Ben", "Ana"))  # Ben in the winner's seat
    state = standing(evenings([played(1, 0, 1), played(2, 1, 2, ben_wins), played(3, 2, 3)])[0])
    assert state.matches_won == {"Ana": 2, "Ben": 1}
    assert state.games_won == {"Ana": 6, "Ben": 3}
    assert state.net == {"Ana": 838, "Ben": -838}
    assert state.leader == "Ana"


def test_an_open_match_counts_its_closed_games_and_a_level_evening_has_no_leader():
    state = standing(evenings([played(1, 0, 1, OPEN), played(2, 1, 2, OPEN)])[0])
    assert (state.matches_won, state.games_won, state.net) == ({"Ana": 0, "Ben": 0}, {"Ana": 2, "Ben": 0},
                                                               {"Ana": 392, "Ben": -392})
    assert state.leader == "Ana"
    ben_wins = sheet_of("full-hollywood-match", ("Ben", "Ana"))
    assert standing(evenings([played(1, 0, 1), played(2, 1, 2, ben_wins)])[0]).leader is None


def test_money_adds_up_per_currency_and_never_across_currencies():
    euro, cents, crowns = Stake(Decimal("0.05"), "€"), Stake(Decimal("0.01"), "€"), Stake(Decimal("1"), "Kč")
    ben_wins = sheet_of("full-hollywood-match", ("Ben", "Ana"))
    state = standing(evenings([played(1, 0, 1, stake=euro), played(2, 1, 2, ben_wins, cents),
                               played(3, 2, 3, ben_wins, crowns), played(4, 3, 4)])[0])
    owed = {stake.currency: (pay.payer, pay.payee, pay.amount) for stake, pay in state.money}
    assert owed == {"€": ("Ben", "Ana", Decimal("33.52")), "Kč": ("Ana", "Ben", Decimal("838"))}


# --------------------------------------------------------------------------
# The pages
# --------------------------------------------------------------------------

def seed_twice(client) -> list[int]:
    return [import_match(client, case("seed001-ana-ben")) for _ in range(2)]


def test_home_shows_tonight_with_who_is_ahead(client):
    assert "Tonight" not in client.get("/").get_data(as_text=True)
    seed_twice(client)
    page = client.get("/").get_data(as_text=True)
    assert "Tonight: Ana vs Ben" in page
    assert "Ana is ahead tonight on net points: +392" in page and "Games won: Ana 2, Ben 0" in page
    assert 'data-share-button' in page and "/matches/2/evening.txt" in page


def test_head_to_head_shows_tonight(client):
    seed_twice(client)
    page = client.get("/players/1/vs/2").get_data(as_text=True)
    assert "Ana is ahead tonight on net points: +392" in page


def test_the_evening_text_for_a_messenger(client):
    first, second = seed_twice(client)
    response = client.get(f"/matches/{first}/evening.txt")
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True).replace("\u2068", "").replace("\u2069", "").splitlines() == [
        "Tonight: Ana vs Ben",
        "Ana is ahead tonight on net points: +392",
        "Games won: Ana 2, Ben 0",
        "1. Being played: games 1–0",
        "2. Being played: games 1–0",
    ]


def test_the_evening_text_speaks_czech(client):
    first, _ = seed_twice(client)
    text = client.get(f"/matches/{first}/evening.txt", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert text.replace("\u2068", "").replace("\u2069", "").splitlines() == [
        "Dnes večer: Ana – Ben",
        "Dnes večer vede podle bilance Ana: +392",
        "Vyhrané hry: Ana 2, Ben 0",
        "1. Rozehrané: hry 1–0",
        "2. Rozehrané: hry 1–0",
    ]


def test_a_finished_match_text_and_its_share_button(client):
    match_id = import_match(client, case("full-hollywood-match"))
    assert client.get(f"/matches/{match_id}/summary.txt").get_data(as_text=True).replace("\u2068", "").replace("\u2069", "").splitlines() == [
        "Ana vs Ben",
        "Ana won 3–0, net 838",
        "Game 1: Ana 103 – Ben 56",
        "Game 2: Ana 117 – Ben 69",
        "Game 3: Ana 101 – Ben 33",
    ]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"/matches/{match_id}/summary.txt" in page and f"/matches/{match_id}/sheet.svg" in page


def test_the_final_sheet_as_svg(client):
    match_id = import_match(client, case("full-hollywood-match"))
    response = client.get(f"/matches/{match_id}/sheet.svg")
    assert response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.get_data())
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"Ana", "Ben", "103 ✓", "56", "117 ✓", "69", "101 ✓", "33", "+838", "−838"} <= set(texts)
    assert "http" not in response.get_data(as_text=True).replace("http://www.w3.org/2000/svg", "")


def test_another_table_cannot_read_the_summaries(client):
    assert client.get("/matches/99/summary.txt").status_code == 404
    assert client.get("/matches/99/sheet.svg").status_code == 404
