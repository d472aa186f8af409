"""A table of three or four's deals changed whole through its pages (issue 46): a deal edited (both boards
on one form, one write), refused per board with nothing stored, asked first when it turns a game, deleted
and restored from the history, a forgotten deal inserted before deal 2, each change in the history. The
figures after a change are compared with the engine's fold of the edited file."""
import copy
import json
import re

from models.files.matchfile import replay
from views.site.errors import STALE
from test_table_web import table_case
from webutil import export, hidden, import_match

# Deal 1 of partners-example with board 1's knocker's deadwood 3 -> 5, as the form sends it.
EDITED_FIRST = {"b1_result": "knock", "b1_knocker": "Ana", "b1_kd": "5", "b1_od": "20",
                "b2_result": "gin", "b2_knocker": "Dan", "b2_od": "10"}


def engine(doc: dict) -> dict:
    """What the engine folds the file into: the export's `result`, as the app must give it."""
    return replay(json.dumps(doc))


def page_form(client, url: str) -> tuple[str, dict]:
    page = client.get(url)
    assert page.status_code == 200, page.get_data(as_text=True)[:400]
    html = page.get_data(as_text=True)
    data = {"csrf_token": hidden(html, "csrf_token"), "version": hidden(html, "version")}
    if 'name="form_id"' in html:
        data["form_id"] = hidden(html, "form_id")
    return html, data


def edit(client, match_id: int, number: int, **fields):
    _, data = page_form(client, f"/matches/{match_id}/hands/{number}")
    return client.post(f"/matches/{match_id}/hands/{number}", data={**data, **fields})


def test_the_edit_page_opens_with_the_deal_as_entered(client):
    match_id = import_match(client, table_case("partners-example"))
    html, _ = page_form(client, f"/matches/{match_id}/hands/1")
    assert "Edit deal 1" in html and "Ben and Dan win the deal by 18." in html
    assert re.search(r'name="b1_knocker" value="Ana" checked', html)
    assert re.search(r'id="b1_kd" name="b1_kd"[^>]*value="3"', html)
    assert re.search(r'name="b2_result" value="gin" checked', html)
    typed, _ = page_form(client, f"/matches/{match_id}/hands/3")
    assert re.search(r'name="typed" checked', typed) and re.search(r'name="typed_points"[^>]*value="40"', typed)


def test_an_edited_deal_replaces_both_boards_and_every_later_figure_is_the_engines(client):
    doc = table_case("partners-example")
    match_id = import_match(client, doc)
    saved = edit(client, match_id, 1, **EDITED_FIRST)
    assert saved.status_code == 303 and saved.headers["Location"].endswith("#told")
    edited = copy.deepcopy(doc)
    edited["hands"][0]["boards"][0]["knocker_deadwood"] = 5
    after = export(client, match_id)
    assert after["hands"] == edited["hands"]
    assert after["result"] == engine(edited) != engine(doc)
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Deal 1 changed" in page and "Ben and Dan win the deal by 20." in page


def test_a_refused_board_names_the_board_and_field_and_stores_nothing(client):
    match_id = import_match(client, table_case("partners-example"))
    before = export(client, match_id)
    refused = edit(client, match_id, 1, **dict(EDITED_FIRST, b2_knocker="Ana"))
    assert refused.status_code == 400
    html = refused.get_data(as_text=True)
    assert "boards.2.knocker" in html and 'class="board-entry refused"' in html
    assert 'value="Ana" checked' in html  # what was typed is kept on the form
    assert export(client, match_id) == before


def test_an_edit_that_closes_a_game_is_asked_first_saying_what_stood(client):
    doc = table_case("partners-example")
    match_id = import_match(client, doc)
    before = export(client, match_id)
    asked = edit(client, match_id, 3, typed="on", typed_winner="Ben", typed_points="200")
    assert asked.status_code == 409
    html = asked.get_data(as_text=True).replace("&amp;", "&")
    assert "Game 1 is now closed: Ben & Dan wins it (before: still open)." in html
    assert export(client, match_id) == before
    confirmed = client.post(f"/matches/{match_id}/hands/3", data={
        "csrf_token": hidden(html, "csrf_token"), "version": hidden(html, "version"), "confirmed": "yes",
        "typed": "on", "typed_winner": "Ben", "typed_points": "200"})
    assert confirmed.status_code == 303
    doc["hands"][2] = {"winner": "Ben", "points": 200}
    assert export(client, match_id)["result"] == engine(doc)


def test_a_deleted_deal_is_restored_from_the_history_to_the_same_export(client):
    match_id = import_match(client, table_case("partners-example"))
    before = export(client, match_id)
    html, data = page_form(client, f"/matches/{match_id}/hands/2/delete")
    assert "Delete deal 2?" in html and "What moves" in html
    deleted = client.post(f"/matches/{match_id}/hands/2/delete",
                          data={"csrf_token": data["csrf_token"], "version": data["version"]})
    assert deleted.status_code == 303
    assert len(export(client, match_id)["hands"]) == 2
    history = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "Restore deal 2" in history and "Board 1: Draw; Board 2:" in history
    assert "Deal 2 deleted on" in history and "Hand 2 deleted" not in history
    hand_id = re.search(r'action="/matches/\d+/hands/(\d+)/restore"', history).group(1)
    restored = client.post(f"/matches/{match_id}/hands/{hand_id}/restore",
                           data={"csrf_token": hidden(history, "csrf_token"), "version": hidden(history, "version")})
    assert restored.status_code == 302 and restored.headers["Location"].endswith("#told")
    assert '<a href="#deal-2">' in client.get(restored.headers["Location"]).get_data(as_text=True)
    assert export(client, match_id) == before
    assert "Deal 2 restored on" in client.get(f"/matches/{match_id}/history").get_data(as_text=True)


def test_a_forgotten_deal_goes_in_before_deal_2(client):
    doc = table_case("partners-example")
    match_id = import_match(client, doc)
    html, data = page_form(client, f"/matches/{match_id}/hands/new?before=2")
    assert "before deal 2" in html
    legends = re.findall(r"<legend>(.*?)</legend>", html, re.S)
    assert "Ana" in legends[0] and "Dan" in legends[0]  # deal 2's boards: Ana plays Dan, Cy plays Ben
    fields = {"before": "2", "b1_result": "knock", "b1_knocker": "Ana", "b1_kd": "2", "b1_od": "12",
              "b2_result": "draw"}
    saved = client.post(f"/matches/{match_id}/hands/insert", data={**data, **fields})
    assert saved.status_code == 303
    doc["hands"].insert(1, {"boards": [{"knocker": "Ana", "knocker_deadwood": 2, "opponent_deadwood": 12},
                                       {"draw": True}]})
    after = export(client, match_id)
    assert after["hands"] == doc["hands"] and after["result"] == engine(doc)
    again = client.post(f"/matches/{match_id}/hands/insert", data={**data, **fields})  # a second tap
    assert again.status_code == 303 and export(client, match_id) == after


def test_the_history_lists_each_change_of_a_deal(client):
    match_id = import_match(client, table_case("partners-example"))
    assert edit(client, match_id, 1, **EDITED_FIRST).status_code == 303
    _, data = page_form(client, f"/matches/{match_id}/hands/new?before=3")
    client.post(f"/matches/{match_id}/hands/insert", data={**data, "before": "3", "typed": "on",
                                                          "typed_winner": "Ana", "typed_points": "7"})
    page = client.get(f"/matches/{match_id}")
    html = page.get_data(as_text=True)
    client.post(f"/matches/{match_id}/deals/undo",
                data={"csrf_token": hidden(html, "csrf_token"), "version": hidden(html, "version")})
    history = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    for action in ("Deal 1 changed", "Deal 3 inserted", "Deal 4 undone"):
        assert action in history, action
    assert not re.search(r"<strong>Hand \d", history)  # a table's events are its deals
    assert "Deleted deals" in history and "Deleted hands" not in history
    assert "Board 1: Knocker&#39;s deadwood 3 → 5" in history


def test_a_chouette_deal_is_edited_and_one_that_moves_a_later_captain_is_refused(client):
    doc = table_case("chouette-three")  # deal 1: Ana (in the box) beats Ben; deal 2: Cy captains
    match_id = import_match(client, doc)
    html, _ = page_form(client, f"/matches/{match_id}/hands/1")
    assert re.search(r'name="b1_knocker" value="Ana" checked', html)
    before = export(client, match_id)
    # Ben winning deal 1 keeps Ben captain, so deal 2's knocker Cy is no longer at the board
    refused = edit(client, match_id, 1, b1_result="knock", b1_knocker="Ben", b1_kd="1", b1_od="30")
    assert refused.status_code == 400 and "hand 2" in refused.get_data(as_text=True)
    assert export(client, match_id) == before
    saved = edit(client, match_id, 1, b1_result="knock", b1_knocker="Ana", b1_kd="1", b1_od="30")
    assert saved.status_code == 303, saved.get_data(as_text=True)[:400]
    doc["hands"][0] = {"knocker": "Ana", "knocker_deadwood": 1, "opponent_deadwood": 30}
    assert export(client, match_id)["result"] == engine(doc)


def test_each_deal_row_links_its_edit_delete_and_insert(client):
    match_id = import_match(client, table_case("partners-example"))
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    for n in (1, 2, 3):
        assert f'href="/matches/{match_id}/hands/{n}"' in html
        assert f'href="/matches/{match_id}/hands/{n}/delete"' in html
        assert f'href="/matches/{match_id}/hands/new?before={n}"' in html


def test_the_routes_of_a_hand_of_two_take_back_and_undo_a_tables_last_deal(client):
    match_id = import_match(client, table_case("partners-example"))
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    token = {"csrf_token": hidden(html, "csrf_token"), "version": hidden(html, "version")}
    refused = client.post(f"/matches/{match_id}/hands/2/take-back", data=token)
    assert refused.status_code == 303 and len(export(client, match_id)["hands"]) == 3  # not the last deal
    assert client.post(f"/matches/{match_id}/hands/3/take-back", data=token).status_code == 303
    assert len(export(client, match_id)["hands"]) == 2
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/undo", data={"csrf_token": hidden(html, "csrf_token"),
                                                   "version": hidden(html, "version")})
    assert export(client, match_id)["hands"] == table_case("partners-example")["hands"][:1]


def test_an_edit_from_a_page_drawn_before_another_change_is_stale_and_stores_nothing(client):
    match_id = import_match(client, table_case("partners-example"))
    _, data = page_form(client, f"/matches/{match_id}/hands/1")
    assert edit(client, match_id, 2, b1_result="draw", b2_result="draw").status_code == 303
    after = export(client, match_id)
    stale = client.post(f"/matches/{match_id}/hands/1", data={**data, **EDITED_FIRST})
    assert stale.status_code == 303
    assert STALE in client.get(stale.headers["Location"]).get_data(as_text=True)
    assert export(client, match_id) == after


def test_the_preview_says_what_a_deal_would_do_and_stores_nothing(client):
    match_id = import_match(client, table_case("partners-example"))
    before = export(client, match_id)
    edited = client.get(f"/matches/{match_id}/hands/1/preview", query_string=EDITED_FIRST).get_json()
    assert edited["status"] == "scored" and edited["sentence"] == "Ben and Dan win the deal by 20."
    refused = client.get(f"/matches/{match_id}/hands/1/preview",
                         query_string=dict(EDITED_FIRST, b2_knocker="Ana")).get_json()
    assert refused["status"] == "refused" and refused["field"] == "boards.2.knocker" and refused["board"] == 2
    following = client.get(f"/matches/{match_id}/preview", query_string={"typed": "on", "typed_winner": "Cy",
                                                                        "typed_points": "9"}).get_json()
    assert following["sentence"] == "Ana and Cy win the deal by 9."
    assert export(client, match_id) == before
