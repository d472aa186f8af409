"""One SQLite connection per request, kept on `g` (as in the Flask tutorial)."""
from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g

from models import caches, storage
from models.match_cache import MatchCache


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = storage.connect(current_app.config["DATABASE"], create=False)  # raises DatabaseGone
    return g.db


def match_cache() -> MatchCache:
    """The app's own cache of folded matches (app.init_caches), for the pages that list many."""
    return current_app.extensions[caches.EXTENSION].matches


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
