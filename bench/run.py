"""Gin Ledger's benchmark: `python bench/run.py` writes its sections of BENCHMARKS.md (the other benches' and
the hand-written ones are kept); `--smoke` is the short CI version.

The numbers are measured here; the words are in report.md.j2, filled in with Jinja2.
Each part runs against a fresh server (tests/server.py: waitress, 4 threads, 127.0.0.1,
a new SQLite file in a temporary folder); a part that fails says so in its section and
makes the run exit 1, so the smoke test notices.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import platform
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jinja2  # noqa: E402

from bench import loads, pages, why  # noqa: E402
from tests.browser.driver import why_not  # noqa: E402
from tests.server import ROOT, Server  # noqa: E402

THREADS = 4
HAND_CLIENTS = (4, 16)  # tables entering hands at once, on one process and spread over two
FULL = {"hands": 300, "rounds": 20, "engine_s": 2.0, "level_s": 6.0, "hands_s": 8.0, "matches": 1000, "lighthouse": 3,
        "profile": 30}
SMOKE = {"hands": 5, "rounds": 1, "engine_s": 0.1, "level_s": 0.3, "hands_s": 0.3, "matches": 20, "lighthouse": 0,
         "profile": 2}
LIMITS = {"entry": 3.0, "growth": 2.0, "page_kb": 30, "page_requests": 3, "knock_actions": 5, "knock_trips": 1,
          "draw_actions": 2, "seconds_per_hand": 90}


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def attempt(name: str, work):
    """One part; a failure becomes {"error": ...} in its section instead of ending the run."""
    log(name)
    try:
        return work()
    except Exception as error:  # noqa: BLE001 - the report says what failed
        traceback.print_exc()
        return {"error": f"{type(error).__name__}: {error}"}


def on_server(work, processes: int = 1):
    """`work(*servers)` against fresh servers, so no part inherits another's database or warm caches.

    Several processes serve one new database file, started one after the other: the first
    creates and migrates it, the others find it current. Each keeps its own log (Server
    names them by its count of starts, so two in one folder would write the same file)."""
    def run():
        with tempfile.TemporaryDirectory(prefix="gin-ledger-bench-") as folder, contextlib.ExitStack() as running:
            files = Path(folder) / "files"
            files.mkdir()
            servers = []
            for number in range(1, processes + 1):
                logs = Path(folder) / f"process-{number}"
                logs.mkdir()
                servers.append(running.enter_context(
                    Server(Path(folder) / "bench.sqlite", threads=THREADS, files_dir=files, log_dir=logs)))
            return work(*servers)
    return run


def hand_load(cfg: dict, processes: int):
    """Hands per second with HAND_CLIENTS tables spread over `processes` waitress processes on one file."""
    return on_server(lambda *servers: loads.hand_throughput(servers, HAND_CLIENTS, cfg["hands_s"],
                                                            LIMITS["seconds_per_hand"]), processes)


def browser_parts(server: Server, runs: int) -> dict:
    """Weight and taps, then Lighthouse on the same pages (not in --smoke: it takes a minute a page)."""
    missing = why_not()
    if missing:
        if os.environ.get("CI") == "true":
            raise RuntimeError(missing[0])
        return {"error": f"not measured: {missing[0]}", "lighthouse": {"error": "no browser"}, "optional": True}
    parts = pages.playwright_parts(server)
    paths = {name: parts["weight"]["paths"][name] for name in ("hand entry", "sheet")}
    parts["lighthouse"] = (attempt("lighthouse", lambda: pages.lighthouse(server, paths, runs)) if runs
                           else {"error": "not run in --smoke mode"})
    return parts


def collect(cfg: dict) -> dict:
    started, before = datetime.now(timezone.utc), os.getloadavg()
    t0 = time.perf_counter()
    r = {
        "entry": attempt("hand entry", on_server(lambda s: loads.hand_entry(s, cfg["hands"]))),
        "entry_script": attempt("hand entry by the page script",
                                on_server(lambda s: loads.hand_entry_by_script(s, cfg["hands"]))),
        "growth": attempt("sheet growth", on_server(lambda s: loads.sheet_growth(s, (10, 100, 1000), cfg["rounds"]))),
        "saved_growth": attempt("saved hand as a match grows",
                                on_server(lambda s: loads.saved_hand_growth(s, (10, 100, 1000), cfg["rounds"] * 4))),
        "engine": attempt("engine", lambda: loads.engine(cfg["engine_s"])),
        "sheet_load": attempt("sheet throughput",
                              on_server(lambda s: loads.sheet_throughput(s, (1, 4, 16), cfg["level_s"]))),
        "hand_load": attempt("hand throughput", hand_load(cfg, 1)),
        "two_processes": attempt("hand throughput, two processes on one file", hand_load(cfg, 2)),
        "memory": attempt(f"memory with {cfg['matches']:,} open matches",
                          on_server(lambda s: loads.memory(s, cfg["matches"]))),
        "browser": attempt("weight and taps", on_server(lambda s: browser_parts(s, cfg["lighthouse"]))),
        "saved_hand": attempt("profile: a saved hand", lambda: why.saved_hand(cfg["profile"])),
        "big_sheet": attempt("profile: a 1,000-hand sheet", lambda: why.big_sheet(max(2, cfg["profile"] // 6))),
    }
    r["lighthouse"] = r["browser"].get("lighthouse", {"error": "no browser"})
    return {**r, "started": started, "load_before": before, "load_after": os.getloadavg(),
            "seconds": time.perf_counter() - t0}


def targets(r: dict) -> list[tuple[str, str, bool]]:
    """(target, measured, met) for every part that was measured."""
    rows = []
    if "error" not in r["entry"]:
        rows.append(("Hand entry within 3x of a same-size static file", f"{r['entry']['ratio']:.1f}x",
                     r["entry"]["ratio"] <= LIMITS["entry"]))
    if "error" not in r["growth"]:
        last = r["growth"]["rows"][-1]["ratio"]
        rows.append((f"Sheet at 1,000 hands within {LIMITS['growth']:g}x of 10 hands", f"{last:.1f}x", last <= LIMITS["growth"]))
    if "error" not in r["browser"]:
        page = next(row for row in r["browser"]["weight"]["rows"] if row["page"] == "hand entry")
        knock, draw = r["browser"]["taps"][0], r["browser"]["taps"][-1]
        rows += [
            ("Hand-entry page under 30 KB with all it loads", f"{page['body'] / 1024:.1f} KB",
             page["body"] < LIMITS["page_kb"] * 1024),
            ("Hand-entry page at most 3 requests", str(len(page["requests"])),
             len(page["requests"]) <= LIMITS["page_requests"]),
            ("Hand-entry page: no request to another host", str(len(page["other_hosts"])), not page["other_hosts"]),
            ("Knock in at most 5 actions", str(knock["actions"]), knock["actions"] <= LIMITS["knock_actions"]),
            ("Knock in one round trip", str(len(knock["trips"])), len(knock["trips"]) <= LIMITS["knock_trips"]),
            ("Draw in at most 2 actions", str(draw["actions"]), draw["actions"] <= LIMITS["draw_actions"]),
        ]
    for name, run in r["lighthouse"].get("pages", {}).items():
        rows.append((f"Lighthouse 100/100/100, {name}", "/".join(map(str, run["scores"])), run["scores"] == [100] * 3))
    return rows


def code_state() -> str:
    """The commit measured, and whether tracked files differ from it (BENCHMARKS.md aside)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout

    changed = [line[3:] for line in git("status", "--porcelain", "--untracked-files=no").splitlines()
               if line[3:] != "BENCHMARKS.md"]
    head = git("rev-parse", "--short", "HEAD").strip()
    return f"commit {head}" + (f" plus changes to {', '.join(changed)}" if changed else ", unchanged")


def report(r: dict, cfg: dict, smoke: bool) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent), undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(f1=lambda x: f"{x:.1f}", f2=lambda x: f"{x:.2f}", kb=lambda n: f"{n / 1024:.1f} KB",
                       mb=lambda n: f"{n / 1024 / 1024:.1f}", pct=lambda x: f"{x * 100:.0f}%",
                       n=lambda x: f"{x:,.0f}", mark=lambda ok: "met" if ok else "**missed**")
    machine = {"cores": os.cpu_count(), "arch": platform.machine(), "python": platform.python_version(),
               "flask": version("flask"), "waitress": version("waitress"), "sqlite": sqlite3.sqlite_version,
               "threads": THREADS, "tmp": tempfile.gettempdir(), "code": code_state()}
    return env.get_template("report.md.j2").render(r=r, cfg=cfg, smoke=smoke, limits=LIMITS, m=machine,
                                                   cpu_ticks=loads.CPU_TICKS, targets=targets(r))


def sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """A report cut at its `## ` headings: the text before the first, then each heading with its text."""
    parts = re.split(r"(?m)^(?=## )", text)
    return parts[0], [(part.splitlines()[0], part) for part in parts[1:]]


def beside_the_others(generated: str, existing: str) -> str:
    """The report with every section of `existing` that it does not write itself kept, in their order,
    between its opening and its own sections: the other benches' (bench/host_costs.py,
    bench/engines_bench.py, bench/lighthouse.py) and the before-and-after tables written by hand."""
    opening, ours = sections(generated)
    written = {heading for heading, _ in ours}
    others = [text for heading, text in sections(existing)[1] if heading not in written]
    return opening + "".join(text if text.endswith("\n\n") else text.rstrip("\n") + "\n\n" for text in others) \
        + "".join(text for _, text in ours)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a handful of iterations, no Lighthouse, a temp file")
    parser.add_argument("--out", type=Path, help="where to write the report (default: BENCHMARKS.md, or a temp file)")
    args = parser.parse_args(argv)
    cfg = SMOKE if args.smoke else FULL
    results = collect(cfg)
    out = args.out or (Path(tempfile.mkstemp(prefix="gin-ledger-bench-", suffix=".md")[1]) if args.smoke
                       else ROOT / "BENCHMARKS.md")
    text = report(results, cfg, args.smoke)
    if out.exists():
        text = beside_the_others(text, out.read_text(encoding="utf-8"))
    out.write_text(text, encoding="utf-8")
    print(text, end="")
    log(f"wrote {out}")
    failed = [name for name, part in results.items()
              if isinstance(part, dict) and "error" in part and not part.get("optional") and name != "lighthouse"]
    if failed:
        log(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
