"""The request's SQLite connection, kept on `g` (as in the Flask tutorial), and kept open per thread.

Opening a connection and setting its pragmas was a tenth of a saved hand, so each server
thread keeps its own open between requests (SQLite connections are not shared across
threads). Before each request the file is looked up again: a file deleted or moved
while the server runs is DatabaseGone (nothing is written into an unlinked file), and a
file replaced by another (a restore) gets a new connection, is brought up to the schema and
gets a new epoch (models/connection.py) the first time this app meets it, so nothing kept from
the file it replaced (whose versions may repeat its numbers) is ever handed out for it.
"""
from __future__ import annotations

import os
import sqlite3
import threading

from flask import Flask, current_app, g

from models import caches, storage
from models.errors import DatabaseGone
from models.flusher import Flusher
from models.match_cache import MatchCache

THREADS = "gin_ledger_connections"
FILE = "gin_ledger_file"  # the identity of the file this app last gave an epoch
FLUSHER = "gin_ledger_flusher"


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = thread_connection(current_app)
        g.db_changes = g.db.total_changes
    return g.db


def file_identity(path: str) -> tuple[int, int]:
    try:
        found = os.stat(path)
    except FileNotFoundError as error:
        raise DatabaseGone(path, str(error)) from None
    return found.st_dev, found.st_ino


def thread_connection(app: Flask) -> sqlite3.Connection:
    """This thread's connection to the app's file, opened again if the file is another one now."""
    kept, path = app.extensions[THREADS], app.config["DATABASE"]
    identity = file_identity(path)
    conn = getattr(kept, "conn", None)
    if conn is not None and kept.identity == identity:
        return conn
    if conn is not None:
        conn.close()
    # NORMAL: a commit survives the server being killed; models/flusher.py puts it on the disk.
    kept.conn = storage.connect(path, create=False, synchronous="NORMAL")  # raises DatabaseGone
    kept.identity = identity
    met_file(app, kept.conn, identity)
    return kept.conn


def met_file(app: Flask, conn: sqlite3.Connection, identity: tuple[int, int]) -> None:
    """Another file under the app's path (a backup restored over it): upgraded, and a new epoch, once."""
    known = app.extensions[FILE]
    with known["lock"]:
        if known["identity"] == identity:
            return
        storage.migrate(conn, app.config["DATABASE"])  # a new epoch, and an older backup's schema brought up
        storage.refresh_finished(conn)
        known["identity"] = identity


def match_cache() -> MatchCache:
    """The app's own cache of folded matches (app.init_caches), for the pages that list many."""
    return current_app.extensions[caches.EXTENSION].matches


def close_db(exc: BaseException | None = None) -> None:
    """The connection stays open for the thread's next request; what it wrote goes to the disk soon."""
    db = g.pop("db", None)
    if db is None:
        return
    if db.in_transaction:  # only if a view forgot its transaction: nothing half-done is kept
        db.execute("ROLLBACK")
    if db.total_changes != g.pop("db_changes", db.total_changes):
        current_app.extensions[FLUSHER].soon()


def init_app(app: Flask) -> None:
    """Create or upgrade the database file when the app starts: no separate init step.

    The connection that migrated stays open for the life of the app: while one
    connection is open, closing a request's connection does not checkpoint the
    WAL and delete it, only for the next request to create it again.
    """
    keeper = storage.open_ledger(app.config["DATABASE"])  # raises SchemaTooNew: `flask run` stops there
    app.extensions["gin_ledger_keeper"] = keeper
    app.extensions[THREADS] = threading.local()
    try:
        identity = file_identity(app.config["DATABASE"])
    except DatabaseGone:  # ":memory:", which no request can open: the first request says so
        identity = None
    app.extensions[FILE] = {"identity": identity, "lock": threading.Lock()}
    app.extensions[FLUSHER] = Flusher(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
