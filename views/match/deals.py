"""A table of three or four at the table: its page (the sides' games, a row per deal with its boards
beneath) and the entry of one deal, both boards on one screen, saved in one write.

Every figure is the engine's (models/game/tables/): the page shows the fold, and "Check the deal" shows
what the engine makes of the deal before it is saved. The form's fields are read into the match file's
keys (`boards.N.knocker`, ...), which the engine reads inside the write, so a board refused names the
deal, the board and the field.
"""
from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from models.errors import HandAlreadySaved, MatchError, MatchOver, StaleMatch
from models.game.digits import read_count
from models.game.ledger import sheet_after
from models.game.rules import Table
from models.game.tables.entries import read_deal
from models.game.tables.seats import board_pairs
from models.storage.hand_writes import add_hand, delete_hand
from models.storage.match_rows import StoredMatch
from views.site.db import get_db, match_cache
from views.site.blanks import blank
from views.site.errors import STALE
from views.site.forms import VERSION_DIGITS, VersionForm
from views.site.i18n import page_gettext as gettext, translated
from views.site.pages import kept_page
from views.tables.scope import device_name, table_id
from .forms import UPCARDS, new_form_id
from .match_page import is_table, match_or_404
from .table_view import table_context

bp = Blueprint("deals", __name__)

RESULTS = ("knock", "gin", "big_gin", "draw")  # what a board's pad offers, as a hand of two's
# The deal form's own fields (templates/_deal_boards.html), which a trip to the card grid carries there
# and back (views/match/cards.py): never the form's token or one-time id, each cut to what a field holds.
DEAL_FIELD = re.compile(r"b[12]_(result|knocker|kd|od|upcard)|typed|typed_winner|typed_points")
MOST_CARRIED = 40


def next_boards(stored: StoredMatch, sheet) -> list[dict]:
    """The boards of the next deal: its two players (the first side's first) and who deals it."""
    number = len(sheet.lines) + 1
    sides = sheet.sides
    if stored.match.table == Table.CHOUETTE:
        pairs = ((sides.first[0], sheet.captain),)
    else:
        pairs = board_pairs(sides, stored.match.rules, number)
    return seated(pairs, sides, sheet.next_dealer)


def seated(pairs, sides, dealer: str) -> list[dict]:
    """Each board's number, its two players and which of them deals it for side `dealer`."""
    return [{"number": n, "players": pair, "dealer": pair[0] if sides.side_of(pair[0]) == dealer else pair[1]}
            for n, pair in enumerate(pairs, start=1)]


def refused_board(error: MatchError | None) -> int | None:
    """The board a refusal names (its field `boards.N.…`), for the form to mark it."""
    if error is not None and error.field.startswith("boards."):
        return int(error.field.split(".")[1])
    return None


def board_keys(form, n: int) -> dict:
    """Board `n`'s fields as a hand of two's match-file keys."""
    result = form.get(f"b{n}_result", "knock")
    if result == "draw":
        raw: dict = {"draw": True}
    else:
        raw = {"knocker": form.get(f"b{n}_knocker", ""),
               "knocker_deadwood": 0 if result in ("gin", "big_gin") else number(form.get(f"b{n}_kd")),
               "opponent_deadwood": number(form.get(f"b{n}_od"))}
        if result == "big_gin":
            raw["big_gin"] = True
    if form.get(f"b{n}_upcard"):
        raw["upcard"] = form[f"b{n}_upcard"].strip().upper()
    return raw


def carried(values) -> dict:
    """The deal form's entries in `values` (a post, or the card grid's query), as typed."""
    return {key: values[key][:MOST_CARRIED] for key in values if DEAL_FIELD.fullmatch(key)}


def number(text: str | None):
    """A typed whole number as the file's number; anything else as typed, for the engine to refuse by name."""
    text = (text or "").strip()
    return int(text) if text.isdigit() else text


def posted_deal(stored: StoredMatch) -> dict:
    """The deal the form sends (or a preview's query asks about), as the match file's keys: a typed deal,
    chouette's one hand, or two boards."""
    form = request.values
    if form.get("typed") == "on":
        return {"winner": form.get("typed_winner", ""), "points": number(form.get("typed_points"))}
    if stored.match.table == Table.CHOUETTE:
        return board_keys(form, 1)
    return {"boards": [board_keys(form, 1), board_keys(form, 2)]}


def spoken(sheet, line) -> str:
    """The deal in one breath, as said aloud at the table: "Ana and Cy win the deal by 18."."""
    if line.outcome.winner is None:
        return gettext("Deal %(number)s: no side wins it.", number=line.number)
    players = sheet.sides.players_of(line.outcome.winner)
    if len(players) == 1:  # chouette's player in the box
        return gettext("%(name)s wins the deal by %(points)s.", name=players[0], points=line.outcome.points)
    return gettext("%(side)s win the deal by %(points)s.", side=said_side(players), points=line.outcome.points)


def said_side(players: tuple[str, ...]) -> str:
    """A side of two or three as a sentence names them: "Ana and Cy", "Ben, Cy and Dan"."""
    return gettext("%(names)s and %(last)s", names=", ".join(players[:-1]), last=players[-1])


def render_table(stored: StoredMatch, error: MatchError | None = None, checked=None, status: int = 200):
    """The table's page. With a fresh deal form (a GET) it is the same for every request of this version but
    for the form's one-time id (a blank), so it is kept whole, as a match of two's page (views/site/pages.py);
    entries brought back from the card grid (its "Use these counts") are drawn in the form as sent."""
    if error is None and checked is None and request.method == "GET" and not carried(request.args):
        return kept_page("table", stored, False, lambda: draw_table(stored, None, None, blank("form_id")),
                         {"form_id": new_form_id()}), status
    return draw_table(stored, error, checked, request.form.get("form_id") or new_form_id()), status


def draw_table(stored: StoredMatch, error: MatchError | None, checked, form_id: str) -> str:
    sheet = stored.sheet()
    board_error = refused_board(error)
    return render_template(
        "table_match.html", boards=None if sheet.finished else next_boards(stored, sheet), results=RESULTS,
        form_id=form_id, sent=request.form if request.method == "POST" else carried(request.args),
        error=translated(error) if error else None, board_error=board_error, checked=checked,
        checked_words=spoken(sheet, checked) if checked else None,
        **table_context(stored),
    )


def render_table_sheet(stored: StoredMatch) -> str:
    """The whole sheet of a table, the page to print: every deal with its boards and each player's money."""
    return render_template("table_sheet.html", **table_context(stored, readonly=True))


@bp.post("/matches/<int:match_id>/deals")
def save_deal(match_id: int):
    """One tap saves the whole deal; "Check the deal" shows the engine's sum first and saves nothing."""
    stored = match_or_404(match_id)
    if not is_table(stored):
        abort(404)
    raw = posted_deal(stored)
    sheet = stored.sheet()
    if request.form.get("check"):
        try:
            entry = read_deal(raw, stored.match.players, stored.match.rules, len(sheet.lines) + 1)
            return render_table(stored, checked=sheet_after(sheet, entry).lines[-1])
        except (MatchError, MatchOver) as error:
            return render_table(stored, error=error, status=400)
    # The deal the page was drawn for: a page that fell behind another phone's save is told so, never
    # saved as the next deal under the boards of the one before (nor refused for them).
    entered = read_count(request.form.get("number"), VERSION_DIGITS) or len(sheet.lines) + 1
    try:
        if entered <= len(sheet.lines):
            raise HandAlreadySaved(match_id, entered, sheet.lines[entered - 1])
        saved = add_hand(get_db(), match_id, raw, request.form.get("form_id"), entered,
                         table=table_id(), device=device_name(), known=stored)
        match_cache().put(saved.stored)  # after the commit: the page the table is sent to next folds nothing
    except HandAlreadySaved:
        flash(gettext("This deal was already saved on another phone: the sheet shows it."))
        return redirect(url_for("matches.show", match_id=match_id), 303)
    except (MatchError, MatchOver) as error:
        return render_table(stored, error=error, status=400)
    after = saved.sheet
    words = spoken(after, after.lines[-1])
    if stored.match.table == Table.CHOUETTE and not after.finished:
        words += " " + gettext("%(name)s captains the next deal.", name=after.captain)
    flash(words)
    return redirect(url_for("matches.show", match_id=match_id) + "#deal-form", 303)


@bp.post("/matches/<int:match_id>/deals/count")
def count_board(match_id: int):
    """"Count cards" for board N: the deal's entries so far go to the card grid (303), with the board's
    knocker and upcard as the grid's own; its "Use these counts" brings them back (views/match/cards.py)."""
    stored = match_or_404(match_id)
    if not is_table(stored):
        abort(404)
    board = request.form.get("board", "")[:2]
    entries = carried(request.form)
    upcard = entries.get(f"b{board}_upcard", "").strip().upper()
    picked = {"knocker": entries.get(f"b{board}_knocker"), "upcard": upcard if upcard in dict(UPCARDS) else None}
    return redirect(url_for("cards.count", match_id=match_id, board=board, **{k: v for k, v in picked.items() if v},
                            **entries), 303)


@bp.post("/matches/<int:match_id>/deals/undo")
def undo_deal(match_id: int):
    """The last deal taken back whole, both boards, in one write; its history keeps it."""
    stored = match_or_404(match_id)
    if not is_table(stored):
        abort(404)
    form = VersionForm()
    number = len(stored.match.hands)
    if not form.validate_on_submit() or not number:
        flash(gettext("The form had expired; nothing was changed. Please try again."), "warning")
        return redirect(url_for("matches.show", match_id=match_id), 303)
    try:
        delete_hand(get_db(), match_id, number, read_count(form.version.data, VERSION_DIGITS), table=table_id(),
                    device=device_name(), action="undone")
    except StaleMatch:
        flash(gettext(STALE), "warning")
    except MatchError as error:
        flash(translated(error), "error")
    else:
        flash(gettext("Deal %(number)s undone: its history keeps it.", number=number))
    return redirect(url_for("matches.show", match_id=match_id) + "#deal-form", 303)
