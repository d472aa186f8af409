"""The evening: the matches two players play in one sitting, and who is ahead over them on net points.

An evening is a run of matches of the same two players in which each match
starts at most `GAP` (6 hours) after the previous one's last hand. A time gap
rather than the calendar day, because a sitting that goes past midnight is one
evening, and two sittings of the same day (lunch, then the night) are two.

Like the records (`models/game/stats.py`), nothing here is stored: the figures are
read off the folded sheets, so a corrected hand corrects the evening too.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from .hand import other
from .ledger import Sheet
from .stakes import Payment, Stake, payments

GAP = timedelta(hours=6)


@dataclass(frozen=True)
class Played:
    """One match as the evening sees it: when it started, its last hand (its start before one), its sheet."""

    id: int
    start: datetime
    end: datetime
    sheet: Sheet
    stake: Stake | None = None

    @property
    def pair(self) -> frozenset:
        """The seats do not matter: Ana–Ben and Ben–Ana sit at the same evening."""
        return frozenset(self.sheet.players)


@dataclass(frozen=True)
class Evening:
    """The matches of one sitting, oldest first; `players` in the seats of the first match."""

    matches: tuple[Played, ...]

    @property
    def players(self) -> tuple[str, str]:
        return self.matches[0].sheet.players

    @property
    def start(self) -> datetime:
        return self.matches[0].start

    @property
    def end(self) -> datetime:
        return max(played.end for played in self.matches)


def evenings(matches: list[Played], gap: timedelta = GAP) -> list[Evening]:
    """Group matches into evenings per pair; the evenings come oldest first by their start."""
    groups: dict[frozenset, list[list[Played]]] = {}
    for played in sorted(matches, key=lambda p: (p.start, p.id)):
        runs = groups.setdefault(played.pair, [])
        if runs and played.start - max(p.end for p in runs[-1]) <= gap:
            runs[-1].append(played)
        else:
            runs.append([played])
    found = [Evening(tuple(run)) for runs in groups.values() for run in runs]
    return sorted(found, key=lambda evening: (evening.start, evening.matches[0].id))


def tonight(matches: list[Played], now: datetime, gap: timedelta = GAP) -> list[Evening]:
    """The evenings still going: their last hand at most `gap` ago, the latest played first."""
    alive = [evening for evening in evenings(matches, gap) if now - evening.end <= gap]
    return sorted(alive, key=lambda evening: evening.end, reverse=True)


def evening_of(matches: list[Played], match_id: int, gap: timedelta = GAP) -> Evening | None:
    """The evening a match belongs to (its share text names the whole sitting)."""
    return next((evening for evening in evenings(matches, gap)
                 if any(played.id == match_id for played in evening.matches)), None)


@dataclass(frozen=True)
class Standing:
    """Where an evening stands: matches won (finished ones), games won (closed ones), net points, money."""

    players: tuple[str, str]
    matches_won: dict[str, int]
    games_won: dict[str, int]
    net: dict[str, int]
    money: tuple[tuple[Stake, Payment], ...]  # one payment per currency, who owes whom so far

    @property
    def leader(self) -> str | None:
        """Who is ahead on net points, the one measure the table settles (the money is net points times the
        stake); None when level. Matches and games won are the story told beside it, never a rank above it:
        a won match can leave its winner behind on the evening's points."""
        one, two = self.players
        if self.net[one] == self.net[two]:
            return None
        return one if self.net[one] > self.net[two] else two


def money_owed(matches: tuple[Played, ...], players: tuple[str, str]) -> tuple[tuple[Stake, Payment], ...]:
    """The match totals of `payments`, summed per currency: what the evening owes so far.

    A currency's amounts add up even when the stakes per point differ; two
    currencies are never added together."""
    owed: dict[str, Decimal] = {}  # currency -> what the first player is owed
    stakes: dict[str, Stake] = {}
    for played in matches:
        if played.stake is None:
            continue
        stakes.setdefault(played.stake.currency, played.stake)
        for pay in payments(played.sheet, played.stake):
            if pay.game is None:
                sign = 1 if pay.payee == players[0] else -1
                owed[played.stake.currency] = owed.get(played.stake.currency, Decimal(0)) + sign * pay.amount
    out = []
    for currency, amount in owed.items():
        if amount:
            payee = players[0] if amount > 0 else players[1]
            out.append((stakes[currency], Payment(None, other(players, payee), payee, abs(amount))))
    return tuple(out)


def standing(evening: Evening) -> Standing:
    players = evening.players
    matches_won = {name: 0 for name in players}
    games_won = {name: 0 for name in players}
    net = {name: 0 for name in players}
    for played in evening.matches:
        sheet = played.sheet
        if sheet.finished:
            matches_won[sheet.winner] += 1
        for name in players:
            games_won[name] += sheet.games_won(name)
            net[name] += sheet.net[name]
    return Standing(players, matches_won, games_won, net, money_owed(evening.matches, players))
