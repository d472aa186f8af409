"""Cards in the match-file notation: rank (A 2 ... 10 J Q K) then suit (S H D C).

Ace is low and counts 1; face cards count 10. Both the Oklahoma upcard and the
card picker use this notation, so it lives in one place.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import N_, Refusal

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


class CardError(Refusal):
    """A string that is not a card in the match-file notation."""


@dataclass(frozen=True, order=True)
class Card:
    """One card; `rank` is 1 (ace) to 13 (king), so runs are consecutive ranks."""

    rank: int
    suit: str

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, two to ten face value, J/Q/K 10."""
        return min(self.rank, 10)

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __str__(self) -> str:
        return self.code


def parse_card(text: object) -> Card:
    """Read `7S`, `10H`, `QD`, `AC`; anything else raises CardError."""
    if not isinstance(text, str):
        raise CardError(N_("a card is a string such as 7S, 10H, QD or AC"))
    rank, suit = text[:-1], text[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise CardError(N_("{text!r} is not a card (rank A 2 ... 10 J Q K, then suit S H D C)"), text=text)
    return Card(RANKS.index(rank) + 1, suit)


def full_deck() -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
