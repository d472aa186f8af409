"""Nothing entered is ever lost: a forgotten hand put where it belongs, a deleted hand or match
restored, and each hand's history (when it was entered and every change, from which device).

The ledger stays a fold: inserting or restoring a hand only moves positions and folds again.
Every write holds BEGIN IMMEDIATE (`storage.immediate`) and takes the match's table.
The match file carries none of this; the full backup (`storage.backup`) copies it all.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from . import storage
from .errors import N_, MatchError, MatchOver, Message, NoSuchMatch
from .hand import Hand
from .ledger import Sheet
from .match import MAX_HANDS
from .storage import Saved, StaleMatch, get_match, immediate, now, record_change, record_event

SHIFT = 1_000_000  # above every live position; positions move through it, as UNIQUE is checked per row


def open_position(conn: sqlite3.Connection, match_id: int, number: int) -> None:
    """Hands `number` and after move down one, leaving `number` free; the caller holds the write lock."""
    conn.execute("UPDATE hand SET position = position + ? WHERE match_id = ? AND position >= ?",
                 (SHIFT + 1, match_id, number))
    conn.execute("UPDATE hand SET position = position - ? WHERE match_id = ? AND position > ?",
                 (SHIFT, match_id, SHIFT))


def fold_with(conn: sqlite3.Connection, match_id: int, current: storage.StoredMatch, number: int,
              hand: Hand) -> Sheet:
    """The match folded with `hand` as hand `number`; a fold that ends before the last hand is refused."""
    if len(current.match.hands) >= MAX_HANDS:
        raise MatchError("hand", N_("a match may have at most {most} hands"), most=MAX_HANDS)
    hands = list(current.match.hands)
    hands.insert(number - 1, hand)
    try:
        return record_change(conn, match_id, current.match.with_hands(hands))
    except MatchOver as error:
        if error.hand is None:
            raise
        raise MatchOver(error.hand, N_("with this hand the match would be over after hand {last}; "
                                       "delete the hands after it first")) from None


def closing_moves(before: Sheet, after: Sheet, number: int) -> list[Message]:
    """A game still won by the same player that now closes with another hand than the one it did
    (its closing hand, moved one down when it is `number` or later, is not the one that closes it now).
    `was` is the old number, as "Hand 6, now hand 7" says it."""
    messages = []
    for old, new in zip(before.games, after.games):
        if old.winner and old.winner == new.winner:
            if new.closed_by != old.closed_by + (old.closed_by >= number):
                messages.append(Message(N_("Game {number} now closes with hand {hand} (before: hand {was})."),
                                        number=new.number, hand=new.closed_by, was=old.closed_by))
    return messages


def insert_hand_before(conn: sqlite3.Connection, match_id: int, before: int, hand: Hand, form_id: str | None,
                       version: int | None, *, table: int, device: str = "") -> Saved:
    """A forgotten hand entered as hand `before`; the hands from there on move down one and are folded again.

    Exactly once (the form id, checked first), and only on the version the page was drawn at.
    """
    key = storage.submission_key(form_id, hand)
    with immediate(conn):
        current = get_match(conn, match_id, table=table)
        if key and conn.execute("SELECT 1 FROM hand WHERE submission = ?", (key,)).fetchone():
            return Saved(before, current.sheet(), duplicate=True, version=current.version)
        if version != current.version:
            raise StaleMatch(match_id)
        if not 1 <= before <= len(current.match.hands):
            raise NoSuchMatch(f"{match_id}/{before}")
        sheet = fold_with(conn, match_id, current, before, hand)
        open_position(conn, match_id, before)
        hand_id = storage.insert_hand(conn, match_id, before, hand, current.match.players, key)
        record_event(conn, match_id, hand_id, "inserted", before, device, None, hand)
        return Saved(before, sheet, version=storage.version_now(conn, match_id), hand_id=hand_id)


def deleted_row(conn: sqlite3.Connection, match_id: int, hand_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM hand WHERE id = ? AND match_id = ?", (hand_id, match_id)).fetchone()
    if row is None:
        raise NoSuchMatch(f"{match_id}/hand {hand_id}")
    return row


def last_number(conn: sqlite3.Connection, hand_id: int) -> int:
    """Where the hand was when it went: its last delete or undo says."""
    row = conn.execute("""SELECT number FROM hand_event WHERE hand_id = ? AND action IN ('deleted', 'undone')
                          ORDER BY id DESC LIMIT 1""", (hand_id,)).fetchone()
    return row["number"] if row else 1


def restore_hand(conn: sqlite3.Connection, match_id: int, hand_id: int, version: int | None, *,
                 table: int, device: str = "") -> Saved:
    """A deleted or undone hand back at the number it had, exactly as it was entered (its own row).

    A second tap finds it restored and changes nothing; a match that no longer allows it
    (it would now end before its last hand) refuses with the reason.
    """
    with immediate(conn):
        current = get_match(conn, match_id, table=table)
        row = deleted_row(conn, match_id, hand_id)
        number = min(last_number(conn, hand_id), len(current.match.hands) + 1)
        if row["deleted"] is None:
            return Saved(row["position"], current.sheet(), duplicate=True, version=current.version)
        if version != current.version:
            raise StaleMatch(match_id)
        hand = storage.hand_from_row(row, current.match.players)
        sheet = fold_with(conn, match_id, current, number, hand)
        open_position(conn, match_id, number)
        conn.execute("UPDATE hand SET position = ?, deleted = NULL WHERE id = ?", (number, hand_id))
        record_event(conn, match_id, hand_id, "restored", number, device, None, hand)
        return Saved(number, sheet, version=storage.version_now(conn, match_id), hand_id=hand_id)


def set_deleted(conn: sqlite3.Connection, match_id: int, when: str | None, *, table: int) -> bool:
    """A match deleted (`when`) or restored (None): every row is kept, only the mark moves.

    False when it already was so (a second tap); NoSuchMatch for a match of another table.
    """
    with immediate(conn):
        found = conn.execute("SELECT deleted FROM match WHERE id = ? AND table_id = ?", (match_id, table)).fetchone()
        if found is None:
            raise NoSuchMatch(match_id)
        if (found["deleted"] is None) == (when is None):
            return False
        conn.execute("UPDATE match SET deleted = ?, version = version + 1 WHERE id = ?", (when, match_id))
        return True


def delete_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> bool:
    """The match leaves every list, export and record of its table; "Deleted matches" brings it back."""
    return set_deleted(conn, match_id, now(), table=table)


def restore_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> bool:
    return set_deleted(conn, match_id, None, table=table)


def deleted_matches(conn: sqlite3.Connection, limit: int = 20, *, table: int) -> list[storage.StoredMatch]:
    """The table's deleted matches, the latest deleted first, for the home page's folded list."""
    return storage.matches_where(conn, "1", (), "m.deleted DESC", limit, table=table, deleted=True)


@dataclass(frozen=True)
class Event:
    """One line of a hand's history: `old` and `new` are the match file's keys (None: not there)."""

    hand_id: int
    action: str
    number: int
    device: str
    at: str
    old: dict | None
    new: dict | None

    def changed_keys(self) -> list[tuple[str, object, object]]:
        """What an edit changed, key by key, in the match file's order of the new entry."""
        old, new = self.old or {}, self.new or {}
        keys = list(new) + [key for key in old if key not in new]
        return [(key, old.get(key), new.get(key)) for key in keys if old.get(key) != new.get(key)]


def hand_events(conn: sqlite3.Connection, match_id: int, *, table: int) -> list[Event]:
    """The match's history, oldest first; NoSuchMatch for a match of another table or a deleted one."""
    get_match(conn, match_id, table=table)
    rows = conn.execute("SELECT * FROM hand_event WHERE match_id = ? ORDER BY id", (match_id,)).fetchall()
    return [Event(row["hand_id"], row["action"], row["number"], row["device"], row["at"],
                  json.loads(row["old"]) if row["old"] else None, json.loads(row["new"]) if row["new"] else None)
            for row in rows]


def deleted_hands(conn: sqlite3.Connection, match_id: int, *, table: int) -> list[tuple[int, int, dict]]:
    """(hand id, the number it had, its values) of each hand deleted and not restored, for restore forms."""
    current = get_match(conn, match_id, table=table)
    rows = conn.execute("SELECT * FROM hand WHERE match_id = ? AND deleted IS NOT NULL ORDER BY deleted DESC, id",
                        (match_id,)).fetchall()
    return [(row["id"], last_number(conn, row["id"]),
             storage.hand_from_row(row, current.match.players).to_dict()) for row in rows]
