"""The read-only link: the sheet for a second phone or a spectator; it changes nothing."""
from __future__ import annotations

from flask import Blueprint, render_template

from .common import match_by_token_or_404, sheet_context

bp = Blueprint("readonly", __name__)


@bp.get("/view/<token>")
def view(token: str):
    stored = match_by_token_or_404(token)
    return render_template("readonly.html", **sheet_context(stored, readonly=True))
