"""Phones at the table: one deal is one hand, a mistake costs one tap to undo, a slip of the thumb is asked.

Through the Flask test client, as the pages post without their script.
"""
import json
import re
from html import unescape

import pytest
from webutil import case, export, hand_count, hidden, import_match, new_match, post_hand

from models.game.changes import deletion_changes, figure_changes, without_hand
from models.errors import HandAlreadySaved, LedgerError
from models.game.hand import Hand, most_points
from models.files.matchfile import load_match
from models.game.rules import Rules
from models.storage.hand_writes import add_hand
from models.storage.matches import create_match, get_match

HOME = 1  # the one table of a home file: migration 0008 makes it with id 1


def page_of(client, match_id: int) -> str:
    return client.get(f"/matches/{match_id}").get_data(as_text=True)


def form_of(page: str, **fields) -> dict:
    """What the match page's hand form would post: its token, its one-time id and the hand it enters."""
    return {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
            "number": hidden(page, "number"), **fields}


def carried_fields(page: str, button: str) -> dict:
    """The hidden fields of the form whose button says `button` (a question's answer, a way back)."""
    for form in re.findall(r"<form\b.*?</form>", page, re.DOTALL):
        if button in unescape(form):
            inputs = re.findall(r"<input\b[^>]*>", form)
            pairs = [(re.search(r'name="([^"]+)"', i), re.search(r'value="([^"]*)"', i)) for i in inputs]
            return {unescape(n.group(1)): unescape(v.group(1)) for n, v in pairs if n and v}
    raise AssertionError(f"no form with {button!r} in the page")


def form_action(page: str, button: str) -> str:
    """Where the form whose button says `button` posts."""
    for form in re.findall(r"<form\b.*?</form>", page, re.DOTALL):
        if button in unescape(form):
            return unescape(re.search(r'action="([^"]+)"', form).group(1))
    raise AssertionError(f"no form with {button!r} in the page")


def text_of(response) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


KNOCK = {"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22"}  # Ana scores 18
BENS = {"knocker": "Ben", "knocker_deadwood": "2", "opponent_deadwood": "24"}  # Ben scores 22


# ---- one deal, one hand ----

def test_a_second_phone_behind_the_match_stores_nothing_and_is_asked(client):
    match_id = new_match(client)
    phone_a, phone_b = page_of(client, match_id), page_of(client, match_id)
    assert client.post(f"/matches/{match_id}/hands", data=form_of(phone_a, **KNOCK)).status_code == 302
    asked = client.post(f"/matches/{match_id}/hands", data=form_of(phone_b, **BENS))
    assert asked.status_code == 409 and hand_count(client, match_id) == 1
    said = text_of(asked)
    assert "Another phone already saved hand 1: Ana scores 18 → game 1. Is yours another deal?" in said
    assert "If it is, yours is hand 2: Ben scores 22 → game 1." in said
    again = carried_fields(asked.get_data(as_text=True), "Yes, save it as hand 2")
    assert again["number"] == "2" and again["form_id"] == hidden(phone_b, "form_id") and again["knocker"] == "Ben"
    assert client.post(f"/matches/{match_id}/hands", data=again).status_code == 302
    double_tap = client.post(f"/matches/{match_id}/hands", data=again, follow_redirects=True)
    assert "That hand was already saved" in text_of(double_tap)
    assert [h["knocker"] for h in export(client, match_id)["hands"]] == ["Ana", "Ben"]


def test_an_entry_told_of_another_phones_save_is_asked_only_when_it_is_that_hand(client):
    """The page script moved its entry on to hand 2 and said hand 1 was saved on another phone (told=1):
    the same entry as that hand is asked about; another entry is hand 2 at once."""
    match_id = new_match(client)
    phone_a, phone_b = page_of(client, match_id), page_of(client, match_id)
    assert client.post(f"/matches/{match_id}/hands", data=form_of(phone_a, **KNOCK)).status_code == 302
    same = client.post(f"/matches/{match_id}/hands", data=form_of(phone_b, **KNOCK, number="2", told="1"))
    assert same.status_code == 409 and hand_count(client, match_id) == 1
    assert "Another phone already saved hand 1: Ana scores 18 → game 1. Is yours another deal?" in text_of(same)
    again = carried_fields(same.get_data(as_text=True), "Yes, save it as hand 2")
    assert "told" not in again and client.post(f"/matches/{match_id}/hands", data=again).status_code == 302
    other = client.post(f"/matches/{match_id}/hands", data=form_of(page_of(client, match_id), **BENS, number="3",
                                                                    told="1"))
    assert other.status_code == 302 and [h["knocker"] for h in export(client, match_id)["hands"]] == ["Ana", "Ana",
                                                                                                      "Ben"]


def test_a_repeated_post_is_already_saved_not_another_phone(client):
    """The offline queue sends a post again when it never heard the answer: the one-time id wins."""
    match_id = new_match(client)
    data = form_of(page_of(client, match_id), **KNOCK)
    client.post(f"/matches/{match_id}/hands", data=data)
    again = client.post(f"/matches/{match_id}/hands", data=data, follow_redirects=True)
    assert again.status_code == 200 and "That hand was already saved" in text_of(again)
    assert hand_count(client, match_id) == 1


def test_a_page_that_follows_the_match_enters_the_next_hand(client):
    match_id = new_match(client)
    post_hand(client, match_id, **KNOCK)
    page = page_of(client, match_id)
    assert hidden(page, "number") == "2"
    assert 'data-next-hand="2"' in client.get(f"/matches/{match_id}/live").get_data(as_text=True)


def test_the_second_phones_hand_after_the_match_ended_is_not_offered(client):
    doc = {"format": "single", "players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": 90}]}
    match_id = import_match(client, doc)
    phone_a, phone_b = page_of(client, match_id), page_of(client, match_id)
    client.post(f"/matches/{match_id}/hands", data=form_of(phone_a, winner="Ana", points="20"))
    asked = client.post(f"/matches/{match_id}/hands", data=form_of(phone_b, **BENS))
    assert asked.status_code == 409 and "this match is over" in text_of(asked)
    assert "Yes, save it" not in text_of(asked) and hand_count(client, match_id) == 2


def test_storage_checks_the_hand_number_inside_its_transaction(app):
    with app.app_context():
        from views.site.db import get_db
        conn = get_db()
        match_id = create_match(conn, load_match('{"players": ["Ana", "Ben"], "hands": []}'), table=HOME)
        hand = Hand("points", winner="Ana", points=10)
        add_hand(conn, match_id, hand, "a", expected=1, table=HOME)
        with pytest.raises(HandAlreadySaved) as raised:
            add_hand(conn, match_id, Hand("points", winner="Ben", points=5), "b", expected=1, table=HOME)
        assert isinstance(raised.value, LedgerError) and raised.value.line.outcome.winner == "Ana"
        assert len(get_match(conn, match_id, table=HOME).match.hands) == 1
        assert add_hand(conn, match_id, hand, "a", expected=1, table=HOME).duplicate


# ---- points above what one hand can score ----

def test_the_most_one_hand_scores_follows_the_rules():
    assert most_points(Rules()) == 98 + 31
    assert most_points(Rules(gin_bonus=200)) == 298
    assert most_points(Rules(undercut_bonus=500)) == 510
    assert most_points(Rules(oklahoma=True)) == 2 * 129
    assert most_points(Rules(oklahoma=True, spade_double=False)) == 129


def test_typed_points_above_the_most_are_asked_and_saved_once(client):
    match_id = new_match(client)
    asked = client.post(f"/matches/{match_id}/hands", data=form_of(page_of(client, match_id), winner="Ana",
                                                                  points="5000"))
    assert asked.status_code == 200 and hand_count(client, match_id) == 0
    assert "5000 points is more than one hand can score under these rules (129). Save it anyway?" in text_of(asked)
    confirm = carried_fields(asked.get_data(as_text=True), "Yes, save 5000 points")
    assert confirm["confirmed"] == "yes" and confirm["points"] == "5000"
    assert client.post(f"/matches/{match_id}/hands", data=confirm).status_code == 302
    client.post(f"/matches/{match_id}/hands", data=confirm)
    assert export(client, match_id)["hands"] == [{"winner": "Ana", "points": 5000}]


def test_points_at_the_most_are_saved_at_once(client):
    match_id = new_match(client)
    assert post_hand(client, match_id, winner="Ana", points="129", number="1").status_code == 302


def test_an_edit_to_too_many_points_is_asked(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    asked = client.post(f"/matches/{match_id}/hands/1", data={
        "csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"), "winner": "Ana",
        "points": "999"})
    assert "Save it anyway?" in text_of(asked) and export(client, match_id)["hands"][0]["points"] != 999
    confirm = carried_fields(asked.get_data(as_text=True), "Yes, save 999 points")
    assert client.post(f"/matches/{match_id}/hands/1", data=confirm).status_code == 302
    assert export(client, match_id)["hands"][0] == {"winner": "Ana", "points": 999}


# ---- a draw and an undo carry their way back ----

def test_a_draw_can_be_taken_back_with_one_tap(client):
    match_id = new_match(client)
    post_hand(client, match_id, **KNOCK)
    saved = post_hand(client, match_id, draw="true", number="2")
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Hand 2: a draw; Ana deals again." in unescape(page)
    back = carried_fields(page, "Take the draw back")
    assert "Take the draw back" not in page_of(client, match_id)  # offered once, with its message
    done = client.post(f"/matches/{match_id}/hands/2/take-back", data=back, follow_redirects=True)
    assert "The draw of hand 2 is taken back." in text_of(done)
    assert export(client, match_id)["hands"] == [{"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 22}]


def test_taking_a_draw_back_after_the_match_moved_on_is_refused(client):
    match_id = new_match(client)
    saved = post_hand(client, match_id, draw="true", number="1")
    back = carried_fields(client.get(saved.headers["Location"]).get_data(as_text=True), "Take the draw back")
    post_hand(client, match_id, **KNOCK)
    refused = client.post(f"/matches/{match_id}/hands/1/take-back", data=back, follow_redirects=True)
    assert "changed on another phone" in text_of(refused) and hand_count(client, match_id) == 2


def test_only_the_draw_just_saved_can_be_taken_back(client):
    """The way back after a draw takes back that draw; asked for another hand at the current version (a
    knock, or a draw that is not the last hand) it deletes nothing and says so."""
    match_id = new_match(client)
    saved = post_hand(client, match_id, draw="true", number="1")
    back = carried_fields(client.get(saved.headers["Location"]).get_data(as_text=True), "Take the draw back")
    post_hand(client, match_id, **KNOCK)
    before = export(client, match_id)["hands"]
    version = hidden(page_of(client, match_id), "version")
    for number in (1, 2):  # the draw, no longer the last hand; the knock after it
        refused = client.post(f"/matches/{match_id}/hands/{number}/take-back", data={**back, "version": version},
                              follow_redirects=True)
        assert f"Hand {number} is not the draw just saved; nothing was taken back." in text_of(refused)
        assert "is taken back" not in text_of(refused)
        assert export(client, match_id)["hands"] == before


def test_an_undo_can_be_redone_once(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    before = export(client, match_id)["hands"]
    page = page_of(client, match_id)
    undone = client.post(f"/matches/{match_id}/undo", data={"csrf_token": hidden(page, "csrf_token"),
                                                           "version": hidden(page, "version")})
    page = client.get(undone.headers["Location"]).get_data(as_text=True)
    assert "Hand 6 undone." in page
    redo, action = carried_fields(page, "Redo hand 6"), form_action(page, "Redo hand 6")
    assert client.post(action, data=redo).status_code == 302
    assert client.post(action, data=redo).status_code == 302  # a double tap
    assert export(client, match_id)["hands"] == before
    # The undone deal is back in its place: nothing is left to restore, so it cannot be stored twice.
    assert "Restore hand" not in client.get(f"/matches/{match_id}/history").get_data(as_text=True)


def test_undo_redo_undo_offers_the_deal_once(client):
    """The finding: undo, redo, undo the same deal offered two "Restore hand 6", and both stored it."""
    match_id = import_match(client, case("seed001-ana-ben"))
    before = export(client, match_id)["hands"]
    for _ in range(2):
        page = page_of(client, match_id)
        undone = client.post(f"/matches/{match_id}/undo", data={"csrf_token": hidden(page, "csrf_token"),
                                                               "version": hidden(page, "version")})
        page = client.get(undone.headers["Location"]).get_data(as_text=True)
        if _ == 0:
            client.post(form_action(page, "Redo hand 6"), data=carried_fields(page, "Redo hand 6"))
    history = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert unescape(history).count("Restore hand 6") == 1
    client.post(form_action(history, "Restore hand 6"), data=carried_fields(history, "Restore hand 6"))
    assert export(client, match_id)["hands"] == before


def test_a_redo_after_another_phone_saved_a_hand_is_stale(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = page_of(client, match_id)
    undone = client.post(f"/matches/{match_id}/undo", data={"csrf_token": hidden(page, "csrf_token"),
                                                           "version": hidden(page, "version")})
    page = client.get(undone.headers["Location"]).get_data(as_text=True)
    redo, action = carried_fields(page, "Redo hand 6"), form_action(page, "Redo hand 6")
    post_hand(client, match_id, winner="Ben", points="3")
    asked = client.post(action, data=redo, follow_redirects=True)
    assert "changed on another phone" in text_of(asked)
    assert hand_count(client, match_id) == 6  # the history page still offers the undone deal, once


# ---- delete asks first ----

def test_delete_asks_and_says_what_moves(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    edit = client.get(f"/matches/{match_id}/hands/2").get_data(as_text=True)
    assert f'href="/matches/{match_id}/hands/2/delete"' in edit
    asked = client.get(f"/matches/{match_id}/hands/2/delete")
    said = text_of(asked)
    assert "Delete hand 2?" in said and "Hand 2: Ben scores 22 → game 1." in said
    assert "Hand 3, now hand 2: Ana dealt (before: Ben)." in said
    assert "Hand 5, now hand 4: game 1 (before: games 1 and 2)." in said
    assert hand_count(client, match_id) == 6
    done = client.post(f"/matches/{match_id}/hands/2/delete", data=carried_fields(
        asked.get_data(as_text=True), "Delete hand 2"), follow_redirects=True)
    assert "Hand 2 deleted" in text_of(done) and "Hand 5, now hand 4: game 1 (before: games 1 and 2)." in text_of(done)
    assert hand_count(client, match_id) == 5


def test_a_stale_delete_changes_nothing(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    asked = client.get(f"/matches/{match_id}/hands/2/delete").get_data(as_text=True)
    post_hand(client, match_id, winner="Ben", points="3")
    refused = client.post(f"/matches/{match_id}/hands/2/delete", data=carried_fields(asked, "Delete hand 2"),
                          follow_redirects=True)
    assert "changed on another phone" in text_of(refused) and hand_count(client, match_id) == 7


def test_the_engine_compares_the_sheets_with_and_without_a_hand():
    from models.game.ledger import score_sheet
    match = load_match('{"players": ["Ana", "Ben"], "first_dealer": "Ana", "hands": ['
                        '{"winner": "Ben", "points": 10}, {"winner": "Ana", "points": 10}, {"draw": true}]}')
    words = [str(m) for m in deletion_changes(score_sheet(match), without_hand(match, 1), 1)]
    assert words == ["Hand 2, now hand 1: Ana dealt (before: Ben)."]


FIGURES = {  # deleting hand 2 of the full Hollywood case: every figure under the sheet that moves, in words
    "en": ["Game 1, points – Ben: 36 (before: 56).", "Game 1, boxes – Ben: 1 (before: 2).",
           "Game 1, net: 317 (before: 272).", "Match net – Ana: 986 (before: 838)."],
    "cs": ["Hra 1, body – Ben: 36 (dříve: 56).", "Hra 1, čárky – Ben: 1 (dříve: 2).",
           "Hra 1, bilance: 317 (dříve: 272).", "Bilance zápasu – Ana: 986 (dříve: 838)."],
    "sk": ["Hra 1, body – Ben: 36 (predtým: 56).", "Hra 1, čiarky – Ben: 1 (predtým: 2).",
           "Hra 1, bilancia: 317 (predtým: 272).", "Bilancia zápasu – Ana: 986 (predtým: 838)."],
    "sq": ["Loja 1, pikët – Ben: 36 (më parë: 56).", "Loja 1, raunde të fituara – Ben: 1 (më parë: 2).",
           "Loja 1, neto: 317 (më parë: 272).", "Neto e ndeshjes – Ana: 986 (më parë: 838)."],
}


def test_the_engine_names_every_figure_a_deletion_moves():
    from models.game.ledger import score_sheet
    match = load_match(json.dumps(case("full-hollywood-match")))
    before = score_sheet(match)
    words = [str(m) for m in figure_changes(before, without_hand(match, 2))]
    assert words == ["Game 1, points – Ben: 36 (before: 56).", "Game 1, boxes – Ben: 1 (before: 2).",
                     "Game 1, net: 317 (before: 272).", "Game 2, points – Ben: 33 (before: 69).",
                     "Game 2, boxes – Ben: 2 (before: 3).", "Game 2, net: 334 (before: 273).",
                     "Game 3, points – Ben: 16 (before: 33).", "Game 3, boxes – Ben: 1 (before: 2).",
                     "Game 3, net: 335 (before: 293).", "Match net – Ana: 986 (before: 838).",
                     "Match net – Ben: -986 (before: -838)."]
    # a draw moves no figure: deleting it changes only who deals
    drawn = load_match('{"players": ["Ana", "Ben"], "first_dealer": "Ana", "hands": ['
                       '{"winner": "Ben", "points": 10}, {"draw": true}]}')
    assert figure_changes(score_sheet(drawn), without_hand(drawn, 2)) == []


@pytest.mark.parametrize("lang", sorted(FIGURES))
def test_the_delete_question_names_the_figures_it_moves(client, lang):
    match_id = import_match(client, case("full-hollywood-match"))
    said = text_of(client.get(f"/matches/{match_id}/hands/2/delete?lang={lang}"))
    for line in FIGURES[lang]:
        assert line in said, (line, said)
    assert "Nothing else on the sheet changes." not in said
