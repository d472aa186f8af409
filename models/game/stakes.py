"""Playing for money: an amount per point, settled per game and for the match.

Amounts are Decimals from exact text, so 0.05 a point times 838 points is
41.90 exactly, never a float's 41.900000000000006.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from models.errors import N_, MatchError
from .hand import other
from .ledger import Sheet

MAX_PLACES = 4
MAX_STAKE = Decimal("100000")
MAX_SYMBOL = 5


@dataclass(frozen=True)
class Stake:
    per_point: Decimal
    currency: str


@dataclass(frozen=True)
class Payment:
    game: int | None  # None for the match total
    payer: str
    payee: str
    amount: Decimal


def read_stake(amount: str | None, currency: str | None) -> Stake | None:
    """'0.05' and '€' from a form; empty means the match is not played for money."""
    if amount is None or not amount.strip():
        return None
    try:
        value = Decimal(amount.strip().replace(",", "."))
    except InvalidOperation:
        raise MatchError("stake", N_("{amount!r} is not an amount such as 0.05"), amount=amount) from None
    if not value.is_finite() or value <= 0 or value > MAX_STAKE:
        raise MatchError("stake", N_("must be more than 0 and at most {most}"), most=MAX_STAKE)
    if -value.as_tuple().exponent > MAX_PLACES:
        raise MatchError("stake", N_("at most {places} decimal places"), places=MAX_PLACES)
    symbol = (currency or "").strip()
    if len(symbol) > MAX_SYMBOL:
        raise MatchError("currency", N_("at most {most} characters"), most=MAX_SYMBOL)
    return Stake(value, symbol)


def payments(sheet: Sheet, stake: Stake) -> list[Payment]:
    """Who pays whom for each closed game, then the match total (if anything is owed)."""
    out = []
    for game in sheet.games:
        if game.settlement and game.settlement.net:
            # A game's winner with fewer boxes can end behind: then the money goes the other way.
            ahead = game.winner if game.settlement.net > 0 else other(sheet.players, game.winner)
            out.append(Payment(game.number, other(sheet.players, ahead), ahead,
                               abs(game.settlement.net) * stake.per_point))
    net = sheet.net
    ahead = max(sheet.players, key=lambda name: net[name])
    if net[ahead] > 0:
        out.append(Payment(None, other(sheet.players, ahead), ahead, net[ahead] * stake.per_point))
    return out
