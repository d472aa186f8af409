"""A request's commit is in the log when the POST is answered, and on the disk a moment later.

The kill -9 half of the promise is tests/test_crash.py; this is the power-cut half: the
flusher thread fsyncs the write-ahead log after every request that wrote, and only then.
"""
import os
import time

from webutil import new_match, post_hand

from models.storage.flusher import Flusher
from views.site.db import FLUSHER
import pytest
from models.storage.connection import connect
from models.storage.ledger_file import open_ledger

pytestmark = pytest.mark.sqlite_only  # the SQLite write-ahead log put on the disk


def wait_for(predicate, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


def test_the_flusher_syncs_the_log_soon_after_it_is_asked(tmp_path, monkeypatch):
    database = tmp_path / "ledger.sqlite"
    conn = open_ledger(str(database))
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real_fsync(fd)))
    flusher = Flusher(str(database), delay=0.01)
    flusher.soon()
    assert wait_for(lambda: flusher.synced == 1)
    assert synced == [str(database) + "-wal"]
    time.sleep(0.05)
    assert flusher.synced == 1  # nothing asked, nothing done
    conn.close()


def test_a_missing_log_is_nothing_to_sync(tmp_path):
    flusher = Flusher(str(tmp_path / "none.sqlite"))
    flusher.sync()
    assert flusher.synced == 0


def test_a_saved_hand_is_flushed_and_a_page_view_is_not(app, client):
    flusher = app.extensions[FLUSHER]
    match_id = new_match(client)
    assert wait_for(lambda: flusher.synced >= 1)
    before = flusher.synced
    client.get(f"/matches/{match_id}")
    client.get("/")
    time.sleep(0.1)
    assert flusher.synced == before
    assert post_hand(client, match_id, knocker="Ana", knocker_deadwood="3", opponent_deadwood="20").status_code == 302
    assert wait_for(lambda: flusher.synced == before + 1)


def test_requests_commit_normal_and_the_command_line_full(app, client):
    """NORMAL only where the flusher follows; every other connection syncs each commit itself."""
    with app.test_request_context("/"):
        from views.site.db import get_db
        assert get_db().execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    keeper = connect(app.config["DATABASE"])
    assert keeper.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    keeper.close()
