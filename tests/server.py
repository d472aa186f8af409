"""A real server for the tests that need one: waitress in a subprocess, and a tiny client.

Not a test module. `Server` starts `python -m waitress ... --call app:create_app` on a
free port of 127.0.0.1 with its own database file, waits until it answers, and can be
stopped politely or killed with SIGKILL (the waitress process itself: it is started
without a shell, so `process.pid` is the server). `Client` is one phone: a cookie jar,
GET a page, read its csrf_token/form_id/version, POST a form without following the
redirect. Only the standard library is used.

With `files_dir`, the server runs `app_with_files` instead: the same app plus a route
that sends the folder's files as Flask's /static/ does, and a log of the requests it
received. The benchmark uses it for its "limit" (a static file the size of a page,
from the same server) and to count round trips as the server saw them.
"""
from __future__ import annotations

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
START_TIMEOUT = 20.0
REQUEST_TIMEOUT = 30.0
FILES_VAR = "GIN_LEDGER_TEST_FILES"
FILES_ROUTE = "/test-files/"
REQUEST_LOG = "requests.log"  # inside files_dir, so the route could serve it but nothing asks


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_env(database: str, **extra: str) -> dict:
    """The environment of the app: no FLASK_* of the caller leaks in (a passphrase would lock us out)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
    env.update(FLASK_DATABASE=str(database), FLASK_SECRET_KEY="test", PYTHONUNBUFFERED="1", **extra)
    return env


class Server:
    """waitress serving app:create_app on one database file."""

    def __init__(self, database: str | os.PathLike, threads: int = 8, log_dir: str | os.PathLike | None = None,
                 files_dir: str | os.PathLike | None = None, env: dict | None = None):
        self.database = str(database)
        self.env = dict(env or {})  # more FLASK_* settings of the app, e.g. FLASK_HOSTED=1
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
            factory, extra = ("app:create_app", {}) if self.files_dir is None else (
                "tests.server:app_with_files", {FILES_VAR: str(self.files_dir)})
            self.process = subprocess.Popen(
                [sys.executable, "-m", "waitress", f"--listen={HOST}:{self.port}", f"--threads={self.threads}",
                 "--call", factory],
                cwd=ROOT, env=server_env(self.database, **self.env, **extra), stdout=self._log, stderr=subprocess.STDOUT,
            )
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

    def get(self, path: str) -> Response:
        return self.send(urllib.request.Request(self.base + path, method="GET"))

    def post(self, path: str, fields: dict | list) -> Response:
        body = urllib.parse.urlencode(fields, doseq=True).encode("ascii")
        request = urllib.request.Request(self.base + path, data=body, method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Referer": self.base + path})
        return self.send(request)

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


def app_with_files():
    """The app as create_app builds it, plus FILES_ROUTE and the request log (see the module doc).

    The files go through the same waitress, Flask and request hooks as /static/, so a
    page compared with a file of its size differs only in what the app does for it."""
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
