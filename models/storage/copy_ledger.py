"""A whole ledger copied from one database into another, empty one (`flask copy-db`): SQLite to
PostgreSQL and back, or SQLite to SQLite, ids kept.

What is copied: every table (its key, name, passphrase hash, which one is home), player, preset,
match, hand (deleted ones too), board of a deal of partners and hand history row, in the columns both schemas have. What is not:
logins, login failures, passphrase generations and table starts (who is let in now, and the
throttle's counts), the epoch and the engine fingerprint: those belong to the destination.

What must stay true: the source is read in one snapshot and the destination written in one unit of
work, so the copy is the source at one moment, all of it or nothing; a destination that holds
anything a copy would clash with is refused inside that unit of work, before any write; and after
a copy onto PostgreSQL every identity sequence stands at its table's largest id, so the next row
the app inserts gets a new one.
"""
from __future__ import annotations

import os
import sqlite3
from urllib.parse import quote

from . import postgres, schema
from .address import POSTGRESQL, dialect_of, read_address
from .connection import snapshot
from models.errors import DestinationNotEmpty
from .work import unit_of_work

# In foreign-key order: a row's parents are inserted before it.
COPIED = ("play_table", "player", "preset", "match", "hand", "board", "hand_event")
KEYED = {"board": "hand_id, board"}  # the tables without an id: their key, to read them in order
# What makes a destination not empty: any row of these, or any table besides its home table.
HELD = ("player", "preset", "match", "hand")
BESIDES_HOME = "play_table"
# Bound values per INSERT: under every SQLite's limit (999 before 3.32).
MOST_VALUES = 900


def copy_ledger(source, dest) -> dict[str, int]:
    """Copy every row a ledger keeps from `source` into `dest` (both at the current schema);
    returns how many rows of each table were copied (table name -> count, in COPIED order).

    DestinationNotEmpty, with nothing written, if `dest` holds anything but its home table."""
    with snapshot(source), unit_of_work(dest) as work:
        found = held(dest)
        if found:
            raise DestinationNotEmpty(found)
        # The destination's own home table (the migration made it) gives way to the source's tables.
        dest.execute("DELETE FROM play_table")
        counts = {table: copy_rows(source, dest, table) for table in COPIED}
        if dialect_of(dest) == POSTGRESQL:
            follow_sequences(dest, counts)
        # Folded again as copied: the `finished` index is this engine's, and a match that did not
        # fold in the source is copied as it was entered, not refused.
        for row in dest.execute("SELECT id FROM match ORDER BY id").fetchall():
            work.touched(row["id"], refold=True, broken_before=True)
    return counts


def held(conn) -> dict[str, int]:
    """What a database at the current schema holds that a copy would clash with (table -> rows)."""
    found = {table: conn.execute(f"SELECT COUNT(*) AS count FROM {table}").fetchone()["count"]  # nosec B608 - names above
             for table in HELD}
    found[BESIDES_HOME] = conn.execute("SELECT COUNT(*) AS count FROM play_table WHERE home <> 1").fetchone()["count"]
    return {table: count for table, count in found.items() if count}


def peek(database: str) -> tuple[int, dict[str, int] | None]:
    """The schema version of the database the setting names (0: no ledger there) and, at the current
    schema, its `held`; read without writing anything to it (no new file, no migration, no new epoch)."""
    address = read_address(database)
    if address.engine == POSTGRESQL:
        conn = postgres.connect(address.target)
        try:
            version = postgres.schema_version(conn)
            if version != schema.known_version():
                return version, None
            with snapshot(conn):
                return version, held(conn)
        finally:
            conn.close()
    if not os.path.exists(address.target):
        return 0, None
    # Read-only, but through the -wal: what a running app committed may not be in the main file yet.
    conn = sqlite3.connect(f"file:{quote(os.path.abspath(address.target))}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("BEGIN")
        version = conn.execute("PRAGMA user_version").fetchone()["user_version"]
        return version, (held(conn) if version == schema.known_version() else None)
    finally:
        conn.close()


def columns_of(conn, table: str) -> list[str]:
    if dialect_of(conn) == POSTGRESQL:
        rows = conn.execute("SELECT column_name FROM information_schema.columns"
                            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
                            (table,)).fetchall()
        return [row["column_name"] for row in rows]
    return [row["name"] for row in conn.execute(f'PRAGMA table_info("{table}")')]


def copy_rows(source, dest, table: str) -> int:
    """Every row of `table`, by id, in the columns both databases have; returns how many."""
    theirs = set(columns_of(source, table))
    columns = [column for column in columns_of(dest, table) if column in theirs]
    names = ", ".join(f'"{column}"' for column in columns)
    # Ordered by id: a match's rematch_of names an earlier match, so its parent is in before it.
    order = KEYED.get(table, "id")
    rows = source.execute(f'SELECT {names} FROM "{table}" ORDER BY {order}')  # nosec B608 - the schemas' own names
    per_statement = max(1, MOST_VALUES // len(columns))
    one = "(" + ", ".join("?" * len(columns)) + ")"
    count = 0
    while True:
        chunk = rows.fetchmany(per_statement)
        if not chunk:
            return count
        values = [row[column] for row in chunk for column in columns]
        dest.execute(f'INSERT INTO "{table}" ({names}) VALUES ' + ", ".join([one] * len(chunk)), values)  # nosec B608
        count += len(chunk)


def follow_sequences(dest, counts: dict[str, int]) -> None:
    """PostgreSQL: each identity sequence moved to its table's largest id, past the ids inserted as given."""
    for table, count in counts.items():
        if count and table not in KEYED:
            dest.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), MAX(id)) FROM \"{table}\"")  # nosec B608
