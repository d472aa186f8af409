"""What the ladder reads from storage (models/storage/club.py), on both engines: the finished matches with their
players' ids, a write of any kind re-rating, the table's version, the provisional setting."""
from __future__ import annotations

import pytest

from models.storage.hand_writes import add_hand, delete_hand, replace_hand

from models.storage.ledger_file import open_ledger

from models.storage.matches import create_match, delete_match, get_match, restore_match

from models.storage.players import merge_players, rename_player
from models.storage.club import (finished_results, provisional_count, set_provisional_count, table_rules,
                         table_version)
from models.errors import MatchError
from models.game.hand import KNOCK, Hand
from models.game.match import Match
from models.game.ratings import rate
from models.game.presets import PRESETS

HOME = 1


def gin(knocker: str) -> Hand:
    return Hand(KNOCK, knocker=knocker, knocker_deadwood=0, opponent_deadwood=60)


def single(one: str, two: str, *winners: str) -> Match:
    return Match((one, two), "single", one, hands=tuple(gin(name) for name in winners))


@pytest.fixture
def ledger(database):
    conn = open_ledger(database)
    yield conn
    conn.close()


def ratings(conn):
    results, names, _ = finished_results(conn, table=HOME)
    return {names[player]: rated for player, rated in rate(results).items()}


def test_only_finished_matches_rate_and_a_rename_keeps_the_rating(ledger):
    create_match(ledger, single("Ana", "Ben", "Ana", "Ana"), table=HOME)
    create_match(ledger, single("Ana", "Cyril", "Cyril"), table=HOME)  # still being played
    before = ratings(ledger)
    assert set(before) == {"Ana", "Ben"} and before["Ana"].won == 1
    rename_player(ledger, "Ana", "Anna", table=HOME)
    after = ratings(ledger)
    assert set(after) == {"Anna", "Ben"}
    assert after["Anna"].player == before["Ana"].player and after["Anna"].mu == before["Ana"].mu


def test_an_edit_that_changes_an_early_result_re_rates_everything_after(ledger):
    first = create_match(ledger, single("Ana", "Ben", "Ana", "Ben", "Ana"), table=HOME)
    create_match(ledger, single("Ben", "Cyril", "Ben", "Ben"), table=HOME)
    before = ratings(ledger)
    stored = get_match(ledger, first, table=HOME)
    replace_hand(ledger, first, 3, gin("Ben"), stored.version, table=HOME)
    after = ratings(ledger)
    assert (after["Ana"].won, after["Ben"].won) == (0, 2)
    assert after["Cyril"].mu != before["Cyril"].mu  # Ben came to the second match rated otherwise
    assert table_version(ledger, table=HOME) != ()


def test_a_deleted_match_rates_nobody_and_its_restore_brings_the_ratings_back(ledger):
    first = create_match(ledger, single("Ana", "Ben", "Ana", "Ana"), table=HOME)
    create_match(ledger, single("Ana", "Ben", "Ben", "Ben"), table=HOME)
    whole = ratings(ledger)
    version = table_version(ledger, table=HOME)
    delete_match(ledger, first, table=HOME)
    assert table_version(ledger, table=HOME) != version
    assert ratings(ledger)["Ana"].matches == 1
    restore_match(ledger, first, table=HOME)
    assert ratings(ledger) == whole


def test_a_merge_makes_one_player_with_one_rating(ledger):
    create_match(ledger, single("Ana", "Ben", "Ana", "Ana"), table=HOME)
    create_match(ledger, single("Anička", "Cyril", "Anička", "Anička"), table=HOME)
    merge_players(ledger, "Ana", "Anička", table=HOME)
    found = ratings(ledger)
    assert set(found) == {"Ana", "Ben", "Cyril"} and (found["Ana"].matches, found["Ana"].won) == (2, 2)


def test_the_provisional_count_is_five_until_set_and_refused_out_of_bounds(ledger):
    assert provisional_count(ledger, table=HOME) == 5
    set_provisional_count(ledger, 3, table=HOME)
    assert provisional_count(ledger, table=HOME) == 3
    for wrong in (-1, 51, "4", True):
        with pytest.raises(MatchError):
            set_provisional_count(ledger, wrong, table=HOME)
    assert provisional_count(ledger, table=HOME) == 3


def test_a_suggested_match_takes_the_rules_of_the_tables_latest_match(ledger):
    assert table_rules(ledger, table=HOME) == ("hollywood", PRESETS["classic"], None)
    create_match(ledger, Match(("Ana", "Ben"), "single", "Ana", rules=PRESETS["modern"]), table=HOME)
    assert table_rules(ledger, table=HOME) == ("single", PRESETS["modern"], None)


def test_the_ratings_version_moves_with_the_finished_matches_only(ledger):
    from models.storage.club import results_version

    done = create_match(ledger, single("Ana", "Ben", "Ana", "Ana"), table=HOME)
    playing = create_match(ledger, single("Ana", "Cyril"), table=HOME)
    first = results_version(ledger, table=HOME)
    seen = {first}

    def moved() -> bool:
        now = results_version(ledger, table=HOME)
        fresh = now not in seen
        seen.add(now)
        return fresh

    add_hand(ledger, playing, gin("Cyril"), table=HOME)
    assert not moved()  # a hand of a match still being played changes no rating
    add_hand(ledger, playing, gin("Cyril"), table=HOME)
    assert moved()  # it finished
    stored = get_match(ledger, playing, table=HOME)
    delete_hand(ledger, playing, 2, stored.version, table=HOME)
    assert moved()  # open again: the club book moved on, though the finished matches are those of `first`
    stored = get_match(ledger, done, table=HOME)
    replace_hand(ledger, done, 1, Hand(KNOCK, knocker="Ana", knocker_deadwood=2, opponent_deadwood=60),
                         stored.version, table=HOME)
    assert moved()  # a finished match edited
    delete_match(ledger, done, table=HOME)
    assert moved()
    restore_match(ledger, done, table=HOME)
    assert moved()
    rename_player(ledger, "Ben", "Benedikt", table=HOME)
    assert moved()
    assert finished_results(ledger, table=HOME)[2] == results_version(ledger, table=HOME)  # what was read is keyed so


def old_sums(conn) -> tuple:
    """The ladder's key before issue 45: over the finished matches not deleted, the count and the sums of ids and
    versions."""
    row = conn.execute("SELECT COUNT(*) AS count, COALESCE(SUM(id), 0) AS ids, COALESCE(SUM(version), 0) AS versions"
                       " FROM match WHERE table_id = ? AND finished IS NOT NULL AND deleted IS NULL",
                       (HOME,)).fetchone()
    return int(row["count"]), int(row["ids"]), int(row["versions"])


def test_the_ladder_key_moves_where_the_old_sums_repeat(ledger):
    """Issue 45: two finished matches deleted and two others finished with the same sums of ids and versions gave
    the old key again, and the ladder showed the deleted matches' ratings. The club book's version does not repeat."""
    from models.storage.club import results_version

    small = Hand(KNOCK, knocker="Ana", knocker_deadwood=5, opponent_deadwood=6)
    first, second, third, fourth = ids = [create_match(ledger, single("Ana", "Ben"), table=HOME) for _ in range(4)]
    assert ids == list(range(first, first + 4))  # so first + fourth == second + third
    for match_id in (first, fourth):
        for hand in [small] * 8 + [gin("Ana")] * 2:
            add_hand(ledger, match_id, hand, table=HOME)
    before, sums = results_version(ledger, table=HOME), old_sums(ledger)
    rated = rate(finished_results(ledger, table=HOME)[0])
    names = {row["name"]: row["id"] for row in ledger.execute("SELECT id, name FROM player WHERE table_id = ?", (HOME,))}
    assert rated[names["Ana"]].rating > rated[names["Ben"]].rating
    delete_match(ledger, first, table=HOME)
    delete_match(ledger, fourth, table=HOME)
    versions = get_match(ledger, second, table=HOME).version + get_match(ledger, third, table=HOME).version
    for _ in range(sums[2] - versions - 4):  # each of the four winning hands below bumps a version once
        add_hand(ledger, second, small, table=HOME)
    for match_id in (second, third):
        add_hand(ledger, match_id, gin("Ben"), table=HOME)
        add_hand(ledger, match_id, gin("Ben"), table=HOME)
    assert old_sums(ledger) == sums  # the old key would have found the old ratings
    assert results_version(ledger, table=HOME) != before
    rated = rate(finished_results(ledger, table=HOME)[0])
    assert rated[names["Ben"]].rating > rated[names["Ana"]].rating
