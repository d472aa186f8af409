"""SQLite storage of players, matches and hands exactly as entered.

Totals are never stored: every reader folds the hands with `score_sheet`.
Every match, player and preset belongs to one table (the group that plays
together); each function that reads or writes them takes the table's id as the
required keyword `table`, and every query is limited to it, so a match id or a
token of another table is simply not found here.
Every read-then-write runs inside `BEGIN IMMEDIATE`, so two phones posting to
one match are serialised by SQLite and neither hand is lost.
"""
from __future__ import annotations

import hashlib
import os
import json
import secrets
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote
from types import MappingProxyType

from . import schema
from .errors import (N_, DatabaseGone, HandAlreadySaved, MatchError, MatchNotOver, MatchOver, NoSuchMatch,  # noqa: F401
                     NoSuchTable, Plural, PlayerProblem, SchemaTooNew, StaleMatch)
from .hand import Hand
from .ledger import Sheet, score_sheet, sheet_after
from .match import MAX_HANDS, Match
from .matchfile import name_key
from .match_cache import MatchCache
from .rules import Rules, rules_from
from .stakes import Stake

BUSY_TIMEOUT_MS = 10_000



def connect(path: str, create: bool = True, synchronous: str = "FULL") -> sqlite3.Connection:
    """A connection with the settings every connection needs.

    isolation_level=None leaves transactions to `immediate`, so no implicit
    deferred transaction can turn a read-then-write into a lost update.
    FULL (the default: the command line, the start) syncs every commit to the disk, so it
    survives a power cut; a request's connection asks NORMAL and leaves the fsync to
    models/flusher.py. With create=False (a request's connection: the start made the file) a
    missing file is DatabaseGone, not a new empty database.
    """
    if create:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    else:
        try:
            conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=rw", uri=True,
                                   timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except sqlite3.OperationalError as error:
            raise DatabaseGone(path, str(error)) from None
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    if synchronous not in ("FULL", "NORMAL"):
        raise ValueError(synchronous)
    conn.execute(f"PRAGMA synchronous = {synchronous}")  # nosec B608 - one of the two names above
    return conn


@contextmanager
def immediate(conn: sqlite3.Connection):
    """Take the write lock before reading, so what was read is still true at commit."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def migrate(conn: sqlite3.Connection, path: str = "") -> int:
    """Bring a new or old file up to the current schema in one transaction; returns the version."""
    with immediate(conn):
        return schema.apply(conn, path)


def open_ledger(path: str) -> sqlite3.Connection:
    """A connection to an upgraded file with a true `finished` index; a newer Gin Ledger's file is refused untouched."""
    schema.refuse_newer(schema.file_version(path), path)
    conn = connect(path)
    try:
        migrate(conn, path)
        refresh_finished(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


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
    rematch: int | None = None  # the rematch of this one, once someone tapped Rematch
    rematch_created: str | None = None  # when that rematch was started
    rematch_of_created: str | None = None  # when the match this one follows was started
    # The sheet when it is already known (a saved hand steps the previous one): not folded again.
    folded: Sheet | None = field(default=None, compare=False, repr=False)

    def sheet(self) -> Sheet:
        return self.folded if self.folded is not None else self._sheet

    @cached_property
    def facts(self) -> tuple:
        """Everything a page can show of the match but its hands (views/regions.py keys by it):
        what a write changes without touching a hand (a name, a rename of a player, a rematch)."""
        match = self.match
        return (self.id, match.players, match.format, match.first_dealer, match.rules, self.created,
                self.finished, self.view_token, self.stake, self.name, self.abandoned, self.rematch_of,
                self.rematch, self.rematch_created, self.rematch_of_created)

    @cached_property
    def _sheet(self) -> Sheet:
        # Folded once per object; a StoredMatch in the app's match cache is folded before it is shared.
        return score_sheet(self.match)


# ---- players -----------------------------------------------------------------

def player_id(conn: sqlite3.Connection, name: str, *, table: int) -> int:
    """The player this name is within the table (one person per name_key), added if new; the caller
    holds BEGIN IMMEDIATE. Another table's player of that name is someone else."""
    row = conn.execute("SELECT id FROM player WHERE table_id = ? AND name = ?", (table, name)).fetchone() \
        or same_player(conn, name, table=table)
    if row:
        return row["id"]
    return conn.execute("INSERT INTO player (table_id, name, created) VALUES (?, ?, ?)",
                        (table, name, now())).lastrowid


def same_player(conn: sqlite3.Connection, name: str, *, table: int, besides: int | None = None) -> sqlite3.Row | None:
    """A kept player of the table whose name is another spelling of `name` (other than player `besides`).

    Read in Python, not by a UNIQUE index: SQLite knows no NFC or case folding, and a
    file from before this rule may hold "Ana" and "ana" as two players, which only a
    merge (the players page) may join. Writes hold the write lock, so two new spellings
    cannot slip in at once; a table keeps hundreds of players, not millions.
    """
    key = name_key(name)
    for row in conn.execute("SELECT * FROM player WHERE table_id = ? ORDER BY id", (table,)):
        if row["id"] != besides and name_key(row["name"]) == key:
            return row
    return None


def player_names(conn: sqlite3.Connection, *, table: int) -> list[str]:
    """Known players, most recently active first, for the new-match suggestions."""
    rows = conn.execute(
        """SELECT p.name FROM player p LEFT JOIN match m
           ON (m.player1_id = p.id OR m.player2_id = p.id) AND m.deleted IS NULL
           WHERE p.table_id = ?
           GROUP BY p.id ORDER BY MAX(m.created) DESC, p.name""", (table,)
    ).fetchall()
    return [row["name"] for row in rows]


# ---- hands as rows -----------------------------------------------------------

HAND_COLUMNS = ("kind", "knocker", "knocker_deadwood", "opponent_deadwood",
                "big_gin", "upcard", "winner", "points", "cards")


def seat(players: tuple[str, str], name: str | None) -> int | None:
    return None if name is None else players.index(name)


def hand_row(hand: Hand, players: tuple[str, str]) -> tuple:
    """Players are kept as seats 0 and 1, so renaming a player changes no hand."""
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


def hand_from_row(row: sqlite3.Row, players: tuple[str, str]) -> Hand:
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


# ---- matches -----------------------------------------------------------------

MATCH_QUERY = """
    SELECT m.*, p1.name AS name1, p2.name AS name2,
           (SELECT r.id FROM match r WHERE r.rematch_of = m.id) AS rematch,
           (SELECT r.created FROM match r WHERE r.rematch_of = m.id) AS rematch_created,
           (SELECT o.created FROM match o WHERE o.id = m.rematch_of) AS rematch_of_created
    FROM match m JOIN player p1 ON p1.id = m.player1_id JOIN player p2 ON p2.id = m.player2_id
"""


def stored_match(row: sqlite3.Row, hand_rows: list[sqlite3.Row]) -> StoredMatch:
    players = (row["name1"], row["name2"])
    match = Match(
        players=players,
        format=row["format"],
        first_dealer=players[row["first_dealer"]],
        rules=rules_from(json.loads(row["rules"])),
        hands=tuple(hand_from_row(hand, players) for hand in hand_rows),
    )
    return with_row(row, match)


def with_row(row: sqlite3.Row, match: Match, folded: Sheet | None = None) -> StoredMatch:
    """The match as kept, from its row and its hands (read, or just written with `folded` its sheet)."""
    stake = Stake(Decimal(row["stake"]), row["currency"] or "") if row["stake"] else None
    return StoredMatch(row["id"], match, row["created"], row["finished"], row["version"], row["view_token"], stake,
                       name=row["name"], abandoned=row["abandoned"], rematch_of=row["rematch_of"],
                       rematch=row["rematch"], rematch_created=row["rematch_created"],
                       rematch_of_created=row["rematch_of_created"], folded=folded)


def hand_rows(conn: sqlite3.Connection, match_id: int) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM hand WHERE match_id = ? AND deleted IS NULL ORDER BY position", (match_id,)
    ).fetchall()


def get_match(conn: sqlite3.Connection, match_id: int, *, table: int, cache: MatchCache | None = None) -> StoredMatch:
    """Match ids count across the server: one of another table is NoSuchMatch here.

    With the app's `cache`, a match whose row still has the cached version (and names) is
    not read and folded again: one query instead of reading every hand."""
    row = match_row(conn, match_id, table=table)
    found = cache.get(row) if cache is not None else None
    if found is None:
        found = stored_match(row, hand_rows(conn, match_id))
        if cache is not None:
            cache.put(row, found)
    return found


def match_row(conn: sqlite3.Connection, match_id: int, *, table: int) -> sqlite3.Row:
    row = conn.execute(MATCH_QUERY + " WHERE m.id = ? AND m.table_id = ? AND m.deleted IS NULL",
                       (match_id, table)).fetchone()
    if row is None:
        raise NoSuchMatch(match_id)
    return row


def get_match_by_token(conn: sqlite3.Connection, token: str, *, table: int) -> StoredMatch:
    row = conn.execute(MATCH_QUERY + " WHERE m.view_token = ? AND m.table_id = ? AND m.deleted IS NULL",
                       (token, table)).fetchone()
    if row is None:
        raise NoSuchMatch(token)
    return stored_match(row, hand_rows(conn, row["id"]))


def list_matches(conn: sqlite3.Connection, finished: bool, limit: int = 50,
                 cache: MatchCache | None = None, *, table: int) -> list[StoredMatch]:
    """In-progress or finished matches, newest first; the abandoned ones are set aside (`abandoned_matches`)."""
    where = "m.finished IS NOT NULL" if finished else "m.finished IS NULL"
    order = "m.finished DESC" if finished else "m.created DESC"
    return matches_where(conn, where + " AND m.abandoned IS NULL", (), order, limit, cache, table=table)


def abandoned_matches(conn: sqlite3.Connection, limit: int = 50,
                      cache: MatchCache | None = None, *, table: int) -> list[StoredMatch]:
    """The matches the players set aside, the latest set aside first, for the home page's folded list."""
    return matches_where(conn, "m.abandoned IS NOT NULL", (), "m.abandoned DESC", limit, cache, table=table)


def count_abandoned(conn: sqlite3.Connection, *, table: int) -> int:
    return conn.execute("SELECT COUNT(*) FROM match WHERE abandoned IS NOT NULL AND deleted IS NULL AND table_id = ?",
                        (table,)).fetchone()[0]


def matches_of(conn: sqlite3.Connection, name: str, other: str | None = None,
               cache: MatchCache | None = None, *, table: int) -> list[StoredMatch]:
    """A player's matches (or a pair's), oldest first, for records and head-to-head."""
    where = "(p1.name = ? OR p2.name = ?)"
    params: tuple = (name, name)
    if other is not None:
        where += " AND (p1.name = ? OR p2.name = ?)"
        params += (other, other)
    return matches_where(conn, where, params, "m.created ASC", -1, cache, table=table)


EVERY_TABLE = None  # only the `finished` index, which is the server's, reads across tables


def matches_where(conn: sqlite3.Connection, where: str, params: tuple, order: str, limit: int,
                  cache: MatchCache | None = None, *, table: int | None, deleted: bool = False) -> list[StoredMatch]:
    """Matches with their hands; only those not already in the app's `cache` read their hands.

    `where` and `order` are constant fragments written in this module; every
    value is a bound parameter. `table` has no default: EVERY_TABLE must be said.
    A deleted match is in no list, record or export of its table; only `deleted=True` finds it.
    """
    if table is not EVERY_TABLE:
        kept = "NOT NULL" if deleted else "NULL"
        where, params = f"m.table_id = ? AND m.deleted IS {kept} AND ({where})", (table,) + params
    query = f"{MATCH_QUERY} WHERE {where} ORDER BY {order}, m.id LIMIT ?"  # nosec B608
    rows = conn.execute(query, params + (limit,)).fetchall()
    found = {row["id"]: cache.get(row) if cache is not None else None for row in rows}
    missing = [match_id for match_id, stored in found.items() if stored is None]
    by_match: dict[int, list] = {match_id: [] for match_id in missing}
    for start in range(0, len(missing), 500):
        chunk = missing[start:start + 500]
        marks = ",".join("?" * len(chunk))
        # Only "?" placeholders are formatted in; the ids are bound parameters.
        for hand in conn.execute(
                f"SELECT * FROM hand WHERE match_id IN ({marks}) AND deleted IS NULL ORDER BY match_id, position",  # nosec B608
                chunk):
            by_match[hand["match_id"]].append(hand)
    out = []
    for row in rows:
        stored = found[row["id"]]
        if stored is None:
            stored = stored_match(row, by_match[row["id"]])
            if cache is not None:
                cache.put(row, stored)
        out.append(stored)
    return out


def insert_hand(conn: sqlite3.Connection, match_id: int, position: int, hand: Hand,
                players: tuple[str, str], submission: str | None = None) -> int:
    """The new row's id, which the hand's history names for good (a deleted hand keeps its row)."""
    return conn.execute(
        # The column names are the constant HAND_COLUMNS; every value is a bound parameter.
        f"INSERT INTO hand (match_id, position, {', '.join(HAND_COLUMNS)}, submission, created)"  # nosec B608
        f" VALUES (?, ?, {', '.join('?' * len(HAND_COLUMNS))}, ?, ?)",
        (match_id, position, *hand_row(hand, players), submission, now()),
    ).lastrowid


def create_match(conn: sqlite3.Connection, match: Match, stake: Stake | None = None,
                 name: str | None = None, *, table: int) -> int:
    """Store a new match (and, for an import, its hands) after the engine accepted it."""
    sheet = score_sheet(match)
    with immediate(conn):
        match_id = insert_match(conn, match, sheet.finished, stake, name, table=table)
        for position, hand in enumerate(match.hands, start=1):
            insert_hand(conn, match_id, position, hand, match.players)
    return match_id


def insert_match(conn: sqlite3.Connection, match: Match, finished: bool, stake: Stake | None,
                 name: str | None = None, rematch_of: int | None = None, *, table: int) -> int:
    """The match row alone; the caller holds BEGIN IMMEDIATE."""
    ids = [player_id(conn, player, table=table) for player in match.players]
    return conn.execute(
        """INSERT INTO match (table_id, player1_id, player2_id, format, rules, first_dealer, created, finished,
                              view_token, stake, currency, name, rematch_of)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (table, ids[0], ids[1], match.format, json.dumps(match.rules.to_dict()),
         match.players.index(match.dealer), now(), now() if finished else None,
         secrets.token_urlsafe(18), str(stake.per_point) if stake else None,
         stake.currency if stake else None, name or None, rematch_of),
    ).lastrowid


@dataclass(frozen=True)
class Rematch:
    id: int
    match: Match
    created: bool  # False: someone (this phone or the other) had already started it


def create_rematch(conn: sqlite3.Connection, match_id: int, *, table: int) -> Rematch:
    """The one rematch of a finished match: the first tap makes it, every later tap (either phone's) finds it.

    Looking and inserting happen under one write lock, so two phones tapping at
    once cannot both insert; the UNIQUE index on rematch_of would refuse a second row anyway.
    The finished match's version is bumped, so a phone following it sees the link to the rematch.
    """
    with immediate(conn):
        old = get_match(conn, match_id, table=table)
        if old.rematch is not None:
            return Rematch(old.rematch, get_match(conn, old.rematch, table=table).match, created=False)
        sheet = old.sheet()
        if not sheet.finished:
            raise MatchNotOver(N_("This match is still being played."))
        match = Match(players=old.match.players, format=old.match.format,
                      first_dealer=sheet.next_dealer, rules=old.match.rules)
        new_id = insert_match(conn, match, False, old.stake, rematch_of=match_id, table=table)
        bump_version(conn, match_id)
    return Rematch(new_id, match, created=True)


def bump_version(conn: sqlite3.Connection, match_id: int) -> None:
    """Any change a page shows bumps the version: caches drop the old entry, following phones redraw."""
    conn.execute("UPDATE match SET version = version + 1 WHERE id = ?", (match_id,))


def set_match_fact(conn: sqlite3.Connection, match_id: int, column: str, value: str | None, *, table: int) -> None:
    """Store one thing the players decided about a whole match (its name, or that it is abandoned)."""
    if column not in ("name", "abandoned"):
        raise ValueError(column)
    with immediate(conn):
        get_match(conn, match_id, table=table)  # NoSuchMatch before anything is written
        # The column is one of the two names checked above; the values are bound parameters.
        conn.execute(f"UPDATE match SET {column} = ?, version = version + 1 WHERE id = ? AND table_id = ?",  # nosec B608
                     (value, match_id, table))


def name_match(conn: sqlite3.Connection, match_id: int, name: str | None, *, table: int) -> None:
    """An empty name takes the name away: the match is listed by its players again."""
    set_match_fact(conn, match_id, "name", (name or "").strip() or None, table=table)


def abandon_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> None:
    set_match_fact(conn, match_id, "abandoned", now(), table=table)


def reopen_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> None:
    set_match_fact(conn, match_id, "abandoned", None, table=table)


def record_change(conn: sqlite3.Connection, match_id: int, match: Match, sheet: Sheet | None = None) -> Sheet:
    """After a write: recompute (unless the caller already stepped the sheet), keep `finished` in step,
    and bump the version."""
    sheet = score_sheet(match) if sheet is None else sheet
    conn.execute(
        """UPDATE match SET version = version + 1,
           finished = CASE WHEN ? THEN COALESCE(finished, ?) ELSE NULL END WHERE id = ?""",
        (sheet.finished, now(), match_id),
    )
    return sheet


# ---- the `finished` index ----------------------------------------------------------
#
# `match.finished` is the one computed thing in the file: when the fold said the
# match was over (NULL while it is being played). It is an index, kept because
# the home page lists matches in progress and finished ones, newest finished
# first, and folding every match on every visit to sort them would not scale.
# It cannot go stale: every write path sets it from the fold it just made
# (create_match, record_change), and the engine that computed it is fingerprinted
# by its source; a start with any other engine recomputes it for every match
# (about 0.4 s for 1,000 matches of up to 13 hands: tests/test_storage.py), while an ordinary
# start only compares one row.

# What decides sheet.finished: the fold and what it calls (cards: an Oklahoma upcard's knock limit).
ENGINE_MODULES = ("dealer", "hand", "ledger", "match", "rules", "settle", "cards")
ENGINE_FILES = tuple(Path(__file__).with_name(f"{name}.py") for name in ENGINE_MODULES)


def engine_fingerprint(files=ENGINE_FILES) -> str:
    """The source of the modules whose code decides `sheet.finished`: any edit to them rebuilds the index."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def refresh_finished(conn: sqlite3.Connection, fingerprint: str | None = None) -> int | None:
    """Rebuild the index if another engine computed it; returns how many matches it corrected (None: no rebuild)."""
    fingerprint = fingerprint or engine_fingerprint()
    with immediate(conn):
        row = conn.execute("SELECT fingerprint FROM engine WHERE id = 1").fetchone()
        if row is not None and row["fingerprint"] == fingerprint:
            return None
        corrected = rebuild_finished(conn)
        conn.execute("""INSERT INTO engine (id, fingerprint) VALUES (1, ?)
                        ON CONFLICT(id) DO UPDATE SET fingerprint = excluded.fingerprint""", (fingerprint,))
    return corrected


def rebuild_finished(conn: sqlite3.Connection) -> int:
    """Set every match's `finished` from its fold; the caller holds BEGIN IMMEDIATE.

    A correction bumps the version, so no cache or following phone keeps the
    old row. A match the engine now refuses keeps its index: its page says why.
    """
    corrected = 0
    for stored in matches_where(conn, "1", (), "m.id", -1, table=EVERY_TABLE):
        try:
            over = stored.sheet().finished
        except MatchError:
            continue
        if over != (stored.finished is not None):
            conn.execute("UPDATE match SET finished = ?, version = version + 1 WHERE id = ?",
                         (finished_at(conn, stored.id) if over else None, stored.id))
            corrected += 1
    return corrected


def finished_at(conn: sqlite3.Connection, match_id: int) -> str:
    """When the closing hand was stored: the last hand's time (or now, for a match imported whole)."""
    last = conn.execute("SELECT MAX(created) FROM hand WHERE match_id = ? AND deleted IS NULL", (match_id,)).fetchone()[0]
    return last or now()


@dataclass(frozen=True)
class Saved:
    number: int
    sheet: Sheet
    duplicate: bool = False
    version: int | None = None  # the match's version after the write, for a way back that must not be stale
    hand_id: int | None = None  # the row a delete kept, for the way back that restores it
    stored: StoredMatch | None = None  # the match as it is after the write, when the write knows it


def version_now(conn: sqlite3.Connection, match_id: int) -> int:
    return conn.execute("SELECT version FROM match WHERE id = ?", (match_id,)).fetchone()[0]


def check_expected(current: StoredMatch, expected: int | None) -> None:
    """A page that entered hand N while N is already stored was drawn before another phone saved it.

    A larger N (a hand undone meanwhile) stores nothing twice, so it is let through.
    """
    if expected is not None and 1 <= expected <= len(current.match.hands):
        raise HandAlreadySaved(current.id, expected, current.sheet().lines[expected - 1])


OVER = N_("this match is over: start a rematch for more hands")


def add_hand(conn: sqlite3.Connection, match_id: int, hand: Hand, form_id: str | None = None,
             expected: int | None = None, *, table: int, device: str = "", cache: MatchCache | None = None) -> Saved:
    """Append a hand as hand `expected` (the number the page entered, when it says one).

    A repeated submission of the same form stores nothing (checked first, so a retried
    post is "already saved", never "another phone"); a page that fell behind raises
    HandAlreadySaved, inside the same write lock as the insert. The new sheet is the
    stored one stepped by this hand; once committed, the match as it now is goes into
    `cache`, so the page the table is sent to next reads one row, not every hand.
    """
    key = submission_key(form_id, hand)
    with immediate(conn):
        current = get_match(conn, match_id, table=table, cache=cache)
        if key and conn.execute("SELECT 1 FROM hand WHERE submission = ?", (key,)).fetchone():
            return Saved(len(current.match.hands), current.sheet(), duplicate=True, version=current.version,
                         stored=current)
        check_expected(current, expected)
        if len(current.match.hands) >= MAX_HANDS:
            raise MatchError("hand", N_("a match may have at most {most} hands"), most=MAX_HANDS)
        before = current.sheet()
        try:
            sheet = sheet_after(before, hand)  # the one fold of a saved hand: one step
        except MatchOver:
            raise MatchOver(None, OVER) from None
        record_change(conn, match_id, sheet.match, sheet)
        last = conn.execute("SELECT COALESCE(MAX(position), 0) FROM hand WHERE match_id = ?", (match_id,)).fetchone()[0]
        hand_id = insert_hand(conn, match_id, last + 1, hand, sheet.match.players, key)
        record_event(conn, match_id, hand_id, "entered", len(sheet.lines), device, None, hand)
        row = match_row(conn, match_id, table=table)
    stored = with_row(row, sheet.match, sheet)
    if cache is not None:
        cache.put(row, stored)
    return Saved(len(sheet.lines), sheet, version=stored.version, stored=stored)


def checked_current(conn: sqlite3.Connection, match_id: int, version: int | None, number: int, *,
                    table: int) -> tuple[StoredMatch, list]:
    """A change must name the version it was drawn at: None (unread, missing) is as stale as an old one."""
    current = get_match(conn, match_id, table=table)
    if version != current.version:
        raise StaleMatch(match_id)
    rows = hand_rows(conn, match_id)
    if not 1 <= number <= len(rows):
        raise NoSuchMatch(f"{match_id}/{number}")
    return current, rows


def replace_hand(conn: sqlite3.Connection, match_id: int, number: int, hand: Hand,
                 version: int | None, *, table: int, device: str = "") -> Saved:
    """Edit hand `number` (1-based); everything after it is recomputed."""
    with immediate(conn):
        current, rows = checked_current(conn, match_id, version, number, table=table)
        hands = list(current.match.hands)
        hands[number - 1] = hand
        match = current.match.with_hands(hands)
        sheet = record_change(conn, match_id, match)  # refuses an edit that ends the match early
        values = hand_row(hand, match.players)
        conn.execute(
            f"UPDATE hand SET {', '.join(c + ' = ?' for c in HAND_COLUMNS)} WHERE id = ?",  # nosec B608
            (*values, rows[number - 1]["id"]),
        )
        record_event(conn, match_id, rows[number - 1]["id"], "changed", number, device,
                     current.match.hands[number - 1], hand)
    return Saved(number, sheet)


def delete_hand(conn: sqlite3.Connection, match_id: int, number: int, version: int | None, *,
                table: int, device: str = "", action: str = "deleted") -> Saved:
    """Delete hand `number`; the hands after it move up one.

    Nothing entered is lost: the row stays, marked deleted, its position freed (minus its id, which
    no live hand holds), and its history says where it was, so `history.restore_hand` puts it back.
    """
    with immediate(conn):
        current, rows = checked_current(conn, match_id, version, number, table=table)
        hands = list(current.match.hands)
        del hands[number - 1]
        sheet = record_change(conn, match_id, current.match.with_hands(hands))
        hand_id = rows[number - 1]["id"]
        conn.execute("UPDATE hand SET deleted = ?, position = -id WHERE id = ?", (now(), hand_id))
        record_event(conn, match_id, hand_id, action, number, device, current.match.hands[number - 1], None)
        version = version_now(conn, match_id)
    return Saved(number, sheet, version=version, hand_id=hand_id)


def record_event(conn: sqlite3.Connection, match_id: int, hand_id: int, action: str, number: int,
                 device: str, old: Hand | None, new: Hand | None) -> None:
    """One line of a hand's history; the caller holds BEGIN IMMEDIATE, so it commits with the change itself.

    The values are the match file's keys (JSON), so the history page names what a player typed.
    """
    conn.execute(
        "INSERT INTO hand_event (match_id, hand_id, action, number, device, at, old, new)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (match_id, hand_id, action, number, device[:DEVICE_MOST], now(),
         None if old is None else json.dumps(old.to_dict()), None if new is None else json.dumps(new.to_dict())))


DEVICE_MOST = 40  # letters of a device's name ("Ana's phone") kept in the history


def backup(source_path: str, target_path: str) -> int:
    """SQLite's online backup API: a consistent copy even while hands are being written."""
    source = connect(source_path)
    target = sqlite3.connect(target_path)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
        return target.execute("PRAGMA page_count").fetchone()[0]
    finally:
        target.close()
        source.close()


# ---- a table's own rule presets ------------------------------------------------

def saved_presets(conn: sqlite3.Connection, *, table: int) -> dict[str, Rules]:
    rows = conn.execute("SELECT name, rules FROM preset WHERE table_id = ? ORDER BY name", (table,)).fetchall()
    return {row["name"]: rules_from(json.loads(row["rules"])) for row in rows}


def save_preset(conn: sqlite3.Connection, name: str, rules: Rules, *, table: int) -> None:
    """Saving under a name that exists replaces that preset's rules."""
    with immediate(conn):
        conn.execute(
            """INSERT INTO preset (table_id, name, rules, created) VALUES (?, ?, ?, ?)
               ON CONFLICT(table_id, name) DO UPDATE SET rules = excluded.rules""",
            (table, name, json.dumps(rules.to_dict()), now()),
        )


# ---- players over time ---------------------------------------------------------

def players_summary(conn: sqlite3.Connection, *, table: int) -> list[sqlite3.Row]:
    return conn.execute(
        """SELECT p.id, p.name, COUNT(m.id) AS matches FROM player p
           LEFT JOIN match m ON (m.player1_id = p.id OR m.player2_id = p.id) AND m.deleted IS NULL
           WHERE p.table_id = ?
           GROUP BY p.id ORDER BY p.name COLLATE NOCASE""", (table,)
    ).fetchall()


def player_named(conn: sqlite3.Connection, name: str, *, table: int) -> sqlite3.Row | None:
    """The table's player spelt exactly so, else the one this name is another spelling of ("ANA" finds Ana)."""
    return conn.execute("SELECT * FROM player WHERE table_id = ? AND name = ?", (table, name)).fetchone() \
        or same_player(conn, name, table=table)


def rename_player(conn: sqlite3.Connection, old: str, new: str, *, table: int) -> None:
    """Hands keep seats, not names, so a rename changes every match at once."""
    with immediate(conn):
        if player_named(conn, old, table=table) is None:
            raise NoSuchMatch(old)
        other = same_player(conn, new, table=table, besides=player_named(conn, old, table=table)["id"])
        if other is not None:
            raise PlayerProblem(N_("{name} already exists: merge the two instead"), name=other["name"])
        conn.execute("UPDATE player SET name = ? WHERE table_id = ? AND name = ?", (new, table, old))


def merge_players(conn: sqlite3.Connection, keep: str, drop: str, *, table: int) -> int:
    """Two spellings of one person become one; returns how many matches moved."""
    with immediate(conn):
        kept, dropped = player_named(conn, keep, table=table), player_named(conn, drop, table=table)
        if kept is None or dropped is None:
            raise NoSuchMatch(keep if kept is None else drop)
        if kept["id"] == dropped["id"]:
            raise PlayerProblem(N_("choose two different players"))
        both = conn.execute(
            """SELECT COUNT(*) FROM match WHERE (player1_id = ? AND player2_id = ?)
               OR (player1_id = ? AND player2_id = ?)""",
            (kept["id"], dropped["id"], dropped["id"], kept["id"])).fetchone()[0]
        if both:
            raise PlayerProblem(Plural("{keep} and {drop} played each other in {count} match; "
                                       "they cannot be one person",
                                       "{keep} and {drop} played each other in {count} matches; "
                                       "they cannot be one person", both, keep=keep, drop=drop))
        moved = conn.execute("UPDATE match SET player1_id = ? WHERE player1_id = ?",
                             (kept["id"], dropped["id"])).rowcount
        moved += conn.execute("UPDATE match SET player2_id = ? WHERE player2_id = ?",
                              (kept["id"], dropped["id"])).rowcount
        conn.execute("DELETE FROM player WHERE id = ?", (dropped["id"],))
    return moved


def delete_player(conn: sqlite3.Connection, name: str, *, table: int) -> None:
    """Only a player with no matches can go; the foreign keys would refuse anyway."""
    with immediate(conn):
        row = player_named(conn, name, table=table)
        if row is None:
            raise NoSuchMatch(name)
        count = conn.execute("SELECT COUNT(*) FROM match WHERE player1_id = ? OR player2_id = ?",
                             (row["id"], row["id"])).fetchone()[0]
        if count:
            raise PlayerProblem(Plural("{name} has {count} match; merge or rename instead",
                                       "{name} has {count} matches; merge or rename instead", count, name=name))
        conn.execute("DELETE FROM player WHERE id = ?", (row["id"],))


def player_by_id(conn: sqlite3.Connection, player_id: int, *, table: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM player WHERE id = ? AND table_id = ?", (player_id, table)).fetchone()
    if row is None:
        raise NoSuchMatch(player_id)
    return row


def match_version(conn: sqlite3.Connection, match_id: int | None = None, token: str | None = None, *,
                  table: int) -> tuple[int, int]:
    """(id, version) without loading hands: what a following phone asks every second or two."""
    if token is not None:
        row = conn.execute("SELECT id, version FROM match WHERE view_token = ? AND table_id = ? AND deleted IS NULL",
                           (token, table)).fetchone()
    else:
        row = conn.execute("SELECT id, version FROM match WHERE id = ? AND table_id = ? AND deleted IS NULL",
                           (match_id, table)).fetchone()
    if row is None:
        raise NoSuchMatch(match_id or token)
    return row["id"], row["version"]


# ---- tables ----------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """The group that plays together; its key is its address (/t/<key>/) and the only way in."""

    id: int
    key: str
    name: str
    passphrase_hash: str | None
    home: bool


def table_from(row: sqlite3.Row) -> Table:
    return Table(row["id"], row["key"], row["name"], row["passphrase_hash"], bool(row["home"]))


def new_table_key() -> str:
    """192 random bits, URL-safe: the address is the secret, so it must not be guessed."""
    return secrets.token_urlsafe(24)


def create_table(conn: sqlite3.Connection, name: str) -> Table:
    with immediate(conn):
        key = new_table_key()
        table_id = conn.execute("INSERT INTO play_table (key, name, created) VALUES (?, ?, ?)",
                                (key, name, now())).lastrowid
    return Table(table_id, key, name, None, False)


def table_by_key(conn: sqlite3.Connection, key: str) -> Table:
    row = conn.execute("SELECT * FROM play_table WHERE key = ?", (key,)).fetchone()
    if row is None:
        raise NoSuchTable("table")  # the key itself is a secret: it goes into no message
    return table_from(row)


def table_of_view_token(conn: sqlite3.Connection, token: str) -> Table:
    """The table of the match a spectator's link names: the link carries no table key."""
    row = conn.execute("SELECT t.* FROM play_table t JOIN match m ON m.table_id = t.id"
                       " WHERE m.view_token = ? AND m.deleted IS NULL", (token,)).fetchone()
    if row is None:
        raise NoSuchTable("view token")
    return table_from(row)


def tables_by_keys(conn: sqlite3.Connection, keys: list[str]) -> list[Table]:
    """The tables a browser remembers, in its order; keys no longer kept here drop out."""
    marks = ",".join("?" * len(keys))  # only "?" placeholders are formatted in; the keys are bound parameters
    rows = conn.execute(f"SELECT * FROM play_table WHERE key IN ({marks})", keys)  # nosec B608
    found = {table.key: table for table in map(table_from, rows)}
    return [found[key] for key in keys if key in found]


def home_table(conn: sqlite3.Connection) -> Table:
    """The one table of a home server (made by the migration for every file)."""
    return table_from(conn.execute("SELECT * FROM play_table WHERE home = 1").fetchone())


def set_table_passphrase(conn: sqlite3.Connection, passphrase_hash: str | None, *, table: int) -> None:
    with immediate(conn):
        conn.execute("UPDATE play_table SET passphrase_hash = ? WHERE id = ?", (passphrase_hash, table))


def recent_matches(conn: sqlite3.Connection, since: str, cache: MatchCache | None = None, *,
                   table: int) -> list[StoredMatch]:
    """The matches an evening going on now can hold, oldest first: started or finished since
    `since`, or still open; the abandoned ones are set aside, as on the home lists."""
    where = "(m.created >= ? OR m.finished >= ? OR m.finished IS NULL) AND m.abandoned IS NULL"
    return matches_where(conn, where, (since, since), "m.created ASC", -1, cache, table=table)


def last_hand_times(conn: sqlite3.Connection, match_ids: list[int], *, table: int) -> dict[int, str]:
    """When each match's last hand was saved: an open match's evening ends there, not at its start."""
    out: dict[int, str] = {}
    for start in range(0, len(match_ids), 500):
        chunk = match_ids[start:start + 500]
        marks = ",".join("?" * len(chunk))
        # Only "?" placeholders are formatted in; the ids are bound parameters.
        rows = conn.execute(
            f"SELECT h.match_id, MAX(h.created) FROM hand h JOIN match m ON m.id = h.match_id"  # nosec B608
            f" WHERE m.table_id = ? AND h.match_id IN ({marks}) AND h.deleted IS NULL GROUP BY h.match_id",
            (table, *chunk))
        out.update({row[0]: row[1] for row in rows})
    return out
