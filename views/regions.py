"""Regions of a page drawn once and kept, so a page costs what changed since it was last drawn.

A template marks a region: `{% call region("rules", match.rules) %}...{% endcall %}`. A region is
found again by its name, the values it says it shows, and what any region may show of the
request (`request_stamp`: the language, the day, the address the app is mounted at and the
table's). A match's regions name `stored.facts` (all it shows of the match but its hands) and,
where the hands show, `stored.version`; every write path changes one of them (the version is
bumped by every change a page shows, models/storage.py), so a write never leaves a region stale:
it only makes a new key, and the old entry ages out of the bounded cache.

What two requests for the same page must not share is never kept: the CSRF token is cut out of
a region before it is kept, and the hand form's one-time id, hand number and version are drawn
as blanks; `render_page` fills in this request's values. Outside `render_page` (a page that
does not use it, a refused form drawn with its errors) `region` draws its body every time and
keeps nothing, so a region can never leak a blank or another request's token.
"""
from __future__ import annotations

import secrets
from datetime import datetime

from flask import current_app, g, render_template, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from models import caches

from .i18n import current_language

# Private-use characters and a per-process random word: no template, name or number contains it.
MARK = "\ue000" + secrets.token_hex(6)
END = "\ue001"
CSRF = "csrf"


def blank(name: str) -> str:
    """Where this request's `name` goes in a kept region (a form field's value, say)."""
    return f"{MARK}{name}{END}"


def request_stamp() -> tuple:
    """What every region may show of the request besides what its own key says.

    The day is here because a match page says 'today 20:14': at midnight it says 'yesterday'."""
    table = g.get("table")
    return (current_language(), datetime.now().astimezone().date(), request.script_root,
            table.key if table is not None else None)


def region(name: str, *key, caller, keep: bool = True) -> Markup:
    """The region's markup, drawn by `caller` only when no kept one has this key."""
    filling = g.get("page_filling")
    if filling is None or not keep:
        return caller()
    full_key = (name, key, request_stamp())
    kept = current_app.extensions[caches.EXTENSION].regions
    found = kept.get(full_key)
    if found is None:
        found = str(caller()).replace(filling[CSRF], blank(CSRF))
        kept.put(full_key, found)
    return Markup(found)


def render_page(template: str, blanks: dict[str, str], **context) -> str:
    """`template` drawn with its kept regions, and this request's values in their blanks."""
    filling = {CSRF: generate_csrf(), **blanks}
    g.page_filling = filling
    try:
        html = render_template(template, **context)
    finally:
        g.pop("page_filling", None)
    return fill(html, filling)


def fill(html: str, filling: dict[str, str]) -> str:
    if MARK not in html:
        return html
    for name, value in filling.items():
        html = html.replace(blank(name), str(escape(value)))
    return html


def init_app(app) -> None:
    app.jinja_env.globals["region"] = region
