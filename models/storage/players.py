"""A table's players: one person per name (another spelling of a kept name is the same person),
their list, and the writes that rename, merge or delete them.

Hands keep seats, not names, so a rename changes every match of the player at once; the unit of
work touches each of them (models/storage/work.py), so a phone following one of them sees the new name.
"""
from __future__ import annotations

import sqlite3

from .connection import now
from models.errors import N_, NoSuchMatch, Plural, PlayerProblem
from models.files.matchfile import name_key
from models.game.names import skeleton
from .work import Work, unit_of_work


def player_id(conn: sqlite3.Connection, name: str, *, table: int) -> int:
    """The player this name is within the table (one person per name_key), added if new; the caller
    holds a unit of work. Another table's player of that name is someone else."""
    row = conn.execute("SELECT id FROM player WHERE table_id = ? AND name = ?", (table, name)).fetchone() \
        or same_player(conn, name, table=table)
    if row:
        return row["id"]
    return conn.execute("INSERT INTO player (table_id, name, created) VALUES (?, ?, ?) RETURNING id",
                        (table, name, now())).fetchone()["id"]


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


def lookalike(conn: sqlite3.Connection, name: str, *, table: int) -> sqlite3.Row | None:
    """A kept player of the table that `name` is not, but looks like (models/game/names.skeleton): asked about."""
    if same_player(conn, name, table=table) is not None:
        return None
    drawn = skeleton(name)
    for row in conn.execute("SELECT * FROM player WHERE table_id = ? ORDER BY id", (table,)):
        if skeleton(row["name"]) == drawn:
            return row
    return None


SEAT_COLUMNS = ("player1_id", "player2_id", "player3_id", "player4_id")  # a match's seats, 3 and 4 NULL at two
# A player sits in match m (p: the player's row; `?` instead of p.id where a value is bound).
SEATED = "(" + " OR ".join(f"m.{column} = p.id" for column in SEAT_COLUMNS) + ")"
SEATED_AT = "(" + " OR ".join(f"{column} = ?" for column in SEAT_COLUMNS) + ")"


def player_names(conn: sqlite3.Connection, *, table: int) -> list[str]:
    """Known players, most recently active first, for the new-match suggestions."""
    rows = conn.execute(
        # SEATED is a constant of this module; the values are bound parameters.
        f"SELECT p.name FROM player p LEFT JOIN match m ON {SEATED} AND m.deleted IS NULL"  # nosec B608
        " WHERE p.table_id = ? GROUP BY p.id ORDER BY MAX(m.created) DESC NULLS LAST, p.name", (table,)
    ).fetchall()
    return [row["name"] for row in rows]


def players_summary(conn: sqlite3.Connection, *, table: int) -> list[sqlite3.Row]:
    return conn.execute(
        f"SELECT p.id, p.name, COUNT(m.id) AS matches FROM player p"  # nosec B608 - SEATED is a constant
        f" LEFT JOIN match m ON {SEATED} AND m.deleted IS NULL"
        " WHERE p.table_id = ? GROUP BY p.id ORDER BY lower(p.name), p.name", (table,)
    ).fetchall()


def player_named(conn: sqlite3.Connection, name: str, *, table: int) -> sqlite3.Row | None:
    """The table's player spelt exactly so, else the one this name is another spelling of ("ANA" finds Ana)."""
    return conn.execute("SELECT * FROM player WHERE table_id = ? AND name = ?", (table, name)).fetchone() \
        or same_player(conn, name, table=table)


def player_by_id(conn: sqlite3.Connection, player_id: int, *, table: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM player WHERE id = ? AND table_id = ?", (player_id, table)).fetchone()
    if row is None:
        raise NoSuchMatch(player_id)
    return row


def touch_matches_of(work: Work, *player_ids: int) -> None:
    """Every match (deleted ones too: they come back) that shows one of these players' names."""
    for player in player_ids:
        for row in work.conn.execute(f"SELECT id FROM match WHERE {SEATED_AT}",  # nosec B608 - constant columns
                                     (player,) * len(SEAT_COLUMNS)):
            work.touched(row["id"], refold=False)


def rename_player(conn: sqlite3.Connection, old: str, new: str, *, table: int) -> None:
    """Hands keep seats, not names, so a rename changes every match at once."""
    with unit_of_work(conn) as work:
        found = player_named(conn, old, table=table)
        if found is None:
            raise NoSuchMatch(old)
        other = same_player(conn, new, table=table, besides=found["id"])
        if other is not None:
            raise PlayerProblem(N_("{name} already exists: merge the two instead"), name=other["name"])
        conn.execute("UPDATE player SET name = ? WHERE id = ?", (new, found["id"]))
        touch_matches_of(work, found["id"])


def merge_players(conn: sqlite3.Connection, keep: str, drop: str, *, table: int) -> int:
    """Two spellings of one person become one; returns how many matches moved."""
    with unit_of_work(conn) as work:
        kept, dropped = player_named(conn, keep, table=table), player_named(conn, drop, table=table)
        if kept is None or dropped is None:
            raise NoSuchMatch(keep if kept is None else drop)
        if kept["id"] == dropped["id"]:
            raise PlayerProblem(N_("choose two different players"))
        both = conn.execute(  # at one table, in any two seats: SEATED_AT is a constant of this module
            f"SELECT COUNT(*) AS count FROM match WHERE {SEATED_AT} AND {SEATED_AT}",  # nosec B608
            (kept["id"],) * len(SEAT_COLUMNS) + (dropped["id"],) * len(SEAT_COLUMNS)).fetchone()["count"]
        if both:
            raise PlayerProblem(Plural("{keep} and {drop} played each other in {count} match; "
                                       "they cannot be one person",
                                       "{keep} and {drop} played each other in {count} matches; "
                                       "they cannot be one person", both, keep=keep, drop=drop))
        touch_matches_of(work, dropped["id"])
        moved = sum(conn.execute(f"UPDATE match SET {column} = ? WHERE {column} = ?",  # nosec B608 - constant
                                 (kept["id"], dropped["id"])).rowcount for column in SEAT_COLUMNS)
        conn.execute("DELETE FROM player WHERE id = ?", (dropped["id"],))
    return moved


def delete_player(conn: sqlite3.Connection, name: str, *, table: int) -> None:
    """Only a player with no matches can go; the foreign keys would refuse anyway."""
    with unit_of_work(conn):
        row = player_named(conn, name, table=table)
        if row is None:
            raise NoSuchMatch(name)
        count = conn.execute(f"SELECT COUNT(*) AS count FROM match WHERE {SEATED_AT}",  # nosec B608 - constant
                             (row["id"],) * len(SEAT_COLUMNS)).fetchone()["count"]
        if count:
            raise PlayerProblem(Plural("{name} has {count} match; merge or rename instead",
                                       "{name} has {count} matches; merge or rename instead", count, name=name))
        conn.execute("DELETE FROM player WHERE id = ?", (row["id"],))
