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
    """One game's race (a page draws a closed game's picture once and keeps it)."""
    game = sheet.games[number - 1]
    last = game.closed_by or len(sheet.lines)
    series = {name: [0] for name in sheet.players}
    for line in sheet.lines[:last]:
        for name in sheet.players:
            written = line.outcome.winner == name and game.number in line.totals
            series[name].append(line.totals[game.number] if written else series[name][-1])
    return Race(game.number, sheet.match.rules.target, last, series, game.winner)
