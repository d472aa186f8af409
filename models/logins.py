"""Logins kept in SQLite, so that one can end: Flask's session cookie lives in the browser,
and a copy of it would otherwise stay good for as long as it is signed.

The cookie carries a random id; the row stores only its SHA-256 (a copy of the
database opens no door), the scope of the passphrase that let it in and a keyed
digest of that passphrase. Which passphrase a scope has, and the digest, are
the web layer's business (views/access.py); this module only keeps the rows.
"""
from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from dataclasses import dataclass

from .connection import immediate

ID_BYTES = 32


@dataclass(frozen=True)
class Login:
    scope: str
    digest: str
    made_at: float


def row_key(login_id: str) -> str:
    """What the table stores for an id: enough to find it, not enough to forge the cookie."""
    return hashlib.sha256(login_id.encode()).hexdigest()


def create(conn: sqlite3.Connection, scope: str, digest: str, lifetime: float, now: float | None = None) -> str:
    """A new login's id; logins older than `lifetime` are dropped on the way, so the table stays small."""
    now = time.time() if now is None else now
    login_id = secrets.token_urlsafe(ID_BYTES)
    with immediate(conn):
        conn.execute("DELETE FROM login WHERE made_at <= ?", (now - lifetime,))
        conn.execute("INSERT INTO login (id, scope, digest, made_at) VALUES (?, ?, ?, ?)",
                     (row_key(login_id), scope, digest, now))
    return login_id


def find(conn: sqlite3.Connection, login_id: str, lifetime: float, now: float | None = None) -> Login | None:
    """The login if it is still there and younger than `lifetime`; None otherwise (one indexed SELECT)."""
    now = time.time() if now is None else now
    row = conn.execute("SELECT scope, digest, made_at FROM login WHERE id = ? AND made_at > ?",
                       (row_key(login_id), now - lifetime)).fetchone()
    return Login(*row) if row else None


def end(conn: sqlite3.Connection, login_id: str) -> None:
    with immediate(conn):
        conn.execute("DELETE FROM login WHERE id = ?", (row_key(login_id),))
