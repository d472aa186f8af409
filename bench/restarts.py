"""What a PostgreSQL restart costs the phones: `python bench/restarts.py [--restarts 10] [--every 4]
[--pool 2] [--processes 1] [--phones 4]`.

A throwaway cluster of its own (tests/test_database_restarts.py's `Cluster`) is restarted at once
(`pg_ctl restart -m immediate`) every `--every` seconds while phones save hands and a reader reads the
match page through waitress (4 threads a process, `FLASK_DATABASE_POOL_SIZE=--pool`). It prints one
Markdown row: saves acknowledged, answers by status, answers whose words were wrong (a 500, "nothing
was saved" for a stored hand, a read that says "nothing was saved"), hands lost or doubled, and how
long after the last restart the app served a save again. The rows in BENCHMARKS.md ("A database that
restarts") come from it.
"""
from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from server import Server  # noqa: E402
from test_database_restarts import (NOT_KNOWN, NOT_SAVED, READ_FAILED, SAVED_BUT, TARGET, Cluster, Phone,  # noqa: E402
                                    said, stored_hands)


def wrong_words(answers, stored: Counter) -> int:
    wrong = 0
    for hand, status, words in answers:
        if status == 500:
            wrong += 1
        elif hand is None:
            wrong += status != 200 and not (status == 503 and READ_FAILED in words)
        elif status in (302, 303) or (status == 503 and SAVED_BUT in words):
            wrong += hand not in stored
        elif status == 503 and NOT_SAVED in words:
            wrong += hand in stored
        else:
            wrong += not (status == 503 and NOT_KNOWN in words)
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=10)
    parser.add_argument("--every", type=float, default=4.0, help="seconds between restarts")
    parser.add_argument("--pool", type=int, default=2, help="FLASK_DATABASE_POOL_SIZE")
    parser.add_argument("--processes", type=int, default=1, help="waitress processes on the one database")
    parser.add_argument("--phones", type=int, default=4, help="phones saving (a reader reads beside them)")
    args = parser.parse_args(argv)
    cluster = Cluster()
    cluster.start()
    logs = Path(tempfile.mkdtemp(prefix="gin-ledger-restarts-bench-"))
    servers = []
    try:
        for number in range(args.processes):
            (logs / str(number)).mkdir()
            servers.append(Server(cluster.url, threads=4, log_dir=logs / str(number),
                                  env={"FLASK_DATABASE_POOL_SIZE": str(args.pool)}).start())
        matches = [servers[0].client().import_match(TARGET) for _ in range((args.phones + 1) // 2)]
        match_id = matches[0]
        phones = [Phone(servers[n % len(servers)].client(), matches[n // 2], ("Ana", "Ben")[n % 2])
                  for n in range(args.phones)]
        phones.append(Phone(servers[-1].client(), match_id, "", reader=True))
        for phone in phones:
            phone.start()
        for _restart in range(args.restarts):
            time.sleep(args.every)
            cluster.restart()
        restarted = time.monotonic()
        check_match = servers[0].client().import_match(TARGET)
        check = Phone(servers[0].client(), check_match, "Ben")
        while True:  # the first save answered after the last restart
            answer = check.client.post(f"/matches/{check_match}/hands", {
                "csrf_token": check.token, "form_id": secrets.token_urlsafe(12), "winner": "Ben",
                "points": "1", "confirmed": "yes"})
            if answer.status == 302:
                break
            if time.monotonic() - restarted > 60:
                print(f"no save answered 60 s after the last restart: {answer.status} {said(answer.body)[:200]}")
                return 1
            time.sleep(0.1)
        back = time.monotonic() - restarted
        time.sleep(args.every)
        for phone in phones:
            phone.stopping.set()
            phone.join(timeout=120)
        stored = stored_hands(servers[0].client(), matches)
    finally:
        for server in servers:
            server.stop()
        cluster.stop()
    answers = [answer for phone in phones for answer in phone.answers]
    statuses = Counter(status for _hand, status, _words in answers)
    acked = [hand for hand, status, _words in answers if hand is not None and status in (302, 303)]
    lost = sum(1 for hand in acked if hand not in stored)
    doubled = sum(1 for n in stored.values() if n > 1)
    print("| restarts | processes × pool | phones | saves acknowledged | answers | wrong words | lost | doubled "
          "| a save answered after the last restart |")
    print("|---:|---|---:|---:|---|---:|---:|---:|---:|")
    print(f"| {args.restarts} every {args.every:g} s | {args.processes} × {args.pool} | {args.phones} + a reader "
          f"| {len(acked):,} | {', '.join(f'{k}: {v:,}' for k, v in sorted(statuses.items()))} "
          f"| {wrong_words(answers, stored)} | {lost} | {doubled} | {back:.2f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
