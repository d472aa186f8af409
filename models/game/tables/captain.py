"""Chouette's captain: who of the team plays the box this deal (RULES.md, "Chouette")."""
from __future__ import annotations

from ..rules import Table
from .seats import Sides


def first_captain(sides: Sides | None) -> str | None:
    """The team's first player captains first; None at a table without a captain."""
    return sides.second[0] if sides is not None and sides.table == Table.CHOUETTE else None


def next_captain(sides: Sides, captain: str, winner: str | None) -> str:
    """A captain who loses the hand (the box wins it) hands over to the next team player, in seat
    order and round again; one who wins it or draws plays on. `winner` is the hand's player."""
    if winner is None or winner == captain:
        return captain
    team = sides.second
    return team[(team.index(captain) + 1) % len(team)]
