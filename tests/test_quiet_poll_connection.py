"""Over waitress: the page script's quiet poll keeps the phone's connection; a 304 does not.

Waitress 3.0.2 closes a connection after any response without a Content-Length, a 304 among them, so a
follow by If-None-Match cost a new connection every few seconds, on the phone and on the server. The
script names the version it shows in X-Sheet, and "nothing new" is an empty 200 with Content-Length: 0."""
import http.client

import pytest

from server import HOST, Server
from webutil import case

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow]


@pytest.fixture
def served(tmp_path):
    with Server(tmp_path / "polls.sqlite", threads=2) as server:
        client = server.client()
        match_id = client.import_match(case("seed001-ana-ben"))
        cookie = "; ".join(f"{c.name}={c.value}" for c in client.jar)
        yield server, f"/matches/{match_id}/live", cookie


def ask(conn, path, cookie, **headers):
    conn.request("GET", path, headers={"Cookie": cookie, **headers})
    answer = conn.getresponse()
    return answer, answer.read()


def test_a_quiet_poll_by_x_sheet_keeps_the_connection_and_a_304_closes_it(served):
    server, live, cookie = served
    conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
    answer, _ = ask(conn, live, cookie)
    tag = answer.getheader("ETag")
    for _ in range(3):  # the first may be Flask's (a thread meeting the file), the rest the quiet layer's
        answer, body = ask(conn, live, cookie, **{"X-Sheet": tag})
        assert (answer.status, body, answer.getheader("Content-Length")) == (200, b"", "0")
        assert answer.getheader("Connection") != "close" and conn.sock is not None
    socket = conn.sock
    answer, body = ask(conn, live, cookie, **{"X-Sheet": tag})
    assert conn.sock is socket, "the same connection served the next poll"
    answer, body = ask(conn, live, cookie, **{"If-None-Match": tag})
    assert answer.status == 304 and answer.getheader("Connection") == "close"
    conn.close()
