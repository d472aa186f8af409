"""Saves while phones ask for more streams than the worker has connections (issue 47, the reserve).

    python bench/reserve_saves.py [--connections 5000] [--phones 5500] [--saves 40] [--every 2] [--arrive 60]

The README's club command (bench/streams.py `club_server`: gunicorn, gevent, `-c gunicorn.conf.py`) with ONE
worker of `--worker-connections connections` on a new SQLite file, FLASK_STREAMS_MAX above the phones (so only
the connections bound the streams). `phones / 2` matches are made, then the phones arrive over `arrive`
seconds, each from its own loopback address, as bench/phones_at_once.py's phones do: the match page, its
stylesheet and script, then the held stream, or, refused (503) or silent, a poll of the live region every
2.5 s on its kept connection. Meanwhile, from the start of the arrivals, one more phone saves `saves` hands of
its own match, one every `every` seconds, each on a new connection (the server closes a kept one after
2 s), timed from its connecting to its answer (None: no answer in 20 s).
Reported: the saves' p50/p95/max, the streams held, the phones polling and their polls answered, and the
phones that got no page.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from follower_saves import SMALL_HAND, pct  # noqa: E402
from held_memory import files_limit  # noqa: E402
from phones_at_once import one_phone, seated  # noqa: E402
from streams import Http, club_server, new_table, save, stop  # noqa: E402

SAVE_WITHIN_S = 20  # the saves failed after waiting this long


async def saves(port: int, count: int, every: float, start: float) -> list[float | None]:
    http = Http(port)
    table = await new_table(http)
    times: list[float | None] = []
    for n in range(count):
        await asyncio.sleep(max(0.0, start + n * every - time.monotonic()))
        http.writer = None  # a connection of its own, as a phone's whose last one the server closed
        began, saved = time.monotonic(), len(table.sent)
        try:
            await asyncio.wait_for(save(http, table, SMALL_HAND), SAVE_WITHIN_S)
            times.append(time.monotonic() - began if len(table.sent) > saved else None)
            http.writer.close()
        except (asyncio.TimeoutError, OSError, asyncio.IncompleteReadError):
            http.writer = None
            times.append(None)
    return times


async def room(port: int, phones: int, count: int, every: float, arrive: float) -> dict:
    room = await seated(port, phones, False)
    done = asyncio.Event()
    start = time.monotonic()
    saving = asyncio.create_task(saves(port, count, every, start))
    tasks = []
    for n, phone in enumerate(room):
        await asyncio.sleep(max(0.0, start + arrive * n / phones - time.monotonic()))
        tasks.append(asyncio.create_task(one_phone(port, phone, start, 60, done, False)))
    times = await saving
    done.set()
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    answered = [t for t in times if t is not None]
    return {"phones": phones, "saves": len(times), "saves answered": len(answered),
            "save p50/p95/max ms": (pct(answered, 0.5), pct(answered, 0.95), pct(answered, 1.0)),
            "streams held": sum(p.streamed for p in room),
            "polling": sum(1 for p in room if not p.streamed and p.polls),
            "polls asked/answered": (sum(p.polls for p in room), sum(p.answered_polls for p in room)),
            "no page": sum(1 for p in room if p.status != 200)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=5000)
    parser.add_argument("--phones", type=int, default=5500)
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--arrive", type=float, default=60.0, help="seconds over which the phones arrive")
    options = parser.parse_args(argv)
    soft, hard = files_limit()
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}, cores: {os.cpu_count()}, "
          f"RLIMIT_NOFILE {soft} raised to {hard}", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="gin-reserve-"))
    server, port = club_server(str(folder / "ledger.sqlite"), 1, connections=options.connections,
                               FLASK_STREAMS_MAX=str(options.phones + 1000))
    try:
        result = asyncio.run(room(port, options.phones, options.saves, options.every, options.arrive))
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    print({"connections": options.connections, **result})
    print("load after:", Path("/proc/loadavg").read_text().strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
