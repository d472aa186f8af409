"""The unit of work: the one way anything that a match shows is written.

`with unit_of_work(conn) as work:` takes the write lock (connection.begin_write: SQLite's BEGIN
IMMEDIATE; on PostgreSQL the schema's advisory lock, or, for `unit_of_work(conn, match_id)`, its
shared form and that match's row), so what the use case reads is still true when it commits. The use case says which matches it touched
(`work.touched(match_id)`); before the commit, in the same transaction, each touched match's
version is bumped once and, unless the write cannot change its fold (a name, a mark), the match
is folded again from its rows: its `finished` index is set from that fold, and a match that folded
before the write and would not fold after it is refused, so nothing is committed. A cache is never
read here: what a write needs of the match it reads from the rows it holds locked.

What must stay true: every INSERT, UPDATE or DELETE of `match`, `hand`, `hand_event`, `player`
and `preset` runs inside a unit of work (tests/test_house.py traces every write path for it), and
every write a page could show touches its matches, so a page kept by (epoch, match, version) is
never stale.
"""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field

from .connection import immediate, now
from .match_rows import stored_in_work
from models.errors import CommitUnknown, MatchError
from models.game.ledger import Sheet, score_sheet
from .notifier import announce


@dataclass
class Work:
    conn: sqlite3.Connection
    # match id -> whether its fold must be checked again before the commit
    matches: dict[int, bool] = field(default_factory=dict)
    # match id -> its fold as committed (None: it no longer folds, and was let be so)
    sheets: dict[int, Sheet | None] = field(default_factory=dict)
    # matches that did not fold before the write: a repair (an edit, a delete) may leave them so
    broken: set[int] = field(default_factory=set)
    # match id -> whether it was finished when first touched (a write that reopens it changes the ratings too)
    rated_before: dict[int, bool] = field(default_factory=dict)
    closed: bool = False
    only: int | None = None  # the one match this work holds locked, if it was opened for one
    submission: str | None = None  # the write's one-time key, once the use case has read it (CommitUnknown)

    def touched(self, match_id: int, refold: bool = True, broken_before: bool = False) -> None:
        """The write changed what match `match_id` shows; `refold`: it changed its hands or rules."""
        if self.closed:
            raise RuntimeError("a closed unit of work takes no more writes")
        if self.only is not None and match_id != self.only:
            raise RuntimeError(f"a unit of work for match {self.only} wrote match {match_id}, which it does not hold")
        if match_id not in self.matches:  # first touch: whether it counted for the ratings before this write
            row = self.conn.execute("SELECT finished IS NOT NULL AS rated FROM match WHERE id = ?",
                                    (match_id,)).fetchone()
            self.rated_before[match_id] = bool(row and row["rated"])
        self.matches[match_id] = self.matches.get(match_id, False) or refold
        if broken_before:
            self.broken.add(match_id)

    def fold(self, match_id: int) -> Sheet | None:
        """The match as its rows now are, folded; a MatchError if it does not fold (unless it did not before)."""
        stored = stored_in_work(self.conn, match_id)
        try:
            sheet = score_sheet(stored.match)
        except MatchError:
            if match_id not in self.broken:
                raise
            # A match that still does not fold keeps its index, as refresh_finished leaves it.
            self.sheets[match_id] = None
            self.matches[match_id] = False
            return None
        self.set_finished(match_id, sheet)
        self.matches[match_id] = False
        return sheet

    def folded(self, match_id: int, sheet: Sheet) -> None:
        """The write already knows the fold of the rows it leaves (a saved hand steps the locked rows' fold)."""
        self.touched(match_id, refold=False)
        self.set_finished(match_id, sheet)

    def set_finished(self, match_id: int, sheet: Sheet | None) -> None:
        self.conn.execute(
            "UPDATE match SET finished = CASE WHEN ? = 1 THEN COALESCE(finished, ?) ELSE NULL END WHERE id = ?",
            (bool(sheet and sheet.finished), now(), match_id))
        self.sheets[match_id] = sheet

    def close(self) -> None:
        """Fold what must be folded again and bump every touched match's version, once, before the commit;
        a use case that answers with the match as it leaves it closes the work itself, then reads it."""
        if self.closed:
            return
        for match_id in sorted(self.matches):
            if self.matches[match_id]:
                self.fold(match_id)
            self.conn.execute("UPDATE match SET version = version + 1 WHERE id = ?", (match_id,))
            # Must stay true: a write that can change a table's ratings bumps its club book, in this transaction.
            self.conn.execute("UPDATE play_table SET book = book + 1 WHERE id = (SELECT table_id FROM match"
                              " WHERE id = ? AND (finished IS NOT NULL OR ? = 1))",
                              (match_id, int(self.rated_before.get(match_id, True))))
            announce(self.conn, match_id)
        self.closed = True


@contextmanager
def unit_of_work(conn: sqlite3.Connection, match_id: int | None = None):
    """One use case's write: everything or nothing, and every touched match's version bumped with it.

    `match_id`: the use case writes that match's hands and nothing else (it may touch no other match),
    so on PostgreSQL it waits only for writes of the same match (connection.begin_write). A use case
    that has a one-time key sets `work.submission`: a CommitUnknown carries it, so the answer can find
    out whether the write was kept."""
    work = None
    try:
        with immediate(conn, match_id):
            work = Work(conn, only=match_id)
            yield work
            work.close()
    except CommitUnknown as unknown:
        unknown.submission = work.submission if work is not None else None
        raise
