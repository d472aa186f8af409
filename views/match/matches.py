"""Home, new match, the match page (sheet and hand entry), rematch and import."""
from __future__ import annotations

import random

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from views.site.db import get_db, match_cache
from .forms import UPCARDS, HandForm, ImportForm, MatchNameForm, NewMatchForm
from views.site.forms import VersionForm
from views.site.i18n import translated
from models.errors import N_, MatchError, MatchNotOver
from models.game.stakes import read_stake
from models.game.match import MAX_HANDS, Match
from .deals import render_table, render_table_sheet
from models.files.matchfile import MAX_IMPORT_BYTES, check_name, load_match, same_person
from models.game.presets import PRESETS
from models.game.rules import TABLE_SETTING, TABLES, Table, at_table, rules_from
from models.game.tables.seats import check_seats, seat

from . import summary
from .match_page import attach_error, is_table, match_or_404, render_match
from views.tables.numbers import known
from views.tables.scope import table_id
from .sheet import sheet_context
from models.storage.matches import abandon_match, abandoned_matches, count_abandoned, create_match, create_rematch, list_matches, name_match, reopen_match
from models.storage.match_rows import StoredMatch
from models.storage.players import lookalike, player_names
from models.storage.tables import saved_presets

bp = Blueprint("matches", __name__)


def render_home(import_form: ImportForm, status: int = 200):
    db = get_db()
    abandoned = count_abandoned(db, table=table_id())
    return render_template(
        "home.html",
        playing=with_sheets(list_matches(db, finished=False, cache=match_cache(), table=table_id())),
        finished=with_sheets(list_matches(db, finished=True, limit=30, cache=match_cache(), table=table_id())),
        abandoned=abandoned,
        # The folded list is drawn only when there is something in it; it costs a fold per match.
        set_aside=with_sheets(abandoned_matches(db, cache=match_cache(), table=table_id())) if abandoned else [],
        import_form=import_form, reopen_form=VersionForm(formdata=None), tonight=summary.table_tonight(),
    ), status


def with_sheets(matches: list[StoredMatch]) -> list[tuple]:
    """Each match with its sheet, or None for one that no longer folds (listed, to be opened and repaired)."""
    known(matches)
    return [(m, m.sheet() if m.refusal is None else None) for m in matches]


@bp.get("/")
def home():
    return render_home(ImportForm())


def pick_first_dealer(choice: str | None, players: tuple[str, ...]) -> str:
    """A player's name, their seat (1 to the number of players), or empty/'random' for the app to draw."""
    if choice in players:
        return choice
    if choice in seat_numbers(players):
        return players[int(choice) - 1]
    return random.SystemRandom().choice(players)


def side_names(match: Match) -> tuple[str, str]:
    """Whom a new match's games are between: its two players, or a table's two sides ("Ana & Cy")."""
    sides = seat(match.table, match.players)
    return sides.names if sides else match.players


def seat_numbers(players: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(str(n) for n in range(1, len(players) + 1))


def preset_rules() -> dict:
    """Every preset by its form value: the built-in four (RULES.md) and the table's own."""
    saved = saved_presets(get_db(), table=table_id())
    return {**PRESETS, **{"saved:" + name: rules for name, rules in saved.items()}}


def match_from_form(form: NewMatchForm, presets: dict) -> Match:
    kind = Table(form[TABLE_SETTING].data or Table.TWO.value)
    sent = form.players.data or []
    # A table of two reads its two seats as they came (an empty name is refused as such); a larger table
    # seats the names given, in order.
    names = [name for name in sent if name] if kind != Table.TWO or any(sent[2:]) else sent[:2]
    if kind != Table.TWO or len(names) > 2:
        check_seats(kind, names)
    elif len(names) != 2:
        raise MatchError("players", N_("enter two names"))
    for name in names:
        check_name(name, "players")
    for n, name in enumerate(names):
        if any(same_person(name, before) for before in names[:n]):
            raise MatchError("players", N_("the two players must differ") if len(names) == 2
                             else N_("{name!r} is named twice: each player sits once"), name=name)
    players = tuple(names)
    # A table of three or four plays to its kind's target (partners 125) unless the form sets one.
    rules = rules_from(form.chosen_settings(), at_table(presets.get(form.preset.data or "classic", PRESETS["classic"]), kind))
    if form.first_dealer.data and form.first_dealer.data not in players + seat_numbers(players) + ("random",):
        raise MatchError("first_dealer", N_("{dealer!r} is not one of the players"), dealer=form.first_dealer.data)
    return Match(players=players, format=form.format.data or "hollywood",
                 first_dealer=pick_first_dealer(form.first_dealer.data, players), rules=rules)


@bp.route("/matches/new", methods=["GET", "POST"])
def new_match():
    presets = preset_rules()
    form = NewMatchForm()
    form.offer_presets([name.removeprefix("saved:") for name in presets if name.startswith("saved:")])
    if form.validate_on_submit():
        try:
            match = match_from_form(form, presets)
            stake = read_stake(form.stake.data, form.currency.data)
        except MatchError as error:
            attach_error(form, error)
        else:
            asked = [] if form.new_players.data else lookalikes(match.players)
            if asked:
                form.players.errors = list(form.players.errors) + asked
                return render_template("new_match.html", form=form, lookalike=True, presets=presets, tables=TABLES,
                                       table_setting=TABLE_SETTING,
                                       known=player_names(get_db(), table=table_id())), 400
            preset = (form.save_as.data or "").strip() or None
            match_id = create_match(get_db(), match, stake, table=table_id(), preset=preset)
            if preset:
                flash(gettext("Rules saved as the preset “%(name)s”.", name=preset))
            one, two = side_names(match)
            flash(gettext("New match: %(one)s vs %(two)s. %(dealer)s deals first.", one=one, two=two,
                          dealer=match.dealer))
            return redirect(url_for("matches.show", match_id=match_id))
    elif request.method == "POST" and not form.errors:
        form.form_errors.append(gettext("Please check the form."))
    status = 400 if request.method == "POST" else 200
    return render_template("new_match.html", form=form, known=player_names(get_db(), table=table_id()),
                           presets=presets, tables=TABLES, table_setting=TABLE_SETTING), status


def lookalikes(names: tuple[str, str]) -> list[str]:
    """For each new name that looks like a kept player's, the question: the same person, or a new one?"""
    questions = []
    for name in names:
        other = lookalike(get_db(), name, table=table_id())
        if other is not None:
            questions.append(gettext("“%(name)s” looks like “%(other)s”, who already plays at this table: type the "
                                     "name as before, or tick below to keep both.", name=name, other=other["name"]))
    return questions


PREFILL_KEYS = ("knocker", "knocker_deadwood", "opponent_deadwood", "big_gin", "upcard",
                "cards_knocker", "cards_defender")
MAX_PREFILL_CARDS = 12  # one more than a hand holds, so saving still names the extra card


def prefilled_form(stored: StoredMatch) -> HandForm | None:
    """The hand form filled from the query (the count page's "Use these counts"); nothing is saved.

    Values that cannot be what they claim are left out; the cards go through
    as typed, because saving refuses bad ones with the field named.
    """
    args = request.args
    if not any(key in args for key in PREFILL_KEYS):
        return None
    data: dict = {}
    if args.get("knocker") in stored.match.players:
        data["knocker"] = args["knocker"]
    for key in ("knocker_deadwood", "opponent_deadwood"):
        value = args.get(key, "")
        if value.isascii() and value.isdigit() and len(value) <= 2:
            data[key] = int(value)
    if args.get("big_gin"):
        data["big_gin"] = True
    if args.get("upcard") in {code for code, _ in UPCARDS}:
        data["upcard"] = args["upcard"]
    for key in ("cards_knocker", "cards_defender"):
        if args.get(key):
            data[key] = " ".join(args[key].split()[:MAX_PREFILL_CARDS])
    return HandForm(formdata=None, data=data)


@bp.get("/matches/<int:match_id>")
def show(match_id: int):
    stored = match_or_404(match_id)
    if is_table(stored) and stored.refusal is None:  # a table of three or four: its deals (views/match/deals.py)
        return render_table(stored)
    return render_match(stored, prefilled_form(stored))


@bp.get("/matches/<int:match_id>/sheet")
def sheet(match_id: int):
    """Every hand of the match, the page to print a long one (the match page draws only its last hands)."""
    stored = match_or_404(match_id)
    if is_table(stored) and stored.refusal is None:
        return render_table_sheet(stored)
    return render_template("sheet.html", **sheet_context(stored, whole=True))


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int):
    """Whichever phone taps first starts the rematch; every later tap lands on that same one."""
    match_or_404(match_id)
    try:
        made = create_rematch(get_db(), match_id, table=table_id())
    except MatchNotOver as refusal:
        flash(translated(refusal))
        return redirect(url_for("matches.show", match_id=match_id))
    match = made.match
    if made.created:
        one, two = side_names(match)
        flash(gettext("Rematch: %(one)s vs %(two)s, same rules. %(dealer)s deals first.", one=one, two=two,
                      dealer=match.dealer))
    else:
        flash(gettext("The rematch was already started: here it is. %(dealer)s deals first.", dealer=match.dealer))
    return redirect(url_for("matches.show", match_id=made.id))


def expired_form():
    """A POST without a valid CSRF token changes nothing; the page that sent it says so."""
    flash(gettext("The form had expired; nothing was changed."), "error")


@bp.post("/matches/<int:match_id>/name")
def rename(match_id: int):
    stored = match_or_404(match_id)
    form = MatchNameForm()
    if not form.validate_on_submit():
        reasons = form.errors.get("name") or [gettext("The form had expired; nothing was changed.")]
        flash(gettext("Not named: %(reason)s", reason=" ".join(map(str, reasons))), "error")
        return redirect(url_for("matches.show", match_id=match_id, _anchor="about"))
    name_match(get_db(), match_id, form.name.data, table=table_id())
    name = (form.name.data or "").strip()
    if name:
        flash(gettext("This match is now called “%(name)s”.", name=name))
    elif stored.name:
        flash(gettext("The name “%(name)s” is removed.", name=stored.name))
    else:
        flash(gettext("This match has no name; it is listed by its players."))
    return redirect(url_for("matches.show", match_id=match_id))


def change_standing(match_id: int, change, message: str, then: str):
    """Abandon or reopen: a stored choice of the players, checked by the form token, then PRG with a flash."""
    stored = match_or_404(match_id)
    if not VersionForm().validate_on_submit():
        expired_form()
        return redirect(url_for("matches.show", match_id=match_id))
    change(get_db(), match_id, table=table_id())
    flash(gettext(message, match=summary.match_label(stored)))
    return redirect(url_for(then, match_id=match_id) if then == "matches.show" else url_for(then))


@bp.post("/matches/<int:match_id>/abandon")
def abandon(match_id: int):
    """Set aside, not deleted: the hands stay, the home page folds it away, one tap brings it back."""
    return change_standing(match_id, abandon_match,
                           N_("%(match)s is set aside as abandoned; reopen it from the home page or here."),
                           "matches.home")


@bp.post("/matches/<int:match_id>/reopen")
def reopen(match_id: int):
    return change_standing(match_id, reopen_match, N_("%(match)s is open again."), "matches.show")


def match_state(stored: StoredMatch) -> str:
    """A finished match's result or an open one's games, as the evening lists it."""
    return summary.match_state(stored, stored.sheet())


def match_share_text(stored: StoredMatch) -> str:
    """The finished match page's Share text, the same as /matches/<id>/summary.txt."""
    return summary.as_text(summary.match_lines(stored), stored.match.players)


def uploaded_text(form: ImportForm) -> bytes:
    upload = form.file.data
    if upload and getattr(upload, "filename", ""):
        data = upload.read(MAX_IMPORT_BYTES + 1)
        if len(data) > MAX_IMPORT_BYTES:
            raise MatchError("file", N_("is larger than {size} KB"), size=MAX_IMPORT_BYTES // 1000)
        return data
    if form.text.data and form.text.data.strip():
        return form.text.data.encode("utf-8", "surrogatepass")
    raise MatchError("file", N_("choose a match file or paste one"))


@bp.post("/import")
def import_match():
    form = ImportForm()
    if form.validate_on_submit():
        try:
            match = load_match(uploaded_text(form), most_hands=MAX_HANDS)
        except MatchError as error:
            flash(gettext("Not imported: %(reason)s", reason=translated(error)), "error")
        else:
            match_id = create_match(get_db(), match, table=table_id())
            flash(ngettext("Imported %(one)s vs %(two)s: %(num)d hand.", "Imported %(one)s vs %(two)s: %(num)d hands.",
                           len(match.hands), one=side_names(match)[0], two=side_names(match)[1]))
            return redirect(url_for("matches.show", match_id=match_id))
    else:
        flash(gettext("Not imported: %(reason)s", reason="; ".join(f"{k}: {' '.join(map(str, v))}"
                                                                   for k, v in form.errors.items())), "error")
    return render_home(form, 400)


@bp.get("/matches/<int:match_id>/join")
def join(match_id: int):
    """The QR codes for the other player's phone and a spectator's, on a page of their own:
    drawing them costs more than the whole sheet, and the hand page is opened 30 times a match."""
    stored = match_or_404(match_id)
    return render_template("join.html", stored=stored, match=stored.match)


def match_name_form(stored: StoredMatch) -> MatchNameForm:
    """The match page's name form, filled with the present name."""
    return MatchNameForm(formdata=None, name=stored.name or "")
