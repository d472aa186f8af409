"""Nothing entered is ever lost: a forgotten hand inserted, a deleted hand or match restored,
each hand's history (with the device), and the backup that keeps it all."""
import re
import sqlite3
from html import unescape

import pytest

from webutil import case, export, hidden, import_match, new_match, post_hand

AGENT = {"User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"}


def version_of(client, match_id: int) -> str:
    return hidden(client.get(f"/matches/{match_id}").get_data(as_text=True), "version")


def form_with(page: str, button: str) -> tuple[str, dict]:
    """The action and hidden fields of the form whose button says `button`."""
    for form in re.findall(r"<form\b.*?</form>", page, re.DOTALL):
        if button in unescape(form):
            action = unescape(re.search(r'action="([^"]*)"', form).group(1))
            pairs = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
            pairs += re.findall(r'<input id="\w+" name="(csrf_token|version|form_id)" type="hidden" value="([^"]*)"', form)
            return action, {unescape(n): unescape(v) for n, v in pairs}
    raise AssertionError(f"no form with {button!r}")


def insert(client, match_id: int, before: int, **fields):
    page = client.get(f"/matches/{match_id}/hands/new?before={before}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
            "version": hidden(page, "version"), "before": str(before), **fields}
    return client.post(f"/matches/{match_id}/hands/insert", data=data)


def delete(client, match_id: int, number: int, **headers):
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    return client.post(f"/matches/{match_id}/hands/{number}/delete", headers=headers, data={
        "csrf_token": hidden(page, "csrf_token"), "version": version_of(client, match_id)})


def test_a_forgotten_hand_goes_before_hand_2_and_the_app_says_what_moved(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    hands = export(client, match_id)["hands"]
    response = insert(client, match_id, 2, knocker="Ben", knocker_deadwood="3", opponent_deadwood="20")
    assert response.status_code == 302 and response.headers["Location"].endswith("#told")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Inserted as hand 2" in page
    assert "Hand 2, now hand 3:" in page  # the dealers of the hands after it change
    after = export(client, match_id)["hands"]
    assert after[0] == hands[0] and after[2:] == hands[1:]
    assert after[1] == {"knocker": "Ben", "knocker_deadwood": 3, "opponent_deadwood": 20}


def test_an_insert_that_closes_a_game_earlier_says_so(client):
    match_id = import_match(client, case("seed001-ana-ben"))  # Ana wins game 1 with hand 6
    response = insert(client, match_id, 2, winner="Ana", points="40")
    page = unescape(client.get(response.headers["Location"]).get_data(as_text=True))
    assert "Game 1 now closes with hand 5 (before: hand 6)." in page


def test_the_same_insert_form_posted_twice_stores_one_hand(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}/hands/new?before=1").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
            "version": hidden(page, "version"), "before": "1", "draw": "true"}
    assert client.post(f"/matches/{match_id}/hands/insert", data=data).status_code == 302
    again = client.post(f"/matches/{match_id}/hands/insert", data=data, follow_redirects=True)
    assert "already saved" in again.get_data(as_text=True)
    assert len(export(client, match_id)["hands"]) == 7


def test_a_stale_insert_changes_nothing(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}/hands/new?before=1").get_data(as_text=True)
    post_hand(client, match_id, draw="true")
    response = client.post(f"/matches/{match_id}/hands/insert", follow_redirects=True, data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
        "version": hidden(page, "version"), "before": "1", "draw": "true"})
    assert "changed on another phone" in response.get_data(as_text=True)
    assert len(export(client, match_id)["hands"]) == 7


def test_a_page_that_names_a_hand_another_phone_took_away_is_told_the_match_changed(client):
    """A phone's page of hand 6 (its edit, its delete, an insert before it) after the other phone deleted
    hand 6: what it posts is stale, and it is told so and sent to the match, not given a bare 404."""
    match_id = import_match(client, case("seed001-ana-ben"))
    edit = client.get(f"/matches/{match_id}/hands/6").get_data(as_text=True)
    insert_page = client.get(f"/matches/{match_id}/hands/new?before=6").get_data(as_text=True)
    stale = {"csrf_token": hidden(edit, "csrf_token"), "version": hidden(edit, "version")}
    assert delete(client, match_id, 6).status_code in (302, 303)
    hands = export(client, match_id)["hands"]
    for path, data in ((f"/matches/{match_id}/hands/6", {**stale, "draw": "true"}),
                       (f"/matches/{match_id}/hands/6/delete", stale),
                       (f"/matches/{match_id}/hands/insert", {**stale, "form_id": hidden(insert_page, "form_id"),
                                                              "before": "6", "draw": "true"})):
        answer = client.post(path, data=data)
        assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/matches/{match_id}"), path
        shown = client.get(answer.headers["Location"]).get_data(as_text=True)
        assert "This match changed on another phone; here it is now." in shown, path
        assert export(client, match_id)["hands"] == hands
    current = {"csrf_token": hidden(edit, "csrf_token"), "version": version_of(client, match_id)}
    assert client.post(f"/matches/{match_id}/hands/6/delete", data=current).status_code == 404  # at this version


def test_an_insert_naming_two_places_is_refused(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}/hands/new?before=1").get_data(as_text=True)
    answer = client.post(f"/matches/{match_id}/hands/insert", data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
        "version": hidden(page, "version"), "before": ["1", "3"], "draw": "true"})
    assert answer.status_code == 400 and "Say which hand it goes before." in answer.get_data(as_text=True)
    assert len(export(client, match_id)["hands"]) == 6


def test_an_insert_that_would_end_the_match_before_its_last_hand_is_refused(client):
    match_id = import_match(client, case("full-hollywood-match"))
    before = export(client, match_id)
    winner = before["result"]["winner"]
    response = insert(client, match_id, 13, knocker=winner, knocker_deadwood="0", opponent_deadwood="90",
                      big_gin="y")
    assert response.status_code == 400
    assert "with this hand the match would be over after hand 13" in unescape(response.get_data(as_text=True))
    assert export(client, match_id) == before


def test_a_deleted_hand_is_restored_exactly_as_it_was(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    before = export(client, match_id)
    response = delete(client, match_id, 3)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert len(export(client, match_id)["hands"]) == 5
    action, data = form_with(page, "Restore hand 3")
    assert action.endswith("/restore")
    assert client.post(action, data=data).status_code == 302
    assert export(client, match_id) == before
    again = client.post(action, data=data, follow_redirects=True)  # a double tap restores nothing twice
    assert export(client, match_id) == before and "already restored" in again.get_data(as_text=True)


def test_an_undone_hand_is_restored_from_the_history_page(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    before = export(client, match_id)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/undo", data={"csrf_token": hidden(page, "csrf_token"),
                                                    "version": version_of(client, match_id)})
    history = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "Hand 6 undone" in history
    action, data = form_with(history, "Restore hand 6")
    assert client.post(action, data=data).status_code == 302
    assert export(client, match_id) == before


def test_a_restore_the_match_no_longer_allows_is_refused_with_the_reason(client):
    match_id = import_match(client, case("full-hollywood-match"))
    delete(client, match_id, 13)
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    action, data = form_with(page, "Restore hand 13")
    winner = export(client, match_id)["players"][0]
    # Hands entered meanwhile end the match; hand 13 back at its place would come after the end.
    while not client.get(f"/matches/{match_id}.json").get_json()["result"].get("finished"):
        post_hand(client, match_id, knocker=winner, knocker_deadwood="0", opponent_deadwood="90", big_gin="y")
    data["version"] = version_of(client, match_id)
    kept = export(client, match_id)
    refused = client.post(action, data=data, follow_redirects=True).get_data(as_text=True)
    assert "Not restored" in refused and "would be over after hand" in unescape(refused)
    assert export(client, match_id) == kept


def test_a_deleted_match_leaves_every_list_and_comes_back(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    before = export(client, match_id)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    token = hidden(page, "csrf_token")
    assert client.post(f"/matches/{match_id}/delete", data={"csrf_token": token}).status_code == 302
    assert client.get(f"/matches/{match_id}.json").status_code == 200  # not confirmed: nothing deleted
    client.post(f"/matches/{match_id}/delete", data={"csrf_token": token, "confirm": "yes"})
    assert client.get(f"/matches/{match_id}").status_code == 404
    assert client.get(f"/matches/{match_id}.json").status_code == 404
    home = client.get("/").get_data(as_text=True)
    assert f'href="/matches/{match_id}"' not in home and "Deleted matches (1)" in home
    assert f"/matches/{match_id}/delete" not in client.get("/players/Ana").get_data(as_text=True)
    action, data = form_with(home, "Restore")
    assert action == f"/matches/{match_id}/restore"
    assert client.post(action, data=data).status_code == 302
    assert export(client, match_id) == before
    again = client.post(action, data=data, follow_redirects=True)  # a second tap: nothing to restore
    assert "That match is not deleted" in again.get_data(as_text=True)
    assert "Deleted matches" not in client.get("/").get_data(as_text=True)


def test_each_change_is_in_the_history_with_the_device(client):
    match_id = new_match(client)
    post_hand(client, match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="22")
    post_hand(client, match_id, draw="true")
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    client.post("/device", data={"csrf_token": hidden(page, "csrf_token"), "match": str(match_id),
                                 "device": "Ana's phone"})
    edit = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    client.post(f"/matches/{match_id}/hands/1", data={
        "csrf_token": hidden(edit, "csrf_token"), "version": hidden(edit, "version"),
        "knocker": "Ana", "knocker_deadwood": "6", "opponent_deadwood": "22"})
    with client.session_transaction() as session:
        session.pop("device")  # unnamed again: the browser's User-Agent names it
    delete(client, match_id, 2, **AGENT)
    history = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    action, data = form_with(history, "Restore hand 2")
    client.post(action, data=data, headers=AGENT)
    html = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "knocker_deadwood" not in html  # the hand form's words, not the match file's keys
    text = unescape(re.sub(r"</?code[^>]*>", "", html))
    assert re.search(r"Hand 1 changed on Ana's phone at \d{1,2}:\d{2}(?:\u202f[AP]M)?", text)
    assert "Knocker's deadwood 4 → 6" in text
    assert re.search(r"Hand 2 deleted on Chrome on Android at \d{1,2}:\d{2}(?:\u202f[AP]M)?", text)
    assert re.search(r"Hand 2 restored on Chrome on Android at \d{1,2}:\d{2}(?:\u202f[AP]M)?", text)
    assert re.search(r"Hand 1 entered on [^<]+ at \d{1,2}:\d{2}(?:\u202f[AP]M)?", text)
    assert "history" not in client.get(f"/matches/{match_id}.json").get_data(as_text=True)


@pytest.mark.sqlite_only  # the backup of a file; on PostgreSQL it says pg_dump (tests/test_copy_db.py)
def test_the_backup_keeps_the_history_and_the_deleted_hands(app, client, runner, tmp_path):
    match_id = import_match(client, case("seed001-ana-ben"))
    post_hand(client, match_id, draw="true")
    delete(client, match_id, 7)
    target = tmp_path / "copy.sqlite"
    assert runner.invoke(args=["backup", str(target)]).exit_code == 0
    copy = sqlite3.connect(target)
    actions = [row[0] for row in copy.execute("SELECT action FROM hand_event WHERE match_id = ? ORDER BY id",
                                              (match_id,))]
    assert actions == ["entered", "deleted"]
    assert copy.execute("SELECT COUNT(*) FROM hand WHERE match_id = ? AND deleted IS NOT NULL",
                        (match_id,)).fetchone()[0] == 1
