"""Each match's number at its table (issue 37, point 6): a hosted server shows it instead of the id,
which counts across every table and so told a table that others exist.

Storage: two tables starting matches in turn each number theirs 1, 2, 3; a rematch and an import are
numbered the same way; a deleted match keeps its number and the next one does not take it; a ledger
from before keeps every match's id as its number, so no address already given out moves.
"""
from __future__ import annotations

import pytest

from models.game.hand import KNOCK, Hand
from models.game.match import Match
from models.storage import schema
from models.storage.address import SQLITE, dialect_of
from models.storage.connection import connect, immediate
from models.storage.ledger_file import open_ledger
from models.storage.matches import (create_match, create_rematch, delete_match, get_match, match_id_of,
                                    match_numbers, restore_match)
from models.storage.tables import create_table, home_table
from models.errors import NoSuchMatch


def single(one: str, two: str, gins: int = 0) -> Match:
    """A single game between `one` and `two` in which `one` went gin `gins` times (two gins win it)."""
    deal = Hand(KNOCK, knocker=one, knocker_deadwood=0, opponent_deadwood=60)
    return Match((one, two), "single", one, hands=(deal,) * gins)


@pytest.fixture
def ledger(database):
    """The ledger as the app opens it: every migration run, the home table made."""
    conn = open_ledger(database)
    try:
        yield conn
    finally:
        conn.close()


def test_two_tables_starting_matches_in_turn_each_number_theirs_1_2_3(ledger):
    a, b = create_table(ledger, "Club A").id, create_table(ledger, "Club B").id
    made = {a: [], b: []}
    for table in (a, b, b, a, b, a):
        made[table].append(create_match(ledger, single("Ana", "Ben"), table=table))
    for table in (a, b):
        assert [get_match(ledger, match_id, table=table).number for match_id in made[table]] == [1, 2, 3]
        assert match_numbers(ledger, table=table) == {match_id: n for n, match_id in enumerate(made[table], 1)}
        assert [match_id_of(ledger, n, table=table) for n in (1, 2, 3)] == made[table]
    # The ids still count across the server: B's first match is A's second id.
    assert made[a][0] < made[b][0] < made[b][1] < made[a][1]
    # A number the table never gave is no match of it, whatever match it names at the other table.
    with pytest.raises(NoSuchMatch):
        match_id_of(ledger, 4, table=a)


def test_a_rematch_and_an_import_take_the_tables_next_number(ledger):
    a, b = create_table(ledger, "Club A").id, create_table(ledger, "Club B").id
    first = create_match(ledger, single("Ana", "Ben", gins=2), table=a)  # finished
    create_match(ledger, single("Cleo", "Dan"), table=b)
    rematch = create_rematch(ledger, first, table=a)
    assert rematch.created and get_match(ledger, rematch.id, table=a).number == 2
    imported = create_match(ledger, single("Ben", "Ana", gins=1), table=b)  # a match file's hands
    assert get_match(ledger, imported, table=b).number == 2


def test_a_deleted_match_keeps_its_number_and_the_next_match_takes_a_new_one(ledger):
    home = home_table(ledger).id
    one, two = (create_match(ledger, single("Ana", "Ben"), table=home) for _ in range(2))
    assert delete_match(ledger, two, table=home)
    assert match_id_of(ledger, 2, table=home) == two  # its restore is asked for by its number
    three = create_match(ledger, single("Ana", "Ben"), table=home)
    assert restore_match(ledger, two, table=home)
    assert [get_match(ledger, match_id, table=home).number for match_id in (one, two, three)] == [1, 2, 3]


def migrated_to(database: str, version: int):
    """A connection to `database` brought up to schema `version` only, as an older Gin Ledger left it."""
    conn = connect(database)
    with immediate(conn):
        dialect = dialect_of(conn)
        scripts = schema.migrations() if dialect == SQLITE else schema.migrations(dialect)
        for number, script in enumerate(scripts[:version], start=1):
            if dialect == SQLITE:
                for statement in schema.split_statements(script):
                    conn.execute(statement)
            else:
                conn.execute(script)
            schema.set_version(conn, number)
    return conn


def test_a_ledger_from_before_keeps_each_matchs_id_as_its_number(database):
    """Every address, bookmark, print and file name given out before names the same match after."""
    conn = migrated_to(database, 12)
    with immediate(conn):
        b = conn.execute("INSERT INTO play_table (key, name, created) VALUES ('b-key', 'Club B', 'then')"
                         " RETURNING id").fetchone()[0]
        players = {(table, name): conn.execute("INSERT INTO player (table_id, name, created) VALUES (?, ?, 'then')"
                                               " RETURNING id", (table, name)).fetchone()[0]
                   for table, name in ((1, "Ana"), (1, "Ben"), (b, "Ana"), (b, "Zoltan"))}
        ids = [conn.execute("INSERT INTO match (table_id, player1_id, player2_id, format, rules, first_dealer,"
                            " created, view_token) VALUES (?, ?, ?, 'single', '{}', 0, 'then', ?) RETURNING id",
                            (table, players[(table, one)], players[(table, two)], f"token-{turn}")).fetchone()[0]
               for turn, (table, one, two) in enumerate(((1, "Ana", "Ben"), (b, "Ana", "Zoltan"),
                                                         (1, "Ben", "Ana"), (b, "Zoltan", "Ana")))]
    conn.close()
    assert ids == [1, 2, 3, 4]
    ledger = open_ledger(database)
    try:
        assert match_numbers(ledger, table=1) == {1: 1, 3: 3}
        assert match_numbers(ledger, table=b) == {2: 2, 4: 4}
        # A new match goes on from its table's largest number.
        made = create_match(ledger, single("Ana", "Ben"), table=1)
        assert get_match(ledger, made, table=1).number == 4
        made = create_match(ledger, single("Ana", "Zoltan"), table=b)
        assert get_match(ledger, made, table=b).number == 5
    finally:
        ledger.close()
