"""The epoch changes only when what the versions counted may have: a change of schema or a restore,
never because a `flask` command opened the ledger (every running server's kept pages stay good)."""
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app import create_app
from models.storage import schema
from models.storage.connection import connect
from webutil import epoch_of

pytestmark = pytest.mark.slow  # each test starts a server or another process: left out of the quick loop

ROOT = Path(__file__).resolve().parents[1]


def flask(path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "FLASK_DATABASE": str(path), "FLASK_SECRET_KEY": "k"}
    return subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def epoch(path) -> str:
    conn = connect(str(path))
    try:
        return epoch_of(conn)
    finally:
        conn.close()


def test_a_backup_of_a_running_ledger_leaves_its_epoch_alone(tmp_path):
    path = tmp_path / "ledger.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "k"})  # the running ledger
    assert app.test_client().get("/").status_code == 200
    before = epoch(path)
    done = flask(path, "backup", str(tmp_path / "backup.sqlite"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "backup.sqlite").stat().st_size > 0
    assert epoch(path) == before
    assert create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "k"}) and epoch(path) == before


def test_a_restore_makes_a_new_epoch(tmp_path):
    path = tmp_path / "ledger.sqlite"
    create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "k"})
    assert flask(path, "backup", str(tmp_path / "backup.sqlite")).returncode == 0
    before = epoch(path)
    done = flask(path, "restore", str(tmp_path / "backup.sqlite"))
    assert done.returncode == 0, done.stderr
    assert epoch(path) != before


def test_a_change_of_schema_makes_a_new_epoch(tmp_path):
    """A ledger an older Gin Ledger left at schema 10, with its epoch, is brought up under a new one."""
    path = tmp_path / "ledger.sqlite"
    conn = sqlite3.connect(path)
    for script in schema.migrations()[:10]:
        for statement in schema.split_statements(script):
            conn.execute(statement)
    conn.execute("UPDATE epoch SET value = 'older' WHERE id = 1")
    conn.execute("PRAGMA user_version = 10")
    conn.commit()
    conn.close()
    create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "k"})
    assert epoch(path) != "older"
    before = epoch(path)
    create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "k"})
    assert epoch(path) == before


def test_a_crash_restart_of_postgresql_keeps_the_epoch_and_a_restore_changes_it(tmp_path):
    """A cluster of the test's own, stopped at once (as a crash) and started again: the same database, the
    same epoch, and a follower's tag still good; a dump restored under the app is another one: a new epoch."""
    from postgres import with_schema
    from test_database_restarts import Cluster
    from test_postgres import dump, restore
    from views.site import db
    from webutil import case, import_match

    cluster = Cluster()
    cluster.start()
    app = None
    try:
        setup = connect(cluster.url)
        setup.execute('CREATE SCHEMA "gin"')
        setup.close()
        url = with_schema(cluster.url, "gin")
        app = create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "k"}, instance_path=str(tmp_path / "i"))
        client = app.test_client()
        match_id = import_match(client, case("seed001-ana-ben"))
        followed = client.get(f"/matches/{match_id}/live")
        before = epoch(url)
        cluster.restart()
        polled = None
        for _ in range(20):  # the pool replaces the sessions the crash cut
            polled = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": followed.headers["ETag"]})
            if polled.status_code != 503:
                break
        assert polled.status_code == 304
        assert epoch(url) == before
        dump(url, "gin", tmp_path / "gin.sql")
        restore(url, "gin", tmp_path / "gin.sql")
        polled = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": followed.headers["ETag"]})
        assert polled.status_code == 200 and epoch(url) != before
    finally:
        if app is not None:
            db.close_app(app)
        cluster.stop()
