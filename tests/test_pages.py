"""A kept page is never stale: after every kind of write, the page a warm app serves is the page an
app with nothing kept draws from the same file, and a follower's poll with the ETag it had answers
200 with the new content.

The writes go through a connection of their own, as a second server process's would: the
app learns of them only from the file (a match's version and the file's epoch), never from being told.
"""
import re

import pytest
from webutil import case, hidden, import_match

from app import create_app
from models.storage.hand_writes import insert_hand_before, restore_hand
from models.game.hand import Hand
from models.files.matchfile import match_from_document
from views.site.blanks import MARK
from models.storage.connection import connect
from models.storage.hand_writes import add_hand, delete_hand, replace_hand
from models.storage.matches import abandon_match, create_match, create_rematch, get_match, name_match
from models.storage.players import merge_players, rename_player

HOME = 1

# What differs between two requests for the same page by design: the CSRF token, the one-time id.
PER_REQUEST = re.compile(r'(name="(?:csrf_token|form_id)"[^>]*value=")[^"]*(")|(value=")[^"]*("[^>]*name="(?:csrf_token|form_id)")')


# The file's epoch in a page's ETag: every app that opens the file (the cold one too) gives it a new one.
EPOCH = re.compile(r'(data-etag="&#34;\d+-)[0-9a-f]+(-\d+&#34;")')


def same_page(html: str) -> str:
    html = EPOCH.sub(r"\1…\2", html)
    html = re.sub(r'data-form-id="[^"]*"', 'data-form-id="…"', html)  # the next hand's one-time id
    return PER_REQUEST.sub(lambda m: (m.group(1) or m.group(3)) + "…" + (m.group(2) or m.group(4)), html)


@pytest.fixture
def warm(tmp_path):
    """The app under test (its caches fill as it serves) and a way to draw any page with nothing kept."""
    config = {"TESTING": True, "DATABASE": str(tmp_path / "ledger.sqlite"), "SECRET_KEY": "k"}
    app = create_app(config, instance_path=str(tmp_path / "one"))

    def cold(path: str) -> str:
        fresh = create_app(config, instance_path=str(tmp_path / "two")).test_client()
        return fresh.get(path).get_data(as_text=True)

    return app.test_client(), cold


def writer(tmp_path):
    return connect(str(tmp_path / "ledger.sqlite"))


def knock(knocker: str, deadwood: int, defender: int) -> Hand:
    return Hand(kind="knock", knocker=knocker, knocker_deadwood=deadwood, opponent_deadwood=defender)


def version(conn, match_id: int) -> int:
    return get_match(conn, match_id, table=HOME).version


def hands(conn, match_id: int) -> int:
    return len(get_match(conn, match_id, table=HOME).match.hands)


def finish(conn, match_id: int) -> None:
    while not get_match(conn, match_id, table=HOME).sheet().finished:
        add_hand(conn, match_id, knock("Ana", 0, 30), table=HOME)


def restore_after_delete(conn, match_id: int) -> None:
    deleted = delete_hand(conn, match_id, 4, version(conn, match_id), table=HOME)
    restore_hand(conn, match_id, deleted.hand_id, deleted.version, table=HOME)


WRITES = {
    "a hand saved": lambda conn, m: add_hand(conn, m, knock("Ben", 2, 31), table=HOME),
    "a hand edited": lambda conn, m: replace_hand(conn, m, 2, knock("Ana", 1, 9), version(conn, m), table=HOME),
    "a hand deleted": lambda conn, m: delete_hand(conn, m, 3, version(conn, m), table=HOME),
    "the last hand undone": lambda conn, m: delete_hand(conn, m, hands(conn, m), version(conn, m), table=HOME,
                                                                action="undone"),
    "a hand inserted": lambda conn, m: insert_hand_before(conn, m, 2, knock("Ben", 4, 12), None,
                                                                  version(conn, m), table=HOME),
    "a deleted hand restored": lambda conn, m: restore_after_delete(conn, m),
    "the match named": lambda conn, m: name_match(conn, m, "Friday at Eva's", table=HOME),
    "the match abandoned": lambda conn, m: abandon_match(conn, m, table=HOME),
    "a player renamed": lambda conn, m: rename_player(conn, "Ben", "Benedikt", table=HOME),
    "a player merged": lambda conn, m: merge_into(conn, "Ben", "Benedikt"),
    "a rematch started": lambda conn, m: (finish(conn, m), create_rematch(conn, m, table=HOME)),
    "the match finished": finish,
}


def merge_into(conn, old: str, new: str) -> None:
    """Another spelling kept of the same person, then merged into it: the match now shows the other name."""
    other = create_match(conn, match_from_document({"players": [new, "Cleo"], "hands": []}), table=HOME)
    assert other
    merge_players(conn, new, old, table=HOME)


def long_open() -> dict:
    """An open match longer than the 40 hands a match page shows."""
    from tests.generate import long_match

    doc = long_match(48, seed=7)
    doc["rules"]["target"] = 400  # its games close only well after these hands, so `finish` ends it soon
    return doc


MATCHES = {"seed001-ana-ben": lambda: case("seed001-ana-ben"), "long": long_open}


@pytest.mark.parametrize("what", WRITES)
@pytest.mark.parametrize("match", MATCHES)
def test_after_every_write_the_kept_page_is_the_page_drawn_anew(warm, tmp_path, what, match):
    client, cold = warm
    match_id = import_match(client, MATCHES[match]())
    page, live = f"/matches/{match_id}", f"/matches/{match_id}/live"
    before = client.get(page).get_data(as_text=True)
    assert client.get(page).get_data(as_text=True) != "" and MARK not in before
    following = client.get(live)
    followed, tag = following.get_data(as_text=True), following.headers["ETag"]
    assert client.get(live, headers={"If-None-Match": tag}).status_code == 304
    conn = writer(tmp_path)
    WRITES[what](conn, match_id)
    conn.close()
    after = client.get(page).get_data(as_text=True)
    assert same_page(after) != same_page(before)  # the write shows
    assert same_page(after) == same_page(cold(page))  # and exactly as a page drawn from nothing
    assert same_page(client.get(page).get_data(as_text=True)) == same_page(after)  # kept, and still right
    # What a following phone swaps in, the same way: its poll with the old ETag is told.
    polled = client.get(live, headers={"If-None-Match": tag})
    assert polled.status_code == 200 and polled.headers["ETag"] != tag
    assert same_page(polled.get_data(as_text=True)) != same_page(followed)
    assert same_page(client.get(live).get_data(as_text=True)) == same_page(cold(live))


def test_each_page_has_its_own_csrf_token_and_one_time_id(warm):
    """A kept page never hands two browsers (or two visits) the same per-request values."""
    client, _ = warm
    match_id = import_match(client, case("seed001-ana-ben"))
    first = client.get(f"/matches/{match_id}").get_data(as_text=True)
    second_browser = client.application.test_client()
    second = second_browser.get(f"/matches/{match_id}").get_data(as_text=True)
    again = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert hidden(first, "form_id") != hidden(again, "form_id") != hidden(second, "form_id")
    assert hidden(first, "csrf_token") != hidden(second, "csrf_token")
    assert MARK not in first + second + again


def test_a_kept_page_still_saves_a_hand(warm):
    """The blanks are filled with working values: the page served from what was kept posts a hand."""
    client, _ = warm
    match_id = import_match(client, case("seed001-ana-ben"))
    client.get(f"/matches/{match_id}")
    kept = client.get(f"/matches/{match_id}").get_data(as_text=True)
    answer = client.post(f"/matches/{match_id}/hands", data={
        "csrf_token": hidden(kept, "csrf_token"), "form_id": hidden(kept, "form_id"),
        "number": hidden(kept, "number"), "knocker": "Ana", "knocker_deadwood": "3", "opponent_deadwood": "21"})
    assert answer.status_code == 302
    shown = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Hand 7: Ana knocks, 3 against 21. Ana scores 18" in shown and 'id="hand-7"' in shown


def test_the_flash_is_the_requests_own_never_kept(warm):
    """The page after a save says what was saved once; the same page asked for again does not."""
    client, _ = warm
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/hands", data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
        "knocker": "Ben", "knocker_deadwood": "0", "opponent_deadwood": "20"})
    told = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert told.count("flash-saved") == 1
    assert "flash-saved" not in client.get(f"/matches/{match_id}").get_data(as_text=True)
    other = client.application.test_client()
    assert "flash-saved" not in other.get(f"/matches/{match_id}").get_data(as_text=True)


def test_a_page_in_another_language_is_kept_apart(warm):
    client, _ = warm
    match_id = import_match(client, case("seed001-ana-ben"))
    english = client.get(f"/matches/{match_id}").get_data(as_text=True)
    czech = client.application.test_client().get(f"/matches/{match_id}", headers={"Accept-Language": "cs"})
    assert 'lang="cs"' in czech.get_data(as_text=True) and 'lang="en"' in english
    assert 'lang="en"' in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_a_stored_match_folded_again_draws_the_same_page(warm, tmp_path):
    """Hands saved by another process while the page is kept: the page is the one drawn anew."""
    client, cold = warm
    conn = writer(tmp_path)
    match_id = create_match(conn, match_from_document(case("seed001-ana-ben")), table=HOME)
    for points in (3, 5, 7):
        client.get(f"/matches/{match_id}")
        add_hand(conn, match_id, knock("Ana", points, 20), table=HOME)
    conn.close()
    assert same_page(client.get(f"/matches/{match_id}").get_data(as_text=True)) == same_page(cold(f"/matches/{match_id}"))


DRAWN_CASES = ["seed001-ana-ben", "full-hollywood-match", "oklahoma-spades-double", "two-games-close-on-one-hand",
               "shutout-moves-to-next-game", "modern-preset-single", "variants/variants-palace-immediate-boxes",
               "seed000-bob-alexandra"]


def drawn_whole(app, path: str, match_id: int) -> str:
    """The match page drawn by its templates alone, every region drawn in place and nothing kept."""
    from views.match.match_page import draw_match, hand_form_for

    with app.test_request_context(path):
        app.preprocess_request()
        stored = get_match(connect(app.config["DATABASE"]), match_id, table=HOME)
        return draw_match(stored, hand_form_for(stored))


@pytest.mark.parametrize("name", DRAWN_CASES + ["long"])
def test_a_kept_page_is_the_page_its_templates_draw(warm, name):
    """Keeping a page changes how often it is drawn, never what it says."""
    from tests.generate import long_match

    client, _ = warm
    match_id = import_match(client, long_match(60, seed=3) if name == "long" else case(name))
    page = f"/matches/{match_id}"
    client.get(page)
    kept = client.get(page).get_data(as_text=True)
    assert same_page(kept) == same_page(drawn_whole(client.application, page, match_id))
    assert not re.findall(r'\b(?:colspan|href|id|for|name|action)=""', kept)


@pytest.mark.parametrize("match", MATCHES)
def test_each_page_a_saved_hand_leads_to_is_the_page_its_templates_draw(warm, match):
    """Hand after hand, to the end of the match, the page is the one its templates draw whole and the
    one an app with nothing kept draws."""
    client, cold = warm
    match_id = import_match(client, MATCHES[match]())
    page = f"/matches/{match_id}"
    shown = client.get(page).get_data(as_text=True)
    saved = 0
    while 'id="hand-form"' in shown:
        answer = client.post(f"{page}/hands", data={
            "csrf_token": hidden(shown, "csrf_token"), "form_id": hidden(shown, "form_id"),
            "number": hidden(shown, "number"), "knocker": "Ana", "knocker_deadwood": "2", "opponent_deadwood": "40"})
        assert answer.status_code == 302
        saved += 1
        client.get(answer.headers["Location"])  # the page with its flash, drawn and kept
        shown = client.get(page).get_data(as_text=True)
        assert f'data-etag="&#34;{match_id}-' in shown and MARK not in shown
        assert same_page(shown) == same_page(drawn_whole(client.application, page, match_id)), saved
        assert same_page(shown) == same_page(cold(page)), saved
    assert saved >= 2 and "wins the match" in shown


def test_a_finished_match_edited_shows_its_new_result(warm, tmp_path):
    """An edit of a finished match's last hand changes its result on the page."""
    client, cold = warm
    match_id = import_match(client, case("seed001-ana-ben"))
    conn = writer(tmp_path)
    finish(conn, match_id)
    page = f"/matches/{match_id}"
    before = client.get(page).get_data(as_text=True)
    last = len(get_match(conn, match_id, table=HOME).match.hands)
    replace_hand(conn, match_id, last, knock("Ana", 0, 45), version(conn, match_id), table=HOME)
    conn.close()
    after = client.get(page).get_data(as_text=True)
    result = re.compile(r'<section class="result".*?</section>', re.S)
    assert result.search(after), "the edit left the match finished"
    assert result.search(after).group(0) != result.search(before).group(0)
    assert same_page(after) == same_page(cold(page))
