"""A real server for the tests that need one: waitress in a subprocess, and a tiny client.

Not a test module. `Server` starts `python -m waitress ... --call tests.server:watched_app`
(app:create_app, in a server that watches its parent: below) on a free port of 127.0.0.1
with its own database file, waits until it answers, and can be stopped politely or killed
with SIGKILL (the waitress process itself: it is started without a shell, so
`process.pid` is the server). `Client` is one phone: a cookie jar, GET a page, read its
csrf_token/form_id/version, POST a form without following the redirect. Only the
standard library is used.

With `files_dir`, the server runs `app_with_files` instead: the same app plus a route
that sends the folder's files as Flask's /static/ does, and a log of the requests it
received. The benchmark uses it for its "limit" (a static file the size of a page,
from the same server) and to count round trips as the server saw them.

No server outlives the process that started it, however that process ends. Each runs in
its own session (process group), so a Ctrl-C at the terminal reaches only the parent, which
stops it: on exit (atexit), and on SIGTERM or SIGINT (a handler that stops every running
server, then does what the signal did before). A parent killed outright (SIGKILL) runs
none of that, so the server also watches its parent: the app factory starts a thread that
ends the server once os.getppid() is no longer the pid it was started by (PARENT_VAR).
`servers_started_by(pid)` finds a process's servers by that variable, even once orphaned.
"""
from __future__ import annotations

import atexit
import contextlib
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
# How long a start may take before it counts as hung: generous, a busy machine is slow to import and
# migrate, and a server that answers (or exits) ends the wait at once. Override with GIN_LEDGER_TEST_START_S.
START_TIMEOUT = float(os.environ.get("GIN_LEDGER_TEST_START_S") or 120)
REQUEST_TIMEOUT = 30.0
FILES_VAR = "GIN_LEDGER_TEST_FILES"
FILES_ROUTE = "/test-files/"
REQUEST_LOG = "requests.log"  # inside files_dir, so the route could serve it but nothing asks
PARENT_VAR = "GIN_LEDGER_TEST_PARENT"  # the pid that started the server; the server ends when it is gone
WATCH_INTERVAL = 0.2  # seconds between the server's looks at its parent
STOP_GRACE = 10.0  # after SIGTERM, before SIGKILL

_running: set[subprocess.Popen] = set()  # servers started by this process and not yet stopped
_previous_handlers: dict[int, object] = {}  # signal -> its handler before ours (installed once each)


def _stop_running() -> None:
    """Stop every server still running: SIGTERM to each one's process group, SIGKILL to those still there
    after STOP_GRACE. Safe in a signal handler: it only polls (poll() never blocks on Popen's lock)."""
    live = [process for process in list(_running) if process.poll() is None]
    for process in live:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    while any(process.poll() is None for process in live) and time.monotonic() < deadline:
        time.sleep(0.05)
    for process in live:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
    _running.difference_update(live)


def _on_signal(signum: int, frame) -> None:
    """Stop the servers, then do what the signal did before: KeyboardInterrupt for SIGINT, death for SIGTERM."""
    _stop_running()
    previous = _previous_handlers[signum]
    if callable(previous):
        previous(signum, frame)
    else:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


atexit.register(_stop_running)


def _install_handlers() -> None:
    """Before a start: _stop_running on SIGTERM and SIGINT too. Installed once each, from the main thread
    (signal.signal works only there), and only over a default or a Python handler, which they chain to:
    an ignored signal stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)
        if signum not in _previous_handlers and previous not in (signal.SIG_IGN, None):
            _previous_handlers[signum] = previous
            signal.signal(signum, _on_signal)


def servers_started_by(pid: int) -> list[int]:
    """The pids of the live servers that `pid` started (found by PARENT_VAR in their environment, so also
    once they are orphaned; a zombie has none and does not count). Linux: reads /proc."""
    marker = f"{PARENT_VAR}={pid}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours
            continue
    return found


def watch_parent() -> None:
    """In the server: end it (SIGTERM, as stop() does; SIGKILL if that has not ended it) once the process
    named by PARENT_VAR is no longer its parent, which is how an orphan learns its parent died. Not started
    without PARENT_VAR, so the factories also serve as plain ones."""
    parent = int(os.environ.get(PARENT_VAR) or 0)
    if not parent:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_INTERVAL)
        for signum in (signal.SIGTERM, signal.SIGKILL):
            if os.getpgrp() == os.getpid():  # started by Server, in its own group: it and all it started
                os.killpg(0, signum)
            else:
                os.kill(os.getpid(), signum)
            time.sleep(STOP_GRACE)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_env(database: str, **extra: str) -> dict:
    """The environment of the app: no FLASK_* of the caller leaks in (a passphrase would lock us out)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
    env.update(FLASK_DATABASE=str(database), FLASK_SECRET_KEY="test", PYTHONUNBUFFERED="1")
    env.update(extra)  # a test may set its own FLASK_SECRET_KEY
    return env


class Server:
    """waitress serving app:create_app on one database file."""

    def __init__(self, database: str | os.PathLike, threads: int = 8, log_dir: str | os.PathLike | None = None,
                 files_dir: str | os.PathLike | None = None, env: dict[str, str] | None = None,
                 waitress_args: tuple[str, ...] = (), factory: str | None = None):
        """`env`: more of the app's environment (FLASK_PASSPHRASE=...); change it between stop() and start().
        `waitress_args`: more options of waitress itself (--no-clear-untrusted-proxy-headers).
        `factory`: another app to serve ("module:function", one that calls watch_parent and answers GET /)."""
        self.database = str(database)
        self.env = dict(env or {})
        self.waitress_args = tuple(waitress_args)
        self.factory = factory
        self.threads = threads
        self.files_dir = Path(files_dir) if files_dir else None
        self.log_dir = Path(log_dir) if log_dir else Path(self.database).parent
        self.process: subprocess.Popen | None = None
        self.port: int | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> "Server":
        last_error = None
        for _attempt in range(3):  # a port taken between free_port() and bind: try another
            self.port = free_port()
            self.starts += 1
            self.log_path = self.log_dir / f"waitress-{self.starts}.log"
            self._log = open(self.log_path, "wb")
            factory, extra = (self.factory or "tests.server:watched_app", {}) if self.files_dir is None else (
                "tests.server:app_with_files", {FILES_VAR: str(self.files_dir)})
            _install_handlers()
            self.process = subprocess.Popen(
                [sys.executable, "-m", "waitress", f"--listen={HOST}:{self.port}", f"--threads={self.threads}",
                 *self.waitress_args, "--call", factory],
                cwd=ROOT, env=server_env(self.database, **self.env, **extra, **{PARENT_VAR: str(os.getpid())}),
                stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
            )
            _running.add(self.process)
            try:
                self.wait_ready()
                return self
            except RuntimeError as error:
                last_error = error
                self.stop()
        raise RuntimeError(f"the server did not start: {last_error}\n{self.log()}")

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"waitress exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.base + "/", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, socket.timeout):
                time.sleep(0.05)
        raise RuntimeError("no answer within %.0f s" % START_TIMEOUT)

    def log(self) -> str:
        try:
            return Path(self.log_path).read_text(errors="replace")
        except (AttributeError, OSError):
            return ""

    def kill(self) -> None:
        """SIGKILL the waitress process itself: no shutdown, no checkpoint, no flush."""
        assert self.process is not None and self.process.poll() is None, "server is not running"
        cmdline = Path(f"/proc/{self.process.pid}/cmdline")
        if cmdline.exists():  # the pid is waitress itself, not a wrapper
            assert b"waitress" in cmdline.read_bytes(), cmdline.read_bytes()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        _running.discard(self.process)
        self._log.close()

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        _running.discard(self.process)
        self._log.close()

    def requests_seen(self) -> list[str]:
        """With files_dir: every request answered so far, as "METHOD /path STATUS", in order."""
        log = self.files_dir / REQUEST_LOG
        return log.read_text().splitlines() if log.exists() else []

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def client(self) -> "Client":
        return Client(self.base)


@dataclass
class Response:
    status: int
    headers: dict
    body: str

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # urllib then raises HTTPError carrying the 30x, which `Client.send` returns


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'value="([^"]*)"[^>]*name="{name}"', html)
    assert match, f"no hidden field {name}"
    return unescape(match.group(1))


class Client:
    """One phone: its own session cookie, no redirects followed."""

    def __init__(self, base: str, timeout: float = REQUEST_TIMEOUT):
        self.base = base
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())

    def send(self, request: urllib.request.Request) -> Response:
        try:
            with self.opener.open(request, timeout=self.timeout) as answer:
                return Response(answer.status, dict(answer.headers), answer.read().decode("utf-8", "replace"))
        except urllib.error.HTTPError as answer:
            with answer:
                return Response(answer.code, dict(answer.headers), answer.read().decode("utf-8", "replace"))

    def get(self, path: str, headers: dict | None = None) -> Response:
        """`headers`: as a proxy in front would add them (Host, X-Forwarded-*)."""
        return self.send(urllib.request.Request(self.base + path, method="GET", headers=headers or {}))

    def post(self, path: str, fields: dict | list, headers: dict | None = None) -> Response:
        body = urllib.parse.urlencode(fields, doseq=True).encode("ascii")
        request = urllib.request.Request(self.base + path, data=body, method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Referer": self.base + path, **(headers or {})})
        return self.send(request)

    def copy(self, base: str | None = None) -> "Client":
        """Another phone holding a copy of this one's cookies, as a copied cookie would be;
        `base` for a restarted server (a new port: the cookies are the host's, not the port's)."""
        other = Client(base or self.base, self.timeout)
        for cookie in self.jar:
            other.jar.set_cookie(cookie)
        return other

    def page_fields(self, path: str, *names: str) -> dict:
        """GET a page and read its hidden fields (csrf_token, form_id, version...)."""
        page = self.get(path)
        assert page.status == 200, (page.status, page.body[:500])
        return {name: hidden(page.body, name) for name in names}

    def export(self, match_id: int) -> dict:
        answer = self.get(f"/matches/{match_id}.json")
        assert answer.status == 200, answer.status
        return json.loads(answer.body)

    def import_match(self, doc: dict) -> int:
        fields = self.page_fields("/", "csrf_token")
        answer = self.post("/import", {**fields, "text": json.dumps(doc)})
        assert answer.status == 302, (answer.status, answer.body[:1000])
        return int(answer.location.rstrip("/").rsplit("/", 1)[1])

    def post_hand(self, match_id: int, **fields) -> Response:
        """As the match page does it: a fresh page, its token and its one-time form id."""
        form = self.page_fields(f"/matches/{match_id}", "csrf_token", "form_id")
        return self.post(f"/matches/{match_id}/hands", {**form, **fields})


def watched_app():
    """app:create_app, in a server that ends when its parent does (watch_parent)."""
    watch_parent()
    import app as gin_ledger

    return gin_ledger.create_app()


def app_with_files():
    """The app as create_app builds it, plus FILES_ROUTE and the request log (see the module doc).

    The files go through the same waitress, Flask and request hooks as /static/, so a
    page compared with a file of its size differs only in what the app does for it."""
    watch_parent()
    from flask import send_from_directory

    import app as gin_ledger

    application = gin_ledger.create_app()
    folder = Path(os.environ[FILES_VAR])

    @application.get(FILES_ROUTE + "<path:name>")
    def test_file(name: str):
        return send_from_directory(folder, name, max_age=application.get_send_file_max_age(name))

    application.wsgi_app = RequestLog(application.wsgi_app, folder / REQUEST_LOG)
    return application


class RequestLog:
    """WSGI middleware: a line per request, written when it is answered, so the order is the server's."""

    def __init__(self, wsgi_app, path: Path):
        self.wsgi_app = wsgi_app
        self.file = open(path, "a", buffering=1, encoding="utf-8")
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        def logged(status, headers, exc_info=None):
            with self.lock:
                self.file.write(f"{environ['REQUEST_METHOD']} {environ.get('PATH_INFO', '')} {status.split()[0]}\n")
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, logged)
