"""The club's book counts tables of three and four, on both engines: team ratings (the winning side's players
ranked first), a player's record and partnerships, tonight's standings, and tonight's pairing seating four
at a partners table; a club of matches of two reads exactly as before."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from models.game.hand import KNOCK, Hand, HandKind
from models.game.ledger import score_sheet
from models.game.match import Match
from models.game.night import Night, tallies
from models.game.evening import Evening, Played
from models.game.pairing import tables_of_four
from models.game.presets import PRESETS
from models.game.ratings import MODEL, Result, rate, shown
from models.game.rules import Table, table_rules
from models.game.stats import partnerships, player_record
from models.storage.club import finished_results, table_version
from models.storage.matches import create_match, get_match
from models.storage.players import player_named, players_summary
from test_ladder_web import ledger, words  # noqa: F401 (ledger: the fixture, another connection)
from webutil import hidden

HOME = 1


def two(one: str, other: str, winner: str) -> Match:
    return Match((one, other), "single", one, PRESETS["classic"],
                 (Hand(KNOCK, knocker=winner, knocker_deadwood=0, opponent_deadwood=60),) * 2)


def partners(seats: tuple[str, str, str, str], winner: str | None) -> Match:
    """Seats A, B, C, D (A & C against B & D); one deal typed as 130 points for `winner`'s side closes the game."""
    hands = (Hand(HandKind.POINTS, winner=winner, points=130),) if winner else ()
    return Match(seats, "single", seats[0], table_rules(Table.PARTNERS), hands)


def chouette(seats: tuple[str, ...], winner: str) -> Match:
    return Match(seats, "single", seats[0], table_rules(Table.CHOUETTE),
                 (Hand(HandKind.POINTS, winner=winner, points=130),))


def ids(ledger) -> dict[str, int]:
    return {row["name"]: row["id"] for row in players_summary(ledger, table=HOME)}


# ---- ratings ----------------------------------------------------------------------------------------

def test_a_two_only_club_rates_as_openskill_one_against_one(ledger):
    for one, other, winner in [("Ana", "Ben", "Ana"), ("Ben", "Cy", "Cy"), ("Cy", "Ana", "Ana")]:
        create_match(ledger, two(one, other, winner), table=HOME)
    results, names, _ = finished_results(ledger, table=HOME)
    assert all(isinstance(result.winner, int) and isinstance(result.loser, int) for result in results)
    beliefs = {}
    for result in sorted(results, key=lambda r: (r.finished, r.match_id)):
        teams = [[beliefs.get(p) or MODEL.rating()] for p in (result.winner, result.loser)]
        [[beliefs[result.winner]], [beliefs[result.loser]]] = MODEL.rate(teams, ranks=[1, 2])
    rated = rate(results)
    assert {names[p]: r.rating for p, r in rated.items()} == \
        {names[p]: shown(b.mu, b.sigma) for p, b in beliefs.items()}
    # the same match written as teams of one folds to the very same numbers
    as_teams = [Result(r.match_id, r.finished, (r.winner,), (r.loser,)) for r in results]
    assert {p: (r.mu, r.sigma) for p, r in rate(as_teams).items()} == {p: (r.mu, r.sigma) for p, r in rated.items()}


def test_a_partners_match_rates_the_winning_side_first_and_an_open_one_nobody(ledger):
    create_match(ledger, partners(("Ana", "Ben", "Cy", "Dan"), "Cy"), table=HOME)
    create_match(ledger, partners(("Eva", "Fay", "Gus", "Hal"), None), table=HOME)  # still being played
    results, names, _ = finished_results(ledger, table=HOME)
    [result] = results
    assert {names[p] for p in result.winners} == {"Ana", "Cy"}
    assert {names[p] for p in result.losers} == {"Ben", "Dan"}
    rated = {names[p]: r for p, r in rate(results).items()}
    assert set(rated) == {"Ana", "Ben", "Cy", "Dan"}
    assert rated["Ana"].rating == rated["Cy"].rating > 0 > rated["Ben"].rating == rated["Dan"].rating
    assert (rated["Ana"].won, rated["Ben"].won, rated["Ana"].matches) == (1, 0, 1)


def test_chouette_rates_the_box_alone_against_the_team(ledger):
    create_match(ledger, chouette(("Ana", "Ben", "Cy"), "Ana"), table=HOME)
    [result] = finished_results(ledger, table=HOME)[0]
    names = {i: n for n, i in ids(ledger).items()}
    assert ([names[p] for p in result.winners], sorted(names[p] for p in result.losers)) == (["Ana"], ["Ben", "Cy"])
    rated = {names[p]: r.rating for p, r in rate([result]).items()}
    assert rated["Ana"] > 0 > rated["Ben"] == rated["Cy"]


def test_one_player_on_both_sides_is_refused():
    with pytest.raises(ValueError):
        rate([Result(1, "2026-01-01T20:00:00", (1, 2), (3, 1))])


def test_the_ladder_lists_a_tables_players(client, ledger):
    create_match(ledger, partners(("Ana", "Ben", "Cy", "Dan"), "Ben"), table=HOME)
    page = words(client.get("/ladder"))
    assert all(name in page for name in ("Ana", "Ben", "Cy", "Dan"))


# ---- records and partnerships ----------------------------------------------------------------------

def test_a_players_record_counts_a_tables_matches_and_partners():
    sheets = [score_sheet(partners(("Ana", "Ben", "Cy", "Dan"), "Cy")),
              score_sheet(partners(("Ana", "Cy", "Dan", "Ben"), "Cy")),  # Ana & Dan against Cy & Ben, who win
              score_sheet(two("Ana", "Ben", "Ben")),
              score_sheet(partners(("Ana", "Eva", "Dan", "Fay"), None))]  # still being played
    record = player_record("Ana", sheets)
    figures = (record.matches, record.matches_won, record.games_won, record.net)
    assert figures == (4, 1, 1, 510 - 510 + sheets[2].net["Ana"])
    assert sheets[2].net["Ana"] < 0
    cy = player_record("Cy", sheets)
    assert (cy.matches, cy.matches_won, cy.games_won, cy.net) == (2, 2, 2, 1020)
    together = {one.partner: (one.matches, one.won) for one in partnerships("Ana", sheets)}
    assert together == {"Cy": (1, 1), "Dan": (2, 0)}
    assert [one.partner for one in partnerships("Ana", sheets)] == ["Cy", "Dan"]  # the most won first
    # Eva & Fay's match is still being played: played together, won nothing yet
    assert [(one.partner, one.matches, one.won) for one in partnerships("Eva", sheets)] == [("Fay", 1, 0)]


def test_chouettes_team_are_partners_and_the_box_has_none():
    sheets = [score_sheet(chouette(("Ana", "Ben", "Cy", "Dan"), "Ben"))]
    assert {one.partner: (one.matches, one.won) for one in partnerships("Ben", sheets)} == {"Cy": (1, 1), "Dan": (1, 1)}
    assert partnerships("Ana", sheets) == []
    box = player_record("Ana", sheets)
    assert (box.matches, box.matches_won, box.net) == (1, 0, -3 * sheets[0].net["Ben & Cy & Dan"])


def test_the_players_page_shows_tables_and_with_whom(client, ledger):
    create_match(ledger, partners(("Ana", "Ben", "Cy", "Dan"), "Cy"), table=HOME)
    create_match(ledger, two("Ana", "Ben", "Ben"), table=HOME)
    ana = ids(ledger)["Ana"]
    page = client.get(f"/players/{ana}")
    html, said = page.get_data(as_text=True), words(page)
    assert "With whom" in said
    partners_table = html[html.index('id="partners"'):html.index("Head-to-head")]
    assert re.search(r'href="/players/\d+">Cy</a>.*?</th><td>1</td><td>1</td>', partners_table.replace("<bdi>", "")
                     .replace("</bdi>", ""))
    assert "Ben" not in partners_table  # an opponent, not a partner
    assert "Ana &amp; Cy vs Ben &amp; Dan" in html  # the match list names the sides
    assert re.search(r"Matches played 2 Matches won 1", said)
    # head-to-head stays a page of matches of two
    assert f"/players/{ana}/vs/{ids(ledger)['Ben']}" in html and f"/vs/{ids(ledger)['Cy']}" not in html


# ---- tonight --------------------------------------------------------------------------------------

def test_tonights_tallies_count_each_player_of_a_table():
    sheet = score_sheet(partners(("Ana", "Ben", "Cy", "Dan"), "Dan"))
    at = datetime(2026, 12, 1, 20, tzinfo=timezone.utc)
    night = Night((Evening((Played(1, at, at, sheet),)),))
    lines = {line.name: (line.matches, line.matches_won, line.games_won, line.net)
             for line in tallies(night.matches, str)}
    assert lines == {"Ben": (1, 1, 1, 510), "Dan": (1, 1, 1, 510), "Ana": (1, 0, 0, -510), "Cy": (1, 0, 0, -510)}
    assert night.met == {frozenset(pair) for pair in (("Ana", "Ben"), ("Ana", "Dan"), ("Cy", "Ben"), ("Cy", "Dan"))}
    assert night.names == {"Ana", "Ben", "Cy", "Dan"}


def test_tonights_page_stands_a_tables_players_and_who_is_playing(client, ledger):
    create_match(ledger, partners(("Ana", "Ben", "Cy", "Dan"), "Ana"), table=HOME)
    create_match(ledger, partners(("Eva", "Fay", "Gus", "Hal"), None), table=HOME)
    said = words(client.get("/tonight"))
    assert re.search(r"Ana 1 1 1 \+510", said) and re.search(r"Ben 1 0 0 −510", said)
    assert "Ana & Cy vs Ben & Dan" in said
    assert "Playing now: Eva, Fay, Gus, Hal" in said


# ---- tonight's pairing of four ---------------------------------------------------------------------

def test_pairs_are_seated_two_by_two_the_higher_of_one_with_the_lower_of_the_other():
    assert tables_of_four(((1, 2), (3, 4), (5, 6))) == (((1, 2, 4, 3),), ((5, 6),))
    assert tables_of_four(((1, 2),)) == ((), ((1, 2),))
    assert tables_of_four(()) == ((), ())


def start_buttons(html: str) -> list[tuple[str, ...]]:
    return re.findall(r'name="one" value="(\d+)"><input type="hidden" name="two" value="(\d+)">'
                      r'(?:<input type="hidden" name="three" value="(\d+)">'
                      r'<input type="hidden" name="four" value="(\d+)">)?',
                      html)


def test_after_a_partners_match_tonight_seats_four_and_one_tap_starts_partners(client, ledger):
    create_match(ledger, partners(("Ana", "Ben", "Cy", "Dan"), "Ana"), table=HOME)
    page = client.get("/tonight")
    html = page.get_data(as_text=True)
    assert 'value="four" checked' in html and "Tables of four" in words(page)
    assert ("A tap starts a partners match with the format, rules and stake of the table's latest partners"
            " match; before any, with those a match of two would take, at a partners table.") in words(page)
    [seats] = start_buttons(html)
    assert all(seats)  # one table of four, no pair of two
    names = {i: n for n, i in ids(ledger).items()}
    seated = [names[int(i)] for i in seats]
    # Ana & Cy and Ben & Dan met as opponents only: each pair of the matching is a partnership, split across sides
    assert {frozenset(seated[0::2]), frozenset(seated[1::2])} == {frozenset(("Ana", "Dan")), frozenset(("Ben", "Cy"))} \
        or {frozenset(seated[0::2]), frozenset(seated[1::2])} == {frozenset(("Ana", "Ben")), frozenset(("Cy", "Dan"))}
    tap = {"csrf_token": hidden(html, "csrf_token"), **dict(zip(("one", "two", "three", "four"), seats))}
    answer = client.post("/tonight/start", data=tap)
    assert answer.status_code == 302
    stored = get_match(ledger, int(answer.headers["Location"].rsplit("/", 1)[1]), table=HOME)
    assert stored.match.players == tuple(seated) and stored.match.table == Table.PARTNERS
    assert stored.match.rules == table_rules(Table.PARTNERS)
    # a second tap: everyone is still playing, nothing more starts
    version = table_version(ledger, table=HOME)
    again = client.post("/tonight/start", data=tap, follow_redirects=True)
    assert "is still playing a match; nothing was started." in words(again)
    assert table_version(ledger, table=HOME) == version


def test_tables_of_two_on_asking_and_a_pair_started_with_the_latest_match_of_twos_rules(client, ledger):
    create_match(ledger, Match(("Eva", "Fay"), "single", "Eva", PRESETS["modern"],
                               (Hand(KNOCK, knocker="Eva", knocker_deadwood=0, opponent_deadwood=60),) * 2),
                 table=HOME)
    create_match(ledger, partners(("Ana", "Ben", "Cy", "Dan"), "Ana"), table=HOME)
    page = client.get("/tonight?seats=two")
    html = page.get_data(as_text=True)
    assert 'value="two" checked' in html
    # the words say what the tap does: the latest match of two's rules, not the latest (partners) match's
    assert ("A tap starts a match of two with the format, rules and stake of the table's latest match of two;"
            " before any, a Hollywood match of the classic rules, for nothing.") in words(page)
    assert "rules of the table's latest match." not in words(page)
    buttons = start_buttons(html)
    assert buttons and not any(button[2] for button in buttons)
    one, other = buttons[0][:2]
    answer = client.post("/tonight/start?seats=two", data={"csrf_token": hidden(html, "csrf_token"), "one": one,
                                                           "two": other})
    stored = get_match(ledger, int(answer.headers["Location"].rsplit("/", 1)[1]), table=HOME)
    assert (stored.match.table, stored.match.format, stored.match.rules) == (Table.TWO, "single", PRESETS["modern"])


def test_a_club_of_two_seats_pairs_of_two_by_default(client, ledger):
    create_match(ledger, two("Ana", "Ben", "Ana"), table=HOME)
    create_match(ledger, two("Cy", "Dan", "Dan"), table=HOME)
    html = client.get("/tonight").get_data(as_text=True)
    assert 'value="two" checked' in html
    assert start_buttons(html) and not any(button[2] for button in start_buttons(html))
    assert "Start partners" not in html
    four = client.get("/tonight?seats=four").get_data(as_text=True)
    [seats] = start_buttons(four)
    assert all(seats)


@pytest.mark.parametrize("seats, said", [((0, 1, 2, 0), "in two seats of the table"),
                                         ((0, 1, 2, None), "no such player")])
def test_a_bad_table_of_four_gets_a_sentence_and_starts_nothing(client, ledger, seats, said):
    create_match(ledger, partners(("Ana", "Ben", "Cy", "Dan"), "Ana"), table=HOME)
    html = client.get("/tonight").get_data(as_text=True)
    players = [player_named(ledger, name, table=HOME)["id"] for name in ("Ana", "Ben", "Cy")]
    data = {field: ("999999" if at is None else str(players[at]))
            for field, at in zip(("one", "two", "three", "four"), seats)}
    version = table_version(ledger, table=HOME)
    answer = client.post("/tonight/start", data={"csrf_token": hidden(html, "csrf_token"), **data},
                         follow_redirects=True)
    assert said in words(answer)
    assert table_version(ledger, table=HOME) == version


def test_a_player_in_an_open_tables_seat_three_is_busy(client, ledger):
    create_match(ledger, two("Ana", "Ben", "Ana"), table=HOME)
    create_match(ledger, two("Gil", "Hal", "Hal"), table=HOME)
    create_match(ledger, partners(("Eva", "Fay", "Cy", "Dan"), None), table=HOME)  # Cy in seat 3, open
    html = client.get("/tonight").get_data(as_text=True)
    ana, cy = (player_named(ledger, name, table=HOME)["id"] for name in ("Ana", "Cy"))
    answer = client.post("/tonight/start", data={"csrf_token": hidden(html, "csrf_token"), "one": str(ana),
                                                 "two": str(cy)}, follow_redirects=True)
    assert "Cy is still playing a match; nothing was started." in words(answer)
