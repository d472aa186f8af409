"""The sheet as the pages draw it: its rows and cells, the words of the rows' notes, the last hands a
page shows, the race pictures, and everything the sheet, the scoreboard and the live fragment draw
from one fold (`sheet_context`). Presentation only: the scoring is the engine's (models/)."""
from __future__ import annotations

from functools import cached_property, lru_cache

from flask import url_for
from flask_babel import lazy_gettext
from markupsafe import Markup

from .charts import plot, race_figure, thinned
# The page's catalogue, looked up once a request; under these names pybabel extract finds the strings.
from views.site.i18n import current_language, games_list, page_gettext as gettext, page_ngettext as ngettext
from .scoreboard import game_box
from models.game.ledger import Line, Sheet
from models.game.race import race_of
from models.game.stakes import payments

RESULT_NAMES = {
    "knock": lazy_gettext("knock"),
    "gin": lazy_gettext("gin"),
    "big_gin": lazy_gettext("big gin"),
    "undercut": lazy_gettext("undercut"),
    "draw": lazy_gettext("draw"),
    "points": lazy_gettext("points"),
}


CELL = ('<td class="gstart">{}</td>', "<td>{}</td>")  # a game's first column, then its second


class Row:
    """One row of the sheet as the template draws it."""

    def __init__(self, line: Line, sheet: "SheetWords"):
        self.line = line
        self._sheet = sheet

    @cached_property
    def cells(self) -> list:
        """One value (or None) per game and player, game by game."""
        winner, totals = self.line.outcome.winner, self.line.totals
        return [totals.get(number) if name == winner else None for number, name in self._sheet.columns]

    @cached_property
    def note(self) -> str:
        return self._sheet.words.note(self.line)

    @cached_property
    def closes(self) -> list:
        """The games this hand closed, for the rule drawn under it."""
        return [self._sheet.by_number[n] for n in self.line.closed]

    @property
    def edit_label(self) -> str:
        return self._sheet.words.edit % {"number": self.line.number}

    @property
    def cells_html(self) -> Markup:
        """The row's score cells, written here rather than by a template loop: a long
        match has thousands of cells, and they hold only numbers."""
        return Markup("".join(
            CELL[i % 2].format("" if v is None else int(v)) for i, v in enumerate(self.cells)))


class NoteWords:
    """The words of the rows' notes, translated once per page rather than once per row.

    A note says the whole hand (what it was, its points, where it went, who dealt), so a
    phone that has no room for a note column can show it as the row's second line."""

    def __init__(self):
        self.names = {key: str(name) for key, name in RESULT_NAMES.items()}
        self.drawn = gettext("%(result)s · %(dealer)s dealt")
        self.won = gettext("%(result)s %(points)s → %(where)s · %(dealer)s dealt")
        self.edit = gettext("Edit hand %(number)s")
        self.doubled = gettext("%(result)s doubled by the spade")
        self.where: dict[tuple[int, ...], str] = {}  # a match has at most a handful of distinct game sets

    def games(self, games: tuple[int, ...]) -> str:
        if games not in self.where:
            self.where[games] = ngettext("game %(games)s", "games %(games)s", len(games), games=games_list(games))
        return self.where[games]

    def note(self, line: Line) -> str:
        result = self.names[line.outcome.result]
        if line.outcome.doubled:
            result = self.doubled % {"result": result}
        values = {"result": result, "dealer": line.dealer, "points": line.outcome.points}
        if line.outcome.winner is None:
            return self.drawn % values
        return self.won % dict(values, where=self.games(line.games))


class SheetWords:
    """What the rows of one page share: its columns, its games, the words of its notes (made once, if a row is drawn)."""

    def __init__(self, sheet: Sheet):
        self.by_number = {game.number: game for game in sheet.games}
        self.columns = [(game.number, name) for game in sheet.games for name in sheet.players]

    @cached_property
    def words(self) -> NoteWords:
        return note_words(current_language())


@lru_cache(maxsize=None)
def note_words(language: str) -> NoteWords:
    """A language's note words, made once: they depend on its catalogue alone (a page that draws a
    row used to translate eleven strings for it)."""
    return NoteWords()


# The last hands a match page draws (with its live fragment, the spectator's page and the big
# screen); older ones are on the whole sheet, one tap away. A Hollywood match to 100 takes 10 to 30
# hands, so every ordinary match shows whole, and a 1,000-hand one costs what 40 rows cost.
SHOWN_HANDS = 40


def first_shown(sheet: Sheet, whole: bool = False) -> int:
    """How many hands the page folds away above the rows it draws: none on the whole sheet."""
    return 0 if whole else max(0, len(sheet.lines) - SHOWN_HANDS)


def sheet_url(match_id: int, number: int | None = None) -> str:
    """The match page, at hand `number`'s row when there is one (a hand just saved is always shown)."""
    return url_for("matches.show", match_id=match_id, _anchor=f"hand-{number}" if number else None)


def told_url(match_id: int) -> str:
    """The match page at what the last change said (#told), the next hand's form under it: where a saved
    hand lands without the script (its row is on the sheet below, marked in the message)."""
    return url_for("matches.show", match_id=match_id, _anchor="told")


def hand_url(match_id: int, number: int, sheet: Sheet) -> str:
    """Where a changed hand is seen: its row on the match page, or on the whole sheet when the page folds it away."""
    if number > first_shown(sheet):
        return sheet_url(match_id, number)
    return url_for("matches.sheet", match_id=match_id, _anchor=f"hand-{number}")


def sheet_rows(sheet: Sheet, first: int = 0) -> list[Row]:
    """The rows of the hands from `first` (0-based) on: a Row is built only for a row drawn."""
    shared = SheetWords(sheet)
    return [Row(line, shared) for line in sheet.lines[first:]]


WHOLE = 5  # letters of a name a phone's column head has room for (six columns at 360 px)


def column_heads(players: tuple[str, str]) -> tuple[str, str]:
    """The names as a phone's narrow columns show them, the caption above the sheet saying whose is whose.

    A name that fits stays whole; a longer one keeps its first letters, as many as it takes to
    tell it from the other ('Alex' for Alexandra beside 'Bob'), else the seat ('A1', 'A2')."""
    for size in (WHOLE - 1, WHOLE):
        heads = tuple(name if len(name) <= WHOLE else name[:size] for name in players)
        if heads[0].casefold() != heads[1].casefold():
            return heads
    return tuple(f"{name[:1]}{seat}" for seat, name in enumerate(players, 1))


def preview_data(stored) -> dict:
    """What tells the page script to ask for its preview again: the version the page was drawn at.
    The preview itself is the server's (views/match/preview.py): the script holds no rule of the game."""
    return {"version": stored.version}


def race_picture(sheet: Sheet, number: int) -> Markup:
    """Game `number`'s race, drawn with the page."""
    race = race_of(sheet, number)
    return race_figure(race, plot(thinned(race.series), race.target, end_values=True), sheet.players)


def draw_rows(rows: list, draw_row, *args) -> Markup:
    """Each row drawn by the template's `draw_row` macro, in one Python loop (a long match has hundreds)."""
    return Markup("".join(draw_row(row, *args) for row in rows))


def sheet_context(stored, readonly: bool = False, whole: bool = False) -> dict:
    """Everything the sheet, the scoreboard and the live fragment draw from one fold.

    `whole`: every row (the whole sheet's page); else the last SHOWN_HANDS, and `folded` says
    how many hands above them are only on the whole sheet, at `whole_url`."""
    sheet = stored.sheet()
    folded = first_shown(sheet, whole)
    whole_url = (url_for("readonly.sheet", token=stored.view_token) if readonly
                 else url_for("matches.sheet", match_id=stored.id))
    context = dict(stored=stored, match=stored.match, sheet=sheet, rows=sheet_rows(sheet, folded),
                   folded=folded, whole=whole, whole_url=whole_url,
                   heads=column_heads(stored.match.players),
                   race_figure=lambda number: race_picture(sheet, number), game_box=game_box,
                   draw_rows=draw_rows, readonly=readonly,
                   payments=payments(sheet, stored.stake) if stored.stake else [])
    if not readonly:
        context.update(preview=preview_data(stored),
                       # One url_for for the page, not one per row: a long match has a thousand rows.
                       edit_prefix=url_for("hands.edit", match_id=stored.id, number=0)[:-1])
    return context
