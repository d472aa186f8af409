"""What one app keeps between requests: its caches, each bounded in bytes (app.py makes them).

Each Flask app has its own, in `app.extensions`, so two apps in one process (tests, a restored copy
beside the live one) never share an entry.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from models.storage.caches import BoundedCache
from models.storage.match_cache import MatchCache

EXTENSION = "gin_ledger_caches"


@dataclass(frozen=True)
class Caches:
    matches: MatchCache
    qr: BoundedCache
    pages: BoundedCache  # match pages and live fragments, kept whole by (epoch, match, version, request) (views/site/pages.py)


def app_caches() -> Caches:
    """This app's caches."""
    return current_app.extensions[EXTENSION]
