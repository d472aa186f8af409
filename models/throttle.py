"""Rate limiting of passphrase attempts, per network address, kept in SQLite."""
from __future__ import annotations

import sqlite3
import time

from .storage import immediate

WINDOW_SECONDS = 15 * 60
ALLOWED_FAILURES = 10


def blocked(conn: sqlite3.Connection, address: str, now: float | None = None) -> bool:
    now = time.time() if now is None else now
    count = conn.execute(
        "SELECT COUNT(*) FROM login_failure WHERE address = ? AND at > ?", (address, now - WINDOW_SECONDS)
    ).fetchone()[0]
    return count >= ALLOWED_FAILURES


def record_failure(conn: sqlite3.Connection, address: str, now: float | None = None) -> None:
    now = time.time() if now is None else now
    with immediate(conn):
        conn.execute("DELETE FROM login_failure WHERE at <= ?", (now - WINDOW_SECONDS,))
        conn.execute("INSERT INTO login_failure (address, at) VALUES (?, ?)", (address, now))


def forget(conn: sqlite3.Connection, address: str) -> None:
    with immediate(conn):
        conn.execute("DELETE FROM login_failure WHERE address = ?", (address,))
