"""The read-only link: the sheet for a second phone or a spectator; it changes nothing."""
from __future__ import annotations

from flask import Blueprint, abort, render_template

from db import get_db
from models import storage

from .sheet_view import sheet_context

bp = Blueprint("readonly", __name__)


@bp.get("/view/<token>")
def view(token: str):
    try:
        stored = storage.get_match_by_token(get_db(), token)
    except storage.NoSuchMatch:
        abort(404, description="This read-only link is not known here.")
    return render_template("readonly.html", **sheet_context(stored, readonly=True))
