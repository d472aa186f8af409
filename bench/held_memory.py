"""Memory per held stream on ONE gevent worker (issue 47), on the README's club command.

    python bench/held_memory.py [--streams 200,2000,10000] [--matches 1000] [--connections 12000]

One gunicorn gevent worker (`-c gunicorn.conf.py`, `--worker-connections` 12,000, FLASK_STREAMS_MAX above the
streams asked) on a new SQLite file with `matches` matches. RLIMIT_NOFILE is raised to its hard limit for this
client and the server it starts. Streams are opened in steps, spread over the matches in turn (stream k
follows match k mod `matches`: two a match up to 2 x matches streams, as real tables, then more a match), each
from its phone's own loopback address, 50 a address (the app's default allows 64): a light asyncio client
(bench/streams.py `hold_once`: one socket and one reader task a stream). At each step, once every stream said
"hello", the worker's VmRSS (/proc/<worker>/status), and one save of a followed match by the page script,
timed from its POST to its answer. Reported per step: (RSS_N - RSS_first) / (N - first) in KB a stream.

The first step past `matches` streams adds no room (views/live/hub.py: one a followed match); from two steps
above the first the bench also splits the growth into a stream's and a room's part (two unknowns, two steps).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phones_at_once import loopback  # noqa: E402
from streams import Http, Table, club_server, family, hold_once, new_table, save, stop  # noqa: E402

PER_ADDRESS = 50  # below FLASK_STREAMS_PER_ADDRESS (64)
OPEN_AT_ONCE = 250  # streams asked before waiting for their hellos (below gunicorn's listen backlog, 2048)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def files_limit() -> tuple[int, int]:
    """RLIMIT_NOFILE raised to its hard limit (inherited by the server started after); and a SIGTERM (as
    `timeout` sends) ends the bench by its `finally`s, so its server is stopped too."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return soft, hard


def follow(table: Table) -> int:
    """One more phone following `table` (a Table followed by any number of phones): its number."""
    phone = len(table.hello)
    table.hello.append(False)
    table.seen[phone] = {}
    return phone


async def steps(port: int, worker: int, counts: list[int], matches: int, cookie_http: Http) -> list[dict]:
    made = [await new_table(cookie_http) for _ in range(matches)]
    for table in made:
        table.hello, table.seen = [], {}
    done = asyncio.Event()
    phones: list[tuple[Table, int]] = []
    tasks = []
    rows = []
    for count in counts:
        started = time.monotonic()
        while len(phones) < count:
            batch = []
            for _ in range(min(OPEN_AT_ONCE, count - len(phones))):
                table = made[len(phones) % matches]
                phone = follow(table)
                address = loopback(len(phones) // PER_ADDRESS)
                phones.append((table, phone))
                batch.append((table, phone))
                tasks.append(asyncio.create_task(hold_once(port, table, phone, done, cookie_http.cookie, address)))
            deadline = time.monotonic() + 60
            while not all(t.hello[p] for t, p in batch) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        deadline = time.monotonic() + 60
        while sum(t.hello[p] for t, p in phones) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        opened_s = time.monotonic() - started
        await asyncio.sleep(3)  # the worker settles: every stream waits on its room
        rss = rss_kb(worker)
        saver = made[len(rows) % matches]
        await save(cookie_http, saver)
        sent, answered = saver.sent.get(saver.tag, (0.0, None))
        save_ms = round(1000 * (answered - sent), 1) if answered else None  # None: not saved
        await asyncio.sleep(1)
        failed = sum(1 for task in tasks if task.done())
        rows.append({"streams": count, "said hello": sum(t.hello[p] for t, p in phones),
                     "rooms": min(count, matches), "worker RSS KB": rss, "client RSS KB": rss_kb(os.getpid()),
                     "opened in s": round(opened_s, 1), "save ms": save_ms, "streams ended": failed})
        print(rows[-1], flush=True)
    done.set()
    for task in tasks:
        task.cancel()
    return rows


def table(rows: list[dict], matches: int) -> str:
    first = rows[0]
    lines = ["| streams | rooms | said hello | worker RSS | KB a stream over the first step | save answered | "
             "streams opened in | client RSS |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        per = ((row["worker RSS KB"] - first["worker RSS KB"]) / (row["streams"] - first["streams"])
               if row is not first else None)
        lines.append(f"| {row['streams']:,} | {row['rooms']:,} | {row['said hello']:,} | "
                     f"{row['worker RSS KB'] / 1024:.1f} MB | {'' if per is None else f'{per:.1f} KB'} | "
                     f"{row['save ms']} ms | {row['opened in s']} s | {row['client RSS KB'] / 1024:.1f} MB |")
    if len(rows) >= 3 and rows[1]["rooms"] == rows[2]["rooms"] == matches:
        (s1, r1), (s2, _r2) = [(r["streams"] - first["streams"], r["rooms"] - first["rooms"]) for r in rows[1:3]]
        d1, d2 = (r["worker RSS KB"] - first["worker RSS KB"] for r in rows[1:3])
        stream = (d2 - d1) / (s2 - s1)
        room_kb = (d1 - s1 * stream) / r1 if r1 else float("nan")
        lines.append(f"\nSplit: {stream:.1f} KB a stream, {room_kb:.1f} KB a room (followed match); "
                     f"two phones a match: {stream + room_kb / 2:.1f} KB a stream.")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", default="200,2000,10000")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--connections", type=int, default=12000)
    options = parser.parse_args(argv)
    counts = [int(n) for n in options.streams.split(",")]
    soft, hard = files_limit()
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}, cores: {os.cpu_count()}, "
          f"RLIMIT_NOFILE {soft} raised to {hard}", flush=True)
    if hard < max(counts) + 500:
        print(f"the hard limit of open files ({hard}) is below {max(counts)} streams and a margin", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="gin-held-"))
    server, port = club_server(str(folder / "ledger.sqlite"), 1, connections=options.connections,
                               FLASK_STREAMS_MAX=str(max(counts) + 1000))
    try:
        worker = family(server.pid)[1]
        rows = asyncio.run(steps(port, worker, counts, options.matches, Http(port)))
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    print(table(rows, options.matches))
    print("load after:", Path("/proc/loadavg").read_text().strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
