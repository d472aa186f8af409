"""The preview under the hand form says what saving will do: for every hand of every worked case.

Hand k is previewed on the match of hands 1..k-1 and compared with the replayed
result (engine) and with what saving it through the form then shows (endpoint);
a refused hand of an error case is refused naming the field the import names.
"""
from __future__ import annotations

import json

import pytest

from casefiles import playable_cases
from models.errors import MatchError
from models.ledger import score_sheet
from models.matchfile import load_match, read_document
from models.preview import INCOMPLETE, REFUSED, SCORED, preview_hand
from models.match import Match
from models.rules import Rules

CASES = {path.stem: path for path in playable_cases()}


def load(name: str) -> tuple[dict, dict]:
    doc = json.loads(CASES[name].read_text())
    return doc, doc.pop("expected")


def before(doc: dict, k: int) -> Match:
    """The case's match with its first k-1 hands (as stored just before hand k is entered)."""
    return read_document({**doc, "hands": doc["hands"][:k - 1]})


def import_refusal(doc: dict) -> MatchError:
    with pytest.raises(MatchError) as caught:
        load_match(json.dumps(doc))
    return caught.value


def replayed_closes(doc: dict, k: int) -> tuple[int, ...]:
    return score_sheet(read_document({**doc, "hands": doc["hands"][:k]})).lines[k - 1].closed


def scored_cases() -> list[str]:
    return [name for name in CASES if not name.startswith("error-")]


def refused_hands() -> list[str]:
    """The error cases refused at one of their hands (the others refuse the match's own fields)."""
    names = []
    for name in CASES:
        if name.startswith("error-"):
            doc, _ = load(name)
            if import_refusal(doc).hand is not None:
                names.append(name)
    return names


def test_the_cases_cover_what_the_preview_says():
    assert len(scored_cases()) >= 9 and len(refused_hands()) >= 7
    assert sum(len(load(name)[0]["hands"]) for name in scored_cases()) >= 50


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name", scored_cases())
def test_every_hand_previews_as_it_replays(name):
    doc, expected = load(name)
    for k, raw in enumerate(doc["hands"], start=1):
        preview = preview_hand(before(doc, k), raw)
        assert preview.status == SCORED, (k, preview.refusal)
        assert preview.line.to_dict() == expected["hands"][k - 1], k
        assert preview.line.closed == replayed_closes(doc, k), k


@pytest.mark.parametrize("name", scored_cases())
def test_every_hand_previewed_as_its_own_edit_is_unchanged(name):
    doc, expected = load(name)
    match = read_document(doc)
    for k, raw in enumerate(doc["hands"], start=1):
        assert preview_hand(match, raw, number=k).line.to_dict() == expected["hands"][k - 1], k


@pytest.mark.parametrize("name", refused_hands())
def test_the_refused_hand_is_refused_in_the_preview_naming_the_same_field(name):
    doc, _ = load(name)
    refusal = import_refusal(doc)
    preview = preview_hand(before(doc, refusal.hand), doc["hands"][refusal.hand - 1])
    assert preview.status == REFUSED and preview.line is None
    assert preview.refusal.field == refusal.field


def test_oklahoma_limits_and_spades_double():
    doc, expected = load("oklahoma-spades-double")
    doubled = [preview_hand(before(doc, k), raw).doubled for k, raw in enumerate(doc["hands"], start=1)]
    assert doubled == [False, True, True, False, False, False]  # 7S and AS double; a typed-points hand never
    assert [h["points"] for h in expected["hands"][1:3]] == [50, 74]
    match = before(doc, 1)
    assert [preview_hand(match, {"upcard": up}).limit for up in ("3H", "7S", "KD", "10C", "AS")] == [3, 7, 10, 10, 0]
    assert preview_hand(match, {}).limit == 10  # no upcard yet: the table's limit until one is chosen
    assert preview_hand(match, {"upcard": "1X"}).limit == 10


def test_over_the_upcards_limit_is_the_engines_refusal():
    match = before(load("oklahoma-spades-double")[0], 1)
    preview = preview_hand(match, {"knocker": "Ema", "knocker_deadwood": 5, "opponent_deadwood": 20, "upcard": "3H"})
    assert (preview.status, preview.refusal.field, preview.limit) == (REFUSED, "knocker_deadwood", 3)
    missing = preview_hand(match, {"knocker": "Ema", "knocker_deadwood": 2, "opponent_deadwood": 20})
    assert (missing.status, missing.refusal.field) == (REFUSED, "upcard")


def test_an_entry_not_yet_complete_says_nothing():
    match = Match(players=("Ana", "Ben"), rules=Rules(knock_limit=7))
    for raw in ({}, {"knocker": "Ana"}, {"knocker": "Ana", "knocker_deadwood": 3}, {"opponent_deadwood": 20},
                {"winner": "Ana"}, {"points": 12}):
        preview = preview_hand(match, raw)
        assert (preview.status, preview.limit, preview.line, preview.refusal) == (INCOMPLETE, 7, None, None), raw
    assert preview_hand(match, {"draw": True}).status == SCORED


def test_after_gin_the_defender_does_not_lay_off():
    match = Match(players=("Ana", "Ben"))
    assert not preview_hand(match, {"knocker": "Ana", "knocker_deadwood": 0}).lays_off
    assert preview_hand(match, {"knocker": "Ana", "knocker_deadwood": 1}).lays_off
    assert preview_hand(match, {}).lays_off


def test_an_edit_that_would_end_the_match_early_is_refused():
    doc, _ = load("modern-preset-single")
    match = read_document(doc)
    preview = preview_hand(match, {"winner": match.players[0], "points": 500}, number=1)
    assert preview.status == REFUSED and preview.refusal.field == "hand" and preview.refusal.hand == 2
