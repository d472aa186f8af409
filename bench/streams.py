"""A room full of phones on one process: held streams at a real pace, measured on the README's club server
(gunicorn, one gevent worker) on 127.0.0.1.

    python bench/streams.py [--tables 250,500,1000] [--seconds 60] [--pace 90] [--database URL] [--workers 1]

Each table is a match and two phones, each holding its event stream (views/live/stream.py); one of them saves a
hand by the page script (URL-encoded, X-Answer: fragment, the next form id from the answer) at a random
moment of every `pace` seconds. Measured over `seconds` after every stream said hello: the server's CPU
(user + system of gunicorn and its workers, from /proc), so the cost per table and the tables one core
holds; every phone answered (its hello, and each save of its table reaching both phones); how soon the
other phone gets a save (from the save's answer, and from its sending: the tap less the browser).
With --database postgresql://... and --workers 2 the saves and the streams meet in different processes.
"""
from __future__ import annotations

import argparse
import asyncio
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
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
HAND = {"knocker": "Ana", "knocker_deadwood": "3", "opponent_deadwood": "20"}


def cpu_seconds(pids) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def family(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = [int(p) for p in children.read_text().split()] if children.exists() else []
    return [pid, *kids]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def club_server(database: str, workers: int, connections: int = 5000, **env: str):
    """The README's club command on 127.0.0.1 (a free port), and that port; ready when it answers."""
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
    environ.update(FLASK_DATABASE=database, FLASK_SECRET_KEY="bench", **env)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "-k", "gevent", "-w", str(workers),
         "--worker-connections", str(connections),
         "--graceful-timeout", "2", "--no-control-socket", "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
         "app:create_app()"], cwd=ROOT, env=environ, start_new_session=True)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(1)
    return server, port


def stop(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


class Http:
    """One keep-alive connection with the bench's cookie (one player logged in nowhere: no passphrase)."""

    def __init__(self, port: int):
        self.port, self.reader, self.writer, self.cookie = port, None, None, ""
        self.location = ""  # of the last answer that named one (a redirect)

    async def ask(self, method: str, path: str, body: bytes = b"", headers: dict | None = None, again=True):
        try:
            return await self.once(method, path, body, headers)
        except (IndexError, ConnectionError, asyncio.IncompleteReadError):
            if not again:
                raise
            self.writer = None  # the server closed the kept connection: a new one, as a browser opens
            return await self.ask(method, path, body, headers, again=False)

    async def once(self, method: str, path: str, body: bytes, headers: dict | None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Length: {len(body)}\r\n"
        if self.cookie:
            head += f"Cookie: {self.cookie}\r\n"
        for name, value in (headers or {}).items():
            head += f"{name}: {value}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status = int((await self.reader.readline()).split()[1])
        length, chunked = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "set-cookie":
                self.cookie = value.split(";", 1)[0]
            elif name == "location":
                self.location = value
        if chunked:
            data = b""
            while (size := int((await self.reader.readline()).split(b";")[0], 16)):
                data += await self.reader.readexactly(size + 2)
            await self.reader.readline()
        else:
            data = await self.reader.readexactly(length)
        return status, data.decode(errors="replace")


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html) or re.search(rf'value="([^"]*)"[^>]*name="{name}"', html)
    return unescape(found.group(1))


class Table:
    def __init__(self, match_id: int, page: str):
        self.match_id = match_id
        self.fields = {name: hidden(page, name) for name in ("csrf_token", "form_id", "number", "version")}
        self.tag = unescape(re.search(r'id="live"[^>]*data-etag="([^"]+)"', page).group(1))
        self.sent: dict[str, tuple[float, float]] = {}  # tag -> (sent, answered)
        self.seen: dict[int, dict[str, float]] = {0: {}, 1: {}}
        self.hello = [False, False]
        self.retries = 0


async def new_table(http: Http) -> Table:
    status, page = await http.ask("GET", "/matches/new")
    body = urlencode({"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ben"], "format": "hollywood",
                      "preset": "classic", "first_dealer": "1"}, doseq=True).encode()
    status, _ = await http.ask("POST", "/matches/new", body, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302, status
    match_id = int(re.fullmatch(r".*/matches/(\d+)", http.location).group(1))  # the new match's page
    _, page = await http.ask("GET", f"/matches/{match_id}")
    return Table(match_id, page)


async def hold(port: int, table: Table, phone: int, stop: asyncio.Event, cookie: str) -> None:
    """As a browser's EventSource: a stream refused or broken is opened again a second later (counted)."""
    while not stop.is_set():
        try:
            await hold_once(port, table, phone, stop, cookie)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        if not stop.is_set():
            table.retries += 1
            await asyncio.sleep(1)


async def hold_once(port: int, table: Table, phone: int, stop: asyncio.Event, cookie: str,
                    address: str | None = None) -> None:
    """The stream asked as the page's EventSource asks it: the page's host and port, the player's cookie
    (from the phone's own `address`, 127.0.0.x, if given)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                   local_addr=(address, 0) if address else None)
    writer.write(f"GET /matches/{table.match_id}/stream?shown={table.tag} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 f"Accept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode())
    await reader.readuntil(b"\r\n\r\n")
    buffer = ""
    try:
        while not stop.is_set():
            got = await reader.read(65536)
            if not got:
                return
            buffer += got.decode(errors="replace")
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                if "event: hello" in block:
                    table.hello[phone] = True
                found = re.search(r"^id: (.+)$", block, re.M)
                if found:
                    table.seen[phone].setdefault(found.group(1), time.monotonic())
    finally:
        writer.close()


async def save(http: Http, table: Table, hand: dict = HAND) -> None:
    body = urlencode({**table.fields, **hand}).encode()
    sent = time.monotonic()
    status, html = await http.ask("POST", f"/matches/{table.match_id}/hands", body, {
        "Content-Type": "application/x-www-form-urlencoded", "X-Requested-With": "fetch", "X-Answer": "fragment",
        "X-Sheet": table.tag})
    answered = time.monotonic()
    state = re.search(r'data-next-hand="(\d+)"[^>]*data-heading="[^"]*" data-version="(\d+)" data-form-id="([^"]+)"', html)
    if status != 200 or state is None:
        return  # the match is over (or refused): that table saves no more
    table.fields.update(number=state.group(1), version=state.group(2), form_id=state.group(3))
    tag = re.sub(r"-\d+\"$", f'-{state.group(2)}"', table.tag)
    table.tag = tag
    table.sent[tag] = (sent, answered)


async def held_tables(port: int, tables: int) -> tuple[Http, list[Table], asyncio.Event, list[asyncio.Task]]:
    """`tables` new matches, each followed by two phones holding their streams until the event is set; back
    once every stream said hello (or after 120 s: the tables' `hello` say which did)."""
    http = Http(port)
    made = [await new_table(http) for _ in range(tables)]
    stop = asyncio.Event()
    holders = [asyncio.create_task(hold(port, table, phone, stop, http.cookie)) for table in made for phone in (0, 1)]
    deadline = time.monotonic() + 120
    while not all(all(t.hello) for t in made) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    return http, made, stop, holders


def version(tag: str) -> int:
    """A stream event's id is the match's ETag, "<match>-<epoch>-<version>": its version."""
    return int(tag.strip('"').rsplit("-", 1)[1])


async def run(port: int, pids, tables: int, seconds: float, pace: float) -> dict:
    http, made, stop, holders = await held_tables(port, tables)
    answered_hello = sum(sum(t.hello) for t in made)
    savers = [Http(port) for _ in range(8)]
    for saver in savers:
        saver.cookie = http.cookie
    start_cpu, start = cpu_seconds(pids), time.monotonic()
    plan = sorted((random.uniform(0, seconds), table) for table in made for _ in range(int(seconds // pace) or 1)
                  if random.random() < (seconds / pace if seconds < pace else 1))
    queue = asyncio.Queue()
    for item in plan:
        queue.put_nowait(item)

    async def saving(saver: Http):
        while not queue.empty():
            at, table = queue.get_nowait()
            await asyncio.sleep(max(0.0, start + at - time.monotonic()))
            await save(saver, table)

    await asyncio.gather(*(saving(s) for s in savers))
    await asyncio.sleep(max(0.0, start + seconds - time.monotonic()))
    used, elapsed = cpu_seconds(pids) - start_cpu, time.monotonic() - start
    await asyncio.sleep(3)  # the last saves reach their phones
    stop.set()
    for task in holders:
        task.cancel()
    from_answer, from_sending, missing, passed_over = [], [], 0, 0
    for table in made:
        for tag, (sent, answered) in table.sent.items():
            for phone in (0, 1):
                seen = table.seen[phone].get(tag)
                if seen is None and any(version(shown) > version(tag) for shown in table.seen[phone]):
                    passed_over += 1  # two saves before the stream looked: it sent the later one only
                elif seen is None:
                    missing += 1
                elif phone == 1:
                    from_answer.append(max(0.0, seen - answered))
                    from_sending.append(seen - sent)
    saves = sum(len(t.sent) for t in made)

    def pct(values, p):
        return round(1000 * sorted(values)[min(len(values) - 1, int(p * len(values)))], 1) if values else None

    return {"tables": tables, "streams": 2 * tables, "hello": answered_hello,
            "streams opened again": sum(t.retries for t in made), "saves": saves,
            "events missing": missing, "passed over for a later one": passed_over, "cpu s": round(used, 2), "seconds": round(elapsed, 1),
            "cpu per table (ms/s)": round(1000 * used / elapsed / tables, 4),
            "tables per core": int(tables * elapsed / used) if used else None,
            "other phone after the answer p50/p95 ms": (pct(from_answer, 0.5), pct(from_answer, 0.95)),
            "other phone after sending p50/p95 ms": (pct(from_sending, 0.5), pct(from_sending, 0.95))}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", default="250,500,1000")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pace", type=float, default=90)
    parser.add_argument("--database", default=None)
    parser.add_argument("--workers", type=int, default=1)
    options = parser.parse_args(argv)
    print("load before:", Path("/proc/loadavg").read_text().strip(), "cores:", os.cpu_count())
    for count in [int(n) for n in options.tables.split(",")]:
        folder = Path(tempfile.mkdtemp(prefix="gin-streams-"))
        database = options.database or str(folder / "ledger.sqlite")
        server, port = club_server(database, options.workers, FLASK_STREAMS_PER_ADDRESS="100000")
        try:
            result = asyncio.run(run(port, family(server.pid), count, options.seconds, options.pace))
            print(result, flush=True)
        finally:
            stop(server)
            shutil.rmtree(folder, ignore_errors=True)
    print("load after:", Path("/proc/loadavg").read_text().strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
