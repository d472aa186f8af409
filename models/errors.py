"""The one kind of refusal the engine gives: it names where, which field, and why."""
from __future__ import annotations


class MatchError(ValueError):
    """A match, a hand or a setting that breaks RULES.md or MATCHFILE.md.

    `hand` is the 1-based hand number (None for the match's own fields) and
    `field` the match-file key, so every refusal can say exactly what to fix.
    """

    def __init__(self, field: str, reason: str, hand: int | None = None):
        self.field = field
        self.reason = reason
        self.hand = hand
        super().__init__(self.line())

    def line(self) -> str:
        where = f"hand {self.hand}, " if self.hand is not None else ""
        return f"{where}{self.field}: {self.reason}"

    def at_hand(self, hand: int) -> "MatchError":
        return MatchError(self.field, self.reason, hand)
