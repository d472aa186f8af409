"""The read-only link: the sheet for a spectator; it changes nothing and leads nowhere else.

Its address names only the match's view token, never the table's key (on a hosted
server the key is the way into the whole table): views/tables/tables.py finds the table
from the token. The sheet, the whole sheet, its live fragment and its big screen are open without
any passphrase (views/tables/access.py, scope.SPECTATOR_ENDPOINTS).
"""
from __future__ import annotations

from flask import Blueprint, render_template, url_for

from .following import big_page, live_fragment
from views.match.match_page import is_table, match_by_token_or_404
from views.match.sheet import sheet_context
from views.match.table_view import table_context

bp = Blueprint("readonly", __name__)


@bp.get("/view/<token>")
def view(token: str):
    stored = match_by_token_or_404(token)
    if is_table(stored):
        return render_template("table_readonly.html", **table_context(stored, readonly=True))
    return render_template("readonly.html", **sheet_context(stored, readonly=True))


@bp.get("/view/<token>/sheet")
def sheet(token: str):
    """The whole sheet for a spectator, every hand, as the read-only page's fold line links it; a table's
    read-only page shows every deal already."""
    stored = match_by_token_or_404(token)
    if is_table(stored):
        return render_template("table_readonly.html", **table_context(stored, readonly=True))
    return render_template("sheet.html", **sheet_context(stored, readonly=True, whole=True))


@bp.get("/view/<token>/live")
def live(token: str):
    return live_fragment(token=token)


@bp.get("/view/<token>/big")
def big(token: str):
    return big_page(match_by_token_or_404(token), True, url_for("readonly.live", token=token), spectator=True)
