"""Two phones at one table: addresses, QR codes, live fragments, installability."""
import json
import re

import segno

from views.site import netinfo
from webutil import case, import_match, post_hand

FIB = """Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
        |-- 127.0.0.1
           /32 host LOCAL
     |-- 192.168.1.0
        /24 link UNICAST
     |-- 192.168.1.23
        /32 host LOCAL
     |-- 10.8.0.4
        /32 host LOCAL
"""


def test_addresses_leave_out_loopback_and_put_private_first():
    assert netinfo.local_addresses(FIB, resolved=["127.0.1.1", "169.254.3.3", "203.0.113.9"]) == [
        "10.8.0.4", "192.168.1.23", "203.0.113.9"]
    assert netinfo.urls(5000, ["192.168.1.23"]) == ["http://192.168.1.23:5000/"]


def test_home_qr_encodes_a_phone_reachable_address(client, monkeypatch):
    monkeypatch.setattr(netinfo, "local_addresses", lambda *a, **k: ["192.168.1.23"])
    page = client.get("/", base_url="http://localhost:5000").get_data(as_text=True)
    assert "http://192.168.1.23:5000/" in page
    assert qr_path(page) == segno_path("http://192.168.1.23:5000/")
    served = client.get("/", base_url="http://192.168.1.50:8080").get_data(as_text=True)
    assert qr_path(served) == segno_path("http://192.168.1.50:8080/")


def test_with_trusted_hosts_the_qr_never_names_an_untrusted_address(app, monkeypatch):
    """On this machine's loopback, a network address replaces it only if the server would answer it."""
    monkeypatch.setattr(netinfo, "local_addresses", lambda *a, **k: ["192.168.1.23"])
    client = app.test_client()
    app.config["TRUSTED_HOSTS"] = ["localhost", "gin.example"]
    page = client.get("/", base_url="http://localhost:5000").get_data(as_text=True)
    assert "qrline" not in page and "192.168.1.23" not in page  # no QR of an address no phone can open
    assert client.get("/", base_url="http://192.168.1.23:5000").status_code == 400
    app.config["TRUSTED_HOSTS"] = ["localhost", "192.168.1.23"]
    page = client.get("/", base_url="http://localhost:5000").get_data(as_text=True)
    assert qr_path(page) == segno_path("http://192.168.1.23:5000/")


def qr_path(page: str, index: int = 0) -> str:
    return re.findall(r'<path class="qrline" stroke="#000" d="([^"]+)"', page)[index]


def segno_path(text: str) -> str:
    svg = segno.make(text, error="m").svg_inline(scale=4, dark="#000", light="#fff")
    return re.search(r'class="qrline" stroke="#000" d="([^"]+)"', svg).group(1)


def test_match_page_offers_player_and_spectator_qr_codes(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    assert f"/matches/{match_id}/join" in client.get(f"/matches/{match_id}").get_data(as_text=True)
    page = client.get(f"/matches/{match_id}/join", base_url="http://192.168.1.50:5000").get_data(as_text=True)
    token = re.search(r"/view/([A-Za-z0-9_-]+)", page).group(1)
    assert qr_path(page, 0) == segno_path(f"http://192.168.1.50:5000/matches/{match_id}")
    assert qr_path(page, 1) == segno_path(f"http://192.168.1.50:5000/view/{token}")


def test_live_fragment_is_304_until_a_hand_is_saved(client):
    match_id = import_match(client, case("seed000-bob-alexandra"))
    first = client.get(f"/matches/{match_id}/live")
    tag = first.headers["ETag"]
    assert first.status_code == 200 and 'data-region="sheet"' in first.get_data(as_text=True)
    again = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    post_hand(client, match_id, winner="Alexandra", points="7")
    changed = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert ">25<" in changed.get_data(as_text=True)  # Alexandra 18 + 7 in game 1


def test_read_only_live_fragment_has_no_forms(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    token = re.search(r"/view/([A-Za-z0-9_-]+)", client.get(f"/matches/{match_id}/join").get_data(as_text=True)).group(1)
    fragment = client.get(f"/view/{token}/live").get_data(as_text=True)
    assert "<form" not in fragment and "108" in fragment
    big = client.get(f"/view/{token}/big").get_data(as_text=True)
    assert "<form" not in big and 'data-live-url="/view/' in big


def test_manifest_and_service_worker_are_served_with_their_types(client):
    manifest = client.get("/static/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    doc = json.loads(manifest.data)
    assert doc["theme_color"] and doc["start_url"] == "/"
    for icon in doc["icons"]:
        served = client.get(icon["src"])
        assert served.status_code == 200 and served.mimetype == icon["type"], icon
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript" and worker.headers["Service-Worker-Allowed"] == "/"
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_wake_lock_toggle_is_on_match_pages(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    assert 'data-role="wake"' in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_static_files_are_versioned_and_kept_for_a_year(client):
    page = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/style.css\?v=[0-9a-f]+)"', page).group(1)
    js = re.search(r'src="(/static/app.js\?v=[0-9a-f]+)"', page).group(1)
    for url in (css, js):
        response = client.get(url)
        assert response.cache_control.max_age == 365 * 24 * 3600 and response.cache_control.immutable
        assert url in client.get("/sw.js").get_data(as_text=True)  # precached under the same address
    assert client.get("/static/style.css").cache_control.max_age is None  # unversioned: always revalidated


def test_service_worker_cache_follows_the_static_files(client, app, tmp_path):
    from views.site import pwa

    name = client.get("/sw.js").get_data(as_text=True).split('var CACHE = "')[1].split('"')[0]
    assert name == "gin-ledger-" + pwa.static_fingerprint(app.static_folder)
    for cached in pwa.CACHED:
        assert f"/static/{cached}" in client.get("/sw.js").get_data(as_text=True)


def test_serve_prints_every_address_a_phone_can_open(runner, monkeypatch):
    import waitress

    served = []
    monkeypatch.setattr(netinfo, "local_addresses", lambda *a, **k: ["192.168.1.23", "10.8.0.4"])
    monkeypatch.setattr(waitress, "serve", lambda app, **options: served.append(options))
    result = runner.invoke(args=["serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "http://192.168.1.23:8123/" in result.output and "http://10.8.0.4:8123/" in result.output
    # 1,000 connections by poll: a room of 300 phones at once is answered (waitress's own 100 answers 97)
    assert served == [{"host": "0.0.0.0", "port": 8123, "threads": 8, "connection_limit": 1000,
                       "asyncore_use_poll": True, "clear_untrusted_proxy_headers": True}]


def test_serve_behind_a_proxy_lets_the_forwarded_headers_through_to_proxyfix(app, runner, monkeypatch):
    import waitress

    served = []
    monkeypatch.setattr(waitress, "serve", lambda app, **options: served.append(options))
    app.config["PROXY_HOPS"] = 1
    assert runner.invoke(args=["serve", "--host", "127.0.0.1"]).exit_code == 0
    assert served[0]["clear_untrusted_proxy_headers"] is False


def test_flask_run_announces_the_addresses(monkeypatch, capsys):
    import click

    from app import announce_addresses, create_app

    monkeypatch.setattr(netinfo, "local_addresses", lambda *a, **k: ["192.168.1.23"])
    monkeypatch.delenv("WERKZEUG_RUN_MAIN", raising=False)
    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "k"})
    with click.Context(click.Command("run"), info_name="run") as ctx:
        ctx.params = {"host": "0.0.0.0", "port": 5000}
        announce_addresses(app)
    assert "http://192.168.1.23:5000/" in capsys.readouterr().out
