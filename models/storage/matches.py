"""Matches as kept: a match row, its hands in their places, read as a StoredMatch; the lists of a
table's matches; the writes about a whole match (a new one, its name, set aside, the rematch).

Totals are never stored: every reader folds the hands with `score_sheet`. Every function takes
the table's id as the required keyword `table` and puts it in its query, so a match of another
table is NoSuchMatch. Every write is a unit of work (models/storage/work.py).
"""
from __future__ import annotations

import json
import secrets
import sqlite3
from dataclasses import dataclass

from .connection import now, snapshot
from models.errors import N_, MatchNotOver, NoSuchMatch
from .hand_rows import PLACE_STEP, board_rows, insert_hand
from models.game.ledger import score_sheet
from models.game.match import Match
from .match_cache import MatchCache
from .players import player_id
from models.game.stakes import Stake
from .match_rows import MATCH_QUERY, StoredMatch, match_row, read_stored, stored_in_work, stored_match
from .tables import keep_preset
from .work import unit_of_work


def get_match(conn: sqlite3.Connection, match_id: int, *, table: int, cache: MatchCache | None = None) -> StoredMatch:
    """Match ids count across the server: one of another table is NoSuchMatch here.

    The row and its hands are read in one snapshot. With the app's `cache`, a match whose row has
    the cached (epoch, version) is not read and folded again; never inside a write (models/storage/work.py)."""
    if cache is not None and conn.in_transaction:
        raise RuntimeError("a cache is not read inside a write")
    with snapshot(conn):
        row = match_row(conn, match_id, table=table)
        found = cache.get(row) if cache is not None else None
        if found is None:
            found = read_stored(conn, row)[0]
            if cache is not None:
                cache.put(found)
    return found


def get_match_by_token(conn: sqlite3.Connection, token: str, *, table: int) -> StoredMatch:
    with snapshot(conn):
        row = conn.execute(MATCH_QUERY + " WHERE m.view_token = ? AND m.table_id = ? AND m.deleted IS NULL",
                           (token, table)).fetchone()
        if row is None:
            raise NoSuchMatch(token)
        return read_stored(conn, row)[0]


def match_version(conn: sqlite3.Connection, match_id: int | None = None, token: str | None = None, *,
                  table: int) -> tuple[int, int, str, int]:
    """(id, number, epoch, version) without loading hands: what a following phone asks every second or two."""
    column, value = ("view_token", token) if token is not None else ("id", match_id)
    # `column` is one of the two names above; the values are bound parameters.
    row = conn.execute(f"SELECT id, number, version, (SELECT value FROM epoch WHERE id = 1) AS epoch"  # nosec B608
                       f" FROM match WHERE {column} = ? AND table_id = ? AND deleted IS NULL",
                       (value, table)).fetchone()
    if row is None:
        raise NoSuchMatch(match_id or token)
    return row["id"], row["number"], row["epoch"], row["version"]


def match_id_of(conn: sqlite3.Connection, number: int, *, table: int) -> int:
    """The id of the table's match `number` (1, 2, 3 ... at its table), deleted or not; else NoSuchMatch."""
    row = conn.execute("SELECT id FROM match WHERE table_id = ? AND number = ?", (table, number)).fetchone()
    if row is None:
        raise NoSuchMatch(number)
    return row["id"]


def match_number(conn: sqlite3.Connection, match_id: int, *, table: int) -> int:
    """The number at its table of the table's match `match_id`, deleted or not; else NoSuchMatch."""
    row = conn.execute("SELECT number FROM match WHERE table_id = ? AND id = ?", (table, match_id)).fetchone()
    if row is None:
        raise NoSuchMatch(match_id)
    return row["number"]


# ---- lists ---------------------------------------------------------------------------

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
    return conn.execute("SELECT COUNT(*) AS count FROM match"
                        " WHERE abandoned IS NOT NULL AND deleted IS NULL AND table_id = ?", (table,)).fetchone()["count"]


def matches_of(conn: sqlite3.Connection, name: str, other: str | None = None,
               cache: MatchCache | None = None, *, table: int, tables: bool = False) -> list[StoredMatch]:
    """A player's matches (or a pair's), oldest first, for records and head-to-head; `tables`: a player's
    matches at tables of three and four too (the player's page), in any seat."""
    if tables and other is None:
        return matches_where(conn, "p1.name = ? OR p2.name = ? OR p3.name = ? OR p4.name = ?", (name,) * 4,
                             "m.created ASC", -1, cache, table=table)
    where = f"{OF_TWO} AND (p1.name = ? OR p2.name = ?)"
    params: tuple = (name, name)
    if other is not None:
        where += " AND (p1.name = ? OR p2.name = ?)"
        params += (other, other)
    return matches_where(conn, where, params, "m.created ASC", -1, cache, table=table)


def matches_at_seats(conn: sqlite3.Connection, players: tuple[str, ...], cache: MatchCache | None = None, *,
                     table: int) -> list[StoredMatch]:
    """A table of three or four's matches with these players in these seats, oldest first (its evening)."""
    seats = tuple(players) + ("",) * (4 - len(players))
    where = "p1.name = ? AND p2.name = ? AND COALESCE(p3.name, '') = ? AND COALESCE(p4.name, '') = ?"
    return matches_where(conn, f"NOT ({OF_TWO}) AND {where}", seats, "m.created ASC", -1, cache, table=table)


def recent_matches(conn: sqlite3.Connection, since: str, cache: MatchCache | None = None, *,
                   table: int, tables: bool = False) -> list[StoredMatch]:
    """The matches an evening going on now can hold, oldest first: started or finished since
    `since`, or still open; the abandoned ones are set aside, as on the home lists. `tables`: those of
    tables of three and four too (the club's night)."""
    seats = "TRUE" if tables else OF_TWO
    where = f"{seats} AND (m.created >= ? OR m.finished >= ? OR m.finished IS NULL) AND m.abandoned IS NULL"
    return matches_where(conn, where, (since, since), "m.created ASC", -1, cache, table=table)


EVERY_TABLE = None  # only the `finished` index, which is the server's, reads across tables
# A match of two players: seat 3 is empty. Head-to-head, the hands' CSV and an evening of two count these only;
# the club's book (ratings, a player's record and partners, tonight) asks for every table.
OF_TWO = "m.player3_id IS NULL"


def matches_where(conn: sqlite3.Connection, where: str, params: tuple, order: str, limit: int,
                  cache: MatchCache | None = None, *, table: int | None, deleted: bool = False) -> list[StoredMatch]:
    """Matches with their hands, read in one snapshot; only those not already in the app's `cache` read their hands.

    `where` and `order` are constant fragments written in this module; every
    value is a bound parameter. `table` has no default: EVERY_TABLE must be said.
    A deleted match is in no list, record or export of its table; only `deleted=True` finds it.
    """
    if cache is not None and conn.in_transaction:
        raise RuntimeError("a cache is not read inside a write")
    if table is not EVERY_TABLE:
        kept = "NOT NULL" if deleted else "NULL"
        where, params = f"m.table_id = ? AND m.deleted IS {kept} AND ({where})", (table,) + params
    # A limit of -1 is every match: only SQLite reads LIMIT -1 so.
    query = f"{MATCH_QUERY} WHERE {where} ORDER BY {order}, m.id" + (" LIMIT ?" if limit >= 0 else "")  # nosec B608
    with snapshot(conn):
        rows = conn.execute(query, params + ((limit,) if limit >= 0 else ())).fetchall()
        found = {row["id"]: cache.get(row) if cache is not None else None for row in rows}
        missing = [match_id for match_id, stored in found.items() if stored is None]
        by_match: dict[int, list] = {match_id: [] for match_id in missing}
        for start in range(0, len(missing), 500):
            chunk = missing[start:start + 500]
            marks = ",".join("?" * len(chunk))
            # Only "?" placeholders are formatted in; the ids are bound parameters.
            for hand in conn.execute(
                    f"SELECT * FROM hand WHERE match_id IN ({marks}) AND deleted IS NULL"  # nosec B608
                    f" ORDER BY match_id, position", chunk):
                by_match[hand["match_id"]].append(hand)
        boards = board_rows(conn, [hand for hands in by_match.values() for hand in hands])
    out = []
    for row in rows:
        stored = found[row["id"]]
        if stored is None:
            stored = stored_match(row, by_match[row["id"]], boards)
            if cache is not None:
                cache.put(stored)
        out.append(stored)
    return out


def last_hand_times(conn: sqlite3.Connection, match_ids: list[int], *, table: int) -> dict[int, str]:
    """When each match's last hand was saved: an open match's evening ends there, not at its start."""
    out: dict[int, str] = {}
    for start in range(0, len(match_ids), 500):
        chunk = match_ids[start:start + 500]
        marks = ",".join("?" * len(chunk))
        # Only "?" placeholders are formatted in; the ids are bound parameters.
        rows = conn.execute(
            f"SELECT h.match_id, MAX(h.created) AS last FROM hand h JOIN match m ON m.id = h.match_id"  # nosec B608
            f" WHERE m.table_id = ? AND h.match_id IN ({marks}) AND h.deleted IS NULL GROUP BY h.match_id",
            (table, *chunk))
        out.update({row["match_id"]: row["last"] for row in rows})
    return out


# ---- writes about a whole match ----------------------------------------------------------

def create_match(conn: sqlite3.Connection, match: Match, stake: Stake | None = None,
                 name: str | None = None, *, table: int, preset: str | None = None) -> int:
    """Store a new match (and, for an import, its hands); the unit of work folds it before the commit.
    `preset`: its rules kept under that name too, in the same unit of work (the new match form's
    "save these rules as")."""
    score_sheet(match)  # the engine's refusal before anything is written
    with unit_of_work(conn) as work:
        if preset:
            keep_preset(conn, preset, match.rules, table=table)
        match_id = insert_match(conn, match, stake, name, table=table)
        for position, hand in enumerate(match.hands, start=1):
            insert_hand(conn, match_id, position * PLACE_STEP, hand, match.players)
        work.touched(match_id)
    return match_id


def insert_match(conn: sqlite3.Connection, match: Match, stake: Stake | None,
                 name: str | None = None, rematch_of: int | None = None, *, table: int) -> int:
    """The match row alone; the caller holds a unit of work, which sets `finished`.

    Its number at its table is the table's largest plus one, read under the unit of work's write lock
    (a new match takes the whole lock), so two tables' matches are each numbered 1, 2, 3."""
    ids = [player_id(conn, player, table=table) for player in match.players]
    ids += [None] * (4 - len(ids))  # seats 3 and 4 stay NULL at a table of two (and 4 at chouette of three)
    first = match.players.index(match.dealer)
    # A table of three or four names its first dealer's seat in first_seat; first_dealer keeps its 0 or 1.
    first_seat = first if len(match.players) > 2 else None
    return conn.execute(
        """INSERT INTO match (table_id, number, player1_id, player2_id, player3_id, player4_id, format, rules,
                              first_dealer, first_seat, created, finished, view_token, stake, currency, name,
                              rematch_of)
           VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM match WHERE table_id = ?),
                   ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?) RETURNING id""",
        (table, table, *ids, match.format, json.dumps(match.rules.to_dict()),
         first if first < 2 else 0, first_seat, now(),
         secrets.token_urlsafe(18), str(stake.per_point) if stake else None,
         stake.currency if stake else None, name or None, rematch_of),
    ).fetchone()["id"]


@dataclass(frozen=True)
class Rematch:
    id: int
    match: Match
    created: bool  # False: someone (this phone or the other) had already started it


def create_rematch(conn: sqlite3.Connection, match_id: int, *, table: int) -> Rematch:
    """The one rematch of a finished match: the first tap makes it, every later tap (either phone's) finds it.

    Looking and inserting happen under one write lock, so two phones tapping at once cannot both
    insert. A deleted rematch is no rematch: it lets go of the link (its rows stay, and "Deleted
    matches" brings it back as a match of its own) and a new one is started. The finished match
    is touched, so a phone following it sees the link to the rematch.
    """
    with unit_of_work(conn) as work:
        old = read_stored(conn, match_row(conn, match_id, table=table))[0]
        if old.rematch is not None:
            return Rematch(old.rematch, stored_in_work(conn, old.rematch).match, created=False)
        sheet = old.sheet()
        if not sheet.finished:
            raise MatchNotOver(N_("This match is still being played."))
        gone = conn.execute("SELECT id FROM match WHERE rematch_of = ? AND deleted IS NOT NULL", (match_id,)).fetchone()
        if gone is not None:
            conn.execute("UPDATE match SET rematch_of = NULL WHERE id = ?", (gone["id"],))
            work.touched(gone["id"], refold=False)
        # A table's next dealer is a side: its first player deals first, so that side deals (RULES.md).
        dealer = sheet.next_dealer if sheet.sides is None else sheet.sides.players_of(sheet.next_dealer)[0]
        match = Match(players=old.match.players, format=old.match.format, first_dealer=dealer,
                      rules=old.match.rules)
        new_id = insert_match(conn, match, old.stake, rematch_of=match_id, table=table)
        work.touched(new_id)
        work.touched(match_id, refold=False)
    return Rematch(new_id, match, created=True)


def set_match_fact(conn: sqlite3.Connection, match_id: int, column: str, value: str | None, *, table: int) -> None:
    """Store one thing the players decided about a whole match (its name, or that it is abandoned)."""
    if column not in ("name", "abandoned"):
        raise ValueError(column)
    with unit_of_work(conn) as work:
        match_row(conn, match_id, table=table)  # NoSuchMatch before anything is written
        # The column is one of the two names checked above; the values are bound parameters.
        conn.execute(f"UPDATE match SET {column} = ? WHERE id = ? AND table_id = ?",  # nosec B608
                     (value, match_id, table))
        work.touched(match_id, refold=False)


def name_match(conn: sqlite3.Connection, match_id: int, name: str | None, *, table: int) -> None:
    """An empty name takes the name away: the match is listed by its players again."""
    set_match_fact(conn, match_id, "name", (name or "").strip() or None, table=table)


def abandon_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> None:
    set_match_fact(conn, match_id, "abandoned", now(), table=table)


def reopen_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> None:
    set_match_fact(conn, match_id, "abandoned", None, table=table)


def set_deleted(conn: sqlite3.Connection, match_id: int, when: str | None, *, table: int) -> bool:
    """A match deleted (`when`) or restored (None): every row is kept, only the mark moves.

    False when it already was so (a second tap); NoSuchMatch for a match of another table. The
    match it is a rematch of is touched too: its page links this one only while it is kept.
    """
    with unit_of_work(conn) as work:
        found = conn.execute("SELECT deleted, rematch_of FROM match WHERE id = ? AND table_id = ?",
                             (match_id, table)).fetchone()
        if found is None:
            raise NoSuchMatch(match_id)
        if (found["deleted"] is None) == (when is None):
            return False
        conn.execute("UPDATE match SET deleted = ? WHERE id = ?", (when, match_id))
        work.touched(match_id, refold=False)
        if found["rematch_of"] is not None:
            work.touched(found["rematch_of"], refold=False)
        return True


def delete_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> bool:
    """The match leaves every list, export and record of its table; "Deleted matches" brings it back."""
    return set_deleted(conn, match_id, now(), table=table)


def restore_match(conn: sqlite3.Connection, match_id: int, *, table: int) -> bool:
    return set_deleted(conn, match_id, None, table=table)


def deleted_matches(conn: sqlite3.Connection, limit: int = 20, *, table: int) -> list[StoredMatch]:
    """The table's deleted matches, the latest deleted first, for the home page's folded list."""
    return matches_where(conn, "TRUE", (), "m.deleted DESC", limit, table=table, deleted=True)
