"""The database schema as numbered `.sql` migrations per engine, so an old database upgrades in place.

`models/storage/migrations/sqlite/` and `models/storage/migrations/postgresql/` hold the same numbers, and each
brings an empty database of its engine to the same tables and columns (tests/test_postgres.py
compares them). SQLite's `PRAGMA user_version`, PostgreSQL's `schema_version` row, records how
many a database has had. Add a new file `NNNN_what.sql` to both after the last; never edit one
that has shipped. The files are plain SQL so a `;` inside a string, a comment or a trigger body is
SQL's business: statements are cut where SQLite itself says one is complete
(`sqlite3.complete_statement`), never at every `;`.
"""
from __future__ import annotations

import re
import sqlite3
from functools import lru_cache
from importlib import resources
from urllib.parse import quote

from . import postgres
from .address import SQLITE, dialect_of
from models.errors import MigrationsBroken, SchemaTooNew


MIGRATION_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


@lru_cache(maxsize=2)
def migrations(dialect: str = "sqlite") -> tuple[str, ...]:
    """The engine's scripts in order; their count is the schema version this code knows."""
    found = {}
    for entry in resources.files(__package__).joinpath("migrations").joinpath(dialect).iterdir():
        named = MIGRATION_NAME.fullmatch(entry.name)
        if named:
            found[int(named.group(1))] = entry.read_text(encoding="utf-8")
    if sorted(found) != list(range(1, len(found) + 1)):
        raise MigrationsBroken("migrations must be numbered 1..n without gaps, found {found}", found=sorted(found))
    return tuple(found[number] for number in sorted(found))


def known_version() -> int:
    return len(migrations())


def version_of(conn) -> int:
    if dialect_of(conn) == postgres.DIALECT:
        return postgres.schema_version(conn)
    return conn.execute("PRAGMA user_version").fetchone()["user_version"]


def set_version(conn, number: int) -> None:
    if dialect_of(conn) == postgres.DIALECT:
        postgres.set_schema_version(conn, number)
    else:
        conn.execute(f"PRAGMA user_version = {int(number)}")


def split_statements(script: str) -> list[str]:
    """Cut a script into whole statements, each ending where SQLite says it is complete.

    executescript would COMMIT first; running statements one by one keeps the
    whole upgrade inside the caller's one transaction.
    """
    statements, start = [], 0
    for end, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start:end + 1]):
            statements.append(script[start:end + 1].strip())
            start = end + 1
    tail = script[start:].strip()
    if tail and sqlite3.complete_statement(tail + ";"):
        statements.append(tail)
    return [statement for statement in statements if not only_comments(statement)]


def only_comments(statement: str) -> bool:
    lines = (line.strip() for line in statement.splitlines())
    return all(not line or line.startswith("--") or line == ";" for line in lines)


def refuse_newer(version: int, path: str) -> None:
    """A newer file is refused before anything is written to it."""
    if version > known_version():
        raise SchemaTooNew(path, version, known_version())


def file_version(path: str) -> int:
    """The user_version of an existing file, read without writing to it (0 for no file yet).

    Read as SQLite itself reads the file: through its -wal and under its locks (`mode=ro`), never
    the main file alone (`immutable=1`), which after a crash during a checkpoint holds torn pages
    that only the -wal makes whole. A read-only connection neither checkpoints nor changes the
    file; `apply` checks the version again inside the write transaction.
    """
    try:
        conn = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True)
    except sqlite3.OperationalError:
        return 0  # not there yet: it will be created at the current version
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("PRAGMA user_version").fetchone()["user_version"]
    finally:
        conn.close()


def apply(conn, path: str) -> int:
    """Run the missing migrations on `conn`, which the caller holds under the write lock."""
    version = version_of(conn)
    refuse_newer(version, path)
    dialect = dialect_of(conn)
    scripts = migrations() if dialect == SQLITE else migrations(dialect)
    if len(scripts) != known_version():
        raise MigrationsBroken("the {dialect} migrations stop at {found}, not {known}",
                               dialect=dialect, found=len(scripts), known=known_version())
    for number, script in enumerate(scripts[version:], start=version + 1):
        if dialect == SQLITE:
            for statement in split_statements(script):
                conn.execute(statement)
        else:  # PostgreSQL takes a whole script in one round trip, inside the caller's transaction
            conn.execute(script)
        set_version(conn, number)
    return known_version()
