"""The doors a public host left open (issue 25), each tried as the attack found it:
- a right passphrase anywhere cleared an address's failures: 9 wrong on the victim's table, 1 right
  on one's own, again and again, was unlimited guessing;
- a blocked try hashed the passphrase (scrypt) before the limit was looked at;
- path numbers of 2**63 and more, and malformed Host headers, answered 500;
- a passphrase changed and changed back let the old logins in again;
- table creation was unthrottled.
"""
import re

import pytest
from werkzeug.security import generate_password_hash

from app import create_app
from webutil import hidden, hosted_app, start_table

from views.tables import access


def set_passphrase(client, table: str, phrase: str) -> None:
    page = client.get(table).get_data(as_text=True)
    answer = client.post(table + "passphrase", data={"csrf_token": hidden(page, "csrf_token"), "passphrase": phrase})
    assert answer.status_code == 303


def try_phrase(client, table: str, phrase: str) -> int:
    page = client.get(table + "login").get_data(as_text=True)
    return client.post(table + "login", data={"csrf_token": hidden(page, "csrf_token"),
                                              "passphrase": phrase}).status_code


def test_a_right_passphrase_of_ones_own_table_clears_no_other_tables_failures(tmp_path):
    app = hosted_app(tmp_path)
    owner, attacker = app.test_client(), app.test_client()
    victim = start_table(owner, "Victim")
    set_passphrase(owner, victim, "the victim's secret")
    own = start_table(attacker, "Mine")
    set_passphrase(attacker, own, "my own secret")
    stranger = app.test_client()  # the attacker's other browser, which must log in to its own table
    answers = []
    for _ in range(5):
        answers += [try_phrase(stranger, victim, f"guess {n}") for n in range(9)]
        assert try_phrase(stranger, own, "my own secret") == 302
    assert 429 in answers[:12], answers
    assert answers.count(403) == 10  # ten wrong tries, then blocked for a quarter of an hour


def test_a_blocked_try_hashes_nothing(tmp_path, monkeypatch):
    app = hosted_app(tmp_path)
    owner = app.test_client()
    table = start_table(owner, "Club")
    set_passphrase(owner, table, "club secret")
    guesser = app.test_client()
    for n in range(10):
        assert try_phrase(guesser, table, f"guess {n}") == 403
    hashed = []
    real = access.check_password_hash
    monkeypatch.setattr(access, "check_password_hash", lambda *a: hashed.append(a) or real(*a))
    assert try_phrase(guesser, table, "club secret") == 429
    assert hashed == []


@pytest.mark.parametrize("hosted", [False, True])
def test_path_numbers_past_sqlites_integers_are_not_found(tmp_path, hosted):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "l.sqlite"), "SECRET_KEY": "k", "HOSTED": hosted,
                      "TABLE_STARTS_PER_MINUTE": 50}, instance_path=str(tmp_path / "i"))
    client = app.test_client()
    prefix = start_table(client, "Club") if hosted else "/"
    numbers = ["9223372036854775807", "9223372036854775808", "99999999999999999999999", "4611686018427387905"]
    served = []
    for rule in app.url_map.iter_rules():
        if "<int:" not in rule.rule or rule.endpoint == "static":
            continue
        for number in numbers:
            path = re.sub(r"<int:\w+>", number, rule.rule).replace("/t/<table_key>/", prefix)
            path = re.sub(r"<\w+>", "x", path)
            for method in sorted(rule.methods & {"GET", "POST"}):
                answer = client.open(path, method=method)
                served.append((answer.status_code, method, path))
    assert served and not [s for s in served if s[0] >= 500]


def raw_get(app, path: str, host: str) -> tuple[int, str]:
    """A GET with this Host header exactly as a client sent it (the test client would parse it first)."""
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    environ = EnvironBuilder(path=path).get_environ()
    environ["HTTP_HOST"] = host
    body, status, _ = run_wsgi_app(app.wsgi_app, environ, buffered=True)
    return int(status.split()[0]), b"".join(body).decode("utf-8", "replace")


HOSTS = ["127.0.0.1:99999", "127.0.0.1:0", "localhost:abc", "a" * 64 + ".example", "x" * 254,
         "bad host", "exa_mple.org", "[::1", "ex\u00e4mple.org", "127.0.0.1:5000:1"]


@pytest.mark.parametrize("trusted", [None, "localhost,127.0.0.1"])
def test_a_malformed_host_is_a_400_with_words_on_every_route(tmp_path, trusted):
    config = {"TRUSTED_HOSTS": trusted} if trusted else {}
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "l.sqlite"), "SECRET_KEY": "k", **config},
                     instance_path=str(tmp_path / "i"))
    for path in ["/", "/matches/1", "/matches/1/live", "/static/style.css", "/login", "/nowhere"]:
        for host in HOSTS:
            status, body = raw_get(app, path, host)
            assert status == 400, (path, host, status)
            assert "Host" in body
        assert raw_get(app, path, "localhost:5000")[0] < 500


def test_a_passphrase_changed_and_changed_back_lets_no_old_login_in(tmp_path):
    def app_with(phrase):
        return create_app({"TESTING": True, "DATABASE": str(tmp_path / "l.sqlite"), "SECRET_KEY": "k",
                           "PASSPHRASE": phrase}, instance_path=str(tmp_path / "i"))
    first = app_with("our table").test_client()
    page = first.get("/login").get_data(as_text=True)
    assert first.post("/login", data={"csrf_token": hidden(page, "csrf_token"),
                                      "passphrase": "our table"}).status_code == 302
    cookie = first.get_cookie("session").value
    assert first.get("/").status_code == 200
    for phrase, let_in in (("a new one", False), ("our table", False)):
        again = app_with(phrase).test_client()
        again.set_cookie("session", cookie)
        assert (again.get("/").status_code == 200) == let_in, phrase


def test_a_burst_of_new_tables_from_one_address_is_stopped_with_words(tmp_path):
    app = hosted_app(tmp_path, TABLE_STARTS_PER_MINUTE=3)
    client = app.test_client()
    for n in range(3):
        start_table(client, f"Table {n}")
    page = client.get("/").get_data(as_text=True)
    answer = client.post("/tables", data={"csrf_token": hidden(page, "csrf_token"), "table_name": "One more"})
    assert answer.status_code == 429
    assert "wait a minute" in answer.get_data(as_text=True)
