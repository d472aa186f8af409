"""Players over many matches: every figure against values worked out by hand."""
import csv
import io
import json
import re
import zipfile
from decimal import Decimal

import pytest

from models.game.ledger import score_sheet
from models.files.matchfile import load_match
from models.game.race import races
from models.game.stakes import payments, read_stake
from models.game.stats import player_record, running_net
from webutil import case, export, hidden, import_match, new_match, post_hand


def sheet_of(doc):
    return score_sheet(load_match(json.dumps(doc)))


# Three matches between Ana and Ben, oldest first:
#  1. full-hollywood-match: Ana wins 3-0, net 838 to Ana.
#  2. seed001-ana-ben: unfinished; game 1 closed for Ana, net 196.
#  3. a single game Ben wins by shutout: Ben 60 then Ben 45 (target 100).
#     Ben's game: 105 + 100 game + 2 boxes 50 = 255; Ana 0 -> shutout, net 255 x 2 = 510.
SHUTOUT = {"format": "single", "players": ["Ana", "Ben"],
           "hands": [{"winner": "Ben", "points": 60}, {"winner": "Ben", "points": 45}]}


@pytest.fixture
def sheets():
    return [sheet_of(case("full-hollywood-match")), sheet_of(case("seed001-ana-ben")), sheet_of(SHUTOUT)]


def test_ana_record_worked_by_hand(sheets):
    ana = player_record("Ana", sheets)
    assert ana.matches == 3
    assert ana.matches_won == 1            # match 1 only; match 2 unfinished; match 3 lost
    assert ana.games_won == 3 + 1          # 3 in match 1, game 1 of match 2
    # Match 1: Ana won hands 1,3,4,5,6,8,9,11,13 = 9 (hand 5 by undercut); match 2: 4 hands.
    assert ana.hands_won == 13
    assert ana.points_won == (37 + 16 + 8 + 10 + 13 + 12 + 7 + 33 + 18) + (18 + 30 + 25 + 35)
    assert ana.average_win == pytest.approx(262 / 13)
    assert (ana.gins, ana.big_gins) == (2, 0)        # hands 1 and 11 of match 1
    assert (ana.undercuts_made, ana.undercuts_suffered) == (1, 0)
    assert ana.knocks == 6                           # hands 3,4,6,8,9,13 of match 1; her gins 1 and 11 are gins
    assert ana.biggest_hand == 37
    assert ana.shutouts == 0
    assert ana.net == 838 + 196 - 510
    assert (ana.current_streak, ana.longest_streak) == (0, 1)


def test_ben_record_worked_by_hand(sheets):
    ben = player_record("Ben", sheets)
    assert (ben.matches, ben.matches_won, ben.games_won) == (3, 1, 1)
    assert ben.hands_won == 4 + 2 + 2                # 2, 7, 10, 12 | 2, 5 | both of match 3
    assert ben.gins == 1 and ben.undercuts_suffered == 1 and ben.undercuts_made == 0
    assert ben.knocks == 4                           # hands 2, 5, 10, 12 of match 1; hand 7 was his gin
    assert ben.biggest_hand == 60
    assert ben.shutouts == 1
    assert ben.net == -838 - 196 + 510
    assert (ben.current_streak, ben.longest_streak) == (1, 1)


def test_running_net_is_cumulative(sheets):
    assert running_net("Ana", sheets) == [838, 838 + 196, 838 + 196 - 510]


def test_race_series_per_game():
    race = races(sheet_of(case("seed001-ana-ben")))
    # Game 1 closes on hand 6: seven points (hand 0 to 6) per player.
    assert race[0].last_hand == 6 and race[0].winner == "Ana"
    assert race[0].series["Ana"] == (0, 18, 18, 48, 73, 73, 108)
    assert race[0].series["Ben"] == (0, 0, 22, 22, 22, 62, 62)
    assert race[2].series["Ana"] == (0, 0, 0, 0, 25, 25, 60)


def test_stakes_are_exact_decimals():
    stake = read_stake("0.05", "€")
    pays = payments(sheet_of(case("full-hollywood-match")), stake)
    assert [p.amount for p in pays] == [Decimal("13.60"), Decimal("13.65"), Decimal("14.65"), Decimal("41.90")]
    assert pays[-1].payer == "Ben" and pays[-1].payee == "Ana" and pays[-1].game is None
    for bad in ["abc", "-1", "0", "0.00001", "NaN", "1e9"]:
        with pytest.raises(ValueError):
            read_stake(bad, "€")


def player_ids(client):
    page = client.get("/players").get_data(as_text=True)
    return {name: int(pid) for pid, name in re.findall(r'href="/players/(\d+)"><strong>([^<]+)</strong>', page)}


def test_player_page_and_head_to_head_show_the_figures(client):
    for doc in (case("full-hollywood-match"), case("seed001-ana-ben"), SHUTOUT):
        import_match(client, doc)
    ids = player_ids(client)
    page = client.get(f"/players/{ids['Ana']}").get_data(as_text=True)
    assert "<th scope=\"row\">Net points</th><td>+524</td>" in page
    assert "<th scope=\"row\">Knocks (not gins)</th><td>6</td>" in page  # her two gins are under Gins
    h2h = client.get(f"/players/{ids['Ana']}/vs/{ids['Ben']}").get_data(as_text=True)
    assert "<th scope=\"row\">Net points</th><td>+524</td><td>\u2212524</td>" in h2h  # a minus sign, not a hyphen
    assert "<th scope=\"row\">Shutouts</th><td>0</td><td>1</td>" in h2h
    assert h2h.count('class="series s') == 2
    # Newest first.
    assert h2h.index("/matches/3") < h2h.index("/matches/1")


def test_names_with_markup_are_text_in_pages_svg_and_csv(client):
    doc = {"players": ["<b>Ana</b>", "Ben \"the knife\""], "hands": [{"winner": "<b>Ana</b>", "points": 30}]}
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "<b>Ana</b>" not in page and "&lt;b&gt;Ana&lt;/b&gt;" in page
    ids = player_ids(client)
    assert ids, "player list escapes names yet links them"
    rows = list(csv.reader(io.StringIO(client.get(f"/players/{min(ids.values())}.csv").get_data(as_text=True))))
    assert rows[1][2] == "<b>Ana</b>"


def test_rename_and_merge_keep_every_match(client):
    import_match(client, {"players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": 30}]})
    import_match(client, {"players": ["Anna", "Ben"], "hands": [{"winner": "Anna", "points": 20}]})
    page = client.get("/players").get_data(as_text=True)
    token = hidden(page, "csrf_token")
    client.post("/players/merge", data={"csrf_token": token, "keep": "Ana", "drop": "Anna"})
    assert export(client, 2)["players"] == ["Ana", "Ben"]
    assert export(client, 2)["result"]["hands"][0]["winner"] == "Ana"
    ids = player_ids(client)
    client.post(f"/players/{ids['Ben']}/rename", data={"csrf_token": token, "new_name": "Benjamin"})
    assert export(client, 1)["players"] == ["Ana", "Benjamin"]
    response = client.post("/players/merge", data={"csrf_token": token, "keep": "Ana", "drop": "Benjamin"},
                           follow_redirects=True)
    assert "cannot be one person" in response.get_data(as_text=True)


def test_a_player_with_matches_cannot_be_deleted(client):
    new_match(client, players=("Ana", "Ben"))
    ids = player_ids(client)
    token = hidden(client.get("/players").get_data(as_text=True), "csrf_token")
    response = client.post(f"/players/{ids['Ana']}/delete", data={"csrf_token": token}, follow_redirects=True)
    assert "Not deleted" in response.get_data(as_text=True)
    assert "Ana" in player_ids(client)


def test_everything_as_a_zip_of_match_files(client):
    import_match(client, case("seed001-ana-ben"))
    import_match(client, case("full-hollywood-match"))
    archive = zipfile.ZipFile(io.BytesIO(client.get("/export.zip").data))
    assert len(archive.namelist()) == 2
    for name in archive.namelist():
        doc = json.loads(archive.read(name))
        assert sheet_of({k: v for k, v in doc.items() if k != "result"}).to_dict() == doc["result"]


def test_match_page_draws_the_race(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    svgs = re.findall(r'<svg[^>]*class="race".*?</svg>', page, re.S)
    assert len(svgs) == 3
    first = re.findall(r'points="([^"]+)"', svgs[0])
    assert [len(p.split()) for p in first] == [7, 7]
    assert svgs[0].count("closed-marker") == 1 and svgs[1].count("closed-marker") == 0


def test_money_follows_a_negative_game_net():
    doc = {"format": "single", "players": ["Ana", "Ben"],
           "hands": [{"winner": "Ben", "points": 10}] * 9 + [{"winner": "Ana", "points": 100}]}
    pays = payments(sheet_of(doc), read_stake("0.10", "€"))
    # Net -90 for Ana's game: Ana pays Ben 9.00, for the game and in total.
    assert [(p.game, p.payer, p.payee, p.amount) for p in pays] == [
        (1, "Ana", "Ben", Decimal("9.00")), (None, "Ana", "Ben", Decimal("9.00"))]


def test_record_pages_never_show_a_stale_fold(client):
    match_id = import_match(client, {"players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": 30}]})
    ids = player_ids(client)
    assert "<th scope=\"row\">Hands won</th><td>1</td>" in client.get(f"/players/{ids['Ana']}").get_data(as_text=True)
    post_hand(client, match_id, winner="Ana", points="5")
    assert "<th scope=\"row\">Hands won</th><td>2</td>" in client.get(f"/players/{ids['Ana']}").get_data(as_text=True)
    token = hidden(client.get("/players").get_data(as_text=True), "csrf_token")
    client.post(f"/players/{ids['Ben']}/rename", data={"csrf_token": token, "new_name": "Benedikt"})
    page = client.get(f"/players/{ids['Ana']}").get_data(as_text=True)
    assert "Ana vs Benedikt" in page and "Ana vs Ben<" not in page


def test_a_long_history_lists_the_newest_fifty_and_counts_them_all(client):
    for points in range(1, 53):
        import_match(client, {"format": "single", "players": ["Ana", "Ben"],
                              "hands": [{"winner": "Ana", "points": 100 + points}]})
    ids = player_ids(client)
    page = client.get(f"/players/{ids['Ana']}").get_data(as_text=True)
    assert "<th scope=\"row\">Matches won</th><td>52</td>" in page
    assert page.count('<li><a href="/matches/') == 50 and "Show all 52 matches" in page
    assert "/matches/52" in page and '"/matches/1"' not in page
    everything = client.get(f"/players/{ids['Ana']}?all=1").get_data(as_text=True)
    assert everything.count('<li><a href="/matches/') == 52


def test_the_record_counts_boxes_as_the_engine_does():
    # gin_boxes 2, undercut_boxes 2 and a tie won by the knocker: Ana 3 + 2 + 1, Ben 4 + 2 + 0 (the case's games)
    sheet = score_sheet(load_match(json.dumps(case("variants/variants-tie-goes-to-knocker"))))
    assert (player_record("Ana", [sheet]).boxes, player_record("Ben", [sheet]).boxes) == (6, 6)
    ana = player_record("Ana", [sheet])
    assert (ana.hands_won, ana.knocks, ana.undercuts_suffered, ana.points_won) == (3, 4, 1, 38)
