"""The match page through the Flask test client: entering, refusing, editing, undoing."""
import json

import re
from html import unescape

import pytest

from models.files.matchfile import replay
from webutil import case, export, hidden, import_match, new_match, post_hand, hand_count


def test_seed001_played_through_the_hand_form_matches_replay(client):
    doc = case("seed001-ana-ben")
    match_id = new_match(client, players=doc["players"])
    for hand in doc["hands"]:
        assert post_hand(client, match_id, **{k: str(v) for k, v in hand.items()}).status_code == 302
    result = export(client, match_id)["result"]
    doc["first_dealer"] = doc["players"][0]
    assert result == replay(json.dumps(doc))
    assert result["games"][0]["settlement"]["net"] == 196


@pytest.mark.parametrize("fields, result, points", [
    ({"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22"}, "knock", 18),
    ({"knocker": "Ana", "knocker_deadwood": "0", "opponent_deadwood": "15"}, "gin", 40),
    ({"knocker": "Ana", "knocker_deadwood": "0", "opponent_deadwood": "9", "big_gin": "y"}, "big_gin", 40),
    ({"knocker": "Ana", "knocker_deadwood": "7", "opponent_deadwood": "7"}, "undercut", 10),
    ({"draw": "true"}, "draw", 0),
    ({"winner": "Ben", "points": "18"}, "points", 18),
])
def test_each_kind_of_hand_is_stored_and_scored(client, fields, result, points):
    match_id = new_match(client)
    response = post_hand(client, match_id, **fields)
    assert response.status_code == 302
    hand = export(client, match_id)["result"]["hands"][0]
    assert (hand["result"], hand["points"]) == (result, points)
    flash_page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Hand 1" in flash_page


@pytest.mark.parametrize("fields, field", [
    ({"knocker": "Ana", "knocker_deadwood": "11", "opponent_deadwood": "22"}, "knocker_deadwood"),
    ({"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "99"}, "opponent_deadwood"),
    ({"knocker": "Ana", "knocker_deadwood": "4"}, "opponent_deadwood"),
    ({"knocker": "Ana", "knocker_deadwood": "four", "opponent_deadwood": "22"}, "knocker_deadwood"),
    ({"knocker": "Ana", "knocker_deadwood": "4.0", "opponent_deadwood": "22"}, "knocker_deadwood"),
    ({"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "9" * 40}, "opponent_deadwood"),
    ({"knocker": "Eve", "knocker_deadwood": "4", "opponent_deadwood": "22"}, "knocker"),
    ({"knocker": "Ana", "knocker_deadwood": "3", "opponent_deadwood": "22", "big_gin": "y"}, "big_gin"),
    ({"winner": "Ben", "points": "0"}, "points"),
    ({"winner": "Ben"}, "points"),
    ({"points": "12"}, "winner"),
    ({}, "knocker"),
    ({"points": ""}, "winner"),  # the typed-points form sent empty is refused there, not on "Who knocked?"
])
def test_refusals_name_the_field_and_store_nothing(client, fields, field):
    match_id = new_match(client)
    response = post_hand(client, match_id, **fields)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'class="error"' in page
    labels = {"knocker": "Who knocked?", "knocker_deadwood": "Knocker's deadwood",
              "opponent_deadwood": "Defender's deadwood", "big_gin": "Big gin", "points": "Points",
              "winner": "Who scores?"}
    # A missing tap is asked for as a player would say it; any other refusal names the field.
    asks = {"knocker": "Tap who knocked, or type the points instead, or save a draw.",
            "opponent_deadwood": "Enter the defender's deadwood.", "points": "Enter the points.",
            "winner": "Tap who scores."}
    message = re.search(rf'<p class="error" id="{field}-error">([^<]*)</p>', page)
    assert message, f"no message by the {field} field"
    said = unescape(message.group(1))
    assert said.startswith(labels[field]) or said == asks.get(field), said
    flagged = [tag for tag in re.findall(r"<input[^>]*>", page) if f'aria-describedby="{field}-error"' in tag]
    assert flagged and all('aria-invalid="true"' in tag for tag in flagged), flagged
    assert sum("autofocus" in tag for tag in re.findall(r"<input[^>]*>", page)) == 1  # the refused field's
    assert any("autofocus" in tag for tag in flagged), flagged
    assert hand_count(client, match_id) == 0


def test_csrf_token_is_required(client):
    match_id = new_match(client)
    response = client.post(f"/matches/{match_id}/hands",
                           data={"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22"})
    # Refused as a CSRF failure (303 back to the form with a message), not as anything else.
    assert response.status_code == 303
    assert hand_count(client, match_id) == 0
    assert "expired" in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_the_same_form_posted_twice_stores_one_hand(client):
    match_id = new_match(client)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
            "knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22"}
    assert client.post(f"/matches/{match_id}/hands", data=data).status_code == 302
    again = client.post(f"/matches/{match_id}/hands", data=data, follow_redirects=True)
    assert "already saved" in again.get_data(as_text=True)
    assert hand_count(client, match_id) == 1


def test_a_reused_page_entering_a_different_hand_keeps_both(client):
    match_id = new_match(client)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    base = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id")}
    client.post(f"/matches/{match_id}/hands", data={**base, "winner": "Ana", "points": "10"})
    client.post(f"/matches/{match_id}/hands", data={**base, "winner": "Ben", "points": "12"})
    assert hand_count(client, match_id) == 2


def test_no_hand_after_the_match_is_over(client):
    doc = case("full-hollywood-match")
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Rematch" in page and 'id="hand-form"' not in page
    response = client.post(f"/matches/{match_id}/hands", data={
        "csrf_token": hidden(page, "csrf_token"), "winner": "Ana", "points": "5"})
    assert response.status_code == 400
    assert "over" in response.get_data(as_text=True)
    assert hand_count(client, match_id) == len(doc["hands"])


def version_of(client, match_id):
    return hidden(client.get(f"/matches/{match_id}").get_data(as_text=True), "version")


def test_undo_removes_the_last_hand_and_reopens_a_game(client):
    doc = case("seed001-ana-ben")
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/undo", data={
        "csrf_token": hidden(page, "csrf_token"), "version": version_of(client, match_id)}, follow_redirects=True)
    text = response.get_data(as_text=True)
    assert "Hand 6 undone" in text and "Game 1 is open again" in text
    assert hand_count(client, match_id) == 5


def test_a_stale_undo_changes_nothing(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    stale = {"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version")}
    assert client.post(f"/matches/{match_id}/undo", data=stale).status_code == 302
    again = client.post(f"/matches/{match_id}/undo", data=stale, follow_redirects=True)
    assert "changed on another phone" in again.get_data(as_text=True)
    assert hand_count(client, match_id) == 5


def test_edit_a_hand_recomputes_everything_after_it(client):
    doc = case("seed001-ana-ben")
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/hands/1", data={
        "csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"),
        "winner": "Ben", "points": "18"}, follow_redirects=True)
    assert "Hand 1 changed" in response.get_data(as_text=True)
    doc["hands"][0] = {"winner": "Ben", "points": 18}
    assert export(client, match_id)["result"] == replay(json.dumps(doc))


def test_edit_from_a_stale_page_is_refused(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}/hands/2").get_data(as_text=True)
    post_hand(client, match_id, winner="Ben", points="3")  # the other phone
    response = client.post(f"/matches/{match_id}/hands/2", data={
        "csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"), "draw": "true"},
        follow_redirects=True)
    assert "changed on another phone" in response.get_data(as_text=True)
    assert export(client, match_id)["hands"][1] == {"winner": "Ben", "points": 22}


def test_delete_a_middle_hand(client):
    doc = case("seed000-bob-alexandra")
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}/hands/2").get_data(as_text=True)
    client.post(f"/matches/{match_id}/hands/2/delete", data={
        "csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version")})
    del doc["hands"][1]
    assert export(client, match_id)["result"] == replay(json.dumps(doc))


def test_an_edit_that_would_end_the_match_early_is_refused(client):
    doc = {"format": "single", "players": ["Ana", "Ben"],
           "hands": [{"winner": "Ana", "points": 50}, {"winner": "Ben", "points": 10}, {"winner": "Ana", "points": 60}]}
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/hands/1", data={
        "csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"),
        "winner": "Ana", "points": "120"})
    assert response.status_code == 400
    assert "delete the hands after it" in response.get_data(as_text=True)
    assert export(client, match_id)["hands"][0] == {"winner": "Ana", "points": 50}


def test_missing_match_and_hand_are_404(client):
    assert client.get("/matches/999").status_code == 404
    match_id = new_match(client)
    assert client.get(f"/matches/{match_id}/hands/1").status_code == 404


def test_the_page_script_gets_the_new_page_in_one_round_trip(client):
    match_id = new_match(client)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/hands", headers={"X-Requested-With": "fetch"}, data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
        "knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22"})
    assert response.status_code == 200 and response.headers["X-Hand-Number"] == "1"
    text = response.get_data(as_text=True)
    assert 'id="hand-1"' in text and "Ana scores 18" in text
    assert hand_count(client, match_id) == 1
