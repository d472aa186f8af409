"""Matches already read and folded, one entry per match, for the pages that list many.

A record page folds every match a player ever played. The fold is pure and a
stored match changes only by bumping its version (or by a player's rename or
merge, which changes its names), so an entry is found by the match's view token
and used only if its (version, names) stamp is the row's: a stale entry is
never returned, and the write that made it stale replaces it on the next read.
The cache belongs to one app (models/caches.py), never to the process.
"""
from __future__ import annotations

from .caches import BoundedCache


# What one entry weighs, as approximate_size measures a folded match (tests/test_caches.py checks
# it against that for short and long matches): walking a match's objects on every saved hand
# cost more than the step of the fold it keeps.
ENTRY_BYTES = 2000
HAND_BYTES = 450


def entry_size(entry: tuple) -> int:
    return ENTRY_BYTES + HAND_BYTES * len(entry[1].match.hands)


def stamp_of(row) -> tuple:
    return (row["version"], row["name1"], row["name2"])


class MatchCache:
    """StoredMatch objects, their sheets already folded, bounded in bytes."""

    def __init__(self, max_bytes: int):
        self.entries = BoundedCache(max_bytes, size_of=entry_size)

    def get(self, row):
        found = self.entries.get(row["view_token"])
        if found is None or found[0] != stamp_of(row):
            return None
        return found[1]

    def put(self, row, stored) -> None:
        """Folds first, so what is measured and shared is complete and never changes again."""
        stored.sheet()
        self.entries.put(row["view_token"], (stamp_of(row), stored))
