"""The sheet as rows and cells for the templates: presentation only, no scoring."""
from __future__ import annotations

from dataclasses import dataclass

from flask import url_for
from flask_babel import gettext, lazy_gettext

from forms import VersionForm
from models.ledger import Game, Line, Sheet, games_for_win
from models.race import races
from models.stakes import payments

from .charts import plot

RESULT_NAMES = {
    "knock": lazy_gettext("knock"),
    "gin": lazy_gettext("gin"),
    "big_gin": lazy_gettext("big gin"),
    "undercut": lazy_gettext("undercut"),
    "draw": lazy_gettext("draw"),
    "points": lazy_gettext("points"),
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
        return gettext("%(result)s · %(dealer)s dealt", result=name, dealer=line.dealer)
    return gettext("%(result)s %(points)s · %(dealer)s dealt", result=name, points=line.outcome.points,
                   dealer=line.dealer)


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
        return gettext("open")
    return gettext("%(winner)s wins", winner=game.winner)


def preview_data(stored, sheet) -> dict:
    """What the page script needs to say 'Ana scores 18 → games 1 and 2' before saving."""
    rules = stored.match.rules
    return {
        "players": list(stored.match.players),
        "games": {name: games_for_win(sheet, name) for name in stored.match.players},
        "scores": {str(g.number): g.scores for g in sheet.games},
        "target": rules.target,
        "gin": rules.gin_bonus,
        "big_gin": rules.big_gin_bonus,
        "undercut": rules.undercut_bonus,
        "knock_limit": rules.knock_limit,
        "oklahoma": rules.oklahoma,
        "spade_double": rules.spade_double,
    }



def race_plots(sheet: Sheet) -> list:
    return [(race, plot(race.series, race.target)) for race in races(sheet)]


def sheet_context(stored, readonly: bool = False) -> dict:
    """Everything the sheet, the scoreboard and the live fragment draw from one fold."""
    sheet = stored.sheet()
    context = dict(stored=stored, match=stored.match, sheet=sheet, rows=sheet_rows(sheet),
                   races=race_plots(sheet), readonly=readonly,
                   payments=payments(sheet, stored.stake) if stored.stake else [])
    if not readonly:
        context.update(version_form=VersionForm(formdata=None, version=stored.version),
                       preview=preview_data(stored, sheet),
                       # One url_for for the page, not one per row: a long match has a thousand rows.
                       edit_prefix=url_for("hands.edit", match_id=stored.id, number=0)[:-1])
    return context
