"""The seats of a table of three or four: its two sides, and who meets whom on each board of a deal."""
from __future__ import annotations

from dataclasses import dataclass

from models.errors import N_, MatchError
from ..rules import Pairing, Rules, Table

JOIN = " & "  # a side is named by its players joined with this (RULES.md)
SEATS = {Table.TWO: (2,), Table.PARTNERS: (4,), Table.CHOUETTE: (3, 4)}  # how many players each table seats


def side_name(players) -> str:
    return JOIN.join(players)


@dataclass(frozen=True)
class Sides:
    """The two sides, in the order the output lists them: partners A & C then B & D; chouette the box, then
    the team. A side's name is what the sheet writes where a table of two writes a player."""

    table: Table
    first: tuple[str, ...]
    second: tuple[str, ...]

    @property
    def names(self) -> tuple[str, str]:
        return side_name(self.first), side_name(self.second)

    @property
    def players(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return self.first, self.second

    def side_of(self, player: str) -> str:
        """The name of the side `player` sits on."""
        return self.names[0] if player in self.first else self.names[1]

    def players_of(self, side: str) -> tuple[str, ...]:
        return self.first if side == self.names[0] else self.second

    def to_list(self) -> list[list[str]]:
        return [list(self.first), list(self.second)]


def seat(table: Table, players: tuple[str, ...]) -> Sides | None:
    """The sides of `players` in seat order; None at a table of two (its players are its sides).
    A number of players the table does not seat is refused."""
    check_seats(table, players)
    if table == Table.PARTNERS:
        return Sides(table, (players[0], players[2]), (players[1], players[3]))
    if table == Table.CHOUETTE:
        return Sides(table, (players[0],), tuple(players[1:]))
    return None


def check_seats(table: Table, players) -> None:
    if len(players) not in SEATS[table]:
        raise MatchError("players", N_("a table of {table} seats {seats} players, in seat order"),
                         table=table.value, seats=" or ".join(map(str, SEATS[table])))


def board_pairs(sides: Sides, rules: Rules, number: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """Partners' two boards of deal `number` (1-based), each as (first side's player, second side's):
    A-B and C-D on odd deals and under `fixed`, A-D and C-B on even deals under `alternate`."""
    (a, c), (b, d) = sides.first, sides.second
    if rules.pairing == Pairing.ALTERNATE and number % 2 == 0:
        return (a, d), (c, b)
    return (a, b), (c, d)
