"""Following a match by a held stream (server-sent events): each change pushed as it is committed.

A page that follows a match (static/app.js) opens `.../stream?shown=<ETag>`; every event is the version
drawn (`id:`, the ETag of views/live/following.py) and what a poll would bring a page showing the version
before (`moved_on`: the step, or the whole live region), so one event is applied as a poll's answer is.
The browser reconnects by itself and names the last version it got (Last-Event-ID): a page that missed
anything (a restarted server, a lost Wi-Fi) gets the whole live region at once, and a page that missed
nothing gets nothing. The event names no version the page did not ask for, so nothing is doubled.

A held stream costs what the server makes it cost. Under gevent (gunicorn's gevent workers, the README's
club command) it costs a greenlet: STREAMS_MAX and the worker's connections less a reserve kept for
saves bound them (views/live/room.py); under a server of threads (`flask run`) a
thread: STREAM_THREADS bounds them; under waitress (four threads for everything) none is held. A stream
refused is a 503 and the page script polls instead (views/live/quiet_polls.py). One address holds at most
STREAMS_PER_ADDRESS. Behind a passphrase the stream is refused before this view runs (views/tables/access.py),
as every other page is; the spectator's stream is the read-only fragment of its view token.
A held stream holds no connection and no request: the match's room (views/live/hub.py) reads and draws each
change once for all its streams, and each stream fills only its own CSRF token and hand form id.
"""
from __future__ import annotations

import logging

from flask import Blueprint, Response, current_app, request
from flask_wtf.csrf import generate_csrf

from models.errors import NoSuchMatch
from models.storage import postgres
from models.storage.matches import match_version
from models.storage.notifier import Notifier
from views.match.forms import new_form_id
from views.site.blanks import CSRF
from views.site.csrf import mask
from views.site.db import close_db, get_db
from views.tables.scope import table_id

from . import room
from .hub import HUB, Hub

log = logging.getLogger(__name__)
bp = Blueprint("stream", __name__)
view_bp = Blueprint("view_stream", __name__)
NOTIFIER = "gin_ledger_notifier"
# A comment this often: a phone gone is noticed, and a proxy keeps the stream open. It must stay below the
# idle timeouts proxies close a quiet answer at (nginx's proxy_read_timeout and most load balancers 60 s,
# HAProxy's example configuration 50 s); each one is a send and a version read for every held stream.
HEARTBEAT_S = 30
RETRY_MS = 1000  # how soon a browser tries again after the stream broke


def init_app(app) -> None:
    app.extensions[NOTIFIER] = Notifier(app.config["DATABASE"])
    app.extensions[HUB] = Hub(app, app.extensions[NOTIFIER])
    room.init_app(app)


def stream(match_id: int | None = None, token: str | None = None):
    readonly = token is not None
    # NoSuchMatch is the errors blueprint's 404, "There is no such match.", as for every other page
    found_id, _number, _epoch, _version = match_version(get_db(), match_id, token, table=table_id())
    close_db()  # no connection is held while the stream is: its room reads for it (views/live/hub.py)
    app, address = current_app._get_current_object(), request.remote_addr or ""
    if not room.take(address):  # the worker's last connections are kept for saves (views/live/room.py)
        return Response("", 503, {"Retry-After": "60", "Cache-Control": "no-store"})
    shown = (request.headers.get("Last-Event-ID") or request.args.get("shown") or "").strip()
    token_raw = "" if readonly else generate_csrf()  # masked anew in each event (views/site/csrf.py)
    match_room, moved, way = app.extensions[HUB].enter(found_id, table_id(), readonly)
    own = {CSRF: lambda: mask(token_raw), "form_id": new_form_id}
    peer = room.Peer(request.environ, moved.set)  # a page closed ends the stream at once

    def events():
        nonlocal shown
        yield f"retry: {RETRY_MS}\n: {' ' * 2048}\n\n"  # padding: a proxy's first buffer passes at once
        yield "event: hello\ndata: \n\n"  # the page knows the stream passes: it stops polling
        while True:
            # A heartbeat asks the database nothing: an idle table costs it nothing. The watcher
            # wakes the room when it may have missed a change (models/storage/notifier.py).
            woken = moved.wait(HEARTBEAT_S)
            if peer.gone():
                return
            if not woken:
                yield ": \n\n"
                continue
            moved.clear()
            latest = match_room.latest  # the room's one read and drawing of the change, shared by its streams
            if latest is None:
                continue
            if isinstance(latest.end, NoSuchMatch):
                yield "event: gone\ndata: \n\n"
                return
            if latest.end is not None:
                # The database is cut: this stream ends, with one line (no traceback); the browser tries
                # again, is answered 503 while the database is away, and the page polls (static/app.js).
                log.warning("Gin Ledger: the stream of match %s closed: %s: %s", found_id,
                            type(latest.end).__name__, postgres.first_line(latest.end))
                return
            drawn = match_room.event(latest, moved, way, shown)
            if isinstance(drawn, Exception):  # logged once by the room
                return
            if drawn is not None:
                yield drawn.filled(own)
                shown = latest.tag

    def release():  # when the server closes the answer, even one never begun
        peer.stop()
        app.extensions[HUB].leave(match_room, moved, way)
        room.give_back(app, address)

    response = Response(events(), mimetype="text/event-stream")
    response.call_on_close(release)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx passes each event on as it comes
    return response


@bp.get("/matches/<int:match_id>/stream")
def match_stream(match_id: int):
    return stream(match_id=match_id)


@view_bp.get("/view/<token>/stream")
def view_stream(token: str):
    return stream(token=token)


streams_held = room.streams_held
