"""Following a match from another phone or a spectator's link: its live fragment, answered with an
ETag and a 304 while nothing changed, kept whole per key (views/pages.py), and the big screen."""
from __future__ import annotations

from flask import abort, make_response, render_template, request, url_for

from .db import get_db, match_cache
# The page's catalogue, looked up once a request.
from .i18n import page_gettext as gettext
from .match_page import render_broken
from .forms import new_form_id
from .pages import blank, kept_page, per_request
from .scope import table_id
from .sheet import sheet_context
from models import storage


def etag_for(match_id: int, epoch: str, version: int) -> str:
    """ETags are per URL; the epoch makes a restored file's versions new tags."""
    return f'"{match_id}-{epoch}-{version}"'


def fragment(stored, readonly: bool = False) -> str:
    """What moved on since the version before: the board, the sheet and the next hand's state, kept
    whole per key, with a new one-time id for the next hand's form (a blank each response fills)."""
    return kept_page("live", stored, readonly,
                     lambda: render_template("_live.html", form_id=blank("form_id"), **sheet_context(stored, readonly)),
                     {"form_id": new_form_id()})


def saved_answer(stored, number: int):
    """The page script's save: what a follower gets, and this request's own notices (the flash, the way back).
    The script applies it as a follower applies a poll's answer (static/app.js, `moved`)."""
    notices = per_request("notices", stored=stored)
    response = make_response(f'<div data-region="notices">{notices}</div>' + fragment(stored))
    response.headers["X-Answer"] = "fragment"
    response.headers["X-Hand-Number"] = str(number)
    response.headers["Content-Location"] = url_for("matches.show", match_id=stored.id)
    response.headers["ETag"] = etag_for(stored.id, stored.epoch, stored.version)
    response.headers["Cache-Control"] = "no-store"
    return response


def live_fragment(match_id: int | None = None, token: str | None = None):
    """A match's live fragment (by id, or read-only by its view token), a 304 while its version holds."""
    readonly = token is not None
    try:
        found_id, epoch, version = storage.match_version(get_db(), match_id, token, table=table_id())
    except storage.NoSuchMatch:
        abort(404, description=gettext("There is no such match."))
    tag = etag_for(found_id, epoch, version)
    if tag in request.headers.get("If-None-Match", ""):
        response = make_response("", 304)
    else:
        stored = storage.get_match(get_db(), found_id, table=table_id(), cache=match_cache())
        tag = etag_for(stored.id, stored.epoch, stored.version)  # what is drawn: a write may have come between
        body = render_broken(stored) if stored.refusal is not None else fragment(stored, readonly)
        response = make_response(body)
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache"
    return response


def big_page(stored, readonly: bool, live_url: str, spectator: bool = False):
    """`spectator`: reached by the read-only link, so the header leads nowhere else (templates/_spectator_top.html)."""
    return render_template("big.html", live_url=live_url, spectator=spectator, **sheet_context(stored, readonly))
