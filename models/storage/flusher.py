"""The write-ahead log put on the disk soon after a commit, off the request's path.

A request's connection commits with `synchronous = NORMAL` (storage.connect): in WAL mode
the commit is then written to the log and in the operating system's hands when it returns,
so a server killed outright (kill -9, a crash) keeps every answered hand (tests/test_crash.py).
What only an fsync adds is surviving a power cut, and one fsync per hand was most of a saved
hand's time. This thread fsyncs the log a moment (DELAY) after a commit, once for every
commit of that moment: a power cut loses at most the hands answered in the last DELAY
seconds, as PostgreSQL's `synchronous_commit = off` with its WAL writer does.

An fsync of any descriptor of a file puts all of that file's written data on the disk, so
opening the log by its name is enough; SQLite syncs the database file itself whenever it
moves the log into it (a checkpoint), before the log is reused.
"""
from __future__ import annotations

import os
import threading
import time

DELAY = 0.02  # seconds: a tap's worth; commits inside it share one fsync


class Flusher:
    def __init__(self, database: str, delay: float = DELAY):
        self.log = database + "-wal"
        self.delay = delay
        self.synced = 0  # fsyncs done, for the tests
        self._due = threading.Event()
        self._start = threading.Lock()
        self._thread: threading.Thread | None = None

    def soon(self) -> None:
        """A commit happened: have the log on the disk within `delay` seconds."""
        if self._thread is None:
            with self._start:  # started on first use, so a server that forks its workers starts one in each
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="gin-ledger-flusher", daemon=True)
                    self._thread.start()
        self._due.set()

    def _run(self) -> None:
        while True:
            self._due.wait()
            time.sleep(self.delay)
            self._due.clear()  # before the sync: a commit after this point asks for the next one
            self.sync()

    def sync(self) -> None:
        try:
            fd = os.open(self.log, os.O_RDONLY)
        except FileNotFoundError:  # no log: everything is in the database file, which SQLite synced
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self.synced += 1
