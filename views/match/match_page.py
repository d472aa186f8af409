"""The match page: the match a request names, the hand form as the page shows it, the page itself
(kept whole per key with a fresh form, views/site/pages.py), and the page of a match that no longer folds."""
from __future__ import annotations

from flask import abort, render_template, request, url_for

from views.site.db import get_db, match_cache
from views.site.forms import VERSION_DIGITS, VersionForm
from .forms import HandForm, new_form_id
# The page's catalogue, looked up once a request.
from views.site.i18n import page_gettext as gettext, translated, translated_reason
from views.site.blanks import blank
from views.site.pages import kept_page
from views.tables.scope import table_id
from .sheet import sheet_context
from models.game.digits import read_count
from models.errors import MatchError
from models.errors import NoSuchMatch, StaleMatch
from models.storage.matches import get_match, get_match_by_token
from models.game.rules import Table
from models.storage.match_rows import StoredMatch


def is_table(stored: StoredMatch) -> bool:
    return stored.match.table != Table.TWO


def match_or_404(match_id: int) -> StoredMatch:
    """The match as stored now (from the app's cache when its epoch and version are the row's)."""
    try:
        return get_match(get_db(), match_id, table=table_id(), cache=match_cache())
    except NoSuchMatch:
        abort(404, description=gettext("There is no such match."))


def match_by_token_or_404(token: str) -> StoredMatch:
    try:
        return get_match_by_token(get_db(), token, table=table_id())
    except NoSuchMatch:
        abort(404, description=gettext("This read-only link is not known here."))


def hand_number_or_404(stored: StoredMatch, number: int) -> None:
    if not 1 <= number <= len(stored.match.hands):
        no_such_hand(stored)


def request_version() -> int | None:
    """The version the posted page was drawn at; None for a missing or unreadable one."""
    return read_count(request.form.get("version"), VERSION_DIGITS)


def no_such_hand(stored: StoredMatch):
    """A hand the request names is not in the match. A form posted from a page drawn at another version
    (another phone took a hand away since) is told that the match changed, as every stale form is; else 404."""
    if request.method == "POST" and request_version() not in (None, stored.version):
        raise StaleMatch(stored.id)
    abort(404, description=gettext("There is no such hand in this match."))


def attach_error(form, error: MatchError) -> None:
    """Show the engine's refusal next to the field it names."""
    name = error.field.removeprefix("rules.").replace(".", "_")  # cards.knocker -> cards_knocker
    field = getattr(form, name, None)
    if field is not None and hasattr(field, "errors"):
        field.errors = list(field.errors) + [translated_reason(error)]
    else:
        form.form_errors.append(translated(error))


def hand_form_for(stored: StoredMatch, form: HandForm | None = None) -> HandForm:
    form = form or HandForm(formdata=None)
    form.set_players(stored.match.players)
    if not form.form_id.data:
        form.new_form_id()
    form.version.data = str(stored.version)
    if not form.number.data:  # a refused post keeps the number it entered, so its next save is still checked
        form.number.data = str(len(stored.match.hands) + 1)
    return form


def render_match(stored: StoredMatch, form: HandForm | None = None, status: int = 200):
    """The match page. With a fresh hand form the page is the same for every request of this version
    but for the form's one-time id (a blank), so it is kept whole; a refused or prefilled form is
    drawn as it is. A match that no longer folds gets the page that says why and how to repair it."""
    if stored.refusal is not None:
        return render_broken(stored), status
    if form is not None:
        return draw_match(stored, hand_form_for(stored, form)), status
    fresh = hand_form_for(stored)
    fresh.form_id.data = blank("form_id")
    return kept_page("match", stored, False, lambda: draw_match(stored, fresh), {"form_id": new_form_id()}), status


def draw_match(stored: StoredMatch, form: HandForm) -> str:
    """The match page with `form`, drawn by its templates."""
    return render_template("match.html", form=form, page_here=url_for("matches.show", match_id=stored.id),
                           version_form=VersionForm(formdata=None, version=stored.version), **sheet_context(stored))


def render_broken(stored: StoredMatch) -> str:
    """A stored match whose hands no longer fold (a file from elsewhere, an engine that changed): the
    refusal, which names its hand, and the taps that repair it (edit or delete that hand, undo)."""
    error = stored.refusal
    number = error.hand if error.hand is not None and 1 <= error.hand <= len(stored.match.hands) else None
    reason = translated_reason(error)
    if number is not None:  # "Hand 14: the match was already over after hand 13", as a saved hand is told
        reason = gettext("Hand %(number)s: %(summary)s", number=number, summary=reason)
    return render_template("broken_match.html", stored=stored, match=stored.match, reason=reason,
                           number=number, hands=[hand.to_dict() for hand in stored.match.hands],
                           version=stored.version)
