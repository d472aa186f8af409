"""A match as kept, read from its rows: the match row and its hands in their places, as a StoredMatch.

The unit of work (models/storage/work.py) folds a match from these rows before its commit; the lists
and the writes about a whole match build on them (models/storage/matches.py).
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from models.errors import MatchError, NoSuchMatch
from models.game.ledger import Sheet, score_sheet
from models.game.match import Match
from models.game.rules import rules_from
from models.game.stakes import Stake
from models.game.tables.seats import seat

from .hand_rows import board_rows, entry_from_row


@dataclass(frozen=True)
class StoredMatch:
    """A match as kept: the domain Match plus what only storage knows."""

    id: int
    match: Match
    created: str
    finished: str | None
    version: int
    view_token: str
    stake: Stake | None = None
    name: str | None = None  # what the players called it ("Friday at Eva's"), if anything
    abandoned: str | None = None  # when the players set it aside; it leaves the home lists
    rematch_of: int | None = None  # the match this one is the rematch of
    rematch: int | None = None  # the rematch of this one (not deleted), once someone tapped Rematch
    rematch_created: str | None = None  # when that rematch was started
    rematch_of_created: str | None = None  # when the match this one follows was started
    epoch: str = ""  # the file's epoch when it was read: with `version`, the key of all that is kept
    number: int = 0  # its number at its table (1, 2, 3 ...): what a hosted server shows instead of the id

    def sheet(self) -> Sheet:
        """The fold; a match that no longer folds (a file from elsewhere, an engine that changed) raises its refusal."""
        sheet, refusal = self._fold
        if refusal is not None:
            raise refusal
        return sheet

    @property
    def refusal(self) -> MatchError | None:
        """Why the stored hands do not fold (the error names its hand), or None."""
        return self._fold[1]

    @property
    def sides(self) -> tuple[str, str]:
        """Whom its games are between: the two players, or a table of three or four's two sides' names."""
        sides = seat(self.match.table, self.match.players)
        return self.match.players if sides is None else sides.names

    @property
    def key(self) -> tuple:
        """What every kept drawing of this match is keyed by (views/site/pages.py adds the request's part)."""
        return (self.epoch, self.id, self.version)

    @cached_property
    def _fold(self) -> tuple[Sheet | None, MatchError | None]:
        # Folded once per object; a StoredMatch in the app's match cache is folded before it is shared.
        try:
            return score_sheet(self.match), None
        except MatchError as error:
            return None, error


MATCH_QUERY = """
    SELECT m.*, p1.name AS name1, p2.name AS name2, p3.name AS name3, p4.name AS name4, (SELECT value FROM epoch WHERE id = 1) AS epoch,
           (SELECT r.id FROM match r WHERE r.rematch_of = m.id AND r.deleted IS NULL) AS rematch,
           (SELECT r.created FROM match r WHERE r.rematch_of = m.id AND r.deleted IS NULL) AS rematch_created,
           (SELECT o.created FROM match o WHERE o.id = m.rematch_of) AS rematch_of_created
    FROM match m JOIN player p1 ON p1.id = m.player1_id JOIN player p2 ON p2.id = m.player2_id
         LEFT JOIN player p3 ON p3.id = m.player3_id LEFT JOIN player p4 ON p4.id = m.player4_id
"""


def seated(row: sqlite3.Row) -> tuple[str, ...]:
    """The players in seat order: two, or a table of three or four's (seats 3 and 4 are NULL at two)."""
    return tuple(name for name in (row["name1"], row["name2"], row["name3"], row["name4"]) if name is not None)


def stored_match(row: sqlite3.Row, hand_rows: list[sqlite3.Row], boards: dict | None = None) -> StoredMatch:
    """`boards`: the board rows of its deals of partners (`hand_rows.board_rows`); none at a table of two."""
    players = seated(row)
    first = row["first_seat"] if row["first_seat"] is not None else row["first_dealer"]
    match = Match(
        players=players,
        format=row["format"],
        first_dealer=players[first],
        rules=rules_from(json.loads(row["rules"])),
        hands=tuple(entry_from_row(hand, players, boards or {}) for hand in hand_rows),
    )
    stake = Stake(Decimal(row["stake"]), row["currency"] or "") if row["stake"] else None
    return StoredMatch(row["id"], match, row["created"], row["finished"], row["version"], row["view_token"], stake,
                       name=row["name"], abandoned=row["abandoned"], rematch_of=row["rematch_of"],
                       rematch=row["rematch"], rematch_created=row["rematch_created"],
                       rematch_of_created=row["rematch_of_created"], epoch=row["epoch"],
                       number=row["number"])


def live_hand_rows(conn: sqlite3.Connection, match_id: int) -> list[sqlite3.Row]:
    """The hands the sheet shows, in their places: the i-th row is hand i."""
    return conn.execute(
        "SELECT * FROM hand WHERE match_id = ? AND deleted IS NULL ORDER BY position", (match_id,)
    ).fetchall()


def read_stored(conn: sqlite3.Connection, row: sqlite3.Row) -> tuple[StoredMatch, list[sqlite3.Row]]:
    """The match of `row` with its live hands (and their boards) read from its rows, and those hand rows."""
    rows = live_hand_rows(conn, row["id"])
    return stored_match(row, rows, board_rows(conn, rows)), rows


def match_row(conn: sqlite3.Connection, match_id: int, *, table: int) -> sqlite3.Row:
    row = conn.execute(MATCH_QUERY + " WHERE m.id = ? AND m.table_id = ? AND m.deleted IS NULL",
                       (match_id, table)).fetchone()
    if row is None:
        raise NoSuchMatch(match_id)
    return row


def stored_in_work(conn: sqlite3.Connection, match_id: int) -> StoredMatch:
    """A match as its rows are inside a unit of work, deleted or not, of whichever table."""
    row = conn.execute(MATCH_QUERY + " WHERE m.id = ?", (match_id,)).fetchone()
    if row is None:
        raise NoSuchMatch(match_id)
    return read_stored(conn, row)[0]
