"""Not a test module: the README's club server (gunicorn with gevent workers) in a subprocess, and a small
reader of server-sent events, for the tests of pushed changes (views/live/stream.py)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys

from server import HOST, ROOT, Server, _install_handlers, _running, free_port, server_env, PARENT_VAR


class GeventServer(Server):
    """gunicorn -k gevent serving tests/gevent_app.py: a held stream costs no thread. It reads the repository's
    gunicorn.conf.py, as the README's command does; `gunicorn_args`: more of gunicorn's options."""

    def __init__(self, database, gunicorn_args: tuple[str, ...] = (), **kwargs):
        super().__init__(database, **kwargs)
        self.gunicorn_args = tuple(gunicorn_args)

    def start(self) -> "GeventServer":
        self.port = free_port()
        self.starts += 1
        self.log_path = self.log_dir / f"gunicorn-{self.starts}.log"
        self._log = open(self.log_path, "wb")
        _install_handlers()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--bind", f"{HOST}:{self.port}",
             "--graceful-timeout", "1", "--no-control-socket", *self.gunicorn_args,
             "tests.gevent_app:served_app()"],
            cwd=ROOT, env=server_env(self.database, **self.env, **{PARENT_VAR: str(os.getpid())}),
            stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        _running.add(self.process)
        try:
            self.wait_ready()
        except RuntimeError as error:
            self.stop()
            raise RuntimeError(f"gunicorn did not start: {error}\n{self.log()}") from None
        return self

    def kill(self) -> None:
        """SIGKILL gunicorn and its worker (its own process group): no shutdown at all."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        _running.discard(self.process)
        self._log.close()


class EventReader:
    """One held stream, read event by event (id, data), as a browser's EventSource reads it."""

    def __init__(self, base: str, path: str, last_id: str | None = None, cookie: str | None = None,
                 timeout: float = 60):
        host, port = base.split("//")[1].split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        head = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
        if last_id is not None:
            head += f"Last-Event-ID: {last_id}\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        self.buffer = b""
        header, self.buffer = self.read_until(b"\r\n\r\n")
        self.status = int(header.split(b" ", 2)[1])
        self.headers = header.decode("latin-1").lower()
        self.chunked = "transfer-encoding: chunked" in self.headers
        self.text = ""

    def read_until(self, mark: bytes):
        while mark not in self.buffer:
            got = self.sock.recv(65536)
            if not got:
                raise EOFError("the stream ended")
            self.buffer += got
        head, _, rest = self.buffer.partition(mark)
        return head, rest

    def more(self) -> None:
        if not self.chunked:
            got = self.sock.recv(65536)
            if not got:
                raise EOFError("the stream ended")
            self.text += got.decode()
            return
        size, self.buffer = self.read_until(b"\r\n")
        size = int(size.split(b";")[0], 16)
        if size == 0:
            raise EOFError("the stream ended")
        while len(self.buffer) < size + 2:
            got = self.sock.recv(65536)
            if not got:
                raise EOFError("the stream ended")
            self.buffer += got
        self.text += self.buffer[:size].decode()
        self.buffer = self.buffer[size + 2:]

    def next_event(self) -> dict:
        """The next event with data or a name (comments and the retry line are skipped)."""
        while True:
            while "\n\n" not in self.text:
                self.more()
            block, self.text = self.text.split("\n\n", 1)
            found = {"event": "message", "id": None, "data": []}
            for line in block.split("\n"):
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "data":
                    found["data"].append(value)
                elif field in ("id", "event"):
                    found[field] = value
            if found["data"] or found["event"] != "message":
                found["data"] = "\n".join(found["data"])
                return found

    def close(self) -> None:
        self.sock.close()
