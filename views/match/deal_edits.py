"""A table of three or four's deals changed whole: a deal edited (both boards on one form, saved in one
write), deleted (asked first, saying what moves), a forgotten deal inserted before deal N, the last deal
taken back. The routes are those of a hand of two (views/match/hands.py, views/history/history.py),
which hand a table's match to these.

The form is the next deal's (templates/_deal_boards.html, read by deals.posted_deal), pre-filled from
the stored deal. Every figure is the engine's: a change that turns a game or the match is asked first,
saying what stood before; a board refused names the deal, the board and the field, and stores nothing.
"""
from __future__ import annotations

from flask import flash, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup

from models.errors import MatchError, MatchOver, StaleMatch
from models.game.changes import deletion_changes, game_changes, insertion_changes, without_hand
from models.game.hand import HandKind
from models.game.ledger import score_sheet, sheet_after
from models.game.preview import REFUSED, SCORED
from models.game.rules import Table
from models.game.tables.deal import Deal
from models.game.tables.entries import read_deal
from models.game.tables.seats import board_pairs
from models.storage.hand_writes import delete_hand, insert_hand_before, replace_hand
from models.storage.match_rows import StoredMatch
from views.site.db import get_db
from views.site.errors import STALE
from views.site.forms import VersionForm
from views.site.i18n import page_gettext as gettext, render, translated
from views.tables.scope import device_name, table_id
from .deals import RESULTS, posted_deal, refused_board, seated, spoken, undo_deal
from .forms import new_form_id
from .match_page import request_version
from .words import explain_early_end


def deal_url(match_id: int, number: int | None = None) -> str:
    """The table's page, at deal `number`'s row of the sheet."""
    return url_for("matches.show", match_id=match_id, _anchor=f"deal-{number}" if number else "sheet")


def told(match_id: int) -> str:
    """The table's page at what the change said (#told, templates/_notices.html), its saved line linking the row."""
    return url_for("matches.show", match_id=match_id, _anchor="told")


def say_deal(sheet, number: int) -> None:
    """The changed deal in one breath, linking its row on the sheet (its :target marks it)."""
    flash(Markup('<a href="#deal-{}">{}</a>').format(number, spoken(sheet, sheet.lines[number - 1])), "saved")


def boards_at(stored: StoredMatch, sheet, number: int) -> list[dict]:
    """The boards of deal `number` as it stands on the sheet: who played whom and who dealt, which stay
    the same when the deal is edited, or when a forgotten deal goes in before it (it is then deal N)."""
    line = sheet.lines[number - 1]
    if line.boards:
        pairs = tuple(board.players for board in line.boards)
    else:  # partners' deal typed as points for one side
        pairs = board_pairs(sheet.sides, stored.match.rules, number)
    return seated(pairs, sheet.sides, line.dealer)


def board_fields(hand, n: int) -> dict:
    """One board's stored hand as the form's fields (b1_result, b1_knocker, ...)."""
    p = f"b{n}_"
    if hand.kind == HandKind.DRAW:
        fields = {p + "result": "draw"}
    elif hand.kind == HandKind.KNOCK:
        gin = hand.knocker_deadwood == 0
        fields = {p + "result": ("big_gin" if hand.big_gin else "gin") if gin else "knock",
                  p + "knocker": hand.knocker, p + "kd": "" if gin else str(hand.knocker_deadwood),
                  p + "od": str(hand.opponent_deadwood)}
    else:  # a board typed as points (a file's): the form has no field for it, so it is entered again
        fields = {}
    if hand.upcard:
        fields[p + "upcard"] = hand.upcard
    return fields


def deal_fields(stored: StoredMatch, entry) -> dict:
    """A stored deal as the entry form's fields, so the edit page opens with it as it was entered."""
    if isinstance(entry, Deal):
        fields = {}
        for n, hand in enumerate(entry.boards, start=1):
            fields.update(board_fields(hand, n))
        return fields
    if stored.match.table == Table.PARTNERS:  # typed as points for one side
        return {"typed": "on", "typed_winner": entry.winner, "typed_points": str(entry.points)}
    return board_fields(entry, 1)


def render_deal(stored: StoredMatch, number: int, *, inserting: bool, sent: dict, error: MatchError | None = None,
                checked=None, question=None, status: int = 200):
    """The edit (or insert) page of deal `number`: its boards as the entry form, pre-filled."""
    sheet = stored.sheet()
    if inserting:
        title = gettext("A forgotten deal, before deal %(number)s", number=number)
        action = url_for("history.insert", match_id=stored.id)
        button = gettext("Insert it as deal %(number)s", number=number)
    else:
        title = gettext("Edit deal %(number)s", number=number)
        action = url_for("hands.update", match_id=stored.id, number=number)
        button = gettext("Save the changed deal")
    return render_template(
        "table_deal.html", stored=stored, match=stored.match, sides=sheet.sides, number=number, title=title,
        action=action, button=gettext("Save it anyway") if question else button, inserting=inserting,
        stood=None if inserting else spoken(sheet, sheet.lines[number - 1]), boards=boards_at(stored, sheet, number),
        results=RESULTS, sent=sent, error=translated(error) if error else None, board_error=refused_board(error),
        checked_words=checked, question=question, form_id=request.form.get("form_id") or new_form_id(),
        version_form=VersionForm(formdata=None, version=stored.version)), status


def edit_page(stored: StoredMatch, number: int):
    return render_deal(stored, number, inserting=False, sent=deal_fields(stored, stored.match.hands[number - 1]))


def folded_with(stored: StoredMatch, number: int, inserting: bool):
    """The sheet as the posted deal would leave it (the engine's fold of the whole match), and that deal's line."""
    entry = read_deal(posted_deal(stored), stored.match.players, stored.match.rules, number)
    hands = list(stored.match.hands)
    if inserting:
        hands.insert(number - 1, entry)
    else:
        hands[number - 1] = entry
    try:
        after = score_sheet(stored.match.with_hands(hands))
    except MatchOver as error:
        raise explain_early_end(error) from None
    return after, after.lines[number - 1]


def change_deal(stored: StoredMatch, number: int, *, inserting: bool):
    """Check, ask or save the posted deal as deal `number` (edited, or inserted before the deal there)."""
    sent = request.form
    try:
        after, line = folded_with(stored, number, inserting)
        before = stored.sheet()
        if request.form.get("check"):
            return render_deal(stored, number, inserting=inserting, sent=sent, checked=spoken(after, line))
        turns = [render(message) for message in game_changes(before, after)]
        if turns and request.form.get("confirmed") != "yes":
            return render_deal(stored, number, inserting=inserting, sent=sent, checked=spoken(after, line),
                               question=turns, status=409)
        if inserting:
            saved = insert_hand_before(get_db(), stored.id, number, posted_deal(stored), request.form.get("form_id"),
                                       request_version(), table=table_id(), device=device_name())
        else:
            saved = replace_hand(get_db(), stored.id, number, posted_deal(stored), request_version(),
                                 table=table_id(), device=device_name())
    except StaleMatch:
        flash(gettext(STALE), "warning")
        return redirect(deal_url(stored.id, number), 303)
    except MatchError as error:
        return render_deal(stored, number, inserting=inserting, sent=sent, error=explain_early_end(error),
                           status=400)
    if saved.duplicate:
        flash(gettext("That deal was already saved; nothing was added twice."))
        return redirect(deal_url(stored.id, saved.number), 303)
    if inserting:
        flash(gettext("Inserted as deal %(number)s; the deals after it moved down one.", number=number))
        moved = insertion_changes(before, saved.sheet, number)
    else:
        flash(gettext("Deal %(number)s changed; the sheet is recomputed.", number=number))
        moved = game_changes(before, saved.sheet)
    say_deal(saved.sheet, number)
    for message in moved:
        flash(render(message), "warning")
    return redirect(told(stored.id), 303)


def update_deal(stored: StoredMatch, number: int):
    return change_deal(stored, number, inserting=False)


def insert_page(stored: StoredMatch, before: int):
    return render_deal(stored, before, inserting=True, sent={})


def insert_deal(stored: StoredMatch, before: int):
    return change_deal(stored, before, inserting=True)


def delete_page(stored: StoredMatch, number: int):
    """Deleting moves every later deal: say what moves (the engine folds the match without it) first."""
    before = stored.sheet()
    try:
        changes = [render(m) for m in deletion_changes(before, without_hand(stored.match, number), number)]
        refusal = None
    except MatchError as error:
        changes, refusal = [], translated(explain_early_end(error))
    return render_template("delete_hand.html", stored=stored, match=stored.match, number=number,
                           asked=gettext("Delete deal %(number)s?", number=number),
                           button=gettext("Delete deal %(number)s", number=number),
                           summary=spoken(before, before.lines[number - 1]), changes=changes, refusal=refusal,
                           form=VersionForm(formdata=None, version=stored.version))


def delete_deal(stored: StoredMatch, number: int):
    """The deal deleted whole, both boards, in one write; the history page puts it back."""
    if not VersionForm().validate_on_submit():
        flash(gettext("The form had expired; nothing was changed. Please try again."), "warning")
        return redirect(deal_url(stored.id), 303)
    before = stored.sheet()
    try:
        saved = delete_hand(get_db(), stored.id, number, request_version(), table=table_id(), device=device_name())
    except StaleMatch:
        flash(gettext(STALE), "warning")
        return redirect(deal_url(stored.id), 303)
    except MatchError as error:
        flash(translated(explain_early_end(error)), "error")
        return redirect(deal_url(stored.id), 303)
    flash(gettext("Deal %(number)s deleted; its history keeps it, to restore.", number=number))
    for message in deletion_changes(before, saved.sheet, number):
        flash(render(message), "warning")
    return redirect(told(stored.id), 303)


def take_back_deal(stored: StoredMatch, number: int):
    """Only the last deal is taken back (deals.undo_deal); any other is deleted from its own page."""
    if number != len(stored.match.hands):
        flash(gettext("Deal %(number)s is not the last deal; nothing was taken back.", number=number), "error")
        return redirect(deal_url(stored.id), 303)
    return undo_deal(stored.id)


def preview_deal(stored: StoredMatch, number: int | None):
    """What saving the query's deal would do (as deal `number`, else as the next deal), as JSON for a page
    script: the engine's sentence, or the refusal naming the board and field. Changes nothing."""
    sheet = stored.sheet()
    try:
        if number is None:
            entry = read_deal(posted_deal(stored), stored.match.players, stored.match.rules, len(sheet.lines) + 1)
            after = sheet_after(sheet, entry)
            line = after.lines[-1]
        else:
            after, line = folded_with(stored, number, inserting=False)
        body = {"status": SCORED, "sentence": spoken(after, line), "winner": line.outcome.winner,
                "points": line.outcome.points, "field": None, "board": None}
    except MatchError as error:
        body = {"status": REFUSED, "sentence": translated(error), "field": error.field,
                "board": refused_board(error)}
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"  # an answer about this instant's entries and this version
    return response
