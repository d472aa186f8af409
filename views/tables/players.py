"""Players kept across matches: records, head-to-head, rename, merge, and their CSV."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import pyuca
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from views.site.db import get_db, match_cache
from views.tables.forms import MergeForm, RenameForm
from views.site.forms import VersionForm
from views.site.i18n import current_language, translated
from models.errors import MatchError
from models.files.matchfile import check_name
from models.files.sheetcsv import csv_text, sheet_rows
from models.game.stats import partnerships, player_record, running_net

from views.match import summary
from .scope import table_id
from models.errors import NoSuchMatch, PlayerProblem
from models.storage.matches import matches_of
from models.storage.players import delete_player, merge_players, player_by_id, players_summary, rename_player


bp = Blueprint("players", __name__)


LISTED = 50


# --------------------------------------------------------------------------
# Names in reading order
# --------------------------------------------------------------------------

# The letters a language reads as letters of their own, each sorted after the letter named (CLDR's
# tailorings of the Unicode collation order); every other letter sorts as the Unicode order has it, the same
# in every language (Ë with E, Ł after L), so a list is in the order its readers look for a name.
OWN_LETTERS = {
    "cs": {"č": "c", "ch": "h", "ř": "r", "š": "s", "ž": "z"},
    "sk": {"ä": "a", "č": "c", "ch": "h", "ô": "o", "ř": "r", "š": "s", "ž": "z"},
    "sq": {"ç": "c", "dh": "d", "ë": "e", "gj": "g", "ll": "l", "nj": "n", "rr": "r", "sh": "s", "th": "t",
           "xh": "x", "zh": "z"},
}
PRIVATE_USE = 0xF0000  # stand-ins for the own letters: a plane Unicode leaves to applications


def spellings(letter: str) -> list[str]:
    """'ch', 'Ch', 'CH', 'cH': each case of a letter, as its readers may write it."""
    if len(letter) == 1:
        return [letter, letter.upper()]
    return [letter, letter.capitalize(), letter.upper(), letter[0] + letter[1:].upper()]


@lru_cache(maxsize=1)
def collator() -> tuple[pyuca.Collator, dict[str, str]]:
    """The Unicode collation (pyuca's table of every character), plus a stand-in character for each own
    letter: it sorts after its base letter and before the next, lower case before upper, as CLDR has it."""
    unicode = pyuca.Collator()
    stand_ins: dict[str, str] = {}
    for letters in OWN_LETTERS.values():
        for letter, base in letters.items():
            for spelling in spellings(letter):
                written = unicodedata.normalize("NFD", spelling)
                if written in stand_ins:
                    continue
                stand_in = chr(PRIVATE_USE + len(stand_ins))
                base_case = base.upper() if spelling[0].isupper() else base
                [[primary, secondary, tertiary]] = unicode.table.find_prefix([ord(base_case)])[1]
                # Between the base letter and the next one: pyuca compares its keys as Python numbers.
                unicode.table.add([ord(stand_in)], [[primary + 0.5, secondary, tertiary]])
                stand_ins[written] = stand_in
    return unicode, stand_ins


@lru_cache(maxsize=8)
def own_letters(language: str) -> re.Pattern | None:
    letters = OWN_LETTERS.get(language)
    if not letters:
        return None
    written = sorted((unicodedata.normalize("NFD", spelling) for letter in letters for spelling in spellings(letter)),
                     key=len, reverse=True)  # 'ch' before 'c', so the longest letter is read
    return re.compile("|".join(map(re.escape, written)))


def name_key(name: str, language: str | None = None):
    """The sort key of a name in the page's language (or `language`)."""
    unicode, stand_ins = collator()
    text = unicodedata.normalize("NFD", name)
    pattern = own_letters(language or current_language())
    if pattern is not None:
        text = pattern.sub(lambda found: stand_ins[found.group()], text)
    return unicode.sort_key(text), name


def in_reading_order(names, key=lambda name: name):
    """Names (or rows, with `key` giving the name) in the order the page's readers look for them."""
    language = current_language()
    return sorted(names, key=lambda item: name_key(key(item), language))


def newest(matches: list, sheets: list) -> list:
    """The newest matches first; a long history lists its latest 50 unless ?all=1.
    The figures above the list always count every match."""
    pairs = list(zip(matches, sheets))[::-1]
    return pairs if request.args.get("all") else pairs[:LISTED]


def player_or_404(player_id: int):
    try:
        return player_by_id(get_db(), player_id, table=table_id())
    except NoSuchMatch:
        abort(404, description=gettext("There is no such player."))


@bp.get("/players")
def index():
    players = in_reading_order(players_summary(get_db(), table=table_id()), key=lambda row: row["name"])
    return render_template("players.html", players=players,
                           rename_form=RenameForm(formdata=None), merge_form=MergeForm(formdata=None),
                           delete_form=VersionForm(formdata=None))


@bp.get("/players/<int:player_id>")
def show(player_id: int):
    player = player_or_404(player_id)
    matches = matches_of(get_db(), player["name"], cache=match_cache(), table=table_id(), tables=True)
    matches = [m for m in matches if m.refusal is None]  # one that no longer folds counts for nothing
    sheets = [m.sheet() for m in matches]
    # Head-to-head reads matches of two: the opponents listed are those of such matches.
    opponents = in_reading_order({name for s in sheets if s.sides is None for name in s.players
                                  if name != player["name"]})
    return render_template("player.html", player=player, record=player_record(player["name"], sheets),
                           partners=partnerships(player["name"], sheets),
                           matches=newest(matches, sheets), total=len(matches), opponents=opponents,
                           ids={row["name"]: row["id"] for row in players_summary(get_db(), table=table_id())})


@bp.get("/players/<int:player_id>/vs/<int:other_id>")
def head_to_head(player_id: int, other_id: int):
    one, two = player_or_404(player_id), player_or_404(other_id)
    matches = matches_of(get_db(), one["name"], two["name"], cache=match_cache(), table=table_id())
    matches = [m for m in matches if m.refusal is None]  # one that no longer folds counts for nothing
    sheets = [m.sheet() for m in matches]
    names = (one["name"], two["name"])
    records = [player_record(name, sheets) for name in names]
    nets = {name: [0] + running_net(name, sheets) for name in names}
    return render_template("head_to_head.html", one=one, two=two, records=records,
                           matches=newest(matches, sheets), total=len(matches), nets=nets if sheets else None,
                           names=names, tonight=summary.pair_tonight(matches))


def matches_rows(matches):
    """The hands of several matches in one table: which match, when, who, then the hand."""
    for index, stored in enumerate(m for m in matches if m.refusal is None):
        rows = sheet_rows(stored.sheet())
        header = next(rows)
        if index == 0:
            yield ["match", "date", "player 1", "player 2", *header[:10]]
        for row in rows:
            yield [stored.id, stored.created[:10], *stored.match.players, *row[:10]]


def names_csv(matches) -> Response:
    return Response(csv_text(matches_rows(matches)), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="gin-ledger-hands.csv"'})


@bp.get("/players/<int:player_id>.csv")
def player_csv(player_id: int):
    return names_csv(matches_of(get_db(), player_or_404(player_id)["name"], cache=match_cache(), table=table_id()))


@bp.get("/players/<int:player_id>/vs/<int:other_id>.csv")
def pair_csv(player_id: int, other_id: int):
    one, two = player_or_404(player_id), player_or_404(other_id)
    return names_csv(matches_of(get_db(), one["name"], two["name"], cache=match_cache(), table=table_id()))


def back_to_players(message: str, category: str = "message"):
    flash(message, category)
    return redirect(url_for("players.index"))


@bp.post("/players/<int:player_id>/rename")
def rename(player_id: int):
    player = player_or_404(player_id)
    form = RenameForm()
    if not form.validate_on_submit():
        reasons = form.errors.get("new_name", [gettext("is required")])
        return back_to_players(gettext("New name: %(reason)s", reason=" ".join(map(str, reasons))), "error")
    try:
        new = check_name(form.new_name.data.strip(), "new_name")
        rename_player(get_db(), player["name"], new, table=table_id())
    except (MatchError, PlayerProblem) as error:
        return back_to_players(gettext("Not renamed: %(reason)s", reason=translated(error)), "error")
    return back_to_players(gettext("%(old)s is now %(new)s, in every match.", old=player["name"], new=new))


@bp.post("/players/merge")
def merge():
    form = MergeForm()
    if not form.validate_on_submit():
        return back_to_players(gettext("Merge: both names are required."), "error")
    try:
        moved = merge_players(get_db(), form.keep.data.strip(), form.drop.data.strip(), table=table_id())
    except NoSuchMatch as error:
        return back_to_players(gettext("Not merged: there is no player %(name)s.", name=error.args[0]), "error")
    except PlayerProblem as error:
        return back_to_players(gettext("Not merged: %(reason)s", reason=translated(error)), "error")
    return back_to_players(ngettext("%(drop)s merged into %(keep)s: %(num)d match moved.",
                                    "%(drop)s merged into %(keep)s: %(num)d matches moved.", moved,
                                    drop=form.drop.data.strip(), keep=form.keep.data.strip()))


@bp.post("/players/<int:player_id>/delete")
def delete(player_id: int):
    player = player_or_404(player_id)
    if not VersionForm().validate_on_submit():
        return back_to_players(gettext("The form had expired; nothing was changed."), "error")
    try:
        delete_player(get_db(), player["name"], table=table_id())
    except PlayerProblem as error:
        return back_to_players(gettext("Not deleted: %(reason)s", reason=translated(error)), "error")
    return back_to_players(gettext("%(name)s deleted.", name=player["name"]))
