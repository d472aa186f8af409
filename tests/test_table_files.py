"""A table of three or four's files and summaries (issue 46): the CSV a row per deal with its boards beneath,
the match's and the evening's share texts with each player's money, the sheet as a picture, the club's zip
(which imports back), the rematch at the same seats and the whole sheet's page. Every figure is compared with
the case's expected replay output (MATCHFILE.md), not with the app's own."""
import csv
import io
import json
import re
import zipfile

from casefiles import CASES
from webutil import export, hidden, import_match

from models.storage.hand_writes import add_hand
from views.site.db import get_db
from views.site.i18n import signed

WHOLE = "partners-hollywood-whole-match"  # eight deals, finished 3-0: Jana & Eva +1,145
CHOUETTE = "chouette-four-hollywood"  # Iva in the box against three, finished: Iva -2,817


def table_case(name: str) -> tuple[dict, dict]:
    doc = json.loads((CASES / "tables" / f"{name}.json").read_text())
    return doc, doc.pop("expected")


def csv_rows(client, match_id: int) -> list[dict]:
    answer = client.get(f"/matches/{match_id}.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))


def figure(value) -> str:
    return "" if value is None else str(value)


def test_the_csv_has_a_row_per_deal_with_its_boards_beneath_as_the_replay_says(client):
    for name in (WHOLE, CHOUETTE, "partners-example"):
        doc, expected = table_case(name)
        rows = csv_rows(client, import_match(client, doc))
        deals = [row for row in rows if not row["board"]]
        assert [row["deal"] for row in deals] == [str(hand["number"]) for hand in expected["hands"]], name
        at = 0
        for hand in expected["hands"]:
            deal = rows[at]
            assert (deal["dealer"], deal["result"], deal["winner"], deal["points"], deal["games"]) == (
                hand["dealer"], hand["result"], figure(hand["winner"]), str(hand["points"]),
                " ".join(map(str, hand["games"]))), (name, hand["number"])
            boards = hand.get("boards", [])
            for n, board in enumerate(boards, start=1):
                row = rows[at + n]
                assert (row["deal"], row["board"]) == (str(hand["number"]), str(n))
                assert (row["players"], row["dealer"], row["result"], row["winner"], row["points"]) == (
                    " vs ".join(board["players"]), board["dealer"], board["result"], figure(board["winner"]),
                    str(board["points"])), (name, hand["number"], n)
            at += 1 + len(boards)
        assert at == len(rows)
        # the last deal's running totals are the games' final scores, under the sides' names
        last = deals[-1]
        for game in expected["games"]:
            for side, score in game["scores"].items():
                cell = last.get(f"game {game['number']} {side}")
                assert cell in ("", str(score)), (name, game["number"], side)


def test_a_board_row_says_what_was_entered_and_a_typed_deal_has_none(client):
    doc, _ = table_case("partners-example")
    rows = csv_rows(client, import_match(client, doc))
    first_board = next(row for row in rows if row["deal"] == "1" and row["board"] == "1")
    entered = doc["hands"][0]["boards"][0]
    assert (first_board["knocker"], first_board["knocker_deadwood"], first_board["opponent_deadwood"]) == (
        entered["knocker"], str(entered["knocker_deadwood"]), str(entered["opponent_deadwood"]))
    typed = [row for row in rows if row["deal"] == "3"]
    assert len(typed) == 1 and (typed[0]["result"], typed[0]["winner"], typed[0]["points"]) == (
        "points", "Ben & Dan", "40")


def test_a_match_of_two_keeps_its_csv(client):
    from webutil import case
    match_id = import_match(client, case("full-hollywood-match"))
    text = client.get(f"/matches/{match_id}.csv").get_data(as_text=True)
    head = text.splitlines()[0]
    assert head.startswith("hand,dealer,result,winner,points,knocker,knocker_deadwood,opponent_deadwood,upcard,games,")
    assert "board" not in head and len(text.splitlines()) == 1 + len(export(client, match_id)["hands"])


def said_money(expected: dict) -> str:
    return ", ".join(f"{name} {signed(net)}" for name, net in side_by_side(expected))


def side_by_side(expected: dict) -> list:
    return [(name, expected["player_net"][name]) for side in expected["sides"] for name in side]


def test_the_match_summary_says_the_games_and_what_each_player_pays_or_gets(client, app):
    doc, expected = table_case(WHOLE)
    match_id = import_match(client, doc)
    text = client.get(f"/matches/{match_id}/summary.txt").get_data(as_text=True).replace("\u2068", "").replace(
        "\u2069", "")
    lines = text.splitlines()
    assert lines[0] == "Jana & Eva vs Petr & Karel"
    assert lines[1] == "Jana & Eva won 3–0, net 1,145"
    for game in expected["games"]:
        assert f"Game {game['number']}: Jana & Eva {game['scores']['Jana & Eva']} – Petr & Karel " \
               f"{game['scores']['Petr & Karel']}" in lines
    assert lines[-1] == "What each player pays or gets: " + said_money(expected)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "data-share" in page and f"/matches/{match_id}/summary.txt" in page and "sheet.svg" in page


def test_the_evening_counts_every_match_of_the_same_seats_and_sums_each_players_money(client):
    doc, expected = table_case(WHOLE)
    first, second = import_match(client, doc), import_match(client, doc)
    # the same sides' names at other seats: another table (its evening is its own)
    other_seats = import_match(client, dict(doc, players=["Petr", "Jana", "Karel", "Eva"], hands=[]))
    text = client.get(f"/matches/{second}/evening.txt").get_data(as_text=True).replace("\u2068", "").replace(
        "\u2069", "")
    assert text.startswith("Tonight: Jana & Eva vs Petr & Karel\n")
    assert "Jana & Eva are ahead tonight on net points: +2,290" in text
    assert "Matches won: Jana & Eva 2, Petr & Karel 0; games won: Jana & Eva 6, Petr & Karel 0" in text
    doubled = {**expected, "player_net": {name: 2 * net for name, net in expected["player_net"].items()}}
    assert "What each player pays or gets: " + said_money(doubled) in text
    assert "\n1. " in text and "\n2. " in text and "\n3. " not in text  # the other seats' match is not this table
    assert first != other_seats


def started_with_stake(app, client, name: str) -> int:
    """The case's match started from the new-match form at 0.05 € a point, its deals saved one by one."""
    doc, _ = table_case(name)
    page = client.get("/matches/new").get_data(as_text=True)
    players = doc["players"]
    fields = {"csrf_token": hidden(page, "csrf_token"), "players": players, "format": "hollywood",
              "preset": "classic", "table": doc["table"], "stake": "0.05", "currency": "€",
              "first_dealer": str(players.index(doc["first_dealer"]) + 1), **doc.get("rules", {})}
    made = client.post("/matches/new", data=fields)
    assert made.status_code == 302, made.get_data(as_text=True)[:2000]
    match_id = int(made.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        for number, hand in enumerate(doc["hands"], start=1):
            add_hand(get_db(), match_id, hand, None, number, table=1)
    assert export(client, match_id)["hands"] == doc["hands"]
    return match_id


def test_the_money_at_a_stake_is_each_players_net_times_the_stake_in_text_page_and_picture(app, client):
    match_id = started_with_stake(app, client, CHOUETTE)
    _, expected = table_case(CHOUETTE)
    assert export(client, match_id)["result"]["player_net"] == expected["player_net"]
    text = client.get(f"/matches/{match_id}/summary.txt").get_data(as_text=True)
    assert re.sub("[\u2068\u2069]", "", text).splitlines()[-1] == (
        "What each player pays or gets: Iva −2,817 (-140.85 €), Jan +939 (46.95 €), Kim +939 (46.95 €), "
        "Lea +939 (46.95 €)")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "<bdi>Iva</bdi>: <strong>−2,817</strong> (-140.85 €)" in page
    picture = client.get(f"/matches/{match_id}/sheet.svg").get_data(as_text=True)
    assert ">Iva<" in picture and ">Lea<" in picture and "−2,817 (-140.85 €)" in picture


def test_the_picture_names_each_side_a_player_a_line_and_each_players_money(client):
    doc, expected = table_case(WHOLE)
    answer = client.get(f"/matches/{import_match(client, doc)}/sheet.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    picture = answer.get_data(as_text=True)
    assert "<title id=\"sheet-title\">Jana &amp; Eva vs Petr &amp; Karel: Jana &amp; Eva won 3–0" in picture
    heads = re.findall(r'<text x="(200|330)" y="(\d+)" text-anchor="end" font-weight="bold">([A-Za-z]+)</text>',
                       picture)
    assert [(x, name) for x, _, name in heads] == [("200", "Jana"), ("330", "Petr"), ("200", "Eva"), ("330", "Karel")]
    for name, net in side_by_side(expected):
        assert re.search(rf'>{name}</text>\n<text x="330" y="\d+" text-anchor="end">{re.escape(signed(net))}<',
                         picture), name
    height = int(re.search(r'height="(\d+)"', picture).group(1))
    assert max(int(y) for y in re.findall(r' y="(\d+)"', picture)) < height  # nothing drawn below the picture


def test_the_clubs_zip_holds_the_table_matches_and_they_import_back_the_same(app, client):
    doc, expected = table_case(WHOLE)
    match_id = import_match(client, doc)
    chouette = import_match(client, table_case(CHOUETTE)[0])
    answer = client.get("/export.zip")
    with zipfile.ZipFile(io.BytesIO(answer.get_data())) as archive:
        files = {name: json.loads(archive.read(name)) for name in archive.namelist()}
    assert len(files) == 2
    partners = next(file for file in files.values() if file.get("table") == "partners")
    assert partners["players"] == doc["players"] and partners["hands"] == doc["hands"]
    assert partners["result"]["player_net"] == expected["player_net"]
    again = import_match(client, partners)
    assert export(client, again)["result"] == export(client, match_id)["result"]
    assert any(file.get("table") == "chouette" for file in files.values()) and chouette


def rematch(client, match_id: int):
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    return client.post(f"/matches/{match_id}/rematch", data={"csrf_token": hidden(page, "csrf_token")})


def test_a_rematch_keeps_the_seats_and_rules_and_the_next_dealers_side_deals_first(app, client):
    for name in (WHOLE, CHOUETTE):
        doc, expected = table_case(name)
        finished = import_match(client, doc)
        first = rematch(client, finished)
        page = client.get(first.headers["Location"]).get_data(as_text=True)
        one, two = (" &amp; ".join(side) for side in expected["sides"])
        assert f"Rematch: {one} vs {two}, same rules." in page
        assert 'class="board-entry' in page  # the new match's first deal is entered on its page
        again = rematch(client, finished)  # the other phone's tap lands on the same rematch
        assert first.status_code == again.status_code == 302
        assert first.headers["Location"] == again.headers["Location"]
        new_id = int(first.headers["Location"].rsplit("/", 1)[1])
        old, new = export(client, finished), export(client, new_id)
        assert new["table"] == old["table"] and new["players"] == old["players"] and new["rules"] == old["rules"]
        assert new["hands"] == []
        side = next(side for side in expected["sides"] if " & ".join(side) == expected["next_dealer"])
        assert new["first_dealer"] == side[0], name
        assert new["result"]["next_dealer"] == expected["next_dealer"]
        assert f'href="/matches/{new_id}">Go to the rematch</a>' in client.get(f"/matches/{finished}").get_data(
            as_text=True)


def test_an_open_table_match_is_not_rematched(client):
    doc, _ = table_case(WHOLE)
    doc["hands"] = doc["hands"][:3]
    open_id = import_match(client, doc)
    answer = rematch(client, open_id)
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/matches/{open_id}")
    assert "This match is still being played." in client.get(answer.headers["Location"]).get_data(as_text=True)


def test_the_whole_sheet_has_every_deal_with_its_boards_and_the_money_and_no_entry(client):
    doc, expected = table_case(WHOLE)
    match_id = import_match(client, doc)
    answer = client.get(f"/matches/{match_id}/sheet")
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert page.count('class="deal-row"') == len(expected["hands"])
    assert page.count('class="board-row"') == sum(len(hand.get("boards", [])) for hand in expected["hands"])
    assert "board-entry" not in page and "/deals" not in page  # nothing to enter on the page to print
    for name, net in side_by_side(expected):
        assert f"<bdi>{name}</bdi>: <strong>{signed(net)}</strong>" in page
    assert f'href="/matches/{match_id}/sheet"' in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_the_matchs_end_names_the_winning_side_its_games_and_the_sides_nets(client):
    doc, expected = table_case(WHOLE)
    page = client.get(f"/matches/{import_match(client, doc)}").get_data(as_text=True)
    assert '<h2 id="result">Jana &amp; Eva win the match</h2>' in page
    assert f"Net: Jana &amp; Eva {signed(expected['net']['Jana & Eva'])} · Petr &amp; Karel " \
           f"{signed(expected['net']['Petr & Karel'])}</p>" in page
    gin = {"knocker": "Ana", "knocker_deadwood": 0, "opponent_deadwood": 60}
    box = import_match(client, {"table": "chouette", "players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana",
                                "hands": [gin] * 4})
    assert export(client, box)["result"]["winner"] == "Ana"
    assert '<h2 id="result">Ana wins the match 3–0</h2>' in client.get(f"/matches/{box}").get_data(as_text=True)
