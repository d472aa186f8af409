"""Hands as rows: a Hand kept by seats, its one-time submission key, and its place in the match.

Every hand of a match, deleted or not, has a place (`hand.position`) in one order, and the sheet's
hand N is the N-th hand not deleted. A delete only marks the row, so the deleted hand keeps its
place between the deals it was played among; an insert takes a free place just before the hand it
goes before and moves no other hand past another. A restore is then only the mark taken away:
the deal comes back where it was played.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from types import MappingProxyType

from .connection import now
from models.game.hand import Hand
from models.game.tables.deal import Deal, Entry

HAND_COLUMNS = ("kind", "knocker", "knocker_deadwood", "opponent_deadwood",
                "big_gin", "upcard", "winner", "points", "cards")
PLACE_STEP = 1024  # room between the places of hands entered in a row, so an insert rarely moves a place
SHIFT = 1 << 40  # above every place; places move through it, as UNIQUE is checked per row


BOARDS_KIND = "boards"  # a hand row that is a deal of partners: what was entered is in its `board` rows


def seat(players: tuple[str, ...], name: str | None) -> int | None:
    return None if name is None else players.index(name)


def hand_row(hand: Hand, players: tuple[str, ...]) -> tuple:
    """Players are kept as seats (0 and 1; 0 to 3 at a table of three or four), so renaming a player
    changes no hand."""
    return (
        hand.kind,
        seat(players, hand.knocker),
        hand.knocker_deadwood,
        hand.opponent_deadwood,
        None if hand.big_gin is None else int(hand.big_gin),
        hand.upcard,
        seat(players, hand.winner),
        hand.points,
        None if hand.cards is None else json.dumps({side: list(codes) for side, codes in hand.cards.items()}),
    )


def entry_row(entry: Entry, players: tuple[str, ...]) -> tuple:
    """A deal of partners is a row of kind `boards` with nothing else: its boards are rows of their own."""
    if isinstance(entry, Deal):
        return (BOARDS_KIND,) + (None,) * (len(HAND_COLUMNS) - 1)
    return hand_row(entry, players)


def entry_from_row(row: sqlite3.Row, players: tuple[str, ...], boards: dict) -> Entry:
    """The hand (or deal) a row holds; `boards`: hand id -> that deal's board rows in board order."""
    if row["kind"] == BOARDS_KIND:
        return Deal(tuple(hand_from_row(board, players) for board in boards[row["id"]]))
    return hand_from_row(row, players)


def board_rows(conn: sqlite3.Connection, rows) -> dict[int, list]:
    """The board rows of the deals of partners among `rows` (no query at all for a match without one)."""
    ids = [row["id"] for row in rows if row["kind"] == BOARDS_KIND]
    found: dict[int, list] = {hand_id: [] for hand_id in ids}
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        # Only "?" placeholders are formatted in; the ids are bound parameters.
        for board in conn.execute(f"SELECT * FROM board WHERE hand_id IN ({','.join('?' * len(chunk))})"  # nosec B608
                                  f" ORDER BY hand_id, board", chunk):
            found[board["hand_id"]].append(board)
    return found


def write_boards(conn: sqlite3.Connection, hand_id: int, entry: Entry, players: tuple[str, ...]) -> None:
    """The deal's boards as its rows, replacing any it had (an edit may turn a deal into a typed one)."""
    conn.execute("DELETE FROM board WHERE hand_id = ?", (hand_id,))
    if isinstance(entry, Deal):
        for number, board in enumerate(entry.boards, start=1):
            conn.execute(
                f"INSERT INTO board (hand_id, board, {', '.join(HAND_COLUMNS)})"  # nosec B608 - constant names
                f" VALUES (?, ?, {', '.join('?' * len(HAND_COLUMNS))})",
                (hand_id, number, *hand_row(board, players)))


def hand_from_row(row: sqlite3.Row, players: tuple[str, ...]) -> Hand:
    return Hand(
        kind=row["kind"],
        knocker=None if row["knocker"] is None else players[row["knocker"]],
        knocker_deadwood=row["knocker_deadwood"],
        opponent_deadwood=row["opponent_deadwood"],
        big_gin=None if row["big_gin"] is None else bool(row["big_gin"]),
        upcard=row["upcard"],
        winner=None if row["winner"] is None else players[row["winner"]],
        points=row["points"],
        cards=None if row["cards"] is None else frozen_cards(json.loads(row["cards"])),
    )


def frozen_cards(cards: dict) -> MappingProxyType:
    """A stored hand ends up in the app's match cache, shared by requests: nothing in it may change."""
    return MappingProxyType({side: tuple(codes) for side, codes in cards.items()})


def submission_key(form_id: str | None, hand: Hand) -> str | None:
    """The one-time form id joined with what was entered.

    A double tap or a retried POST repeats both and is stored once; a page
    reused to enter a different hand is a new hand and is kept.
    """
    if not form_id:
        return None
    digest = hashlib.sha256(json.dumps(hand.to_dict(), sort_keys=True).encode()).hexdigest()[:16]
    return f"{form_id}:{digest}"


def insert_hand(conn: sqlite3.Connection, match_id: int, position: int, hand: Entry,
                players: tuple[str, ...], submission: str | None = None) -> int:
    """The new row's id, which the hand's history names for good (a deleted hand keeps its row); a deal
    of partners is written with its boards, in the caller's one unit of work."""
    hand_id = conn.execute(
        # The column names are the constant HAND_COLUMNS; every value is a bound parameter.
        f"INSERT INTO hand (match_id, position, {', '.join(HAND_COLUMNS)}, submission, created)"  # nosec B608
        f" VALUES (?, ?, {', '.join('?' * len(HAND_COLUMNS))}, ?, ?) RETURNING id",
        (match_id, position, *entry_row(hand, players), submission, now()),
    ).fetchone()["id"]
    if isinstance(hand, Deal):
        write_boards(conn, hand_id, hand, players)
    return hand_id


def update_hand(conn: sqlite3.Connection, hand_id: int, hand: Entry, players: tuple[str, ...]) -> None:
    conn.execute(
        f"UPDATE hand SET {', '.join(c + ' = ?' for c in HAND_COLUMNS)} WHERE id = ?",  # nosec B608 - constant names
        (*entry_row(hand, players), hand_id),
    )
    write_boards(conn, hand_id, hand, players)


# ---- places ------------------------------------------------------------------------

def place_after_all(conn: sqlite3.Connection, match_id: int) -> int:
    """The place of a new last hand: after every hand, deleted ones too (they were played before it)."""
    last = conn.execute("SELECT MAX(position) AS last FROM hand WHERE match_id = ?", (match_id,)).fetchone()["last"]
    return (last or 0) + PLACE_STEP


def place_before(conn: sqlite3.Connection, match_id: int, position: int) -> int:
    """A free place just before `position` (and after every hand before it); the caller holds a unit of work.

    When no place is left between the two, every hand from `position` on moves on by PLACE_STEP
    together, so none passes another."""
    before = conn.execute("SELECT MAX(position) AS before FROM hand WHERE match_id = ? AND position < ?",
                          (match_id, position)).fetchone()["before"] or 0
    if position - before < 2:
        conn.execute("UPDATE hand SET position = position + ? WHERE match_id = ? AND position >= ?",
                     (SHIFT + PLACE_STEP, match_id, position))
        conn.execute("UPDATE hand SET position = position - ? WHERE match_id = ? AND position > ?",
                     (SHIFT, match_id, SHIFT))
        position += PLACE_STEP
    return (before + position) // 2


def number_at(conn: sqlite3.Connection, match_id: int, position: int) -> int:
    """The sheet's number of a hand not deleted at `position`: one more than the live hands before it."""
    return 1 + conn.execute("SELECT COUNT(*) AS count FROM hand"
                            " WHERE match_id = ? AND deleted IS NULL AND position < ?",
                            (match_id, position)).fetchone()["count"]
