"""A player's record over many matches, computed from the same fold as the sheet.

Nothing here is stored: the figures are read off `Sheet`s, so a corrected hand
corrects every record that counts it. At a table of three or four a player's match, games, boxes and
net are the side's (the net the player's own: `tables.money.player_net`), and the hand figures are the
player's own boards; a deal typed as points for a side counts for the side's games only.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .ledger import Sheet
from .tables.money import player_net

GINS = ("gin", "big_gin")  # a knock with no deadwood: the record gives them their own lines


@dataclass
class Record:
    """What one player did over a set of matches."""

    name: str
    matches: int = 0
    matches_won: int = 0
    games_won: int = 0
    hands_won: int = 0
    points_won: int = 0
    gins: int = 0
    big_gins: int = 0
    undercuts_made: int = 0
    undercuts_suffered: int = 0
    knocks: int = 0  # knocks that were not gin: a gin is counted under gins (or big gins) only
    biggest_hand: int = 0
    shutouts: int = 0
    boxes: int = 0  # boxes as the engine counts them (gin_boxes, undercut_boxes, doubled), per game written
    net: int = 0
    current_streak: int = 0
    longest_streak: int = 0
    results: list = field(default_factory=list)  # True/False per finished match, oldest first

    @property
    def average_win(self) -> float:
        """Average points per winning hand (0 before the first win)."""
        return self.points_won / self.hands_won if self.hands_won else 0.0


def side_of(name: str, sheet: Sheet) -> str | None:
    """What `name` plays under in `sheet`: the player at a table of two, the side's name at a table of three or
    four; None when the player is not seated there."""
    if sheet.sides is None:
        return name if name in sheet.players else None
    return sheet.sides.side_of(name) if name in sheet.match.players else None


def hands_played(sheet: Sheet):
    """Each two-player hand of the sheet as (entry, outcome): a table's boards, whose winner is a player."""
    for line in sheet.lines:
        if sheet.sides is None:
            yield line.entry, line.outcome
        else:
            yield from ((board.entry, board.outcome) for board in line.boards or ())


def count_hands(record: Record, sheet: Sheet) -> None:
    name = record.name
    for entry, outcome in hands_played(sheet):
        if entry.kind == "knock" and entry.knocker == name and outcome.result not in GINS:
            record.knocks += 1
        if outcome.result == "undercut" and entry.knocker == name:
            record.undercuts_suffered += 1
        if outcome.winner != name:
            continue
        record.hands_won += 1
        record.points_won += outcome.points
        record.biggest_hand = max(record.biggest_hand, outcome.points)
        record.gins += outcome.result == "gin"
        record.big_gins += outcome.result == "big_gin"
        record.undercuts_made += outcome.result == "undercut"


def count_games(record: Record, sheet: Sheet, side: str) -> None:
    for game in sheet.games:
        record.boxes += game.boxes[side]
        if game.winner == side:
            record.games_won += 1
            record.shutouts += game.settlement.shutout
    record.net += sheet.net[side] if sheet.sides is None else player_net(sheet.sides, sheet.net)[record.name]


def count_streak(record: Record, won: bool) -> None:
    record.results.append(won)
    record.current_streak = record.current_streak + 1 if won else 0
    record.longest_streak = max(record.longest_streak, record.current_streak)


def player_record(name: str, sheets: list[Sheet]) -> Record:
    """`sheets` oldest first; only the player's own matches count."""
    record = Record(name)
    for sheet in sheets:
        side = side_of(name, sheet)
        if side is None:
            continue
        record.matches += 1
        count_hands(record, sheet)
        count_games(record, sheet, side)
        if sheet.finished:
            won = sheet.winner == side
            record.matches_won += won
            count_streak(record, won)
    return record


def running_net(name: str, sheets: list[Sheet]) -> list[int]:
    """The player's net after each match, oldest first: the head-to-head picture."""
    total, points = 0, []
    for sheet in sheets:
        total += sheet.net.get(name, 0)
        points.append(total)
    return points


@dataclass
class Partnership:
    """A player and one partner: the matches they sat on the same side of, and the finished ones that side won."""

    partner: str
    matches: int = 0
    won: int = 0


def partnerships(name: str, sheets: list[Sheet]) -> list[Partnership]:
    """Everyone who sat on `name`'s side at a table of three or four (chouette's team: each teammate), most
    matches won together first, then fewest played (the better share), then by name."""
    found: dict[str, Partnership] = {}
    for sheet in sheets:
        side = side_of(name, sheet) if sheet.sides is not None else None
        if side is None:
            continue
        for partner in sheet.sides.players_of(side):
            if partner != name:
                together = found.setdefault(partner, Partnership(partner))
                together.matches += 1
                together.won += sheet.finished and sheet.winner == side
    return sorted(found.values(), key=lambda one: (-one.won, one.matches, one.partner))
