"""The request's database connection, kept on `g` (as in the Flask tutorial).

On PostgreSQL a request borrows a session from the app's pool (psycopg_pool) and gives it back at
teardown; before it is used the database's identity is read, and another database under the
address (a restore: new tables; a cluster recovered to a point in time: a new timeline; never a restart) is
met as a replaced file is below: brought up to the schema, under a new epoch, once.

On SQLite a request borrows an open connection from the app's own pool (`FilePool`) and gives it
back at teardown, as on PostgreSQL. Opening a connection and setting its pragmas was a tenth of a
saved hand, so connections stay open between requests; they are shared by the server's threads
or greenlets, one borrower at a time, never one per thread: under gevent a thread is a greenlet, and a
connection (its page cache, its three file descriptors) per held stream cost 165 KB of each and ran out
of descriptors at 6,400 streams (issue 47). A held stream holds none while it waits.
Before each loan the file is looked up again: a file deleted or moved while the server runs is
DatabaseGone (nothing is written into an unlinked file), and a file replaced by another (a restore)
gets new connections, is brought up to the schema and gets a new epoch (models/storage/connection.py)
the first time this app meets it, so nothing kept from the file it replaced (whose versions may repeat
its numbers) is ever handed out for it.
"""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from contextlib import contextmanager

from flask import Flask, current_app, g

from models.storage import postgres
from models.storage.address import POSTGRESQL, dialect_of, read_address
from models.errors import DatabaseGone
from models.storage.flusher import Flusher
from models.storage.match_cache import MatchCache
from models.storage.connection import connect_file, migrate, roll_back
from models.storage.hand_writes import submission_kept
from models.storage.ledger_file import open_ledger
from models.storage.finished import refresh_finished

from .kept import app_caches

FILES = "gin_ledger_connections"  # SQLite's FilePool; None on PostgreSQL
FILE = "gin_ledger_file"  # the identity of the database this app last gave an epoch
FLUSHER = "gin_ledger_flusher"
POOL = "gin_ledger_pool"  # PostgreSQL's sessions; None on SQLite


def get_db():
    if "db" not in g:
        g.db = request_connection(current_app)
        g.db_changes = g.db.total_changes
        g.db_commits = g.db.writes_committed
    return g.db


def give_back_after_fault() -> bool:
    """Give the request's connection back after a fault of the database (a session the fault cut is
    dropped by the pool and replaced; the next get_db lends a fresh one), and say whether this request
    had committed a write before it."""
    conn = g.get("db")
    g.saved = g.get("saved", False) or (conn is not None and conn.writes_committed > g.get("db_commits", 0))
    close_db()
    return g.saved


def submission_kept_when_back(key: str, wait_s: float = 15.0) -> bool | None:
    """Once the database answers again, whether the write with one-time key `key` was kept; None if it
    does not answer within `wait_s` (each try waits for a session as long as a request does)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            conn = request_connection(current_app)
            try:
                return submission_kept(conn, key)
            finally:
                give_back(current_app, conn)
        except (DatabaseGone, sqlite3.Error, postgres.psycopg.Error):
            if time.monotonic() > deadline:
                return None
            time.sleep(0.2)


def request_connection(app: Flask):
    """A connection for this request: a pooled PostgreSQL session, or a pooled SQLite connection."""
    pool = app.extensions[POOL]
    if pool is None:
        return app.extensions[FILES].lend(app)
    conn = pool.lend()  # raises DatabaseUnreachable
    try:
        met_file(app, conn, postgres.identity(conn))
    except BaseException:  # a session cut meanwhile: a fault of the database (views/site/errors.py), read again
        conn.close()
        raise
    return conn


def give_back(app: Flask, conn) -> None:
    """A connection lent by request_connection, back to its pool."""
    if dialect_of(conn) == POSTGRESQL:
        conn.close()  # back to the pool, which replaces a session a restart cut; PostgreSQL made each commit durable
    else:
        app.extensions[FILES].give_back(conn)


def file_identity(path: str) -> tuple[int, int]:
    try:
        found = os.stat(path)
    except FileNotFoundError as error:
        raise DatabaseGone(path, str(error)) from None
    return found.st_dev, found.st_ino


class FilePool:
    """Open connections to the app's SQLite file, each lent to one borrower at a time (a request, a
    stream's one read of a change) whatever thread or greenlet it runs on. What must stay true: a
    connection is used by its borrower only, and one to a file no longer under the path is never lent."""

    KEEP = 16  # idle connections kept open; more borrowers at once open more and close them on return

    def __init__(self, path: str):
        self.path, self.lock, self.idle, self.lent, self.opened = path, threading.Lock(), [], 0, 0

    def lend(self, app: Flask):
        identity = file_identity(self.path)  # raises DatabaseGone
        stale, conn = [], None
        with self.lock:
            while self.idle and conn is None:
                kept = self.idle.pop()  # the most recently used: its pages are the warmest
                if kept.identity == identity:
                    conn = kept
                else:
                    stale.append(kept)
            self.lent += 1
        for old in stale:
            old.close()
        if conn is not None:
            return conn
        try:
            # NORMAL: a commit survives the server being killed; models/storage/flusher.py puts it on the disk.
            conn = connect_file(self.path, create=False, synchronous="NORMAL", shared=True)  # raises DatabaseGone
            conn.identity = identity
            self.opened += 1  # counted for the tests and benches: how many connections were ever opened
            met_file(app, conn, identity)
        except BaseException:
            if conn is not None:
                conn.close()
            with self.lock:
                self.lent -= 1
            raise
        return conn

    def give_back(self, conn) -> None:
        with self.lock:
            self.lent -= 1
            if len(self.idle) < self.KEEP:
                self.idle.append(conn)
                return
        conn.close()

    def close(self) -> None:
        with self.lock:
            idle, self.idle = self.idle, []
        for conn in idle:
            conn.close()


def met_file(app: Flask, conn, identity: tuple) -> None:
    """Another database under the app's address (a backup restored over it): upgraded, and a new epoch, once."""
    known = app.extensions[FILE]
    with known["lock"]:
        if known["identity"] == identity:
            return
        migrate(conn, app.config["DATABASE"], renew=True)  # a new epoch, and an older backup's schema brought up
        refresh_finished(conn)
        known["identity"] = identity


def match_cache() -> MatchCache:
    """The app's own cache of folded matches (app.init_caches), for the pages that list many."""
    return app_caches().matches


def close_db(exc: BaseException | None = None) -> None:
    """The request's connection back to its pool, for the next; what it wrote on SQLite goes to the disk soon."""
    db = g.pop("db", None)
    if db is None:
        return
    roll_back(db)  # only if a view forgot its transaction, or a fault cut it: nothing half-done is kept
    changed = db.total_changes != g.pop("db_changes", db.total_changes)
    give_back(current_app, db)
    if changed and dialect_of(db) != POSTGRESQL:
        current_app.extensions[FLUSHER].soon()


def init_app(app: Flask) -> None:
    """Create or upgrade the database file when the app starts: no separate init step.

    The connection that migrated stays open for the life of the app: while one
    connection is open, closing a request's connection does not checkpoint the
    WAL and delete it, only for the next request to create it again.
    """
    address = read_address(app.config["DATABASE"])  # raises DatabaseRefused: `flask run` stops there
    keeper = open_ledger(app.config["DATABASE"])  # raises SchemaTooNew: `flask run` stops there
    if address.engine == POSTGRESQL:
        identity = postgres.identity(keeper)
        keeper.close()
        pool = postgres.Pool(address.target, app.config["DATABASE_POOL_SIZE"])
        pool.open()
        app.extensions.update({POOL: pool, FLUSHER: None, "gin_ledger_keeper": None, FILES: None,
                               FILE: {"identity": identity, "lock": threading.Lock()}})
        app.teardown_appcontext(close_db)
        return
    app.extensions[POOL] = None
    app.extensions["gin_ledger_keeper"] = keeper
    app.extensions[FILES] = FilePool(address.target)
    try:
        identity = file_identity(app.config["DATABASE"])
    except DatabaseGone:  # ":memory:", which no request can open: the first request says so
        identity = None
    app.extensions[FILE] = {"identity": identity, "lock": threading.Lock()}
    app.extensions[FLUSHER] = Flusher(app.config["DATABASE"])
    app.teardown_appcontext(close_db)


@contextmanager
def start_connection(app: Flask):
    """A connection for what the app reads once at its start: SQLite's keeper, or a pooled session."""
    pool = app.extensions[POOL]
    if pool is None:
        yield app.extensions["gin_ledger_keeper"]
        return
    conn = pool.lend()
    try:
        yield conn
    finally:
        conn.close()


def close_app(app: Flask) -> None:
    """Give back what the app holds of the database: its PostgreSQL pool, or its SQLite keeper."""
    notifier = app.extensions.get("gin_ledger_notifier")  # views/live/stream.py
    if notifier is not None:
        notifier.stop()
    pool = app.extensions.get(POOL)
    if pool is not None:
        pool.close()
    files = app.extensions.get(FILES)
    if files is not None:
        files.close()
    keeper = app.extensions.get("gin_ledger_keeper")
    if keeper is not None:
        keeper.close()
