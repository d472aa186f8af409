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
    """Create or upgrade the database file when the app starts: no separate init step.

    The connection that migrated stays open for the life of the app: while one
    connection is open, closing a request's connection does not checkpoint the
    WAL and delete it, only for the next request to create it again.
    """
    keeper = storage.open_ledger(app.config["DATABASE"])  # raises SchemaTooNew: `flask run` stops there
    app.extensions["gin_ledger_keeper"] = keeper
    app.teardown_appcontext(close_db)
