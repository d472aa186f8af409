"""The `finished` index: the one computed thing in the file.

`match.finished` says when the fold said the match was over (NULL while it is being played). It is
an index, kept because the home page lists matches in progress and finished ones, newest finished
first, and folding every match on every visit to sort them would not scale. It cannot go stale:
the unit of work sets it from the fold of every match a write touched (models/storage/work.py), and the
engine that computed it is fingerprinted by its source; a start with any other engine recomputes
it for every match, while an ordinary start only compares one row.
"""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from models.errors import MatchError
from .matches import EVERY_TABLE, matches_where
from .work import unit_of_work

# What decides sheet.finished: the fold and what it calls (cards: an Oklahoma upcard's knock limit).
ENGINE_MODULES = ("dealer", "hand", "ledger", "match", "rules", "settle", "cards")
ENGINE_FILES = tuple(Path(__file__).parent.parent.joinpath("game", f"{name}.py") for name in ENGINE_MODULES)


def engine_fingerprint(files=ENGINE_FILES) -> str:
    """The source of the modules whose code decides `sheet.finished`: any edit to them rebuilds the index."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def refresh_finished(conn: sqlite3.Connection, fingerprint: str | None = None) -> int | None:
    """Rebuild the index if another engine computed it; returns how many matches it corrected (None: no rebuild)."""
    fingerprint = fingerprint or engine_fingerprint()
    with unit_of_work(conn) as work:
        row = conn.execute("SELECT fingerprint FROM engine WHERE id = 1").fetchone()
        if row is not None and row["fingerprint"] == fingerprint:
            return None
        corrected = 0
        for stored in matches_where(conn, "TRUE", (), "m.id", -1, table=EVERY_TABLE):
            try:
                over = stored.sheet().finished
            except MatchError:
                continue  # a match the engine now refuses keeps its index: its page says why
            if over != (stored.finished is not None):
                work.touched(stored.id, refold=False)  # first, so the work knows it was finished before
                conn.execute("UPDATE match SET finished = ? WHERE id = ?",
                             (finished_at(conn, stored.id) if over else None, stored.id))
                corrected += 1
        conn.execute("""INSERT INTO engine (id, fingerprint) VALUES (1, ?)
                        ON CONFLICT(id) DO UPDATE SET fingerprint = excluded.fingerprint""", (fingerprint,))
    return corrected


def finished_at(conn: sqlite3.Connection, match_id: int) -> str:
    """When the closing hand was stored: the last hand's time (or now, for a match imported whole)."""
    from .connection import now

    last = conn.execute("SELECT MAX(created) AS last FROM hand WHERE match_id = ? AND deleted IS NULL",
                        (match_id,)).fetchone()["last"]
    return last or now()
