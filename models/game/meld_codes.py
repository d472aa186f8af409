"""Hands and melds read from card codes, and a knocker's melds checked, for the CLI and the web app."""
from __future__ import annotations

from typing import Iterable, Sequence

from models.errors import N_, Message, Refusal

from .cards import Card, CardError, parse_cards


class MeldError(Refusal):
    """Input that is not a valid hand or meld; the message names the problem."""


def parse_hand(codes: Sequence[str]) -> list[Card]:
    """A dealt hand: 10 or 11 distinct cards (11 when the player has drawn)."""
    cards = _parse_codes(codes, "hand")
    if len(cards) not in (10, 11):
        raise MeldError(N_("a hand has 10 or 11 cards, this one has {count}"), count=len(cards))
    return cards


def parse_meld(codes: Sequence[str]) -> tuple[Card, ...]:
    """A declared meld, checked so that scoring never trusts a bad meld."""
    cards = _parse_codes(codes, "meld")
    problem = meld_problem(cards)
    if problem:
        raise MeldError(N_("{codes} is not a meld: {problem}"), codes=" ".join(codes), problem=problem)
    return tuple(sorted(cards))


def parse_knocker_melds(
    groups: Sequence[Sequence[str]], defender_cards: Iterable[Card] = ()
) -> list[tuple[Card, ...]]:
    """The knocker's melds as codes: each a valid meld, none sharing a card."""
    if isinstance(groups, str) or not isinstance(groups, (list, tuple)):
        raise MeldError(N_("the knocker's melds are a list of card-code lists"))
    melds = [parse_meld(group) for group in groups]
    check_knocker_melds(melds, defender_cards)
    return melds


def check_knocker_melds(
    knocker_melds: Iterable[Sequence[Card]], defender_cards: Iterable[Card]
) -> None:
    """Refuse melds that share a card with each other or the defender's hand.

    One physical card cannot be in two places, and an overlap would let the
    defender lay off a card the knocker is holding.
    """
    seen: set[Card] = set()
    for meld in knocker_melds:
        for card in meld:
            if card in seen:
                raise MeldError(N_("{card} is in more than one of the knocker's melds"), card=card.code)
            seen.add(card)
    for card in defender_cards:
        if card in seen:
            raise MeldError(N_("{card} is in both the knocker's melds and the defender's hand"), card=card.code)


_NOT_A_LIST = {
    "hand": N_("a hand is a list of card codes such as ['7S', '10H']"),
    "meld": N_("a meld is a list of card codes such as ['7S', '10H']"),
}


def _parse_codes(codes: Sequence[str], what: str) -> list[Card]:
    """Card codes to Cards through the one card reader, its refusal as a MeldError for the CLI."""
    if isinstance(codes, str) or not isinstance(codes, (list, tuple)):
        raise MeldError(_NOT_A_LIST[what])
    try:
        return parse_cards(codes)
    except CardError as error:
        raise MeldError(error.message) from None


def meld_problem(cards: Sequence[Card]) -> Message | None:
    """Why these cards are not a meld, or None if they are one."""
    if len(cards) < 3:
        return Message(N_("a meld needs at least 3 cards, not {count}"), count=len(cards))
    ranks = sorted(card.rank for card in cards)
    suits = {card.suit for card in cards}
    if ranks[0] == ranks[-1]:
        return None if len(suits) == len(cards) else Message(N_("a set needs a different suit on every card"))
    if len(suits) > 1:
        return Message(N_("a meld is one rank (a set) or one suit in sequence (a run)"))
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return Message(N_("a run needs consecutive ranks, ace low (no wrap-around such as Q-K-A)"))
    return None
