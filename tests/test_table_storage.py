"""Storage of tables of three and four (issue 46) on both engines: a deal and its boards in one write,
undo, edit, delete, insert and restore of a whole deal, its history, the import of a whole file, and a
match of two stored before migration 14 reading the same after it."""
import json
import sqlite3

import pytest

from casefiles import CASES
from models.errors import MatchError
from models.files.matchfile import match_from_document
from models.storage import schema
from models.storage.connection import connect, migrate
from models.storage.hand_writes import add_hand, delete_hand, insert_hand_before, replace_hand, restore_hand
from models.storage.history import deleted_hands, hand_events
from models.storage.ledger_file import open_ledger
from models.storage.matches import create_match, get_match

HOME = 1
TABLE_CASES = sorted(path for path in (CASES / "tables").glob("*.json") if not path.name.startswith("error-"))


def document(path):
    doc = json.loads(path.read_text())
    return doc, doc.pop("expected")


@pytest.fixture
def ledger(database):
    conn = open_ledger(database)
    yield conn
    conn.close()


@pytest.mark.parametrize("path", TABLE_CASES, ids=lambda path: path.stem)
def test_an_imported_table_reads_back_as_entered_and_replays_as_the_case(ledger, path):
    doc, expected = document(path)
    match = match_from_document(doc)
    match_id = create_match(ledger, match, table=HOME)
    stored = get_match(ledger, match_id, table=HOME)
    assert stored.match == match
    assert stored.sheet().to_dict() == expected


@pytest.mark.parametrize("path", TABLE_CASES, ids=lambda path: path.stem)
def test_deals_saved_one_write_each_from_their_file_keys_fold_as_the_case(ledger, path):
    doc, expected = document(path)
    match = match_from_document(doc)
    match_id = create_match(ledger, match.with_hands(()), table=HOME)
    for number, raw in enumerate(doc["hands"], start=1):
        saved = add_hand(ledger, match_id, raw, form_id=f"f{number}", expected=number, table=HOME)
        assert saved.number == number
    stored = get_match(ledger, match_id, table=HOME)
    assert stored.match == match
    assert stored.sheet().to_dict() == expected
    assert [event.action for event in hand_events(ledger, match_id, table=HOME)] == ["entered"] * len(doc["hands"])


def partners(ledger):
    doc, _ = document(CASES / "tables" / "partners-example.json")
    return doc, create_match(ledger, match_from_document(doc), table=HOME)


def test_a_deal_is_edited_deleted_restored_and_inserted_whole(ledger):
    doc, match_id = partners(ledger)
    first = get_match(ledger, match_id, table=HOME)
    swapped = {"boards": [{"knocker": "Ben", "knocker_deadwood": 2, "opponent_deadwood": 12},
                          {"draw": True}]}
    replace_hand(ledger, match_id, 1, swapped, first.version, table=HOME)
    edited = get_match(ledger, match_id, table=HOME)
    line = edited.sheet().lines[0]
    assert line.outcome.winner == "Ben & Dan"
    assert line.outcome.points == 10
    assert [board.outcome.result for board in line.boards] == ["knock", "draw"]

    delete_hand(ledger, match_id, 1, edited.version, table=HOME)
    after_delete = get_match(ledger, match_id, table=HOME)
    assert len(after_delete.match.hands) == len(doc["hands"]) - 1
    (hand_id, number, values), = deleted_hands(ledger, match_id, table=HOME)
    assert (number, values) == (1, swapped)

    restore_hand(ledger, match_id, hand_id, after_delete.version, table=HOME, confirmed=True)
    restored = get_match(ledger, match_id, table=HOME)
    assert restored.match.hands == edited.match.hands

    typed = {"winner": "Cy", "points": 25}
    insert_hand_before(ledger, match_id, 2, typed, "ins", restored.version, table=HOME)
    inserted = get_match(ledger, match_id, table=HOME)
    assert inserted.match.hands[1].to_dict() == typed
    # the deal after it keeps its boards as entered, by seat (now deal 3: the fold pairs it anew)
    assert inserted.match.hands[2] == restored.match.hands[1]
    actions = [event.action for event in hand_events(ledger, match_id, table=HOME)]
    assert actions == ["changed", "deleted", "restored", "inserted"]


def test_a_board_refused_names_the_deal_the_board_and_the_field_and_nothing_is_stored(ledger):
    _, match_id = partners(ledger)
    before = get_match(ledger, match_id, table=HOME)
    bad = {"boards": [{"knocker": "Ana", "knocker_deadwood": 3, "opponent_deadwood": 20},
                      {"knocker": "Ana", "knocker_deadwood": 0, "opponent_deadwood": 10}]}
    with pytest.raises(MatchError) as refused:
        add_hand(ledger, match_id, bad, table=HOME)
    assert refused.value.field.startswith("boards.2.")
    assert refused.value.hand == len(before.match.hands) + 1
    after = get_match(ledger, match_id, table=HOME)
    assert (after.version, after.match) == (before.version, before.match)


def test_a_double_tap_on_a_deal_stores_it_once(ledger):
    _, match_id = partners(ledger)
    deal = {"boards": [{"draw": True}, {"knocker": "Cy", "knocker_deadwood": 4, "opponent_deadwood": 9}]}
    one = add_hand(ledger, match_id, deal, form_id="tap", table=HOME)
    two = add_hand(ledger, match_id, deal, form_id="tap", table=HOME)
    assert two.duplicate and two.number == one.number
    assert len(get_match(ledger, match_id, table=HOME).match.hands) == one.number


@pytest.mark.sqlite_only
def test_a_match_of_two_written_before_the_migration_keeps_its_rows_ids_and_history(tmp_path):
    path = str(tmp_path / "old.sqlite")
    conn = connect(path)
    scripts = schema.migrations()
    conn.execute("BEGIN IMMEDIATE")
    for script in scripts[:13]:
        for statement in schema.split_statements(script):
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 13")
    conn.execute("INSERT INTO player (id, table_id, name, created) VALUES (1, 1, 'Ana', 'x'), (2, 1, 'Ben', 'x')")
    conn.execute("INSERT INTO match (id, table_id, number, player1_id, player2_id, format, rules, first_dealer,"
                 " created, view_token) VALUES (7, 1, 1, 1, 2, 'single', '{}', 1, 'x', 'tok')")
    conn.execute("INSERT INTO hand (id, match_id, position, kind, knocker, knocker_deadwood, opponent_deadwood,"
                 " created) VALUES (11, 7, 1024, 'knock', 1, 3, 20, 'x')")
    conn.execute("INSERT INTO hand (id, match_id, position, kind, created, deleted) VALUES (12, 7, 2048, 'draw',"
                 " 'x', 'y')")
    conn.execute("INSERT INTO hand_event (id, match_id, hand_id, action, number, at, new) VALUES"
                 " (5, 7, 11, 'entered', 1, 'x', '{}'), (6, 7, 12, 'deleted', 2, 'x', NULL)")
    conn.execute("COMMIT")
    before = [tuple(row) for row in conn.execute("SELECT * FROM hand ORDER BY id")]
    events = [tuple(row) for row in conn.execute("SELECT * FROM hand_event ORDER BY id")]
    migrate(conn, path)
    assert [tuple(row) for row in conn.execute("SELECT * FROM hand ORDER BY id")] == before
    assert [tuple(row) for row in conn.execute("SELECT * FROM hand_event ORDER BY id")] == events
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    stored = get_match(conn, 7, table=HOME)
    assert stored.match.players == ("Ana", "Ben") and stored.match.dealer == "Ben"
    assert stored.match.hands[0].knocker == "Ben"
    conn.close()


def test_a_player_at_seat_three_or_four_is_renamed_merged_and_counted(ledger):
    from models.errors import PlayerProblem
    from models.storage.players import delete_player, merge_players, players_summary, rename_player
    _, match_id = partners(ledger)
    counts = {row["name"]: row["matches"] for row in players_summary(ledger, table=HOME)}
    assert counts == {"Ana": 1, "Ben": 1, "Cy": 1, "Dan": 1}
    rename_player(ledger, "Dan", "Daniel", table=HOME)
    assert get_match(ledger, match_id, table=HOME).match.players == ("Ana", "Ben", "Cy", "Daniel")
    with pytest.raises(PlayerProblem):
        merge_players(ledger, "Ana", "Daniel", table=HOME)  # they sat at one table: not one person
    with pytest.raises(PlayerProblem):
        delete_player(ledger, "Cy", table=HOME)
    doc, _ = document(CASES / "tables" / "chouette-three.json")
    other = create_match(ledger, match_from_document({**doc, "players": ["Eva", "Fay", "Dan2"],
                                                      "hands": [], "first_dealer": "Eva"}), table=HOME)
    assert merge_players(ledger, "Daniel", "Dan2", table=HOME) == 1
    assert get_match(ledger, other, table=HOME).match.players == ("Eva", "Fay", "Daniel")
