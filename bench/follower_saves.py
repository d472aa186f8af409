"""Saves of one match while many phones follow that same match (issue 47), on SQLite and on PostgreSQL.

    python bench/follower_saves.py [--followers 0,1000,2000] [--saves 40] [--every 0.3] [--workers 1]
                                   [--postgresql URL | --engines sqlite]

The README's club command (bench/streams.py `club_server`: gunicorn, gevent, `-c gunicorn.conf.py`) on a new
database for each setting: a new SQLite file, or on PostgreSQL a new database (CREATE DATABASE, dropped after)
on the server of `--postgresql` (default postgresql://postgres@127.0.0.1:55432/postgres). One match; `followers`
phones hold its stream (bench/streams.py `hold_once`, 50 a loopback address: the app allows 64); once every
one said hello, `saves` hands saved by the page script (bench/streams.py `save`), one every `every` seconds,
each timed from its POST to its answer. Reported per setting: the saves' p50/p95/max, the server's CPU a save
(gunicorn and its workers, /proc), and how soon the followers got each save: from its POST to the event with
its version, p50/p95 over every follower and save (a save passed over for a later one is counted apart).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from held_memory import PER_ADDRESS, files_limit, follow  # noqa: E402
from phones_at_once import loopback  # noqa: E402
from streams import Http, club_server, cpu_seconds, family, hold_once, new_table, save, stop, version  # noqa: E402

PG_DEFAULT = "postgresql://postgres@127.0.0.1:55432/postgres"
# One point a deal for Ana: a match of three games to 100 lasts far beyond the saves (3 and 20 ends it in 8).
SMALL_HAND = {"knocker": "Ana", "knocker_deadwood": "9", "opponent_deadwood": "10"}


def pct(values: list[float], p: float):
    return round(1000 * sorted(values)[min(len(values) - 1, int(p * len(values)))], 1) if values else None


async def setting(port: int, pids: list[int], followers: int, saves: int, every: float) -> dict:
    http = Http(port)
    table = await new_table(http)
    table.hello, table.seen = [], {}
    done = asyncio.Event()
    tasks = []
    for n in range(followers):
        tasks.append(asyncio.create_task(hold_once(port, table, follow(table), done, http.cookie,
                                                   loopback(n // PER_ADDRESS))))
        if n % 250 == 249:
            await asyncio.sleep(0.2)
    deadline = time.monotonic() + 90
    while sum(table.hello) < followers and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    hello = sum(table.hello)
    await asyncio.sleep(2)
    cpu, start = cpu_seconds(pids), time.monotonic()
    for n in range(saves):
        await asyncio.sleep(max(0.0, start + n * every - time.monotonic()))
        await save(http, table, SMALL_HAND)
    await asyncio.sleep(3)  # the last save reaches its followers
    used = cpu_seconds(pids) - cpu
    done.set()
    for task in tasks:
        task.cancel()
    answers = [answered - sent for sent, answered in table.sent.values()]
    reached, passed_over, missing = [], 0, 0
    for tag, (sent, _answered) in table.sent.items():
        for seen in table.seen.values():
            if tag in seen:
                reached.append(seen[tag] - sent)
            elif any(version(shown) > version(tag) for shown in seen):
                passed_over += 1  # two saves before the stream looked: it sent the later one only
            else:
                missing += 1
    return {"followers": followers, "said hello": hello, "saved": len(table.sent),
            "save p50/p95/max ms": (pct(answers, 0.5), pct(answers, 0.95), pct(answers, 1.0)),
            "server cpu ms a save": round(1000 * used / max(1, len(table.sent)), 1),
            "followers got it p50/p95 ms": (pct(reached, 0.5), pct(reached, 0.95)),
            "passed over": passed_over, "missing": missing}


def fresh_postgresql(url: str, name: str, drop: bool = False) -> str:
    """A new database `name` on the server of `url` (its address), or that database dropped."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if not drop:
            conn.execute(f"CREATE DATABASE {name}")
    return re.sub(r"/[^/]*$", f"/{name}", url)


def measured(engine: str, followers: int, options) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="gin-followers-"))
    name = f"bench_h47_{os.getpid()}_{followers}"
    database = (str(folder / "ledger.sqlite") if engine == "sqlite"
                else fresh_postgresql(options.postgresql, name))
    server, port = club_server(database, options.workers)
    try:
        return asyncio.run(setting(port, family(server.pid), followers, options.saves, options.every))
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
        if engine == "postgresql":
            fresh_postgresql(options.postgresql, name, drop=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--followers", default="0,1000,2000")
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--every", type=float, default=0.3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--engines", default="sqlite,postgresql")
    parser.add_argument("--postgresql", default=os.environ.get("GIN_LEDGER_BENCH_POSTGRESQL", PG_DEFAULT))
    options = parser.parse_args(argv)
    files_limit()
    print("load before:", Path("/proc/loadavg").read_text().strip(), "cores:", os.cpu_count(), flush=True)
    rows = []
    for engine in options.engines.split(","):
        for followers in [int(n) for n in options.followers.split(",")]:
            rows.append((engine, measured(engine, followers, options)))
            print(engine, rows[-1][1], flush=True)
    print("\n| engine | followers | said hello | saved | save p50 / p95 / max | server CPU a save | "
          "followers got it p50 / p95 (from the POST) | passed over / missing |\n|---|---|---|---|---|---|---|---|")
    for engine, r in rows:
        p50, p95, top = r["save p50/p95/max ms"]
        g50, g95 = r["followers got it p50/p95 ms"]
        print(f"| {engine} | {r['followers']:,} | {r['said hello']:,} | {r['saved']} | {p50} / {p95} / {top} ms | "
              f"{r['server cpu ms a save']} ms | {'' if g50 is None else f'{g50} / {g95} ms'} | "
              f"{r['passed over']} / {r['missing']} |")
    print("load after:", Path("/proc/loadavg").read_text().strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
