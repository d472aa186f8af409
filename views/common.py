"""What the views share, in one module: finding a match, the sheet as the pages draw it,
the hand form as the match page shows it, and the words that tell the player what happened.

The blueprints never import each other; the scoring itself is the engine's (models/),
and this module only arranges its answers for the templates.
"""
from __future__ import annotations

from functools import cached_property, lru_cache

from flask import abort, current_app, g, make_response, render_template, request, session, url_for
from flask_babel import lazy_gettext
from markupsafe import Markup

from .db import get_db, match_cache, race_cache
from .forms import HandForm, VersionForm, new_form_id
# The page's catalogue, looked up once a request; under these names pybabel extract finds the strings.
from .i18n import (current_language, games_list, page_gettext as gettext, page_ngettext as ngettext, render, translated,
                   translated_reason)
from models import storage
from models.changes import game_changes
from models.errors import N_, MatchError, MatchOver
from models.ledger import Line, Sheet
from models.race import race_of
from models.stakes import payments

from . import regions
from .charts import plot, race_figure, thinned
from .scoreboard import game_box


# ---- the table: the one way a view learns whose data it may touch ----

def hosted() -> bool:
    """FLASK_HOSTED=1: many tables, each under /t/<key>/; else the one home table at today's addresses."""
    return bool(current_app.config.get("HOSTED"))


# The spectator's link: the match's sheet, its live fragment and its big screen, all read-only and open.
SPECTATOR_ENDPOINTS = frozenset({"readonly.view", "readonly.live", "readonly.big", "readonly.sheet"})


def current_table() -> storage.Table:
    """The table this request is for (views/tables.py found it from the address).

    Every storage call of a view is scoped with it; a request that names no table
    (a hosted server's front page) has none, and asking for one is a 404.
    """
    table = g.get("table")
    if table is None:
        abort(404)
    return table


def table_id() -> int:
    return current_table().id


BROWSERS = (("Edg", "Edge"), ("Firefox", "Firefox"), ("Chrome", "Chrome"), ("Safari", "Safari"))
SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
           ("Mac OS", "Mac"), ("Linux", "Linux"))


def device_name() -> str:
    """The name a hand's history gives this device: the one a player set ("Ana's phone"), kept in
    the session, else one drawn from the browser's User-Agent ("Chrome on Android"); empty when the
    User-Agent says nothing usable, so the history says "a browser" in the language it is read in."""
    named = session.get("device")
    if named:
        return named
    agent = request.headers.get("User-Agent", "")
    browser = next((name for key, name in BROWSERS if key in agent), "")
    system = next((name for key, name in SYSTEMS if key in agent), "")
    if browser and system:
        return gettext("%(browser)s on %(system)s", browser=browser, system=system)
    return browser or system


def in_table() -> bool:
    """False only on a hosted server's pages outside every table (its front page, a wrong key's 404)."""
    return g.get("table") is not None


def home_url() -> str:
    """The home of this table, or a hosted server's front page when the request names no table."""
    return url_for("matches.home") if in_table() else "/"


def match_or_404(match_id: int) -> storage.StoredMatch:
    try:
        return storage.get_match(get_db(), match_id, table=table_id(), cache=match_cache())
    except storage.NoSuchMatch:
        abort(404, description=gettext("There is no such match."))


def match_by_token_or_404(token: str) -> storage.StoredMatch:
    try:
        return storage.get_match_by_token(get_db(), token, table=table_id())
    except storage.NoSuchMatch:
        abort(404, description=gettext("This read-only link is not known here."))


def scores_phrase(winner: str, points: int, games: tuple[int, ...] | list[int]) -> str:
    """'Ben scores 35 → game 1.' (the sentence static/app.js says before saving, from the same catalogue)."""
    if not games:
        return gettext("%(winner)s scores %(points)s → no game.", winner=winner, points=points)
    return ngettext("%(winner)s scores %(points)s → game %(games)s.",
                    "%(winner)s scores %(points)s → games %(games)s.", len(games),
                    winner=winner, points=points, games=games_list(games))


def wins_phrase(winner: str, games: tuple[int, ...] | list[int]) -> str:
    return ngettext("%(winner)s wins game %(games)s.", "%(winner)s wins games %(games)s.", len(games),
                    winner=winner, games=games_list(games))


RESULT_WORDS = {
    "knock": None,
    "gin": lazy_gettext("Gin!"),
    "big_gin": lazy_gettext("Big gin!"),
    "undercut": lazy_gettext("Undercut!"),
    "points": None,
}


def line_words(line: Line) -> str:
    """'Undercut! Ben scores 35 → game 1.': what a hand did, without its number (the question of a
    second phone puts it after its own words)."""
    if line.outcome.winner is None:
        return gettext("a draw; %(dealer)s deals again.", dealer=line.dealer)
    word = RESULT_WORDS[line.outcome.result]
    text = (f"{word} " if word else "") + (gettext("Spades double.") + " " if line.outcome.doubled else "")
    text += scores_phrase(line.outcome.winner, line.outcome.points, line.games)
    if line.closed:
        text += " " + wins_phrase(line.outcome.winner, line.closed)
    return text


def line_summary(line: Line) -> str:
    """'Hand 3: Undercut! Ben scores 35 → game 1.', as the flash says it after saving."""
    return gettext("Hand %(number)s: %(summary)s", number=line.number, summary=line_words(line))


def closing_changes(before: Sheet, after: Sheet) -> list[str]:
    """What an edit or delete did to the games, so the table is told (the engine compares, models/changes.py)."""
    return [render(message) for message in game_changes(before, after)]


# ---- the sheet as rows and cells for the templates (presentation only, no scoring) ----

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
    """One row of the sheet as the template draws it, worked out only when its region is drawn
    (views/regions.py keeps a row once drawn: a saved hand draws only its own)."""

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
    The preview itself is the server's (views/preview.py): the script holds no rule of the game."""
    return {"version": stored.version}


def game_face(game) -> tuple:
    """All a game's box on the scoreboard shows, as a key (views/regions.py): the games a saved
    hand did not go into keep their drawn boxes."""
    return (game.number, tuple(game.scores.items()), tuple(game.boxes.items()), game.winner,
            game.settlement.net if game.settlement else None)


def race_picture(sheet: Sheet, number: int) -> Markup:
    """Game `number`'s race, drawn when its region is."""
    race = race_of(sheet, number, race_cache())
    return race_figure(race, plot(thinned(race.series), race.target, end_values=True), sheet.players)


class Later:
    """A list made on first use: a page whose kept region (views/regions.py) is found never makes it."""

    def __init__(self, make):
        self._make = make
        self._items: list | None = None

    def items(self) -> list:
        if self._items is None:
            self._items = list(self._make())
        return self._items

    def __iter__(self):
        return iter(self.items())

    def __len__(self) -> int:
        return len(self.items())

    def __bool__(self) -> bool:
        return bool(self.items())


class LaterForm:
    """A form made on first use, for the same reason: only a region that is drawn reads its form."""

    def __init__(self, make):
        self._make = make
        self._form = None

    def __getattr__(self, name: str):
        if self._form is None:
            self._form = self._make()
        return getattr(self._form, name)


def sheet_context(stored, readonly: bool = False, whole: bool = False) -> dict:
    """Everything the sheet, the scoreboard and the live fragment draw from one fold.

    `whole`: every row (the whole sheet's page); else the last SHOWN_HANDS, and `folded` says
    how many hands above them are only on the whole sheet, at `whole_url`."""
    sheet = stored.sheet()
    folded = first_shown(sheet, whole)
    whole_url = (url_for("readonly.sheet", token=stored.view_token) if readonly
                 else url_for("matches.sheet", match_id=stored.id))
    context = dict(stored=stored, match=stored.match, sheet=sheet,
                   rows=Later(lambda: sheet_rows(sheet, folded)),
                   folded=folded, whole=whole, whole_url=whole_url,
                   heads=column_heads(stored.match.players),
                   race_figure=lambda number: race_picture(sheet, number), game_face=game_face, game_box=game_box,
                   readonly=readonly,
                   payments=Later(lambda: payments(sheet, stored.stake) if stored.stake else []))
    if not readonly:
        context.update(version_form=LaterForm(lambda: VersionForm(formdata=None, version=stored.version)),
                       preview=preview_data(stored),
                       # One url_for for the page, not one per row: a long match has a thousand rows.
                       edit_prefix=url_for("hands.edit", match_id=stored.id, number=0)[:-1])
    return context


# ---- the match page ----

def attach_error(form, error: MatchError) -> None:
    """Show the engine's refusal next to the field it names."""
    name = error.field.removeprefix("rules.").replace(".", "_")  # cards.knocker -> cards_knocker
    field = getattr(form, name, None)
    if field is not None and hasattr(field, "errors"):
        field.errors = list(field.errors) + [translated_reason(error)]
    else:
        form.form_errors.append(translated(error))


def hand_form_for(stored: storage.StoredMatch, form: HandForm | None = None) -> HandForm:
    form = form or HandForm(formdata=None)
    form.set_players(stored.match.players)
    if not form.form_id.data:
        form.new_form_id()
    form.version.data = str(stored.version)
    if not form.number.data:  # a refused post keeps the number it entered, so its next save is still checked
        form.number.data = str(len(stored.match.hands) + 1)
    return form


def render_match(stored: storage.StoredMatch, form: HandForm | None = None, status: int = 200):
    """The match page. A fresh hand form is the same for every hand of the match but for its number,
    version and one-time id, so the page is kept with those as blanks (and the form is made only if
    its region is drawn); a refused or prefilled form is drawn as it is, in a page of its own."""
    if form is None:
        values = {"form_id": new_form_id(), "number": str(len(stored.match.hands) + 1),
                  "version": str(stored.version)}
        shown, key = LaterForm(lambda: blank_form(stored, values)), (stored.facts, stored.version)
    else:
        values, shown, key = {}, hand_form_for(stored, form), None
    # A finished match's page shows its result, drawn per version: its frame is too.
    frame = (stored.facts, stored.version if stored.sheet().finished else None)
    html = regions.render_page("match.html", values, key, stored.id, frame, form=shown, fresh_form=form is None,
                               page_here=url_for("matches.show", match_id=stored.id), **sheet_context(stored))
    return html, status


def blank_form(stored: storage.StoredMatch, values: dict[str, str]) -> HandForm:
    """A fresh hand form whose per-page values are blanks (views/regions.py) that `values` fill."""
    form = hand_form_for(stored)
    for name in values:
        getattr(form, name).data = regions.blank(name)
    return form


def hand_number_or_404(stored: storage.StoredMatch, number: int) -> None:
    if not 1 <= number <= len(stored.match.hands):
        abort(404, description=gettext("There is no such hand in this match."))


def explain_early_end(error: MatchError) -> MatchError:
    """An edit that ends the match before its last hand would strand the hands after it."""
    if isinstance(error, MatchOver) and error.hand is not None:
        return MatchError("hand", N_("with this change the match would be over before hand {hand}; "
                                     "delete the hands after it first"), None, hand=error.hand)
    return error


# ---- following a match (views/live.py, and the spectator's views/readonly.py) ----

def etag_for(match_id: int, version: int) -> str:
    """ETags are per URL, so the match and its version are enough."""
    return f'"{match_id}-{version}"'


def live_fragment(match_id: int | None = None, token: str | None = None):
    """A match's live fragment (by id, or read-only by its view token), a 304 while its version holds."""
    readonly = token is not None
    try:
        found_id, version = storage.match_version(get_db(), match_id, token, table=table_id())
    except storage.NoSuchMatch:
        abort(404, description=gettext("There is no such match."))
    tag = etag_for(found_id, version)
    if tag in request.headers.get("If-None-Match", ""):
        response = make_response("", 304)
    else:
        stored = storage.get_match(get_db(), found_id, table=table_id(), cache=match_cache())
        # Kept per version: every phone and spectator following the match asks for the same fragment.
        response = make_response(regions.render_page("_live.html", {}, (stored.facts, stored.version, readonly),
                                                     (stored.id, readonly), **sheet_context(stored, readonly)))
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache"
    return response


def big_page(stored, readonly: bool, live_url: str, spectator: bool = False):
    """`spectator`: reached by the read-only link, so the header leads nowhere else (templates/_spectator_top.html)."""
    return render_template("big.html", live_url=live_url, spectator=spectator, **sheet_context(stored, readonly))
