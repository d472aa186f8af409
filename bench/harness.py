"""What every part of the benchmark shares: the server under test, a stdlib HTTP client, and hands to enter.

The server is the app exactly as `create_app` builds it, served by waitress in its own
process on 127.0.0.1 with a fresh SQLite file, plus one route (see limit_app.py) that
sends files from a temporary folder the way Flask's /static/ does. Nothing is written
inside the repository: the database, the padded "limit" file and the server log live in
a temporary directory that is removed when the server stops.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
THREADS = 4  # waitress --threads, as the issue asks


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`python -m waitress --listen=127.0.0.1:PORT --threads=4 --call bench.limit_app:create_app`."""

    def __init__(self, label: str = "bench"):
        self.workdir = Path(tempfile.mkdtemp(prefix=f"gin-ledger-{label}-"))
        self.limit_dir = self.workdir / "limit"
        self.limit_dir.mkdir()
        self.database = self.workdir / "gin-ledger.sqlite"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        env = dict(os.environ, FLASK_DATABASE=str(self.database), FLASK_SECRET_KEY="bench",
                   BENCH_LIMIT_DIR=str(self.limit_dir))
        env.pop("FLASK_PASSPHRASE", None)
        self.log_path = self.workdir / "server.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "waitress", f"--listen=127.0.0.1:{self.port}", f"--threads={THREADS}",
                 "--call", "bench.limit_app:create_app"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log_path.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    pass
                if Client(self).get("/static/style.css").status == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not start:\n{self.log_path.read_text()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the server process so far (Linux /proc), or None elsewhere."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def requests_seen(self, since: int = 0) -> tuple[int, list[dict]]:
        """What the server has received (see limit_app.py): the count so far, and the entries from `since`."""
        reply = Client(self).get(f"/bench-log?since={since}")
        data = json.loads(reply.body)
        return data["count"], data["entries"]

    def put_limit_file(self, name: str, body: bytes) -> str:
        """A static file with exactly these bytes; returns its URL path on the server."""
        (self.limit_dir / name).write_bytes(body)
        return f"/bench-limit/{name}"


@dataclass
class Reply:
    status: int
    headers: dict
    body: bytes
    seconds: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    @property
    def location(self) -> str:
        """The redirect target as a path (the anchor dropped: browsers do not send it)."""
        parts = urlsplit(self.headers["location"])
        return parts.path + (f"?{parts.query}" if parts.query else "")


@dataclass
class Client:
    """One phone: a keep-alive connection and its session cookie."""

    server: Server
    cookies: dict = field(default_factory=dict)
    conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self.conn:
            self.conn.close()
            self.conn = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> Reply:
        head = {"Host": f"127.0.0.1:{self.server.port}", "Accept": "text/html"}
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        head.update(headers or {})
        for attempt in (1, 2):  # a keep-alive connection the server has closed is reopened once
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=head)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise
                continue
            seconds = time.perf_counter() - start
            break
        headers_out = {k.lower(): v for k, v in response.getheaders()}
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                self.cookies[key.strip()] = val.strip()
        if response.getheader("connection", "").lower() == "close":
            self.close()
        return Reply(response.status, headers_out, data, seconds)

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, fields: dict | list) -> Reply:
        body = urlencode(fields, doseq=True).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})


def hidden(html: str, name: str) -> str:
    """A hidden field's value, as tests/webutil.py reads it."""
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'value="([^"]*)"[^>]*name="{name}"', html)
    if not found:
        raise ValueError(f"no field {name} on the page")
    return unescape(found.group(1))


def import_match(client: Client, doc: dict) -> int:
    """POST /import with the match file pasted; returns the new match's id."""
    page = client.get("/")
    reply = client.post("/import", {"csrf_token": hidden(page.text, "csrf_token"), "text": json.dumps(doc)})
    if reply.status != 302:
        raise RuntimeError(f"import refused ({reply.status}): {reply.text[:500]}")
    return int(reply.location.rstrip("/").rsplit("/", 1)[1])


# ---- hands ---------------------------------------------------------------------

PLAYERS = ("Ana", "Ben")
HIGH_TARGET = 1_000_000  # the largest target the rules allow: a match that never closes


def random_hand(rng: random.Random) -> dict:
    """One deal as a table enters it: mostly knocks, some gins and undercuts, a few draws."""
    roll = rng.random()
    if roll < 0.03:
        return {"draw": True}
    knocker = rng.choice(PLAYERS)
    defender = round(rng.triangular(1, 40, 8))  # after lay-offs; most defenders are caught with 5 to 20
    if roll < 0.18:
        hand = {"knocker": knocker, "knocker_deadwood": 0, "opponent_deadwood": defender}
        if roll < 0.04:  # about one deal in a hundred is a big gin
            hand["big_gin"] = True
        return hand
    # a knock; with these numbers about one in eight comes out an undercut
    return {"knocker": knocker, "knocker_deadwood": rng.randint(1, 10), "opponent_deadwood": defender}


def match_doc(hands: list[dict], target: int | None = None) -> dict:
    doc = {"format": "hollywood", "players": list(PLAYERS), "first_dealer": PLAYERS[0], "hands": hands}
    if target is not None:
        doc["rules"] = {"target": target}
    return doc


def hands_for(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [random_hand(rng) for _ in range(count)]


def typical_match(seed: int = 2) -> list[dict]:
    """The hands of one complete Hollywood match to 100 under the classic rules."""
    from models.errors import MatchError
    from models.matchfile import match_from_document
    from models.ledger import score_sheet

    rng = random.Random(seed)
    hands: list[dict] = []
    while True:
        hands.append(random_hand(rng))
        try:
            if score_sheet(match_from_document(match_doc(hands))).finished:
                return hands
        except MatchError:  # cannot happen: we stop at the first finishing hand
            raise


def form_fields(hand: dict) -> dict:
    """The hand as the match page's form posts it (the field names are the file's keys)."""
    if hand.get("draw"):
        return {"draw": "true"}
    fields = {k: str(v) for k, v in hand.items() if k in ("knocker", "knocker_deadwood", "opponent_deadwood")}
    if hand.get("big_gin"):
        fields["big_gin"] = "y"
    return fields


if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
