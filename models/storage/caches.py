"""A bounded, thread-safe LRU cache that an app owns, measured in (approximate) bytes.

Each Flask app makes its own (app.py, `app.extensions`), so two apps in one
process (tests, a restored copy beside the live one) never share an entry, and
the bound is memory, not a count: one 200-hand match weighs as much as twenty
short ones. Values must be immutable: the same object is handed to every
thread that asks.
"""
from __future__ import annotations

import dataclasses
import sys
import threading
from collections.abc import Hashable, Mapping

from cachetools import LRUCache

MB = 1024 * 1024


def approximate_size(value: object) -> int:
    """sys.getsizeof summed over everything reachable through containers and dataclasses, each object once.

    Approximate on purpose (no allocator overhead, interned strings counted
    where met): good enough to keep a cache near its bound.
    """
    seen: set[int] = set()
    pending = [value]
    total = 0
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        pending.extend(parts(item))
    return total


def parts(item: object) -> list:
    if isinstance(item, (str, bytes, int, float, bool, type(None))):
        return []
    if isinstance(item, Mapping):
        return [*item.keys(), *item.values()]
    if isinstance(item, (tuple, list, set, frozenset)):
        return list(item)
    if dataclasses.is_dataclass(item):
        return list(vars(item).values())  # fields and anything cached beside them (cached_property)
    return []


class BoundedCache:
    """Least recently used entries go first once the sizes add up past `max_bytes`: cachetools'
    LRUCache sized by `size_of`, behind a lock (cachetools' caches are not thread-safe)."""

    def __init__(self, max_bytes: int, size_of=approximate_size):
        self.max_bytes = max_bytes
        self.size_of = size_of
        # Each value is kept with its size, measured once before the lock (it walks the whole value).
        self._entries = LRUCache(max_bytes, getsizeof=lambda kept: kept[1])
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        return self._entries.currsize

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable):
        with self._lock:
            found = self._entries.get(key)  # a hit is now the most recently used
        return None if found is None else found[0]

    def put(self, key: Hashable, value: object) -> None:
        """Keep `value` under `key`; one larger than the whole bound is not kept at all."""
        size = self.size_of(value)
        with self._lock:
            self._entries.pop(key, None)
            if size <= self.max_bytes:
                self._entries[key] = (value, size)
