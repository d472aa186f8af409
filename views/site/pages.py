"""The one cache of pages: a match page with a fresh hand form and a match's live fragment, each
kept whole, drawn once per key and then only filled in.

The key is what the page shows: `stored.key` (the file's epoch, the match's id and its version: every
write bumps the version, models/storage/work.py, and a restored file has a new epoch), whether it is the
read-only view, and what the page shows of the request (`request_part`). Nothing else goes into a
kept page: what two requests for the same page must not share is drawn as a blank (`blank`) and
filled for each request: the CSRF token, the hand form's one-time id, the session's notices (the
flashes and the way back) and the logout button.

Beside the pages, under the same bound, a write leaves notes of the version it made (`note`): what only
it knows, as that it added one hand at the end (views/live/following.py, `moved_on`).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from datetime import datetime

from flask import g, render_template, request
from markupsafe import Markup, escape


from .blanks import CSRF, END, MARK, blank, drawing_kept
from .csrf import masked_token
from .i18n import current_language
from .kept import app_caches

# Drawn for each request, never kept: what the session says (the flashes and the way back, the logout button).
PER_REQUEST = {"notices": "_notices.html", "logout": "_logout.html"}


def per_request(name: str, **context) -> Markup:
    """A part of the page that is this request's own; in a page being kept, a blank for it."""
    if drawing_kept():
        return Markup(blank(name))
    return Markup(render_template(PER_REQUEST[name], **context))


def request_part() -> tuple:
    """What a kept page shows of the request: its language, the table's key, the address the app is
    reached and mounted at (a printed long sheet names its whole sheet's address), and the day (a
    match page says 'today 20:14', which at midnight is 'yesterday')."""
    table = g.get("table")
    return (current_language(), table.key if table is not None else None, request.host_url, request.script_root,
            datetime.now().astimezone().date())


class Blanked:
    """A kept page cut at its blanks once: (text, name, text, name, …, text), filled with one join."""

    __slots__ = ("pieces", "size")

    def __init__(self, text: str):
        pieces: list[str] = []
        first, *rest = text.split(MARK)
        pieces.append(first)
        for piece in rest:
            name, _, after = piece.partition(END)
            pieces += (name, after)
        self.pieces = tuple(pieces)
        self.size = sum(sys.getsizeof(piece) for piece in pieces) + 64

    def filled(self, values: dict) -> str:
        out, made = [self.pieces[0]], {}
        for i in range(1, len(self.pieces), 2):
            name = self.pieces[i]
            if name not in made:
                value = values[name]
                made[name] = value() if callable(value) else str(escape(value))
            out += (made[name], self.pieces[i + 1])
        return "".join(out)


def kept_page(what: str, stored, readonly: bool, draw, values: dict[str, str]) -> str:
    """The page `draw()` draws for `stored`, kept by its key; `values` fill the blanks it drew."""
    key = (what, stored.key, readonly, request_part())
    cache = app_caches().pages
    found = cache.get(key)
    if found is None:
        was, g.drawing_kept = drawing_kept(), True  # the CSRF token is drawn as its blank (views/site/csrf.masked_token)
        try:
            html = draw()
        finally:
            g.drawing_kept = was
        found = Blanked(html)
        cache.put(key, found)
    if g.get("blanks_left"):  # the drawing itself, for views/live/hub.py to fill per stream
        return found
    filling = {CSRF: masked_token, **values}
    for name, template in PER_REQUEST.items():
        filling[name] = lambda template=template: render_template(template, stored=stored)
    return found.filled(filling)


@contextmanager
def blanks_left():
    """Inside, a kept page is answered as its Blanked and the request's own parts as blanks: drawn once for
    many answers, each filling its own (views/live/hub.py)."""
    g.blanks_left = g.drawing_kept = True
    try:
        yield
    finally:
        g.pop("blanks_left", None)
        g.pop("drawing_kept", None)


class Part:
    """A part drawn by itself and shared by every page of its key that shows it (a race picture)."""

    __slots__ = ("html", "size")

    def __init__(self, html: str):
        self.html = html
        self.size = sys.getsizeof(html) + 64


def kept_part(what: str, stored, draw) -> Markup:
    """`draw()` for `stored`, kept by its key and what the page shows of the request; it holds nothing of
    one request's own (no blank)."""
    key = (what, stored.key, request_part())
    cache = app_caches().pages
    found = cache.get(key)
    if not isinstance(found, Part):
        found = Part(str(draw()))
        cache.put(key, found)
    return Markup(found.html)


class Noted:
    """A fact about one version kept beside its pages, under the same bound: true of its key forever."""

    __slots__ = ("size",)

    def __init__(self):
        self.size = 64


def note(what: str, stored) -> None:
    """Say `what` of `stored`'s version (its key): only the write that made the version knows it."""
    app_caches().pages.put((what, stored.key), Noted())


def noted(what: str, stored) -> bool:
    """Whether `what` was said of `stored`'s version; an evicted note is only not known."""
    return isinstance(app_caches().pages.get((what, stored.key)), Noted)


def entry_size(page: Blanked | Part | Noted) -> int:
    return page.size
