"""A hand as the players entered it, and what it scores.

The entry is stored exactly as typed (the ledger is a fold over entries);
`score` turns one entry into an Outcome using the match's rules.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import parse_card
from .rules import OklahomaAce, Rules


class HandKind(enum.StrEnum):
    """What a hand was entered as; a gin and a big gin are knocks (their result says which)."""

    KNOCK = "knock"
    DRAW = "draw"
    POINTS = "points"


KNOCK, DRAW, POINTS = HandKind.KNOCK, HandKind.DRAW, HandKind.POINTS  # the names callers import
MAX_DEADWOOD = 98  # two each of K, Q, J, 10 and 9 with no run


@dataclass(frozen=True)
class Hand:
    """One deal. `kind` is knock (gin and big gin included), draw or points.

    `big_gin` keeps None apart from False so a file round-trips unchanged.
    """

    kind: HandKind
    knocker: str | None = None
    knocker_deadwood: int | None = None
    opponent_deadwood: int | None = None
    big_gin: bool | None = None
    upcard: str | None = None
    winner: str | None = None
    points: int | None = None
    cards: dict | None = None

    def __post_init__(self) -> None:
        """A kind given as its word (the database's column) is held as its member."""
        object.__setattr__(self, "kind", HandKind(self.kind))

    def to_dict(self) -> dict:
        """The hand in match-file form, with only the keys it was entered with."""
        if self.kind == HandKind.DRAW:
            out: dict = {"draw": True}
        elif self.kind == HandKind.POINTS:
            out = {"winner": self.winner, "points": self.points}
        else:
            out = {
                "knocker": self.knocker,
                "knocker_deadwood": self.knocker_deadwood,
                "opponent_deadwood": self.opponent_deadwood,
            }
            if self.big_gin is not None:
                out["big_gin"] = self.big_gin
        if self.upcard is not None:
            out["upcard"] = self.upcard
        if self.cards is not None:
            out["cards"] = {k: list(v) for k, v in self.cards.items()}
        return out


@dataclass(frozen=True)
class Outcome:
    """What a hand did: its result name, who won it (None for a draw), the points.

    `doubled` says an Oklahoma spade upcard doubled the points, so the sheet and the
    flash can say why a knock of 10 wrote 20. `boxes` is what the win earns in each game
    it is written into (RULES.md "Variants": gin_boxes, undercut_boxes, spade_double_boxes),
    so the ledger, the settlement and the records count boxes one way."""

    result: str
    winner: str | None
    points: int
    doubled: bool = False
    boxes: int = 1


def knock_limit(rules: Rules, upcard: str | None) -> int:
    """Oklahoma: the upcard's value sets the deal's limit; an ace means gin only, or 1 with `oklahoma_ace` "one"."""
    if rules.oklahoma and upcard is not None:
        card = parse_card(upcard)
        return ace_limit(rules) if card.rank == 1 else card.value
    return rules.knock_limit


def ace_limit(rules: Rules) -> int:
    """The knock limit an ace upcard sets: the table chooses gin only (0) or a knock with 1."""
    return 1 if rules.oklahoma_ace == OklahomaAce.ONE else 0


def spades_doubled(rules: Rules, upcard: str | None) -> bool:
    return bool(rules.oklahoma and rules.spade_double and upcard and upcard.endswith("S"))


def most_points(rules: Rules) -> int:
    """The most one hand can score under `rules`, so a typed score above it can be questioned.

    A gin (or big gin) against the largest deadwood, or the largest undercut of any deal's
    limit (Oklahoma's limits go up to 10), doubled when a spade upcard may double it.
    """
    knock_top = 10 if rules.oklahoma else rules.knock_limit
    most = max(MAX_DEADWOOD + max(rules.gin_bonus, rules.big_gin_bonus), knock_top + rules.undercut_bonus)
    return most * 2 if rules.oklahoma and rules.spade_double else most


def other(players: tuple[str, str], name: str) -> str:
    return players[1] if name == players[0] else players[0]


def score(hand: Hand, players: tuple[str, str], rules: Rules) -> Outcome:
    """Score one valid hand under `rules`."""
    if hand.kind == HandKind.DRAW:
        return Outcome("draw", None, 0, boxes=0)
    if hand.kind == HandKind.POINTS:
        return Outcome("points", hand.winner, hand.points)
    outcome = score_knock(hand, players, rules)
    if spades_doubled(rules, hand.upcard):
        boxes = outcome.boxes * 2 if rules.spade_double_boxes else outcome.boxes
        return Outcome(outcome.result, outcome.winner, outcome.points * 2, doubled=True, boxes=boxes)
    return outcome


def score_knock(hand: Hand, players: tuple[str, str], rules: Rules) -> Outcome:
    """A knock, gin or undercut with the boxes its kind earns; a tie is the knocker's for 0
    when the table plays `undercut_on_tie` false."""
    kd, od = hand.knocker_deadwood, hand.opponent_deadwood
    if kd == 0:
        # Gin is never undercut, even against a defender who also holds 0.
        if hand.big_gin:
            return Outcome("big_gin", hand.knocker, od + rules.big_gin_bonus, boxes=rules.gin_boxes)
        return Outcome("gin", hand.knocker, od + rules.gin_bonus, boxes=rules.gin_boxes)
    if kd < od or (kd == od and not rules.undercut_on_tie):
        return Outcome("knock", hand.knocker, od - kd)
    return Outcome("undercut", other(players, hand.knocker), kd - od + rules.undercut_bonus,
                   boxes=rules.undercut_boxes)
