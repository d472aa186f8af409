"""Nothing entered is ever lost: each hand's history (when it was entered and every change, from
which device), the hands deleted and not restored, and what a hand put back moves.

The writes themselves are units of work: a forgotten hand inserted or a deleted one restored
(models/hand_writes.py), a deleted match restored (models/matches.py); they are named here too,
as the history page knows them. The match file carries none of this; the full backup copies it all.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from models.errors import N_, Message
from .hand_rows import hand_from_row, number_at
from .hand_writes import insert_hand_before, restore_hand  # noqa: F401 - the history page's writes
from models.game.ledger import Sheet
from .matches import deleted_matches, delete_match, get_match, restore_match  # noqa: F401


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


def closed_changes(before: Sheet, after: Sheet, number: int) -> list[Message]:
    """What a hand put back as hand `number` changes of what was already settled: a game closed before
    that now closes with another hand, reopens, goes to the other player or settles for another net,
    and the match's result. Empty when it only adds to open games (or closes one)."""
    messages = closing_moves(before, after, number)
    for old, new in zip(before.games, after.games):
        if not old.winner:
            continue
        if not new.winner:
            messages.append(Message(N_("Game {number} is open again."), number=new.number))
        elif new.winner != old.winner:
            messages.append(Message(N_("Game {number} is now closed: {winner} wins it."), number=new.number,
                                    winner=new.winner))
        elif old.settlement and new.settlement and old.settlement.net != new.settlement.net:
            messages.append(Message(N_("Game {number} now settles for {net} (before: {was})."),
                                    number=new.number, net=new.settlement.net, was=old.settlement.net))
    if before.finished and not after.finished:
        messages.append(Message(N_("The match is no longer over.")))
    elif before.finished and before.winner != after.winner:
        messages.append(Message(N_("{winner} now wins the match."), winner=after.winner))
    return messages


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
    """(hand id, the number it comes back as, its values) of each hand deleted and not restored, once each,
    in the order they were played."""
    current = get_match(conn, match_id, table=table)
    rows = conn.execute("SELECT * FROM hand WHERE match_id = ? AND deleted IS NOT NULL ORDER BY position",
                        (match_id,)).fetchall()
    return [(row["id"], number_at(conn, match_id, row["position"]),
             hand_from_row(row, current.match.players).to_dict()) for row in rows]
