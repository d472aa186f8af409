"""Matches made up for the tests and the benchmark, seeded so every run sees the same ones.

Here rather than in bench/ because tests use them: the bench imports from tests/, never
the other way round.
"""
from __future__ import annotations

import random

PLAYERS = ("Ana", "Ben")
KINDS = ("knock", "gin", "big_gin", "undercut", "draw", "points")
HIGH_TARGET = 1_000_000  # the largest target the rules allow


def long_match(count: int, seed: int = 1) -> dict:
    """A match of `count` hands that stays open: small hands, a target of 1,000,000.

    Hands average about 16 points, so 100,000 of them (about 42,000 wins each,
    every one written into game 1) leave each player near 815,000, under the
    target (1,000,000 is the largest the rules allow). Around 120,000 hands the
    games close and the match ends, so larger sizes are refused.
    """
    rng = random.Random(seed)
    players = list(PLAYERS)
    hands = [any_hand(rng, rng.choice(KINDS), players) for _ in range(count)]
    return {"format": "hollywood", "players": players, "first_dealer": "Ben",
            "rules": {"target": HIGH_TARGET}, "hands": hands}


def any_hand(rng: random.Random, kind: str, players: list[str]) -> dict:
    """One hand of each kind the match file knows, so a long match exercises all of them."""
    if kind == "draw":
        return {"draw": True}
    if kind == "points":
        return {"winner": rng.choice(players), "points": rng.randint(1, 20)}
    hand = {"knocker": rng.choice(players)}
    if kind == "knock":
        kd = rng.randint(1, 10)
        hand.update(knocker_deadwood=kd, opponent_deadwood=rng.randint(kd + 1, kd + 12))
    elif kind == "undercut":
        kd = rng.randint(1, 10)
        hand.update(knocker_deadwood=kd, opponent_deadwood=rng.randint(0, kd))
    else:
        hand.update(knocker_deadwood=0, opponent_deadwood=rng.randint(0, 12))
        if kind == "big_gin":
            hand["big_gin"] = True
    return hand


def finished_match(count: int, players=("Alexandra", "Bartholomew"), fmt: str = "hollywood",
                   target: int = 100) -> dict:
    """A match that ends on exactly its `count`-th hand, every kind of hand in it.

    The printed sheet and the phone sheet are judged on a whole evening: three
    settlements under the last rows, long names, running totals past 100. Seeds are
    tried in order until one ends exactly there, so every run sees the same match.
    """
    from models.errors import MatchOver
    from models.game.ledger import score_sheet
    from models.files.matchfile import read_document

    def finished(hands: list) -> bool:
        try:
            return score_sheet(read_document({**doc, "hands": hands})).finished
        except MatchOver:  # it ended earlier
            return False

    for seed in range(10_000):
        rng = random.Random(seed)
        doc = {"format": fmt, "players": list(players), "first_dealer": players[1], "rules": {"target": target}}
        hands = [any_hand(rng, rng.choice(KINDS), list(players)) for _ in range(count)]
        if finished(hands) and not finished(hands[:-1]):
            return {**doc, "hands": hands}
    raise ValueError(f"no seed ends a {fmt} match on hand {count}")
