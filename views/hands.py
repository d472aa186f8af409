"""Entering, editing, deleting and undoing hands. Every change is only a recomputation."""
from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for

from flask_babel import gettext, lazy_gettext

from .db import get_db
from .forms import VERSION_DIGITS, HandForm, VersionForm
from models import storage
from models.digits import read_count
from models.entry import read_entry
from .i18n import translated
from models.errors import MatchError

from .common import (RESULT_NAMES, attach_error, closing_changes, explain_early_end, hand_form_for,
                     hand_number_or_404, line_summary, match_or_404, preview_data, render_match)

bp = Blueprint("hands", __name__)

STALE = lazy_gettext("This match changed on another phone; here it is now.")


def sheet_url(match_id: int, number: int | None = None) -> str:
    anchor = f"hand-{number}" if number else None
    return url_for("matches.show", match_id=match_id, _anchor=anchor)


def posted_hand(form: HandForm, stored: storage.StoredMatch):
    """The engine reads the form's fields exactly as it reads a match file's hand."""
    return read_entry(form.entry(), stored.match.players, stored.match.rules)


def posted_version(form) -> int | None:
    """None for a missing or unreadable version, which storage refuses as a stale page."""
    return read_count(form.version.data, VERSION_DIGITS)


@bp.post("/matches/<int:match_id>/hands")
def add(match_id: int):
    stored = match_or_404(match_id)
    form = HandForm()
    form.set_players(stored.match.players)
    if not form.validate_on_submit():
        return render_match(stored, form, 400)
    try:
        saved = storage.add_hand(get_db(), match_id, posted_hand(form, stored), form.form_id.data)
    except MatchError as error:
        attach_error(form, error)
        return render_match(stored, form, 400)
    if saved.duplicate:
        flash(gettext("That hand was already saved; nothing was added twice."))
    else:
        flash(line_summary(saved.sheet.lines[-1]), "saved")
    if request.headers.get("X-Requested-With") == "fetch":
        # The page script asked: answer with the new page itself, so a saved hand costs one
        # round trip (the script puts in its main region); without the script it is Post/Redirect/Get.
        response = make_response(render_match(match_or_404(match_id)))
        response.headers["X-Hand-Number"] = str(saved.number)
        response.headers["Content-Location"] = url_for("matches.show", match_id=match_id)
        return response
    return redirect(sheet_url(match_id, saved.number))


def edit_form_for(stored: storage.StoredMatch, number: int) -> HandForm:
    hand = stored.match.hands[number - 1]
    data = {k: v for k, v in hand.to_dict().items() if k != "cards"}
    for side, codes in (hand.cards or {}).items():  # kept through an edit, shown on the page
        data[f"cards_{side}"] = " ".join(codes)
    form = HandForm(formdata=None, data=data)
    return hand_form_for(stored, form)


def render_edit(stored: storage.StoredMatch, number: int, form: HandForm, status: int = 200):
    sheet = stored.sheet()
    line = sheet.lines[number - 1]
    return render_template("edit_hand.html", stored=stored, match=stored.match, number=number,
                           line=line, result_name=RESULT_NAMES[line.outcome.result], form=form,
                           preview=preview_data(stored),
                           delete_form=VersionForm(formdata=None, version=stored.version)), status


@bp.get("/matches/<int:match_id>/hands/<int:number>")
def edit(match_id: int, number: int):
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    return render_edit(stored, number, edit_form_for(stored, number))


def report_change(before, saved: storage.Saved, what: str) -> None:
    flash(what)
    for message in closing_changes(before, saved.sheet):
        flash(message, "warning")


@bp.post("/matches/<int:match_id>/hands/<int:number>")
def update(match_id: int, number: int):
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    form = HandForm()
    form.set_players(stored.match.players)
    if not form.validate_on_submit():
        return render_edit(stored, number, form, 400)
    try:
        saved = storage.replace_hand(get_db(), match_id, number, posted_hand(form, stored), posted_version(form))
    except storage.StaleMatch:
        flash(str(STALE), "warning")
        return redirect(sheet_url(match_id))
    except MatchError as error:
        attach_error(form, explain_early_end(error))
        return render_edit(stored, number, form, 400)
    report_change(stored.sheet(), saved, gettext("Hand %(number)s changed; the sheet is recomputed.", number=number))
    return redirect(sheet_url(match_id, number))


@bp.post("/matches/<int:match_id>/hands/<int:number>/delete")
def delete(match_id: int, number: int):
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    return remove(stored, number, gettext("Hand %(number)s deleted; the sheet is recomputed.", number=number))


@bp.post("/matches/<int:match_id>/undo")
def undo(match_id: int):
    stored = match_or_404(match_id)
    if not stored.match.hands:
        flash(gettext("There is no hand to undo."))
        return redirect(sheet_url(match_id))
    number = len(stored.match.hands)
    return remove(stored, number, gettext("Hand %(number)s undone.", number=number))


def remove(stored: storage.StoredMatch, number: int, what: str):
    form = VersionForm()
    if not form.validate_on_submit():
        flash(gettext("The form had expired; nothing was changed. Please try again."), "warning")
        return redirect(sheet_url(stored.id))
    try:
        saved = storage.delete_hand(get_db(), stored.id, number, posted_version(form))
    except storage.StaleMatch:
        flash(str(STALE), "warning")
        return redirect(sheet_url(stored.id))
    except MatchError as error:  # deleting a hand can end the match before later hands
        flash(translated(explain_early_end(error)), "error")
        return redirect(sheet_url(stored.id))
    report_change(stored.sheet(), saved, what)
    return redirect(sheet_url(stored.id))
