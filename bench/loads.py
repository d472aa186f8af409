"""The HTTP parts: hand entry beside its limit, the sheet as a match grows, throughput; the engine alone.

The load goes through http.client on keep-alive connections, one thread per client, so
what is timed is the server and one loopback round trip: tests/server.py's Client (used
here to set matches up) opens a connection per request, which would time TCP set-up too.
"""
from __future__ import annotations

import http.client
import itertools
import json
import math
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from tests.generate import HIGH_TARGET, PLAYERS, long_match
from tests.server import FILES_ROUTE, Client, Server, hidden


def ms(seconds: float) -> float:
    return seconds * 1000


def stats(values: list[float]) -> dict:
    """Median and nearest-rank p95: the p95 is a time some request really took."""
    ordered = sorted(values)
    return {"n": len(ordered), "median": statistics.median(ordered), "min": ordered[0], "max": ordered[-1],
            "p95": ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]}


def server_cpu(*servers: Server) -> float:
    """User + system CPU seconds of the waitress processes, summed: their work, without the waits for a core."""
    total = 0
    for server in servers:
        fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def server_memory(server: Server) -> dict:
    """VmRSS (resident now) and VmHWM (the most ever resident) of the waitress process, in bytes."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{server.pid}/status").read_text().splitlines())
    return {key: int(fields[key].split()[0]) * 1024 for key in ("VmRSS", "VmHWM")}


@dataclass
class Reply:
    status: int
    location: str
    body: bytes
    seconds: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


class Phone:
    """One keep-alive connection and its session cookie (the CSRF token lives in it)."""

    def __init__(self, server: Server):
        self.port = server.port
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}

    def send(self, path: str, fields: dict | None = None, extra: dict | None = None) -> Reply:
        """GET, or POST a form when there are fields; timed from the request's first byte to the answer's last.
        `extra`: more headers (the page script's X-Requested-With)."""
        body = None if fields is None else urlencode(fields).encode()
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   **({} if body is None else {"Content-Type": "application/x-www-form-urlencoded"}), **(extra or {})}
        self.conn = self.conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        start = time.perf_counter()
        self.conn.request("GET" if body is None else "POST", path, body=body, headers=headers)
        answer = self.conn.getresponse()
        data = answer.read()
        seconds = time.perf_counter() - start
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie":
                key, _, val = value.split(";", 1)[0].partition("=")
                self.cookies[key.strip()] = val.strip()
        location = (answer.getheader("location") or "").split("#")[0].replace(f"http://127.0.0.1:{self.port}", "")
        return Reply(answer.status, location, data, seconds)


# ---- hands as a table enters them ------------------------------------------------

def random_hand(rng: random.Random) -> dict:
    """Mostly knocks (about one in eight an undercut), some gins, one big gin in a hundred, a few draws."""
    roll = rng.random()
    if roll < 0.03:
        return {"draw": True}
    knocker, defender = rng.choice(PLAYERS), round(rng.triangular(1, 40, 8))  # in that order: the seeds' matches
    hand = {"knocker": knocker, "knocker_deadwood": 0 if roll < 0.18 else rng.randint(1, 10),
            "opponent_deadwood": defender}
    if roll < 0.04:
        hand["big_gin"] = True
    return hand


def match_doc(hands: list[dict], target: int | None = None) -> dict:
    doc = {"format": "hollywood", "players": list(PLAYERS), "first_dealer": PLAYERS[0], "hands": hands}
    return {**doc, "rules": {"target": target}} if target else doc


def typical_match(seed: int = 2) -> list[dict]:
    """The hands of one whole Hollywood match to 100 under the classic rules."""
    from models.game.ledger import score_sheet
    from models.files.matchfile import match_from_document

    rng, hands = random.Random(seed), []
    while not hands or not score_sheet(match_from_document(match_doc(hands))).finished:
        hands.append(random_hand(rng))
    return hands


def form_fields(hand: dict) -> dict:
    """The hand as the match page's form posts it."""
    if hand.get("draw"):
        return {"draw": "true"}
    return {**{k: str(v) for k, v in hand.items() if k != "big_gin"}, **({"big_gin": "y"} if "big_gin" in hand else {})}


class HandNotSaved(RuntimeError):
    """A hand the server did not save (or whose sheet did not come back): `status` says which answer it gave."""

    def __init__(self, status: int, text: str):
        super().__init__(f"hand not saved: {status} {text[:300]}")
        self.status = status


class Table:
    """One phone at one table: the match page, a hand posted, the redirect followed to the sheet."""

    def __init__(self, server: Server, hands: list[dict] | None = None, target: int | None = None):
        self.phone = Phone(server)
        self.match_id = Client(server.base).import_match(match_doc(hands or [], target))
        self.page = self.phone.send(f"/matches/{self.match_id}")
        self.matches = 1

    def enter(self, hand: dict) -> tuple[float, float, float]:
        """(whole, POST, GET) seconds; a Rematch first if the match is over, as the table would."""
        fields = self.page_fields()
        start = time.perf_counter()
        posted = self.phone.send(f"/matches/{self.match_id}/hands", {**fields, **form_fields(hand)})
        sheet = self.phone.send(posted.location)
        whole = time.perf_counter() - start
        if posted.status != 302 or 'class="flash flash-saved"' not in sheet.text:
            raise HandNotSaved(posted.status if posted.status != 302 else sheet.status,
                               posted.text if posted.status != 302 else sheet.text)
        self.page = sheet
        return whole, posted.seconds, sheet.seconds

    def enter_by_script(self, hand: dict) -> Reply:
        """The same hand as the page script sends it: one POST, answered with the new page itself."""
        fields = self.page_fields()
        posted = self.phone.send(f"/matches/{self.match_id}/hands", {**fields, **form_fields(hand)}, SCRIPT)
        if posted.status != 200 or 'class="flash flash-saved"' not in posted.text:
            raise HandNotSaved(posted.status, posted.text)
        self.page = posted
        return posted

    def page_fields(self) -> dict[str, str]:
        """The page's token and one-time id for the next hand, after a Rematch if the match is over."""
        if 'id="hand-form"' not in self.page.text:
            self.rematch()
        return {name: hidden(self.page.text, name) for name in ("csrf_token", "form_id")}

    def reload(self) -> Reply:
        """The match page afresh (a new form id), as a phone would after an error page."""
        self.page = self.phone.send(f"/matches/{self.match_id}")
        return self.page

    def rematch(self) -> None:
        reply = self.phone.send(f"/matches/{self.match_id}/rematch", {"csrf_token": hidden(self.page.text, "csrf_token")})
        self.match_id = int(reply.location.rsplit("/", 1)[1])
        self.page = self.phone.send(reply.location)
        self.matches += 1


# ---- the parts ---------------------------------------------------------------------

def limit_file(server: Server, name: str, body: bytes) -> str:
    """A static file of exactly these bytes on the same server; its path."""
    (server.files_dir / name).write_bytes(body)
    return FILES_ROUTE + name


def limit_reply(limit: Phone, server: Server, name: str, body: bytes) -> Reply:
    """A GET of a static file holding `body`, checked to come back as written."""
    reply = limit.send(limit_file(server, name, body))
    if reply.body != body:
        raise RuntimeError("the limit file did not come back as written")
    return reply


def hand_entry(server: Server, hands: int, warmup: int = 5) -> dict:
    """Each hand entered, then a GET of a static file holding the very bytes of the sheet just received."""
    rng, table, limit = random.Random(1), Table(server), Phone(server)
    times: dict[str, list[float]] = {"entry": [], "post": [], "sheet": [], "static": [], "bytes": [], "again": []}
    cpu = {"entry": 0.0, "static": 0.0}
    for i in range(warmup + hands):
        cpu0 = server_cpu(server)
        whole, post, get = table.enter(random_hand(rng))
        cpu1 = server_cpu(server)
        static = limit_reply(limit, server, "sheet.html", table.page.body)
        cpu2 = server_cpu(server)
        again = table.reload()  # the floor: the same page once more, drawn already and with no flash to clear
        if i >= warmup:
            cpu["entry"] += cpu1 - cpu0
            cpu["static"] += cpu2 - cpu1
            for key, value in zip(times, (ms(whole), ms(post), ms(get), ms(static.seconds), len(static.body),
                                          ms(again.seconds))):
                times[key].append(value)
    out = {key: stats(values) for key, values in times.items()}
    static = out["static"]["median"]
    return {**out, "matches": table.matches, "warmup": warmup,
            "ratio": out["entry"]["median"] / static, "ratio_p95": out["entry"]["p95"] / out["static"]["p95"],
            "post_ratio": out["post"]["median"] / static,
            "floor_ratio": (out["post"]["median"] + out["again"]["median"]) / static,
            "cpu_entry": ms(cpu["entry"]) / hands, "cpu_static": ms(cpu["static"]) / hands}


SCRIPT = {"X-Requested-With": "fetch"}  # what static/app.js sends: the answer is the new page itself


def hand_entry_by_script(server: Server, hands: int, warmup: int = 5) -> dict:
    """As hand_entry, the way a phone with the page script saves a hand: one POST answered with the
    new page, beside a static file of that page's bytes. Not the target's measure (every page must
    work without the script, so the target is Post/Redirect/Get), but what such a phone waits for."""
    rng, table, limit = random.Random(1), Table(server), Phone(server)
    times: dict[str, list[float]] = {"post": [], "static": []}
    for i in range(warmup + hands):
        posted = table.enter_by_script(random_hand(rng))
        static = limit_reply(limit, server, "page.html", posted.body)
        if i >= warmup:
            times["post"].append(ms(posted.seconds))
            times["static"].append(ms(static.seconds))
    out = {key: stats(values) for key, values in times.items()}
    return {**out, "ratio": out["post"]["median"] / out["static"]["median"],
            "ratio_p95": out["post"]["p95"] / out["static"]["p95"]}


def long_tables(server: Server, sizes: tuple[int, ...]) -> dict[int, Table]:
    """A table at an open generated match of each size (a target so high that it stays open)."""
    return {n: Table(server, long_match(n, seed=n)["hands"], HIGH_TARGET) for n in sizes}


def sheet_growth(server: Server, sizes: tuple[int, ...], rounds: int, batch: int = 5) -> dict:
    """The match page at each size, in batches round-robin so a busy moment hits every size alike."""
    tables = long_tables(server, sizes)
    limit = Phone(server)
    statics = {n: limit_file(server, f"sheet-{n}.html", table.page.body) for n, table in tables.items()}
    for path in statics.values():
        limit.send(path)  # warm, as the pages are: each Table has fetched its page once
    times = {n: [] for n in sizes}
    static_times = {n: [] for n in sizes}
    for _ in range(rounds):
        for n, table in tables.items():
            times[n] += [ms(table.phone.send(f"/matches/{table.match_id}").seconds) for _ in range(batch)]
            static_times[n].append(ms(limit.send(statics[n]).seconds))
    cpu = {n: cpu_per_page(server, table) for n, table in tables.items()}
    base = statistics.median(times[sizes[0]])
    return {"requests": rounds * batch, "batch": batch, "rows": [
        {"hands": n, "bytes": len(tables[n].page.body), **stats(times[n]), "static": statistics.median(static_times[n]),
         "ratio": statistics.median(times[n]) / base, "cpu": ms(cpu[n]), "cpu_ratio": cpu[n] / cpu[sizes[0]]}
        for n in sizes]}


def saved_hand_growth(server: Server, sizes: tuple[int, ...], rounds: int) -> dict:
    """A saved hand (POST, redirect, page) on matches of each size, one each in turn, so a busy
    moment hits every size alike: what a table waits for late in a long evening, against early."""
    rng, tables = random.Random(3), long_tables(server, sizes)
    times: dict[int, list[float]] = {n: [] for n in sizes}
    for _ in range(rounds):
        hand = random_hand(rng)
        for n, table in tables.items():
            times[n].append(ms(table.enter(hand)[0]))
    base = statistics.median(times[sizes[0]])
    return {"hands_saved": rounds, "rows": [
        {"hands": n, **stats(times[n]), "ratio": statistics.median(times[n]) / base} for n in sizes]}


CPU_TICKS = 10  # /proc counts CPU in clock ticks (10 ms here): a page costing a millisecond needs many GETs


def cpu_per_page(server: Server, table: Table, most: int = 2000) -> float:
    """The server's CPU seconds per GET of the table's page, over as many GETs as it takes to count
    CPU_TICKS clock ticks (at most `most`), so a cheap page is not measured as costing nothing."""
    tick, count, start = 1 / os.sysconf("SC_CLK_TCK"), 0, server_cpu(server)
    while count < most and (count < 5 or server_cpu(server) - start < CPU_TICKS * tick):
        table.phone.send(f"/matches/{table.match_id}")
        count += 1
    return (server_cpu(server) - start) / count


def engine(seconds: float, hands: int = 100) -> dict:
    """Folds and whole replays per second of one match, in this process: the engine without the web."""
    from models.game.ledger import score_sheet
    from models.files.matchfile import load_match, replay

    text = json.dumps(long_match(hands))
    match = load_match(text)

    def rate(work) -> float:
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            work()
            count += 1
        return count / (time.perf_counter() - start)

    return {"hands": hands, "fold": rate(lambda: score_sheet(match)), "replay": rate(lambda: replay(text))}


def run_clients(count: int, seconds: float, setup, work, started=lambda: None) -> tuple[list[float], float]:
    """`count` threads, each set up untimed, then calling work(state) for `seconds`: the latencies and
    the seconds elapsed; `started()` is called as the clock starts, after every set-up. A failing client
    stops the level instead of passing unnoticed; a work that returns None (a failure it counted itself)
    adds no latency."""
    ready, results, errors = threading.Barrier(count + 1), [], []
    deadline = [math.inf]

    def client() -> None:
        try:
            state = setup()
            ready.wait()
            while time.perf_counter() < deadline[0]:
                latency = work(state)
                if latency is not None:
                    results.append(latency)
        except BaseException as error:  # noqa: BLE001 - raised again below
            errors.append(error)
            ready.abort()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        ready.wait()
    except threading.BrokenBarrierError:
        pass  # a set-up failed: the other clients are stopped at the barrier, and its error is raised below
    started()
    start = time.perf_counter()
    deadline[0] = start + seconds
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results, time.perf_counter() - start


def loaded(servers: Server | tuple[Server, ...], count: int, seconds: float, setup, work,
           started=lambda: None) -> dict:
    """One level of load: requests per second, latencies, and the servers' share of one core (summed),
    beside the clients' own (this process: on a small machine they compete with the server for the cores).
    `started()` is called as the clock starts, after every set-up (bench/engines_bench.py reads the
    database server's counters then)."""
    group = servers if isinstance(servers, tuple) else (servers,)
    before = {}

    def start() -> None:
        before.update(server=server_cpu(*group), client=time.process_time())
        started()

    latencies, elapsed = run_clients(count, seconds, setup, work, start)  # the set-ups' requests not counted
    return {"clients": count, "count": len(latencies), "per_second": len(latencies) / elapsed, "seconds": elapsed,
            "cpu_share": (server_cpu(*group) - before["server"]) / elapsed,
            "client_share": (time.process_time() - before["client"]) / elapsed, **stats(latencies)}


def sheet_throughput(server: Server, levels: tuple[int, ...], seconds: float) -> dict:
    """Sheet GETs per second of a typical match in progress, each client on its own connection."""
    hands = typical_match()[:-1]
    path = f"/matches/{Client(server.base).import_match(match_doc(hands))}"
    rows = [loaded(server, n, seconds, lambda: Phone(server), lambda phone: ms(phone.send(path).seconds))
            for n in levels]
    return {"hands": len(hands), "rows": rows}


def hand_throughput(servers: tuple[Server, ...], levels: tuple[int, ...], seconds: float,
                    seconds_per_hand: int) -> dict:
    """Hands stored per second at each level, the clients spread over one or more processes on one
    database file, and the tables that serves: the capacity of an instance, and what a second buys."""
    rows = [hand_level(servers, clients, seconds) for clients in levels]
    return {"processes": len(servers), "seconds_per_hand": seconds_per_hand,
            "rows": [{**row, "tables": row["per_second"] * seconds_per_hand} for row in rows]}


SPIN = """import time
cpu, end = time.process_time(), time.perf_counter() + {seconds}
while time.perf_counter() < end:
    pass
print(time.process_time() - cpu)
"""


def cores_delivered(seconds: float) -> float:
    """CPU seconds per second that one busy Python process per core gets when all run at once: what the
    cores deliver now. A shared host may give less than their count, which caps what more processes buy."""
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN.format(seconds=seconds)], stdout=subprocess.PIPE,
                                 text=True) for _ in range(os.cpu_count() or 1)]
    return sum(float(spinner.communicate()[0]) for spinner in spinners) / seconds


def hand_level(servers: tuple[Server, ...], clients: int, seconds: float, started=lambda: None) -> dict:
    """`clients` tables, client i on servers[i % n], each on its own match. A hand refused with a 5xx
    (SQLite's write lock held past busy_timeout, say) is counted and the table goes on, so contention
    between processes shows as a number instead of ending the level; any other refusal still stops it.
    The POSTs are timed apart (they alone take SQLite's write lock), and what the machine's cores
    deliver is measured just before and just after: the ceiling of the servers' CPU share (it moves)."""
    probe = min(0.5, seconds / 2)
    cores = [cores_delivered(probe)]
    spread, failures, posts, locked_before = itertools.count(), [], [], locked(servers)

    def setup():
        i = next(spread)
        table, rng = Table(servers[i % len(servers)]), random.Random(100 + i)
        table.enter(random_hand(rng))  # untimed: every process has run the POST and the sheet before the clock
        return table, rng

    def work(state):
        table, rng = state
        try:
            whole, post, _ = table.enter(random_hand(rng))
        except HandNotSaved as refused:
            if refused.status < 500:
                raise
            failures.append(refused.status)
            table.reload()
            return None
        posts.append(ms(post))
        return ms(whole)

    row = loaded(servers, clients, seconds, setup, work, started)
    cores.append(cores_delivered(probe))
    return {**row, "post": stats(posts), "cores": cores, "errors": len(failures),
            "locked": locked(servers) - locked_before}


def locked(servers: tuple[Server, ...]) -> int:
    """How often "database is locked" stands in the servers' logs (an error the app logged, answered or not)."""
    return sum(server.log().count("database is locked") for server in servers)


# ---- memory --------------------------------------------------------------------------

def import_open_matches(server: Server, count: int) -> tuple[list[int], list[int]]:
    """`count` open matches of typical length, each from its own seed, POSTed to the app's /import:
    their ids and their hands.

    One keep-alive session for all, its token read once from the home page while no match is
    listed (Client.import_match reads it afresh each time, and the home page folds every open
    match); the session cookie is sent as it was, so the unread "Imported" flashes do not pile up in it."""
    phone = Phone(server)
    token = hidden(phone.send("/").text, "csrf_token")
    session = dict(phone.cookies)
    ids, lengths = [], []
    for seed in range(1000, 1000 + count):
        hands = typical_match(seed)[:-1]
        reply = phone.send("/import", {"csrf_token": token, "text": json.dumps(match_doc(hands))})
        if reply.status != 302:
            raise RuntimeError(f"match not imported: {reply.status} {reply.text[:300]}")
        ids.append(int(reply.location.rstrip("/").rsplit("/", 1)[1]))
        lengths.append(len(hands))
        phone.cookies = dict(session)
    return ids, lengths


def view_each(server: Server, ids: list[int]) -> tuple[list[float], list[int]]:
    """Each match page once, in order, on one connection: the ms each took and its size in bytes."""
    phone, times, sizes = Phone(server), [], []
    for match_id in ids:
        page = phone.send(f"/matches/{match_id}")
        if page.status != 200 or 'id="hand-form"' not in page.text:
            raise RuntimeError(f"match {match_id} did not show as open: {page.status}")
        times.append(ms(page.seconds))
        sizes.append(len(page.body))
    return times, sizes


def memory(server: Server, count: int) -> dict:
    """The server's memory with `count` open matches, before and after their pages were viewed (the
    app's caches fill then), and the page time on a second pass beside the first: warm against cold."""
    points = {"at start": server_memory(server)}
    ids, lengths = import_open_matches(server, count)
    points[f"after importing {count:,}"] = server_memory(server)
    cold, sizes = view_each(server, ids[:1])
    points["after viewing the first"] = server_memory(server)  # its templates compiled, its modules loaded
    more, more_sizes = view_each(server, ids[1:])
    cold, sizes = cold + more, sizes + more_sizes
    points["after viewing each once"] = server_memory(server)
    warm, _ = view_each(server, ids)
    points["after viewing each again"] = server_memory(server)
    rss = {name: point["VmRSS"] for name, point in points.items()}
    return {"matches": count, "hands": stats(lengths), "page": stats(sizes), "points": points,
            "cold": stats(cold), "warm": stats(warm), "cold_s": sum(cold) / 1000, "warm_s": sum(warm) / 1000,
            "per_table": (rss["after viewing each once"] - rss["at start"]) / count,
            "past_first": (rss["after viewing each once"] - rss["after viewing the first"]) / max(1, count - 1)}
