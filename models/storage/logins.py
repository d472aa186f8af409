"""Logins kept in SQLite, so that one can end: Flask's session cookie lives in the browser,
and a copy of it would otherwise stay good for as long as it is signed.

The cookie carries a random id; the row stores only its SHA-256 (a copy of the
database opens no door), the scope of the passphrase that let it in and a keyed
digest of that passphrase. Which passphrase a scope has, and the digest, are
the web layer's business (views/tables/access.py); this module only keeps the rows.
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
    generation: int = 0


def row_key(login_id: str) -> str:
    """What the table stores for an id: enough to find it, not enough to forge the cookie."""
    return hashlib.sha256(login_id.encode()).hexdigest()


def create(conn: sqlite3.Connection, scope: str, digest: str, lifetime: float, now: float | None = None) -> str:
    """A new login's id, of the passphrase's generation now; logins older than `lifetime` are dropped on
    the way, so the table stays small."""
    now = time.time() if now is None else now
    login_id = secrets.token_urlsafe(ID_BYTES)
    current = generation(conn, scope, digest)
    with immediate(conn):
        conn.execute("DELETE FROM login WHERE made_at <= ?", (now - lifetime,))
        conn.execute("INSERT INTO login (id, scope, digest, made_at, generation) VALUES (?, ?, ?, ?, ?)",
                     (row_key(login_id), scope, digest, now, current))
    return login_id


def generation(conn: sqlite3.Connection, scope: str, digest: str) -> int:
    """The generation of the scope's passphrase whose digest is `digest`: another digest than the one
    last seen starts a new generation, so a passphrase changed and changed back is a third one, and
    the logins of the first stay shut out (a login counts only with its own generation)."""
    row = conn.execute("SELECT digest, generation FROM passphrase_generation WHERE scope = ?", (scope,)).fetchone()
    if row is not None and row["digest"] == digest:
        return row["generation"]
    with immediate(conn):
        row = conn.execute("SELECT digest, generation FROM passphrase_generation WHERE scope = ?", (scope,)).fetchone()
        if row is None:
            conn.execute("INSERT INTO passphrase_generation (scope, digest, generation) VALUES (?, ?, 0)",
                         (scope, digest))
            return 0
        if row["digest"] == digest:
            return row["generation"]
        conn.execute("UPDATE passphrase_generation SET digest = ?, generation = generation + 1 WHERE scope = ?",
                     (digest, scope))
        return row["generation"] + 1


def find(conn: sqlite3.Connection, login_id: str, lifetime: float, now: float | None = None) -> Login | None:
    """The login if it is still there and younger than `lifetime`; None otherwise (one indexed SELECT)."""
    now = time.time() if now is None else now
    row = conn.execute("SELECT scope, digest, made_at, generation FROM login WHERE id = ? AND made_at > ?",
                       (row_key(login_id), now - lifetime)).fetchone()
    return Login(**row) if row else None


def end(conn: sqlite3.Connection, login_id: str) -> None:
    with immediate(conn):
        conn.execute("DELETE FROM login WHERE id = ?", (row_key(login_id),))
