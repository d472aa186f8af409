"""Many tables on one server (FLASK_HOSTED=1): each lives under /t/<key>/ and nowhere else.

The blueprints of a table's pages are registered under PREFIX (app.register_views).
Here the key is taken out of every matched address into `g.table` (an unknown key
is a 404 before any view runs) and put back into every `url_for` that needs it, so
the templates and views build their links as they always did. At home there is no
prefix and `g.table` is the one home table. Views reach the table only through
views/tables/scope.current_table.
"""
from __future__ import annotations

from flask import Blueprint, Flask, abort, current_app, g, redirect, render_template, request, session, url_for
from flask_babel import gettext

from views.site import db
from views.site.db import get_db
from views.tables.forms import StartTableForm
from models.storage import throttle

from .numbers import add_number, find_match
from .scope import SPECTATOR_ENDPOINTS, hosted
from models.errors import NoSuchTable
from models.storage.tables import create_table, home_table, table_by_key, table_of_view_token, tables_by_keys

bp = Blueprint("tables", __name__)  # the hosted front page, outside every table

KEY = "table_key"
PREFIX = f"/t/<{KEY}>"
HOME = "gin_ledger_home_table"
REMEMBERED = 20  # tables a browser lists on the front page; the oldest opened drops out


def init_app(app: Flask) -> None:
    """After db.init_app: the home table is read once, from the connection that migrated."""
    with db.start_connection(app) as conn:
        app.extensions[HOME] = home_table(conn)
    app.url_value_preprocessor(find_table)
    app.url_value_preprocessor(find_match)  # after find_table: a match's number is its table's
    app.url_defaults(add_table_key)
    app.url_defaults(add_number)


def find_table(endpoint: str | None, values: dict | None) -> None:
    """Runs before the before_request hooks, so the passphrase checks already know the table."""
    if endpoint in SPECTATOR_ENDPOINTS and values and "token" in values:
        # A spectator's address names the match, never the table: the token tells which table it is.
        try:
            g.table = table_of_view_token(get_db(), values["token"])
        except NoSuchTable:
            abort(404, description=gettext("This read-only link is not known here."))
    elif values and KEY in values:
        try:
            g.table = table_by_key(get_db(), values.pop(KEY))
        except NoSuchTable:
            abort(404, description=gettext("There is no such table here."))
    elif not hosted():
        g.table = current_app.extensions[HOME]


def add_table_key(endpoint: str, values: dict) -> None:
    """A link built inside a table stays in it; a link to a global page (static, language) gets no key."""
    table = g.get("table")
    if table is not None and KEY not in values and current_app.url_map.is_endpoint_expecting(endpoint, KEY):
        values[KEY] = table.key


def remember_table() -> None:
    """Runs after the passphrase checks: a table opened in this browser is listed on its front page.

    A spectator's link is not an opening of the table: its viewer is not offered the table's pages.
    """
    table = g.get("table")
    if table is None or not hosted() or request.endpoint in SPECTATOR_ENDPOINTS:
        return
    keys = session.get("tables", [])
    if keys[:1] != [table.key]:
        session["tables"] = ([table.key] + [key for key in keys if key != table.key])[:REMEMBERED]
        session.permanent = True


def render_front(form: StartTableForm, status: int = 200):
    opened = tables_by_keys(get_db(), list(session.get("tables", [])))
    return render_template("front.html", form=form, opened=opened), status


@bp.get("/")
def front():
    return render_front(StartTableForm(formdata=None))


@bp.post("/tables")
def start():
    """Post/Redirect/Get to the new table's own address, which is the way in for every other phone."""
    form = StartTableForm()
    if not form.validate_on_submit():
        return render_front(form, 400)
    if not throttle.may_start_table(get_db(), request.remote_addr or "unknown",
                                    allowed=int(current_app.config["TABLE_STARTS_PER_MINUTE"])):
        form.table_name.errors = list(form.table_name.errors) + [
            gettext("This address started several tables in the last minute; wait a minute, then start yours.")]
        return render_front(form, 429)
    g.table = create_table(get_db(), form.table_name.data.strip() or gettext("Our table"))
    remember_table()
    return redirect(url_for("matches.home"), 303)
