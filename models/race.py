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
    series: dict[str, list[int]]
    winner: str | None


def races(sheet: Sheet) -> list[Race]:
    return [race_of(sheet, game.number) for game in sheet.games]


def race_of(sheet: Sheet, number: int) -> Race:
    """One game's race (a page draws a closed game's picture once and keeps it; an open game's
    after every saved hand, so this is one pass with two running scores)."""
    game = sheet.games[number - 1]
    last = game.closed_by or len(sheet.lines)
    one, two = sheet.players
    first, second = [0], [0]
    for line in sheet.lines[:last]:
        total = line.totals.get(number)
        winner = line.outcome.winner
        first.append(total if total is not None and winner == one else first[-1])
        second.append(total if total is not None and winner == two else second[-1])
    return Race(game.number, sheet.match.rules.target, last, {one: first, two: second}, game.winner)
