"""Cards in the match-file notation: rank (A 2 ... 10 J Q K) then suit (S H D C).

Ace is low and counts 1; face cards count 10. The Oklahoma upcard, the card
picker, the stored hands, the melds and the CLI all use this notation, so it is
read here and only here (`parse_card` for one, `parse_cards` for a hand).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Sequence

from models.errors import N_, Refusal

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
HAND_SIZE = 10
MOST_HELD = 11  # the knocker holds 11 for big gin


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

    @property
    def face(self) -> str:
        """As a player writes it in a sentence: 7\u2665, K\u2660 (the words around it are translated, the face is not)."""
        return RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

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


def parse_cards(codes: Sequence[object], most: int | None = None,
                knockers: Collection[Card] = ()) -> list[Card]:
    """Codes to Cards in their order, refusing what no real hand can hold.

    More than `most` cards, a card twice, or (for the defender) a card that
    `knockers` already holds: one physical card is in one place. The caller
    checks that `codes` is a list and names the field in its own refusal.
    """
    if most is not None and len(codes) > most:
        raise CardError(N_("at most {limit} cards, not {count}"), limit=most, count=len(codes))
    cards: list[Card] = []
    for code in codes:
        card = parse_card(code)
        if card in cards:
            raise CardError(N_("{code} appears twice"), code=card)  # 7H in the English text, 7♥ on a page
        if card in knockers:
            raise CardError(N_("{card} is in the knocker's hand too"), card=card)
        cards.append(card)
    return cards
