"""A table as a club: what its ladder and its nights read from storage, and the one setting they keep.

The ratings are not stored (models/game/ratings.py folds them); this module reads the finished matches
with their players' ids, the table's version (what a kept ladder is keyed by), the table's
provisional count, and the rules a suggested match starts with.
"""
from __future__ import annotations

import json
import sqlite3
from decimal import Decimal

from models.errors import N_, MatchError
from models.game.hand import other
from models.game.match import Match
from models.game.pairing import PairingRefused, check_pair
from models.game.ratings import PROVISIONAL_MOST, Result
from models.game.presets import PRESETS
from models.game.rules import Rules, rules_from
from models.game.stakes import Stake

from .connection import immediate
from .match_cache import MatchCache
from .match_rows import StoredMatch
from .matches import insert_match, matches_where
from .work import unit_of_work


def table_version(conn: sqlite3.Connection, *, table: int) -> tuple:
    """What every match of the table is at: the epoch, how many match rows it has (deleted ones too) and the sum of
    their versions. Every write a page could show bumps a touched match's version (models/storage/work.py) and
    versions only grow, so any write about the table's matches (a hand, a delete or restore, a rename or
    merge, which touch every match of the player) gives another value."""
    row = conn.execute("SELECT COUNT(*) AS count, COALESCE(SUM(version), 0) AS versions,"
                       " (SELECT value FROM epoch WHERE id = 1) AS epoch"
                       " FROM match WHERE table_id = ?", (table,)).fetchone()
    return (row["epoch"], int(row["count"]), int(row["versions"]))


def results_version(conn: sqlite3.Connection, *, table: int) -> tuple:
    """What the table's finished matches are at, the only ones the ratings read: the epoch and the table's club
    book version, which every write that can change what the ratings read bumps in its own transaction
    (models/storage/work.py: a touched match finished before or after the write). A hand saved in a match still
    being played leaves it as it is. It only grows, so it never names another set of finished matches."""
    row = conn.execute("SELECT (SELECT value FROM epoch WHERE id = 1) AS epoch,"
                       " (SELECT book FROM play_table WHERE id = ?) AS book", (table,)).fetchone()
    return (row["epoch"], int(row["book"] or 0))


def player_ids(conn: sqlite3.Connection, *, table: int) -> dict[str, int]:
    """The table's players, name -> id (a name is one player within a table)."""
    return {row["name"]: row["id"] for row in conn.execute("SELECT id, name FROM player WHERE table_id = ?", (table,))}


def finished_results(conn: sqlite3.Connection, cache: MatchCache | None = None, *,
                     table: int) -> tuple[list[Result], dict[int, str], tuple | None]:
    """Every finished match of the table that folds, as the ratings read it (players by id), the names by id, and
    the `results_version` of the matches read (None for none): what was read is true of exactly that version.

    Matches carry their players' names; the ids are read around them, and read again if a rename or a merge
    came between (the names then differ), so a result never names a player by someone else's id."""
    for _ in range(5):
        book, before = results_version(conn, table=table), player_ids(conn, table=table)
        matches = matches_where(conn, "m.finished IS NOT NULL", (), "m.finished", -1, cache, table=table)
        after = player_ids(conn, table=table)
        # The book read again unchanged: no write that changes the ratings came between, so they are of `book`.
        if before == after and results_version(conn, table=table) == book \
                and all(name in after for stored in matches for name in stored.match.players):
            version = book if matches else None
            results = [result_of(stored, after) for stored in matches if rated(stored)]
            return results, {i: n for n, i in after.items()}, version
    raise RuntimeError("the players or the club book changed under five reads in a row")


def rated(stored: StoredMatch) -> bool:
    """A match rates its players once its fold says it is over; one that no longer folds rates nobody."""
    return stored.refusal is None and stored.sheet().finished


def result_of(stored: StoredMatch, ids: dict[str, int]) -> Result:
    """A match of two: its winner and loser by id. A table of three or four: the ids of the winning side's players
    and of the losing side's (chouette: the box alone, or the team)."""
    sheet = stored.sheet()
    winner = sheet.winner
    if sheet.sides is None:
        return Result(stored.id, stored.finished, ids[winner], ids[other(sheet.players, winner)])
    won, lost = (tuple(ids[name] for name in sheet.sides.players_of(side))
                 for side in (winner, other(sheet.players, winner)))
    return Result(stored.id, stored.finished, won, lost)


def provisional_count(conn: sqlite3.Connection, *, table: int) -> int:
    return conn.execute("SELECT provisional FROM play_table WHERE id = ?", (table,)).fetchone()["provisional"]


def set_provisional_count(conn: sqlite3.Connection, count: int, *, table: int) -> None:
    """Players with fewer finished matches than `count` are listed apart; out of bounds is refused, nothing kept."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= PROVISIONAL_MOST:
        raise MatchError("provisional", N_("must be a whole number from {low} to {high}"), low=0, high=PROVISIONAL_MOST)
    with immediate(conn):  # a table's setting: no match shows it
        conn.execute("UPDATE play_table SET provisional = ? WHERE id = ?", (count, table))


def table_rules(conn: sqlite3.Connection, *, table: int) -> tuple[str, Rules, Stake | None]:
    """The rules a suggested match starts with: those of the table's latest match (its format, rules and stake),
    else a Hollywood match of the classic preset, for nothing."""
    row = conn.execute("SELECT format, rules, stake, currency FROM match WHERE table_id = ? AND deleted IS NULL"
                       " ORDER BY created DESC, id DESC LIMIT 1", (table,)).fetchone()
    if row is None:
        return "hollywood", PRESETS["classic"], None
    stake = Stake(Decimal(row["stake"]), row["currency"] or "") if row["stake"] else None
    return row["format"], rules_from(json.loads(row["rules"])), stake


def playing_since(conn: sqlite3.Connection, players: tuple[int, int], since: str, *, table: int) -> list[int]:
    """Which of `players` is in a match still being played: open, not set aside, started or given a hand
    since `since` (an older open match is one the table forgot, as the night's evenings count it)."""
    rows = conn.execute(
        """SELECT m.player1_id, m.player2_id FROM match m
           WHERE m.table_id = ? AND m.finished IS NULL AND m.abandoned IS NULL AND m.deleted IS NULL
             AND (m.player1_id IN (?, ?) OR m.player2_id IN (?, ?))
             AND (m.created >= ? OR EXISTS (SELECT 1 FROM hand h WHERE h.match_id = m.id AND h.deleted IS NULL
                                                                    AND h.created >= ?))""",
        (table, *players, *players, since, since)).fetchall()
    return [player for player in players if any(player in (row["player1_id"], row["player2_id"]) for row in rows)]


def start_pairing(conn: sqlite3.Connection, one: int | None, two: int | None, since: str, pick_dealer, *,
                  table: int) -> tuple[int, Match]:
    """A suggested pair's match, with the rules of the table's latest match, in one unit of work: the pair is
    checked against the players and the matches it holds locked, so a second tap or a second phone starts
    no second match for a player still playing (PairingRefused)."""
    with unit_of_work(conn) as work:
        names = {player: name for name, player in player_ids(conn, table=table).items()}
        one, two = check_pair(one, two, names)
        busy = playing_since(conn, (one, two), since, table=table)
        if busy:
            raise PairingRefused(N_("{name} is still playing a match; nothing was started."), name=names[busy[0]])
        game_format, rules, stake = table_rules(conn, table=table)
        players = (names[one], names[two])
        match = Match(players, game_format, pick_dealer(players), rules)
        match_id = insert_match(conn, match, stake, table=table)
        work.touched(match_id)
    return match_id, match
