"""Rate limits kept in SQLite, so every worker sees them: passphrase tries per network address and
per scope (the server's passphrase, each table's), and new tables per address.

A try is counted before the passphrase is hashed: `reserve` checks the limit and, in the same
transaction (BEGIN IMMEDIATE), writes the try as a failure, so a burst of tries cannot all read "not
blocked" first, and a blocked try costs one indexed SELECT, not a password hash. `settle` then
forgives it if the passphrase was right, clearing that scope's failures from that address and no
other scope's: a right passphrase of one's own table never clears the count of another.
"""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from enum import Enum

from .connection import immediate

WINDOW_SECONDS = 15 * 60
ALLOWED_FAILURES = 10
TABLES_WINDOW_SECONDS = 60
ALLOWED_TABLES = 3  # new tables from one address a minute: a club starts a few, a script hundreds


class Attempt(Enum):
    PASSED = "passed"
    WRONG = "wrong"
    BLOCKED = "blocked"


PASSED, WRONG, BLOCKED = Attempt.PASSED, Attempt.WRONG, Attempt.BLOCKED


@dataclass(frozen=True)
class Reserved:
    """A try let through the limit and counted as a failure until `settle` says it was right."""

    address: str
    scope: str
    row: int | None  # None: blocked, nothing counted


def reserve(conn: sqlite3.Connection, address: str, scope: str, now: float | None = None) -> Reserved:
    now = time.time() if now is None else now
    with immediate(conn):
        if failures(conn, address, scope, now) >= ALLOWED_FAILURES:
            return Reserved(address, scope, None)
        conn.execute("DELETE FROM login_failure WHERE at <= ?", (now - WINDOW_SECONDS,))
        row = conn.execute("INSERT INTO login_failure (address, scope, at) VALUES (?, ?, ?) RETURNING id",
                           (address, scope, now)).fetchone()["id"]
    return Reserved(address, scope, row)


def settle(conn: sqlite3.Connection, reserved: Reserved, correct: bool) -> Attempt:
    """The reserved try, compared with the passphrase: a right one clears its own scope's failures."""
    if reserved.row is None:
        return BLOCKED
    if not correct:
        return WRONG
    with immediate(conn):
        conn.execute("DELETE FROM login_failure WHERE address = ? AND scope = ?", (reserved.address, reserved.scope))
    return PASSED


def attempt(conn: sqlite3.Connection, address: str, correct: bool, now: float | None = None,
            scope: str = "server") -> Attempt:
    """One try already compared with the passphrase (reserve and settle in one call)."""
    return settle(conn, reserve(conn, address, scope, now), correct)


def failures(conn: sqlite3.Connection, address: str, scope: str = "server", now: float | None = None) -> int:
    now = time.time() if now is None else now
    return conn.execute(
        "SELECT COUNT(*) AS count FROM login_failure WHERE address = ? AND scope = ? AND at > ?",
        (address, scope, now - WINDOW_SECONDS)).fetchone()["count"]


def may_start_table(conn: sqlite3.Connection, address: str, now: float | None = None,
                    allowed: int = ALLOWED_TABLES) -> bool:
    """Counts a new table for `address`, or False when it started `allowed` in the last minute."""
    now = time.time() if now is None else now
    with immediate(conn):
        started = conn.execute("SELECT COUNT(*) AS count FROM table_start WHERE address = ? AND at > ?",
                               (address, now - TABLES_WINDOW_SECONDS)).fetchone()["count"]
        if started >= allowed:
            return False
        conn.execute("DELETE FROM table_start WHERE at <= ?", (now - TABLES_WINDOW_SECONDS,))
        conn.execute("INSERT INTO table_start (address, at) VALUES (?, ?)", (address, now))
    return True
