"""Following a match from another phone or a spectator's link: its live fragment, answered with an
ETag and a 304 while nothing changed, kept whole per key (views/site/pages.py), and the big screen."""
from __future__ import annotations

from flask import abort, make_response, render_template, request, url_for

from views.site.db import get_db, match_cache
# The page's catalogue, looked up once a request.
from views.site.i18n import page_gettext as gettext
from views.match.match_page import is_table, render_broken
from views.match.table_view import table_context
from views.match.forms import new_form_id
from views.site.blanks import blank
from views.site.pages import kept_part, kept_page, note, noted, per_request
from .quiet_polls import etag_for, not_modified, unchanged
from views.tables.numbers import shown as number_shown, shown_number
from views.tables.scope import table_id
from views.match.sheet import sheet_context, sheet_rows
from models.errors import NoSuchMatch
from models.storage.matches import get_match, match_version


# How often a page asks whether the match moved on, in milliseconds (static/app.js reads it from the
# page's data-every). A page that enters hands sees the other phone's save within 3 s (the pace plus a
# poll's round trip), before its own player types the same deal again. A page that only shows the match
# (the spectator's link, the big screen) enters nothing that could meet another save: it asks half as often.
ENTERING_EVERY_MS, SHOWING_EVERY_MS = 2500, 5000


def follow_every(readonly: bool) -> int:
    return SHOWING_EVERY_MS if readonly else ENTERING_EVERY_MS


def tag_of(stored, version_back: int = 0) -> str:
    """The ETag of the live region `stored` draws (or of the version `version_back` before it)."""
    return etag_for(shown_number(stored), stored.epoch, stored.version - version_back)


def live_context(stored, readonly: bool) -> dict:
    """What the live region draws from, its race pictures drawn once per key for the phones and the
    spectator alike (they show nothing of who asks)."""
    context = sheet_context(stored, readonly)
    race = context["race_figure"]
    context["race_figure"] = lambda number: kept_part(f"race-{number}", stored, lambda: race(number))
    return context


def fragment(stored, readonly: bool = False) -> str:
    """The live region of `stored`: the board, the sheet and the next hand's state, kept whole per key,
    with a new one-time id for the next hand's form (a blank each response fills)."""
    if is_table(stored):  # a table of three or four: its own regions (templates/_table_live.html)
        def draw():
            return render_template("_table_live.html", form_id=blank("form_id"), **table_context(stored, readonly))
    else:
        def draw():
            return render_template("_live.html", form_id=blank("form_id"), **live_context(stored, readonly))
    return kept_page("live", stored, readonly, draw, {"form_id": new_form_id()})


APPENDED = "appended"


def appended(before, after) -> bool:
    """Whether the one write from `before` to `after` added a hand at the end and opened no game: then
    every row `before` draws is a row of `after`, as drawn (a fold steps one hand, models/game/ledger.py)."""
    if before.refusal is not None or after.refusal is not None:
        return False
    old, new = before.sheet(), after.sheet()
    return (after.id == before.id and after.epoch == before.epoch and after.version == before.version + 1
            and len(new.lines) == len(old.lines) + 1
            and [game.number for game in new.games] == [game.number for game in old.games])


def note_moved_on(before, after) -> None:
    """After a write's commit: the followers one version behind may be sent only the new row (`moved_on`)."""
    if appended(before, after):
        note(APPENDED, after)


def step(stored, readonly: bool = False) -> str:
    """The live region of `stored` for a page drawn at the version before, which added its last hand:
    drawn as `fragment` is, but the sheet's body holds only the new hand's rows, and says which rows of
    the page's own it keeps (data-folded, data-after) and the version it applies to (data-from)."""
    def draw():
        context = live_context(stored, readonly)
        sheet = context["sheet"]
        context["rows"] = sheet_rows(sheet, len(sheet.lines) - 1)
        return render_template("_live.html", form_id=blank("form_id"),
                               step={"after": len(sheet.lines) - 1,
                                     "from": tag_of(stored, 1)}, **context)

    return kept_page("live-step", stored, readonly, draw, {"form_id": new_form_id()})


def moved_on(stored, readonly: bool, shown: str | None) -> str:
    """What a page showing the version tagged `shown` needs to show `stored`: the step when the one write
    between them added a hand (noted by that write), else the whole live region. One answer for a
    follower's poll and for the page script's own save."""
    if shown == tag_of(stored, 1) and noted(APPENDED, stored) and not is_table(stored):
        return step(stored, readonly)
    return fragment(stored, readonly)


def saved_answer(stored, number: int, shown: str | None = None):
    """The page script's save: what a follower showing the version tagged `shown` gets, and this request's
    own notices (the flash, the way back). The script applies it as a follower applies a poll's answer
    (static/app.js, `moved`)."""
    notices = per_request("notices", stored=stored)
    response = make_response(f'<div data-region="notices">{notices}</div>' + moved_on(stored, False, shown))
    response.headers["X-Answer"] = "fragment"
    response.headers["X-Hand-Number"] = str(number)
    response.headers["Content-Location"] = url_for("matches.show", match_id=stored.id)
    response.headers["ETag"] = tag_of(stored)
    response.headers["Cache-Control"] = "no-store"
    return response


def live_fragment(match_id: int | None = None, token: str | None = None):
    """A match's live fragment (by id, or read-only by its view token), a 304 while its version holds."""
    readonly = token is not None
    try:
        found_id, number, epoch, version = match_version(get_db(), match_id, token, table=table_id())
    except NoSuchMatch:
        abort(404, description=gettext("There is no such match."))
    tag = etag_for(number_shown(found_id, number), epoch, version)
    asked = request.headers.get("If-None-Match", "")
    shown = request.headers.get("X-Sheet", asked).strip()  # the page script's poll names what it shows
    if tag in asked:
        return make_response("", 304, not_modified(tag))
    if shown == tag:  # nothing new, answered as views/live/quiet_polls.py answers it before Flask
        return make_response("", 200, unchanged(tag))
    stored = get_match(get_db(), found_id, table=table_id(), cache=match_cache())
    tag = tag_of(stored)  # what is drawn: a write may have come between
    response = make_response(render_broken(stored) if stored.refusal is not None else moved_on(stored, readonly, shown))
    response.headers["ETag"] = tag
    if "X-Sheet" in request.headers:  # drawn for the version it names: kept nowhere
        response.headers["Cache-Control"] = "no-store"
        response.vary.add("X-Sheet")
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response


def big_page(stored, readonly: bool, live_url: str, spectator: bool = False):
    """`spectator`: reached by the read-only link, so the header leads nowhere else (templates/_spectator_top.html)."""
    if is_table(stored):
        return render_template("table_big.html", live_url=live_url, spectator=spectator,
                               **table_context(stored, readonly, controls=False))
    return render_template("big.html", live_url=live_url, spectator=spectator, **sheet_context(stored, readonly))
