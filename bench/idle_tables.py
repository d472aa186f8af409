"""What an idle table costs PostgreSQL between saves (issue 39: "an idle table costs the database nothing").

    python bench/idle_tables.py [--tables 100] [--seconds 60] [--workers 2]

A PostgreSQL cluster of its own (initdb as the postgres user, on a free loopback port, thrown away after), so
nothing else counts in its statistics; the README's club server (gunicorn, gevent workers) on it; `tables`
matches, each followed by two phones holding their event streams (bench/streams.py's client). Once every
stream said hello and the server has been quiet for a while, the database's own counters are read before
and after `seconds` with no save: the transactions committed (pg_stat_database.xact_commit, less this
bench's own readings), the tuples read, and the sessions the app holds, with what each is doing. Then one
save, to show the same counters move when something happens (so a zero is not a counter that never moves).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from streams import club_server, free_port, held_tables, save, stop  # noqa: E402

# PostgreSQL flushes a backend's statistics at most this long after its last transaction (PG 15's idle
# interval is 10 s), so a reading waits this long for everything before it to be counted.
STATS_SETTLE_S = 12
COUNTERS = """SELECT xact_commit, tup_returned + tup_fetched FROM pg_stat_database WHERE datname = current_database()"""
SESSIONS = """SELECT state, left(query, 40) FROM pg_stat_activity
              WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()"""


class Cluster:
    """A throwaway cluster as the postgres user (the tests' way: tests/test_database_restarts.py)."""

    def __init__(self):
        self.bin = Path(sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))[-1]).parent
        self.dir = Path(tempfile.mkdtemp(prefix="gin-idle-pg-"))
        shutil.chown(self.dir, "postgres")
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def as_postgres(self, command: str) -> None:
        subprocess.run(["su", "postgres", "-s", "/bin/sh", "-c", command], check=True, stdout=subprocess.DEVNULL)

    def start(self) -> "Cluster":
        data = self.dir / "data"
        self.as_postgres(f"'{self.bin}/initdb' -D '{data}' -A trust -U postgres -E UTF8")
        self.as_postgres(f"'{self.bin}/pg_ctl' -D '{data}' -l '{self.dir}/server.log' -w -t 60 -o \"-k '{self.dir}'"
                         f" -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off"
                         " -c autovacuum=off\" start")  # autovacuum's own transactions would count
        return self

    def stop(self) -> None:
        self.as_postgres(f"'{self.bin}/pg_ctl' -D '{self.dir / 'data'}' -m immediate stop")
        shutil.rmtree(self.dir, ignore_errors=True)


def counters(url: str) -> tuple[int, int]:
    """(transactions committed, tuples read) so far; this reading is one transaction of its own."""
    with psycopg.connect(url, autocommit=True) as conn:
        return tuple(conn.execute(COUNTERS).fetchone())


def sessions(url: str) -> list[tuple[str, str]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return [tuple(row) for row in conn.execute(SESSIONS).fetchall()]


async def measure(url: str, port: int, tables: int, seconds: float) -> dict:
    http, made, halt, holders = await held_tables(port, tables)
    hello = sum(sum(table.hello) for table in made)
    await asyncio.sleep(STATS_SETTLE_S)
    before = counters(url)
    await asyncio.sleep(seconds)
    held = sessions(url)
    await asyncio.sleep(STATS_SETTLE_S)
    after = counters(url)
    await save(http, made[0])  # one save: the counters move
    await asyncio.sleep(STATS_SETTLE_S)
    saved = counters(url)
    halt.set()
    for task in holders:
        task.cancel()
    readings = 2  # `sessions` and the second `counters` fall between before and after, each one transaction
    return {"tables": tables, "streams": 2 * tables, "said hello": hello, "idle seconds": seconds,
            "transactions while idle": after[0] - before[0] - readings,
            "tuples read while idle": after[1] - before[1],
            "transactions for one save": saved[0] - after[0] - 1,
            "sessions the app holds": len(held), "what they do": sorted(set(held))}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("run as root: the cluster is made and started as the postgres user (su postgres)")
        return 2
    print("load before:", Path("/proc/loadavg").read_text().strip())
    cluster = Cluster().start()
    try:
        server, port = club_server(cluster.url, options.workers, FLASK_STREAMS_PER_ADDRESS="100000")
        try:
            print(asyncio.run(measure(cluster.url, port, options.tables, options.seconds)), flush=True)
        finally:
            stop(server)
    finally:
        cluster.stop()
    print("load after:", Path("/proc/loadavg").read_text().strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
