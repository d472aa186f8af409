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
from models.game.pairing import PairingRefused, check_pair, check_players
from models.game.ratings import PROVISIONAL_MOST, Result
from models.game.presets import PRESETS
from models.game.rules import Rules, Table, at_table, rules_from
from models.game.stakes import Stake

from .connection import immediate
from .match_cache import MatchCache
from .match_rows import StoredMatch
from .matches import insert_match, matches_where
from .players import SEAT_COLUMNS
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


def table_rules(conn: sqlite3.Connection, *, table: int,
                kind: Table | None = None) -> tuple[str, Rules, Stake | None]:
    """The rules a suggested match starts with: those of the table's latest match (its format, rules and stake),
    else a Hollywood match of the classic preset, for nothing. `kind` (two or partners): the latest match of that
    kind; partners with no partners match yet take the latest match of two's rules at a partners table."""
    seats = {None: "TRUE", Table.TWO: "player3_id IS NULL", Table.PARTNERS: "player4_id IS NOT NULL"}[kind]
    limit = " LIMIT 1" if kind is None else ""  # any table's latest match is the first row
    # `seats` and `limit` are constant fragments written here; the table is a bound parameter.
    rows = conn.execute(f"SELECT format, rules, stake, currency FROM match"  # nosec B608
                        f" WHERE table_id = ? AND deleted IS NULL AND {seats} ORDER BY created DESC, id DESC{limit}",
                        (table,))
    for row in rows:
        rules = rules_from(json.loads(row["rules"]))
        if kind is None or rules.table == kind:
            stake = Stake(Decimal(row["stake"]), row["currency"] or "") if row["stake"] else None
            return row["format"], rules, stake
    if kind == Table.PARTNERS:
        game_format, rules, stake = table_rules(conn, table=table, kind=Table.TWO)
        return game_format, at_table(rules, Table.PARTNERS), stake
    return "hollywood", PRESETS["classic"], None


def latest_table(conn: sqlite3.Connection, *, table: int) -> Table:
    """The table the club's latest match was played at (two before any match)."""
    return table_rules(conn, table=table)[1].table


def playing_since(conn: sqlite3.Connection, players: tuple[int, ...], since: str, *, table: int) -> list[int]:
    """Which of `players` is in a match still being played, in any seat: open, not set aside, started or given a
    hand since `since` (an older open match is one the table forgot, as the night's evenings count it)."""
    marks = ", ".join("?" * len(players))
    seats = " OR ".join(f"m.{column} IN ({marks})" for column in SEAT_COLUMNS)
    # Only the seat columns' names and "?" placeholders are formatted in; the values are bound parameters.
    rows = conn.execute(
        f"""SELECT {", ".join("m." + column for column in SEAT_COLUMNS)} FROM match m
           WHERE m.table_id = ? AND m.finished IS NULL AND m.abandoned IS NULL AND m.deleted IS NULL
             AND ({seats})
             AND (m.created >= ? OR EXISTS (SELECT 1 FROM hand h WHERE h.match_id = m.id AND h.deleted IS NULL
                                                                    AND h.created >= ?))""",  # nosec B608
        (table, *players * len(SEAT_COLUMNS), since, since)).fetchall()
    return [player for player in players if any(player in (row[column] for column in SEAT_COLUMNS) for row in rows)]


def start_pairing(conn: sqlite3.Connection, players: tuple[int | None, ...], since: str, pick_dealer, *,
                  table: int) -> tuple[int, Match]:
    """A suggested match, in one unit of work: a pair's match of two with the rules of the table's latest match
    of two, or four players' partners match (seats in order: the first and third against the second and
    fourth) with those of its latest partners match. The players are checked against the players and the
    matches they hold locked, so a second tap or a second phone starts no second match for a player still
    playing (PairingRefused)."""
    with unit_of_work(conn) as work:
        names = {player: name for name, player in player_ids(conn, table=table).items()}
        seated = check_pair(*players, names) if len(players) == 2 else check_players(players, names)
        busy = playing_since(conn, seated, since, table=table)
        if busy:
            raise PairingRefused(N_("{name} is still playing a match; nothing was started."), name=names[busy[0]])
        kind = Table.TWO if len(seated) == 2 else Table.PARTNERS
        game_format, rules, stake = table_rules(conn, table=table, kind=kind)
        seats = tuple(names[player] for player in seated)
        match = Match(seats, game_format, pick_dealer(seats), rules)
        match_id = insert_match(conn, match, stake, table=table)
        work.touched(match_id)
    return match_id, match
