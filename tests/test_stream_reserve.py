"""The connections a gevent worker keeps for saves (views/live/room.py, gunicorn.conf.py): held streams never
take the last STREAMS_RESERVE of `--worker-connections`, one more is refused with 503 (the page polls) and a
save still answers; a page closed gives its stream's slot back at once (its FIN), not at the next heartbeat;
and no answer keeps its connection (gunicorn.conf.py `keepalive`), so polling phones hold none of the reserve.
The server is the README's club command (gunicorn, one gevent worker) with 8 connections, 3 kept."""
import socket
import time

import pytest

from stream_server import EventReader, GeventServer
from test_streams import HAND, shown_tag
from webutil import new_match

CONNECTIONS, RESERVE = 8, 3
STREAMS = CONNECTIONS - RESERVE
HEARTBEAT_S = 30  # views/live/stream.py: without the FIN watch a closed page's slot waits this long


@pytest.fixture
def server(database, tmp_path):
    with GeventServer(database, log_dir=tmp_path, gunicorn_args=("--worker-connections", str(CONNECTIONS)),
                      env={"FLASK_STREAMS_RESERVE": str(RESERVE)}) as running:
        yield running


def streams_up_to_the_limit(client, server) -> tuple[str, list[EventReader]]:
    """A match and the streams one worker admits for it, each past its hello."""
    match_id = new_match(client)
    path = f"/matches/{match_id}/stream?shown={shown_tag(client, f'/matches/{match_id}')}"
    streams = [held(server, path) for _ in range(STREAMS)]
    assert [reader.status for reader in streams] == [200] * STREAMS
    return path, streams


def held(server, path: str) -> EventReader:
    reader = EventReader(server.base, path)
    if reader.status == 200:
        assert reader.next_event()["event"] == "hello"
    return reader


def test_streams_leave_the_reserve_to_saves(client, server):
    path, streams = streams_up_to_the_limit(client, server)
    match_id = int(path.split("/")[2])
    try:
        refused = held(server, path)
        refused.close()
        assert refused.status == 503  # the worker's last connections are not for streams: the page polls
        phone = server.client()
        began = time.monotonic()
        assert phone.post_hand(match_id, **HAND).status == 302
        assert time.monotonic() - began < 15  # not the 20 s of a save waiting for a connection
        assert "Ana" in streams[0].next_event()["data"]  # and the held streams still follow
    finally:
        for reader in streams:
            reader.close()


def test_a_closed_page_gives_its_slot_back_at_once(client, server):
    path, streams = streams_up_to_the_limit(client, server)
    try:
        streams.pop().sock.shutdown(socket.SHUT_WR)  # the page closed: its FIN, nothing more
        began, again = time.monotonic(), None
        while time.monotonic() - began < HEARTBEAT_S / 2:
            again = held(server, path)
            if again.status == 200:
                break
            again.close()
            time.sleep(0.1)
        assert again.status == 200, "the closed page's slot did not come back before the heartbeat"
        streams.append(again)
        refused = held(server, path)
        refused.close()
        assert refused.status == 503  # one slot came back, not more
    finally:
        for reader in streams:
            reader.close()


def test_an_answer_keeps_no_connection_of_the_reserve(client, server):
    match_id = new_match(client)
    host, port = server.base.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(f"GET /matches/{match_id}/live HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        answer = b""
        while got := sock.recv(65536):  # the server closes the connection after its answer
            answer += got
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    assert head.startswith("http/1.1 200") and "connection: close" in head
