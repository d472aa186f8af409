"""Matches already read and folded, kept by what would change them.

A record page folds every match a player ever played. The fold is pure and a
stored match changes only by bumping its version (or by a player's rename),
so (token, version, names) is a safe key: a stale entry can never be found.
The random view token, not the row id, names the match, so two databases
in one process (tests, a restored copy) can never share an entry.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

SIZE = 5000

_entries: OrderedDict = OrderedDict()
_lock = threading.Lock()


def key_of(row) -> tuple:
    return (row["view_token"], row["version"], row["name1"], row["name2"])


def get(key: tuple):
    with _lock:
        found = _entries.get(key)
        if found is not None:
            _entries.move_to_end(key)
        return found


def put(key: tuple, value) -> None:
    with _lock:
        _entries[key] = value
        _entries.move_to_end(key)
        while len(_entries) > SIZE:
            _entries.popitem(last=False)
