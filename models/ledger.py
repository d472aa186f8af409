"""The ledger is a fold: the whole score sheet computed from the hands as entered.

Nothing here is stored. The web sheet, the export and `replay` all call
`score_sheet`, so they cannot disagree, and editing or undoing a hand is only
a recomputation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .dealer import next_dealer
from .errors import MatchOver
from .hand import Hand, Outcome, other, score
from .match import Match
from .settle import Settlement, settle


@dataclass
class Game:
    """One column pair of the sheet; it takes nothing more once it has a winner."""

    number: int
    scores: dict[str, int]
    boxes: dict[str, int]
    winner: str | None = None
    closed_by: int | None = None  # the hand number that closed it
    settlement: Settlement | None = None

    @property
    def open(self) -> bool:
        return self.winner is None

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
    totals: dict[int, int]  # game number -> the winner's running total after this hand
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


@dataclass
class Sheet:
    match: Match
    games: list[Game]
    lines: list[Line] = field(default_factory=list)
    next_dealer: str = ""

    @property
    def players(self) -> tuple[str, str]:
        return self.match.players

    @property
    def finished(self) -> bool:
        return all(not game.open for game in self.games)

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


def target_games(games: list[Game], winner: str) -> list[Game]:
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


def write_win(games: list[Game], outcome: Outcome, match: Match, number: int) -> tuple[list[Game], list[Game]]:
    """Add the win to its games; return the games written and the games it closed."""
    written = target_games(games, outcome.winner)
    closed = []
    for game in written:
        game.scores[outcome.winner] += outcome.points
        game.boxes[outcome.winner] += 1
        if game.scores[outcome.winner] >= match.rules.target:
            game.winner = outcome.winner
            game.closed_by = number
            game.settlement = settle(outcome.winner, game.scores, game.boxes, match.rules)
            closed.append(game)
    return written, closed


def new_games(match: Match) -> list[Game]:
    return [
        Game(number, {name: 0 for name in match.players}, {name: 0 for name in match.players})
        for number in range(1, match.game_count + 1)
    ]


def score_sheet(match: Match) -> Sheet:
    """Fold the hands into the sheet. A hand after the match is over is refused."""
    sheet = Sheet(match, new_games(match))
    dealer = match.dealer
    for number, hand in enumerate(match.hands, start=1):
        if sheet.finished:
            raise MatchOver(number)
        outcome = score(hand, match.players, match.rules)
        written, closed = ([], []) if outcome.winner is None else write_win(sheet.games, outcome, match, number)
        sheet.lines.append(Line(
            number=number,
            dealer=dealer,
            entry=hand,
            outcome=outcome,
            games=tuple(game.number for game in written),
            totals={game.number: game.scores[outcome.winner] for game in written},
            closed=tuple(game.number for game in closed),
        ))
        dealer = next_dealer(dealer, outcome, match.players, match.rules)
    sheet.next_dealer = dealer
    return sheet


def games_for_win(sheet: Sheet, name: str) -> list[int]:
    """Where a win by `name` would be written now: the preview's answer."""
    return [game.number for game in target_games(sheet.games, name)]
