"""Following a match from another phone: small fragments answered with ETag and 304.

A follower asks every 1.5 s; while nothing changed the answer is a 304 that
costs one indexed SELECT and no fold. Polling suits waitress (a fixed pool of
threads) better than server-sent events, which would hold a thread per follower.
"""
from __future__ import annotations

from flask import Blueprint, abort, make_response, render_template, request, url_for
from flask_babel import gettext

from .db import get_db
from models import storage

from .common import match_by_token_or_404, match_or_404, table_id, sheet_context

bp = Blueprint("live", __name__)


def etag_for(match_id: int, version: int) -> str:
    """ETags are per URL, so the match and its version are enough."""
    return f'"{match_id}-{version}"'


def fragment(match_id: int | None = None, token: str | None = None):
    readonly = token is not None
    try:
        found_id, version = storage.match_version(get_db(), match_id, token, table=table_id())
    except storage.NoSuchMatch:
        abort(404, description=gettext("There is no such match."))
    tag = etag_for(found_id, version)
    if tag in request.headers.get("If-None-Match", ""):
        response = make_response("", 304)
    else:
        stored = storage.get_match(get_db(), found_id, table=table_id())
        response = make_response(render_template("_live.html", **sheet_context(stored, readonly)))
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/matches/<int:match_id>/live")
def match_live(match_id: int):
    return fragment(match_id=match_id)


@bp.get("/view/<token>/live")
def view_live(token: str):
    return fragment(token=token)


def big_page(stored, readonly: bool, live_url: str, spectator: bool = False):
    """`spectator`: reached by the read-only link, so the header leads nowhere else (templates/_spectator_top.html)."""
    return render_template("big.html", live_url=live_url, spectator=spectator, **sheet_context(stored, readonly))


@bp.get("/view/<token>/big")
def big_view(token: str):
    return big_page(match_by_token_or_404(token), True, url_for("live.view_live", token=token), spectator=True)


@bp.get("/matches/<int:match_id>/big")
def big_match(match_id: int):
    return big_page(match_or_404(match_id), True, url_for("live.match_live", match_id=match_id))
