"""The database: a connection with the settings every connection needs, the schema brought up to
date, a consistent snapshot for reads, the online backup and its restore, and the database's epoch.

The DATABASE setting is a file path (SQLite) or a `postgresql://` address (models/storage/address.py); a
connection of either engine takes the same SQL and answers the same rows (models/storage/postgres.py), and
says which it is by its `dialect`. Only `begin_write` and `snapshot` differ between the two.

The epoch is a random word kept in the file (table `epoch`). Every kept thing is keyed by it beside
a match's version, and it changes whenever the file may hold another history than the one the
versions counted: every start (a new file, a newer schema), every `restore` (which writes the
backup in place: the file keeps its inode) and every time a server finds another file under its path
(a backup moved into place, views/site/db.py). A restored file's versions can repeat numbers the
running app already used for other contents; with a new epoch they are new keys.
"""
from __future__ import annotations

import os
import secrets
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from urllib.parse import quote

from . import postgres, schema
from .address import POSTGRESQL, SQLITE, dialect_of, read_address
from models.errors import (CommitUnknown, DatabaseBusy, DatabaseFault, DatabaseGone, DatabaseLost, DatabaseUnreadable,
                           DiskFull)

BUSY_TIMEOUT_MS = 10_000


class SqliteConnection(sqlite3.Connection):
    dialect = SQLITE
    writes_committed = 0  # units of work this connection committed (views/site/errors.py tells a request's)


def connect(database: str, create: bool = True, synchronous: str = "FULL"):
    """A connection to the database the setting names: a PostgreSQL session, or a SQLite file's."""
    address = read_address(database)
    if address.engine == POSTGRESQL:
        return postgres.connect(address.target)
    return connect_file(address.target, create, synchronous)


def connect_file(path: str, create: bool = True, synchronous: str = "FULL", shared: bool = False) -> SqliteConnection:
    """A connection with the settings every connection needs.

    isolation_level=None leaves transactions to the unit of work (models/storage/work.py), so no implicit
    deferred transaction can turn a read-then-write into a lost update. FULL (the command line, the
    start) syncs every commit; a request's connection asks NORMAL and leaves the fsync to
    models/storage/flusher.py. With create=False (a request's connection: the start made the file) a
    missing file is DatabaseGone, not a new empty database. `shared`: lent to one thread after another
    by a pool (views/site/db.py), never used by two at once.
    """
    if create:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, factory=SqliteConnection,
                               check_same_thread=not shared)
    else:
        try:
            conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=rw", uri=True,
                                   timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, factory=SqliteConnection,
                                   check_same_thread=not shared)
        except sqlite3.OperationalError as error:
            raise DatabaseGone(path, str(error)) from None
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    if synchronous not in ("FULL", "NORMAL"):
        raise ValueError(synchronous)
    conn.execute(f"PRAGMA synchronous = {synchronous}")  # nosec B608 - one of the two names above
    return conn


def begin_write(conn, match_id: int | None = None) -> None:
    """A transaction that holds the write lock from its first statement, so what it reads is still
    true at its commit. SQLite: BEGIN IMMEDIATE, the file's one lock. PostgreSQL: the schema's
    advisory lock (transaction-scoped, released at COMMIT or ROLLBACK), taken whole by a write that
    may touch anything, or shared by a write of one match's hands (`match_id`), which also locks that
    match's row (FOR UPDATE): writes of two matches go on side by side, two writes of one match and
    any other write follow one another."""
    if dialect_of(conn) != POSTGRESQL:
        conn.execute("BEGIN IMMEDIATE")
        return
    conn.execute("BEGIN")
    if match_id is None:
        conn.execute("SELECT pg_advisory_xact_lock(?, hashtext(current_schema()))", (postgres.WRITE_LOCK,))
        return
    conn.execute("SELECT pg_advisory_xact_lock_shared(?, hashtext(current_schema()))", (postgres.WRITE_LOCK,))
    conn.execute("SELECT id FROM match WHERE id = ? FOR UPDATE", (match_id,))


@contextmanager
def immediate(conn, match_id: int | None = None):
    """Take the write lock before reading, so what was read is still true at commit; `match_id`: the
    write touches that match alone (begin_write).

    A write that fails before its COMMIT is rolled back and kept nowhere, and so is one whose COMMIT
    the database refused (SQLite busy or full). Only a PostgreSQL session cut while its COMMIT was on
    the way leaves the outcome unknown: CommitUnknown.

    Only the unit of work (models/storage/work.py) and the tables that hold no match (logins, the
    throttle) use it directly."""
    begin_write(conn, match_id)
    try:
        yield conn
    except BaseException:
        roll_back(conn)
        raise
    try:
        conn.execute("COMMIT")
    except (sqlite3.Error, postgres.psycopg.Error) as error:
        if dialect_of(conn) == POSTGRESQL and conn.cut:
            raise CommitUnknown(postgres.first_line(error)) from error
        roll_back(conn)
        raise
    if hasattr(conn, "writes_committed"):
        conn.writes_committed += 1


def roll_back(conn) -> None:
    """Undo what a failed transaction left open; never raises: a session already cut has nothing open."""
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except (sqlite3.Error, postgres.psycopg.Error):
        pass  # SQLite rolled back by itself (a full disk, an I/O error); PostgreSQL's session is gone


# SQLite's primary result codes, and what each says of the request that met it.
SQLITE_FAULTS = {
    sqlite3.SQLITE_BUSY: DatabaseBusy, sqlite3.SQLITE_LOCKED: DatabaseBusy,
    sqlite3.SQLITE_FULL: DiskFull,
    sqlite3.SQLITE_IOERR: DatabaseUnreadable, sqlite3.SQLITE_CANTOPEN: DatabaseUnreadable,
    sqlite3.SQLITE_CORRUPT: DatabaseUnreadable, sqlite3.SQLITE_NOTADB: DatabaseUnreadable,
    sqlite3.SQLITE_READONLY: DatabaseUnreadable, sqlite3.SQLITE_PERM: DatabaseUnreadable,
}


def fault_of(error: BaseException) -> DatabaseFault | None:
    """What an engine's error says of the database (None: not a fault of the database, but a bug)."""
    if isinstance(error, DatabaseFault):
        return error
    if isinstance(error, postgres.psycopg.OperationalError):
        return DatabaseLost(postgres.first_line(error))
    if isinstance(error, sqlite3.Error):
        kind = SQLITE_FAULTS.get((getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF)
        return kind(str(error)) if kind else None
    return None


@contextmanager
def snapshot(conn: sqlite3.Connection):
    """Several reads that see one state of the file (a match row and its hands), or the caller's
    own transaction when it holds one."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" if dialect_of(conn) == POSTGRESQL else "BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_epoch(conn: sqlite3.Connection) -> str:
    """A new epoch for the file; the caller holds the write lock (or none: it is one statement)."""
    epoch = secrets.token_hex(8)
    conn.execute("INSERT INTO epoch (id, value) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value",
                 (epoch,))
    return epoch


def migrate(conn, path: str = "", renew: bool = False) -> int:
    """Bring a new or old database up to the current schema in one transaction.

    A new epoch only when what the versions counted may have changed: a change of schema (a new file
    too), or `renew` (a restored or another database met under the address). Any other open, as every
    `flask` command's, leaves the epoch alone, so no running server's kept pages are thrown away."""
    with immediate(conn):
        before = schema.version_of(conn)
        version = schema.apply(conn, path)
        if renew or version != before or conn.execute("SELECT value FROM epoch WHERE id = 1").fetchone() is None:
            new_epoch(conn)
        return version


def damaged(error: sqlite3.Error) -> bool:
    """SQLite says the file's pages are not a database it can read (not a lock, a full disk or an I/O error)."""
    return (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def backup(source_path: str, target_path: str) -> int:
    """SQLite's online backup API: a consistent copy even while hands are being written."""
    source = connect_file(source_path)
    target = sqlite3.connect(target_path)
    target.row_factory = sqlite3.Row
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
        return target.execute("PRAGMA page_count").fetchone()["page_count"]
    finally:
        target.close()
        source.close()
