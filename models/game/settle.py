"""Settling a closed game the standard Gin way: game bonus, boxes, shutout."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .rules import Rules


@dataclass(frozen=True)
class Settlement:
    game_bonus: int
    box_bonus: Mapping[str, int]  # read-only: a settlement is part of a shared, cached sheet
    shutout: bool
    totals: Mapping[str, int]
    net: int  # what the game's winner is ahead by, after any shutout multiplier

    def to_dict(self) -> dict:
        return {
            "game_bonus": self.game_bonus,
            "box_bonus": dict(self.box_bonus),
            "shutout": self.shutout,
            "totals": dict(self.totals),
            "net": self.net,
        }


def settle(winner: str, scores: Mapping[str, int], boxes: Mapping[str, int], rules: Rules) -> Settlement:
    """Bonuses are added after the game closes, so they never count towards the target
    (with `immediate_boxes` the boxes were already in the score, so none is added here)."""
    loser = next(name for name in scores if name != winner)
    shutout = scores[loser] == 0
    box_bonus = {name: box_value(count, rules) for name, count in boxes.items()}
    totals = {name: scores[name] + box_bonus[name] for name in scores}
    totals[winner] += rules.game_bonus + (rules.shutout_bonus if shutout else 0)
    net = totals[winner] - totals[loser]
    if shutout:
        net *= rules.shutout_multiplier
    return Settlement(rules.game_bonus, MappingProxyType(box_bonus), shutout, MappingProxyType(totals), net)


def box_value(count: int, rules: Rules) -> int:
    """A player's boxes at the settlement; 0 when `immediate_boxes` credited them hand by hand."""
    return 0 if rules.immediate_boxes else count * rules.box_bonus
