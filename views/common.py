"""What several views share: finding a match, and telling the player what happened."""
from __future__ import annotations

from flask import abort
from flask_babel import gettext, lazy_gettext, ngettext

from db import get_db
from i18n import games_list
from models import storage
from models.ledger import Line, Sheet


def match_or_404(match_id: int) -> storage.StoredMatch:
    try:
        return storage.get_match(get_db(), match_id)
    except storage.NoSuchMatch:
        abort(404, description=gettext("There is no such match."))


def match_by_token_or_404(token: str) -> storage.StoredMatch:
    try:
        return storage.get_match_by_token(get_db(), token)
    except storage.NoSuchMatch:
        abort(404, description=gettext("This read-only link is not known here."))


def scores_phrase(winner: str, points: int, games: tuple[int, ...] | list[int]) -> str:
    """'Ben scores 35 → game 1.' (the sentence static/app.js says before saving, from the same catalogue)."""
    if not games:
        return gettext("%(winner)s scores %(points)s → no game.", winner=winner, points=points)
    return ngettext("%(winner)s scores %(points)s → game %(games)s.",
                    "%(winner)s scores %(points)s → games %(games)s.", len(games),
                    winner=winner, points=points, games=games_list(games))


def wins_phrase(winner: str, games: tuple[int, ...] | list[int]) -> str:
    return ngettext("%(winner)s wins game %(games)s.", "%(winner)s wins games %(games)s.", len(games),
                    winner=winner, games=games_list(games))


RESULT_WORDS = {
    "knock": None,
    "gin": lazy_gettext("Gin!"),
    "big_gin": lazy_gettext("Big gin!"),
    "undercut": lazy_gettext("Undercut!"),
    "points": None,
}


def line_summary(line: Line) -> str:
    """'Hand 3: Undercut! Ben scores 35 → game 1.', as the flash says it after saving."""
    if line.outcome.winner is None:
        return gettext("Hand %(number)s: a draw; %(dealer)s deals again.", number=line.number, dealer=line.dealer)
    word = RESULT_WORDS[line.outcome.result]
    text = (f"{word} " if word else "") + scores_phrase(line.outcome.winner, line.outcome.points, line.games)
    if line.closed:
        text += " " + wins_phrase(line.outcome.winner, line.closed)
    return gettext("Hand %(number)s: %(summary)s", number=line.number, summary=text)


def closing_changes(before: Sheet, after: Sheet) -> list[str]:
    """What an edit or delete did to the games, so the table is told."""
    messages = []
    for old, new in zip(before.games, after.games):
        if old.winner and not new.winner:
            messages.append(gettext("Game %(number)s is open again.", number=new.number))
        elif new.winner and old.winner != new.winner:
            messages.append(gettext("Game %(number)s is now closed: %(winner)s wins it.", number=new.number,
                                    winner=new.winner))
    if before.finished and not after.finished:
        messages.append(gettext("The match is no longer over."))
    return messages
