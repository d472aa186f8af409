"""Pushed changes (views/live/stream.py): a held stream gets each save as it is committed, whichever process
saved it, catches up after a killed server from the version it names, and carries one table's match only.
The servers are the README's club command (gunicorn with gevent workers); the saves come from this process,
another one. Every wait is for an event, never for a time: a slow machine makes these slower, not failing."""
import re
import threading
from html import unescape

import pytest

from app import create_app
from models.storage.notifier import Notifier
from stream_server import EventReader, GeventServer
from webutil import hidden, hosted_app, new_match, post_hand, start_table

HAND = {"knocker": "Ana", "knocker_deadwood": "3", "opponent_deadwood": "20"}
ROW = re.compile(r'<tr id="hand-(\d+)"')


def shown_tag(client, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    return unescape(re.search(r'id="live"[^>]*data-etag="([^"]+)"', page).group(1))


def save(client, match_id: int, number: int) -> None:
    assert post_hand(client, match_id, number=str(number), **HAND).status_code == 302


@pytest.fixture
def server(database, tmp_path):
    with GeventServer(database, log_dir=tmp_path) as running:
        yield running


@pytest.mark.slow
def test_a_stream_gets_a_save_from_another_process(app, client, server):
    match_id = new_match(client)
    before = shown_tag(client, f"/matches/{match_id}")
    reader = EventReader(server.base, f"/matches/{match_id}/stream?shown={before}")
    try:
        assert reader.status == 200 and "text/event-stream" in reader.headers
        assert "content-security-policy" not in reader.headers
        assert reader.next_event()["event"] == "hello"
        save(client, match_id, 1)  # this process, not the server's
        got = reader.next_event()
        after = shown_tag(client, f"/matches/{match_id}")
        assert got["id"] == after != before
        assert ROW.findall(got["data"]) == ["1"]
    finally:
        reader.close()


@pytest.mark.slow
def test_a_killed_server_s_phone_catches_up_with_nothing_missed_or_doubled(app, client, database, tmp_path):
    match_id = new_match(client)
    server = GeventServer(database, log_dir=tmp_path).start()
    try:
        first = shown_tag(client, f"/matches/{match_id}")
        reader = EventReader(server.base, f"/matches/{match_id}/stream?shown={first}")
        assert reader.next_event()["event"] == "hello"
        save(client, match_id, 1)
        last = reader.next_event()["id"]
        server.kill()
        with pytest.raises((EOFError, OSError)):
            reader.next_event()
        reader.close()
        save(client, match_id, 2)  # saved while the phone had no server
        save(client, match_id, 3)
        server.start()
        # The browser asks again at the same address, naming the last event it got.
        reader = EventReader(server.base, f"/matches/{match_id}/stream", last_id=last)
        assert reader.next_event()["event"] == "hello"
        caught = reader.next_event()
        assert caught["id"] == shown_tag(client, f"/matches/{match_id}")
        assert ROW.findall(caught["data"]) == ["1", "2", "3"]  # the whole region: both hands missed, once each
        reader.close()
        # A phone that missed nothing is sent nothing: its next event is the next save.
        reader = EventReader(server.base, f"/matches/{match_id}/stream", last_id=caught["id"])
        assert reader.next_event()["event"] == "hello"
        save(client, match_id, 4)
        moved = reader.next_event()
        assert moved["id"] == shown_tag(client, f"/matches/{match_id}") != caught["id"]
        # another process saved it; the room read the version before too: the step, the new row alone
        assert ROW.findall(moved["data"]) == ["4"] and 'data-from="' in moved["data"]
        reader.close()
    finally:
        server.stop()


@pytest.mark.slow
def test_the_spectator_s_stream_is_the_read_only_region(app, client, server):
    match_id = new_match(client)
    token = re.search(r"/view/([A-Za-z0-9_-]+)", client.get(f"/matches/{match_id}/join").get_data(as_text=True)).group(1)
    reader = EventReader(server.base, f"/view/{token}/stream")
    try:
        assert reader.next_event()["event"] == "hello"
        whole = reader.next_event()  # it named no version: the whole region at once
        assert whole["id"] == shown_tag(client, f"/view/{token}")
        assert "hand-form" not in whole["data"] and f"/matches/{match_id}" not in whole["data"]
        save(client, match_id, 1)
        moved = reader.next_event()
        assert ROW.findall(moved["data"]) == ["1"] and f"/matches/{match_id}" not in moved["data"]
    finally:
        reader.close()
    assert client.post(f"/view/{token}/stream").status_code in (400, 405)


@pytest.mark.sqlite_only
def test_a_stream_of_one_table_never_carries_another_table_s_match(tmp_path):
    app = hosted_app(tmp_path)
    client = app.test_client()
    mine, theirs = start_table(client, "Mine"), start_table(client, "Theirs")
    page = client.get(f"{theirs}matches/new").get_data(as_text=True)
    answer = client.post(f"{theirs}matches/new", data={"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ben"],
                                                        "format": "hollywood", "preset": "classic", "first_dealer": "1"})
    their_match = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert client.get(f"{mine}matches/{their_match}/stream").status_code == 404
    held = client.get(f"{theirs}matches/{their_match}/stream", buffered=False)
    assert held.status_code == 200 and held.mimetype == "text/event-stream"
    held.close()


@pytest.mark.sqlite_only
def test_the_file_watcher_wakes_only_the_followers_of_a_moved_match(app, client):
    """The SQLite watcher (models/storage/notifier.py): a match just followed is woken once, then only a save
    of that match wakes its follower, also after nobody followed it for a while. The watcher wakes in one
    look what that look found moved, so once a second save's wake-up is seen the first's look is over."""
    first, second = new_match(client), new_match(client)
    notifier = Notifier(app.config["DATABASE"])
    try:
        one, two = notifier.follow(first), notifier.follow(second)
        assert one.wait(30) and two.wait(30)  # no version seen yet: "look again"
        for number in (1, 2):
            save(client, first, number)
            assert one.wait(30)
        assert not two.moved.is_set()
        notifier.leave(two)
        again = notifier.follow(second)
        for number in (1, 2, 3):
            save(client, second, number)
            assert again.wait(30)
        assert not one.moved.is_set()
    finally:
        notifier.stop()


def test_a_save_in_another_schema_wakes_no_follower_of_this_ledger():
    """PostgreSQL's channel is the whole database's, and a ledger in another schema numbers its matches 1, 2, 3
    as well: its saves wake none of this ledger's streams (each woken stream would ask the database again)."""
    from postgres import Schema
    from views.site import db

    schemas = [Schema(), Schema()]
    apps = [create_app({"TESTING": True, "DATABASE": schema.url, "SECRET_KEY": "test"}) for schema in schemas]
    notifier = Notifier(schemas[0].url)
    try:
        ours, theirs = (app.test_client() for app in apps)
        assert new_match(ours) == new_match(theirs) == 1
        follower = notifier.follow(1)
        assert follower.wait(30)  # the watcher's start: "look again"
        for number in (1, 2):
            save(theirs, 1, number)
        save(ours, 1, 1)  # seen after the other ledger's two, as the notices come in their commits' order
        assert follower.wait(30)
        assert not follower.moved.is_set()
        save(theirs, 1, 3)
        assert not follower.wait(1.0)
    finally:
        notifier.stop()
        for app in apps:
            db.close_app(app)
        for schema in schemas:
            schema.drop()


def test_the_streams_an_address_holds_are_bounded(app, client):
    app.config["STREAMS_PER_ADDRESS"] = 1
    match_id = new_match(client)
    held = client.get(f"/matches/{match_id}/stream", buffered=False)
    assert held.status_code == 200
    refused = client.get(f"/matches/{match_id}/stream", buffered=False)
    assert refused.status_code == 503  # the page script polls instead
    refused.close()
    held.close()  # given back when the server closes it
    again = client.get(f"/matches/{match_id}/stream", buffered=False)
    assert again.status_code == 200
    again.close()


def test_a_browser_not_logged_in_gets_no_stream_and_no_early_answer(app, client):
    match_id = new_match(client)
    tag = shown_tag(client, f"/matches/{match_id}")
    app.config["PASSPHRASE"] = "swordfish"
    stranger = app.test_client()
    assert stranger.get(f"/matches/{match_id}/stream").status_code == 302
    for _twice in range(2):  # the second on a connection the quiet poll already keeps
        quiet = stranger.get(f"/matches/{match_id}/live", headers={"X-Sheet": tag})
        assert quiet.status_code == 302 and "ETag" not in quiet.headers
        assert stranger.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag}).status_code == 302


def test_empty_answers_carry_no_page_headers(client):
    match_id = new_match(client)
    tag = shown_tag(client, f"/matches/{match_id}")
    quiet = client.get(f"/matches/{match_id}/live", headers={"X-Sheet": tag})
    assert quiet.data == b"" and "Content-Security-Policy" not in quiet.headers
    assert "Content-Security-Policy" in client.get(f"/matches/{match_id}").headers


def test_a_held_stream_asks_the_database_nothing_between_changes(app, client, monkeypatch):
    """Heartbeats come and go without a query (an idle table costs the database nothing); a save wakes the
    stream, which then looks once and sends the change."""
    from views.live import stream as streams

    match_id = new_match(client)
    tag = shown_tag(client, f"/matches/{match_id}")
    hub = app.extensions[streams.HUB]
    asked = []
    real = hub.read
    monkeypatch.setattr(hub, "read", lambda *args, **kw: asked.append(1) or real(*args, **kw))
    monkeypatch.setattr(streams, "HEARTBEAT_S", 0.01)
    # The watcher's start wakes the new stream once (what was committed before it watched); on a slow
    # machine that comes after any number of heartbeats, so the test waits for it rather than counting them.
    notifier, started = app.extensions[streams.NOTIFIER], threading.Event()
    real_wake = notifier.wake
    monkeypatch.setattr(notifier, "wake", lambda ids: (real_wake(ids), started.set()))
    held = client.get(f"/matches/{match_id}/stream?shown={tag}", buffered=False)
    chunks = iter(held.response)
    try:
        assert "retry:" in next(chunks).decode() and "event: hello" in next(chunks).decode()
        assert started.wait(60), "the change watcher never started"
        # the stream runs only inside next(): this heartbeat comes after the woken stream's look
        assert [next(chunks).decode() for _ in range(20)] == [": \n\n"] * 20
        # the room's first look, the one the watcher's start woke
        settled = len(asked)
        assert [next(chunks).decode() for _ in range(20)] == [": \n\n"] * 20
        assert len(asked) == settled  # 20 heartbeats, no query
        save(client, match_id, 1)
        sent = next(chunk for chunk in map(bytes.decode, chunks) if chunk != ": \n\n")
        assert sent.startswith("id: ") and ROW.findall(sent) == ["1"]
        assert len(asked) == settled + 1  # woken: one look, by the room
    finally:
        held.close()


def test_streams_in_two_worker_processes_get_each_save_once_in_order(app, client, database, tmp_path):
    """Fan-out across processes: saves from this process, phones held by either of gunicorn's two workers."""
    match_id = new_match(client)
    path = f"/matches/{match_id}/stream?shown={shown_tag(client, f'/matches/{match_id}')}"
    with GeventServer(database, log_dir=tmp_path, gunicorn_args=("--workers", "2")) as running:
        readers = [EventReader(running.base, path) for _ in range(6)]
        try:
            assert all(reader.next_event()["event"] == "hello" for reader in readers)
            seen = [[] for _ in readers]
            for number in range(1, 5):
                save(client, match_id, number)
                for got, reader in zip(seen, readers):
                    event = reader.next_event()
                    got.append((event["id"], ROW.findall(event["data"])))
            for got in seen:
                assert [rows for _, rows in got] == [[str(n)] for n in range(1, 5)]  # each step once, in order
                assert [tag for tag, _ in got] == [tag for tag, _ in seen[0]] and len({t for t, _ in got}) == 4
        finally:
            for reader in readers:
                reader.close()
