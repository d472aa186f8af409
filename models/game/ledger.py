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
from models.errors import MatchError, MatchOver
from .hand import Hand, Outcome, other, score
from .match import Match
from .rules import Rules
from .settle import Settlement, settle
from .tables.captain import first_captain
from .tables.deal import Board, Entry, score_deal
from .tables.money import player_net
from .tables.seats import Sides, seat

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
    entry: Entry
    outcome: Outcome
    games: tuple[int, ...]
    totals: Mapping[int, int]  # game number -> the winner's running total after this hand
    closed: tuple[int, ...]  # games this hand closed
    boards: tuple[Board, ...] | None = None  # a table of three or four: the deal's boards as played

    def to_dict(self) -> dict:
        out = {
            "number": self.number,
            "dealer": self.dealer,
            "result": self.outcome.result,
            "winner": self.outcome.winner,
            "points": self.outcome.points,
            "games": list(self.games),
        }
        if self.boards is not None:
            out["boards"] = [board.to_dict() for board in self.boards]
        return out


@dataclass(frozen=True)
class Sheet:
    """The folded sheet: frozen all the way down (tuples, read-only mappings), so it can be shared.

    At a table of three or four the sheet's `players` are the two sides' names (`sides`), its
    dealer a side, and `captain` chouette's captain of the next deal."""

    match: Match
    games: tuple[Game, ...]
    lines: tuple[Line, ...] = ()
    next_dealer: str = ""
    sides: Sides | None = None
    captain: str | None = None

    @property
    def players(self) -> tuple[str, str]:
        """Whom the games are between: the players at a table of two, else the sides' names."""
        return self.sides.names if self.sides is not None else self.match.players

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
        out = {
            "players": list(self.match.players),
            "hands": [line.to_dict() for line in self.lines],
            "games": [game.to_dict() for game in self.games],
            "next_dealer": self.next_dealer,
            "finished": self.finished,
            "winner": self.winner,
            "net": self.net,
        }
        if self.sides is not None:
            out.update(table=self.sides.table.value, sides=self.sides.to_list(),
                       player_net=player_net(self.sides, self.net))
        return out


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


def new_games(match: Match, players: tuple[str, str] | None = None) -> list[Game]:
    zero = read_only({name: 0 for name in players or match.players})
    return [Game(number, zero, zero) for number in range(1, match.game_count + 1)]


def opening(match: Match) -> Sheet:
    """The sheet before the first hand: at a table of three or four the first dealer's side deals."""
    sides = seat(match.rules.table, match.players)
    if sides is None:
        return Sheet(match, tuple(new_games(match)), (), match.dealer)
    return Sheet(match, tuple(new_games(match, sides.names)), (), sides.side_of(match.dealer), sides,
                 first_captain(sides))


def score_sheet(match: Match) -> Sheet:
    """Fold the hands (a table's deals) into the sheet. A hand after the match is over is refused."""
    start = opening(match)
    games, lines = list(start.games), []
    dealer, captain, players = start.next_dealer, start.captain, start.players
    for number, hand in enumerate(match.hands, start=1):
        line, captain = fold_entry(games, dealer, captain, number, hand, match, start.sides)
        lines.append(line)
        dealer = next_dealer(dealer, line.outcome, players, match.rules)
    return replace(start, games=tuple(games), lines=tuple(lines), next_dealer=dealer, captain=captain)


def sheet_after(sheet: Sheet, hand: Entry) -> Sheet:
    """The sheet one hand (or deal) later: the fold's next step from where `sheet` stands, so a saved
    hand costs one hand's arithmetic, not the match's. Equal to folding the longer match anew
    (tests/test_engine_properties.py folds every case both ways)."""
    match = sheet.match.with_hands(sheet.match.hands + (hand,))
    games = list(sheet.games)
    line, captain = fold_entry(games, sheet.next_dealer, sheet.captain, len(sheet.lines) + 1, hand, match,
                               sheet.sides)
    dealer = next_dealer(sheet.next_dealer, line.outcome, sheet.players, match.rules)
    return replace(sheet, match=match, games=tuple(games), lines=sheet.lines + (line,), next_dealer=dealer,
                   captain=captain)


def fold_entry(games: list[Game], dealer: str, captain: str | None, number: int, entry: Entry, match: Match,
               sides: Sides | None) -> tuple[Line, str | None]:
    """One step of the fold: a hand of two, or a table's deal folded from its boards to the sides' outcome;
    with the captain after it (chouette)."""
    if sides is None:
        return fold_hand(games, dealer, number, entry, match), None
    if all_closed(games):
        raise MatchOver(number)
    try:
        scored = score_deal(entry, number, dealer, captain, sides, match.rules)
    except MatchError as error:
        raise error.at_hand(number) from None
    return written_line(games, dealer, number, entry, scored.outcome, match.rules, scored.boards), scored.captain


def fold_hand(games: list[Game], dealer: str, number: int, hand: Hand, match: Match) -> Line:
    """One step of the fold: score hand `number`, write its win into `games` (in place), and say its line."""
    if all_closed(games):
        raise MatchOver(number)
    return written_line(games, dealer, number, hand, score(hand, match.players, match.rules), match.rules)


def written_line(games: list[Game], dealer: str, number: int, entry: Entry, outcome: Outcome, rules: Rules,
                 boards: tuple[Board, ...] | None = None) -> Line:
    """Write `outcome`'s win into `games` (in place) and say its line: the same for a hand and a deal."""
    written, closed = ([], []) if outcome.winner is None else write_win(games, outcome, rules, number)
    return Line(
        number=number,
        dealer=dealer,
        entry=entry,
        outcome=outcome,
        games=tuple(game.number for game in written),
        totals=read_only({game.number: game.scores[outcome.winner] for game in written}),
        closed=tuple(game.number for game in closed),
        boards=boards,
    )
