"""A deal of a table of three or four as entered, and what it scores for the sides.

Each board is a two-player hand scored by `hand.score` exactly as a table of two scores one; the deal
then becomes one Outcome of the sides (winner a side's name), which the ledger writes into the games
as it writes a hand of two. Partners: the signed sum of the two boards. Chouette: the one board.
"""
from __future__ import annotations

from dataclasses import dataclass

from models.errors import N_, MatchError
from ..hand import Hand, HandKind, Outcome, score
from ..rules import PartnershipBoxes, Rules, Table
from .captain import next_captain
from .seats import Sides, board_pairs

DRAW, LEVEL, DEAL = "draw", "level", "deal"  # a deal's results besides a board's own


@dataclass(frozen=True)
class Deal:
    """Partners' deal as entered: its two boards in board order, each a two-player Hand whose knocker
    (or winner) is one of that board's two players. A deal typed as points for one side is a plain
    Hand of kind points, and a chouette deal a plain Hand, as at a table of two."""

    boards: tuple[Hand, ...]

    def to_dict(self) -> dict:
        """The deal in match-file form."""
        return {"boards": [board.to_dict() for board in self.boards]}


Entry = Hand | Deal  # what one row of a table's sheet was entered as


@dataclass(frozen=True)
class Board:
    """One board as played: its two players (the first side's first), who dealt it, what it scored."""

    players: tuple[str, str]
    dealer: str
    entry: Hand
    outcome: Outcome

    def to_dict(self) -> dict:
        return {
            "players": list(self.players),
            "dealer": self.dealer,
            "result": self.outcome.result,
            "winner": self.outcome.winner,
            "points": self.outcome.points,
        }


@dataclass(frozen=True)
class DealScore:
    """What a deal did: the sides' Outcome, its boards (None for a typed deal) and the captain after it."""

    outcome: Outcome
    boards: tuple[Board, ...] | None
    captain: str | None


def score_deal(entry: Entry, number: int, dealer: str, captain: str | None, sides: Sides,
               rules: Rules) -> DealScore:
    """Score deal `number` (1-based) dealt by side `dealer`; a name not at its board is refused."""
    if sides.table == Table.CHOUETTE:
        return score_chouette(entry, dealer, captain, sides, rules)
    if isinstance(entry, Hand):  # a whole deal typed as points: its winner's side scores it, 1 box
        side = sides.side_of(entry.winner)
        return DealScore(Outcome("points", side, entry.points), None, None)
    return score_partners(entry, number, dealer, sides, rules)


def score_chouette(hand: Hand, dealer: str, captain: str, sides: Sides, rules: Rules) -> DealScore:
    if isinstance(hand, Deal):
        raise MatchError("boards", N_("a chouette deal is one hand, between the player in the box and the captain"))
    pair = (sides.first[0], captain)
    board = play_board(hand, pair, dealer, sides, rules, "")
    won = board.outcome
    side = None if won.winner is None else sides.side_of(won.winner)
    outcome = Outcome(won.result, side, won.points, won.doubled, won.boxes)
    return DealScore(outcome, (board,), next_captain(sides, captain, won.winner))


def score_partners(deal: Deal, number: int, dealer: str, sides: Sides, rules: Rules) -> DealScore:
    boards = tuple(play_board(hand, pair, dealer, sides, rules, f"boards.{n}.")
                   for n, (hand, pair) in enumerate(zip(deal.boards, board_pairs(sides, rules, number)), start=1))
    first = sides.names[0]
    ahead = sum(signed(board.outcome, sides, first) for board in boards)
    if all(board.outcome.winner is None for board in boards):
        return DealScore(Outcome(DRAW, None, 0, boxes=0), boards, None)
    if ahead == 0:
        return DealScore(Outcome(LEVEL, None, 0, boxes=0), boards, None)
    winner = first if ahead > 0 else sides.names[1]
    return DealScore(Outcome(DEAL, winner, abs(ahead), boxes=deal_boxes(boards, winner, sides, rules)), boards, None)


def signed(outcome: Outcome, sides: Sides, first: str) -> int:
    """A board's points for the first side (its opponents' as negative); a drawn board counts 0."""
    if outcome.winner is None:
        return 0
    return outcome.points if sides.side_of(outcome.winner) == first else -outcome.points


def deal_boxes(boards: tuple[Board, ...], winner: str, sides: Sides, rules: Rules) -> int:
    """`deal`: one box; `board`: the boxes of every board the deal's winners won (none of the others')."""
    if rules.partnership_boxes == PartnershipBoxes.DEAL:
        return 1
    return sum(board.outcome.boxes for board in boards
               if board.outcome.winner is not None and sides.side_of(board.outcome.winner) == winner)


def play_board(hand: Hand, pair: tuple[str, str], dealer: str, sides: Sides, rules: Rules, field: str) -> Board:
    """One board between `pair`, dealt by the dealing side's player on it; `field` prefixes a refusal's key."""
    check_at_board(hand, pair, field)
    board_dealer = pair[0] if sides.side_of(pair[0]) == dealer else pair[1]
    return Board(pair, board_dealer, hand, score(hand, pair, rules))


def check_at_board(hand: Hand, pair: tuple[str, str], field: str) -> None:
    """The knocker (or a typed board's winner) must be one of the board's two players."""
    key = "knocker" if hand.kind == HandKind.KNOCK else "winner" if hand.kind == HandKind.POINTS else None
    name = getattr(hand, key) if key else None
    if name is not None and name not in pair:
        raise MatchError(f"{field}{key}", N_("{name!r} is not at this board: {first} plays {second}"),
                         name=name, first=pair[0], second=pair[1])
