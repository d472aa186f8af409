"""Tonight across the whole table: every match of the evenings still going, and each player's night.

`models/game/evening.py` keeps an evening per pair of players; a club's night is all of them at once:
the evenings still going (`evening.tonight`), their matches, and per player the matches played and
won, the games won, the net points and the money (per currency, where staked). Nothing is stored:
all of it is read off the folded sheets.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from .evening import Evening, Played
from .stakes import Stake, payments


@dataclass(frozen=True)
class Night:
    """The evenings still going at the table, and when the first of them began (None: no night tonight)."""

    evenings: tuple[Evening, ...]

    @property
    def matches(self) -> tuple[Played, ...]:
        return tuple(sorted((played for evening in self.evenings for played in evening.matches),
                            key=lambda played: (played.start, played.id)))

    @property
    def start(self) -> datetime | None:
        return min((evening.start for evening in self.evenings), default=None)

    @property
    def met(self) -> frozenset:
        """The pairs that played each other tonight."""
        return frozenset(played.pair for played in self.matches)

    @property
    def playing(self) -> frozenset:
        """The names in a match still being played."""
        return frozenset(name for played in self.matches if not played.sheet.finished for name in played.sheet.players)

    @property
    def names(self) -> frozenset:
        return frozenset(name for played in self.matches for name in played.sheet.players)


@dataclass
class Tally:
    """One player's night."""

    name: str
    matches: int = 0
    matches_won: int = 0
    games_won: int = 0
    net: int = 0
    money: dict = field(default_factory=dict)  # currency -> (Stake, what he is up (+) or down (-))


def tallies(matches: Iterable[Played], name_key: Callable[[str], object]) -> list[Tally]:
    """Each player's night, the best net points first (the one measure a table settles), then by `name_key`."""
    found: dict[str, Tally] = {}
    for played in matches:
        sheet = played.sheet
        for name in sheet.players:
            tally = found.setdefault(name, Tally(name))
            tally.matches += 1
            tally.matches_won += sheet.finished and sheet.winner == name
            tally.games_won += sheet.games_won(name)
            tally.net += sheet.net[name]
        if played.stake is not None:
            add_money(found, played.stake, payments(sheet, played.stake))
    return sorted(found.values(), key=lambda tally: (-tally.net, name_key(tally.name)))


def add_money(found: dict[str, Tally], stake: Stake, paid) -> None:
    """A match's total payment (game None) moves money from its payer to its payee, in its currency."""
    for pay in paid:
        if pay.game is not None:
            continue
        for name, sign in ((pay.payee, 1), (pay.payer, -1)):
            kept, amount = found[name].money.get(stake.currency, (stake, Decimal(0)))
            found[name].money[stake.currency] = (kept, amount + sign * pay.amount)
