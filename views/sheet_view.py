"""The sheet as rows and cells for the templates: presentation only, no scoring."""
from __future__ import annotations

from dataclasses import dataclass

from flask import url_for
from markupsafe import Markup
from flask_babel import gettext, lazy_gettext

from forms import VersionForm
from models.ledger import Game, Line, Sheet
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


CELL = ('<td class="gstart">{}</td>', "<td>{}</td>")  # a game's first column, then its second


@dataclass(frozen=True)
class Row:
    line: Line
    cells: list  # one value (or None) per game and player, game by game
    note: str
    closes: list  # games this hand closed, for the rule drawn under it
    edit_label: str = ""

    @property
    def cells_html(self) -> Markup:
        """The row's score cells, written here rather than by a template loop: a long
        match has thousands of cells, and they hold only numbers."""
        return Markup("".join(
            CELL[i % 2].format("" if v is None else int(v)) for i, v in enumerate(self.cells)))


class NoteWords:
    """The words of the rows' notes, translated once per page rather than once per row."""

    def __init__(self):
        self.names = {key: str(name) for key, name in RESULT_NAMES.items()}
        self.drawn = gettext("%(result)s · %(dealer)s dealt")
        self.won = gettext("%(result)s %(points)s · %(dealer)s dealt")
        self.edit = gettext("Edit hand %(number)s")

    def note(self, line: Line) -> str:
        values = {"result": self.names[line.outcome.result], "dealer": line.dealer, "points": line.outcome.points}
        return (self.drawn if line.outcome.winner is None else self.won) % values


def sheet_rows(sheet: Sheet) -> list[Row]:
    words = NoteWords()
    by_number = {game.number: game for game in sheet.games}
    columns = [(game.number, name) for game in sheet.games for name in sheet.players]
    rows = []
    for line in sheet.lines:
        winner, totals = line.outcome.winner, line.totals
        cells = [totals.get(number) if name == winner else None for number, name in columns]
        rows.append(Row(line, cells, words.note(line), [by_number[n] for n in line.closed],
                        words.edit % {"number": line.number}))
    return rows


def game_status(game: Game) -> str:
    if game.open:
        return gettext("open")
    return gettext("%(winner)s wins", winner=game.winner)


def preview_data(stored, sheet) -> dict:
    """What tells the page script to ask for its preview again: the version the page was drawn at.

    The preview itself is the server's (views/preview.py): the script holds no rule of the game."""
    return {"version": stored.version}


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
