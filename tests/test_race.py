"""The race kept from one saved hand to the next is the race worked out anew, and never another sheet's."""
import json

import pytest

from models.caches import BoundedCache
from models.errors import MatchOver
from models.hand import POINTS, Hand
from models.ledger import Sheet, score_sheet, sheet_after
from models.matchfile import load_match
from models.race import WALKED, entry_size, race_key, race_of
from casefiles import case
from generate import long_match



def closing(target: int) -> dict:
    """A long match to a low target: its games close one after another, past WALKED hands."""
    doc = long_match(WALKED * 20, seed=7)
    doc["rules"]["target"] = target
    try:
        load_match(json.dumps(doc))
    except MatchOver as over:  # the hands past the match's end go
        doc["hands"] = doc["hands"][:over.hand - 1]
    return doc


# Short games (walked), games that close late (kept, then fixed), and a long open match.
DOCS = {"full-hollywood-match": lambda: case("full-hollywood-match"), "closing": lambda: closing(400),
        "long": lambda: long_match(WALKED * 4, seed=5)}


def folded_hand_by_hand(doc: dict) -> list[Sheet]:
    """The sheets a table steps through saving the match's hands one by one, as the app does."""
    match = load_match(json.dumps(doc))
    sheets = [score_sheet(match.with_hands(()))]
    for hand in match.hands:
        sheets.append(sheet_after(sheets[-1], hand))
    return sheets


class Counting(BoundedCache):
    """Counts the races that had to be walked from the first hand (a put without a kept prefix)."""

    def __init__(self):
        super().__init__(1 << 20, size_of=entry_size)
        self.misses = 0

    def get(self, key):
        found = super().get(key)
        self.misses += found is None
        return found


@pytest.mark.parametrize("name", DOCS)
def test_each_saved_hand_extends_the_kept_race_and_equals_the_race_anew(name):
    kept = Counting()
    sheets = folded_hand_by_hand(DOCS[name]())
    for sheet in sheets[1:]:
        for game in sheet.games:
            assert race_of(sheet, game.number, kept) == race_of(sheet, game.number)
    assert len(kept) > 0 or name == "full-hollywood-match", "no race was long enough to be kept"
    # Per saved hand each game is looked up once (found) or twice (its last line's race, then the
    # line before's, found); a race walked from the first hand each time would miss both.
    assert kept.misses <= len(sheets[-1].games) * (len(sheets) - 1)


def test_a_sheet_folded_anew_is_not_given_the_old_sheets_race():
    """An edit folds the match again: its lines are new, so the race kept for the old lines is not used."""
    kept = Counting()
    before = folded_hand_by_hand(DOCS["long"]())[-1]
    for game in before.games:
        race_of(before, game.number, kept)
    hands = before.match.hands
    loser = next(name for name in before.players if name != before.lines[0].outcome.winner)
    edited = score_sheet(before.match.with_hands((Hand(POINTS, winner=loser, points=99), *hands[1:])))
    for game in edited.games:
        assert race_of(edited, game.number, kept) == race_of(edited, game.number)
    assert race_of(edited, 1, kept) != race_of(before, 1, kept)


def test_the_kept_race_holds_its_line_so_its_key_is_not_reused():
    kept = BoundedCache(1 << 20, size_of=entry_size)
    sheet = folded_hand_by_hand(DOCS["long"]())[WALKED + 1]
    race_of(sheet, 1, kept)
    entry = kept.get(race_key(sheet.lines[WALKED], 1, sheet.players))
    assert entry[0] is sheet.lines[WALKED]
