"""The race to the target: each player's running score in each game, hand by hand."""
from __future__ import annotations

from dataclasses import dataclass

from .caches import BoundedCache
from .ledger import Line, Sheet

WALKED = 24  # a race of fewer hands is walked: quicker than finding it kept (3.3 µs kept, 1.4 walked at 8 hands)


@dataclass(frozen=True)
class Race:
    """One game's race; `series` has a score per player from hand 0 to `last_hand`."""

    game: int
    target: int
    last_hand: int  # the closing hand, or the last hand played
    series: dict[str, tuple[int, ...]]
    winner: str | None


def races(sheet: Sheet) -> list[Race]:
    return [race_of(sheet, game.number) for game in sheet.games]


def race_of(sheet: Sheet, number: int, kept: BoundedCache | None = None) -> Race:
    """One game's race. An open game's picture is drawn after every saved hand; with `kept`, its
    race is the last one's plus a point, so a saved hand on a 1,000-hand match does not walk them all."""
    game = sheet.games[number - 1]
    last = game.closed_by or len(sheet.lines)
    first, second = running_scores(sheet, number, last, kept)
    one, two = sheet.players
    return Race(game.number, sheet.match.rules.target, last, {one: first, two: second}, game.winner)


def running_scores(sheet: Sheet, number: int, last: int,
                   kept: BoundedCache | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both players' scores in game `number` from hand 0 to hand `last`.

    Kept by the identity of the last line they count, kept with them so its id is not reused
    while the entry lives: the fold makes a line once and every later sheet a saved hand steps to
    shares it with all the lines before it (models/ledger.sheet_after), so the line at a place
    stands for its whole prefix; a sheet folded anew (an edit) has new lines and starts over."""
    lines = sheet.lines
    if kept is None or last < WALKED:
        return scores_over(lines[:last], number, sheet.players)
    key = race_key(lines[last - 1], number, sheet.players)
    found = kept.get(key)
    if found is not None and found[0] is lines[last - 1]:
        return found[1], found[2]
    before = kept.get(race_key(lines[last - 2], number, sheet.players)) if last >= 2 else None
    if before is not None and before[0] is lines[last - 2]:
        first, second = scores_over(lines[last - 1:last], number, sheet.players, before[1], before[2])
    else:
        first, second = scores_over(lines[:last], number, sheet.players)
    kept.put(key, (lines[last - 1], first, second))
    return first, second


def race_key(line: Line, number: int, players: tuple[str, str]) -> tuple:
    return ("race", id(line), number, players)


def scores_over(lines, number: int, players: tuple[str, str], first: tuple[int, ...] = (0,),
                second: tuple[int, ...] = (0,)) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`first` and `second` carried on over `lines`: a hand's winner goes to its running total in
    the game, the other player stays. The scores so far are not copied point by point (a kept
    race one hand longer is one tuple step)."""
    one, two = players
    a, b = [first[-1]], [second[-1]]
    for line in lines:
        total = line.totals.get(number)
        winner = line.outcome.winner
        a.append(total if total is not None and winner == one else a[-1])
        b.append(total if total is not None and winner == two else b[-1])
    return first + tuple(a[1:]), second + tuple(b[1:])


def entry_size(entry: tuple) -> int:
    """What a kept race weighs (its line is the fold's, held by the sheet too)."""
    return 36 * (len(entry[1]) + len(entry[2])) + 300  # two tuples of ints: 8 bytes a slot, 28 an int
