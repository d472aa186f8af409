"""Tables: the group that plays together, found by its key (its address is the secret), and the
rule presets each table saves for itself."""
from __future__ import annotations

import json
import secrets
import sqlite3
from dataclasses import dataclass

from .connection import immediate, now
from models.errors import NoSuchTable
from models.game.rules import Rules, rules_from


@dataclass(frozen=True)
class Table:
    """The group that plays together; its key is its address (/t/<key>/) and the only way in."""

    id: int
    key: str
    name: str
    passphrase_hash: str | None
    home: bool


def table_from(row: sqlite3.Row) -> Table:
    return Table(row["id"], row["key"], row["name"], row["passphrase_hash"], bool(row["home"]))


def new_table_key() -> str:
    """192 random bits, URL-safe: the address is the secret, so it must not be guessed."""
    return secrets.token_urlsafe(24)


def create_table(conn: sqlite3.Connection, name: str) -> Table:
    with immediate(conn):  # a new table holds no match: no page of a match changes
        key = new_table_key()
        table_id = conn.execute("INSERT INTO play_table (key, name, created) VALUES (?, ?, ?) RETURNING id",
                                (key, name, now())).fetchone()["id"]
    return Table(table_id, key, name, None, False)


def table_by_key(conn: sqlite3.Connection, key: str) -> Table:
    row = conn.execute("SELECT * FROM play_table WHERE key = ?", (key,)).fetchone()
    if row is None:
        raise NoSuchTable("table")  # the key itself is a secret: it goes into no message
    return table_from(row)


def table_of_view_token(conn: sqlite3.Connection, token: str) -> Table:
    """The table of the match a spectator's link names: the link carries no table key."""
    row = conn.execute("SELECT t.* FROM play_table t JOIN match m ON m.table_id = t.id"
                       " WHERE m.view_token = ? AND m.deleted IS NULL", (token,)).fetchone()
    if row is None:
        raise NoSuchTable("view token")
    return table_from(row)


def tables_by_keys(conn: sqlite3.Connection, keys: list[str]) -> list[Table]:
    """The tables a browser remembers, in its order; keys no longer kept here drop out."""
    if not keys:  # PostgreSQL refuses an empty IN ()
        return []
    marks = ",".join("?" * len(keys))  # only "?" placeholders are formatted in; the keys are bound parameters
    rows = conn.execute(f"SELECT * FROM play_table WHERE key IN ({marks})", keys)  # nosec B608
    found = {table.key: table for table in map(table_from, rows)}
    return [found[key] for key in keys if key in found]


def home_table(conn: sqlite3.Connection) -> Table:
    """The one table of a home server (made by the migration for every file)."""
    return table_from(conn.execute("SELECT * FROM play_table WHERE home = 1").fetchone())


def set_table_passphrase(conn: sqlite3.Connection, passphrase_hash: str | None, *, table: int) -> None:
    with immediate(conn):  # who may come in: no match shows it
        conn.execute("UPDATE play_table SET passphrase_hash = ? WHERE id = ?", (passphrase_hash, table))


# ---- a table's own rule presets ------------------------------------------------

def saved_presets(conn: sqlite3.Connection, *, table: int) -> dict[str, Rules]:
    rows = conn.execute("SELECT name, rules FROM preset WHERE table_id = ? ORDER BY name", (table,)).fetchall()
    return {row["name"]: rules_from(json.loads(row["rules"])) for row in rows}


def keep_preset(conn: sqlite3.Connection, name: str, rules: Rules, *, table: int) -> None:
    """The preset's row, inside the caller's unit of work."""
    conn.execute(
        """INSERT INTO preset (table_id, name, rules, created) VALUES (?, ?, ?, ?)
           ON CONFLICT(table_id, name) DO UPDATE SET rules = excluded.rules""",
        (table, name, json.dumps(rules.to_dict()), now()),
    )
