"""Who plays whom next: each free player against the nearest rating he has not played tonight.

Pure: the players here with their ratings, who is busy in a match still being played, and the pairs
that already met tonight, in; the suggested pairs and whoever is left without one, out.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from models.errors import N_, Refusal


class PairingRefused(Refusal):
    """A match asked for that cannot be: an unknown player, or the same player on both sides."""


@dataclass(frozen=True)
class Pairs:
    pairs: tuple[tuple[int, int], ...]  # the higher rating first
    left: tuple[int, ...]  # free players with no one left they have not played tonight (or an odd one out)


def pairings(ratings: Mapping[int, int], busy: Iterable[int] = (), met: Iterable[frozenset] = ()) -> Pairs:
    """Greedy from the top: the highest-rated free player takes the nearest rating among the free players he has
    not met tonight (on a tie, the higher one, then the lower id); then the next one still free, and so on."""
    busy, met = set(busy), set(met)
    free = sorted((player for player in ratings if player not in busy), key=lambda p: (-ratings[p], p))
    pairs, left = [], []
    while free:
        player = free.pop(0)
        choices = [other for other in free if frozenset((player, other)) not in met]
        if not choices:
            left.append(player)
            continue
        other = min(choices, key=lambda o: (abs(ratings[o] - ratings[player]), -ratings[o], o))
        free.remove(other)
        pairs.append((player, other))
    return Pairs(tuple(pairs), tuple(left))


def check_pair(one: int | None, two: int | None, known: Iterable[int]) -> tuple[int, int]:
    """The two players of a match asked for, each one of the table's, and two of them."""
    known = set(known)
    for player in (one, two):
        if player not in known:
            raise PairingRefused(N_("There is no such player at this table; nothing was started."))
    if one == two:
        raise PairingRefused(N_("Both sides of a match are the same player; nothing was started."))
    return one, two
