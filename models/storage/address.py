"""Where the ledger is kept, read from the DATABASE setting: a file path (SQLite, the default) or a
`postgresql://` address (PostgreSQL, for hosts).

What must stay true: anything that looks like an address but is not one Gin Ledger can use (another
scheme, a malformed URL) is refused before anything is created, never taken as a file name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from models.errors import DatabaseRefused

SQLITE, POSTGRESQL = "sqlite", "postgresql"
POSTGRES_SCHEMES = ("postgresql", "postgres")
# "word:" followed by "//": an address, whatever the word. A Windows drive ("C:\\...") is not one.
LOOKS_LIKE_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:(//|$)")


@dataclass(frozen=True)
class Address:
    engine: str  # SQLITE or POSTGRESQL
    target: str  # the file's path, or the libpq connection URL

    @property
    def shown(self) -> str:
        """The address as it may be printed: a PostgreSQL password never is."""
        return shown(self.target) if self.engine == POSTGRESQL else self.target


def read_address(value: str) -> Address:
    """The engine and target that the DATABASE setting names; DatabaseRefused for an address it cannot use."""
    value = str(value)
    if not LOOKS_LIKE_ADDRESS.match(value):
        return Address(SQLITE, value)
    scheme = value.split(":", 1)[0].lower()
    if scheme not in POSTGRES_SCHEMES:
        raise DatabaseRefused(shown(value), f"Gin Ledger keeps its ledger in SQLite (a file path) or in PostgreSQL "
                                            f"(postgresql://...), not in {scheme}")
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as error:
        raise DatabaseRefused(shown(value), f"the address cannot be read ({error})") from None
    if not parts.path.strip("/") and "dbname=" not in parts.query:
        raise DatabaseRefused(shown(value), "the address names no database (postgresql://user@host:5432/DATABASE)")
    return Address(POSTGRESQL, value)


def dialect_of(conn) -> str:
    """Which engine a connection speaks to: models/storage/postgres.Connection says so; any sqlite3 connection is SQLite."""
    return getattr(conn, "dialect", SQLITE)


def shown(url: str) -> str:
    """A URL with its password replaced by ***."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rsplit("@", 1)[1]
        return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
    except ValueError:
        return url.split("://", 1)[0] + "://..."
