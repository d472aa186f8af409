"""Entering, editing, deleting and undoing hands. Every change is only a recomputation."""
from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, request, session, url_for
from flask_babel import gettext

from views.site.db import get_db, match_cache
from views.site.forms import VERSION_DIGITS, VersionForm
from .forms import HandForm
from models.game.changes import deletion_changes, figure_changes, without_hand
from models.game.digits import read_count
from models.game.entry import read_entry
from models.game.hand import DRAW, POINTS, Hand, most_points
from models.game.ledger import score_sheet
from views.site.i18n import render, translated
from models.errors import HandAlreadySaved, MatchError, Message

from . import deal_edits
from .deals import undo_deal
from .match_page import (attach_error, hand_form_for, hand_number_or_404, is_table, match_or_404, render_match,
                         request_version)
from views.live.following import note_moved_on, saved_answer
from views.tables.scope import device_name, table_id
from views.site.errors import STALE
from .sheet import RESULT_NAMES, hand_url, preview_data, sheet_url, told_url
from .words import closing_changes, explain_early_end, line_summary, line_words, save_as
from models.errors import StaleMatch
from models.storage.hand_writes import OVER, Saved, add_hand, delete_hand, replace_hand
from models.storage.match_rows import StoredMatch

bp = Blueprint("hands", __name__)


def posted_hand(form: HandForm, stored: StoredMatch):
    """The engine reads the form's fields exactly as it reads a match file's hand."""
    return read_entry(form.entry(), stored.match.players, stored.match.rules)


def posted_version(form) -> int | None:
    """None for a missing or unreadable version, which storage refuses as a stale page."""
    return read_count(form.version.data, VERSION_DIGITS)


def posted_number(form: HandForm) -> int | None:
    """The hand the page entered; a page from before this field (or a script) says none and is not asked."""
    try:
        return int(form.number.data)
    except (TypeError, ValueError):
        return None


def expected_number(form: HandForm, stored: StoredMatch, hand: Hand) -> int | None:
    """The hand the page entered; after the page said another phone saved it, the first of those hands
    that is the same as this entry (the save then asks, as a stale page's does)."""
    told = read_count(form.told.data, VERSION_DIGITS)
    if told:
        for number in range(told, len(stored.match.hands) + 1):
            if stored.match.hands[number - 1] == hand:
                return number
    return posted_number(form)


def entry_fields(entry: dict) -> list[tuple[str, str]]:
    """A hand's match-file keys as the hand form's fields, to carry it through a question or a redo."""
    fields = []
    for key, value in entry.items():
        if key == "cards":
            fields += [(f"cards_{side}", " ".join(codes)) for side, codes in value.items()]
        elif value is True:
            fields.append((key, "y"))
        elif value is not False:
            fields.append((key, str(value)))
    return fields


def carried(form: HandForm, number: int, confirmed: bool) -> list[tuple[str, str]]:
    """What a question's "save it" button posts: the same one-time id (so a double tap stores one
    hand), the entries, the hand it is now saved as."""
    fields = [("form_id", form.form_id.data or ""), ("number", str(number))]
    if confirmed:
        fields.append(("confirmed", "yes"))
    return fields + entry_fields(form.entry())


def ask(stored: StoredMatch, title: str, lines: list[str], fields, button: str | None, status: int,
        action: str | None = None):
    """A question instead of a save: a plain form that carries the entries, so it works without the script."""
    return render_template("confirm_hand.html", stored=stored, match=stored.match, title=title, lines=lines,
                           fields=fields, button=button,
                           action=action or url_for("hands.add", match_id=stored.id)), status


def points_question(hand: Hand, stored: StoredMatch, form: HandForm) -> tuple[str, str] | None:
    """Typed points above what any deal can score under the match's rules: a slip, until the player says not."""
    most = most_points(stored.match.rules)
    if hand.kind != POINTS or hand.points <= most or form.confirmed.data == "yes":
        return None
    return (gettext("%(points)s points is more than one hand can score under these rules (%(most)s). "
                    "Save it anyway?", points=hand.points, most=most),
            gettext("Yes, save %(points)s points", points=hand.points))


def another_deal(stored: StoredMatch, form: HandForm, hand: Hand, there: HandAlreadySaved):
    """Another phone saved the deal this page was entering: store nothing, and ask."""
    stored = match_or_404(stored.id)  # as it is now, with the other phone's hand
    number = len(stored.match.hands) + 1
    title = gettext("Another phone already saved hand %(number)s: %(summary)s", number=there.number,
                    summary=line_words(there.line)) + " " + gettext("Is yours another deal?")
    if stored.sheet().finished:  # the other phone's hand ended the match
        return ask(stored, title, [render(Message(OVER))], [], None, 409)
    yours = score_sheet(stored.match.with_hands(stored.match.hands + (hand,))).lines[-1]
    lines = [gettext("If it is, yours is hand %(number)s: %(summary)s", number=number, summary=line_words(yours))]
    return ask(stored, title, lines, carried(form, number, form.confirmed.data == "yes"),
               gettext("Yes, save it as hand %(number)s", number=number), 409)


@bp.post("/matches/<int:match_id>/hands")
def add(match_id: int):
    stored = match_or_404(match_id)
    form = HandForm()
    form.set_players(stored.match.players)
    if not form.validate_on_submit():
        return render_match(stored, form, 400)
    try:
        hand = posted_hand(form, stored)
        question = points_question(hand, stored, form)
        if question:
            number = posted_number(form) or len(stored.match.hands) + 1
            return ask(stored, question[0], [], carried(form, number, True), question[1], 200)
        saved = add_hand(get_db(), match_id, form.entry(), form.form_id.data, expected_number(form, stored, hand),
                         table=table_id(),
                                 device=device_name(), known=stored)
        match_cache().put(saved.stored)  # after the commit: the page the table is sent to next folds nothing
        note_moved_on(stored, saved.stored)
    except HandAlreadySaved as there:
        return another_deal(stored, form, hand, there)
    except MatchError as error:
        attach_error(form, error)
        return render_match(stored, form, 400)
    if saved.duplicate:
        flash(gettext("That hand was already saved; nothing was added twice."))
    else:
        line = saved.sheet.lines[-1]
        flash(line_summary(line), "saved")
        if line.outcome.winner is None:
            offer_way_back("take_back", line.number, version=saved.version)
    ended = saved.sheet is not None and saved.sheet.finished
    if request.headers.get("X-Answer") == "fragment" and saved.stored.refusal is None and not ended:
        # The page script asked: answer with what a following phone showing the page's version (X-Sheet,
        # its live region's ETag) gets, and the flash; without the script it is Post/Redirect/Get.
        return saved_answer(saved.stored, saved.number, request.headers.get("X-Sheet"))
    if request.headers.get("X-Requested-With") == "fetch":
        # The save that ends the match (its page changes whole: the result for the form), or an older page
        # script: the new page itself with its flash, its main region put in as the redirect would show it.
        response = make_response(render_match(saved.stored))
        response.headers["X-Hand-Number"] = str(saved.number)
        response.headers["Content-Location"] = url_for("matches.show", match_id=match_id)
        return response
    return redirect(told_url(match_id))


# ---- the way back: the message after a draw or an undo carries the one tap that reverses it ----

def offer_way_back(kind: str, number: int, **details) -> None:
    """Kept in the session beside the flash, and shown once with it (templates/_way_back.html)."""
    session["way_back"] = {"kind": kind, "number": number, **details}


def way_back() -> dict | None:
    """The way back offered by the last change, once: the page that shows the flash shows it too."""
    return session.pop("way_back", None)


@bp.post("/matches/<int:match_id>/hands/<int:number>/take-back")
def take_back(match_id: int, number: int):
    """The way back offered after a draw: it takes back that draw, the last hand, and nothing else (any
    other hand is deleted from its own page, which asks first and says what the deletion moves)."""
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    if is_table(stored):  # a table's deal, changed whole (views/match/deal_edits.py)
        return deal_edits.take_back_deal(stored, number)
    current = request_version() == stored.version  # else `remove` says stale
    if current and (number != len(stored.match.hands) or stored.match.hands[number - 1].kind != DRAW):
        flash(gettext("Hand %(number)s is not the draw just saved; nothing was taken back.", number=number), "error")
        return redirect(sheet_url(stored.id))
    return remove(stored, number, gettext("The draw of hand %(number)s is taken back.", number=number))


def edit_form_for(stored: StoredMatch, number: int) -> HandForm:
    hand = stored.match.hands[number - 1]
    data = {k: v for k, v in hand.to_dict().items() if k != "cards"}
    for side, codes in (hand.cards or {}).items():  # kept through an edit, shown on the page
        data[f"cards_{side}"] = " ".join(codes)
    form = HandForm(formdata=None, data=data)
    return hand_form_for(stored, form)


def render_edit(stored: StoredMatch, number: int, form: HandForm, status: int = 200):
    """The edit page; of a match that no longer folds (its repair), without the line the fold would give."""
    line = stored.sheet().lines[number - 1] if stored.refusal is None else None
    # The button says the kind of the hand as the page draws it: the stored one (a refused save's entries
    # are not scored, so both kinds); the preview says it anew as the entries change (views/match/preview.py).
    shown = line.outcome.result if line and status == 200 else None
    return render_template("edit_hand.html", stored=stored, match=stored.match, number=number,
                           line=line, result_name=RESULT_NAMES[line.outcome.result] if line else "", form=form,
                           save_as=save_as(shown), preview=preview_data(stored)), status


@bp.get("/matches/<int:match_id>/hands/<int:number>")
def edit(match_id: int, number: int):
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    if is_table(stored):  # a table's deal, changed whole (views/match/deal_edits.py)
        return deal_edits.edit_page(stored, number)
    return render_edit(stored, number, edit_form_for(stored, number))


def report_change(stored: StoredMatch, saved: Saved, what: str) -> None:
    """What the change did, and what it moved in the games (a repair of a match that did not fold says only what)."""
    flash(what)
    if stored.refusal is None and saved.sheet is not None:
        for message in closing_changes(stored.sheet(), saved.sheet):
            flash(message, "warning")


@bp.post("/matches/<int:match_id>/hands/<int:number>")
def update(match_id: int, number: int):
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    if is_table(stored):  # a table's deal, changed whole (views/match/deal_edits.py)
        return deal_edits.update_deal(stored, number)
    form = HandForm()
    form.set_players(stored.match.players)
    if not form.validate_on_submit():
        return render_edit(stored, number, form, 400)
    try:
        hand = posted_hand(form, stored)
        question = points_question(hand, stored, form)
        if question:
            fields = [("version", form.version.data or ""), ("confirmed", "yes")] + entry_fields(form.entry())
            return ask(stored, question[0], [], fields, question[1], 200,
                       url_for("hands.update", match_id=match_id, number=number))
        saved = replace_hand(get_db(), match_id, number, form.entry(), posted_version(form), table=table_id(),
                                     device=device_name())
    except StaleMatch:
        flash(gettext(STALE), "warning")
        return redirect(sheet_url(match_id))
    except MatchError as error:
        attach_error(form, explain_early_end(error))
        return render_edit(stored, number, form, 400)
    report_change(stored, saved, gettext("Hand %(number)s changed; the sheet is recomputed.", number=number))
    return redirect(hand_url(match_id, number, saved.sheet))  # an old hand is on the whole sheet


@bp.get("/matches/<int:match_id>/hands/<int:number>/delete")
def confirm_delete(match_id: int, number: int):
    """Deleting moves every later hand: say what moves (the engine folds the match without it) before."""
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    if is_table(stored):  # a table's deal, changed whole (views/match/deal_edits.py)
        return deal_edits.delete_page(stored, number)
    if stored.refusal is not None:  # a repair: the fold says nothing of this match until it folds again
        return render_template("delete_hand.html", stored=stored, match=stored.match, number=number,
                               summary=gettext("Hand %(number)s", number=number), changes=[], refusal=None,
                               form=VersionForm(formdata=None, version=stored.version))
    before = stored.sheet()
    try:
        after = without_hand(stored.match, number)
        changes = [render(m) for m in deletion_changes(before, after, number) + figure_changes(before, after)]
        refusal = None
    except MatchError as error:
        changes, refusal = [], translated(explain_early_end(error))
    return render_template("delete_hand.html", stored=stored, match=stored.match, number=number,
                           summary=line_summary(before.lines[number - 1]), changes=changes, refusal=refusal,
                           form=VersionForm(formdata=None, version=stored.version))


@bp.post("/matches/<int:match_id>/hands/<int:number>/delete")
def delete(match_id: int, number: int):
    stored = match_or_404(match_id)
    hand_number_or_404(stored, number)
    if is_table(stored):  # a table's deal, changed whole (views/match/deal_edits.py)
        return deal_edits.delete_deal(stored, number)
    return remove(stored, number, gettext("Hand %(number)s deleted; the sheet is recomputed.", number=number))


@bp.post("/matches/<int:match_id>/undo")
def undo(match_id: int):
    stored = match_or_404(match_id)
    if is_table(stored):  # a table's deal, changed whole (views/match/deal_edits.py)
        return undo_deal(match_id)
    if not stored.match.hands:
        flash(gettext("There is no hand to undo."))
        return redirect(sheet_url(match_id))
    number = len(stored.match.hands)
    return remove(stored, number, gettext("Hand %(number)s undone.", number=number), redo=True, action="undone")


def remove(stored: StoredMatch, number: int, what: str, redo: bool = False, action: str = "deleted"):
    form = VersionForm()
    if not form.validate_on_submit():
        flash(gettext("The form had expired; nothing was changed. Please try again."), "warning")
        return redirect(sheet_url(stored.id))
    try:
        saved = delete_hand(get_db(), stored.id, number, posted_version(form), table=table_id(),
                                    device=device_name(), action=action)
    except StaleMatch:
        flash(gettext(STALE), "warning")
        return redirect(sheet_url(stored.id))
    except MatchError as error:  # deleting a hand can end the match before later hands
        flash(translated(explain_early_end(error)), "error")
        return redirect(sheet_url(stored.id))
    flash(what)
    if stored.refusal is None and saved.sheet is not None:
        for message in deletion_changes(stored.sheet(), saved.sheet, number):
            flash(render(message), "warning")
    # The way back puts the very row back in its place (history.restore_hand): a deal is offered once.
    offer_way_back("redo" if redo else "restore", number, hand_id=saved.hand_id, version=saved.version)
    return redirect(sheet_url(stored.id))
