"""Rate limiting of passphrase attempts, per network address, kept in SQLite.

The check and the record are one transaction (BEGIN IMMEDIATE): checked apart,
a burst of tries all read "not blocked" before any of them was written, and
40 tries at once were all checked. An address's own failures are the only
thing that can block it, so the right passphrase from a quiet address passes.
"""
from __future__ import annotations

import sqlite3
import time
from enum import Enum

from .connection import immediate

WINDOW_SECONDS = 15 * 60
ALLOWED_FAILURES = 10


class Attempt(Enum):
    PASSED = "passed"
    WRONG = "wrong"
    BLOCKED = "blocked"


PASSED, WRONG, BLOCKED = Attempt.PASSED, Attempt.WRONG, Attempt.BLOCKED


def attempt(conn: sqlite3.Connection, address: str, correct: bool, now: float | None = None) -> Attempt:
    """One try from `address`, already compared with the passphrase: counted, then recorded or forgiven."""
    now = time.time() if now is None else now
    with immediate(conn):
        if failures(conn, address, now) >= ALLOWED_FAILURES:
            return BLOCKED
        if correct:
            conn.execute("DELETE FROM login_failure WHERE address = ?", (address,))
            return PASSED
        conn.execute("DELETE FROM login_failure WHERE at <= ?", (now - WINDOW_SECONDS,))
        conn.execute("INSERT INTO login_failure (address, at) VALUES (?, ?)", (address, now))
        return WRONG


def failures(conn: sqlite3.Connection, address: str, now: float) -> int:
    return conn.execute(
        "SELECT COUNT(*) FROM login_failure WHERE address = ? AND at > ?", (address, now - WINDOW_SECONDS)
    ).fetchone()[0]
