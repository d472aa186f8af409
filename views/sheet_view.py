"""The sheet as rows and cells for the templates: presentation only, no scoring."""
from __future__ import annotations

from dataclasses import dataclass

from models.ledger import Game, Line, Sheet

RESULT_NAMES = {
    "knock": "knock",
    "gin": "gin",
    "big_gin": "big gin",
    "undercut": "undercut",
    "draw": "draw",
    "points": "points",
}


@dataclass(frozen=True)
class Row:
    line: Line
    cells: list  # one value (or None) per game and player, game by game
    note: str
    closes: list  # games this hand closed, for the rule drawn under it


def row_note(line: Line) -> str:
    name = RESULT_NAMES[line.outcome.result]
    if line.outcome.winner is None:
        return f"{name} · {line.dealer} dealt"
    return f"{name} {line.outcome.points} · {line.dealer} dealt"


def sheet_rows(sheet: Sheet) -> list[Row]:
    rows = []
    by_number = {game.number: game for game in sheet.games}
    for line in sheet.lines:
        cells = []
        for game in sheet.games:
            for name in sheet.players:
                written = name == line.outcome.winner and game.number in line.totals
                cells.append(line.totals[game.number] if written else None)
        rows.append(Row(line, cells, row_note(line), [by_number[n] for n in line.closed]))
    return rows


def game_status(game: Game) -> str:
    if game.open:
        return "open"
    return f"{game.winner} wins"
