"""Tables of three and four (issue 46): a saved deal of partners beside a saved hand of two, and a 40-deal
partners match's page beside a 40-hand match of two's, on a real server, SQLite and PostgreSQL.

    python bench/tables_bench.py                  # SQLite; PostgreSQL too at $GIN_LEDGER_BENCH_POSTGRESQL
    python bench/tables_bench.py --postgresql URL # a server of yours: a fresh schema, dropped after
    python bench/tables_bench.py --smoke          # seconds, not for reading; writes nothing (CI)

Targets (issue 46, point 7): a saved deal costs at most 1.5x a saved hand, a 40-deal page at most 1.5x a
40-hand page. Each engine's database (bench/engines_bench.py `Database`) is served by one waitress (4 threads,
tests/server.py) and asked over one keep-alive connection with a cookie, as a phone holds one
(bench/host_costs.py `Phone`). Beside it, on a waitress of its own, the floor under any save: bench/bare_app.py's
saved hand. A cost is the server process's CPU per request (/proc, as host_costs.py), the median of rounds that
interleave every kind, so each saw the same noise; the wall time per request is the median of all requests.

- A save is what a phone without the page script does (Post/Redirect/Get): the POST of the hand's or the
  deal's form (a knock; a deal a knock on each board) and the GET of the page it leads to, drawn with the new
  row. Saves go to a match of 13 hands (deals) imported fresh each round, target 1,000,000: open throughout.
- A page is the match page's GET of a 40-hand match of two and a 40-deal partners match (tests/generate.py's
  kinds of hands; each board one of them), asked again and again at one version.

The section "Tables of three and four" is printed and written into BENCHMARKS.md (replaced if there, else
put before the first section) unless --no-write or --smoke.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.engines_bench import POSTGRESQL, SQLITE, VARIABLE, Database, write_section  # noqa: E402
from bench.host_costs import BARE_SAVE, Bare, Phone, cpu_seconds, decoded, hidden  # noqa: E402
from models.game.rules import Table, table_rules  # noqa: E402
from models.game.tables.seats import board_pairs, seat  # noqa: E402
from tests.generate import HIGH_TARGET, KINDS, any_hand, long_match  # noqa: E402
from tests.server import Server  # noqa: E402

SECTION = "## Tables of three and four"
PARTNERS = ["Ana", "Ben", "Cy", "Dan"]
PAGE_HANDS, SAVED_ON = 40, 13
LIMIT = 1.5  # issue 46: a deal at most 1.5x a hand, a 40-deal page at most 1.5x a 40-hand page
FULL = {"rounds": 8, "each": 40}
SMOKE = {"rounds": 1, "each": 2}
HAND, DEAL = "saved hand of two (POST + its page)", "saved deal of partners (POST + its page)"
TWO_PAGE, TABLE_PAGE = f"{PAGE_HANDS}-hand match of two: page GET", f"{PAGE_HANDS}-deal partners match: page GET"
PAIRS = ((DEAL, HAND), (TABLE_PAGE, TWO_PAGE))


def partners_match(count: int, seed: int = 1) -> dict:
    """A partners match of `count` deals that stays open: each board one of tests/generate.py's hands between
    that board's players (alternate pairing)."""
    rng = random.Random(seed)
    rules, sides = table_rules(Table.PARTNERS, {"target": HIGH_TARGET}), seat(Table.PARTNERS, tuple(PARTNERS))
    hands = [{"boards": [any_hand(rng, rng.choice(KINDS), list(pair)) for pair in board_pairs(sides, rules, number)]}
             for number in range(1, count + 1)]
    return {"table": "partners", "players": PARTNERS, "first_dealer": "Ana", "rules": {"target": HIGH_TARGET},
            "hands": hands}


class Served:
    """One engine's server, its phone, and the matches it is asked about."""

    def __init__(self, server: Server):
        self.server, self.phone = server, Phone(server.port)
        answer, data, _ = self.phone.ask("GET", "/")
        self.token = hidden(decoded(answer, data), "csrf_token")
        self.walls: dict[str, list[float]] = {}
        self.two_page = self.imported(long_match(PAGE_HANDS, seed=5) | {"rules": {"target": HIGH_TARGET}})
        self.table_page = self.imported(partners_match(PAGE_HANDS, seed=5))
        self.fresh()

    def imported(self, doc: dict) -> str:
        answer, _, _ = self.phone.ask("POST", "/import", urlencode({"csrf_token": self.token,
                                                                    "text": json.dumps(doc)}).encode())
        assert answer.status == 302, answer.status
        return "/matches/" + answer.getheader("Location").rsplit("/", 1)[1]

    def fresh(self) -> None:
        """Saves go to a match of SAVED_ON hands (deals) again each round."""
        self.two = self.imported(long_match(SAVED_ON, seed=3) | {"rules": {"target": HIGH_TARGET}})
        self.partners = self.imported(partners_match(SAVED_ON, seed=3))
        self.saved = 0

    def timed(self, name: str, method: str, path: str, body: bytes | None = None):
        start = time.perf_counter()
        answer, data, _ = self.phone.ask(method, path, body)
        self.walls.setdefault(name, []).append(time.perf_counter() - start)
        return answer, data

    def redirected(self, name: str, path: str, fields: dict) -> None:
        """Post/Redirect/Get: the POST, then the page it leads to, drawn with the new row and its flash."""
        self.saved += 1
        body = urlencode({"csrf_token": self.token, "form_id": secrets.token_urlsafe(12), **fields}).encode()
        answer, _ = self.timed(f"{name}: the POST", "POST", path, body)
        assert answer.status in (302, 303), (path, answer.status)
        answer, _ = self.timed(f"{name}: its page", "GET", answer.getheader("Location").split("#")[0])
        assert answer.status == 200, answer.status

    def save_hand(self) -> None:
        od = str(20 + self.saved % 30)
        self.redirected(HAND, f"{self.two}/hands", {"knocker": "Ana" if self.saved % 2 else "Ben",
                                                    "knocker_deadwood": "2", "opponent_deadwood": od})

    def save_deal(self) -> None:
        """A knock on each board: Ana sits at board 1 and Cy at board 2 in either pairing."""
        od = str(20 + self.saved % 30)
        self.redirected(DEAL, f"{self.partners}/deals", {
            "b1_result": "knock", "b1_knocker": "Ana", "b1_kd": "2", "b1_od": od,
            "b2_result": "knock", "b2_knocker": "Cy", "b2_kd": "3", "b2_od": od})

    def page(self, name: str, path: str) -> None:
        answer, _ = self.timed(name, "GET", path)
        assert answer.status == 200, answer.status


def measure(database: Database, cfg: dict, bare: Bare | None) -> dict:
    """Every kind in turn each round; CPU per request by /proc, medians over the rounds."""
    with Server(database.address, threads=4, log_dir=database.folder) as server:
        table = Served(server)
        kinds = {HAND: (table.save_hand, server.pid), DEAL: (table.save_deal, server.pid),
                 TWO_PAGE: (lambda: table.page(TWO_PAGE, table.two_page), server.pid),
                 TABLE_PAGE: (lambda: table.page(TABLE_PAGE, table.table_page), server.pid)}
        if bare is not None:
            kinds[BARE_SAVE] = (bare.save, bare.pid)
        for ask, _pid in kinds.values():  # warm: templates compiled, matches folded once
            ask()
        costs: dict[str, list[float]] = {name: [] for name in kinds}
        table.walls.clear()
        for _ in range(cfg["rounds"]):
            table.fresh()
            for name, (ask, pid) in kinds.items():
                before = cpu_seconds(pid)
                for _ in range(cfg["each"]):
                    ask()
                costs[name].append((cpu_seconds(pid) - before) / cfg["each"])
    return {"cpu": {name: statistics.median(values) for name, values in costs.items()},
            "wall": {name: statistics.median(values) for name, values in table.walls.items()}}


def ratio(row: dict, one: str, two: str) -> str:
    return f"{row[one] / row[two]:.2f}x" if row.get(two) else "n/a (under /proc's clock tick)"


def section(results: dict, cfg: dict, skipped: str | None) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()
    lines = [SECTION, "",
             f"`python bench/tables_bench.py` on {now}, {cfg['rounds']} rounds of {cfg['each']} requests of each kind, "
             f"load average {load[0]:.1f} (2 cores shared with other work: compare within a column). One waitress "
             f"(4 threads) per engine, a keep-alive connection with a cookie; server CPU per request (/proc), the "
             f"median of the rounds. A save is Post/Redirect/Get on a 13-hand (13-deal) open match: the POST and "
             f"the page it leads to. The floor: bench/bare_app.py's saved hand on a waitress of its own.", ""]
    engines = list(results)
    lines += ["| request | " + " | ".join(f"{engine}: CPU ms" for engine in engines) + " |",
              "|---|" + "---:|" * len(engines)]
    names = [HAND, DEAL, TWO_PAGE, TABLE_PAGE, BARE_SAVE]
    for name in names:
        cells = [f"{results[e]['cpu'][name] * 1000:.2f}" if name in results[e]["cpu"] else "-" for e in engines]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "| ratio (target at most 1.5x) | " + " | ".join(engines) + " |", "|---|" + "---:|" * len(engines)]
    for one, two in PAIRS:
        lines.append(f"| {one} / {two} | " + " | ".join(ratio(results[e]["cpu"], one, two) for e in engines) + " |")
    lines += ["", "| wall time per request (median, ms) | " + " | ".join(engines) + " |",
              "|---|" + "---:|" * len(engines)]
    for name in sorted({name for e in engines for name in results[e]["wall"]}):
        cells = [f"{results[e]['wall'][name] * 1000:.2f}" if name in results[e]["wall"] else "-" for e in engines]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if skipped:
        lines += ["", f"PostgreSQL not measured: {skipped}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgresql", metavar="URL", help=f"a PostgreSQL server to use (default: ${VARIABLE})")
    parser.add_argument("--smoke", action="store_true", help="seconds, not for reading; writes nothing")
    parser.add_argument("--rounds", type=int, help=f"rounds (default {FULL['rounds']})")
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md as it is")
    options = parser.parse_args(argv)
    cfg = dict(SMOKE if options.smoke else FULL)
    if options.rounds:
        cfg["rounds"] = options.rounds
    url = options.postgresql or os.environ.get(VARIABLE) or None
    skipped = None if url else f"no server given (--postgresql URL or ${VARIABLE})"
    folder = Path(tempfile.mkdtemp(prefix="gin-tables-"))
    results = {}
    with Bare(folder) as bare:
        for label in (SQLITE, POSTGRESQL) if url else (SQLITE,):
            (folder / label).mkdir()
            database = Database(label, folder / label, url)
            try:
                results[label] = measure(database, cfg, bare if label == SQLITE else None)
            finally:
                database.drop()
    text = section(results, cfg, skipped)
    print(text, end="")
    if not (options.no_write or options.smoke):
        write_section(text, ROOT / "BENCHMARKS.md", SECTION)
    return 0


if __name__ == "__main__":
    sys.exit(main())
