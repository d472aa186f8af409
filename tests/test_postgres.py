"""PostgreSQL as the ledger: what the DATABASE setting takes, one schema for both engines, and a
database restored under the running app (pg_dump, then psql) met as a restored SQLite file is."""
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from app import StartRefused, create_app
from models.storage import postgres as postgres_engine, schema
from models.storage.connection import begin_write, connect
from models.storage.ledger_file import open_ledger
from models.storage.work import unit_of_work
from models.errors import DatabaseRefused
from postgres import Schema, server_url
from views.site import db
from webutil import case, epoch_of, export, import_match, post_hand, version_now

KNOCK_ANA = {"knocker": "Ana", "knocker_deadwood": "3", "opponent_deadwood": "21"}  # Ana scores 18
KNOCK_BEN = {"knocker": "Ben", "knocker_deadwood": "1", "opponent_deadwood": "40"}  # Ben scores 39
ANA_ROW, BEN_ROW = "knock 18 →", "knock 39 →"


# ---- what FLASK_DATABASE takes -----------------------------------------------------------

@pytest.mark.parametrize("address, said", [
    ("mysql://gin@127.0.0.1:3306/gin", "not in mysql"),
    ("sqlite:///gin.sqlite", "not in sqlite"),
    ("postgresql://gin@127.0.0.1:port/gin", "cannot be read"),
    ("postgresql://gin@127.0.0.1:5432", "names no database"),
    ("postgresql://gin:hunter2@127.0.0.1:1/gin", "does not answer"),
])
def test_an_address_it_cannot_use_is_refused_at_start_and_nothing_is_created(address, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StartRefused) as refused:
        create_app({"DATABASE": address, "SECRET_KEY": "k"}, instance_path=str(tmp_path / "instance"))
    assert isinstance(refused.value.reason, DatabaseRefused)
    sentence = str(refused.value)
    assert said in sentence and "Give a file path for SQLite, or postgresql://" in sentence
    assert "hunter2" not in sentence  # a password is never shown
    assert sorted(os.listdir(tmp_path)) == []  # no "postgresql:" folder, no file, no instance folder


@pytest.mark.slow
def test_flask_run_says_why_an_address_is_refused_in_one_sentence(tmp_path):
    env = {**os.environ, "FLASK_DATABASE": "postgres://gin@127.0.0.1:1/gin", "FLASK_SECRET_KEY": "k"}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ran = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "routes"], cwd=root, env=env,
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode != 0
    assert "FLASK_DATABASE=postgres://gin@127.0.0.1:1/gin cannot be used: the PostgreSQL server does not answer" in ran.stderr
    assert not os.path.exists(os.path.join(root, "postgres:"))


def test_a_path_is_still_a_sqlite_file(tmp_path):
    path = tmp_path / "deep" / "gin.sqlite"
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "k"}, instance_path=str(tmp_path / "instance"))
    db.close_app(app)
    assert path.exists() and sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == schema.known_version()


# ---- one schema ------------------------------------------------------------------------------

def sqlite_columns(path: str) -> dict[str, set[str]]:
    conn = sqlite3.connect(path)
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {table: {row[1] for row in conn.execute(f"PRAGMA table_info('{table}')")} for table in tables}


def postgres_columns(url: str, name: str) -> dict[str, set[str]]:
    conn = connect(url)
    found: dict[str, set[str]] = {}
    for row in conn.execute("SELECT table_name, column_name FROM information_schema.columns"
                            " WHERE table_schema = ?", (name,)):
        found.setdefault(row["table_name"], set()).add(row["column_name"])
    conn.close()
    found.pop("schema_version")  # where PostgreSQL keeps what SQLite's PRAGMA user_version holds
    return found


def test_both_engines_migrate_an_empty_database_to_the_same_tables_and_columns(tmp_path):
    server_url()
    path = str(tmp_path / "gin.sqlite")
    open_ledger(path).close()
    made = Schema()
    try:
        conn = open_ledger(made.url)
        assert schema.version_of(conn) == schema.known_version() == len(schema.migrations("postgresql"))
        conn.close()
        assert postgres_columns(made.url, made.name) == sqlite_columns(path)
    finally:
        made.drop()


def test_a_newer_postgresql_database_is_refused_untouched():
    server_url()
    made = Schema()
    try:
        conn = open_ledger(made.url)
        conn.execute("UPDATE schema_version SET version = ?", (schema.known_version() + 1,))
        epoch = epoch_of(conn)
        with pytest.raises(schema.SchemaTooNew):
            open_ledger(made.url)
        assert epoch_of(conn) == epoch
        conn.close()
    finally:
        made.drop()


def positional_row_reads(root) -> list[str]:
    """`….fetchone()[0]`, `row[2]`, `row[3:]` in the project's code: a read by position, which a dict row
    (PostgreSQL) does not answer, or answers with its column names when unpacked."""
    import ast
    from pathlib import Path

    found = []
    for path in sorted(Path(root).glob("*/**/*.py")):
        if path.parts[len(Path(root).parts)] not in ("models", "views"):
            continue
        text = path.read_text(encoding="utf-8")
        queries = ".execute(" in text  # a `row` in a file that runs no SQL is something else's (a CSV line)
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Subscript):
                continue
            on_row = (isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                      and node.value.func.attr == "fetchone") or (queries and isinstance(node.value, ast.Name)
                                                                  and node.value.id == "row")
            by_position = isinstance(node.slice, ast.Slice) or (isinstance(node.slice, ast.Constant)
                                                                and isinstance(node.slice.value, int))
            if on_row and by_position:
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_the_stores_read_every_row_by_column_name(tmp_path):
    """A row is psycopg's dict_row on PostgreSQL and sqlite3.Row on SQLite: both answer row["name"] alike."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    assert positional_row_reads(root) == []
    planted = tmp_path / "models" / "storage" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text('def count(conn):\n    return conn.execute("SELECT COUNT(*) FROM hand").fetchone()[0]\n'
                       "def rest(row):\n    return row[1:]\n")
    (planted.parent / "csv_lines.py").write_text("def rest(row):\n    return row[1:]\n")
    planted_at = planted.relative_to(tmp_path).as_posix()
    assert positional_row_reads(tmp_path) == [f"{planted_at}:2", f"{planted_at}:4"]
    conn = postgres_engine.connect(server_url())
    try:
        row = conn.execute("SELECT 1 AS one, 'two' AS two").fetchone()
    finally:
        conn.close()
    assert row == {"one": 1, "two": "two"}


# ---- a restore under the running app ------------------------------------------------------------

def dump(url: str, name: str, target) -> None:
    tool = shutil.which("pg_dump")
    if tool is None:
        pytest.fail("pg_dump is not on PATH (apt-get install postgresql-client)")
    server = url.split("?", 1)[0]
    subprocess.run([tool, "--no-owner", "-n", name, "-f", str(target), server], check=True, timeout=60)


def restore(url: str, name: str, backup) -> None:
    """As an operator restores a dump: the schema dropped, and made again from the dump."""
    server = url.split("?", 1)[0]
    conn = connect(server)
    conn.execute(f'DROP SCHEMA "{name}" CASCADE')
    conn.close()
    subprocess.run([shutil.which("psql"), "-q", "-v", "ON_ERROR_STOP=1", "-f", str(backup), server],
                   check=True, timeout=60, capture_output=True)


@pytest.fixture
def on_postgresql(tmp_path):
    server_url()
    made = Schema()
    app = create_app({"TESTING": True, "DATABASE": made.url, "SECRET_KEY": "test"},
                     instance_path=str(tmp_path / "instance"))
    yield app, made
    db.close_app(app)
    made.drop()


def test_after_a_restore_the_app_shows_the_hand_saved_not_the_one_restored_away(on_postgresql, tmp_path):
    app, made = on_postgresql
    client = app.test_client()
    match_id = import_match(client, case("seed001-ana-ben"))
    page = f"/matches/{match_id}"
    client.get(page)
    dump(made.url, made.name, tmp_path / "gin.sql")
    assert post_hand(client, match_id, **KNOCK_ANA).status_code == 302
    assert ANA_ROW in client.get(page).get_data(as_text=True)
    restore(made.url, made.name, tmp_path / "gin.sql")
    # The same version number again, with another hand: the answer shows this hand, not the kept one.
    saved = post_hand(client, match_id, **KNOCK_BEN)
    assert saved.status_code == 302
    shown = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Hand 7: Ben knocks, 1 against 40. Ben scores 39" in shown and BEN_ROW in shown and ANA_ROW not in shown
    assert export(client, match_id)["hands"][-1] == {"knocker": "Ben", "knocker_deadwood": 1, "opponent_deadwood": 40}


def test_a_follower_is_told_of_a_restore_even_at_the_version_it_had(on_postgresql, tmp_path):
    app, made = on_postgresql
    client = app.test_client()
    match_id = import_match(client, case("seed001-ana-ben"))
    dump(made.url, made.name, tmp_path / "gin.sql")
    post_hand(client, match_id, **KNOCK_ANA)
    followed = client.get(f"/matches/{match_id}/live")
    before = epoch_of(connect(made.url))
    restore(made.url, made.name, tmp_path / "gin.sql")
    post_hand(client, match_id, **KNOCK_BEN)  # the version number the follower has, other contents
    polled = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": followed.headers["ETag"]})
    assert polled.status_code == 200 and BEN_ROW in polled.get_data(as_text=True)
    assert epoch_of(connect(made.url)) != before


def test_a_quiet_poll_after_a_restore_goes_on_to_flask_and_gets_the_new_epoch(on_postgresql, tmp_path):
    app, made = on_postgresql
    client = app.test_client()
    match_id = import_match(client, case("seed001-ana-ben"))
    followed = client.get(f"/matches/{match_id}/live")
    tag = {"If-None-Match": followed.headers["ETag"]}
    assert client.get(f"/matches/{match_id}/live", headers=tag).status_code == 304
    dump(made.url, made.name, tmp_path / "gin.sql")
    restore(made.url, made.name, tmp_path / "gin.sql")
    polled = client.get(f"/matches/{match_id}/live", headers=tag)  # the same rows, but another database
    assert polled.status_code == 200 and polled.headers["ETag"] != followed.headers["ETag"]
    assert client.get(f"/matches/{match_id}/live", headers={"If-None-Match": polled.headers["ETag"]}).status_code == 304


# ---- sessions the server dropped, and none to be had ------------------------------------------

def test_sessions_the_server_dropped_are_replaced_and_the_page_answers(on_postgresql):
    app, made = on_postgresql
    client = app.test_client()
    match_id = import_match(client, case("seed001-ana-ben"))
    conn = connect(made.url)
    # this test's sessions only (tests/postgres.py names them after the schema): the tests beside it
    # on the same server keep theirs
    ended = conn.execute("SELECT COUNT(pg_terminate_backend(pid)) AS ended FROM pg_stat_activity"
                         " WHERE application_name = ? AND pid <> pg_backend_pid()", (made.name,)).fetchone()["ended"]
    conn.close()
    assert ended >= 1  # the pool's session, as a server restart or a proxy's idle timeout ends it
    assert client.get(f"/matches/{match_id}").status_code == 200
    assert post_hand(client, match_id, **KNOCK_BEN).status_code == 302


def test_no_free_session_is_a_503_with_words_and_nothing_written(tmp_path, monkeypatch):
    server_url()
    monkeypatch.setattr(postgres_engine, "LEND_TIMEOUT_S", 0.5)
    made = Schema()
    app = create_app({"TESTING": True, "DATABASE": made.url, "SECRET_KEY": "test", "DATABASE_POOL_SIZE": 1},
                     instance_path=str(tmp_path / "instance"))
    try:
        client = app.test_client()
        match_id = import_match(client, case("seed001-ana-ben"))
        held = app.extensions[db.POOL].lend()  # the one session, kept by someone else
        try:
            answer = client.get(f"/matches/{match_id}")
        finally:
            held.close()
        assert answer.status_code == 503 and "database server does not answer" in answer.get_data(as_text=True)
        assert client.get(f"/matches/{match_id}").status_code == 200
    finally:
        db.close_app(app)
        made.drop()


# ---- the write lock: one match's hands, or everything ---------------------------------------------

def waiting_connection(url: str):
    conn = connect(url)
    conn.execute("SET lock_timeout = '1s'")  # a lock not had within a second is a LockNotAvailable
    return conn


def test_writes_of_two_matches_go_on_side_by_side_and_of_one_match_wait(on_postgresql):
    import psycopg

    app, made = on_postgresql
    client = app.test_client()
    first, second = (import_match(client, case("seed001-ana-ben")) for _ in range(2))
    holder = connect(made.url)
    begin_write(holder, first)  # a write of the first match's hands, not yet committed
    try:
        other = waiting_connection(made.url)
        with unit_of_work(other, second) as work:  # another match's: not held up
            work.touched(second, refold=False)
        for match_id in (first, None):  # the same match's, and a write that may touch anything: they wait
            with pytest.raises(psycopg.errors.LockNotAvailable):
                with unit_of_work(waiting_connection(made.url), match_id):
                    pass
    finally:
        holder.execute("ROLLBACK")
    with unit_of_work(waiting_connection(made.url), first) as work:  # let go at the rollback
        work.touched(first, refold=False)


def test_a_write_opened_for_one_match_may_touch_no_other(on_postgresql):
    app, made = on_postgresql
    client = app.test_client()
    first, second = (import_match(client, case("seed001-ana-ben")) for _ in range(2))
    versions = [version_now(connect(made.url), match_id) for match_id in (first, second)]
    with pytest.raises(RuntimeError, match="does not hold"):
        with unit_of_work(connect(made.url), first) as work:
            work.touched(second)
    assert [version_now(connect(made.url), match_id) for match_id in (first, second)] == versions
