"""Following a match from another phone: small fragments answered with ETag and 304.

A phone follows every 2.5 s, a page that only shows the match every 5 s (views/live/following.py, follow_every;
10 s after five quiet minutes); while nothing changed the answer is a 304 that costs one indexed SELECT and
no fold. A page polls only where its event stream (views/live/stream.py) cannot open: under waitress, whose
fixed pool of threads a held stream would take, or behind a proxy that buffers.
"""
from __future__ import annotations

from flask import Blueprint, url_for

from .following import big_page, live_fragment
from views.match.match_page import match_or_404

bp = Blueprint("live", __name__)


@bp.get("/matches/<int:match_id>/live")
def match_live(match_id: int):
    return live_fragment(match_id=match_id)


@bp.get("/matches/<int:match_id>/big")
def big_match(match_id: int):
    return big_page(match_or_404(match_id), True, url_for("live.match_live", match_id=match_id))
