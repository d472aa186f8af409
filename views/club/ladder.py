"""The club's book: the table's ladder (its page, print, big screen and CSV), the provisional setting, and
tonight across every match of the table, with the next pairings and one tap to start one.

The figures come from models/game/ratings.py, models/game/night.py and models/game/pairing.py; storage from
models/storage/club.py. The ratings of a table are kept (views/site/pages.py's cache, under its bound) by the version of its
finished matches (models/storage/club.results_version): any write that changes what they read makes another key, and a
hand saved in a match still being played does not.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from types import MappingProxyType

from flask import Blueprint, Response, current_app, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext as _l
from markupsafe import Markup
from wtforms import HiddenField

from models.errors import MatchError
from models.files.sheetcsv import csv_text
from models.game.evening import GAP, tonight
from models.game.night import Night, tallies
from models.game.pairing import PairingRefused, pairings, tables_of_four
from models.game.ratings import PROVISIONAL_MOST, SCALE, START, Rated, ladder, rate, trend_path
from models.game.rules import Table
from models.game.tables.seats import seat
from models.storage import club
from models.storage.caches import approximate_size
from models.storage.match_rows import StoredMatch
from models.storage.matches import recent_matches
from models.storage.players import players_summary
from views.live.following import SHOWING_EVERY_MS
from views.live.quiet_polls import not_modified, unchanged
from views.match.summary import played_matches
from views.site.db import get_db, match_cache
from views.site.forms import Form, Most, whole
from views.site.i18n import current_language, number, signed, translated
from views.site.kept import EXTENSION
from views.site.pages import Part, request_part
from views.tables.players import name_key
from views.tables.scope import table_id

bp = Blueprint("ladder", __name__)

TREND_WIDTH, TREND_HEIGHT = 80, 22


class ProvisionalForm(Form):
    """The table's provisional count (models/game/ratings.py: PROVISIONAL, its bounds)."""

    provisional = whole(_l("Provisional below this many finished matches"), 0, PROVISIONAL_MOST)


class PairForm(Form):
    """A suggested pairing, started with one tap: the two players' ids, or a table of four's in seat order."""

    one = HiddenField(_l("First player"), validators=[Most(19)])
    two = HiddenField(_l("Second player"), validators=[Most(19)])
    three = HiddenField(_l("Third player"), validators=[Most(19)])
    four = HiddenField(_l("Fourth player"), validators=[Most(19)])

    def pair(self) -> tuple[int | None, ...]:
        """Two ids, or four when the third or fourth seat is sent (a missing or wrong one reads None)."""
        fields = (self.one, self.two) + ((self.three, self.four) if self.three.data or self.four.data else ())
        return tuple(int(field.data) if (field.data or "").isascii() and (field.data or "").isdigit() else None
                     for field in fields)


@dataclass(frozen=True)
class Book:
    """A table's ratings at one version of its matches, and its players' names: what the cache keeps."""

    rated: MappingProxyType  # player id -> Rated
    names: MappingProxyType  # player id -> name
    version: tuple | None  # the results_version of the matches read (None: there were none)
    size: int = 0  # what the page cache counts it as (views/pages.entry_size)


@lru_cache(maxsize=4096)
def reading_key(name: str, language: str):
    """A name's place in reading order (views/players.name_key), kept: a ladder sorts its 200 names on every GET."""
    return name_key(name, language)


def rating_text(value: int) -> str:
    """A rating as the page writes it: a true minus below 0 (as a net), no sign above."""
    return signed(value) if value < 0 else number(value)


def table_book(version: tuple) -> Book:
    """The table's ratings at `version` (club.results_version, read just now). What is computed is kept under
    the version of the matches it read, which a write coming between makes newer: it is found by a later
    request at that version, never by one at another."""
    cache = current_app.extensions[EXTENSION].pages
    found = cache.get(("ratings", table_id(), version))
    if not isinstance(found, Book):
        results, names, read = club.finished_results(get_db(), match_cache(), table=table_id())
        rated, names = rate(results), MappingProxyType(names)
        found = Book(rated, names, read, approximate_size((rated, names)))
        if read is not None:
            cache.put(("ratings", table_id(), read), found)
    return found


def table_night() -> tuple[Night, list[StoredMatch]]:
    """The evenings going on now at the table (models/game/evening.py), all of them: the club's night."""
    now = datetime.now(timezone.utc)
    since = (now - 4 * GAP).isoformat(timespec="seconds")
    matches = recent_matches(get_db(), since, cache=match_cache(), table=table_id(), tables=True)
    return Night(tuple(tonight(played_matches(matches), now))), matches


def etag(what: str, version: tuple) -> str:
    return '"' + "-".join(map(str, (what, table_id(), *version))) + '"'


def followed(what: str, version: tuple, draw):
    """The live region `draw()` draws, or "nothing new" while `version` is what the page shows (the match page's
    follow, static/app.js: X-Sheet names the ETag shown)."""
    tag = etag(what, version)
    asked = request.headers.get("If-None-Match", "")
    if tag in asked:
        return make_response("", 304, not_modified(tag))
    if request.headers.get("X-Sheet", "").strip() == tag:
        return make_response("", 200, unchanged(tag))
    response = make_response(draw())
    response.headers.update({"ETag": tag, "Cache-Control": "no-store"})
    response.vary.add("X-Sheet")
    return response


# --------------------------------------------------------------------------
# The ladder
# --------------------------------------------------------------------------

def ladder_context() -> dict:
    db = get_db()
    version = club.results_version(db, table=table_id())
    book = table_book(version)
    least = club.provisional_count(db, table=table_id())
    night, _ = table_night()
    since = night.start.isoformat(timespec="seconds") if night.start else None
    language = current_language()
    rungs, provisional = ladder(book.rated.values(), least, lambda rated: reading_key(book.names[rated.player], language))

    def change(rated: Rated) -> int | None:
        """What the rating moved since the night began; None if the player has not finished a match tonight."""
        if since is None or rated.last < since:
            return None
        return rated.rating - rated.rating_before(since)

    def trend(values: tuple[int, ...]) -> str:
        return trend_path(values, TREND_WIDTH, TREND_HEIGHT)

    above = {rung.rated.player: rungs[index - 1].rated.player for index, rung in enumerate(rungs) if index}
    return {"book": book, "rungs": rungs, "provisional": provisional, "least": least, "change": change,
            "trend": trend, "trend_size": (TREND_WIDTH, TREND_HEIGHT), "above": above, "scale": SCALE,
            "start": START, "etag": etag("ladder", version), "night": night, "rating_text": rating_text}


def drawn_ladder(context: dict, wide: bool, paper: bool = False) -> Markup:
    """The ladder's region, kept in the page cache by its ratings' version and what it shows of the request (its
    language, address and day: "today 20:14"), the provisional count and the night's start: drawing 200 rows
    costs far more than the ratings kept beside it (BENCHMARKS.md, "The ladder")."""
    version = context["book"].version
    if version is None:  # no finished match: nothing worth keeping
        return Markup(render_template("_ladder_region.html", wide=wide, paper=paper, **context))
    since = context["night"].start
    key = ("ladder", table_id(), version, context["least"], since, wide, paper, request_part())
    cache = current_app.extensions[EXTENSION].pages
    found = cache.get(key)
    if not isinstance(found, Part):
        found = Part(render_template("_ladder_region.html", wide=wide, paper=paper, **context))
        cache.put(key, found)
    return Markup(found.html)


@bp.get("/ladder")
def index():
    context = ladder_context()
    return render_template("ladder.html", form=ProvisionalForm(formdata=None, provisional=context["least"]),
                           most=PROVISIONAL_MOST, region=drawn_ladder(context, False), **context)


@bp.get("/ladder/print")
def printable():
    context = ladder_context()
    return render_template("ladder_print.html", region=drawn_ladder(context, True, paper=True),
                           printed=datetime.now(timezone.utc).isoformat(timespec="seconds"), **context)


@bp.get("/ladder/big")
def big():
    context = ladder_context()
    return render_template("ladder_big.html", every=SHOWING_EVERY_MS, region=drawn_ladder(context, True), **context)


@bp.get("/ladder/live")
def live():
    return followed("ladder", club.results_version(get_db(), table=table_id()),
                    lambda: drawn_ladder(ladder_context(), True))


@bp.get("/ladder.csv")
def ladder_csv():
    context = ladder_context()
    names, change = context["book"].names, context["change"]

    def row(rank, rated):
        moved = change(rated)
        return [rank, names[rated.player], rated.rating, rated.matches, rated.won, rated.last,
                "" if moved is None else moved]

    rows = [["rank", "name", "rating", "finished matches", "won", "last played", "change tonight"]]
    rows += [row(rung.rank, rung.rated) for rung in context["rungs"]]
    rows += [row("provisional", rated) for rated in context["provisional"]]
    return Response(csv_text(rows), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="gin-ledger-ladder.csv"'})


@bp.post("/ladder/provisional")
def provisional():
    form = ProvisionalForm()
    if not form.validate_on_submit():
        reasons = form.errors.get("provisional") or [gettext("The form had expired; nothing was changed.")]
        flash(gettext("Provisional count: %(reason)s", reason=" ".join(map(str, reasons))), "error")
        return redirect(url_for("ladder.index", _anchor="provisional"))
    try:
        club.set_provisional_count(get_db(), form.provisional.data, table=table_id())
    except MatchError as error:
        flash(gettext("Provisional count: %(reason)s", reason=translated(error)), "error")
    else:
        flash(gettext("Players with fewer than %(count)s finished matches are now listed as provisional.",
                      count=form.provisional.data))
    return redirect(url_for("ladder.index", _anchor="provisional"))


# --------------------------------------------------------------------------
# Tonight
# --------------------------------------------------------------------------

def asked_seats() -> str | None:
    """The seating asked for in the address, carried on to the page's links and forms."""
    return request.args.get("seats") if request.args.get("seats") in ("two", "four") else None


def ticked() -> list[int]:
    """The players ticked in as here (?here=<id>, repeated), as ids; anything else is left out."""
    return [int(value) for value in request.args.getlist("here") if value.isascii() and value.isdigit()
            and len(value) < 19]


def seating() -> str:
    """"four": tonight's pairs are seated two by two at partners tables (?seats=four, or by default when the
    club's latest match was a partners table); "two" (?seats=two, or else): each pair plays a match of two."""
    return asked_seats() or ("four" if club.latest_table(get_db(), table=table_id()) == Table.PARTNERS else "two")


def tonight_context() -> dict:
    db = get_db()
    version = club.table_version(db, table=table_id())
    book = table_book(club.results_version(db, table=table_id()))
    night, matches = table_night()
    players = players_summary(db, table=table_id())
    ids = {row["name"]: row["id"] for row in players}
    names = {row["id"]: row["name"] for row in players}
    language = current_language()
    came = {ids[name] for name in night.names if name in ids}  # whoever played tonight is here
    here = came | {i for i in ticked() if i in names}
    ratings = {player: book.rated[player].rating if player in book.rated else START for player in here}
    busy = {ids[name] for name in night.playing if name in ids}
    met = {frozenset(ids[name] for name in pair) for pair in night.met if all(name in ids for name in pair)}
    played = Counter(ids[name] for game in night.matches for name in game.sheet.match.players if name in ids)
    suggested = pairings(ratings, busy, met, played)
    seats = seating()
    fours, twos = tables_of_four(suggested.pairs) if seats == "four" else ((), suggested.pairs)
    by_id = {stored.id: stored for stored in matches}
    return {"night": night, "lines": tallies(night.matches, lambda name: reading_key(name, language)),
            "played": [by_id[played.id] for played in reversed(night.matches)],
            "suggested": suggested, "fours": fours, "twos": twos, "seats": seats, "asked_seats": asked_seats(),
            "ratings": ratings, "names": names, "ids": ids,
            "busy": sorted((names[i] for i in busy), key=lambda name: reading_key(name, language)),
            "here": sorted(here, key=lambda i: reading_key(names[i], language)),
            "ticked": [i for i in ticked() if i in names],
            "others": [row for row in sorted(players, key=lambda row: reading_key(row["name"], language))
                       if row["id"] not in came],
            "form": PairForm(formdata=None), "etag": etag("tonight", version), "rating_text": rating_text}


@bp.get("/tonight")
def night():
    return render_template("tonight.html", every=SHOWING_EVERY_MS, **tonight_context())


@bp.get("/tonight/live")
def night_live():
    return followed("tonight", club.table_version(get_db(), table=table_id()),
                    lambda: render_template("_tonight_region.html", **tonight_context()))


@bp.post("/tonight/start")
def start():
    """One tap on a suggested pairing: a new match of the two with the rules of the table's latest match of two,
    or of the four at a partners table with those of its latest partners match."""
    form = PairForm()
    back = redirect(url_for("ladder.night", here=ticked() or None, seats=asked_seats()))
    if not form.validate_on_submit():
        wrong = [field for field in (form.one, form.two, form.three, form.four) if field.errors]
        if wrong and not form.csrf_token.errors:  # a player id past any stored one: no such player, said so
            flash(gettext("%(field)s: %(reason)s", field=wrong[0].label.text,
                          reason=gettext("There is no such player at this table; nothing was started.")), "error")
        else:
            flash(gettext("The form had expired; nothing was changed."), "error")
        return back
    since = (datetime.now(timezone.utc) - GAP).isoformat(timespec="seconds")
    try:
        match_id, match = club.start_pairing(get_db(), form.pair(), since, random.SystemRandom().choice,
                                             table=table_id())
    except PairingRefused as refusal:
        flash(translated(refusal), "error")
        return back
    sides = seat(match.table, match.players)
    players = match.players if sides is None else sides.names
    flash(gettext("New match: %(one)s vs %(two)s. %(dealer)s deals first.", one=players[0], two=players[1],
                  dealer=match.dealer))
    return redirect(url_for("matches.show", match_id=match_id))
