"""What a hand would do before it is saved, found the way saving finds it.

The hand form's live preview asks this (through views/match/preview.py) rather than
keeping a copy of the rules in the page script: the entry is read by the same
`read_entry` and scored by the same fold as when it is saved, so the sentence
under the form and the sheet after saving cannot disagree. The next hand steps
the stored sheet by one hand (`sheet_after`, as `storage.add_hand` does), so a
tap costs the same at hand 1,000 as at hand 10; an edited hand folds the match
anew, since every hand after it may change.
"""
from __future__ import annotations

from dataclasses import dataclass

from .cards import CardError, parse_card
from .entry import read_entry, read_upcard
from models.errors import MatchError
from .hand import Hand, knock_limit
from .ledger import Line, Sheet, score_sheet, sheet_after
from .match import Match
from .rules import Rules

INCOMPLETE, REFUSED, SCORED = "incomplete", "refused", "scored"

# The keys an entry needs before reading it means anything: until the knocker and both
# counts are tapped (or the winner and the points typed) there is nothing to say yet.
KNOCK_NEEDS = ("knocker", "knocker_deadwood", "opponent_deadwood")
POINTS_NEEDS = ("winner", "points")


@dataclass(frozen=True)
class Preview:
    """The answer: the deal's knock limit, and the hand's row or the engine's refusal (or neither yet)."""

    limit: int
    lays_off: bool = True  # the defender's count is after lay-offs (not after gin)
    line: Line | None = None
    refusal: MatchError | None = None

    @property
    def status(self) -> str:
        if self.line is not None:
            return SCORED
        return REFUSED if self.refusal is not None else INCOMPLETE


def preview_hand(sheet: Sheet, raw: dict, number: int | None = None) -> Preview:
    """The outcome of the entry `raw` (match-file keys) as the next hand after the folded `sheet`
    (the stored match's own, `StoredMatch.sheet()`), or as hand `number` replaced."""
    match = sheet.match
    limit, lays_off = deal_limit(match.rules, raw.get("upcard")), defender_lays_off(raw)
    if not complete(raw):
        return Preview(limit, lays_off, refusal=upcard_first(match.rules, raw))
    try:
        hand = read_entry(raw, match.players, match.rules)
        line = next_line(sheet, hand) if number is None else folded_line(match, hand, number)
    except MatchError as error:
        return Preview(limit, lays_off, refusal=error)
    return Preview(limit, lays_off, line=line)


def upcard_first(rules: Rules, raw: dict) -> MatchError | None:
    """Oklahoma: a knock tapped before its upcard gets the save's own refusal at once, so the
    preview promises no score (nor the table's limit) that the save would refuse."""
    if not rules.oklahoma or not any(key in raw for key in KNOCK_NEEDS):
        return None
    try:
        read_upcard(raw, rules, required=True)
    except MatchError as error:
        return error
    return None


def deal_limit(rules: Rules, upcard: object) -> int:
    """The knock limit with this upcard; none yet, or not a card, leaves the table's own (saving names the upcard)."""
    try:
        code = None if upcard is None else parse_card(upcard).code
    except CardError:
        code = None
    return knock_limit(rules, code)


def defender_lays_off(raw: dict) -> bool:
    """After gin (the knocker's 0) the defender may not lay off: the form then asks for the count as held."""
    return raw.get("knocker_deadwood") != 0


def complete(raw: dict) -> bool:
    if "draw" in raw:
        return True
    needs = POINTS_NEEDS if "winner" in raw or "points" in raw else KNOCK_NEEDS
    return all(key in raw for key in needs)


def next_line(sheet: Sheet, hand: Hand) -> Line:
    """The next hand's row: the stored sheet stepped by one hand, the fold's own step, as saving steps it.
    A hand after the last game is refused by that step (`MatchOver` of that hand), as a whole fold refuses it."""
    return sheet_after(sheet, hand).lines[-1]


def folded_line(match: Match, hand: Hand, number: int) -> Line:
    """Hand `number` replaced, after folding the whole match with it: its games depend on every hand before it,
    and an edit may also refuse a later hand (the match would end before it)."""
    if not 1 <= number <= len(match.hands):
        raise ValueError(f"there is no hand {number} to replace")
    hands = match.hands[:number - 1] + (hand,) + match.hands[number:]
    return score_sheet(match.with_hands(hands)).lines[number - 1]
