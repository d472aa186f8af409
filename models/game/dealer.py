"""Who deals: the first dealer is chosen, then `dealer_rule` decides after each win."""
from __future__ import annotations

from .hand import Outcome, other
from .rules import DealerRule, Rules


def next_dealer(dealer: str, outcome: Outcome, players: tuple[str, str], rules: Rules) -> str:
    """A draw is dealt again by the same dealer; a won hand follows the dealer rule."""
    if outcome.winner is None:
        return dealer
    if rules.dealer_rule == DealerRule.WINNER:
        return outcome.winner
    if rules.dealer_rule == DealerRule.LOSER:
        return other(players, outcome.winner)
    return other(players, dealer)  # DealerRule.ALTERNATE
