"""Regions of a page drawn once and kept, so a page costs what changed since it was last drawn.

A template marks a region: `{% call region("rules", match.rules) %}...{% endcall %}`. A region is
found again by its name, the values it says it shows, and what any region may show of the
request (`request_stamp`: the language, the day, the address the app is mounted at and the
table's). A match's regions name `stored.facts` (all it shows of the match but its hands) and,
where the hands show, `stored.version`; every write path changes one of them (the version is
bumped by every change a page shows, models/storage.py), so a write never leaves a region stale:
it only makes a new key. A region kept in a `slot` (a match's scoreboard, its page) is replaced
there by its next drawing; any other old entry ages out of the bounded cache.

What two requests for the same page must not share is never kept: the CSRF token is cut out of
a region before it is kept, and the hand form's one-time id, hand number and version are drawn
as blanks; `render_page` fills in this request's values. Outside `render_page` (a page that
does not use it, a refused form drawn with its errors) `region` draws its body every time and
keeps nothing, so a region can never leak a blank or another request's token.

A page whose every version looks the same but for a few `part`s (a match page: its scoreboard
and its sheet) is kept twice: as its frame, drawn once with blanks where the parts go and the
version's own values (`page_value`), and per version as that frame with the version's parts
drawn in. A saved hand then draws two parts, not the walk of the whole page. Kept pages are
`CutPage`s: UTF-8 cut at their blanks, filled with one join.
"""
from __future__ import annotations

import secrets
import sys
from datetime import datetime

from flask import current_app, g, render_template, request
from flask_wtf.csrf import generate_csrf
from jinja2 import pass_context
from markupsafe import Markup, escape

from models import caches

from .i18n import current_language

# Private-use characters and a per-process random word: no template, name or number contains it.
MARK = "\ue000" + secrets.token_hex(6)
END = "\ue001"
CSRF = "csrf"
STAMP = "stamp"  # the request stamp, worked out once a page, not once a region
CACHE = "cache"  # the app's cache of regions, found once a page
FRAMING = "framing"  # set while a page's frame is drawn: its parts are left as blanks
NOT_BLANKS = (STAMP, CACHE, FRAMING)
PART = "part:"


def blank(name: str) -> str:
    """Where this request's `name` goes in a kept region (a form field's value, say)."""
    return f"{MARK}{name}{END}"


def request_stamp() -> tuple:
    """What every region may show of the request besides what its own key says.

    The day is here because a match page says 'today 20:14': at midnight it says 'yesterday'; the
    host because a printed long sheet names its whole sheet's address as the phone reached it."""
    table = g.get("table")
    return (current_language(), datetime.now().astimezone().date(), request.host_url, request.script_root,
            table.key if table is not None else None)


def region(name: str, *key, caller, keep: bool = True, drawing=None, slot=None) -> Markup:
    """The region's markup, drawn by `caller` only when no kept one has this key.

    `drawing`: an immutable object the region draws (a row of the sheet draws its Line),
    found by its identity: the entry keeps the object, so its id cannot be reused while
    the entry lives, and it is used only for that very object. Lines are made once by the
    fold and shared by every later sheet a saved hand steps to (models/ledger.sheet_after),
    so a row is drawn once; a sheet folded anew (an edit, a restart) has new lines and draws
    its rows again.

    `slot`: where the region is kept (a match's id): one entry per slot, so a saved hand's
    new scoreboard replaces the old one instead of leaving it to age out of the cache."""
    filling = g.get("page_filling")
    if filling is None or not keep:
        return caller()
    return Markup(kept((name, key, id(drawing)), slot, drawing, filling, caller))


def each_kept(name: str, key: tuple, items, drawing: str, draw_item, *args) -> Markup:
    """Each item's region (`draw_item(item, *args)`), kept by the item's own `drawing` attribute, as
    `region` keeps one (a row by its Line): a Python loop, not a template region per item, since a
    page shows tens of rows and draws one."""
    filling = g.get("page_filling")
    if filling is None:
        return Markup("".join(draw_item(item, *args) for item in items))
    return Markup("".join(
        kept((name, key, id(getattr(item, drawing))), None, getattr(item, drawing), filling,
             lambda item=item: draw_item(item, *args)) for item in items))


def kept(key: tuple, slot, drawing, filling: dict, draw_it, encoded: bool = False):
    """The kept markup for `key` (and `drawing`), else `draw_it()`'s, kept with the CSRF token cut out;
    `encoded`: kept as a CutPage, the UTF-8 it is sent as, cut at its blanks (a whole page)."""
    cache = filling[CACHE]
    full_key = (key, filling[STAMP])
    where = full_key if slot is None else (key[0], slot, filling[STAMP])
    found = cache.get(where)
    if found is None or found[0] != full_key or found[1] is not drawing:
        drawn = draw_it()
        if not isinstance(drawn, CutPage):  # a framed page comes cut already, its token cut out
            drawn = str(drawn).replace(filling[CSRF], blank(CSRF))
            drawn = CutPage.of(drawn) if encoded else drawn
        found = (full_key, drawing, drawn)
        cache.put(where, found)
    return found[2]


class CutPage:
    """A kept page as the UTF-8 it is sent as (half the memory of a str holding arrows), cut at its
    blanks once, so filling them for a request is one join rather than a search of the page per blank."""

    __slots__ = ("head", "cuts", "size")

    def __init__(self, head: bytes, cuts: tuple[tuple[str, bytes], ...]):
        self.head, self.cuts = head, cuts
        self.size = len(head) + sum(len(name) + len(text) for name, text in cuts)

    @classmethod
    def of(cls, text: str) -> "CutPage":
        first, *rest = text.split(MARK)
        cuts = []
        for piece in rest:
            name, _, after = piece.partition(END)
            cuts.append((name, after.encode()))
        return cls(first.encode(), tuple(cuts))

    def with_parts(self, draw_part, csrf: str) -> "CutPage":
        """This frame with each part's blank replaced by `draw_part(template)`, itself cut at its blanks."""
        head, cuts = self.head, []

        def extend(text: bytes) -> None:
            nonlocal head
            if cuts:
                cuts[-1] = (cuts[-1][0], cuts[-1][1] + text)
            else:
                head += text
        for name, after in self.cuts:
            if name.startswith(PART):
                part = CutPage.of(str(draw_part(name[len(PART):])).replace(csrf, blank(CSRF)))
                extend(part.head)
                cuts.extend(part.cuts)
                extend(after)
            else:
                cuts.append((name, after))
        return CutPage(head, tuple(cuts))

    def filled(self, filling: dict) -> bytes:
        values: dict[str, bytes] = {}
        out = [self.head]
        for name, after in self.cuts:
            value = values.get(name)
            if value is None:
                value = values[name] = filled_value(filling, name).encode()
            out += (value, after)
        return b"".join(out)


def filled_value(filling: dict, name: str) -> str:
    """This request's value for the blank `name` (a per-request part is drawn, a value escaped); a
    blank this request has no value for stays a blank, as the text form leaves it."""
    if name in NOT_BLANKS or name not in filling:
        return blank(name)
    value = filling[name]
    return value() if callable(value) else str(escape(value))


def entry_size(entry: tuple) -> int:
    """What a kept region weighs: its text (what it draws is the fold's, held by the match cache too)."""
    kept_text = entry[2]
    return (kept_text.size + 64 * len(kept_text.cuts) if isinstance(kept_text, CutPage)
            else sys.getsizeof(kept_text)) + 200


# Drawn for each request, never kept: what the session says (the flashes and the way back, the logout button).
PER_REQUEST = {"notices": "_notices.html", "logout": "_logout.html"}


def per_request(name: str, **context) -> Markup:
    """A part of the page that is this request's own; in a page being kept, a blank for it."""
    if g.get("page_filling") is not None:
        return Markup(blank(name))
    return Markup(render_template(PER_REQUEST[name], **context))


@pass_context
def part(context, template: str) -> Markup:
    """A part of the page that changes with every saved hand (the scoreboard, the sheet).

    While a page's frame is drawn (`render_page` with a `frame` key) the part is a blank, and the
    frame, the same for every version of the match, is kept without it; the part is drawn alone
    into each new version's page, so a saved hand costs its parts, not the walk of the whole page."""
    filling = g.get("page_filling")
    if filling is not None and filling.get(FRAMING):
        return Markup(f"{MARK}{PART}{template}{END}")
    return Markup(context.environment.get_template(template).render(context.get_all()))


def render_page(template: str, blanks: dict[str, str], key: tuple | None = None, slot=None,
                frame: tuple | None = None, **context) -> str | bytes:  # bytes: a kept page, filled
    """`template` with its kept regions, and this request's values in its blanks.

    With a `key` (all the page shows besides the request stamp) the whole page is kept too,
    one per `slot` (a match's page): a page asked for again (another phone, a refresh, a
    spectator) costs only its blanks. With a `frame` (all the page shows outside its `part`s,
    a subset of `key`) the page is drawn as its kept frame with its parts drawn in."""
    filling = {CSRF: generate_csrf(), STAMP: request_stamp(),
               CACHE: current_app.extensions[caches.EXTENSION].regions, **blanks}
    for name, own in PER_REQUEST.items():
        filling[name] = lambda own=own: render_template(own, stored=context.get("stored"))
    if key is None:
        return fill(draw(template, filling, context), filling)
    if frame is None:
        drawing = lambda: draw(template, filling, context)  # noqa: E731
    else:
        drawing = lambda: framed(template, frame, slot, filling, context)  # noqa: E731
    page = kept((template, key), slot, None, filling, drawing, encoded=True)
    return fill(page, filling)


def framed(template: str, frame: tuple, slot, filling: dict, context: dict) -> CutPage:
    """The page as its kept frame (drawn with blanks where its parts go) with this version's parts drawn in."""
    def draw_frame():
        filling[FRAMING] = True
        try:
            return draw(template, filling, context)
        finally:
            filling.pop(FRAMING)
    cut = kept((template, "frame", frame), (slot, "frame"), None, filling, draw_frame, encoded=True)
    return cut.with_parts(lambda part_template: draw(part_template, filling, context), filling[CSRF])


def draw(template: str, filling: dict, context: dict) -> str:
    """The page with blanks where this request's values go."""
    g.page_filling = filling
    try:
        html = render_template(template, **context)
    finally:
        g.pop("page_filling", None)
    return html  # `kept` cuts the token out


def fill(page, filling: dict):
    """Each blank of the page (text, or a kept CutPage, sent as UTF-8) given this request's value;
    a per-request part is drawn only if the page has its blank."""
    if isinstance(page, CutPage):
        return page.filled(filling)
    if MARK not in page:
        return page
    for name in filling:
        if name not in NOT_BLANKS and blank(name) in page:
            page = page.replace(blank(name), filled_value(filling, name))
    return page


def page_value(name: str, value) -> str:
    """`value`, or in a page's frame the blank this request's `name` fills (the next hand's number, the version)."""
    filling = g.get("page_filling")
    return blank(name) if filling is not None and filling.get(FRAMING) else value


def init_app(app) -> None:
    app.jinja_env.globals.update(region=region, each_kept=each_kept, per_request=per_request, part=part,
                                 page_value=page_value)
