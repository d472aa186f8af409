"""The sheet as CSV rows, for a spreadsheet: one row a hand, the running score per game; at a table of
three or four one row a deal (its sides' figures) with a row per board beneath it (`table_rows`).

Computed from the fold like every other view of a match, so the CSV, the page
and the match file cannot disagree.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from models.game.ledger import Sheet

# A spreadsheet runs a cell that starts like a formula; a leading quote keeps it text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value) -> str:
    text = "" if value is None else str(value)
    if isinstance(value, str) and text.startswith(FORMULA_START):
        return "'" + text
    return text


def sheet_rows(sheet: Sheet) -> Iterable[list]:
    """The header, then a row per hand: what was entered, what it scored, where it went."""
    players = sheet.players
    game_columns = [f"game {g.number} {name}" for g in sheet.games for name in players]
    yield ["hand", "dealer", "result", "winner", "points", "knocker", "knocker_deadwood",
           "opponent_deadwood", "upcard", "games", *game_columns]
    for line in sheet.lines:
        hand = line.entry
        totals = [line.totals.get(g.number) if name == line.outcome.winner else None
                  for g in sheet.games for name in players]
        yield [line.number, line.dealer, line.outcome.result, line.outcome.winner, line.outcome.points,
               hand.knocker, hand.knocker_deadwood, hand.opponent_deadwood, hand.upcard,
               " ".join(str(n) for n in line.games), *totals]


TABLE_HEAD = ["deal", "board", "players", "dealer", "result", "winner", "points", "knocker", "knocker_deadwood",
              "opponent_deadwood", "upcard", "games"]


def table_rows(sheet: Sheet) -> Iterable[list]:
    """A table of three or four: the header, then per deal a row with an empty `board` (dealer and winner
    are sides, the games' running totals as a hand of two's), then a row per board numbered from 1 (its
    two players, dealer and winner players, what was entered; no game column). A deal typed as points for
    one side has no board row."""
    players = sheet.players
    yield [*TABLE_HEAD, *(f"game {g.number} {name}" for g in sheet.games for name in players)]
    for line in sheet.lines:
        totals = [line.totals.get(g.number) if name == line.outcome.winner else None
                  for g in sheet.games for name in players]
        yield [line.number, None, None, line.dealer, line.outcome.result, line.outcome.winner, line.outcome.points,
               None, None, None, None, " ".join(str(n) for n in line.games), *totals]
        for n, board in enumerate(line.boards or (), start=1):
            hand = board.entry
            yield [line.number, n, " vs ".join(board.players), board.dealer, board.outcome.result,
                   board.outcome.winner, board.outcome.points, hand.knocker, hand.knocker_deadwood,
                   hand.opponent_deadwood, hand.upcard, None]


def csv_text(rows: Iterable[list]) -> str:
    """Rows written as CSV, every cell guarded against formula injection."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()
