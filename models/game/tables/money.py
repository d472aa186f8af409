"""The money of each player at a table of three or four (RULES.md): what he pays or gets of the sides' net."""
from __future__ import annotations

from collections.abc import Mapping

from ..rules import Table
from .seats import Sides


def player_net(sides: Sides, net: Mapping[str, int]) -> dict[str, int]:
    """Partners: each partner settles with one opponent, so each wins or loses his side's whole net.
    Chouette: the box settles in full with every team player, so he wins or loses the box's net times
    the team's size, and each team player the team's net. In seat order; the money sums to 0."""
    first, second = sides.names
    if sides.table == Table.CHOUETTE:
        return {sides.first[0]: net[first] * len(sides.second), **{player: net[second] for player in sides.second}}
    (a, c), (b, d) = sides.players
    return {a: net[first], b: net[second], c: net[first], d: net[second]}
