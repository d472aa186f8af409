"""Behind a proxy and for named hosts only, against real waitress processes: ProxyFix, Secure, HSTS, TRUSTED_HOSTS."""
import re

import pytest

from casefiles import case
from server import Server, hidden

PASSPHRASE = "open sesame"


# waitress 3 drops X-Forwarded-* itself unless told not to; the app is then the one that decides.
PASS_FORWARDED = ("--no-clear-untrusted-proxy-headers",)


def proxied(hops: int | None, tmp_path, **env):
    if hops is not None:
        env["FLASK_PROXY_HOPS"] = str(hops)
    return Server(tmp_path / "db.sqlite", threads=2, env=env, waitress_args=PASS_FORWARDED)


HTTPS_THROUGH_PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7",
                       "X-Forwarded-Host": "gin.example", "X-Forwarded-Port": "443"}


@pytest.mark.slow
def test_behind_one_proxy_https_gives_secure_cookies_and_hsts(tmp_path):
    with proxied(1, tmp_path) as server:
        answer = server.client().get("/", headers=HTTPS_THROUGH_PROXY)
        assert answer.status == 200
        assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"
        assert "Secure" in [part.strip() for part in answer.headers["Set-Cookie"].split(";")]
        assert "https://gin.example/" in answer.body  # the home QR's address, as the proxy named it
        plain = server.client().get("/", headers={"X-Forwarded-Proto": "http"})
        assert "Strict-Transport-Security" not in plain.headers
        assert "Secure" not in plain.headers["Set-Cookie"]


@pytest.mark.parametrize("hops", [None, 0])
@pytest.mark.slow
def test_without_proxy_hops_forwarded_headers_are_ignored(tmp_path, hops):
    with proxied(hops, tmp_path) as server:
        answer = server.client().get("/", headers=HTTPS_THROUGH_PROXY)
        assert answer.status == 200
        assert "Strict-Transport-Security" not in answer.headers
        assert "Secure" not in answer.headers["Set-Cookie"]
        assert "gin.example" not in answer.body


@pytest.mark.slow
def test_the_login_rate_limit_counts_the_forwarded_client(tmp_path):
    """With a proxy believed, clients behind it are told apart by X-Forwarded-For, not lumped as the proxy."""
    with proxied(1, tmp_path, FLASK_PASSPHRASE=PASSPHRASE) as server:
        for address, phrase, status in [("203.0.113.1", "guess", 403)] * 10 + [("203.0.113.2", PASSPHRASE, 302)]:
            client, forwarded = server.client(), {"X-Forwarded-For": address}
            page = client.get("/login", headers=forwarded).body
            fields = {"csrf_token": hidden(page, "csrf_token"), "passphrase": phrase}
            assert client.post("/login", fields, headers=forwarded).status == status


@pytest.fixture
def named(tmp_path):
    env = {"FLASK_TRUSTED_HOSTS": "gin.example, 127.0.0.1"}
    with Server(tmp_path / "db.sqlite", threads=2, env=env) as server:
        yield server


@pytest.mark.slow
def test_an_untrusted_host_gets_400(named):
    client = named.client()
    assert client.get("/", headers={"Host": "evil.example"}).status == 400
    assert client.get("/view/anything", headers={"Host": "evil.example:80"}).status == 400
    assert client.get("/static/style.css", headers={"Host": "gin.example.evil"}).status == 400
    assert client.get("/", headers={"Host": "gin.example"}).status == 200


@pytest.mark.slow
def test_the_join_page_links_only_to_the_trusted_host(named):
    client = named.client()
    match_id = client.import_match(case("seed001-ana-ben"))
    join = client.get(f"/matches/{match_id}/join", headers={"Host": "gin.example"})
    assert join.status == 200
    links = re.findall(r'href="(http[^"]+)"', join.body)
    assert links and all(link.startswith("http://gin.example/") for link in links), links
    assert client.get(f"/matches/{match_id}/join", headers={"Host": "evil.example"}).status == 400
    loopback = client.get(f"/matches/{match_id}/join")  # this machine's own address: no untrusted LAN one swapped in
    links = re.findall(r'href="(http[^"]+)"', loopback.body)
    assert links and all(link.startswith(named.base + "/") for link in links), links


def test_the_proxy_settings_are_read_or_refused_by_name(tmp_path):
    from app import create_app
    from views.site.serving import ConfigurationError

    config = {"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "k"}
    app = create_app({**config, "TRUSTED_HOSTS": " gin.example , .club.example,, "})
    assert app.config["TRUSTED_HOSTS"] == ["gin.example", ".club.example"]
    assert create_app({**config, "TRUSTED_HOSTS": ""}).config["TRUSTED_HOSTS"] is None
    for wrong in ("two", "-1", 1.5):
        with pytest.raises(ConfigurationError, match="FLASK_PROXY_HOPS"):
            create_app({**config, "PROXY_HOPS": wrong})
