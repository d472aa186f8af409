"""Passphrase, read-only link, headers, the kept secret key, and the backup command."""
import os
import sqlite3

import pytest

from app import create_app
from webutil import case, export, hand_count, hidden, import_match, new_match
from models.storage.connection import connect, immediate


@pytest.fixture
def private(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "k",
                      "PASSPHRASE": "open sesame"})
    return app.test_client()


def test_without_a_passphrase_every_page_asks_for_it(private):
    for url in ["/", "/matches/new", "/matches/1", "/matches/1.json", "/matches/1/live", "/players"]:
        response = private.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"], url
    assert private.get("/view/abc").status_code == 404  # a spectator's link needs no passphrase, only a real token
    assert private.get("/static/style.css").status_code == 200
    refused = private.post("/import", data={"text": "{}"})  # the login's redirect, not the CSRF one (303)
    assert refused.status_code == 302 and "/login" in refused.headers["Location"]


def login(client, phrase):
    page = client.get("/login").get_data(as_text=True)
    return client.post("/login?next=/matches/new", data={"csrf_token": hidden(page, "csrf_token"),
                                                          "passphrase": phrase})


def test_the_passphrase_opens_the_app_for_thirty_days(private):
    assert login(private, "wrong").status_code == 403
    response = login(private, "open sesame")
    assert response.status_code == 302 and response.headers["Location"] == "/matches/new"
    cookie = response.headers["Set-Cookie"]
    assert "Expires=" in cookie
    assert private.get("/").status_code == 200


def test_login_is_rate_limited(private):
    for _ in range(10):
        assert login(private, "guess").status_code == 403
    assert login(private, "open sesame").status_code == 429


def test_read_only_link_shows_the_sheet_and_changes_nothing(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}/join").get_data(as_text=True)  # where the read-only link is
    token = page.split("/view/")[1].split('"')[0]
    view = client.get(f"/view/{token}").get_data(as_text=True)
    assert "108" in view and "196" in view
    assert "<form" not in view and "/hands/1" not in view
    assert client.post(f"/view/{token}", data={"winner": "Ana", "points": "5"}).status_code == 405
    assert client.get("/view/not-a-token").status_code == 404
    assert len(export(client, match_id)["hands"]) == 6


def test_security_headers(client):
    headers = client.get("/").headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_no_inline_script_in_any_template():
    folder = os.path.join(os.path.dirname(__file__), "..", "templates")
    for name in os.listdir(folder):
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        assert "<script>" not in text and " on" + "click=" not in text, name


def test_secret_key_is_made_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    first = create_app({"DATABASE": str(tmp_path / "a.sqlite")}, instance_path=str(instance))
    second = create_app({"DATABASE": str(tmp_path / "a.sqlite")}, instance_path=str(instance))
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    assert (instance / "secret_key").read_text() == first.config["SECRET_KEY"]


def test_a_form_left_open_all_evening_still_saves(client, monkeypatch):
    """The CSRF token of a page drawn 40 days ago is still good: a long evening never expires a form."""
    from itsdangerous import TimestampSigner

    match_id = new_match(client)
    real = TimestampSigner.get_timestamp

    def long_ago(signer):  # only the CSRF token's clock: the session cookie keeps its own
        return real(signer) - (40 * 24 * 3600 if signer.salt == b"wtf-csrf-token" else 0)

    monkeypatch.setattr(TimestampSigner, "get_timestamp", long_ago)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)  # its token is signed 40 days ago
    monkeypatch.setattr(TimestampSigner, "get_timestamp", real)
    response = client.post(f"/matches/{match_id}/hands", data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
        "version": hidden(page, "version"), "knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22"})
    assert response.status_code == 302
    assert hand_count(client, match_id) == 1


@pytest.mark.sqlite_only  # the backup of a file; on PostgreSQL it says pg_dump (tests/test_copy_db.py)
def test_backup_command_writes_a_consistent_copy(app, client, runner, tmp_path):
    doc = case("full-hollywood-match")
    match_id = import_match(client, doc)
    target = tmp_path / "copy.sqlite"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT COUNT(*) FROM hand WHERE match_id = ?", (match_id,)).fetchone()[0] == 13


def test_an_old_database_file_is_upgraded_in_place(tmp_path):
    from models.storage import schema

    path = str(tmp_path / "old.sqlite")
    conn = connect(path)
    with immediate(conn):
        for statement in schema.split_statements(schema.migrations()[0]):
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "k"})
    client = app.test_client()
    match_id = import_match(client, case("seed000-bob-alexandra"))
    assert export(client, match_id)["result"]["games"][0]["scores"]["Bob"] == 44
    assert connect(path).execute("PRAGMA user_version").fetchone()[0] == schema.known_version()
