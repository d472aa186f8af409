"""The tests' own card helpers: a whole deck, and every meld inside some cards (for the brute-force checks)."""
from itertools import combinations

from models.game.cards import SUITS, Card
from models.game.meld_codes import meld_problem


def full_deck() -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def is_meld(cards) -> bool:
    """True for a set (3-4 cards, one rank) or a run (3+ in sequence, one suit)."""
    return meld_problem(cards) is None


def all_melds(cards) -> list[tuple[Card, ...]]:
    """Every meld inside `cards`, each sorted, in sorted order: every 3-card subset of a four-of-a-kind
    and every sub-run of length 3 or more."""
    held = set(cards)
    melds = []
    for rank in range(1, 14):
        suits = [suit for suit in SUITS if Card(rank, suit) in held]
        for size in range(3, len(suits) + 1):
            melds += [tuple(sorted(Card(rank, suit) for suit in chosen)) for chosen in combinations(suits, size)]
    for suit in SUITS:
        for low in range(1, 12):
            high = low
            while high <= 13 and Card(high, suit) in held:
                if high - low >= 2:
                    melds.append(tuple(Card(rank, suit) for rank in range(low, high + 1)))
                high += 1
    return sorted(melds)
