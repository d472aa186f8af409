"""SQLite and PostgreSQL side by side (issue 26): hands and page GETs per second, one and two processes.

Hands per second with 4 and 16 clients against one and two app processes on one database, page GETs
with 16 clients, and the one write lock: how long a hand holds it, and the ceiling that sets.

    python bench/engines_bench.py --start-postgresql   # a throwaway cluster of its own (fsync on), stopped at the end
    python bench/engines_bench.py --postgresql URL     # a server of yours: a fresh schema per run, dropped after
    python bench/engines_bench.py                      # SQLite rows only (PostgreSQL skipped, saying why)
    python bench/engines_bench.py --smoke              # seconds, not for reading; writes nothing (CI)

GIN_LEDGER_BENCH_POSTGRESQL=URL stands for --postgresql URL. A URL needs a role that may create a schema.

What runs: for each engine, one database (a new SQLite file in a temporary folder; a new schema on the
PostgreSQL server, named first on the search path of the app's URL, as tests/postgres.py `with_schema`)
served by one waitress process, and another database served by two (tests/server.py `Server`, 4 threads
each as bench/run.py, started one after the other: the first migrates, the second finds it current).
PostgreSQL runs twice: as the server is configured, and with the app's sessions at synchronous_commit
off (in the URL's options), which answers a commit before its WAL is on the disk, as the app's SQLite
commits are (models/storage/flusher.py). All the processes stay up together, idle but for the level being
measured, and every round measures every cell in turn, so a busy moment of a shared machine hits every
cell alike; a cell's number is the median of its rounds.

- **Hands**: bench/loads.py `hand_level`, the same load as run.py's "Two processes on one file": each
  client a table on its own match (POST, redirect, sheet GET; a Rematch when a match ends), client i on
  process i mod n; a 5xx is counted and the table goes on. Cores delivered are probed around each level.
  Meanwhile `LockSampler` looks every 10 ms whether the app's one write lock is taken (pg_locks; on
  SQLite a `BEGIN IMMEDIATE` that waits for nothing): hands per second over that share is the rate at
  which the lock would be full, a ceiling no number of app processes lifts. On a cluster started here
  the PostgreSQL processes' CPU is read too.
- **GETs**: a typical match's page (12 hands), 16 clients on keep-alive connections spread the same way:
  what more processes buy when the work is reads.
- **The lock**: 4 connections, each a loop of the app's write transaction with nothing in it but one
  row (`BEGIN IMMEDIATE` on SQLite at synchronous NORMAL, as a request's connection; `BEGIN` and
  `pg_advisory_xact_lock` on PostgreSQL, another key than the app's; `INSERT`, `COMMIT`): the lock and
  the commit alone. Then one table alone on 1 process, the lock looked at every 2 ms: how long a hand
  holds it when nothing else runs. On a cluster started here, pg_waldump counts the COMMIT records and
  WAL bytes of 30 hands entered one after another.

A cluster started here is initdb'd in a temporary folder (as the `postgres` user when run as root;
PostgreSQL refuses to run as root), listens on a free loopback port and a socket in that folder, keeps
PostgreSQL's defaults (fsync on, synchronous_commit on: every commit flushed, the honest number), and
is stopped and removed at exit, on Ctrl-C and on SIGTERM (a SIGKILL leaves it running: `pg_ctl -D
FOLDER/data stop`). Not given a server and unable to start one, the PostgreSQL rows are skipped with
the reason, and the SQLite rows still run.

The section "SQLite and PostgreSQL (issue 26)" is printed, and written into BENCHMARKS.md (replaced if
there, else put before the first section) unless --no-write or --smoke; --out writes it to a file instead.
"""
from __future__ import annotations

import argparse
import contextlib
import glob
import itertools
import os
import platform
import pwd
import random
import secrets
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import loads  # noqa: E402
from tests.server import Client, Server, free_port  # noqa: E402

SECTION = "## SQLite and PostgreSQL (issue 26)"
VARIABLE = "GIN_LEDGER_BENCH_POSTGRESQL"
THREADS = 4  # per waitress process, as bench/run.py
HAND_CLIENTS = (4, 16)
GET_CLIENTS = 16
PROCESSES = (1, 2)
LOCK_CONNECTIONS = 4
LOCK_KEY = 0x62656E63  # "benc": not the app's WRITE_LOCK, so the probe never waits on the app
FULL = {"rounds": 5, "hands_s": 3.0, "gets_s": 2.0, "lock_s": 2.0, "waldump_hands": 30}
SMOKE = {"rounds": 1, "hands_s": 0.3, "gets_s": 0.3, "lock_s": 0.2, "waldump_hands": 3}
SQLITE, POSTGRESQL = "SQLite", "PostgreSQL"
# PostgreSQL as the app's SQLite commits: answered before the WAL is on the disk, which its WAL writer
# flushes within 3 x wal_writer_delay (200 ms); a host may choose it with ALTER ROLE ... SET synchronous_commit = off.
PG_ASYNC = "PostgreSQL, synchronous_commit off"
SETTINGS = {PG_ASYNC: {"synchronous_commit": "off"}}


def log(message: str) -> None:
    print(f"[engines {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ---- a throwaway PostgreSQL cluster ----------------------------------------------------------

def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian's /usr/lib/postgresql/N/bin), or initdb on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Cluster:
    """initdb, pg_ctl start on loopback, and at the end pg_ctl stop and the folder removed."""

    def __init__(self):
        self.bin = postgres_bin()
        if self.bin is None:
            raise RuntimeError("no PostgreSQL installed (no initdb; Debian: apt-get install postgresql)")
        self.folder = Path(tempfile.mkdtemp(prefix="gin-ledger-bench-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.user = None  # run the server as this user (root may not)
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("run as root and no postgres user to run PostgreSQL as") from None
            self.user = "postgres"
            shutil.chown(self.folder, "postgres")
        self.started = False

    def run(self, *args: str) -> None:
        command = [str(arg) for arg in args]
        if self.user:
            command = ["su", self.user, "-s", "/bin/sh", "-c", " ".join(f"'{part}'" for part in command)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{Path(args[0]).name} failed: {(done.stderr or done.stdout).strip()[-800:]}")

    def start(self) -> "Cluster":
        self.run(self.bin / "initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8")
        options = f"-k {self.folder} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on"
        self.run(self.bin / "pg_ctl", "-D", self.data, "-l", self.folder / "server.log", "-w", "-t", "60",
                 "-o", options, "start")
        self.started = True
        return self

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def postmaster(self) -> int | None:
        with contextlib.suppress(OSError, ValueError):
            return int((self.data / "postmaster.pid").read_text().split()[0])
        return None

    def stop(self) -> None:
        if self.started:
            with contextlib.suppress(Exception):
                self.run(self.bin / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
            self.started = False
        shutil.rmtree(self.folder, ignore_errors=True)


def postgres_processes(root: int) -> list[int]:
    """The postmaster and its children (the backends, one per session, and the helpers)."""
    with contextlib.suppress(OSError):
        return [root, *map(int, Path(f"/proc/{root}/task/{root}/children").read_text().split())]
    found = [root]
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError):
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == root:
                found.append(int(entry.name))
    return found


def tree_cpu(root: int | None) -> float:
    """CPU seconds (user + system) of the PostgreSQL processes now running; 0 without a cluster of our own."""
    if not root:
        return 0.0
    ticks = 0
    for pid in postgres_processes(root):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def commits_per_hand(cluster: Cluster, server: Server, hands: int) -> dict | None:
    """One table enters `hands` hands one after another; pg_waldump counts the COMMIT records written
    meanwhile (each one a flush of the WAL, under the write lock when it is a write) and the WAL bytes."""
    import psycopg

    def lsn() -> str:
        with psycopg.connect(cluster.url, autocommit=True) as conn:
            return conn.execute("SELECT pg_current_wal_insert_lsn()").fetchone()[0]

    rng, table = random.Random(7), loads.Table(server)
    table.enter(loads.random_hand(rng))
    first = lsn()
    for _ in range(hands):
        table.enter(loads.random_hand(rng))
    last = lsn()
    command = [str(cluster.bin / "pg_waldump"), "--stats=record", "-p", str(cluster.data / "pg_wal"), "-s", first,
               "-e", last]
    if cluster.user:
        command = ["su", cluster.user, "-s", "/bin/sh", "-c", " ".join(f"'{part}'" for part in command)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    commits = next((int(line.split()[1]) for line in done.stdout.splitlines()
                    if line.strip().startswith("Transaction/COMMIT ")), None)
    if commits is None:
        log(f"pg_waldump gave no count: {(done.stderr or done.stdout)[-300:]}")
        return None
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        size = conn.execute("SELECT pg_wal_lsn_diff(%s, %s)", (last, first)).fetchone()[0]
    return {"hands": hands, "commits": commits / hands, "wal_bytes": float(size) / hands}


# ---- the databases ---------------------------------------------------------------------------

def schema_url(url: str, schema: str, settings: dict[str, str]) -> str:
    """The same database with `schema` first on the search path (as tests/postgres.py `with_schema`: every
    table the app makes is there), and the session settings, in libpq's `options`."""
    parts = urlsplit(url)
    options = " ".join(f"-c {name}={value}" for name, value in {"search_path": schema, **settings}.items())
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "options"] + [("options", options)]
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


class Database:
    """One fresh database: a SQLite file, or a schema on the PostgreSQL server (with SETTINGS[label])."""

    def __init__(self, label: str, folder: Path, server_url: str | None = None):
        self.label, self.folder, self.server_url = label, folder, server_url
        if label == SQLITE:
            self.address = str(folder / "bench.sqlite")
        else:
            import psycopg

            self.schema = "bench_" + secrets.token_hex(5)
            with psycopg.connect(server_url, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'CREATE SCHEMA "{self.schema}"')
            self.address = schema_url(server_url, self.schema, SETTINGS.get(label, {}))

    def drop(self) -> None:
        if self.label != SQLITE:
            import psycopg

            with contextlib.suppress(Exception), psycopg.connect(self.server_url, autocommit=True,
                                                                 connect_timeout=5) as conn:
                conn.execute(f'DROP SCHEMA "{self.schema}" CASCADE')


def start_servers(database: Database, processes: int, stack: contextlib.ExitStack) -> tuple[Server, ...]:
    servers = []
    for number in range(1, processes + 1):
        logs = database.folder / f"process-{number}"
        logs.mkdir()
        servers.append(stack.enter_context(Server(database.address, threads=THREADS, log_dir=logs)))
    return tuple(servers)


# ---- the measures ----------------------------------------------------------------------------

def get_level(servers: tuple[Server, ...], path: str, clients: int, seconds: float) -> dict:
    """Page GETs per second, client i on servers[i % n], each on its own keep-alive connection."""
    spread = itertools.count()

    def setup():
        phone = loads.Phone(servers[next(spread) % len(servers)])
        if phone.send(path).status != 200:
            raise RuntimeError(f"{path} did not answer 200")
        return phone

    def work(phone):
        reply = phone.send(path)
        if reply.status != 200:
            raise RuntimeError(f"{path} answered {reply.status}")
        return loads.ms(reply.seconds)

    return loads.loaded(servers, clients, seconds, setup, work)


def lock_ceiling(database: Database, seconds: float, connections: int = LOCK_CONNECTIONS) -> dict:
    """Minimal write transactions per second through the engine's one write lock, `connections` at once."""
    if database.label == SQLITE:
        path = str(database.folder / "lock.sqlite")
        setup = sqlite3.connect(path, isolation_level=None)
        setup.execute("PRAGMA journal_mode = WAL")
        setup.execute("CREATE TABLE probe (id INTEGER PRIMARY KEY, at REAL)")
        setup.close()

        def connect():
            conn = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
            conn.execute("PRAGMA synchronous = NORMAL")
            return conn

        def write(conn):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO probe (at) VALUES (?)", (time.time(),))
            conn.execute("COMMIT")
    else:
        import psycopg

        with psycopg.connect(database.address, autocommit=True) as conn:
            conn.execute("CREATE TABLE probe (id BIGSERIAL PRIMARY KEY, at DOUBLE PRECISION)")

        def connect():
            return psycopg.connect(database.address, autocommit=True)

        def write(conn):
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
                conn.execute("INSERT INTO probe (at) VALUES (%s)", (time.time(),))

    conns = [connect() for _ in range(connections)]
    pool = iter(conns)
    lock = threading.Lock()

    def take():
        with lock:
            return next(pool)

    def work(conn):
        start = time.perf_counter()
        write(conn)
        return loads.ms(time.perf_counter() - start)

    try:
        latencies, elapsed = loads.run_clients(connections, seconds, take, work)
    finally:
        for conn in conns:
            conn.close()
    return {"per_second": len(latencies) / elapsed, **loads.stats(latencies)}


class LockSampler(threading.Thread):
    """How much of a level the app's write lock was held: a look every INTERVAL from a connection of its own.

    PostgreSQL: pg_locks, the advisory lock of models/storage/connection.py `begin_write` on this schema, granted
    (held) and not (waiting). SQLite: a `BEGIN IMMEDIATE` that waits for nothing (busy timeout 0) and is
    rolled back at once; refused means held. (That look takes the lock for some microseconds itself.)"""

    INTERVAL = 0.01
    ALONE = 0.002  # one table alone holds the lock a few percent of the time: look more often

    def __init__(self, database: "Database", seconds: float, interval: float = INTERVAL):
        super().__init__(daemon=True)
        self.database, self.seconds, self.interval, self.looks = database, seconds, interval, []

    def run(self) -> None:
        if self.database.label == SQLITE:
            conn = sqlite3.connect(self.database.address, timeout=0, isolation_level=None)

            def look() -> tuple[int, int]:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError:
                    return 1, 0
                conn.execute("ROLLBACK")
                return 0, 0
        else:
            import psycopg

            from models.storage.postgres import WRITE_LOCK

            conn = psycopg.connect(self.database.server_url, autocommit=True)
            query = ("SELECT count(*) FILTER (WHERE granted), count(*) FILTER (WHERE NOT granted) FROM pg_locks"
                     " WHERE locktype = 'advisory' AND classid = %s AND objsubid = 2"
                     " AND objid::bigint = (hashtext(%s)::bigint & 4294967295)")

            def look() -> tuple[int, int]:
                return tuple(conn.execute(query, (WRITE_LOCK, self.database.schema)).fetchone())
        try:
            end = time.perf_counter() + self.seconds
            while time.perf_counter() < end:
                self.looks.append(look())
                time.sleep(self.interval)
        finally:
            conn.close()

    def result(self) -> dict:
        self.join()
        n = max(1, len(self.looks))
        return {"held": sum(min(1, held) for held, _ in self.looks) / n,
                "waiting": sum(waiting for _, waiting in self.looks) / n, "looks": len(self.looks)}


# ---- the run ---------------------------------------------------------------------------------

def measure(cfg: dict, postgresql: str | None, cluster: Cluster | None) -> dict:
    engines = [SQLITE] + ([POSTGRESQL, PG_ASYNC] if postgresql else [])
    cells = [(engine, processes) for engine in engines for processes in PROCESSES]
    hands = {(e, p, c): [] for e, p in cells for c in HAND_CLIENTS}
    gets = {(e, p): [] for e, p in cells}
    commits = None
    with tempfile.TemporaryDirectory(prefix="gin-ledger-engines-") as folder, contextlib.ExitStack() as stack:
        running: dict[tuple[str, int], tuple[tuple[Server, ...], str, Database]] = {}
        for number, (engine, processes) in enumerate(cells, 1):
            sub = Path(folder) / f"database-{number}"
            sub.mkdir()
            database = Database(engine, sub, postgresql)
            stack.callback(database.drop)
            log(f"starting {processes} process(es) on {engine}")
            servers = start_servers(database, processes, stack)
            match = Client(servers[0].base).import_match(loads.match_doc(loads.typical_match()[:-1]))
            running[engine, processes] = (servers, f"/matches/{match}", database)
        root = cluster.postmaster() if cluster else None
        for number in range(1, cfg["rounds"] + 1):
            for engine, processes in cells:
                servers, path, database = running[engine, processes]
                for clients in HAND_CLIENTS:
                    log(f"round {number}: {engine}, {processes} process(es), {clients} clients entering hands")
                    at_start, sampler = {}, LockSampler(database, cfg["hands_s"])

                    def started(sampler=sampler, at_start=at_start, engine=engine):
                        sampler.start()
                        if engine != SQLITE and root:
                            at_start.update(cpu=tree_cpu(root))

                    row = loads.hand_level(servers, clients, cfg["hands_s"], started)
                    row["lock"] = sampler.result()
                    if at_start:  # the cores probe after the level leaves PostgreSQL idle
                        row["db_cpu"] = (tree_cpu(root) - at_start["cpu"]) / row["seconds"]
                    hands[engine, processes, clients].append(row)
                log(f"round {number}: {engine}, {processes} process(es), {GET_CLIENTS} clients reading a page")
                gets[engine, processes].append(get_level(servers, path, GET_CLIENTS, cfg["gets_s"]))
        lock = {}
        for label in engines:
            servers, _, database = running[label, 1]
            log(f"the write lock on {label}: one table alone, then empty write transactions")
            sampler = LockSampler(database, cfg["hands_s"], LockSampler.ALONE)
            alone = loads.hand_level(servers, 1, cfg["hands_s"], sampler.start)
            looks = sampler.result()
            lock[label] = {**lock_ceiling(database, cfg["lock_s"]), "alone": alone["per_second"],
                           "hold_ms": 1000 * looks["held"] / max(alone["per_second"], 1e-9), "held": looks["held"],
                           "looks": looks["looks"]}
        if cluster:
            log("commits per hand (pg_waldump)")
            commits = commits_per_hand(cluster, running[POSTGRESQL, 1][0][0], cfg["waldump_hands"])
    return {"hands": hands, "gets": gets, "lock": lock, "engines": engines, "commits": commits}


def each(rows: list[dict]) -> str:
    return ", ".join(f"{row['per_second']:.0f}" for row in rows)


def lock_full(row: dict) -> str:
    """1 / the hold per hand; a lock never seen held is full beyond hands per second x looks."""
    if row["held"]:
        return f"{1000 / row['hold_ms']:,.0f}"
    return f"over {row['alone'] * max(1, row['looks']):,.0f}"


def held(rows: list[dict]) -> float:
    """The share of the level the write lock was held, the median of the rounds."""
    return statistics.median(row["lock"]["held"] for row in rows)


def full_at(rows: list[dict]) -> float:
    """Hands per second at which the lock would be held all the time, at this cell's cost per hand."""
    return statistics.median(row["per_second"] / max(row["lock"]["held"], 1e-3) for row in rows)


def median_of(rows: list[dict], key: str) -> float:
    return statistics.median(row[key] for row in rows)


def versions(postgresql: str | None) -> dict:
    out = {"python": platform.python_version(), "sqlite": sqlite3.sqlite_version}
    if postgresql:
        import psycopg

        with contextlib.suppress(psycopg.Error), psycopg.connect(postgresql, autocommit=True, connect_timeout=5) as c:
            out["postgresql"] = c.execute("SHOW server_version").fetchone()[0]
            out["fsync"] = c.execute("SHOW fsync").fetchone()[0]
            out["synchronous_commit"] = c.execute("SHOW synchronous_commit").fetchone()[0]
            out["max_connections"] = int(c.execute("SHOW max_connections").fetchone()[0])
    return out


def uptime() -> str:
    done = subprocess.run(["uptime"], capture_output=True, text=True)
    return done.stdout.strip() or "load average " + " / ".join(f"{x:.2f}" for x in os.getloadavg())


def code_state() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout

    head = git("rev-parse", "--short", "HEAD").strip() or "an unknown commit"
    dirty = [line[3:] for line in git("status", "--porcelain", "--untracked-files=no").splitlines()
             if line[3:] != "BENCHMARKS.md"]
    return head + (" plus uncommitted changes" if dirty else "")


def section(result: dict, cfg: dict, how: dict, smoke: bool) -> str:
    v, hands, gets, lock = how["versions"], result["hands"], result["gets"], result["lock"]
    rounds = cfg["rounds"]
    if POSTGRESQL in result["engines"]:
        durable = ("every commit is flushed to the disk before it is answered"
                   if v.get("fsync") == "on" and v.get("synchronous_commit") == "on"
                   else "**commits are not all flushed to the disk: not the numbers of a durable server**")
        pg = (f"PostgreSQL {v.get('postgresql', '?')} ({how['postgresql']}; fsync {v.get('fsync', '?')}, "
              f"synchronous_commit {v.get('synchronous_commit', '?')}: {durable}), "
              f"a fresh schema per database; and \"{PG_ASYNC}\": the same server, the app's sessions set to answer "
              f"a commit before its WAL is on the disk (libpq options in the URL), as the app's SQLite commits are")
    else:
        pg = f"PostgreSQL not measured: {how['skipped']}"
    lines = [
        SECTION, "",
        f"`python bench/engines_bench.py{how['args']}` on {how['started']:%Y-%m-%d} ({how['started']:%H:%M} UTC, "
        f"at {how['code']}){' (smoke: not for reading)' if smoke else ''}; {os.cpu_count()} cores shared with other "
        f"work. `uptime` before: `{how['uptime_before']}`; after: `{how['uptime_after']}`. SQLite {v['sqlite']} "
        f"(WAL; a request commits with synchronous NORMAL and the app's flusher fsyncs the log within 20 ms); {pg}; "
        f"Python {v['python']}, waitress with {THREADS} threads per process, all on one machine. Each engine: one "
        f"database served by 1 process and another by 2, all up together; {rounds} round{'s' * (rounds > 1)}, each "
        f"measuring every cell in turn ({cfg['hands_s']:g} s per hand level, {cfg['gets_s']:g} s per GET level); a "
        f"number is the median of its rounds, \"each round\" shows them all. Hands: bench/loads.py `hand_level` "
        f"(POST, redirect, sheet GET, each client a table on its own match, client i on process i mod n). Server "
        f"CPU: the waitress processes', as a share of one core; PostgreSQL's own processes beside it where the "
        f"cluster was started here. Write lock held: the share of looks (one every {LockSampler.INTERVAL * 1000:g} ms "
        f"from a connection of the bench's own) that found the app's one write lock taken; lock full at: hands per "
        f"second divided by that share, the rate at which the lock would be taken all the time at that cell's cost per "
        f"hand: on SQLite the ceiling no number of app processes lifts. On PostgreSQL a write of one match's hands "
        f"takes that lock shared and locks its match's row, so it waits only for writes of the same match and for "
        f"writes that take the lock whole (models/storage/connection.py `begin_write`): there \"held\" is the share of looks "
        f"that found a write going on, and \"full at\" is no ceiling.",
        "",
        "| engine | processes | clients | hands per second | each round | median ms | p95 ms | POST median ms "
        "| server CPU | PostgreSQL CPU | write lock held | lock full at, hands/s | cores delivered (lowest) | 5xx |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|",  # PostgreSQL CPU: "-" where not read
    ]
    for (engine, processes, clients), rows in hands.items():
        db_cpu = [row["db_cpu"] for row in rows if "db_cpu" in row]
        lines.append(
            f"| {engine} | {processes} | {clients} | **{median_of(rows, 'per_second'):.1f}** | "
            f"{each(rows)} | {median_of(rows, 'median'):.1f} | "
            f"{median_of(rows, 'p95'):.1f} | {statistics.median(row['post']['median'] for row in rows):.1f} | "
            f"{median_of(rows, 'cpu_share') * 100:.0f}% | "
            f"{f'{statistics.median(db_cpu) * 100:.0f}%' if db_cpu else '-'} | {held(rows) * 100:.0f}% | "
            f"{full_at(rows):,.0f} | "
            f"{min(min(row['cores']) for row in rows):.2f} | {sum(row['errors'] for row in rows)} |")
    lines += ["", f"Page GETs of a typical match (12 hands), {GET_CLIENTS} clients on keep-alive connections:", "",
              "| engine | processes | clients | GETs per second | each round | median ms | p95 ms | server CPU |",
              "|---|---:|---:|---:|---|---:|---:|---:|"]
    for (engine, processes), rows in gets.items():
        lines.append(
            f"| {engine} | {processes} | {GET_CLIENTS} | **{median_of(rows, 'per_second'):.0f}** | "
            f"{each(rows)} | {median_of(rows, 'median'):.1f} | "
            f"{median_of(rows, 'p95'):.1f} | {median_of(rows, 'cpu_share') * 100:.0f}% |")
    lines += ["", f"The one write lock: {LOCK_CONNECTIONS} connections in this process, each a loop of an empty "
              f"write transaction (take the lock, insert one row, commit), {cfg['lock_s']:g} s; then one table alone "
              f"entering hands on 1 process for {cfg['hands_s']:g} s, the lock looked at as above: the time a hand "
              f"holds it when nothing else runs, and the hands per second at which one lock would be full at that "
              f"hold (under load the holder also waits for a core and for its process's other threads, and holds it "
              f"longer: the tables above).", "",
              "| engine | the lock | empty write transactions per second | median ms | p95 ms "
              "| one table alone: hands per second | lock held | held per hand, ms | lock full at, hands/s |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    names = {SQLITE: "BEGIN IMMEDIATE, synchronous NORMAL", POSTGRESQL: "BEGIN; pg_advisory_xact_lock; fsync on",
             PG_ASYNC: "the same, synchronous_commit off"}
    for engine, row in lock.items():
        lines.append(f"| {engine} | {names[engine]} | {row['per_second']:,.0f} | {row['median']:.2f} | "
                     f"{row['p95']:.2f} | {row['alone']:.1f} | {row['held'] * 100:.1f}% | {row['hold_ms']:.2f} | "
                     f"**{lock_full(row)}** |")
    commits = result.get("commits")
    if commits:
        lines += ["", f"On PostgreSQL one table entering {commits['hands']} hands one after another (1 process) wrote "
                  f"{commits['commits']:.1f} COMMIT records and {commits['wal_bytes'] / 1024:.1f} KB of WAL per hand "
                  f"(pg_waldump between the two positions): each commit that wrote is flushed to the disk before "
                  f"its answer, while it holds the lock."]
    lines += ["", summary(result)]
    return "\n".join(lines) + "\n"


def summary(result: dict) -> str:
    """What the tables say, in numbers: two processes against one, each engine against the other, the lock."""
    hands, gets, lock = result["hands"], result["gets"], result["lock"]

    def h(engine, processes, clients):
        return median_of(hands[engine, processes, clients], "per_second")

    said = []
    for engine in result["engines"]:
        said.append(f"{engine}: with 16 clients two processes store {h(engine, 2, 16):.0f} hands a second against "
                    f"one's {h(engine, 1, 16):.0f} ({h(engine, 2, 16) / h(engine, 1, 16):.2f}x) and serve "
                    f"{median_of(gets[engine, 2], 'per_second'):.0f} page GETs against "
                    f"{median_of(gets[engine, 1], 'per_second'):.0f} "
                    f"({median_of(gets[engine, 2], 'per_second') / median_of(gets[engine, 1], 'per_second'):.2f}x); "
                    + (f"its write lock was held {held(hands[engine, 2, 16]) * 100:.0f}% of the time there (full at "
                       f"about {full_at(hands[engine, 2, 16]):,.0f} hands a second) and passes "
                       f"{lock[engine]['per_second']:.0f} empty write transactions a second." if engine == SQLITE else
                       f"a write was going on {held(hands[engine, 2, 16]) * 100:.0f}% of the time there (the tables' "
                       f"matches' writes side by side, each waiting only for its own match's)."))
    if POSTGRESQL in result["engines"]:
        best = max(h(POSTGRESQL, p, c) for p in PROCESSES for c in HAND_CLIENTS)
        fast = max(h(PG_ASYNC, p, c) for p in PROCESSES for c in HAND_CLIENTS)
        said.append(f"PostgreSQL's best cell stores {best:.0f} hands a second, {best / h(SQLITE, 1, 16):.2f}x "
                    f"SQLite's one process at 16 clients; at one hand per 90 s a table, that is about "
                    f"{best * 90:,.0f} tables entering hands at once ({fast:.0f} hands a second and {fast * 90:,.0f} "
                    f"tables with synchronous_commit off).")
    return " ".join(said)


def write_section(text: str, path: Path, heading: str = SECTION) -> None:
    """Replace the section under `heading` of BENCHMARKS.md, or put it before the first section (the newest first)."""
    doc = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    lines = doc.splitlines(keepends=True)
    heads = [i for i, line in enumerate(lines) if line.rstrip("\n") == heading]
    if heads:
        start = heads[0]
        stop = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    else:
        start = stop = next((i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    lines[start:stop] = [text, "\n"]
    path.write_text("".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--postgresql", metavar="URL", help=f"a PostgreSQL server to use (default: ${VARIABLE})")
    where.add_argument("--start-postgresql", action="store_true", help="start a throwaway cluster, stop it at the end")
    parser.add_argument("--smoke", action="store_true", help="seconds, not for reading; writes nothing unless --out")
    parser.add_argument("--rounds", type=int, help=f"rounds per cell (default {FULL['rounds']})")
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md as it is")
    parser.add_argument("--out", type=Path, help="write the section to this file instead of BENCHMARKS.md")
    options = parser.parse_args(argv)
    cfg = dict(SMOKE if options.smoke else FULL)
    if options.rounds:
        cfg["rounds"] = options.rounds
    # SIGTERM ends the run through its finally blocks (the cluster stopped, the schemas dropped); tests/server.py
    # stops the app servers first and then calls this.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))

    started, before = datetime.now(timezone.utc), uptime()
    cluster, postgresql, skipped = None, options.postgresql or os.environ.get(VARIABLE) or None, None
    how_pg = "the server given"
    try:
        if options.start_postgresql:
            try:
                cluster = Cluster()
                log(f"starting a throwaway PostgreSQL cluster in {cluster.folder}")
                cluster.start()
                postgresql, how_pg = cluster.url, "a throwaway cluster started by the bench, on loopback"
            except Exception as error:  # noqa: BLE001 - the SQLite rows still run, the report says why
                skipped = f"no cluster could be started ({error})"
                if cluster:
                    cluster.stop()
                cluster = None
        elif not postgresql:
            skipped = f"no server given (--start-postgresql, --postgresql URL or ${VARIABLE})"
        if skipped:
            log(f"PostgreSQL rows skipped: {skipped}")
        result = measure(cfg, postgresql, cluster)
        how = {"versions": versions(postgresql), "started": started, "uptime_before": before, "uptime_after": uptime(),
               "code": code_state(), "postgresql": how_pg, "skipped": skipped,
               "args": " --start-postgresql" if cluster else (" --postgresql URL" if postgresql else "")}
    finally:
        if cluster:
            log("stopping the PostgreSQL cluster")
            cluster.stop()
    text = section(result, cfg, how, options.smoke)
    print(text, end="")
    if options.out:
        options.out.write_text(text, encoding="utf-8")
        log(f"wrote {options.out}")
    elif not (options.no_write or options.smoke):
        write_section(text, ROOT / "BENCHMARKS.md")
        log(f"wrote {ROOT / 'BENCHMARKS.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
