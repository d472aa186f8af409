"""Nothing entered is ever lost: each hand's history (when it was entered and every change, from
which device), and the hands deleted and not restored.

The writes themselves are units of work: a forgotten hand inserted or a deleted one restored
(models/storage/hand_writes.py), a deleted match restored (models/storage/matches.py). What a hand put
back moves is the game's (models/game/changes.py). The match file carries none of this; the full backup
copies it all.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from .hand_rows import board_rows, entry_from_row, number_at
from .matches import get_match


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


def hand_events(conn: sqlite3.Connection, match_id: int, *, table: int) -> list[Event]:
    """The match's history, oldest first; NoSuchMatch for a match of another table or a deleted one."""
    get_match(conn, match_id, table=table)
    rows = conn.execute("SELECT * FROM hand_event WHERE match_id = ? ORDER BY id", (match_id,)).fetchall()
    return [Event(row["hand_id"], row["action"], row["number"], row["device"], row["at"],
                  json.loads(row["old"]) if row["old"] else None, json.loads(row["new"]) if row["new"] else None)
            for row in rows]


def deleted_hands(conn: sqlite3.Connection, match_id: int, *, table: int) -> list[tuple[int, int, dict]]:
    """(hand id, the number it comes back as, its values) of each hand deleted and not restored, once each,
    in the order they were played."""
    current = get_match(conn, match_id, table=table)
    rows = conn.execute("SELECT * FROM hand WHERE match_id = ? AND deleted IS NOT NULL ORDER BY position",
                        (match_id,)).fetchall()
    boards = board_rows(conn, rows)
    return [(row["id"], number_at(conn, match_id, row["position"]),
             entry_from_row(row, current.match.players, boards).to_dict()) for row in rows]
