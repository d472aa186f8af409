"""One read and one drawing per change per process, handed to every held stream of the match (issue 47).

A room per followed match: one follower of the change watcher (models/storage/notifier.py) and one waiter
(a thread, a greenlet under gevent). Woken, the waiter reads the match once on one pooled connection, given
back at once, and wakes the room's streams. The first stream that needs an event of the change draws it,
once for all, for its way (a `Way`: read-only or not, and what a kept page shows of the request,
views/site/pages.request_part): the step for a page one version behind, or the whole region for any other,
as a server-sent event with its blanks left (the CSRF token, the hand form's one-time id); each stream
writes it filling only its blanks. Once every stream woken for the change has looked, its drawings are let
go: a room at rest keeps the version it read and nothing drawn. A stream holds its event to wait on and the
tag it sent, nothing of the database.
What must stay true: a room reads the match after it follows the watcher and before its first stream says
hello (a change that stream's page missed is sent at once); its `latest` only moves on after it is read;
every stream woken for a change looks at the room's latest; a stream that missed a change gets the whole
region.
"""
from __future__ import annotations

import io
import logging
import sqlite3
import threading
from dataclasses import dataclass, field

from flask import g, request

from models.errors import LedgerError, NoSuchMatch
from models.storage import postgres
from models.storage.matches import get_match
from views.match.match_page import render_broken
from views.site.blanks import CSRF, blank
from views.site.db import give_back, match_cache, request_connection
from views.site.pages import Blanked, blanks_left, request_part
from views.tables.numbers import known

from .following import moved_on, note_moved_on, tag_of

log = logging.getLogger(__name__)
HUB = "gin_ledger_hub"
FAULTS = (LedgerError, sqlite3.Error, postgres.psycopg.Error)


def event(tag: str, html: str) -> str:
    return f"id: {tag}\ndata: " + html.replace("\r", "").replace("\n", "\ndata: ") + "\n\n"


@dataclass(frozen=True)
class Change:
    """A version read once: its tag, the tag of the version before, the streams woken for it that have not
    looked yet, and its events drawn for them by (Way.key, one behind or whole)."""
    tag: str
    before: str
    epoch: str
    version: int
    stored: object = None
    drawn: dict = field(default_factory=dict)  # (Way.key, one behind) -> Blanked event, while `waiting`
    waiting: set = field(default_factory=set)
    end: BaseException | None = None  # NoSuchMatch (the match is gone) or the fault that cut the database

    def newer_than(self, shown: str) -> bool:
        """Whether a page showing `shown` is behind: a page drawn after the room last read is not."""
        if shown == self.tag:
            return False
        number, _, rest = shown.strip('"').partition("-")
        epoch, _, version = rest.rpartition("-")
        mine = self.tag.strip('"').split("-", 1)[0]
        return not (number == mine and epoch == self.epoch and version.isdigit() and int(version) > self.version)


class Way:
    """How some streams of a room see its match: read-only or not, and the request's part of a kept page.
    It keeps one request's address and headers (never its body) to draw in when no request is there."""

    def __init__(self, key, readonly: bool):
        self.key, self.readonly, self.streams = key, readonly, 0
        self.environ = {name: value for name, value in request.environ.items() if isinstance(value, str)}
        self.table = g.get("table")

    def draw(self, app, stored, behind: bool) -> Blanked:
        environ = {**self.environ, "wsgi.input": io.BytesIO(b""), "wsgi.errors": io.StringIO()}
        with app.request_context(environ):
            g.table = self.table
            return draw_here(stored, self.readonly, behind)


def draw_here(stored, readonly: bool, behind: bool) -> Blanked:
    """The event of `stored` for a page one version behind (`behind`) or for any other, drawn in this request."""
    known([stored])  # its address is built without a query
    tag = tag_of(stored)
    with blanks_left():
        if stored.refusal is not None:
            return Blanked(event(tag, drawn_blanked(render_broken(stored))))
        return Blanked(event(tag, drawn_blanked(moved_on(stored, readonly, tag_of(stored, 1) if behind else None))))


def drawn_blanked(drawn) -> str:
    """A page drawn inside `blanks_left`, with only each stream's own blanks left (a broken match's page
    shows no notices: a stream's event carries no flash; nor a logout button)."""
    found = drawn if isinstance(drawn, Blanked) else Blanked(str(drawn))
    own = {CSRF: blank(CSRF), "form_id": blank("form_id")}
    names = set(found.pieces[1::2])
    return found.filled({name: own.get(name, "") for name in names}) if names else found.pieces[0]


class Room:
    """The streams of one match in this process, its one follower of the watcher and its one waiter."""

    def __init__(self, hub: "Hub", key, match_id: int, table: int):
        self.hub, self.key, self.match_id, self.table = hub, key, match_id, table
        self.lock = threading.Lock()
        self.ways: dict = {}
        self.streams: set[threading.Event] = set()
        self.latest: Change | None = None
        self.closed = False
        self.follower = hub.notifier.follow(match_id)
        self.waiter = threading.Thread(target=self.wait, daemon=True, name=f"gin-ledger-room-{match_id}")

    def join(self, readonly: bool) -> tuple[threading.Event, object]:
        """In the stream's request: its event to wait on, and its way."""
        key = (readonly, request_part()[:-1])  # the day is the drawing's own
        moved = threading.Event()
        with self.lock:
            way = self.ways.get(key)
            if way is None:
                way = self.ways[key] = Way(key, readonly)
            way.streams += 1
            self.streams.add(moved)
        moved.set()  # it looks at once: what the room read since the page was drawn
        return moved, key

    def leave(self, moved: threading.Event, key) -> None:
        with self.lock:
            self.streams.discard(moved)
            if self.latest is not None:
                self.looked(self.latest, moved)
            way = self.ways.get(key)
            if way is not None:
                way.streams -= 1
                if not way.streams:
                    del self.ways[key]

    def wait(self) -> None:
        while self.turn():
            self.follower.wait(None)

    def turn(self) -> bool:
        """One look: a new version read, kept and told to the streams. False once the room has ended."""
        if self.closed:
            return False
        try:
            with self.hub.app.app_context():
                change = self.look()
        except Exception as error:  # a fault of the app's own: the room ends, each stream with one line
            log.exception("the room of match %s", self.match_id)
            change = Change("", "", "", -1, end=error)
        if change is None:
            return True
        with self.lock:
            self.latest = change
            woken = list(self.streams)
            change.waiting.update(woken)
        for moved in woken:
            moved.set()
        if change.end is not None:
            self.hub.close(self)
            return False
        return True

    def look(self) -> Change | None:
        """The match read once; None when its version is the one already sent."""
        try:
            stored = self.hub.read(self)
        except NoSuchMatch as gone:
            return Change("", "", "", -1, end=gone)
        except FAULTS as error:
            return Change("", "", "", -1, end=error)
        latest = self.latest
        if latest is not None and (latest.epoch, latest.version) == (stored.epoch, stored.version):
            return None
        if latest is not None and latest.stored is not None:
            # the version before, as the write itself saw it: a follower in another process than the
            # writer's gets the step too, not the whole region
            note_moved_on(latest.stored, stored)
        return Change(tag_of(stored), tag_of(stored, 1), stored.epoch, stored.version, stored)

    def event(self, change: Change, moved: threading.Event, key, shown: str) -> Blanked | Exception | None:
        """What the stream of `moved` (of way `key`), its page showing `shown`, writes of `change`: None when
        its page is not behind; drawn by the first stream of its way and kind that needs it. A drawing that
        failed (a fault of the app's own) is logged once and handed to each such stream, to end it."""
        with self.lock:
            try:
                if not change.newer_than(shown):
                    return None
                kind = (key, shown == change.before)
                if kind not in change.drawn:
                    change.drawn[kind] = self.draw(change, *kind)
                return change.drawn[kind]
            finally:
                self.looked(change, moved)

    def draw(self, change: Change, key, behind: bool) -> Blanked | Exception:
        try:
            return self.ways[key].draw(self.hub.app, change.stored, behind)
        except Exception as error:
            log.exception("drawing match %s", self.match_id)
            return error

    @staticmethod
    def looked(change: Change, moved: threading.Event) -> None:
        """Under the room's lock: the stream of `moved` needs nothing more of `change` drawn."""
        change.waiting.discard(moved)
        if not change.waiting:
            change.drawn.clear()


class Hub:
    """This process's rooms by (table, match). `reads` counts the database's reads of every room."""

    def __init__(self, app, notifier):
        self.app, self.notifier = app, notifier
        self.lock = threading.Lock()
        self.rooms: dict = {}
        self.reads = 0

    def enter(self, match_id: int, table: int, readonly: bool):
        """(room, event, way key) of a new stream. For the match's first, the room is made and reads the match
        (after it follows the watcher, so no later change is missed) before its stream says hello; then its
        waiter waits for the watcher."""
        with self.lock:
            room = self.rooms.get((table, match_id))
            fresh = room is None
            if fresh:
                room = self.rooms[(table, match_id)] = Room(self, (table, match_id), match_id, table)
        if fresh and room.turn():
            room.waiter.start()
        moved, key = room.join(readonly)
        return room, moved, key

    def leave(self, room: Room, moved, key) -> None:
        room.leave(moved, key)
        with self.lock:
            if room.streams or self.rooms.get(room.key) is not room:
                return
            del self.rooms[room.key]
        self.end(room)

    def close(self, room: Room) -> None:
        """A room that met its match's end or a fault: new streams get a new room."""
        with self.lock:
            if self.rooms.get(room.key) is room:
                del self.rooms[room.key]
        self.end(room)

    def end(self, room: Room) -> None:
        room.closed = True
        self.notifier.leave(room.follower)
        room.follower.moved.set()

    def read(self, room: Room):
        """The match, on one pooled connection given back at once (in the app's context: Room.turn)."""
        conn = request_connection(self.app)
        try:
            self.reads += 1
            return get_match(conn, room.match_id, table=room.table, cache=match_cache())
        finally:
            give_back(self.app, conn)

    def count(self) -> int:
        with self.lock:
            return len(self.rooms)
