"""The ledger is a fold: the whole score sheet computed from the hands as entered.

Nothing here is stored. The web sheet, the export and `replay` all call
`score_sheet`, so they cannot disagree, and editing or undoing a hand is only
a recomputation.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from .dealer import next_dealer
from models.errors import MatchOver
from .hand import Hand, Outcome, other, score
from .match import Match
from .rules import Rules
from .settle import Settlement, settle

read_only = MappingProxyType  # a view no caller can write through; the dict behind it is never kept


@dataclass(frozen=True)
class Game:
    """One column pair of the sheet; it takes nothing more once it has a winner.

    Frozen, with read-only mappings, because one folded sheet is handed to many
    requests at once (the app's match cache): a win makes a new Game.
    """

    number: int
    scores: Mapping[str, int]
    boxes: Mapping[str, int]
    winner: str | None = None
    closed_by: int | None = None  # the hand number that closed it
    settlement: Settlement | None = None

    @property
    def open(self) -> bool:
        return self.winner is None

    def with_win(self, outcome: Outcome, rules: Rules, number: int) -> "Game":
        """This game after the win of hand `number`; it closes at the target.

        With `immediate_boxes` the boxes are credited now and count towards the target."""
        winner = outcome.winner
        scores = read_only({**self.scores, winner: self.scores[winner] + game_points(outcome, rules)})
        boxes = read_only({**self.boxes, winner: self.boxes[winner] + outcome.boxes})
        if scores[winner] < rules.target:
            return replace(self, scores=scores, boxes=boxes)
        return replace(self, scores=scores, boxes=boxes, winner=winner, closed_by=number,
                       settlement=settle(winner, scores, boxes, rules))

    def to_dict(self) -> dict:
        return {
            "number": self.number,
            "scores": dict(self.scores),
            "boxes": dict(self.boxes),
            "winner": self.winner,
            "settlement": self.settlement.to_dict() if self.settlement else None,
        }


@dataclass(frozen=True)
class Line:
    """One row of the sheet: a hand, who dealt it, what it scored and where it went."""

    number: int
    dealer: str
    entry: Hand
    outcome: Outcome
    games: tuple[int, ...]
    totals: Mapping[int, int]  # game number -> the winner's running total after this hand
    closed: tuple[int, ...]  # games this hand closed

    def to_dict(self) -> dict:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "result": self.outcome.result,
            "winner": self.outcome.winner,
            "points": self.outcome.points,
            "games": list(self.games),
        }


@dataclass(frozen=True)
class Sheet:
    """The folded sheet: frozen all the way down (tuples, read-only mappings), so it can be shared."""

    match: Match
    games: tuple[Game, ...]
    lines: tuple[Line, ...] = ()
    next_dealer: str = ""

    @property
    def players(self) -> tuple[str, str]:
        return self.match.players

    @property
    def finished(self) -> bool:
        return all_closed(self.games)

    @property
    def winner(self) -> str | None:
        """Two games of three (or the one game of a single match)."""
        if not self.finished:
            return None
        wins = {name: self.games_won(name) for name in self.players}
        return max(self.players, key=lambda name: wins[name])

    def games_won(self, name: str) -> int:
        return sum(1 for game in self.games if game.winner == name)

    @property
    def net(self) -> dict[str, int]:
        net = {name: 0 for name in self.players}
        for game in self.games:
            if game.settlement:
                net[game.winner] += game.settlement.net
                net[other(self.players, game.winner)] -= game.settlement.net
        return net

    def to_dict(self) -> dict:
        """The replay output of MATCHFILE.md."""
        return {
            "players": list(self.players),
            "hands": [line.to_dict() for line in self.lines],
            "games": [game.to_dict() for game in self.games],
            "next_dealer": self.next_dealer,
            "finished": self.finished,
            "winner": self.winner,
            "net": self.net,
        }


def game_points(outcome: Outcome, rules: Rules) -> int:
    """What a win adds to a game's score: its points, and its boxes' bonus at once with `immediate_boxes`."""
    if rules.immediate_boxes:
        return outcome.points + outcome.boxes * rules.box_bonus
    return outcome.points


def all_closed(games) -> bool:
    return all(not game.open for game in games)


def target_games(games, winner: str) -> list[Game]:
    """Every open game the winner has scored in, plus the first open one they have not.

    While all games are open this gives the seeds' 1st / 2nd / 3rd-and-later
    pattern; a player shut out of a closed game starts in the next open one.
    """
    chosen = []
    fresh_taken = False
    for game in games:
        if not game.open:
            continue
        if game.boxes[winner] > 0:
            chosen.append(game)
        elif not fresh_taken:
            chosen.append(game)
            fresh_taken = True
    return chosen


def write_win(games: list[Game], outcome: Outcome, rules: Rules, number: int) -> tuple[list[Game], list[Game]]:
    """Replace the games the win is written to in `games`; return the games written and those it closed."""
    written = [game.with_win(outcome, rules, number)
               for game in target_games(games, outcome.winner)]
    for game in written:
        games[game.number - 1] = game
    return written, [game for game in written if not game.open]


def new_games(match: Match) -> list[Game]:
    zero = read_only({name: 0 for name in match.players})
    return [Game(number, zero, zero) for number in range(1, match.game_count + 1)]


def score_sheet(match: Match) -> Sheet:
    """Fold the hands into the sheet. A hand after the match is over is refused."""
    games, lines = new_games(match), []
    dealer = match.dealer
    for number, hand in enumerate(match.hands, start=1):
        line = fold_hand(games, dealer, number, hand, match)
        lines.append(line)
        dealer = next_dealer(dealer, line.outcome, match.players, match.rules)
    return Sheet(match, tuple(games), tuple(lines), dealer)


def sheet_after(sheet: Sheet, hand: Hand) -> Sheet:
    """The sheet one hand later: the fold's next step from where `sheet` stands, so a saved hand
    costs one hand's arithmetic, not the match's. Equal to folding the longer match anew
    (tests/test_engine_properties.py folds every case both ways)."""
    match = sheet.match.with_hands(sheet.match.hands + (hand,))
    games = list(sheet.games)
    line = fold_hand(games, sheet.next_dealer, len(sheet.lines) + 1, hand, match)
    dealer = next_dealer(sheet.next_dealer, line.outcome, match.players, match.rules)
    return Sheet(match, tuple(games), sheet.lines + (line,), dealer)


def fold_hand(games: list[Game], dealer: str, number: int, hand: Hand, match: Match) -> Line:
    """One step of the fold: score hand `number`, write its win into `games` (in place), and say its line."""
    if all_closed(games):
        raise MatchOver(number)
    outcome = score(hand, match.players, match.rules)
    written, closed = ([], []) if outcome.winner is None else write_win(games, outcome, match.rules, number)
    return Line(
        number=number,
        dealer=dealer,
        entry=hand,
        outcome=outcome,
        games=tuple(game.number for game in written),
        totals=read_only({game.number: game.scores[outcome.winner] for game in written}),
        closed=tuple(game.number for game in closed),
    )
