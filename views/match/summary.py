"""The evening and the shareable summaries: words for a messenger and the final sheet as a picture.

Not a blueprint: the home page, the head-to-head and the exports all use it,
and blueprints never import each other. The figures come from
`models/game/evening.py` and the sheets; this module only words and draws them.
"""
from __future__ import annotations

import re

from datetime import datetime, timezone

from flask_babel import gettext

from models.game.names import isolated
from models.game.evening import GAP, Evening, Played, Standing, evening_of, standing, tonight
from models.game.stakes import payments

from views.site.db import get_db, match_cache
from views.site.i18n import money, number, signed
from views.tables.scope import table_id
from models.storage.matches import last_hand_times, matches_of, recent_matches
from models.storage.match_rows import StoredMatch


def match_label(stored: StoredMatch) -> str:
    """How a match is called in lists, titles and messages: its name if it has one, else its players."""
    players = gettext("%(one)s vs %(two)s", one=stored.sides[0], two=stored.sides[1])
    if stored.name:
        return gettext("%(name)s (%(players)s)", name=stored.name, players=players)
    return players


def result_line(stored: StoredMatch, sheet) -> str:
    """A finished match in one line: '2–1' means games, so a single game is simply won."""
    winner, net = sheet.winner, number(sheet.net[sheet.winner])
    if stored.match.format == "single":
        return gettext("%(winner)s won the game, net %(net)s", winner=winner, net=net)
    won = sheet.games_won(winner)
    return gettext("%(winner)s won %(won)s–%(lost)s, net %(net)s", winner=winner, won=won,
                   lost=len(sheet.games) - won, net=net)


# --------------------------------------------------------------------------
# The evening, from the stored matches
# --------------------------------------------------------------------------

def stamp(text: str) -> datetime:
    return datetime.fromisoformat(text)


def played_matches(matches: list[StoredMatch]) -> list[Played]:
    """The evening's view of stored matches: a finished one ends when it finished, an open one
    at its last saved hand (or its start, before the first)."""
    open_ids = [stored.id for stored in matches if not stored.finished]
    last = last_hand_times(get_db(), open_ids, table=table_id()) if open_ids else {}
    return [Played(stored.id, stamp(stored.created), stamp(stored.finished or last.get(stored.id) or stored.created),
                   stored.sheet(), stored.stake) for stored in matches if stored.refusal is None]


def table_tonight() -> list[dict]:
    """The table's evenings going on now, for the home page. Only an evening with a closed game
    is shown, since before that there is nothing the lists above do not already say."""
    now = datetime.now(timezone.utc)
    since = (now - 4 * GAP).isoformat(timespec="seconds")
    matches = recent_matches(get_db(), since, cache=match_cache(), table=table_id())
    return [evening_context(evening, matches) for evening in tonight(played_matches(matches), now)
            if any_game_closed(evening)]


def pair_tonight(matches: list[StoredMatch]) -> dict | None:
    """The two players' evening going on now, from their matches (the head-to-head loaded them all)."""
    found = [evening for evening in tonight(played_matches([m for m in matches if not m.abandoned]),
                                            datetime.now(timezone.utc)) if any_game_closed(evening)]
    return evening_context(found[0], matches) if found else None


def evening_context(evening: Evening, matches: list[StoredMatch]) -> dict:
    """An evening worded for a page section and for its Share button."""
    state = standing(evening)
    by_id = {stored.id: stored for stored in matches}
    return {"evening": evening, "ahead": ahead_line(state), "figures": figures_line(state), "money": money_lines(state),
            "text": as_text(evening_lines(evening, by_id), evening_names(evening, by_id)),
            "last": evening.matches[-1].id,
            "matches": [by_id[played.id] for played in evening.matches]}


def any_game_closed(evening: Evening) -> bool:
    return any(game.winner for played in evening.matches for game in played.sheet.games)


def evening_text(stored: StoredMatch) -> str:
    """The share text of the sitting a match belongs to, from the pair's matches."""
    one, two = stored.match.players
    matches = [m for m in matches_of(get_db(), one, two, cache=match_cache(), table=table_id())
               if not m.abandoned or m.id == stored.id]
    return evening_context(evening_of(played_matches(matches), stored.id), matches)["text"]


# --------------------------------------------------------------------------
# The words
# --------------------------------------------------------------------------

def ahead_line(state: Standing) -> str:
    """'Ana is ahead tonight on net points: +412', or level: the headline names one measure and says which.

    Net points, because they are what a Hollywood table settles (the money is net points times the stake);
    the matches and games won are `figures_line`, each figure with its player's name, so none reads as a
    rank that the headline contradicts."""
    leader = state.leader
    if leader is None:
        return gettext("Level tonight on net points")
    return gettext("%(name)s is ahead tonight on net points: %(net)s", name=leader, net=signed(state.net[leader]))


def figures_line(state: Standing) -> str:
    """'Matches won: Ana 2, Ben 1; games won: Ana 7, Ben 3', the leader first (else the first seat).
    Before a match is finished, games only: "matches won: 0, 0" says nothing."""
    one, two = state.players
    if state.leader == two:
        one, two = two, one
    games = {"one": one, "two": two, "one_games": number(state.games_won[one]),
             "two_games": number(state.games_won[two])}
    if not state.matches_won[one] + state.matches_won[two]:
        return gettext("Games won: %(one)s %(one_games)s, %(two)s %(two_games)s", **games)
    return gettext("Matches won: %(one)s %(one_matches)s, %(two)s %(two_matches)s; "
                   "games won: %(one)s %(one_games)s, %(two)s %(two_games)s",
                   one_matches=number(state.matches_won[one]), two_matches=number(state.matches_won[two]), **games)


def owed_line(stake, pay) -> str:
    return gettext("%(payer)s pays %(payee)s", payer=pay.payer, payee=pay.payee) + " " + money(pay.amount, stake)


def money_lines(state: Standing) -> list[str]:
    return [owed_line(stake, pay) for stake, pay in state.money]


def match_state(stored: StoredMatch, sheet) -> str:
    """A finished match's result, or an open one's games so far."""
    if sheet.finished:
        return result_line(stored, sheet)
    one, two = sheet.players
    return gettext("Being played") + ": " + gettext("games %(won)s–%(lost)s", won=number(sheet.games_won(one)),
                                                    lost=number(sheet.games_won(two)))


def evening_lines(evening: Evening, stored_by_id: dict) -> list[str]:
    """The evening as a messenger text: who is ahead on net points, the matches and games won, the money,
    then each match."""
    one, two = evening.players
    state = standing(evening)
    lines = [gettext("Tonight: %(one)s vs %(two)s", one=one, two=two), ahead_line(state), figures_line(state),
             *money_lines(state)]
    for index, played in enumerate(evening.matches, start=1):
        lines.append(f"{index}. {match_state(stored_by_id[played.id], played.sheet)}")
    return lines


def game_line(game, players: tuple[str, str]) -> str:
    one, two = players
    return gettext("Game %(number)s: %(one)s %(one_score)s – %(two)s %(two_score)s", number=game.number, one=one,
                   two=two, one_score=number(game.scores[one]), two_score=number(game.scores[two]))


def match_lines(stored: StoredMatch) -> list[str]:
    """A match as a messenger text: its name, the result, each game's scores, the money."""
    sheet = stored.sheet()
    lines = [match_label(stored), match_state(stored, sheet)]
    lines += [game_line(game, sheet.players) for game in sheet.games]
    if stored.stake:
        lines += [owed_line(stored.stake, pay) for pay in payments(sheet, stored.stake) if pay.game is None]
    return lines


def as_text(lines: list[str], names: tuple[str, ...] = ()) -> str:
    """The lines of a plain text (a Share text, summary.txt), each of `names` between Unicode isolates:
    a right-to-left name, or one holding a direction mark from an old file, keeps its own direction
    and never turns the words around it (models/game/names.isolated)."""
    text = "\n".join(lines) + "\n"
    for name in sorted(set(names), key=len, reverse=True):
        text = re.sub(rf"(?<![\w\u2068]){re.escape(name)}(?![\w\u2069])", isolated(name), text)
    return text


# --------------------------------------------------------------------------
# The final sheet as a picture
# --------------------------------------------------------------------------

SVG_WIDTH, ROW = 360, 28


def sheet_picture(stored: StoredMatch) -> dict:
    """Rows of the picture with their y: a heading, each game's scores (the winner's marked), the net.

    The template (templates/sheet.svg) only places text and lines, so the
    picture needs no font or host of its own."""
    sheet = stored.sheet()
    players = sheet.players
    games = [{"label": gettext("Game %(number)s", number=game.number),
              "scores": [number(game.scores[name]) for name in players],
              "won": [game.winner == name for name in players]} for game in sheet.games]
    net = [signed(sheet.net[name]) for name in players]
    height = ROW * (len(games) + 5)
    return {"title": match_label(stored), "result": match_state(stored, sheet), "players": players,
            "games": games, "net": net, "width": SVG_WIDTH, "height": height, "row": ROW}


def evening_names(evening: Evening, stored_by_id: dict) -> tuple[str, ...]:
    return tuple(name for played in evening.matches for name in stored_by_id[played.id].match.players)
