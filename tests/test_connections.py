"""Each server thread keeps its connection between requests, and still notices the file going away."""
import os
import shutil
import sqlite3

from webutil import new_match

from views.site.db import get_db
import pytest

pytestmark = pytest.mark.sqlite_only  # per-thread SQLite connections and the file under the path


def test_one_thread_reuses_its_connection(app):
    with app.test_request_context("/"):
        first = get_db()
    with app.test_request_context("/"):
        assert get_db() is first


def test_a_deleted_file_is_a_503_and_nothing_is_written(app, client):
    match_id = new_match(client)
    path = app.config["DATABASE"]
    moved = path + ".moved"
    os.rename(path, moved)
    try:
        answer = client.get(f"/matches/{match_id}")
        assert answer.status_code == 503
        assert "The database file cannot be opened" in answer.text
        assert not os.path.exists(path)  # not made again, empty, behind the players' backs
    finally:
        os.rename(moved, path)
    assert client.get(f"/matches/{match_id}").status_code == 200  # put back: served again


def test_a_file_replaced_by_another_is_read_anew(app, client, tmp_path):
    """A restore copies a backup over the file: the kept connection would read the old one."""
    first = new_match(client, players=("Ana", "Ben"))
    copy = tmp_path / "before.sqlite"
    source = sqlite3.connect(app.config["DATABASE"])
    with sqlite3.connect(copy) as target:
        source.backup(target)
    source.close()
    second = new_match(client, players=("Cleo", "Dan"))
    assert client.get(f"/matches/{second}").status_code == 200
    for suffix in ("-wal", "-shm"):
        if os.path.exists(app.config["DATABASE"] + suffix):
            os.unlink(app.config["DATABASE"] + suffix)
    shutil.copy(copy, app.config["DATABASE"] + ".new")
    os.replace(app.config["DATABASE"] + ".new", app.config["DATABASE"])
    assert client.get(f"/matches/{first}").status_code == 200
    assert client.get(f"/matches/{second}").status_code == 404
