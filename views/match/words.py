"""What a hand did, in words: the sentence the flash says after saving and the preview before it."""
from __future__ import annotations

from flask_babel import lazy_gettext

# The page's catalogue, looked up once a request; under these names pybabel extract finds the strings.
from views.site.i18n import games_list, page_gettext as gettext, page_ngettext as ngettext, render
from models.game.changes import game_changes
from models.errors import N_, MatchError, MatchOver
from models.game.ledger import Line, Sheet


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


def entry_phrase(line: Line) -> str:
    """'Ana knocks, 8 against 6.': the entry itself, so the table can check it by ear (a gin is a knock
    at 0); a hand entered as points says its points in what follows."""
    entry = line.entry
    if entry.knocker is None:
        return ""
    return gettext("%(knocker)s knocks, %(mine)s against %(theirs)s.", knocker=entry.knocker,
                   mine=entry.knocker_deadwood, theirs=entry.opponent_deadwood) + " "


def line_words(line: Line) -> str:
    """'Undercut! Ben scores 35 → game 1.': what a hand did, without its number (the question of a
    second phone puts it after its own words)."""
    if line.outcome.winner is None:
        return gettext("a draw; %(dealer)s deals again.", dealer=line.dealer)
    word = RESULT_WORDS[line.outcome.result]
    text = f"{word} " if word else ""
    text += (gettext("Spades double.") + " ") if line.outcome.doubled else ""
    text += scores_phrase(line.outcome.winner, line.outcome.points, line.games)
    if line.closed:
        text += " " + wins_phrase(line.outcome.winner, line.closed)
    return text


def line_summary(line: Line) -> str:
    """'Hand 3: Ana knocks, 8 against 6. Undercut! Ben scores 35 → game 1.', as the flash says it after
    saving, and the phone says it aloud: with the entry, so the table can check it by ear."""
    return gettext("Hand %(number)s: %(summary)s", number=line.number, summary=entry_phrase(line) + line_words(line))


def closing_changes(before: Sheet, after: Sheet) -> list[str]:
    """What an edit or delete did to the games, so the table is told (the engine compares, models/game/changes.py)."""
    return [render(message) for message in game_changes(before, after)]


def explain_early_end(error: MatchError) -> MatchError:
    """An edit that ends the match before its last hand would strand the hands after it."""
    if isinstance(error, MatchOver) and error.hand is not None:
        return MatchError("hand", N_("with this change the match would be over before hand {hand}; "
                                     "delete the hands after it first"), None, hand=error.hand)
    return error


# The edit page's save button names the kind the engine scores the entered hand as (outcome.result):
# never "a knock" for a gin. An entry not yet scored (a points hand, a refusal, one half entered) gets both.
SAVE_AS = {
    "knock": lazy_gettext("Save as a knock"),
    "undercut": lazy_gettext("Save as an undercut"),
    "gin": lazy_gettext("Save as a gin"),
    "big_gin": lazy_gettext("Save as a big gin"),
}


def save_as(result: str | None) -> str:
    return str(SAVE_AS.get(result, lazy_gettext("Save as a knock or gin")))
