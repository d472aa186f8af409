"""A quiet poll is answered before Flask (views/live/quiet_polls.py): the exact current ETag gets a 304 with
no session read and no page drawn; anything else goes on to the full view, which checks access."""
from webutil import case, import_match, post_hand

from views.live import quiet_polls


def test_a_quiet_poll_is_a_304_before_flask_and_a_change_is_a_200(client, monkeypatch):
    match_id = import_match(client, case("seed001-ana-ben"))
    live = f"/matches/{match_id}/live"
    tag = client.get(live).headers["ETag"]
    client.get(live, headers={"If-None-Match": tag})  # this thread meets the file
    drawn = []
    monkeypatch.setattr(client.application, "wsgi_app", client.application.wsgi_app)
    import views.live.following as following
    real = following.fragment
    monkeypatch.setattr(following, "fragment", lambda *a, **k: drawn.append(a) or real(*a, **k))
    quiet = client.get(live, headers={"If-None-Match": tag})
    assert quiet.status_code == 304 and quiet.headers["ETag"] == tag and drawn == []
    assert "Set-Cookie" not in quiet.headers  # no session was opened
    post_hand(client, match_id, winner="Ana", points="5")
    moved = client.get(live, headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag


def test_a_guessed_or_foreign_etag_is_no_304(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    tag = client.get(f"/matches/{match_id}/live").headers["ETag"]
    guessed = tag.replace(tag.split("-")[1], "0" * 16)
    assert client.get(f"/matches/{match_id}/live", headers={"If-None-Match": guessed}).status_code == 200
    assert client.get(f"/t/abc/matches/{match_id}/live", headers={"If-None-Match": tag}).status_code == 404
    assert quiet_polls.MATCH.fullmatch(f"/matches/{match_id}/live")


def test_the_page_scripts_poll_gets_an_empty_200_with_its_length_before_flask(client, monkeypatch):
    """X-Sheet names the version the page shows: the same version is "nothing new", an empty 200 that
    says its length (waitress keeps the connection); the next version is the step from it."""
    match_id = import_match(client, case("seed001-ana-ben"))
    live = f"/matches/{match_id}/live"
    tag = client.get(live).headers["ETag"]
    first = client.get(live, headers={"X-Sheet": tag})  # this thread meets the file: Flask answers it
    assert (first.status_code, first.data, first.headers["ETag"]) == (200, b"", tag)
    assert first.headers["Content-Length"] == "0" and first.headers["Cache-Control"] == "no-store"
    import views.live.following as following
    drawn = []
    real = following.live_fragment
    monkeypatch.setattr(following, "live_fragment", lambda *a, **k: drawn.append(a) or real(*a, **k))
    quiet = client.get(live, headers={"X-Sheet": tag})
    assert (quiet.status_code, quiet.data, quiet.headers["ETag"]) == (200, b"", tag) and drawn == []
    assert quiet.headers["Content-Length"] == "0" and "Set-Cookie" not in quiet.headers
    assert "X-Sheet" in quiet.headers["Vary"]
    post_hand(client, match_id, winner="Ana", points="5")
    moved = client.get(live, headers={"X-Sheet": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert f'data-from="{tag.replace(chr(34), "&#34;")}"' in moved.get_data(as_text=True)
    assert moved.headers["Cache-Control"] == "no-store" and "X-Sheet" in moved.headers["Vary"]


def test_a_guessed_x_sheet_is_drawn_whole_and_a_foreign_table_is_a_404(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    tag = client.get(f"/matches/{match_id}/live").headers["ETag"]
    guessed = tag.replace(tag.split("-")[1], "0" * 16)
    whole = client.get(f"/matches/{match_id}/live", headers={"X-Sheet": guessed})
    assert whole.status_code == 200 and 'data-region="sheet"' in whole.get_data(as_text=True)
    assert "data-from" not in whole.get_data(as_text=True)
    assert client.get(f"/t/abc/matches/{match_id}/live", headers={"X-Sheet": tag}).status_code == 404
