"""Issue 23, finding 10: no QR code names an address a phone cannot reach.

`flask --app app run` listens on 127.0.0.1 unless told `--host 0.0.0.0`; a page opened there used to show
a QR code of this machine's Wi-Fi address, where nothing answers. The development server names the address
it listens on (SERVER_NAME): on a loopback one, and whenever no network address the server would answer is
known, the home page and the join page say so in words, and how to start the server for phones, instead.
"""
from __future__ import annotations

import re
import threading
import urllib.request
from contextlib import contextmanager

import pytest
from werkzeug.serving import make_server

from views.site import netinfo
from webutil import case, import_match

LAN = "192.168.1.23"
HOW = "flask --app app run --host 0.0.0.0"


@pytest.fixture(autouse=True)
def on_the_wifi(monkeypatch):
    monkeypatch.setattr(netinfo, "local_addresses", lambda *a, **k: [LAN])


@contextmanager
def serving(app, host: str):
    """The development server `flask run` starts, in a thread, on a free port of `host`."""
    server = make_server(host, 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        thread.join()


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def join_section(page: str) -> str:
    return page.split('<section aria-labelledby="join"', 1)[1].split("</section>", 1)[0]


def main(page: str) -> str:
    return page.split('<main id="main">', 1)[1].split("</main>", 1)[0]


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_a_server_on_loopback_only_shows_no_qr_and_says_how_to_listen_for_phones(app, client):
    match_id = import_match(client, case("seed001-ana-ben"))
    with serving(app, "127.0.0.1") as port:
        home = join_section(get(f"http://127.0.0.1:{port}/"))
        join = main(get(f"http://127.0.0.1:{port}/matches/{match_id}/join"))
    for page in (home, join):
        assert "<svg" not in page and LAN not in page
        said = words(page)
        assert f"This server listens only on this machine (http://127.0.0.1:{port}/), so a phone cannot open it." \
            in said, said
        assert ("To let phones on the same Wi-Fi join, start it with this command and open the address it prints: "
                f"{HOW}") in said
    # The join page still gives the two links, for this machine's own browser.
    assert f'<a href="http://127.0.0.1:{port}/matches/{match_id}">' in join


def test_a_server_listening_on_the_network_shows_its_network_address_even_when_opened_on_loopback(app):
    with serving(app, "0.0.0.0") as port:
        home = join_section(get(f"http://127.0.0.1:{port}/"))
    assert "<svg" in home and f'<a href="http://{LAN}:{port}/">' in home and HOW not in home


def test_the_test_client_knows_the_same_through_server_name(client):
    """SERVER_NAME is what the development server (and gunicorn) set from the address they listen on."""
    home = join_section(client.get("/", base_url="http://localhost:5000",
                                   environ_overrides={"SERVER_NAME": "::1"}).get_data(as_text=True))
    assert "<svg" not in home and HOW in words(home)
    opened_elsewhere = join_section(client.get("/", base_url="http://192.168.1.50:5000").get_data(as_text=True))
    assert "<svg" in opened_elsewhere and HOW not in opened_elsewhere


def test_no_qr_when_trusted_hosts_name_none_of_this_machines_addresses(app):
    app.config["TRUSTED_HOSTS"] = ["localhost", "gin.example"]
    home = join_section(app.test_client().get("/", base_url="http://localhost:5000").get_data(as_text=True))
    assert "<svg" not in home and LAN not in home
    assert ("A phone cannot open http://localhost:5000/: it is this machine's own address, and FLASK_TRUSTED_HOSTS "
            "names none of its network addresses.") in words(home)


def test_no_qr_when_this_machine_is_on_no_network(client, monkeypatch):
    monkeypatch.setattr(netinfo, "local_addresses", lambda *a, **k: [])
    home = join_section(client.get("/", base_url="http://localhost:5000").get_data(as_text=True))
    assert "<svg" not in home
    assert "This machine is on no network, so a phone cannot open http://localhost:5000/." in words(home)
