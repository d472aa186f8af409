"""The race to the target: each player's running score in each game, hand by hand."""
from __future__ import annotations

from dataclasses import dataclass

from .ledger import Sheet


@dataclass(frozen=True)
class Race:
    """One game's race; `series` has a score per player from hand 0 to `last_hand`."""

    game: int
    target: int
    last_hand: int  # the closing hand, or the last hand played
    series: dict[str, tuple[int, ...]]
    winner: str | None


def races(sheet: Sheet) -> list[Race]:
    return [race_of(sheet, game.number) for game in sheet.games]


def race_of(sheet: Sheet, number: int) -> Race:
    """One game's race, from the first hand to its closing hand (or the last hand played)."""
    game = sheet.games[number - 1]
    last = game.closed_by or len(sheet.lines)
    first, second = scores_over(sheet.lines[:last], number, sheet.players)
    one, two = sheet.players
    return Race(game.number, sheet.match.rules.target, last, {one: first, two: second}, game.winner)


def scores_over(lines, number: int, players: tuple[str, str], first: tuple[int, ...] = (0,),
                second: tuple[int, ...] = (0,)) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`first` and `second` carried on over `lines`: a hand's winner goes to its running total in
    the game, the other player stays."""
    one, two = players
    a, b = [first[-1]], [second[-1]]
    for line in lines:
        total = line.totals.get(number)
        winner = line.outcome.winner
        a.append(total if total is not None and winner == one else a[-1])
        b.append(total if total is not None and winner == two else b[-1])
    return first + tuple(a[1:]), second + tuple(b[1:])
