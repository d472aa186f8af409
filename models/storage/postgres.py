"""PostgreSQL through psycopg 3, shaped like the sqlite3 connection the stores were written for.

The stores write their SQL once, with `?` placeholders, for both engines (models/storage/connection.py keeps
the few statements that differ: `begin_write`, `snapshot`). A `Connection` here runs that SQL on PostgreSQL: `?` becomes psycopg's
`%s`, bound client-side (psycopg's ClientCursor, so a NULL parameter needs no declared type, as in
SQLite), a bool is bound as 0 or 1 (the columns are integers on both engines), and a row is psycopg's
`dict_row`. The stores read every row by column name, `row["name"]`, which sqlite3.Row and a dict both
answer, so a column without a name of its own (a COUNT, a MAX) is given one with AS.

What must stay true: the connection is in autocommit, so a transaction is only ever the unit of
work's or a snapshot's (models/storage/connection.py), begun and ended by them, exactly as with SQLite.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

import psycopg
from psycopg import pq
from psycopg.rows import dict_row

from .address import shown
from models.errors import DatabaseRefused, DatabaseUnreachable

DIALECT = "postgresql"
CONNECT_TIMEOUT_S = 5
LEND_TIMEOUT_S = 10  # a request waits this long for a free session, then answers 503
# The advisory lock every write takes first, keyed by this word and the schema (ledgers in other schemas
# of the database do not wait on it): whole by a write that may touch anything, shared by a write of one
# match's hands, which also locks that match's row (models/storage/connection.py `begin_write`).
WRITE_LOCK = 0x67696E  # "gin"


@lru_cache(maxsize=2048)
def placeholders(sql: str) -> str:
    """SQLite's `?` as psycopg's `%s`, and a literal `%` doubled; quoted text is left as written."""
    out, quote = [], None
    for char in sql:
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            out.append("%s")
            continue
        if char == "%":
            out.append("%%")
            continue
        out.append(char)
    return "".join(out)


def bound(params: Iterable[Any]) -> tuple:
    return tuple(int(value) if isinstance(value, bool) else value for value in params)


OPEN = (pq.TransactionStatus.INTRANS, pq.TransactionStatus.INERROR, pq.TransactionStatus.ACTIVE)


class Connection:
    """One PostgreSQL session with the part of sqlite3.Connection's interface the stores use."""

    dialect = DIALECT

    def __init__(self, raw: psycopg.Connection, release=None):
        self.raw, self.release = raw, release
        self.total_changes = 0
        self.writes_committed = 0  # units of work committed (models/storage/connection.py `immediate`)

    def execute(self, sql: str, params: Iterable[Any] = ()) -> psycopg.Cursor:
        cursor = self.raw.cursor()
        params = bound(params)
        cursor.execute(placeholders(sql) if params else sql, params or None)
        if cursor.rowcount > 0 and cursor.description is None:
            self.total_changes += cursor.rowcount
        return cursor

    @property
    def in_transaction(self) -> bool:
        """A transaction is open (a session that was cut has none: UNKNOWN)."""
        return self.raw.info.transaction_status in OPEN

    @property
    def cut(self) -> bool:
        """The session is gone (the server restarted or dropped it): nothing more can be asked of it."""
        return self.raw.closed or self.raw.broken

    def close(self) -> None:
        """Back to the pool it came from, or closed; never raises. The pool rolls back a transaction left
        open, and drops a session that was cut and opens another in its place: a restart of the server
        costs no slot of the pool, however often it comes."""
        release, self.release = self.release, None
        if release is not None:
            release(self.raw)
            return
        if not self.cut and self.in_transaction:
            try:
                self.raw.rollback()
            except psycopg.Error:
                pass  # cut meanwhile: closing it is all that is left
        self.raw.close()


def connection_options() -> dict:
    return {"autocommit": True, "cursor_factory": psycopg.ClientCursor, "row_factory": dict_row}


def connect(url: str) -> Connection:
    """A session of its own (the start, the command line); a request's comes from the pool."""
    try:
        raw = psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, **connection_options())
    except psycopg.Error as error:
        raise DatabaseRefused(shown(url), f"the PostgreSQL server does not answer ({first_line(error)})") from None
    return Connection(raw)


def first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


class Pool:
    """The app's PostgreSQL sessions (psycopg_pool), lent to one request at a time."""

    def __init__(self, url: str, max_size: int):
        from psycopg_pool import ConnectionPool

        self.url = url
        self.pool = ConnectionPool(url, min_size=1, max_size=max_size, timeout=LEND_TIMEOUT_S, open=False,
                                   kwargs={"connect_timeout": CONNECT_TIMEOUT_S, **connection_options()},
                                   check=ConnectionPool.check_connection)

    def open(self) -> None:
        self.pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)

    def lend(self) -> Connection:
        """A session checked on the way out (one that the server dropped is replaced); DatabaseUnreachable
        if none can be had, so the page says the database is away (503) and nothing is written."""
        from psycopg_pool import PoolTimeout

        try:
            return Connection(self.pool.getconn(), release=self.pool.putconn)
        except (PoolTimeout, psycopg.OperationalError) as error:
            raise DatabaseUnreachable(shown(self.url), first_line(error)) from None

    def close(self) -> None:
        self.pool.close()


# The database's identity, as columns any SELECT may add (views/live/quiet_polls.py reads them beside its row).
# The cluster is named by its system identifier (initdb's, kept by a physical copy) and its timeline (a
# recovery to a point in time or a promoted standby starts a new one): a crash restart changes neither. The
# timeline is the one WAL is written on now; a server in recovery has only its last checkpoint's.
IDENTITY_COLUMNS = ("(SELECT d.oid FROM pg_database d WHERE d.datname = current_database()) AS identity_database,"
                    " to_regclass('match')::oid AS identity_ledger,"
                    " (SELECT system_identifier FROM pg_control_system()) AS identity_cluster,"
                    " CASE WHEN pg_is_in_recovery() THEN (SELECT timeline_id FROM pg_control_checkpoint())::bigint"
                    " ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint"
                    " END AS identity_timeline")
IDENTITY = f"SELECT {IDENTITY_COLUMNS}"


def identity(conn: Connection) -> tuple:
    """What changes when the database under the address is another one: a restore (new tables), another
    database or cluster, a cluster recovered to a point in time (a new timeline); never a restart."""
    return identity_in(conn.execute(IDENTITY).fetchone())


def identity_in(row) -> tuple:
    """The identity read from a row that holds IDENTITY_COLUMNS."""
    return (row["identity_database"], row["identity_ledger"], row["identity_cluster"], row["identity_timeline"])


def schema_version(conn: Connection) -> int:
    """How many migrations the database has had (0 for an empty one)."""
    if conn.execute("SELECT to_regclass('schema_version') AS found").fetchone()["found"] is None:
        return 0
    row = conn.execute("SELECT version FROM schema_version WHERE id = 1").fetchone()
    return row["version"] if row else 0


def set_schema_version(conn: Connection, number: int) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version (id, version) VALUES (1, ?)"
                 " ON CONFLICT (id) DO UPDATE SET version = excluded.version", (number,))
