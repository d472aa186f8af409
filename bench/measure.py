"""The HTTP parts of the benchmark: hand entry, sheet growth, throughput, and the engine alone.

Only the standard library talks to the server (http.client on keep-alive connections,
one thread per concurrent client), so what is timed is the server plus one loopback
round trip, not a client library.
"""
from __future__ import annotations

import math
import random
import statistics
import threading
import time

from .harness import (HIGH_TARGET, Client, Server, form_fields, hands_for, hidden, import_match, match_doc,
                      random_hand, typical_match)


def ms(seconds: float) -> float:
    return seconds * 1000


def p95(values: list[float]) -> float:
    """Nearest-rank 95th percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def summary(values: list[float]) -> dict:
    return {"n": len(values), "median": statistics.median(values), "p95": p95(values),
            "min": min(values), "max": max(values)}


class Table:
    """One player's phone at one table: the match page's tokens, a hand posted, the sheet back."""

    def __init__(self, server: Server, target: int | None = None):
        self.client = Client(server)
        self.target = target
        self.match_id = import_match(self.client, match_doc([], target))
        self.page = self.client.get(f"/matches/{self.match_id}")
        self.matches = 1

    @property
    def open(self) -> bool:
        return 'id="hand-form"' in self.page.text

    def enter(self, hand: dict) -> tuple[float, float, float]:
        """POST the hand, follow the redirect to the sheet; (total, POST, GET) seconds."""
        fields = {"csrf_token": hidden(self.page.text, "csrf_token"), "form_id": hidden(self.page.text, "form_id"),
                  **form_fields(hand)}
        start = time.perf_counter()
        posted = self.client.post(f"/matches/{self.match_id}/hands", fields)
        if posted.status != 302:
            raise RuntimeError(f"hand refused ({posted.status}): {posted.text[:400]}")
        sheet = self.client.get(posted.location)
        total = time.perf_counter() - start
        if sheet.status != 200 or 'class="flash flash-saved"' not in sheet.text:
            raise RuntimeError(f"the sheet after a hand did not say it was saved ({sheet.status})")
        self.page = sheet
        return total, posted.seconds, sheet.seconds

    def rematch(self) -> None:
        """What the table does when the match is over: the Rematch button."""
        reply = self.client.post(f"/matches/{self.match_id}/rematch",
                                 {"csrf_token": hidden(self.page.text, "csrf_token")})
        if reply.status != 302:
            raise RuntimeError(f"rematch refused ({reply.status})")
        self.match_id = int(reply.location.rstrip("/").rsplit("/", 1)[1])
        self.page = self.client.get(reply.location)
        self.matches += 1


def hand_entry(server: Server, hands: int, seed: int = 1) -> dict:
    """Hands entered as tables enter them (classic rules, Rematch when a match ends), each
    followed by a GET of a static file holding the very bytes of the sheet just received."""
    rng = random.Random(seed)
    table = Table(server)
    limit = Client(server)
    cycles, posts, gets, statics, sizes = [], [], [], [], []
    cpu = {"entry": 0.0, "static": 0.0}
    warmup = 5
    for i in range(hands + warmup):
        if not table.open:
            table.rematch()
        cpu0 = server.cpu_seconds()
        total, post, get = table.enter(random_hand(rng))
        cpu1 = server.cpu_seconds()
        body = table.page.body
        path = server.put_limit_file("sheet-copy.html", body)
        cpu2 = server.cpu_seconds()
        start = time.perf_counter()
        static = limit.get(path)
        static_seconds = time.perf_counter() - start
        cpu3 = server.cpu_seconds()
        if static.status != 200 or static.body != body:
            raise RuntimeError("the limit file did not come back as written")
        if i < warmup:
            continue
        if cpu0 is not None:
            cpu["entry"] += cpu1 - cpu0
            cpu["static"] += cpu3 - cpu2
        cycles.append(ms(total))
        posts.append(ms(post))
        gets.append(ms(get))
        statics.append(ms(static_seconds))
        sizes.append(len(body))
    entry, static = summary(cycles), summary(statics)
    return {
        "entry": entry, "post": summary(posts), "get": summary(gets), "static": static,
        "ratio_median": entry["median"] / static["median"], "ratio_p95": entry["p95"] / static["p95"],
        "sizes": summary([float(s) for s in sizes]), "matches": table.matches, "warmup": warmup,
        "cpu_entry": ms(cpu["entry"]) / hands if server.cpu_seconds() is not None else None,
        "cpu_static": ms(cpu["static"]) / hands if server.cpu_seconds() is not None else None,
    }


def sheet_growth(server: Server, sizes: tuple[int, ...], rounds: int, batch: int = 5) -> dict:
    """The match page of matches with 10, 100 and 1,000 hands (target 1,000,000 so they stay
    open, form included), fetched in small batches round-robin so a busy moment hits every
    size alike; the server's CPU time is summed per size (it does not count waiting for a core)."""
    client = Client(server)
    ids = {n: import_match(client, match_doc(hands_for(n, seed=n), HIGH_TARGET)) for n in sizes}
    limit = Client(server)
    times = {n: [] for n in sizes}
    statics = {n: [] for n in sizes}
    cpu = {n: 0.0 for n in sizes}
    bodies = {}
    for n, match_id in ids.items():  # warm up: templates compiled, pages cached by SQLite
        bodies[n] = client.get(f"/matches/{match_id}").body
        server.put_limit_file(f"sheet-{n}.html", bodies[n])
        limit.get(f"/bench-limit/sheet-{n}.html")
    for _ in range(rounds):
        for n, match_id in ids.items():
            before = server.cpu_seconds()
            for _ in range(batch):
                reply = client.get(f"/matches/{match_id}")
                if reply.status != 200:
                    raise RuntimeError(f"sheet of {n} hands: {reply.status}")
                times[n].append(ms(reply.seconds))
            after = server.cpu_seconds()
            if before is not None:
                cpu[n] += after - before
            statics[n].append(ms(limit.get(f"/bench-limit/sheet-{n}.html").seconds))
    base = statistics.median(times[sizes[0]])
    count = rounds * batch
    has_cpu = server.cpu_seconds() is not None
    cpu_ms = {n: ms(cpu[n]) / count if has_cpu else None for n in sizes}
    return {
        "rounds": rounds, "batch": batch, "requests": count,
        "ids": ids,
        "rows": [{"hands": n, "median": statistics.median(times[n]), "p95": p95(times[n]),
                  "ratio": statistics.median(times[n]) / base, "bytes": len(bodies[n]),
                  "static": statistics.median(statics[n]), "cpu": cpu_ms[n],
                  "cpu_ratio": cpu_ms[n] / cpu_ms[sizes[0]] if has_cpu and cpu_ms[sizes[0]] else None}
                 for n in sizes],
    }


def engine(seconds: float) -> dict:
    """The engine without the web: a 100-hand match folded (score_sheet) and replayed from its file."""
    import json

    from models.ledger import score_sheet
    from models.matchfile import load_match, replay

    text = json.dumps(match_doc(hands_for(100, seed=100), HIGH_TARGET))
    match = load_match(text)

    def rate(work) -> float:
        work()
        count, start = 0, time.perf_counter()
        while True:
            for _ in range(20):
                work()
            count += 20
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return count / elapsed

    return {"fold": rate(lambda: score_sheet(match)), "replay": rate(lambda: replay(text)), "hands": 100}


def run_clients(count: int, seconds: float, work) -> tuple[list[list[float]], float]:
    """`count` threads, each calling work(state) until the time is up: their latencies (ms),
    and the seconds from the start to the end of the last request."""
    barrier = threading.Barrier(count + 1)
    results: list[list[float]] = [[] for _ in range(count)]
    errors: list[BaseException] = []
    stop = [0.0]

    def worker(index: int) -> None:
        try:
            state = work(None)  # set-up, not timed
            barrier.wait()
            while time.perf_counter() < stop[0]:
                results[index].append(work(state))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
            try:
                barrier.abort()
            except threading.BrokenBarrierError:
                pass

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    stop[0] = time.perf_counter() + 3600
    barrier.wait()
    start = time.perf_counter()
    stop[0] = start + seconds
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results, time.perf_counter() - start


def sheet_throughput(server: Server, levels: tuple[int, ...], seconds: float) -> dict:
    """Sheet GETs per second with 1, 4 and 16 clients, on the page of a typical match in progress."""
    hands = typical_match()[:-1]
    match_id = import_match(Client(server), match_doc(hands))
    path = f"/matches/{match_id}"

    def work(client):
        if client is None:
            client = Client(server)
            client.get(path)
            return client
        reply = client.get(path)
        if reply.status != 200:
            raise RuntimeError(f"sheet GET: {reply.status}")
        return ms(reply.seconds)

    rows = []
    for level in levels:
        before = server.cpu_seconds()
        latencies, elapsed = run_clients(level, seconds, work)
        after = server.cpu_seconds()
        flat = [x for per in latencies for x in per]
        rows.append({"clients": level, "requests": len(flat), "per_second": len(flat) / elapsed,
                     "median": statistics.median(flat), "p95": p95(flat), "elapsed": elapsed,
                     "cpu_share": (after - before) / elapsed if before is not None else None,
                     "cpu_ms": ms(after - before) / len(flat) if before is not None and flat else None})
    return {"hands": len(hands), "rows": rows}


def hand_throughput(server: Server, clients: int, seconds: float, seed: int = 5) -> dict:
    """Hands stored per second with `clients` tables each posting to its own match
    (POST, redirect, sheet GET; Rematch when a match ends, as a table would)."""
    counter = [0]

    def work(state):
        if state is None:
            counter[0] += 1
            return Table(server), random.Random(seed + counter[0])
        table, rng = state
        if not table.open:
            table.rematch()
        return ms(table.enter(random_hand(rng))[0])

    before = server.cpu_seconds()
    latencies, elapsed = run_clients(clients, seconds, work)
    after = server.cpu_seconds()
    flat = [x for per in latencies for x in per]
    per_second = len(flat) / elapsed
    return {"clients": clients, "hands": len(flat), "per_second": per_second, "median": statistics.median(flat),
            "p95": p95(flat), "seconds": elapsed, "matches": counter[0], "tables": per_second * 90,
            "cpu_share": (after - before) / elapsed if before is not None else None}
