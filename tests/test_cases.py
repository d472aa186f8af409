"""Every worked match in tests/cases replays to exactly its expected output."""
import json
import pytest

from models.errors import MatchError, MatchOver
from models.game.ledger import score_sheet, sheet_after
from models.files.matchfile import load_match, replay

from casefiles import case_params, playable_cases


@pytest.mark.parametrize("path", case_params())
def test_case_replays_exactly(path):
    doc = json.loads(path.read_text())
    expected = doc.pop("expected")
    text = json.dumps(doc)
    if expected == {"error": True}:
        with pytest.raises(MatchError):
            replay(text)
    else:
        assert replay(text) == expected


def test_cases_are_there():
    assert len(playable_cases()) >= 19


def played_cases() -> list:
    """The cases with a sheet (not a file the reader refuses before any hand is folded)."""
    return [path for path in playable_cases() if json.loads(path.read_text())["expected"] != {"error": True}]


@pytest.mark.parametrize("path", played_cases(), ids=lambda path: path.stem)
def test_case_folded_one_hand_at_a_time_agrees(path):
    """A saved hand steps the stored sheet (models.ledger.sheet_after): on every case it is the fold,
    and a hand the fold refuses (after the match is over) is refused by the step too."""
    doc = json.loads(path.read_text())
    match = load_match(json.dumps({k: v for k, v in doc.items() if k != "expected"}))
    stepped = score_sheet(match.with_hands(()))
    for hand in match.hands:
        stepped = sheet_after(stepped, hand)
    assert stepped == score_sheet(match)
    if stepped.finished:
        with pytest.raises(MatchOver):
            sheet_after(stepped, match.hands[-1])
