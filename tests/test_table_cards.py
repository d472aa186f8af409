"""A table's card grid per board (issue 46): "Count cards" for board N takes the deal form's entries to the
grid of that board's two players, and "Use these counts" brings them back with board N's knocker, result and
deadwoods counted, the other board's entries as they were. Without a script: a post, then plain GETs."""
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

from test_cards_web import DEFENDER, GIN, KNOCKER
from test_table_web import post_deal, table_case
from webutil import export, hidden, import_match

# Deal 1 of partners-example: board 1 Ana vs Ben, board 2 Cy vs Dan. Board 1 typed, board 2 to count.
AFTER_GIN = "6H 7H 8H 9C 9D 2C 3C 4D 6D 8C".split()  # 6-7-8H; nothing to lay off after gin: 41
BOARD_1 = {"b1_result": "knock", "b1_knocker": "Ana", "b1_kd": "3", "b1_od": "20"}


def new_table(client, case: str = "partners-example") -> int:
    return import_match(client, table_case(case, hands=0))


def to_grid(client, match_id: int, board: int, **entries) -> str:
    """The deal form's "Count cards" for `board`, posted with `entries`: where its 303 sends the phone."""
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'name="board" value="{board}"' in page and f'formaction="/matches/{match_id}/deals/count"' in page
    answer = client.post(f"/matches/{match_id}/deals/count", data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), "number": "1",
        "board": str(board), **entries})
    assert answer.status_code == 303
    return answer.headers["Location"]


def query(url: str) -> dict:
    return {key: values[0] if len(values) == 1 else values for key, values in parse_qs(urlsplit(url).query).items()}


def grid_form(html: str) -> list[tuple[str, str]]:
    """The count form's hidden fields, as the grid sends them back."""
    form = html[html.index('id="count-form"'):html.index("</form>")]
    return [(unescape(name), unescape(value))
            for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form)]


def use(client, match_id: int, fields, knocker=None, k=(), d=()):
    taps = ([("knocker", knocker)] if knocker else []) + [("k", c) for c in k] + [("d", c) for c in d]
    return client.get(f"/matches/{match_id}/count/use", query_string=list(fields) + taps)


def value(html: str, field: str) -> str:
    match = re.search(rf'id="{field}" name="{field}"[^>]*value="([^"]*)"', html)
    assert match, field
    return unescape(match.group(1))


def checked(html: str, field: str) -> str | None:
    match = re.search(rf'name="{field}" value="([^"]*)" checked', html)
    return unescape(match.group(1)) if match else None


def test_count_cards_for_board_two_names_its_players_and_carries_the_deal_form(client):
    match_id = new_table(client)
    location = to_grid(client, match_id, 2, b2_knocker="Dan", **BOARD_1)
    asked = query(location)
    assert urlsplit(location).path == f"/matches/{match_id}/count"
    assert asked == {"board": "2", "knocker": "Dan", **BOARD_1, "b2_knocker": "Dan"}
    assert "csrf_token" not in asked and "form_id" not in asked  # the form's token never goes in an address
    page = client.get(location)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Deal 1 · Board 2: Cy vs Dan." in html
    assert re.findall(r'name="knocker" value="([^"]+)"', html) == ["Cy", "Dan"]
    assert checked(html, "knocker") == "Dan"
    assert ("board", "2") in grid_form(html) and ("b1_kd", "3") in grid_form(html)
    back = re.search(r'<a class="button" href="([^"]+)">Back without counting</a>', html).group(1)
    assert query(unescape(back))["b1_od"] == "20" and unescape(back).endswith("#deal-form")


def test_the_counted_deadwoods_land_in_board_twos_fields_and_board_one_keeps_its_entries(client):
    match_id = new_table(client)
    html = client.get(to_grid(client, match_id, 2, **BOARD_1)).get_data(as_text=True)
    answer = use(client, match_id, grid_form(html), "Dan", KNOCKER, DEFENDER)
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert urlsplit(location).path == f"/matches/{match_id}" and location.endswith("#deal-form")
    assert query(location) == {**BOARD_1, "b2_knocker": "Dan", "b2_result": "knock", "b2_kd": "2", "b2_od": "18"}
    form = client.get(location).get_data(as_text=True)
    assert value(form, "b2_kd") == "2" and value(form, "b2_od") == "18" and checked(form, "b2_knocker") == "Dan"
    assert value(form, "b1_kd") == "3" and value(form, "b1_od") == "20" and checked(form, "b1_knocker") == "Ana"
    assert checked(form, "b1_result") == "knock" and checked(form, "b2_result") == "knock"
    assert export(client, match_id)["hands"] == []  # counting saves nothing
    # The deal as the form now holds it saves both boards.
    fields = {**BOARD_1, "b2_result": "knock", "b2_knocker": "Dan", "b2_kd": "2", "b2_od": "18"}
    assert post_deal(client, match_id, **fields).status_code == 303
    boards = export(client, match_id)["hands"][0]["boards"]
    assert boards[0]["knocker_deadwood"] == 3 and boards[0]["opponent_deadwood"] == 20
    assert boards[1] == {"knocker": "Dan", "knocker_deadwood": 2, "opponent_deadwood": 18}


def test_board_one_counted_as_gin_leaves_board_twos_entries_and_the_typed_points(client):
    match_id = new_table(client)
    typed = {"b2_result": "draw", "typed_points": "12"}
    html = client.get(to_grid(client, match_id, 1, **typed)).get_data(as_text=True)
    assert "Board 1: Ana vs Ben." in html
    location = use(client, match_id, grid_form(html), "Ben", GIN, AFTER_GIN).headers["Location"]
    assert query(location) == {**typed, "b1_knocker": "Ben", "b1_result": "gin", "b1_kd": "0", "b1_od": "41"}
    form = client.get(location).get_data(as_text=True)
    assert checked(form, "b1_result") == "gin" and checked(form, "b2_result") == "draw"
    assert value(form, "typed_points") == "12"


def test_chouettes_one_board_is_counted_into_its_fields(client):
    match_id = new_table(client, "chouette-three")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert ">Count cards</button>" in page  # one board: no board number on the button
    html = client.get(to_grid(client, match_id, 1)).get_data(as_text=True)
    assert "Deal 1 · Ana vs Ben." in html and "Board 1" not in html
    location = use(client, match_id, grid_form(html), "Ana", KNOCKER, DEFENDER).headers["Location"]
    assert query(location) == {"b1_knocker": "Ana", "b1_result": "knock", "b1_kd": "2", "b1_od": "18"}


def test_a_bad_card_code_is_refused_by_its_field_and_changes_nothing(client):
    match_id = new_table(client)
    html = client.get(to_grid(client, match_id, 2, **BOARD_1)).get_data(as_text=True)
    answer = use(client, match_id, grid_form(html), "Dan", KNOCKER[:-1] + ["ZZ"], DEFENDER)
    assert answer.status_code == 400  # no redirect: the form is not filled
    refused = answer.get_data(as_text=True)
    assert re.search(r'role="alert"><p>k: [^<]*ZZ', refused), refused[:2000]
    assert ("b1_kd", "3") in grid_form(refused)  # the entries still go round with the next try
    assert client.get(f"/matches/{match_id}/count.json",
                      query_string=grid_form(html) + [("d", "XX")]).get_json()["error"].startswith("d: ")
    assert export(client, match_id)["hands"] == []


def test_a_board_the_deal_has_not_is_refused_by_name(client):
    match_id = new_table(client)
    for board in ("3", "x", "0"):
        answer = client.get(f"/matches/{match_id}/count", query_string={"board": board})
        assert answer.status_code == 400
        assert f"board: the next deal has no board {board}." in answer.get_data(as_text=True)
    chouette = new_table(client, "chouette-three")
    assert client.get(f"/matches/{chouette}/count", query_string={"board": "2"}).status_code == 400


def test_the_grids_json_counts_the_boards_hands(client):
    match_id = new_table(client)
    answer = client.get(f"/matches/{match_id}/count.json", query_string=[("board", "2"), ("knocker", "Cy")]
                        + [("k", c) for c in KNOCKER] + [("d", c) for c in DEFENDER])
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["k"]["count"] == 2 and body["d"]["count"] == 18
