"""The hand form's live preview: what saving these entries would do, said by the server.

The page script knows no rule of the game; it sends the form's fields here as
they change and shows the sentence that comes back. The request is a GET: it
changes nothing, so it needs no CSRF token (Flask-WTF checks only unsafe
methods), and its JSON answer carries no CORS header, so only this site's own
pages can read it.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_babel import gettext

from .forms import HandForm
from views.site.i18n import translated_reason
from models.game.hand import MAX_DEADWOOD
from models.game.preview import REFUSED, Preview, preview_hand

from . import deal_edits
from .match_page import hand_number_or_404, is_table, match_or_404
from .words import explain_early_end, line_summary, line_words, save_as

bp = Blueprint("preview", __name__)


@bp.get("/matches/<int:match_id>/preview")
def next_hand(match_id: int):
    stored = match_or_404(match_id)
    if is_table(stored):  # a table's deal, both boards (views/match/deal_edits.py)
        return deal_edits.preview_deal(stored, None)
    return answer(stored, None)


@bp.get("/matches/<int:match_id>/hands/<int:number>/preview")
def edited_hand(match_id: int, number: int):
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    if is_table(stored):
        return deal_edits.preview_deal(stored, number)
    return answer(stored, number)


def answer(stored, number: int | None):
    """Read the fields as the save reads them: the form's own checks first, then the engine."""
    form = HandForm(formdata=request.args, meta={"csrf": False})
    form.set_players(stored.match.players)
    valid = form.validate()
    preview = preview_hand(stored.sheet(), form.entry(), number)  # the stored sheet, already folded
    body = {"status": preview.status, "limit": preview.limit, "lays_off": preview.lays_off,
            "field": None, "sentence": ""}
    if not valid:
        name, messages = next(iter(form.errors.items()))
        body.update(status=REFUSED, field=name, sentence=refusal_sentence(form, name, preview.limit, messages[0]))
    elif preview.refusal is not None:
        error = explain_early_end(preview.refusal) if number else preview.refusal
        body.update(field=error.field,
                    sentence=refusal_sentence(form, error.field, preview.limit, translated_reason(error)))
    elif preview.line is not None:
        body.update(outcome(preview), sentence=scored_sentence(preview))
    if number is not None:  # the edit page's button names the kind these entries are scored as
        body["save"] = save_as(body.get("result"))
    return respond(body)


def respond(body: dict):
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"  # an answer about this instant's entries and this version
    return response


def outcome(preview: Preview) -> dict:
    line = preview.line
    return {"result": line.outcome.result, "winner": line.outcome.winner, "points": line.outcome.points,
            "games": list(line.games), "closes": list(line.closed), "doubled": line.outcome.doubled}


def scored_sentence(preview: Preview) -> str:
    """'Gin! Spades double. Ema scores 74 → game 1. Ema wins game 1.', the very words of the flash after saving."""
    line = preview.line
    return line_summary(line) if line.outcome.winner is None else line_words(line)


def short_reason(form: HandForm, field: str, limit: int) -> str | None:
    """The few words for the refusals a tap on this form can cause; any other is said in full."""
    kd, od = form.knocker_deadwood.data, form.opponent_deadwood.data
    if field == "knocker_deadwood" and kd is not None and kd > limit:
        return gettext("Over the knock limit (%(limit)s).", limit=limit)
    if field == "opponent_deadwood" and od is not None and od > MAX_DEADWOOD:
        return gettext("Deadwood is at most 98.")
    if field == "big_gin" and form.big_gin.data:
        return gettext("Big gin needs 0 deadwood.")
    return None


def refusal_sentence(form: HandForm, field: str, limit: int, reason: str) -> str:
    """A tap's refusal in few words; any other as the field's message says it after a refused save."""
    return short_reason(form, field, limit) or form.refusal_words(field, [reason])
