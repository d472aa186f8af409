"""Matches already read and folded, one entry per match, for the pages that list many and the match page.

An entry is found by the match's id and used only if its stamp, the file's epoch and the match's
version, is the row's: every write bumps the version (models/storage/work.py) and a restored or new file
has a new epoch (models/storage/connection.py), so a stale entry is never returned, and the write that made
it stale replaces it on the next read. Nothing is read from this cache inside a write.
The cache belongs to one app (models/storage/caches.py), never to the process.
"""
from __future__ import annotations

from .caches import BoundedCache


# What one entry weighs, as approximate_size measures a folded match (tests/test_caches.py checks
# it against that for short and long matches).
ENTRY_BYTES = 2000
HAND_BYTES = 450


def entry_size(entry: tuple) -> int:
    return ENTRY_BYTES + HAND_BYTES * len(entry[1].match.hands)


def stamp_of(row) -> tuple:
    return (row["epoch"], row["version"])


class MatchCache:
    """StoredMatch objects, their sheets already folded, bounded in bytes."""

    def __init__(self, max_bytes: int):
        self.entries = BoundedCache(max_bytes, size_of=entry_size)

    def get(self, row):
        found = self.entries.get(row["id"])
        if found is None or found[0] != stamp_of(row):
            return None
        return found[1]

    def put(self, stored) -> None:
        """Folds first, so what is measured and shared is complete and never changes again."""
        stored.refusal  # noqa: B018 - the fold, or the reason it refuses, made before sharing
        self.entries.put(stored.id, ((stored.epoch, stored.version), stored))
