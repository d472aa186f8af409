"""Who plays whom next: as many free players seated as can be, against players not met tonight, the ratings close.

Pure: the players here with their ratings, who is busy in a match still being played, the pairs that already met
tonight and how many matches each has played tonight, in; the suggested pairs and whoever is left without one, out.
The pairs are a maximum matching (networkx's `max_weight_matching`), not a search of our own.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import networkx as nx

from models.errors import N_, Refusal


class PairingRefused(Refusal):
    """A match asked for that cannot be: an unknown player, or the same player on both sides."""


@dataclass(frozen=True)
class Pairs:
    pairs: tuple[tuple[int, int], ...]  # the higher rating first, the closest pairs first
    left: tuple[int, ...]  # free players with no one left they have not played tonight, or the odd one out
    met_all: frozenset = frozenset()  # those of `left` who have played every other free player tonight


def pairings(ratings: Mapping[int, int], busy: Iterable[int] = (), met: Iterable[frozenset] = (),
             played: Mapping[int, int] | None = None) -> Pairs:
    """The most free players seated against someone not met tonight; among those seatings, the one left waiting
    is who has waited least (played the most matches tonight); among those, the smallest sum of rating gaps.

    Must stay true: seating one more pair always outweighs who waits and any gap, and who waits outweighs any gap,
    so the weights are tiered: seat >> waiting >> gaps. Ties go the same way every time (a last tier prefers
    seating lower ids)."""
    busy, met, played = set(busy), set(met), dict(played or {})
    free = sorted((player for player in ratings if player not in busy), key=lambda p: (-ratings[p], p))
    rank = {player: place for place, player in enumerate(sorted(free))}
    count = len(free)
    spread = max((ratings[p] for p in free), default=0) - min((ratings[p] for p in free), default=0)
    most = max((played.get(p, 0) for p in free), default=0)
    # Each tier's largest sum over a matching stays below one step of the tier above it.
    tier = 2 * (count + 1) ** 2 * (spread + most + 1)
    graph = nx.Graph()
    graph.add_nodes_from(free)
    for at, one in enumerate(free):
        for two in free[at + 1:]:
            if frozenset((one, two)) in met:
                continue
            rested = 2 * most - played.get(one, 0) - played.get(two, 0)  # seating who played less weighs more
            ids = 2 * count - rank[one] - rank[two]
            gap = abs(ratings[one] - ratings[two])
            graph.add_edge(one, two, weight=tier ** 3 + tier ** 2 * rested - tier * gap + ids)
    matched = nx.max_weight_matching(graph)
    order = {player: place for place, player in enumerate(free)}
    pairs = sorted((tuple(sorted(pair, key=order.__getitem__)) for pair in matched), key=lambda pair: order[pair[0]])
    seated = {player for pair in pairs for player in pair}
    left = tuple(player for player in free if player not in seated)
    return Pairs(tuple(pairs), left, frozenset(player for player in left if not any(graph.adj[player])))


def tables_of_four(pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int, int, int], ...],
                                                                tuple[tuple[int, int], ...]]:
    """The matching's pairs seated two by two at partners tables, in the order listed (the closest ratings
    together), and an odd pair left over, which plays as a table of two.

    Must stay true: pairs (A, B) and (D, C), each its higher rating first, sit in seats (A, B, C, D), so A & C
    play B & D: each pair of the matching meets on a board of the first deal, and each side is one pair's
    higher rating with the other pair's lower one."""
    tables = tuple((one[0], one[1], two[1], two[0]) for one, two in zip(pairs[0::2], pairs[1::2]))
    return tables, pairs[len(tables) * 2:]


def check_players(players: tuple[int | None, ...], known: Iterable[int]) -> tuple[int, ...]:
    """The players of a table of four asked for: each one of the table's, and four different ones."""
    known = set(known)
    if any(player not in known for player in players):
        raise PairingRefused(N_("There is no such player at this table; nothing was started."))
    if len(set(players)) != len(players):
        raise PairingRefused(N_("A player is in two seats of the table; nothing was started."))
    return tuple(players)


def check_pair(one: int | None, two: int | None, known: Iterable[int]) -> tuple[int, int]:
    """The two players of a match asked for, each one of the table's, and two of them."""
    known = set(known)
    for player in (one, two):
        if player not in known:
            raise PairingRefused(N_("There is no such player at this table; nothing was started."))
    if one == two:
        raise PairingRefused(N_("Both sides of a match are the same player; nothing was started."))
    return one, two
