"""The evening and the shareable summaries: words for a messenger and the final sheet as a picture.

Not a blueprint: the home page, the head-to-head and the exports all use it,
and blueprints never import each other. The figures come from
`models/game/evening.py` and the sheets; this module only words and draws them.
"""
from __future__ import annotations

import re

from itertools import zip_longest

from datetime import datetime, timezone

from flask_babel import gettext

from models.game.names import isolated
from models.game.evening import GAP, Evening, Played, Standing, evening_of, standing, tonight
from models.game.stakes import payments
from models.game.tables.money import player_net

from views.site.db import get_db, match_cache
from views.site.i18n import money, number, signed
from views.tables.scope import table_id
from models.storage.matches import last_hand_times, matches_at_seats, matches_of, recent_matches
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
    """The share text of the sitting a match belongs to, from the pair's matches (a table of three or
    four's: the matches with the same players in the same seats)."""
    if len(stored.match.players) > 2:
        found = matches_at_seats(get_db(), stored.match.players, cache=match_cache(), table=table_id())
    else:
        found = matches_of(get_db(), *stored.match.players, cache=match_cache(), table=table_id())
    matches = [m for m in found if not m.abandoned or m.id == stored.id]
    return evening_context(evening_of(played_matches(matches), stored.id), matches)["text"]


# --------------------------------------------------------------------------
# The words
# --------------------------------------------------------------------------

def ahead_line(state: Standing, sides=None) -> str:
    """'Ana is ahead tonight on net points: +412', or level: the headline names one measure and says which.

    Net points, because they are what a Hollywood table settles (the money is net points times the stake);
    the matches and games won are `figures_line`, each figure with its player's name, so none reads as a
    rank that the headline contradicts."""
    leader = state.leader
    if leader is None:
        return gettext("Level tonight on net points")
    if sides is not None and len(sides.players_of(leader)) > 1:  # a table's side of two or three players
        return gettext("%(side)s are ahead tonight on net points: %(net)s", side=leader, net=signed(state.net[leader]))
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


def evening_player_net(evening: Evening) -> dict:
    """A table's evening per player (models/game/tables/money): net points, and the money per currency
    (a currency's amounts add up even when the stakes per point differ, as a pair's evening's do)."""
    return summed([match_player_net(played.sheet, played.stake) for played in evening.matches])


def match_player_net(sheet, stake) -> dict:
    """A table's match per player: {name: (net points, {currency: (stake, amount)})}."""
    return {name: (net, {stake.currency: (stake, net * stake.per_point)} if stake else {})
            for name, net in player_net(sheet.sides, sheet.net).items()}


def summed(nets: list[dict]) -> dict:
    out: dict = {}
    for one in nets:
        for name, (points, owed) in one.items():
            before, money_before = out.get(name, (0, {}))
            for currency, (stake, amount) in owed.items():
                kept = money_before.get(currency, (stake, 0))
                money_before = {**money_before, currency: (kept[0], kept[1] + amount)}
            out[name] = (before + points, money_before)
    return out


def players_line(nets: dict, sides) -> str:
    """'What each player pays or gets: Ana +120 (6.00 €), Cy +120 (6.00 €), ...', side by side."""
    said = []
    for name in (name for side in sides.players for name in side if name in nets):
        points, owed = nets[name]
        amounts = ", ".join(money(amount, stake) for stake, amount in owed.values())
        said.append(f"{name} {signed(points)}" + (f" ({amounts})" if amounts else ""))
    return gettext("What each player pays or gets") + ": " + ", ".join(said)


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
    sides = evening.matches[0].sheet.sides
    money = money_lines(state) if sides is None else [players_line(evening_player_net(evening), sides)]
    lines = [gettext("Tonight: %(one)s vs %(two)s", one=one, two=two), ahead_line(state, sides), figures_line(state),
             *money]
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
    if sheet.sides is not None:
        lines.append(players_line(match_player_net(sheet, stored.stake), sheet.sides))
    elif stored.stake:
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
    # A table's sides head their columns a player a line; under the net, each player's money.
    heads = [players] if sheet.sides is None else list(zip_longest(*sheet.sides.players, fillvalue=""))
    people = [] if sheet.sides is None else [
        (name, signed(points) + "".join(f" ({money(amount, stake)})" for stake, amount in owed.values()))
        for name, (points, owed) in match_player_net(sheet, stored.stake).items()]
    height = ROW * (len(games) + 4 + len(heads)) + (ROW * (len(people) + 2) if people else 0)
    return {"title": match_label(stored), "result": match_state(stored, sheet), "players": players, "heads": heads,
            "games": games, "net": net, "people": people, "width": SVG_WIDTH, "height": height, "row": ROW}


def evening_names(evening: Evening, stored_by_id: dict) -> tuple[str, ...]:
    return tuple(name for played in evening.matches for name in stored_by_id[played.id].match.players)
