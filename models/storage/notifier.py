"""Which matches moved on, told to the streams of this process (views/live/stream.py) whatever process wrote.

One watcher per process, whatever the number of phones: on PostgreSQL a connection of its own that LISTENs
(every unit of work NOTIFYs the matches it touched, delivered at its commit, `announce`); on SQLite one
`PRAGMA data_version` a tick on a connection of its own, and only when it moved one join of the versions
of the matches its phones follow against those it last saw. A match nobody follows costs nothing; an idle
table costs the database nothing between saves on PostgreSQL. A wake-up only says "look again": each room of streams
(views/live/hub.py) reads the version itself, so a wake-up doubled changes nothing a phone sees. What must stay true: a room
looks only when woken, so whenever the watcher may have missed a change (its connection lost, another file
under the path, on PostgreSQL another database under the address, as after pg_restore) it wakes every room.
"""
from __future__ import annotations

import logging
import os
import threading
import time

from .address import POSTGRESQL, dialect_of, read_address

CHANNEL = "gin_ledger_match"
TICK_S = 0.1  # SQLite: how often the watcher asks whether any connection committed
IDENTITY_EVERY_S = 60  # PostgreSQL: how often the watcher asks whether the database is still the same one
log = logging.getLogger(__name__)


def announce(conn, match_id: int) -> None:
    """Inside a unit of work: PostgreSQL tells every listening process at the commit (nothing if rolled back).

    The notice says the ledger's schema before the match's id: a channel is the whole database's, and the
    ledgers in its other schemas number their matches 1, 2, 3 too."""
    if dialect_of(conn) == POSTGRESQL:
        conn.execute("SELECT pg_notify(?, current_schema() || ' ' || ?)", (CHANNEL, str(match_id)))


def match_noticed(payload: str, schema: str) -> int | None:
    """The match a notice names, if it is of this ledger's schema."""
    where, _, match_id = payload.rpartition(" ")
    return int(match_id) if where == schema and match_id.isdigit() else None


class Follower:
    """One stream's wait for its match: set by the watcher, cleared by the stream before it looks."""

    def __init__(self, match_id: int):
        self.match_id, self.moved = match_id, threading.Event()

    def wait(self, timeout: float) -> bool:
        moved = self.moved.wait(timeout)
        self.moved.clear()
        return moved


class Notifier:
    """The followers of this process by match, and the one watcher that wakes them."""

    def __init__(self, database: str):
        self.database, self.engine = database, read_address(database).engine
        self.lock = threading.Lock()
        self.followers: dict[int, set[Follower]] = {}
        self.thread: threading.Thread | None = None
        self.stopped = threading.Event()

    def follow(self, match_id: int) -> Follower:
        follower = Follower(match_id)
        with self.lock:
            self.followers.setdefault(match_id, set()).add(follower)
            if self.thread is None or not self.thread.is_alive():
                watch = self.listen if self.engine == POSTGRESQL else self.watch_file
                self.thread = threading.Thread(target=self.keep_watching, args=(watch,), daemon=True,
                                               name="gin-ledger-notifier")
                self.thread.start()
        return follower

    def leave(self, follower: Follower) -> None:
        with self.lock:
            kept = self.followers.get(follower.match_id)
            if kept is not None:
                kept.discard(follower)
                if not kept:
                    del self.followers[follower.match_id]

    def count(self) -> int:
        with self.lock:
            return sum(len(kept) for kept in self.followers.values())

    def wake(self, match_ids) -> None:
        with self.lock:
            woken = [follower for match_id in match_ids for follower in self.followers.get(match_id, ())]
        for follower in woken:
            follower.moved.set()

    def wake_all(self) -> None:
        """The watcher lost its sight (a dropped connection): every stream looks again, nothing is missed."""
        with self.lock:
            ids = list(self.followers)
        self.wake(ids)

    def stop(self) -> None:
        self.stopped.set()

    def keep_watching(self, watch) -> None:
        while not self.stopped.is_set():
            try:
                watch()
            except Exception as error:  # the database went away: look again in a moment, waking everyone
                log.warning("change watcher: %s", error)
            self.wake_all()
            self.stopped.wait(1.0)

    def listen(self) -> None:
        import psycopg

        from .postgres import IDENTITY

        with psycopg.connect(read_address(self.database).target, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            identity = conn.execute(IDENTITY).fetchone()
            (schema,) = conn.execute("SELECT current_schema()").fetchone()
            self.wake_all()  # what was committed while it was not listening
            asked = time.monotonic()
            while not self.stopped.is_set():
                for notice in conn.notifies(timeout=1.0):  # each as it comes; the timeout only looks at `stopped`
                    match_id = match_noticed(notice.payload, schema)
                    if match_id is not None:
                        self.wake((match_id,))
                if time.monotonic() - asked >= IDENTITY_EVERY_S:
                    asked = time.monotonic()
                    if conn.execute(IDENTITY).fetchone() != identity:
                        return  # restored or replaced without a NOTIFY: a new connection, every stream looks

    def watch_file(self) -> None:
        from .connection import connect_file

        path = read_address(self.database).target
        conn = connect_file(path, create=False, synchronous="NORMAL")
        identity = file_identity(path)
        try:
            # The version last seen of each match followed, in this connection's own table (not the file's):
            # a look is one join inside SQLite that answers only the matches that moved, whatever the
            # number followed. A match just followed has none yet: it is woken once, which changes nothing.
            conn.execute("CREATE TEMP TABLE followed (id INTEGER PRIMARY KEY, version INTEGER)")
            seen, kept = conn.execute("PRAGMA data_version").fetchone()["data_version"], set()
            while not self.stopped.wait(TICK_S):
                if file_identity(path) != identity:
                    return  # another file under the path (a restore): a new connection, every stream looks again
                now = conn.execute("PRAGMA data_version").fetchone()["data_version"]
                with self.lock:
                    followed = None if self.followers.keys() == kept else set(self.followers)
                if followed is not None:
                    conn.executemany("DELETE FROM temp.followed WHERE id = ?", ((i,) for i in kept - followed))
                    conn.executemany("INSERT INTO temp.followed (id) VALUES (?)", ((i,) for i in followed - kept))
                    kept = followed
                elif now == seen:
                    continue
                seen = now
                moved = conn.execute("SELECT m.id, m.version FROM temp.followed AS f JOIN main.match AS m"
                                     " ON m.id = f.id WHERE m.version IS NOT f.version").fetchall()
                conn.executemany("UPDATE temp.followed SET version = ? WHERE id = ?",
                                 ((row["version"], row["id"]) for row in moved))
                self.wake([row["id"] for row in moved])
        finally:
            conn.close()


def file_identity(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino
