"""The ledger's file opened whole: brought up to the schema with a true `finished` index, and a backup
put back in its place while servers keep it open (`flask restore`)."""
from __future__ import annotations

import os
import secrets
import sqlite3
from contextlib import closing
from urllib.parse import quote

from models.errors import LedgerDamaged, NotALedger

from . import schema
from .address import SQLITE, read_address
from .connection import connect, connect_file, damaged, migrate
from .finished import refresh_finished


def open_ledger(database: str, renew: bool = False):
    """A connection to an upgraded database with a true `finished` index; a newer Gin Ledger's is refused
    untouched, and a SQLite file that cannot be read even through its -wal is LedgerDamaged."""
    address = read_address(database)
    try:
        if address.engine == SQLITE:
            schema.refuse_newer(schema.file_version(address.target), address.target)
        conn = connect(database)
        try:
            migrate(conn, address.shown, renew)
            refresh_finished(conn)
        except BaseException:
            conn.close()
            raise
    except sqlite3.DatabaseError as error:
        if damaged(error):
            raise LedgerDamaged(address.shown, str(error)) from None
        raise
    return conn


def restore(target_path: str, backup_path: str) -> int:
    """A backup put back in place of the database, while servers keep it open: SQLite's online backup
    API the other way, in one step, so a reader sees the database before or the backup whole.

    The backup is first copied beside the database and brought up to the schema under a new epoch: the
    restored file's versions repeat numbers the running servers kept pages for, and its epoch was theirs
    when the backup was taken (a file restored in place keeps its inode, so views/site/db.py cannot tell).
    Returns how many hands the database holds now."""
    found = schema.file_version(backup_path)
    if found == 0:
        raise NotALedger(backup_path)
    schema.refuse_newer(found, backup_path)
    staged = f"{target_path}.restoring-{secrets.token_hex(4)}"
    try:
        with (closing(sqlite3.connect(f"file:{quote(os.path.abspath(backup_path))}?mode=ro", uri=True)) as source,
              closing(connect_file(staged)) as copy):
            source.backup(copy)
        with closing(open_ledger(staged, renew=True)) as copy, closing(connect_file(target_path)) as target:
            copy.backup(target)
            return target.execute("SELECT count(*) AS count FROM hand WHERE deleted IS NULL").fetchone()["count"]
    finally:
        for leftover in (staged, staged + "-journal", staged + "-wal", staged + "-shm"):
            if os.path.exists(leftover):
                os.unlink(leftover)
