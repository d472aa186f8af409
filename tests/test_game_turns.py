"""What a change does to a game's and the match's result is said as it will stand and as it stood (issue 45):
the delete question used to say "Game 1 is now closed: Ben wins it" of a game Ana had won."""
from __future__ import annotations

import json

from models.files.matchfile import load_match
from models.game.changes import closed_changes, deletion_changes, game_changes, without_hand
from models.game.ledger import score_sheet

# Hollywood: deleting hand 3 moves Ben's 70 of hand 4 into game 1, which Ben then wins instead of Ana.
TURNED = [{"winner": "Ben", "points": 40}, {"winner": "Ana", "points": 30}, {"winner": "Ana", "points": 80},
          {"winner": "Ben", "points": 70}]
# One game to 100: Ana's 50 of hand 3 closes it and the match.
CLOSED = [{"winner": "Ana", "points": 60}, {"winner": "Ben", "points": 30}, {"winner": "Ana", "points": 50}]


def match(hands: list[dict], format: str = "hollywood"):
    return load_match(json.dumps({"format": format, "players": ["Ana", "Ben"], "first_dealer": "Ana", "hands": hands}))


def words(messages) -> list[str]:
    return [str(message) for message in messages]


def test_a_game_that_goes_to_the_other_player_says_who_had_won_it():
    turned = match(TURNED)
    said = words(deletion_changes(score_sheet(turned), without_hand(turned, 3), 3))
    assert said[-1] == "Game 1 is now won by Ben (before: by Ana)."
    assert not any("is now closed" in line for line in said), said


def test_a_game_and_match_that_reopen_say_who_had_won_them():
    closed = match(CLOSED, "single")
    said = words(deletion_changes(score_sheet(closed), without_hand(closed, 3), 3))
    assert said[-2:] == ["Game 1 is open again (before: won by Ana).",
                         "The match is no longer over (before: won by Ana)."]


def test_an_edit_that_closes_a_game_and_the_match_says_they_were_open():
    before = score_sheet(match(CLOSED[:2] + [{"winner": "Ana", "points": 5}], "single"))
    after = score_sheet(match(CLOSED, "single"))
    assert words(game_changes(before, after)) == ["Game 1 is now closed: Ana wins it (before: still open).",
                                                  "The match is now over: Ana wins it (before: still being played)."]
    assert words(game_changes(after, after)) == []


def test_a_restore_that_changes_the_result_says_both():
    """A put-back hand that takes a won game and the match from one player to the other (the restore's question)."""
    hands = [{"winner": "Ana", "points": 60}, {"winner": "Ben", "points": 60}, {"winner": "Ana", "points": 45}]
    won_by_ana = score_sheet(match(hands, "single"))
    won_by_ben = score_sheet(match(hands[:2] + [{"winner": "Ben", "points": 45}], "single"))
    assert words(closed_changes(won_by_ana, won_by_ben, 3))[-2:] == [
        "Game 1 is now won by Ben (before: by Ana).", "Ben now wins the match (before: Ana)."]
