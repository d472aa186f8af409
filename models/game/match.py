"""A match as entered: who plays, which format and rules, who dealt first, the hands."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .rules import Rules, Table
from .tables.deal import Entry

FORMATS = {"hollywood": 3, "single": 1}  # format -> number of games
# This app's limit, not a rule of the game (docs/MATCHFILE.md): a real Hollywood match
# is 20 to 60 hands, and a page of 2,000 hands still draws in a fraction of a second.
MAX_HANDS = 2000


@dataclass(frozen=True)
class Match:
    players: tuple[str, ...]  # two; a table of three or four in seat order (rules.table says which)
    format: str = "hollywood"
    first_dealer: str | None = None
    rules: Rules = field(default_factory=Rules)
    hands: tuple[Entry, ...] = ()  # Hand at a table of two and at chouette; Deal or a typed Hand at partners

    @property
    def table(self) -> Table:
        return self.rules.table

    @property
    def dealer(self) -> str:
        return self.first_dealer or self.players[0]

    @property
    def game_count(self) -> int:
        return FORMATS[self.format]

    def with_hands(self, hands) -> "Match":
        return replace(self, hands=tuple(hands))
