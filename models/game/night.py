"""Tonight across the whole table: every match of the evenings still going, and each player's night.

`models/game/evening.py` keeps an evening per pair of players; a club's night is all of them at once:
the evenings still going (`evening.tonight`), their matches, and per player the matches played and
won, the games won, the net points and the money (per currency, where staked). Nothing is stored:
all of it is read off the folded sheets. A match of a table of three or four counts for each of its
players: its match and games as the player's side's, its net and money as the player's own
(`tables.money.player_net`); who met whom is every player against each opponent across the sides.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from .evening import Evening, Played
from .ledger import Sheet
from .stakes import Stake, payments
from .stats import side_of
from .tables.money import player_net


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
        """The pairs of players that played each other tonight (at a table: each against each opponent)."""
        return frozenset(frozenset((one, two)) for played in self.matches
                         for one, two in opponents(played.sheet))

    @property
    def playing(self) -> frozenset:
        """The players in a match still being played."""
        return frozenset(name for played in self.matches if not played.sheet.finished
                         for name in played.sheet.match.players)

    @property
    def names(self) -> frozenset:
        """Every player seated tonight, in any seat of any table."""
        return frozenset(name for played in self.matches for name in played.sheet.match.players)


def opponents(sheet: Sheet) -> list[tuple[str, str]]:
    """Who faced whom in a match: its two players, or each player of one side with each of the other."""
    if sheet.sides is None:
        return [tuple(sheet.players)]
    first, second = sheet.sides.players
    return [(one, two) for one in first for two in second]


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
        own = sheet.net if sheet.sides is None else player_net(sheet.sides, sheet.net)
        for name in sheet.match.players:
            side = side_of(name, sheet)
            tally = found.setdefault(name, Tally(name))
            tally.matches += 1
            tally.matches_won += sheet.finished and sheet.winner == side
            tally.games_won += sheet.games_won(side)
            tally.net += own[name]
        if played.stake is None:
            continue
        if sheet.sides is None:
            add_money(found, played.stake, payments(sheet, played.stake))
        else:
            for name, points in own.items():
                add_amount(found[name], played.stake, points * played.stake.per_point)
    return sorted(found.values(), key=lambda tally: (-tally.net, name_key(tally.name)))


def add_money(found: dict[str, Tally], stake: Stake, paid) -> None:
    """A match's total payment (game None) moves money from its payer to its payee, in its currency."""
    for pay in paid:
        if pay.game is not None:
            continue
        for name, sign in ((pay.payee, 1), (pay.payer, -1)):
            add_amount(found[name], stake, sign * pay.amount)


def add_amount(tally: Tally, stake: Stake, amount: Decimal) -> None:
    """What a player is up (+) or down (-) in the stake's currency, added to the night's."""
    kept, before = tally.money.get(stake.currency, (stake, Decimal(0)))
    tally.money[stake.currency] = (kept, before + amount)
