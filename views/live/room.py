"""Which held streams a process admits (views/live/stream.py), and the end of one whose page is gone.

Under gevent (gunicorn's gevent workers) a worker answers at most `worker_connections` connections at once;
gunicorn.conf.py tells this module that number when the worker starts (`served_by`), so it is set once, on
the command line. Streams never take the last STREAMS_RESERVE of them (default a tenth): a save, a page, a
poll always finds a connection. A stream refused is a 503 and the page polls (static/app.js). Without that
hook (another gevent server) STREAMS_MAX alone bounds them. Under `flask run` (a thread each) STREAM_THREADS
bounds them; under waitress none is held (its few threads answer everything; `--connection-limit` is not
told to the app), so its pages poll.

A page closed sends its FIN: under gevent the stream watches its socket (gunicorn's environ
"gunicorn.socket") while it waits, and ends at once, giving back its slot. Elsewhere the next heartbeat's
failed send ends it (waitress holds none; `flask run` holds few).
"""
from __future__ import annotations

import socket
import sys
import threading

from flask import current_app, request

HELD = "gin_ledger_streams"
SERVER = {"connections": None}  # this worker's connections, as gunicorn.conf.py's post_worker_init says


def init_app(app) -> None:
    app.extensions[HELD] = {"lock": threading.Lock(), "all": 0, "by_address": {}}
    app.config.setdefault("STREAMS_MAX", 5000)
    app.config.setdefault("STREAMS_RESERVE", None)  # None: a tenth of the worker's connections
    app.config.setdefault("STREAM_THREADS", 16)
    app.config.setdefault("STREAMS_PER_ADDRESS", 64)


def served_by(connections: int | None) -> None:
    """The connections this worker answers at once (gunicorn's worker_connections), told once at its start."""
    SERVER["connections"] = int(connections) if connections else None


def greenlets() -> bool:
    """Whether this process serves with gevent, where a held stream holds no thread."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("socket")


def reserve(config, connections: int) -> int:
    kept = config.get("STREAMS_RESERVE")
    return max(1, connections // 10) if kept in (None, "") else int(kept)


def bound() -> int:
    config = current_app.config
    if greenlets():
        connections = SERVER["connections"]
        if connections is None:
            return int(config["STREAMS_MAX"])
        return max(0, min(int(config["STREAMS_MAX"]), connections - reserve(config, connections)))
    if request.environ.get("SERVER_SOFTWARE", "").lower().startswith("waitress"):
        return 0
    return int(config["STREAM_THREADS"])


def take(address: str) -> bool:
    held = current_app.extensions[HELD]
    with held["lock"]:
        mine = held["by_address"].get(address, 0)
        if held["all"] >= bound() or mine >= int(current_app.config["STREAMS_PER_ADDRESS"]):
            return False
        held["all"] += 1
        held["by_address"][address] = mine + 1
        return True


def give_back(app, address: str) -> None:
    held = app.extensions[HELD]
    with held["lock"]:
        held["all"] -= 1
        left = held["by_address"].get(address, 1) - 1
        if left:
            held["by_address"][address] = left
        else:
            held["by_address"].pop(address, None)


def streams_held(app) -> int:
    return app.extensions[HELD]["all"]


class Peer:
    """The phone at the other end of one stream. `wake` ends the stream's wait when its socket turns readable;
    then `gone()` says whether that was the FIN (or a reset). No socket to watch: never gone (heartbeats)."""

    def __init__(self, environ, wake):
        self.sock, self.watcher, self.readable = environ.get("gunicorn.socket"), None, False
        if self.sock is None or not greenlets():
            self.sock = None
            return
        from gevent import get_hub

        def readable() -> None:  # in gevent's hub: no blocking, no switching
            self.readable = True
            self.watcher.stop()  # level-triggered: once is enough
            wake()

        try:
            self.watcher = get_hub().loop.io(self.sock.fileno(), 1)  # 1: readable
        except (OSError, ValueError):  # already closed
            self.readable = True
            return
        self.watcher.start(readable)

    def gone(self) -> bool:
        if not self.readable:
            return False
        try:
            # Readable: this answers at once. b"" is the FIN; bytes are the phone's (kept, not read)
            return self.sock is None or self.sock.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher.close()
            self.watcher = None
