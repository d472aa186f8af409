"""A table of three or four followed live (issue 46): its live fragment is the page's regions (the sides'
board, the money, the deal sheet, the next deal's state), answered 200 then 304 while nothing changed, moved
on by another phone's save; the held stream carries the same regions; the spectator's link and the big
screen draw the sides' games and every deal, with no form and no undo."""
import re
from html import unescape

from test_table_web import FIRST_DEAL, table_case
from webutil import export, hidden, import_match


def view_token(client, match_id: int) -> str:
    page = client.get(f"/matches/{match_id}/join").get_data(as_text=True)
    return re.search(r"/view/([A-Za-z0-9_-]+)", page).group(1)


def shown_tag(page: str) -> str:
    return unescape(re.search(r'id="live"[^>]*data-etag="([^"]+)"', page).group(1))


def regions(html: str) -> list[str]:
    return re.findall(r'data-region="(\w+)"', html)


def test_the_live_poll_answers_the_tables_regions_then_304_until_another_phone_saves(client, app):
    match_id = import_match(client, table_case("partners-example", hands=0))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    first = client.get(f"/matches/{match_id}/live")
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert tag == shown_tag(page)
    html = first.get_data(as_text=True)
    assert regions(html) == ["state", "board", "money", "sheet"]
    assert 'data-next-hand="1"' in html and 'data-heading="Deal 1"' in html
    assert "Ana &amp; Cy" in html and 'class="deal-row"' not in html
    assert client.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag}).status_code == 304

    other = app.test_client()  # the second phone saves the first deal
    other_page = other.get(f"/matches/{match_id}").get_data(as_text=True)
    saved = other.post(f"/matches/{match_id}/deals", data={
        "csrf_token": hidden(other_page, "csrf_token"), "form_id": hidden(other_page, "form_id"),
        "number": "1", **FIRST_DEAL})
    assert saved.status_code == 303

    moved = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    html = moved.get_data(as_text=True)
    assert 'data-next-hand="2"' in html and 'data-heading="Deal 2"' in html
    assert html.count('class="deal-row"') == 1 and "Undo deal 1" in html
    assert client.get(f"/matches/{match_id}/live", headers={"If-None-Match": moved.headers["ETag"]}).status_code == 304


def test_a_form_drawn_before_another_phones_save_is_refused_not_saved_as_the_next_deal(client):
    match_id = import_match(client, table_case("partners-example", hands=0))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert hidden(page, "number") == "1"
    fields = {"csrf_token": hidden(page, "csrf_token"), "number": "1", **FIRST_DEAL}
    assert client.post(f"/matches/{match_id}/deals", data={**fields, "form_id": "phone-a"}).status_code == 303
    late = client.post(f"/matches/{match_id}/deals", data={**fields, "form_id": "phone-b"})
    assert late.status_code == 303
    assert "already saved on another phone" in client.get(late.headers["Location"]).get_data(as_text=True)
    assert len(export(client, match_id)["hands"]) == 1


def test_the_spectators_link_shows_the_table_with_no_form_and_follows_it(client):
    match_id = import_match(client, table_case("partners-example"))
    token = view_token(client, match_id)
    view = client.get(f"/view/{token}")
    assert view.status_code == 200
    html = view.get_data(as_text=True)
    assert "Ana &amp; Cy" in html and "Ben &amp; Dan" in html and html.count('class="deal-row"') == 3
    assert "<form" not in html and "Undo deal" not in html and f"/matches/{match_id}" not in html
    assert f"/view/{token}/live" in html and f"/view/{token}/big" in html
    live = client.get(f"/view/{token}/live")
    assert live.status_code == 200 and live.headers["ETag"] == shown_tag(html)
    fragment = live.get_data(as_text=True)
    assert "Undo deal" not in fragment and "data-next-hand" not in fragment and "<form" not in fragment
    assert client.get(f"/view/{token}/live", headers={"If-None-Match": live.headers["ETag"]}).status_code == 304
    whole = client.get(f"/view/{token}/sheet").get_data(as_text=True)
    assert whole.count('class="deal-row"') == 3 and "<form" not in whole


def test_the_big_screen_draws_the_sides_three_games_and_follows(client):
    match_id = import_match(client, table_case("partners-example"))
    token = view_token(client, match_id)
    for path, live in ((f"/matches/{match_id}/big", f"/matches/{match_id}/live"),
                       (f"/view/{token}/big", f"/view/{token}/live")):
        answer = client.get(path)
        assert answer.status_code == 200, path
        html = answer.get_data(as_text=True)
        assert 'class="big"' in html and "big-screen" in html and f'data-live-url="{live}"' in html
        assert len(re.findall(r'class="game( closed)?"', html)) == 3 and "Ana &amp; Cy" in html
        assert "<form" not in html


def test_the_held_stream_of_a_table_starts_with_its_whole_region(client):
    match_id = import_match(client, table_case("chouette-three"))
    answer = client.get(f"/matches/{match_id}/stream?shown=", buffered=False)
    try:
        assert answer.status_code == 200
        chunks = iter(answer.response)
        events = ""
        while "id: " not in events:
            events += _text(next(chunks))
    finally:
        answer.close()
    assert 'data-region="board"' in events and 'class="deal-row"' in events


def _text(chunk) -> str:
    return chunk.decode() if isinstance(chunk, bytes) else chunk


def board_region(html: str) -> str:
    """The board region, its one-time CSRF token left out (each response masks it afresh)."""
    region = html[html.index('<div data-region="board"'):html.index('<div data-region="money"')].strip()
    return re.sub(r'(name="csrf_token"[^>]*value=)"[^"]*"', r"\1", region)


def test_a_phone_following_a_finished_table_gets_its_result_share_and_rematch_as_a_reload_draws_them(client):
    match_id = import_match(client, table_case("partners-hollywood-whole-match"))
    live = client.get(f"/matches/{match_id}/live").get_data(as_text=True)
    assert 'id="result"' in live and "data-share-button" in live
    assert f'action="/matches/{match_id}/rematch"' in live and f'/matches/{match_id}/sheet.svg' in live
    assert board_region(live) == board_region(client.get(f"/matches/{match_id}").get_data(as_text=True))
    started = client.post(f"/matches/{match_id}/rematch", data={"csrf_token": hidden(live, "csrf_token")})
    assert started.status_code == 302 and started.headers["Location"] != f"/matches/{match_id}"
    again = client.get(f"/matches/{match_id}/live").get_data(as_text=True)
    assert f'href="{started.headers["Location"]}">Go to the rematch</a>' in again

    token = view_token(client, match_id)
    spectator = client.get(f"/view/{token}/live").get_data(as_text=True)
    assert 'id="result"' in spectator and "data-share-button" not in spectator
    assert "/rematch" not in spectator and "Go to the rematch" not in spectator and "<form" not in spectator
