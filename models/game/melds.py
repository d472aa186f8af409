"""Exact Gin Rummy meld solving: the best arrangement, lay-offs (models/game/meld_codes.py reads the cards).

Plain Python (no Flask) so the CLI, the web app and the tests share one engine.

How the search works, and why it is exact and fast
--------------------------------------------------
A greedy "take the biggest meld first" is wrong (a 7H can belong to a set of
sevens or to a heart run, and only one choice is best), and trying every
collection of melds blows up on dense hands.  Instead the cards are visited in
rank order (ace to king, suits S H D C within a rank) and each card is given a
role: deadwood, part of a set, start or continuation of a run, or (for the
defender) a lay-off.  Whether a role is legal only depends on a tiny state per
suit (is a run of length 1, 2 or 3+ open? is a lay-off chain open upwards or
pending downwards?) plus how many cards of the current rank went into a set.
That gives at most 6**4 * 5 states per step whatever the hand size, so the
dynamic programme over those states is exact and polynomial, even for all 52
cards.  Cards that cannot be in any meld or lay-off are deadwood outright and
never enter the search, which makes the usual 10-card hand nearly free.

Ties (equal deadwood points) go to fewer deadwood cards, then to a fixed
preference order of roles (extend a run, set, start a run, then lay-offs, then
deadwood), so the same cards always give the same answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from models.errors import N_

from .cards import SUITS, Card
from .meld_codes import MeldError, check_knocker_melds, meld_problem

_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}

# Roles a card can take in an arrangement.
_DEAD, _SET, _RUN_START, _RUN_EXTEND, _LAY_SET, _LAY_UP, _LAY_DOWN = range(7)
_LAY_ROLES = (_LAY_SET, _LAY_UP, _LAY_DOWN)

# Per-suit search state, 3 bits per suit; the set count sits above them.
_FREE, _RUN1, _RUN2, _RUN3, _UP, _DOWN = range(6)
_SET_SHIFT = 12
_SET_ONE = 1 << _SET_SHIFT
_SUIT_BITS = (1 << _SET_SHIFT) - 1

# Deadwood cost packed as points * 64 + cards, so one int compares both.
_CARD_WEIGHT = 1
_POINT_WEIGHT = 64


@dataclass(frozen=True)
class Arrangement:
    """One way to play a hand: melds, cards laid off, and what is left over."""

    melds: tuple[tuple[Card, ...], ...]
    laid_off: tuple[Card, ...]
    deadwood: tuple[Card, ...]
    points: int

    def to_dict(self) -> dict:
        """Card codes only, so the result can go straight into JSON."""
        return {
            "melds": [[card.code for card in meld] for meld in self.melds],
            "laid_off": [card.code for card in self.laid_off],
            "deadwood": [card.code for card in self.deadwood],
            "points": self.points,
        }


def _suit_masks(cards: Iterable[Card]) -> list[int]:
    """Per-suit 13-bit rank masks (bit r-1 is rank r); a repeated card is an error."""
    masks = [0, 0, 0, 0]
    for card in cards:
        i, bit = _SUIT_INDEX[card.suit], 1 << (card.rank - 1)
        if masks[i] & bit:
            raise MeldError(N_("{card} appears twice"), card=card.code)
        masks[i] |= bit
    return masks


# --------------------------------------------------------------------------
# Public solvers
# --------------------------------------------------------------------------

def best_arrangement(cards: Iterable[Card]) -> Arrangement:
    """The melds leaving the least deadwood; works for any 0..52 distinct cards."""
    return _solve(list(cards), _Targets.none())


def best_after_layoffs(
    defender_cards: Iterable[Card], knocker_melds: Iterable[Sequence[Card]]
) -> Arrangement:
    """The defender's least deadwood, choosing own melds and lay-offs together.

    A card may lay off onto a knocker's set of three (the missing suit) or
    onto either end of a knocker's run, and run lay-offs chain.  The search is
    joint because a card kept for the defender's own meld cannot be laid off.
    """
    defender = list(defender_cards)
    knocker = [tuple(meld) for meld in knocker_melds]
    for meld in knocker:
        problem = meld_problem(meld)
        if problem:
            codes = " ".join(card.code for card in meld)
            raise MeldError(N_("knocker's {codes} is not a meld: {problem}"), codes=codes, problem=problem)
    check_knocker_melds(knocker, defender)
    return _solve(defender, _Targets.from_melds(knocker))


# --------------------------------------------------------------------------
# What the defender can lay off onto
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class _Targets:
    """The knocker's melds as bit masks: run ranks and set gaps, per suit."""

    runs: tuple[int, int, int, int]
    set_gaps: tuple[int, int, int, int]

    @staticmethod
    def none() -> "_Targets":
        """No knocker melds: plain best arrangement."""
        return _Targets((0, 0, 0, 0), (0, 0, 0, 0))

    @staticmethod
    def from_melds(melds: list[tuple[Card, ...]]) -> "_Targets":
        """Only a 3-card set takes a lay-off (its missing suit); runs take ends."""
        runs, gaps = [0, 0, 0, 0], [0, 0, 0, 0]
        for meld in melds:
            if meld[0].rank == meld[-1].rank:
                if len(meld) == 3:
                    missing = set(SUITS) - {card.suit for card in meld}
                    gaps[_SUIT_INDEX[missing.pop()]] |= 1 << (meld[0].rank - 1)
            else:
                for card in meld:
                    runs[_SUIT_INDEX[card.suit]] |= 1 << (card.rank - 1)
        return _Targets(tuple(runs), tuple(gaps))


def _chain(run_bits: int, hand_bits: int, step: int) -> int:
    """Hand ranks reachable from a knocker run end by chaining one rank at a time.

    `step` is +1 to grow upwards, -1 to grow downwards.
    """
    shift = (lambda bits: bits << 1) if step > 0 else (lambda bits: bits >> 1)
    reach = 0
    frontier = shift(run_bits) & hand_bits
    while frontier:
        reach |= frontier
        frontier = shift(frontier) & hand_bits & ~reach
    return reach


def _run_cover(bits: int) -> int:
    """Ranks of one suit that lie in at least one 3-card run."""
    starts = bits & (bits >> 1) & (bits >> 2)
    return starts | (starts << 1) | (starts << 2)


def _set_ranks(masks: list[int]) -> int:
    """Ranks held in at least three suits, i.e. ranks that can form a set."""
    a, b, c, d = masks
    return (a & b & (c | d)) | (c & d & (a | b))


# --------------------------------------------------------------------------
# The exact search
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class _Board:
    """Everything the search needs to know, precomputed once per call."""

    hand: list[int]       # per-suit ranks held
    useful: list[int]     # per-suit ranks that could be melded or laid off
    set_ranks: int        # ranks held in 3+ suits
    targets: _Targets
    up: list[int]         # per-suit ranks that can chain up from a knocker run
    down: list[int]       # per-suit ranks that can chain down to a knocker run

    @staticmethod
    def build(cards: list[Card], targets: _Targets) -> "_Board":
        """Precompute masks; cards in no possible meld or lay-off are not `useful`."""
        hand = _suit_masks(cards)
        set_ranks = _set_ranks(hand)
        up = [_chain(targets.runs[i], hand[i], +1) for i in range(4)]
        down = [_chain(targets.runs[i], hand[i], -1) for i in range(4)]
        useful = [
            _run_cover(hand[i]) | (set_ranks & hand[i])
            | (targets.set_gaps[i] & hand[i]) | up[i] | down[i]
            for i in range(4)
        ]
        return _Board(hand, useful, set_ranks, targets, up, down)


def _solve(cards: list[Card], targets: _Targets) -> Arrangement:
    """Run the search over the useful cards; everything else is deadwood."""
    board = _Board.build(cards, targets)
    roles = _search(board) if any(board.useful) else {}
    dead = [card for card in cards if card not in roles]
    return _arrangement(roles, dead)


def _search(board: _Board) -> dict[Card, int]:
    """Dynamic programme over (per-suit state, set count); returns card roles.

    Each step maps state -> least cost and remembers how it got there, so the
    best final state can be traced back to one role per card.
    """
    states: dict[int, int] = {0: 0}
    steps: list[dict] = []
    last = [0, 0, 0, 0]          # last rank visited per suit
    current_rank = 0
    for rank in range(1, 14):
        for suit in range(4):
            if not board.useful[suit] >> (rank - 1) & 1:
                continue
            if rank != current_rank:
                states = _apply(states, steps, _close_rank)
                current_rank = rank
            if rank != last[suit] + 1:
                states = _apply(states, steps, _gap_closer(board, suit, last[suit]))
            last[suit] = rank
            options = _card_options(board, rank, suit)
            states = _card_step(states, steps, suit, options, Card(rank, SUITS[suit]))
    states = _apply(states, steps, _close_rank)
    for suit in range(4):
        states = _apply(states, steps, _gap_closer(board, suit, last[suit]))
    return _trace(states, steps)


def _close_rank(state: int) -> int | None:
    """Leaving a rank: its set cards must number 0, 3 or 4 (a set needs 3+)."""
    count = state >> _SET_SHIFT
    return None if count in (1, 2) else state & _SUIT_BITS


def _gap_closer(board: _Board, suit: int, last_rank: int):
    """Closer for a suit whose next rank (last_rank + 1) is not in play.

    An open run shorter than 3 dies there; a pending downward lay-off chain
    survives only if that rank is the bottom of a knocker run.
    """
    knocker_next = board.targets.runs[suit] >> last_rank & 1
    shift = 3 * suit

    def close(state: int) -> int | None:
        q = state >> shift & 7
        if q in (_RUN1, _RUN2) or (q == _DOWN and not knocker_next):
            return None
        return state & ~(7 << shift)

    return close


def _apply(states: dict[int, int], steps: list[dict], closer) -> dict[int, int]:
    """Map every state through `closer` (None drops it), keeping least cost."""
    new: dict[int, int] = {}
    back: dict[int, tuple] = {}
    for state, cost in states.items():
        nxt = closer(state)
        if nxt is not None and (nxt not in new or cost < new[nxt]):
            new[nxt] = cost
            back[nxt] = (state, None)
    steps.append(back)
    return new


def _card_step(states, steps, suit, options, card) -> dict[int, int]:
    """Give `card` every role its suit state allows; first least cost wins ties."""
    shift = 3 * suit
    new: dict[int, int] = {}
    back: dict[int, tuple] = {}
    for state, cost in states.items():
        base = state & ~(7 << shift)
        for role, q, extra_cost, extra_set in options[state >> shift & 7]:
            nxt = (base | (q << shift)) + extra_set
            total = cost + extra_cost
            if nxt not in new or total < new[nxt]:
                new[nxt] = total
                back[nxt] = (state, (card, role))
    steps.append(back)
    return new


def _card_options(board: _Board, rank: int, suit: int) -> list[list[tuple]]:
    """For each suit state, the roles this card may take: (role, new state, cost, set +).

    Order is the tie-break preference: melds before lay-offs before deadwood.
    """
    bit = 1 << (rank - 1)
    hand, runs = board.hand[suit], board.targets.runs[suit]
    dead_cost = min(rank, 10) * _POINT_WEIGHT + _CARD_WEIGHT
    can_start = hand & (bit << 1) and hand & (bit << 2)
    can_down = board.down[suit] & bit
    table: list[list[tuple]] = [[] for _ in range(6)]
    table[_RUN1] = [(_RUN_EXTEND, _RUN2, 0, 0)]
    table[_RUN2] = [(_RUN_EXTEND, _RUN3, 0, 0)]
    table[_DOWN] = [(_LAY_DOWN, _DOWN, 0, 0)] if can_down else []
    for q in (_FREE, _RUN3, _UP):
        opts = table[q]
        if q == _RUN3:
            opts.append((_RUN_EXTEND, _RUN3, 0, 0))
        if board.set_ranks & bit:
            opts.append((_SET, _FREE, 0, _SET_ONE))
        if can_start:
            opts.append((_RUN_START, _RUN1, 0, 0))
        if board.targets.set_gaps[suit] & bit:
            opts.append((_LAY_SET, _FREE, 0, 0))
        if board.up[suit] & bit and (q == _UP or runs & (bit >> 1)):
            opts.append((_LAY_UP, _UP, 0, 0))
        if can_down:
            opts.append((_LAY_DOWN, _DOWN, 0, 0))
        opts.append((_DEAD, _FREE, dead_cost, 0))
    return table


def _trace(states: dict[int, int], steps: list[dict]) -> dict[Card, int]:
    """Walk back from the cheapest final state, collecting each card's role."""
    state = min(states, key=states.__getitem__)  # first minimum: stable ties
    roles: dict[Card, int] = {}
    for back in reversed(steps):
        state, choice = back[state]
        if choice:
            roles[choice[0]] = choice[1]
    return roles


def _arrangement(roles: dict[Card, int], dead: list[Card]) -> Arrangement:
    """Turn per-card roles into melds (sets by rank, runs by suit) and leftovers."""
    sets: dict[int, list[Card]] = {}
    runs: list[list[Card]] = []
    open_run: dict[str, list[Card]] = {}
    laid_off: list[Card] = []
    for card in sorted(roles):
        role = roles[card]
        if role == _SET:
            sets.setdefault(card.rank, []).append(card)
        elif role == _RUN_START:
            open_run[card.suit] = [card]
            runs.append(open_run[card.suit])
        elif role == _RUN_EXTEND:
            open_run[card.suit].append(card)
        elif role in _LAY_ROLES:
            laid_off.append(card)
        else:
            dead.append(card)
    melds = [tuple(sorted(meld)) for meld in list(sets.values()) + runs]
    deadwood = tuple(sorted(dead))
    return Arrangement(
        melds=tuple(sorted(melds)),
        laid_off=tuple(sorted(laid_off)),
        deadwood=deadwood,
        points=sum(card.value for card in deadwood),
    )
