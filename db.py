"""One SQLite connection per request, kept on `g` (as in the Flask tutorial)."""
from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g

from models import storage


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = storage.connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    """Create or upgrade the database file when the app starts: no separate init step."""
    conn = storage.connect(app.config["DATABASE"])
    try:
        storage.migrate(conn)
    finally:
        conn.close()
    app.teardown_appcontext(close_db)
