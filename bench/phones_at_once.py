"""A room of phones arriving at once, on each command the README gives for phones (issue 45, item 10).

    python bench/phones_at_once.py [--phones 300] [--seconds 40] [--servers flask-run,waitress-8,...]

Each server is the README's command as written, but on 127.0.0.1 and a free port, with a new SQLite file.
First `phones / 2` matches are made (two phones a match). Then every phone at once, each from its own
loopback address (127.0.0.x: a phone on the Wi-Fi is an address of its own, and STREAMS_PER_ADDRESS counts
per address): it opens a connection, loads its match page and the page's stylesheet and script on it, then
follows the match as static/app.js does: it opens the held stream (views/live/stream.py) on a second
connection; a stream refused (503, waitress holds none) or silent is closed and the page polls its live
region on the first, kept connection every 2.5 s (X-Sheet: "nothing new" is an empty 200).

A phone is answered when its page came back (200) within `--within` seconds of the start and it then followed
the match: its stream said hello, or a poll was answered. Reported per server: phones answered, the page's
time p50/p95/max, how many follow by stream and by polls, and the polls asked and answered over `seconds`.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from html import unescape
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from streams import Http, free_port, new_table, stop  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
POLL_S = 2.5  # views/live/following.ENTERING_EVERY_MS on a phone entering hands
HELLO_S = 10  # static/app.js gives a silent stream up after this long
# The README's commands for phones, with 127.0.0.1:{port} for its 0.0.0.0 and its port.
SERVERS = {
    "flask-run": "{python} -m flask --app app run --host 127.0.0.1 --port {port}",
    "waitress-8": "{python} -m waitress --listen=127.0.0.1:{port} --threads=8 --call app:create_app",
    "waitress-8-limit-1000": "{python} -m waitress --listen=127.0.0.1:{port} --threads=8 --connection-limit=1000"
                             " --asyncore-use-poll --call app:create_app",
    "flask-serve": "{python} -m flask --app app serve --host 127.0.0.1 --port {port}",
    "gunicorn-gevent": "{python} -m gunicorn -k gevent -w 2 --worker-connections 5000 --no-control-socket"
                       " --bind 127.0.0.1:{port} --log-level warning app:create_app()",
}


CLOSES = {"flask-run"}  # servers that close each connection after its answer


def loopback(number: int) -> str:
    """The `number`th loopback address of its own (127.0.1.1, 127.0.1.2, ...): a phone on the Wi-Fi."""
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


class Phone:
    def __init__(self, number: int, match_id: int):
        self.address = loopback(number)
        self.match_id = match_id
        self.page_s: float | None = None
        self.status = None
        self.streamed = False
        self.polls = self.answered_polls = 0
        self.followed_at: float | None = None
        self.problem = ""


class PhoneHttp(Http):
    """Http from the phone's own address; a new connection for each request where the server closes each
    (Werkzeug's development server answers `Connection: close`), as a browser then opens one."""

    def __init__(self, port: int, address: str, closes: bool):
        super().__init__(port)
        self.address, self.closes = address, closes

    async def once(self, method: str, path: str, body: bytes, headers: dict | None):
        if self.writer is None or self.closes:
            if self.writer is not None:
                self.writer.close()
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                                     local_addr=(self.address, 0))
        return await super().once(method, path, body, headers)


async def held_stream(port: int, phone: Phone, tag: str, start: float, done: asyncio.Event) -> bool:
    """The page's EventSource: True once it said hello (the stream is then held until `done`)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(phone.address, 0))
    try:
        writer.write(f"GET /matches/{phone.match_id}/stream?shown={tag} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     f"Accept: text/event-stream\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HELLO_S)
        if b" 200 " not in head.split(b"\r\n", 1)[0] + b" ":
            return False
        buffer = b""
        while b"event: hello" not in buffer:
            got = await asyncio.wait_for(reader.read(65536), HELLO_S)
            if not got:
                return False
            buffer += got
        phone.streamed, phone.followed_at = True, time.monotonic() - start
        ended = asyncio.create_task(done.wait())
        while not done.is_set():  # events and heartbeats, read and let go, until the server closes it
            more = asyncio.create_task(reader.read(65536))
            await asyncio.wait([more, ended], return_when=asyncio.FIRST_COMPLETED)
            if not more.done():
                more.cancel()
            elif not more.result():
                break
        ended.cancel()
        return True
    except (asyncio.TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        return False
    finally:
        writer.close()


async def one_phone(port: int, phone: Phone, start: float, within: float, done: asyncio.Event,
                    closes: bool) -> None:
    http = PhoneHttp(port, phone.address, closes)
    try:
        status, page = await asyncio.wait_for(http.ask("GET", f"/matches/{phone.match_id}"), within)
        phone.status = status
        if status != 200:
            return
        for asset in re.findall(r'<(?:link rel="stylesheet"|script)[^>]* (?:href|src)="(/static/[^"]+)"', page):
            await asyncio.wait_for(http.ask("GET", asset), within)
        phone.page_s = time.monotonic() - start
        tag = unescape(re.search(r'id="live"[^>]*data-etag="([^"]+)"', page).group(1))
        if await held_stream(port, phone, tag, start, done):
            return
        while not done.is_set():
            phone.polls += 1
            status, _ = await asyncio.wait_for(http.ask("GET", f"/matches/{phone.match_id}/live",
                                                        headers={"X-Sheet": tag}), within)
            if status == 200:
                phone.answered_polls += 1
                phone.followed_at = phone.followed_at or time.monotonic() - start
            await asyncio.sleep(POLL_S)
    except asyncio.TimeoutError:
        phone.problem = "timed out"
    except (OSError, asyncio.IncompleteReadError, IndexError, ValueError) as error:
        phone.problem = type(error).__name__


async def seated(port: int, phones: int, closes: bool) -> list[Phone]:
    """`phones` phones, two a new match."""
    maker = PhoneHttp(port, "127.0.0.1", closes)
    matches = [(await new_table(maker)).match_id for _ in range((phones + 1) // 2)]
    return [Phone(n, matches[n // 2]) for n in range(phones)]


async def room(port: int, phones: int, seconds: float, within: float, closes: bool) -> dict:
    room = await seated(port, phones, closes)
    done = asyncio.Event()
    start = time.monotonic()
    tasks = [asyncio.create_task(one_phone(port, phone, start, within, done, closes)) for phone in room]
    await asyncio.sleep(seconds)
    done.set()
    await asyncio.wait(tasks, timeout=within + 5)
    for task in tasks:
        task.cancel()
    pages = sorted(p.page_s for p in room if p.page_s is not None)

    def pct(q):
        return round(pages[min(len(pages) - 1, int(q * len(pages)))], 2) if pages else None

    answered = [p for p in room if p.page_s is not None and p.page_s <= within and p.followed_at is not None]
    problems: dict[str, int] = {}
    for p in room:
        if p.problem:
            problems[p.problem] = problems.get(p.problem, 0) + 1
    return {"phones": phones, "answered": len(answered), "page s p50/p95/max": (pct(0.5), pct(0.95), pct(1.0)),
            "by stream": sum(p.streamed for p in room), "by polls": sum(1 for p in room if p.answered_polls),
            "polls asked/answered": (sum(p.polls for p in room), sum(p.answered_polls for p in room)),
            "problems": problems}


def serve(name: str, folder: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
    environ.update(FLASK_DATABASE=str(folder / "ledger.sqlite"), FLASK_SECRET_KEY="bench")
    command = SERVERS[name].format(python=sys.executable, port=port).split()
    server = subprocess.Popen(command, cwd=ROOT, env=environ, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=open(folder / "server.log", "w"))
    deadline = time.monotonic() + 60
    while not answers(port) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)
    return server, port


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--within", type=float, default=30, help="seconds a phone waits for its page")
    parser.add_argument("--servers", default=",".join(SERVERS))
    options = parser.parse_args(argv)
    print("load before:", Path("/proc/loadavg").read_text().strip(), "cores:", os.cpu_count(), flush=True)
    for name in options.servers.split(","):
        print(name, measured(name, options), flush=True)
    print("load after:", Path("/proc/loadavg").read_text().strip())
    return 0


def measured(name: str, options: argparse.Namespace) -> dict:
    """One server's room, on a database of its own, stopped and removed after, however the room ends."""
    folder = Path(tempfile.mkdtemp(prefix="gin-phones-"))
    server, port = serve(name, folder)
    try:
        return asyncio.run(room(port, options.phones, options.seconds, options.within, closes=name in CLOSES))
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
