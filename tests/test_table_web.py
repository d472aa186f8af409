"""A table of three or four through its pages (issue 46): the match page's sheet a row per deal with its
boards beneath, one deal entered on one screen and saved in one tap, checked first, refused per board."""
import json
import re

from casefiles import CASES
from webutil import export, hidden, import_match


def table_case(name: str, hands: int | None = None) -> dict:
    doc = json.loads((CASES / "tables" / f"{name}.json").read_text())
    doc.pop("expected")
    if hands is not None:
        doc["hands"] = doc["hands"][:hands]
    return doc


def post_deal(client, match_id: int, **fields):
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), **fields}
    return client.post(f"/matches/{match_id}/deals", data=data)


FIRST_DEAL = {"b1_result": "knock", "b1_knocker": "Ana", "b1_kd": "3", "b1_od": "20",
              "b2_result": "gin", "b2_knocker": "Dan", "b2_od": "10"}


def test_the_page_names_each_deals_boards_their_players_and_dealers(client):
    match_id = import_match(client, table_case("partners-example"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Ana &amp; Cy" in page and "Ben &amp; Dan" in page
    assert page.count('class="deal-row"') == 3 and page.count('class="board-row"') == 4
    # deal 4 is even: under alternate pairing Ana plays Dan and Cy plays Ben
    legends = re.findall(r"<legend>(.*?)</legend>", page, re.S)
    assert "Board 1" in legends[0] and "Ana" in legends[0] and "Dan" in legends[0]
    assert "Board 2" in legends[1] and "Cy" in legends[1] and "Ben" in legends[1]


def test_a_deal_is_checked_then_saved_in_one_tap_and_said_in_one_breath(client):
    match_id = import_match(client, table_case("partners-example", hands=0))
    checked = post_deal(client, match_id, check="1", **FIRST_DEAL)
    assert checked.status_code == 200
    assert "Ben and Dan win the deal by 18." in checked.get_data(as_text=True)
    assert export(client, match_id)["hands"] == []  # a check saves nothing
    saved = post_deal(client, match_id, **FIRST_DEAL)
    assert saved.status_code == 303
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Ben and Dan win the deal by 18." in page
    assert export(client, match_id)["hands"] == table_case("partners-example")["hands"][:1]


def test_a_board_refused_names_the_board_and_stores_nothing(client):
    match_id = import_match(client, table_case("partners-example", hands=0))
    refused = post_deal(client, match_id, **dict(FIRST_DEAL, b2_knocker="Ana"))
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "boards.2.knocker" in page and 'class="board-entry refused"' in page
    assert export(client, match_id)["hands"] == []


def test_chouette_names_todays_captain_and_the_next_after_the_save(client):
    match_id = import_match(client, table_case("chouette-three", hands=0))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Ben captains this deal" in page
    saved = post_deal(client, match_id, b1_result="knock", b1_knocker="Ana", b1_kd="3", b1_od="30")
    after = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Ana wins the deal by 27." in after and "Cy captains the next deal." in after


def new_table(client, players, **fields):
    page = client.get("/matches/new").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "players": list(players), "format": "hollywood",
            "preset": "classic", "first_dealer": "3", **fields}
    return client.post("/matches/new", data=data)


def test_the_new_match_form_offers_each_table_with_its_defaults_beside_it(client):
    page = client.get("/matches/new").get_data(as_text=True)
    assert page.count('name="table"') == 3 and page.count('name="players"') == 4
    assert "plays to 125" in page and "sits opposite the third" in page
    assert "partners only; by default: opponents change every deal" in page


def test_a_partners_match_started_from_the_form_seats_four_and_plays_to_125(client):
    made = new_table(client, ("Ana", "Ben", "Cy", "Dan"), table="partners", pairing="fixed")
    assert made.status_code == 302, made.get_data(as_text=True)
    match_id = int(made.headers["Location"].rsplit("/", 1)[1])
    doc = export(client, match_id)
    assert (doc["table"], doc["players"], doc["first_dealer"]) == ("partners", ["Ana", "Ben", "Cy", "Dan"], "Cy")
    assert doc["rules"]["target"] == 125 and doc["rules"]["pairing"] == "fixed"
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Cy deals" in page  # board 2 of deal 1 is Cy against Dan: Cy's side deals


def test_a_table_short_of_players_is_refused_naming_the_field_and_nothing_is_stored(client):
    refused = new_table(client, ("Ana", "Ben", "Cy", ""), table="partners")
    assert refused.status_code == 400
    assert "seats 4 players" in refused.get_data(as_text=True)
    assert 'class="scores"' not in client.get("/").get_data(as_text=True)  # no match was started


def test_a_tables_pages_answer_and_its_card_grid_names_the_boards_players(client):
    playing = import_match(client, table_case("chouette-three", hands=0))
    answer = client.get(f"/matches/{playing}/count")
    assert answer.status_code == 200
    assert "Ana vs Ben" in answer.get_data(as_text=True)  # Ana in the box plays the captain, Ben
    match_id = import_match(client, table_case("chouette-three"))
    for path in ("", "/history", ".json", ".csv", "/sheet", "/sheet.svg", "/summary.txt", "/evening.txt", "/big",
                 "/hands/1", "/hands/1/delete", "/hands/new?before=1"):
        assert client.get(f"/matches/{match_id}{path}").status_code == 200, path
    for path in ("/", "/ladder", "/tonight"):  # the club's book counts matches of two only, for now
        assert client.get(path).status_code == 200, path


def test_the_last_deal_is_undone_whole_and_its_history_keeps_it(client):
    match_id = import_match(client, table_case("partners-example"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Undo deal 3" in page
    answer = client.post(f"/matches/{match_id}/deals/undo",
                         data={"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version")})
    assert answer.status_code == 303
    assert export(client, match_id)["hands"] == table_case("partners-example")["hands"][:2]
    assert "Deal 3 undone" in client.get(answer.headers["Location"]).get_data(as_text=True)
    stale = client.post(f"/matches/{match_id}/deals/undo",
                        data={"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version")})
    assert stale.status_code == 303 and len(export(client, match_id)["hands"]) == 2  # the old page changes nothing


def test_a_tables_history_names_its_sides_and_its_undone_deal(client):
    match_id = import_match(client, table_case("partners-example"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/deals/undo",
                data={"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version")})
    history = client.get(f"/matches/{match_id}/history")
    assert history.status_code == 200
    text = history.get_data(as_text=True)
    assert "of Ana &amp; Cy vs Ben &amp; Dan" in text
    assert "Restore hand" not in text  # not offered for a table yet: its page would not show the deal back


def test_the_deal_is_said_in_one_breath_in_each_language(client):
    match_id = import_match(client, table_case("partners-example", hands=0))
    said = {"en": "Ben and Dan win the deal by 18.", "cs": "Ben a Dan vyhrávají rozdání o 18.",
            "sk": "Ben a Dan vyhrávajú rozdanie o 18.", "sq": "Ben dhe Dan fitojnë ndarjen me 18."}
    for lang, words in said.items():
        page = client.get(f"/matches/{match_id}?lang={lang}").get_data(as_text=True)
        checked = client.post(f"/matches/{match_id}/deals", data={
            "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), "check": "1", **FIRST_DEAL})
        assert words in checked.get_data(as_text=True), lang


def bare(page: str) -> str:
    """`page` without the Unicode isolates around the names in its title (models/game/names.isolated)."""
    return page.replace("\u2068", "").replace("\u2069", "")


def test_the_join_page_names_the_tables_sides_as_its_other_pages_do(client):
    partners = import_match(client, table_case("partners-example"))
    page = bare(client.get(f"/matches/{partners}/join").get_data(as_text=True))
    assert "<title>Join from another phone · Ana &amp; Cy – Ben &amp; Dan · Gin Ledger</title>" in page
    assert '<p class="meta">partners, two against two · Ana &amp; Cy – Ben &amp; Dan</p>' in page
    chouette = import_match(client, table_case("chouette-four-hollywood"))
    page = bare(client.get(f"/matches/{chouette}/join").get_data(as_text=True))
    assert "Iva – Jan &amp; Kim &amp; Lea · Gin Ledger</title>" in page
    assert '<p class="meta">chouette, one against the table · Iva – Jan &amp; Kim &amp; Lea · Iva is in the box</p>' in page


def test_a_tables_page_draws_each_games_race_between_its_sides(client):
    """The race to the target per game, as a match of two has it, with the sides as its two lines: each
    line ends at the side's score in that game, and the page follows it live (the sheet region)."""
    doc = table_case("partners-hollywood-whole-match")
    match_id = import_match(client, doc)
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    races = re.findall(r'<svg [^>]*class="race" data-game="(\d)"', html)
    assert races == ["1", "2", "3"]
    sides = re.findall(r'data-player="([^"]+)"', html)
    assert sides[:2] == ["Jana &amp; Eva", "Petr &amp; Karel"] and len(sides) == 6
    expected = json.loads((CASES / "tables" / "partners-hollywood-whole-match.json").read_text())["expected"]
    for game in expected["games"]:  # each line ends at the case's score of its side in that game
        drawn = html.split(f'data-game="{game["number"]}"', 1)[1].split("</svg>", 1)[0]
        ends = [int(v) for v in re.findall(r'class="value s\d" aria-hidden="true">(-?\d+)<', drawn)]
        assert ends == [game["scores"][name] for name in ("Jana & Eva", "Petr & Karel")], game["number"]
    live = client.get(f"/matches/{match_id}/live").get_data(as_text=True)
    assert live.count('class="race"') == 3
    assert client.get(f"/matches/{match_id}/big").get_data(as_text=True).count("table-races") == 1
