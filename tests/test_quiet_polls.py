"""A quiet poll is answered before Flask (views/quiet_polls.py): the exact current ETag gets a 304 with
no session read and no page drawn; anything else goes on to the full view, which checks access."""
from webutil import case, import_match, post_hand

from views import quiet_polls


def test_a_quiet_poll_is_a_304_before_flask_and_a_change_is_a_200(client, monkeypatch):
    match_id = import_match(client, case("seed001-ana-ben"))
    live = f"/matches/{match_id}/live"
    tag = client.get(live).headers["ETag"]
    client.get(live, headers={"If-None-Match": tag})  # this thread meets the file
    drawn = []
    monkeypatch.setattr(client.application, "wsgi_app", client.application.wsgi_app)
    import views.following as following
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
