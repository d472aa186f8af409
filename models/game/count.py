"""Advice from tapped cards: may the knocker knock (gin, big gin, which discard), and the defender's count.

The solver (models/game/melds.py) only arranges cards; the knock rules (the
limit, Oklahoma's upcard, gin, big gin with 11, lay-offs only after a knock)
are added here, once, for the count page, its JSON and anyone else. Plain
Python like the rest of the engine: the words are English `Message`
templates that the web layer translates, so no page or script words or
decides anything of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from .cards import HAND_SIZE, MOST_HELD, Card
from models.errors import N_, Message, Plural
from .hand import knock_limit
from .melds import Arrangement, best_after_layoffs, best_arrangement
from .rules import Rules

# What a side's cards come to.
INCOMPLETE = "incomplete"   # fewer than 10 cards tapped
TOO_MANY = "too_many"       # a defender with more than 10
GIN = "gin"
BIG_GIN = "big_gin"         # 11 cards all melded
KNOCK = "knock"             # within the limit
OVER = "over"               # over the limit: may not knock
COUNTED = "counted"         # a defender's 10 cards

OKLAHOMA = Rules(oklahoma=True)


@dataclass(frozen=True)
class Limit:
    """The deal's knock limit and how a sentence names it (Oklahoma names the upcard)."""

    points: int
    phrase: Message


def fixed_limit(points: int) -> Limit:
    return Limit(points, Message(N_("the knock limit {limit}"), limit=points))


def upcard_limit(upcard: Card, rules: Rules = OKLAHOMA) -> Limit:
    """Oklahoma: the upcard's value is the limit; an ace means gin only, or 1 with `oklahoma_ace`
    "one" (as models/game/hand.py scores it). Without a match's rules, the default ace: gin only."""
    points = knock_limit(rules if rules.oklahoma else OKLAHOMA, upcard.code)
    if points == 0:
        return Limit(0, Message(N_("the Oklahoma limit 0 (upcard {upcard}, an ace: gin only)"), upcard=upcard.face))
    return Limit(points, Message(N_("the Oklahoma limit {limit} (upcard {upcard})"), limit=points, upcard=upcard.face))


def deal_limit(rules: Rules, upcard: Card | None) -> Limit:
    """The limit the match's rules set for this deal; without an upcard an Oklahoma deal has the rules' limit."""
    if rules.oklahoma and upcard is not None:
        return upcard_limit(upcard, rules)
    return fixed_limit(knock_limit(rules, None))


@dataclass(frozen=True)
class Count:
    """One side's cards counted: the arrangement, the status, the advice and the deadwood to enter."""

    arrangement: Arrangement
    status: str
    text: Message
    count: int | None            # the deadwood to enter, None until the hand is complete
    discard: Card | None = None  # the knocker's best discard from 11
    onto: tuple[tuple[Card, ...], ...] = ()  # the knocker's melds the defender laid off onto

    @property
    def gin(self) -> bool:
        return self.status in (GIN, BIG_GIN)

    @property
    def knocks(self) -> bool:
        """A complete knocker's hand that is not gin: the defender may lay off onto it."""
        return self.status in (KNOCK, OVER)

    def to_dict(self, say: Callable[[Message], str] = str) -> dict:
        """Card codes and the advice in words (`say` translates it), ready for JSON."""
        out = self.arrangement.to_dict()
        out.update(status=self.status, text=say(self.text), count=self.count,
                   discard=self.discard.code if self.discard else None,
                   onto=[[card.code for card in meld] for meld in self.onto])
        return out


def tapped(count: int) -> Message:
    return Plural("{count} of 10 cards tapped.", "{count} of 10 cards tapped.", count)


# --------------------------------------------------------------------------
# The knocker
# --------------------------------------------------------------------------

def count_knocker(cards: Sequence[Card], limit: Limit) -> Count:
    """Gin, big gin, may knock or may not; with 11 cards, after the best discard."""
    cards = list(cards)
    if len(cards) < HAND_SIZE:
        return Count(best_arrangement(cards), INCOMPLETE, tapped(len(cards)), None)
    arrangement = best_arrangement(cards)
    if len(cards) == MOST_HELD and arrangement.points == 0:
        return Count(arrangement, BIG_GIN, Message(N_("Big gin: all 11 cards melded (no lay-offs).")), 0)
    discard = None
    if len(cards) == MOST_HELD:
        discard, arrangement = best_discard(cards)
    status, text = knock_advice(arrangement.points, limit)
    if discard is not None:
        text = Message(N_("Discard {card}: {then}"), card=discard.face, then=text)
    return Count(arrangement, status, text, arrangement.points, discard)


def knock_advice(points: int, limit: Limit) -> tuple[str, Message]:
    if points == 0:
        return GIN, Message(N_("Gin: all 10 cards melded (no lay-offs)."))
    if points <= limit.points:
        return KNOCK, Message(N_("May knock with {points} (within {limit})."), points=points, limit=limit.phrase)
    return OVER, Message(N_("Cannot knock: {points} is over {limit}."), points=points, limit=limit.phrase)


def best_discard(cards: Sequence[Card]) -> tuple[Card, Arrangement]:
    """With 11 cards the knocker discards one: the discard leaving the least deadwood."""
    best: tuple[Card, Arrangement] | None = None
    for card in sorted(cards, key=lambda c: (-c.value, c)):  # ties: throw the higher card
        arrangement = best_arrangement([c for c in cards if c != card])
        if best is None or arrangement.points < best[1].points:
            best = (card, arrangement)
    return best


# --------------------------------------------------------------------------
# The defender
# --------------------------------------------------------------------------

def count_defender(cards: Sequence[Card], knocker: Count | None) -> Count:
    """After a knock the defender lays off onto the knocker's melds; never after gin."""
    onto = knocker.arrangement.melds if knocker is not None and knocker.knocks else ()
    return count_onto(cards, onto)


def count_onto(cards: Sequence[Card], onto: Sequence[Sequence[Card]]) -> Count:
    """A defender's cards laid off onto the given melds (none: no lay-offs)."""
    cards, onto = list(cards), tuple(tuple(meld) for meld in onto)
    arrangement = best_after_layoffs(cards, onto) if onto else best_arrangement(cards)
    if len(cards) < HAND_SIZE:
        return Count(arrangement, INCOMPLETE, tapped(len(cards)), None, onto=onto)
    if len(cards) > HAND_SIZE:
        return Count(arrangement, TOO_MANY, Message(N_("The defender holds 10 cards; untap one.")), None, onto=onto)
    points = arrangement.points
    if onto:
        text = Plural("Deadwood {points} after laying off {count} card.",
                      "Deadwood {points} after laying off {count} cards.", len(arrangement.laid_off),
                      points=points)
    else:
        text = Message(N_("Deadwood {points}."), points=points)
    return Count(arrangement, COUNTED, text, points, onto=onto)


# --------------------------------------------------------------------------
# Both hands of a deal
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Deal:
    """The two sides counted; a side whose taps were refused is None."""

    limit: Limit
    knocker: Count | None
    defender: Count | None

    def entry(self) -> dict:
        """What the hand form takes from the counts (match-file keys), only what is known."""
        out: dict = {}
        if self.knocker is not None and self.knocker.count is not None:
            out["knocker_deadwood"] = self.knocker.count
            if self.knocker.status == BIG_GIN:
                out["big_gin"] = True
        if self.defender is not None and self.defender.count is not None:
            out["opponent_deadwood"] = self.defender.count
        return out


def count_deal(rules: Rules, upcard: Card | None, knocker: Sequence[Card] | None,
               defender: Sequence[Card] | None) -> Deal:
    """Count both hands as the table does: the knocker first, then the defender onto the knocker's melds."""
    limit = deal_limit(rules, upcard)
    k_count = count_knocker(knocker, limit) if knocker is not None else None
    d_count = count_defender(defender, k_count) if defender is not None else None
    return Deal(limit, k_count, d_count)
