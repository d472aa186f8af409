"""Every change to a match's hands, each one unit of work (models/storage/work.py): a hand saved, edited,
deleted or undone, a forgotten hand inserted, a deleted hand restored.

A write reads the match from the rows it holds locked, never from a cache, and the sheet it
answers with is the fold of the rows it leaves: a saved hand steps the fold of the rows by one
(the fold's own step), every other change folds the rows again. A match that folds is never left
one that does not: the write is refused and nothing is stored.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace

from models.errors import N_, HandAlreadySaved, LedgerError, MatchError, MatchOver, Message, NoSuchMatch, StaleMatch
from models.game.changes import closed_changes
from models.game.entry import read_entry
from models.game.hand import Hand
from models.game.rules import Table
from models.game.tables.deal import Deal, Entry
from models.game.tables.entries import read_deal
from .hand_rows import (board_rows, entry_from_row, insert_hand, number_at, place_after_all, place_before, submission_key,
                        update_hand)
from models.game.ledger import Sheet, sheet_after
from models.game.match import MAX_HANDS
from .match_rows import StoredMatch, match_row, read_stored, stored_match
from .connection import now
from .work import Work, unit_of_work

OVER = N_("this match is over: start a rematch for more hands")
DEVICE_MOST = 40  # letters of a device's name ("Ana's phone") kept in the history


@dataclass(frozen=True)
class Saved:
    number: int
    sheet: Sheet | None  # None only for a repair that leaves a match that did not fold still not folding
    duplicate: bool = False
    version: int | None = None  # the match's version after the write, for a way back that must not be stale
    hand_id: int | None = None  # the row the write kept, for the way back that restores it
    stored: StoredMatch | None = None  # the match as it is after the write, its fold known: for the app's cache


class RestoreChanges(LedgerError):
    """A restore that would change a game already closed or the match's result: asked first, nothing stored."""

    def __init__(self, messages: list[Message]):
        self.messages = messages
        super().__init__(N_("restoring this hand changes games already closed"))


def locked(conn: sqlite3.Connection, match_id: int, *, table: int) -> tuple[StoredMatch, list[sqlite3.Row]]:
    """The match and its live rows as the unit of work holds them."""
    return read_stored(conn, match_row(conn, match_id, table=table))


def after_write(conn: sqlite3.Connection, work: Work, match_id: int, *, table: int) -> StoredMatch:
    """The match as this write leaves it, its fold already known (the app's cache takes it after the commit):
    its row read again inside the transaction, its hands those of the fold the write made."""
    work.close()
    sheet = work.sheets.get(match_id)
    if sheet is None:
        stored, _ = locked(conn, match_id, table=table)
        return stored
    stored = replace(stored_match(match_row(conn, match_id, table=table), []), match=sheet.match)
    stored.__dict__["_fold"] = (sheet, None)  # a frozen value's cached fold: the one just made from the rows
    return stored


def as_locked(conn: sqlite3.Connection, match_id: int, known: StoredMatch | None, *,
              table: int) -> StoredMatch:
    """The match as the write holds it locked: `known` (what the request read before the write, its fold
    made) when the locked row has its epoch and version, else read and folded from the rows."""
    row = match_row(conn, match_id, table=table)
    if known is not None and known.key == (row["epoch"], row["id"], row["version"]):
        return known
    return read_stored(conn, row)[0]


def read_sent(sent: Entry | dict, current: StoredMatch, number: int) -> Entry:
    """The hand as the locked match reads it. What a player sent (the match file's keys, as the form
    gives them) is parsed here, inside the write, against the players and rules the write holds: a
    name renamed or merged since the page was drawn is refused naming the field, never a KeyError."""
    if isinstance(sent, (Hand, Deal)):
        return sent
    if current.match.table != Table.TWO:  # a deal of a table of three or four, as hand (deal) `number`
        return read_deal(sent, current.match.players, current.match.rules, number)
    return read_entry(sent, current.match.players, current.match.rules)


def record_event(conn: sqlite3.Connection, match_id: int, hand_id: int, action: str, number: int,
                 device: str, old: Entry | None, new: Entry | None) -> None:
    """One line of a hand's history, committed with the change itself.

    The values are the match file's keys (JSON), so the history page names what a player typed.
    """
    conn.execute(
        "INSERT INTO hand_event (match_id, hand_id, action, number, device, at, old, new)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, hand_id, action, number, device[:DEVICE_MOST], now(),
         None if old is None else json.dumps(old.to_dict()), None if new is None else json.dumps(new.to_dict())))


def check_room(current: StoredMatch) -> None:
    if len(current.match.hands) >= MAX_HANDS:
        raise MatchError("hand", N_("a match may have at most {most} hands"), most=MAX_HANDS)


def check_expected(current: StoredMatch, expected: int | None) -> None:
    """A page that entered hand N while N is already stored was drawn before another phone saved it.

    A larger N (a hand undone meanwhile) stores nothing twice, so it is let through.
    """
    if expected is not None and 1 <= expected <= len(current.match.hands):
        raise HandAlreadySaved(current.id, expected, current.sheet().lines[expected - 1])


def check_version(current: StoredMatch, version: int | None) -> None:
    """A change must name the version it was drawn at: None (unread, missing) is as stale as an old one."""
    if version != current.version:
        raise StaleMatch(current.id)


def check_number(current: StoredMatch, number: int) -> None:
    if not 1 <= number <= len(current.match.hands):
        raise NoSuchMatch(f"{current.id}/{number}")


def submission_kept(conn, key: str) -> bool:
    """Whether the write with one-time key `key` was kept: asked once the database is back after a
    COMMIT whose answer was cut off (CommitUnknown)."""
    return duplicate(conn, key) is not None


def duplicate(conn: sqlite3.Connection, key: str | None) -> sqlite3.Row | None:
    return conn.execute("SELECT id, position, deleted FROM hand WHERE submission = ?", (key,)).fetchone() \
        if key else None


def add_hand(conn: sqlite3.Connection, match_id: int, hand: Entry | dict, form_id: str | None = None,
             expected: int | None = None, *, table: int, device: str = "", known: StoredMatch | None = None) -> Saved:
    """Append a hand as hand `expected` (the number the page entered, when it says one).

    A repeated submission of the same form stores nothing (checked first, so a retried
    post is "already saved", never "another phone"); a page that fell behind raises
    HandAlreadySaved, inside the same write lock as the insert. `known`: the match as the request read
    it; used only if the locked row still has its epoch and version (a 1,000-hand match is then not
    read and folded again), else the match is read from the rows.
    """
    with unit_of_work(conn, match_id) as work:
        current = as_locked(conn, match_id, known, table=table)
        hand = read_sent(hand, current, len(current.match.hands) + 1)
        key = work.submission = submission_key(form_id, hand)
        if duplicate(conn, key):
            return Saved(len(current.match.hands), current.sheet(), duplicate=True, version=current.version,
                         stored=current)
        check_expected(current, expected)
        check_room(current)
        try:
            sheet = sheet_after(current.sheet(), hand)  # the fold of the locked rows, one step on
        except MatchOver:
            raise MatchOver(None, OVER) from None
        hand_id = insert_hand(conn, match_id, place_after_all(conn, match_id), hand, sheet.match.players, key)
        record_event(conn, match_id, hand_id, "entered", len(sheet.lines), device, None, hand)
        work.folded(match_id, sheet)
        stored = after_write(conn, work, match_id, table=table)
    return Saved(len(sheet.lines), sheet, version=stored.version, hand_id=hand_id, stored=stored)


def replace_hand(conn: sqlite3.Connection, match_id: int, number: int, hand: Entry | dict,
                 version: int | None, *, table: int, device: str = "") -> Saved:
    """Edit hand `number` (1-based); everything after it is recomputed."""
    with unit_of_work(conn, match_id) as work:
        current, rows = locked(conn, match_id, table=table)
        check_version(current, version)
        check_number(current, number)
        hand = read_sent(hand, current, number)
        update_hand(conn, rows[number - 1]["id"], hand, current.match.players)
        record_event(conn, match_id, rows[number - 1]["id"], "changed", number, device,
                     current.match.hands[number - 1], hand)
        work.touched(match_id, broken_before=current.refusal is not None)
        stored = after_write(conn, work, match_id, table=table)  # refuses an edit that ends the match early
    return Saved(number, work.sheets[match_id], version=stored.version, hand_id=rows[number - 1]["id"], stored=stored)


def delete_hand(conn: sqlite3.Connection, match_id: int, number: int, version: int | None, *,
                table: int, device: str = "", action: str = "deleted") -> Saved:
    """Delete hand `number`; the hands after it move up one on the sheet.

    Nothing entered is lost: the row stays in its place, marked deleted, and its history says
    so, so `restore_hand` puts it back between the same deals.
    """
    with unit_of_work(conn, match_id) as work:
        current, rows = locked(conn, match_id, table=table)
        check_version(current, version)
        check_number(current, number)
        hand_id = rows[number - 1]["id"]
        conn.execute("UPDATE hand SET deleted = ? WHERE id = ?", (now(), hand_id))
        record_event(conn, match_id, hand_id, action, number, device, current.match.hands[number - 1], None)
        work.touched(match_id, broken_before=current.refusal is not None)
        stored = after_write(conn, work, match_id, table=table)
    return Saved(number, work.sheets[match_id], version=stored.version, hand_id=hand_id, stored=stored)


def ended_early(error: MatchOver) -> MatchOver:
    return MatchOver(error.hand, N_("with this hand the match would be over after hand {last}; "
                                    "delete the hands after it first"))


def insert_hand_before(conn: sqlite3.Connection, match_id: int, before: int, hand: Entry | dict, form_id: str | None,
                       version: int | None, *, table: int, device: str = "") -> Saved:
    """A forgotten hand entered as hand `before` (the sheet's number); the hands from there on move down one.

    Exactly once (the form id, checked first), and only on the version the page was drawn at.
    """
    with unit_of_work(conn, match_id) as work:
        current, rows = locked(conn, match_id, table=table)
        hand = read_sent(hand, current, before)
        key = work.submission = submission_key(form_id, hand)
        found = duplicate(conn, key)
        if found:
            return Saved(number_at(conn, match_id, found["position"]), current.sheet(), duplicate=True,
                         version=current.version)
        check_version(current, version)
        check_number(current, before)
        check_room(current)
        current.sheet()  # a match that does not fold takes no new hand: its page says how to repair it
        hand_id = insert_hand(conn, match_id, place_before(conn, match_id, rows[before - 1]["position"]), hand,
                              current.match.players, key)
        record_event(conn, match_id, hand_id, "inserted", before, device, None, hand)
        work.touched(match_id)
        refold(work, match_id)
        stored = after_write(conn, work, match_id, table=table)
    return Saved(before, work.sheets[match_id], version=stored.version, hand_id=hand_id, stored=stored)


def refold(work: Work, match_id: int) -> Sheet | None:
    """The fold with a hand put back among the others; one that ends the match early says how to go on."""
    try:
        return work.fold(match_id)
    except MatchOver as error:
        if error.hand is None:
            raise
        raise ended_early(error) from None


def hand_row_of(conn: sqlite3.Connection, match_id: int, hand_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM hand WHERE id = ? AND match_id = ?", (hand_id, match_id)).fetchone()
    if row is None:
        raise NoSuchMatch(f"{match_id}/hand {hand_id}")
    return row


def restore_hand(conn: sqlite3.Connection, match_id: int, hand_id: int, version: int | None, *,
                 table: int, device: str = "", confirmed: bool = False) -> Saved:
    """A deleted or undone hand back in its place among the deals it was played between, exactly as entered.

    A second tap finds it restored and changes nothing; a page drawn before another change is
    stale; a match that no longer allows it (it would now end before its last hand) refuses with
    the reason; a restore that changes a game already closed, or the result, is RestoreChanges
    unless `confirmed`.
    """
    with unit_of_work(conn, match_id) as work:
        current, _ = locked(conn, match_id, table=table)
        row = hand_row_of(conn, match_id, hand_id)
        if row["deleted"] is None:
            return Saved(number_at(conn, match_id, row["position"]), current.sheet(), duplicate=True,
                         version=current.version, hand_id=hand_id)
        check_version(current, version)
        check_room(current)
        before = current.sheet()
        number = number_at(conn, match_id, row["position"])
        hand = entry_from_row(row, current.match.players, board_rows(conn, [row]))
        conn.execute("UPDATE hand SET deleted = NULL WHERE id = ?", (hand_id,))
        record_event(conn, match_id, hand_id, "restored", number, device, None, hand)
        work.touched(match_id)
        after = refold(work, match_id)
        changes = closed_changes(before, after, number)
        if changes and not confirmed:
            raise RestoreChanges(changes)
        stored = after_write(conn, work, match_id, table=table)
    return Saved(number, after, version=stored.version, hand_id=hand_id, stored=stored)
