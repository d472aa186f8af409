"""SQLite's connections are the app's pool's, shared by every thread or greenlet, one borrower at a time."""
import threading

import pytest

from views.site import db

pytestmark = pytest.mark.sqlite_only  # PostgreSQL's sessions are psycopg_pool's (models/storage/postgres.py)


def ask_in_new_threads(client, paths) -> list[int]:
    statuses = []
    for path in paths:  # one after another, each on a thread of its own, as greenlets come and go
        thread = threading.Thread(target=lambda path=path: statuses.append(client.get(path).status_code))
        thread.start()
        thread.join()
    return statuses


def test_requests_on_many_threads_share_one_connection(app, client):
    pool = app.extensions[db.FILES]
    before = pool.opened
    assert ask_in_new_threads(client, ["/"] * 30) == [200] * 30
    assert pool.opened - before <= 1  # not one per thread: the one each thread gave back
    assert pool.lent == 0 and len(pool.idle) >= 1


def test_borrowers_at_once_each_get_their_own_and_give_it_back(app):
    pool = app.extensions[db.FILES]
    lent = [pool.lend(app) for _ in range(3)]
    assert len({id(conn) for conn in lent}) == 3 and pool.lent == 3
    for conn in lent:
        pool.give_back(conn)
    assert pool.lent == 0
    again = pool.lend(app)
    assert any(again is conn for conn in lent)  # an idle one, not a new one
    pool.give_back(again)


def test_a_connection_of_the_file_replaced_is_never_lent_again(app, client, tmp_path):
    import shutil

    pool = app.extensions[db.FILES]
    assert client.get("/").status_code == 200
    kept = pool.lend(app)
    pool.give_back(kept)
    path = app.config["DATABASE"]
    shutil.copy(path, tmp_path / "copy.sqlite")
    shutil.move(tmp_path / "copy.sqlite", path)  # another file (inode) under the path: a restore
    fresh = pool.lend(app)
    try:
        assert fresh is not kept and fresh.identity == db.file_identity(path)
    finally:
        pool.give_back(fresh)
