"""The table: the one way a view learns whose data it may touch, and the device that signs a change."""
from __future__ import annotations

from flask import abort, current_app, g, request, session, url_for


# The page's catalogue, looked up once a request.
from views.site.i18n import page_gettext as gettext
from models.storage.tables import Table


def hosted() -> bool:
    """FLASK_HOSTED=1: many tables, each under /t/<key>/; else the one home table at today's addresses."""
    return bool(current_app.config.get("HOSTED"))


# The spectator's link: the match's sheet, its live fragment and its big screen, all read-only and open.
SPECTATOR_ENDPOINTS = frozenset({"readonly.view", "readonly.live", "readonly.big", "readonly.sheet",
                                 "view_stream.view_stream"})


def current_table() -> Table:
    """The table this request is for (views/tables/tables.py found it from the address).

    Every storage call of a view is scoped with it; a request that names no table
    (a hosted server's front page) has none, and asking for one is a 404.
    """
    table = g.get("table")
    if table is None:
        abort(404)
    return table


def table_id() -> int:
    return current_table().id


def in_table() -> bool:
    """False only on a hosted server's pages outside every table (its front page, a wrong key's 404)."""
    return g.get("table") is not None


def home_url() -> str:
    """The home of this table, or a hosted server's front page when the request names no table."""
    return url_for("matches.home") if in_table() else "/"


BROWSERS = (("Edg", "Edge"), ("Firefox", "Firefox"), ("Chrome", "Chrome"), ("Safari", "Safari"))
SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
           ("Mac OS", "Mac"), ("Linux", "Linux"))


def device_name() -> str:
    """The name a hand's history gives this device: the one a player set ("Ana's phone"), kept in
    the session, else one drawn from the browser's User-Agent ("Chrome on Android"); empty when the
    User-Agent says nothing usable, so the history says "a browser" in the language it is read in."""
    named = session.get("device")
    if named:
        return named
    agent = request.headers.get("User-Agent", "")
    browser = next((name for key, name in BROWSERS if key in agent), "")
    system = next((name for key, name in SYSTEMS if key in agent), "")
    if browser and system:
        return gettext("%(browser)s on %(system)s", browser=browser, system=system)
    return browser or system
