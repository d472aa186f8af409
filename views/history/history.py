"""Nothing entered is ever lost: inserting a forgotten hand, restoring a deleted hand or match,
a match's history page and the name this device signs its changes with.

Every change is Post/Redirect/Get with a flash; storage does the write in one BEGIN IMMEDIATE.
"""
from __future__ import annotations

from datetime import datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext, lazy_gettext
from markupsafe import Markup

from views.site.db import get_db
from views.site.forms import VERSION_DIGITS, VersionForm
from views.match.forms import HandForm
from views.site.i18n import clock, number, render, translated
from models.storage import hand_writes, history, matches as match_store
from models.game.cards import CardError, parse_card
from models.game.changes import insertion_changes
from models.game.digits import read_count
from models.errors import MatchError, Message
from models.game.ledger import Sheet
from models.game.names import read_name

from views.match import deal_edits
from views.match.match_page import attach_error, hand_form_for, is_table, match_or_404, no_such_hand
from views.tables.numbers import id_shown_as
from views.tables.scope import device_name, table_id
from views.match.sheet import hand_url, sheet_url
from views.match.words import line_summary
from views.site.errors import STALE
from models.errors import NoSuchMatch, StaleMatch
from models.storage.hand_writes import DEVICE_MOST, RestoreChanges
from models.storage.match_rows import StoredMatch

bp = Blueprint("history", __name__)

EXPIRED = lazy_gettext("The form had expired; nothing was changed. Please try again.")


def before_or_404(stored: StoredMatch, value) -> int:
    before = read_count(value, VERSION_DIGITS)
    if before is None:
        abort(400, description=gettext("Say which hand it goes before."))
    if not 1 <= before <= len(stored.match.hands):
        no_such_hand(stored)
    return before


def render_insert(stored: StoredMatch, before: int, form: HandForm, status: int = 200):
    return render_template("insert_hand.html", stored=stored, match=stored.match, before=before,
                           form=hand_form_for(stored, form)), status


@bp.get("/matches/<int:match_id>/hands/new")
def new_before(match_id: int):
    """The hand form for a forgotten hand, entered before hand `before`."""
    stored = match_or_404(match_id)
    before = before_or_404(stored, request.args.get("before"))
    if is_table(stored):  # a table's forgotten deal, both boards (views/match/deal_edits.py)
        return deal_edits.insert_page(stored, before)
    return render_insert(stored, before, HandForm(formdata=None))


@bp.post("/matches/<int:match_id>/hands/insert")
def insert(match_id: int):
    stored = match_or_404(match_id)
    named = request.form.getlist("before")  # one hand, or the page is not one of ours: said as missing
    before = before_or_404(stored, named[0] if len(named) == 1 else None)
    if is_table(stored):
        return deal_edits.insert_deal(stored, before)
    form = HandForm()
    form.set_players(stored.match.players)
    if not form.validate_on_submit():
        return render_insert(stored, before, form, 400)
    try:
        saved = hand_writes.insert_hand_before(get_db(), match_id, before, form.entry(), form.form_id.data,
                                               read_count(form.version.data, VERSION_DIGITS), table=table_id(),
                                               device=device_name())
    except StaleMatch:
        flash(gettext(STALE), "warning")
        return redirect(sheet_url(match_id))
    except MatchError as error:
        attach_error(form, error)
        return render_insert(stored, before, form, 400)
    if saved.duplicate:
        flash(gettext("That hand was already saved; nothing was added twice."))
        return redirect(sheet_url(match_id))
    flash(gettext("Inserted as hand %(number)s; the hands after it moved down one.", number=saved.number))
    flash(Markup('<a href="#hand-{}">{}</a>').format(saved.number, line_summary(saved.sheet.lines[saved.number - 1])),
          "saved")
    for message in insertion_changes(stored.sheet(), saved.sheet, saved.number):
        flash(render(message), "warning")
    return redirect(told_url(match_id, saved.number, saved.sheet))


def told_url(match_id: int, number: int, sheet: Sheet) -> str:
    """The page that shows hand `number` (hand_url), landed on what the change said (#told,
    templates/_notices.html): the list of what an insert moved is above the new row, and landing
    on the row scrolled it off. The saved line links the row, which its :target marks."""
    return hand_url(match_id, number, sheet).partition("#")[0] + "#told"


@bp.post("/matches/<int:match_id>/hands/<int:hand_id>/restore")
def restore_hand(match_id: int, hand_id: int):
    """A deleted or undone hand back at its place; a second tap changes nothing."""
    stored = match_or_404(match_id)
    form = VersionForm()
    if not form.validate_on_submit():
        flash(str(EXPIRED), "warning")
        return redirect(sheet_url(match_id))
    try:
        saved = hand_writes.restore_hand(get_db(), match_id, hand_id, read_count(form.version.data, VERSION_DIGITS),
                                     table=table_id(), device=device_name(),
                                     confirmed=request.form.get("confirmed") == "yes")
    except RestoreChanges as changes:
        return ask_restore(stored, hand_id, form.version.data or "", changes)
    except StaleMatch:
        flash(gettext(STALE), "warning")
        return redirect(sheet_url(match_id))
    except NoSuchMatch:
        abort(404, description=gettext("There is no such hand in this match."))
    except MatchError as error:
        flash(gettext("Not restored: %(reason)s", reason=translated(error)), "error")
        return redirect(sheet_url(match_id))
    if saved.duplicate:
        flash(gettext("That hand was already restored; nothing was changed."))
        return redirect(sheet_url(match_id, saved.number))
    if is_table(stored):
        flash(gettext("Deal %(number)s restored; the sheet is recomputed.", number=saved.number))
        deal_edits.say_deal(saved.sheet, saved.number)
    else:
        flash(gettext("Hand %(number)s restored; the sheet is recomputed.", number=saved.number))
    for message in insertion_changes(stored.sheet(), saved.sheet, saved.number):
        flash(render(message), "warning")
    if is_table(stored):
        return redirect(deal_edits.told(match_id))
    return redirect(hand_url(match_id, saved.number, saved.sheet))


def ask_restore(stored: StoredMatch, hand_id: int, version: str, changes: RestoreChanges):
    """A restore that changes what was already settled (a closed game, the result) is asked first."""
    return render_template(
        "confirm_hand.html", stored=stored, match=stored.match,
        title=gettext("Restoring this hand changes games already closed:"),
        lines=[render(message) for message in changes.messages],
        fields=[("version", version), ("confirmed", "yes")], button=gettext("Restore it anyway"),
        action=url_for("history.restore_hand", match_id=stored.id, hand_id=hand_id)), 409


def match_words(stored: StoredMatch) -> str:
    return stored.name or gettext("%(one)s vs %(two)s", one=stored.match.players[0], two=stored.match.players[1])


@bp.post("/matches/<int:match_id>/delete")
def delete_match(match_id: int):
    """The confirmation form of the match page: the match leaves every list, its rows are kept."""
    stored = match_or_404(match_id)
    if not VersionForm().validate_on_submit() or request.form.get("confirm") != "yes":
        flash(gettext("Nothing was deleted: tick the box to confirm."), "warning")
        return redirect(sheet_url(match_id))
    match_store.delete_match(get_db(), match_id, table=table_id())
    flash(gettext("%(match)s is deleted; restore it from “Deleted matches” below.", match=match_words(stored)))
    return redirect(url_for("matches.home"))


@bp.post("/matches/<int:match_id>/restore")
def restore_match(match_id: int):
    if not VersionForm().validate_on_submit():
        flash(str(EXPIRED), "warning")
        return redirect(url_for("matches.home"))
    try:
        restored = match_store.restore_match(get_db(), match_id, table=table_id())
    except NoSuchMatch:
        abort(404, description=gettext("There is no such match."))
    if not restored:
        flash(gettext("That match is not deleted; nothing was changed."))
        return redirect(url_for("matches.show", match_id=match_id))
    flash(gettext("%(match)s is restored.", match=match_words(match_or_404(match_id))))
    return redirect(url_for("matches.show", match_id=match_id))


def deleted_matches() -> list[StoredMatch]:
    """The home page's folded "Deleted matches" list (at most 20, the latest first)."""
    return match_store.deleted_matches(get_db(), table=table_id())


ACTIONS = {
    "entered": lazy_gettext("Hand %(number)s entered on %(device)s at %(time)s"),
    "inserted": lazy_gettext("Hand %(number)s inserted on %(device)s at %(time)s"),
    "changed": lazy_gettext("Hand %(number)s changed on %(device)s at %(time)s"),
    "deleted": lazy_gettext("Hand %(number)s deleted on %(device)s at %(time)s"),
    "undone": lazy_gettext("Hand %(number)s undone on %(device)s at %(time)s"),
    "restored": lazy_gettext("Hand %(number)s restored on %(device)s at %(time)s"),
}
# A table of three or four's events are its deals, as its sheet and its flashes call them.
DEAL_ACTIONS = {
    "entered": lazy_gettext("Deal %(number)s entered on %(device)s at %(time)s"),
    "inserted": lazy_gettext("Deal %(number)s inserted on %(device)s at %(time)s"),
    "changed": lazy_gettext("Deal %(number)s changed on %(device)s at %(time)s"),
    "deleted": lazy_gettext("Deal %(number)s deleted on %(device)s at %(time)s"),
    "undone": lazy_gettext("Deal %(number)s undone on %(device)s at %(time)s"),
    "restored": lazy_gettext("Deal %(number)s restored on %(device)s at %(time)s"),
}


KEY = Markup('<code class="key" translate="no">{}</code>')  # a key no field of the hand form enters (none today)
FLAGS = ("draw", "big_gin")  # yes/no keys: absent is no


class HandWords:
    """A hand's match-file keys and values as a player reads them, in the page's language: each key
    by the hand form's label of its field (views/match/forms.py HandForm: "Knocker's deadwood"), yes/no,
    cards as a player writes them (7♥)."""

    def __init__(self):
        form = HandForm(formdata=None)
        self.labels = {field.name: str(field.label.text) for field in form}
        self.yes, self.no = gettext("yes"), gettext("no")

    def label(self, key: str) -> str | Markup:
        return self.labels.get(key) or KEY.format(key)

    def value(self, key: str, value) -> str:
        if value is None:
            return self.no if key in FLAGS else "–"
        if isinstance(value, bool):
            return self.yes if value else self.no
        if isinstance(value, int):
            return number(value)
        if isinstance(value, list):  # a side's cards
            return " ".join(card_words(code) for code in value)
        return card_words(value) if key == "upcard" else str(value)

    def pairs(self, entry: dict | None) -> list[tuple[str, object]]:
        """The entry's keys in order, its cards as one key per side (cards_knocker, as the form names them)."""
        pairs = []
        for key, value in (entry or {}).items():
            if key == "cards" and isinstance(value, dict):
                pairs += [(f"cards_{side}", codes) for side, codes in value.items()]
            else:
                pairs.append((key, value))
        return pairs

    def entry(self, entry: dict | None) -> Markup:
        """'Who knocked? Ana, Knocker's deadwood 4, Upcard 7♥'; a flag that is set says only its name ('Draw').
        A table's deal of two boards says each board so: 'Board 1: …; Board 2: …'."""
        if isinstance(entry, dict) and isinstance(entry.get("boards"), list):
            return Markup("; ").join(Markup("{}: {}").format(gettext("Board %(n)s", n=n), self.entry(board))
                                     for n, board in enumerate(entry["boards"], start=1))
        return Markup(", ").join(
            Markup("{}").format(self.label(key)) if value is True and key in FLAGS
            else Markup("{} {}").format(self.label(key), self.value(key, value))
            for key, value in self.pairs(entry))

    def changes(self, old: dict | None, new: dict | None) -> list[Markup]:
        """'Knocker's deadwood 4 → 6' for each field that differs, in the order of the new entry."""
        if any(isinstance(entry, dict) and "boards" in entry for entry in (old, new)):
            return self.deal_changes(old, new)
        before, after = dict(self.pairs(old)), dict(self.pairs(new))
        keys = list(after) + [key for key in before if key not in after]
        return [Markup("{} {} → {}").format(self.label(key), self.value(key, before.get(key)), self.value(key, after.get(key)))
                for key in keys if before.get(key) != after.get(key)]


    def deal_changes(self, old: dict | None, new: dict | None) -> list[Markup]:
        """A table's deal: each board's changed fields, 'Board 2: Knocker's deadwood 4 → 6'; a deal typed
        as points on one side and as boards on the other is said whole, as it was and as it is."""
        boards = [entry.get("boards") if isinstance(entry, dict) else None for entry in (old, new)]
        if not all(isinstance(each, list) and len(each) == len(boards[0]) for each in boards):
            return [Markup("{} → {}").format(self.entry(old), self.entry(new))]
        return [Markup("{}: {}").format(gettext("Board %(n)s", n=n), change)
                for n, (was, now) in enumerate(zip(*boards), start=1) for change in self.changes(was, now)]


def card_words(code: str) -> str:
    """A stored card code as a player writes it (7♥); anything else as it was stored."""
    try:
        return parse_card(code).face
    except CardError:
        return str(code)


def event_words(event: history.Event, words: HandWords, table: bool = False) -> tuple[str, list[Markup]]:
    """'Hand 3 changed on Ana's phone at 9:14 PM' (at a `table`, 'Deal 3 …') and, below it, 'Knocker's
    deadwood 4 → 6' per changed field."""
    time = clock(datetime.fromisoformat(event.at))  # as the match page says it: 7:23 PM, 19:23
    title = str((DEAL_ACTIONS if table else ACTIONS)[event.action]) % {"number": event.number, "device": event.device or gettext("a browser"), "time": time}
    if event.action == "changed":
        details = words.changes(event.old, event.new)
    else:
        details = [words.entry(event.new or event.old)]
    return title, details


@bp.get("/matches/<int:match_id>/history")
def show(match_id: int):
    stored = match_or_404(match_id)
    db = get_db()
    words = HandWords()
    table = is_table(stored)
    events = [event_words(event, words, table)
              for event in reversed(history.hand_events(db, match_id, table=table_id()))]
    deleted = [(hand_id, number, words.entry(values))
               for hand_id, number, values in history.deleted_hands(db, match_id, table=table_id())]
    return render_template("history.html", stored=stored, match=stored.match, events=events,
                           deleted=deleted, device=device_name(),
                           named=bool(session.get("device")),
                           form=VersionForm(formdata=None, version=stored.version))


@bp.post("/device")
def name_device():
    """The name this device's changes carry in the history ("Ana's phone"), kept in the session cookie."""
    # The form names the match as its players see it (views/tables/numbers.py), as its address does.
    back = url_for("history.show", match_id=id_shown_as(read_count(request.form.get("match"), VERSION_DIGITS) or 0))
    if not VersionForm().validate_on_submit():
        flash(str(EXPIRED), "warning")
        return redirect(back)
    try:
        name = read_name(" ".join((request.form.get("device") or "").split()), "device", DEVICE_MOST,
                         required=False)
    except MatchError as error:
        flash(gettext("Not renamed: %(reason)s", reason=translated(error)), "error")
        return redirect(back)
    if name:
        session["device"] = name
        flash(gettext("This device is now “%(name)s” in the history.", name=name))
    else:
        session.pop("device", None)
        flash(gettext("This device is named after its browser again."))
    return redirect(back)
