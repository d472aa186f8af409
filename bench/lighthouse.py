"""Lighthouse on the three pages of issue 24: home, the new-match form and a 13-hand match page.

    python bench/lighthouse.py [--runs 3] [--no-write]

Lighthouse comes from npm, pinned in bench/lighthouse/package.json and package-lock.json, and is
installed there on first use (`npm ci --prefix bench/lighthouse`; its node_modules is git-ignored).
CI never installs it: its `npm ci` reads the top-level package.json only. Lighthouse drives Debian's
Chromium (CHROME_PATH, default /usr/bin/chromium) with its default settings: a phone (mobile form
factor), simulated slow 4G, the CPU slowed 4x. The pages load nothing from another host, so no
network is needed beyond 127.0.0.1.

A waitress server (tests/server.py: its own process group, a new SQLite file in a temporary folder,
stopped at exit and on SIGTERM or Ctrl-C, and ending itself if this process is killed) serves the
pages; a 13-hand match (tests/generate.py `long_match`, as bench/host_costs.py imports it) is imported
first. Each page gets `--runs` runs (3 by default), interleaved page by page so that every page sees
the same noise; the median of each number is printed, and a section is written into BENCHMARKS.md
(replaced if there, else put after "What a host pays"), unless --no-write.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HERE = Path(__file__).resolve().parent / "lighthouse"  # package.json and package-lock.json; node_modules once installed
CHROMIUM = os.environ.get("CHROME_PATH") or "/usr/bin/chromium"
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu"
RUN_TIMEOUT_S = 300
MATCH_HANDS = 13
TARGET_SCORE, TARGET_CLS = 95, 0.02
SECTION = "## Lighthouse on the home, new-match and match pages (issue 24)"
AFTER = "## What a host pays (issue 24)"
# What each run keeps: Lighthouse's audit id -> our name.
METRICS = {"first-contentful-paint": "fcp_ms", "largest-contentful-paint": "lcp_ms", "total-blocking-time": "tbt_ms",
           "cumulative-layout-shift": "cls", "speed-index": "si_ms", "total-byte-weight": "bytes"}


# ---- reading a report (no Lighthouse needed: tests/test_lighthouse_bench.py) -----------------

def summarize(report: dict) -> dict:
    """One Lighthouse JSON report -> its performance score (0-100), metrics, and the audits that cost points:
    those weighed in the performance score and below full marks, and the opportunities that would save time."""
    audits = report["audits"]
    category = report["categories"]["performance"]
    run = {"score": round(category["score"] * 100) if category.get("score") is not None else None}
    for audit, name in METRICS.items():
        run[name] = audits.get(audit, {}).get("numericValue")
    run["costly"] = sorted(ref["id"] for ref in category["auditRefs"]
                           if ref.get("weight") and audits[ref["id"]].get("score") not in (None, 1))
    run["advice"] = sorted(
        audit_id for audit_id, audit in audits.items()
        if audit.get("details", {}).get("type") == "opportunity" and audit.get("score") not in (None, 1)
        and (audit["details"].get("overallSavingsMs") or 0) > 0)
    run["requests"] = len((audits.get("network-requests", {}).get("details") or {}).get("items", []))
    return run


def median_of(runs: list[dict]) -> dict:
    """The median of each number over the runs (each number on its own, so the score and CLS need not be of
    one run), the scores of every run, and the audits that cost points in any run with how many runs."""
    numbers = ["score", "requests", *METRICS.values()]
    middle = {name: statistics.median(values) if (values := [r[name] for r in runs if r.get(name) is not None])
              else None for name in numbers}
    costly: dict[str, int] = {}
    for run in runs:
        for audit in run["costly"]:
            costly[audit] = costly.get(audit, 0) + 1
    return {**middle, "scores": [r["score"] for r in runs], "cls_each": [r["cls"] for r in runs],
            "costly": costly, "runs": len(runs)}


def meets(page: dict) -> bool:
    """The median score at least TARGET_SCORE, and no run's layout shift over TARGET_CLS."""
    return (page["score"] is not None and page["score"] >= TARGET_SCORE
            and max((cls or 0) for cls in page["cls_each"]) <= TARGET_CLS)


# ---- running it ---------------------------------------------------------------------------

def pinned_version() -> str:
    return json.loads((HERE / "package.json").read_text())["devDependencies"]["lighthouse"]


def installed_cli(install: bool = True) -> Path:
    """Lighthouse's CLI as pinned; `npm ci --prefix bench/lighthouse` first if it is missing or another version."""
    package = HERE / "node_modules" / "lighthouse" / "package.json"
    want = pinned_version()
    if not (package.exists() and json.loads(package.read_text())["version"] == want):
        if not install:
            raise RuntimeError(f"Lighthouse {want} is not installed (npm ci --prefix {HERE.relative_to(ROOT)})")
        if not shutil.which("npm"):
            raise RuntimeError("npm is not on PATH: Lighthouse cannot be installed")
        print(f"installing Lighthouse {want} into {HERE.relative_to(ROOT)} (npm ci, once)", file=sys.stderr)
        subprocess.run(["npm", "ci", "--prefix", str(HERE), "--no-audit", "--no-fund", "--loglevel=error"],
                       check=True, timeout=900)
    return package.parent / "cli" / "index.js"


def stop_group(process: subprocess.Popen) -> None:
    """End a run that is still going, with its Chromium: SIGINT first, on which Lighthouse's chrome-launcher
    kills the Chromium it started (in a session of its own, so not in node's group), then TERM and KILL."""
    for signum, wait_s in ((signal.SIGINT, 15), (signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signum)
        except (ProcessLookupError, PermissionError):
            return
        try:
            process.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            continue


def run_once(cli: Path, url: str, keep: Path | None = None) -> dict:
    """One Lighthouse run of `url` (performance only, its mobile defaults); the full JSON kept at `keep` if given."""
    with tempfile.TemporaryDirectory(prefix="gin-lighthouse-") as folder:
        out = Path(folder) / "report.json"
        # In its own process group, so a run that times out or is interrupted ends with its Chromium.
        node = subprocess.Popen(
            ["node", str(cli), url, "--output=json", f"--output-path={out}", "--quiet",
             "--only-categories=performance", f"--chrome-flags={CHROME_FLAGS}"],
            env=dict(os.environ, CHROME_PATH=CHROMIUM), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        try:
            _, errors = node.communicate(timeout=RUN_TIMEOUT_S)
        finally:
            stop_group(node)
        if node.returncode != 0 or not out.exists():
            raise RuntimeError(f"lighthouse exited {node.returncode} on {url}: {errors[-2000:]}")
        report = json.loads(out.read_text())
        if keep:
            shutil.copyfile(out, keep)
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse on {url}: {report['runtimeError']}")
    return summarize(report)


def pages_on(server) -> dict[str, str]:
    """The three pages, with a 13-hand match imported as bench/host_costs.py imports it."""
    from tests.generate import long_match
    from tests.server import Client

    doc = long_match(MATCH_HANDS, seed=5)
    doc["rules"]["target"] = 1_000_000
    match = Client(server.base).import_match(doc)
    return {"home": "/", "new match": "/matches/new", f"match, {MATCH_HANDS} hands": f"/matches/{match}"}


def measure(runs: int, keep_dir: Path | None = None) -> dict:
    from tests.server import Server

    cli = installed_cli()
    with tempfile.TemporaryDirectory(prefix="gin-ledger-lighthouse-") as folder:
        with Server(Path(folder) / "bench.sqlite", threads=4) as server:
            paths = pages_on(server)
            done: dict[str, list[dict]] = {name: [] for name in paths}
            for number in range(1, runs + 1):  # interleaved: run 1 of each page, then run 2...
                for name, path in paths.items():
                    keep = keep_dir / f"{re.sub(r'[^a-z0-9]+', '-', name)}-{number}.json" if keep_dir else None
                    started = time.monotonic()
                    done[name].append(run_once(cli, server.base + path, keep))
                    print(f"  {name} run {number}: {done[name][-1]['score']} ({time.monotonic() - started:.0f} s)",
                          file=sys.stderr, flush=True)
    return {"pages": {name: median_of(each) for name, each in done.items()}, "paths": paths,
            "version": pinned_version()}


# ---- the report -----------------------------------------------------------------------------

def chromium_version() -> str:
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return "Chromium"
    return " ".join(out.split()[:2]) or "Chromium"


def ms(value) -> str:
    return "-" if value is None else f"{value:,.0f} ms"


def section(result: dict, started: datetime, load: tuple, commit: str) -> str:
    pages = result["pages"]
    runs = next(iter(pages.values()))["runs"]
    lines = [
        SECTION, "",
        f"`python bench/lighthouse.py` on {started:%Y-%m-%d} ({started:%H:%M} UTC, at {commit}; load average "
        f"{' / '.join(f'{x:.2f}' for x in load)} before, {os.cpu_count()} cores shared): Lighthouse {result['version']} (npm, "
        f"pinned in bench/lighthouse/) in {chromium_version()}, its defaults: a phone, simulated slow 4G, the CPU "
        f"slowed 4x. {runs} runs per page, interleaved; the median of each number (each on its own). Waitress "
        f"with 4 threads on 127.0.0.1; the match is {MATCH_HANDS} hands (`long_match`, as `host_costs.py`). "
        f"Lighthouse's phone is 412 x 823; the same pages at 360 x 740 with the CPU slowed 4x and the page script "
        f"late are tests/browser/test_layout_shift.py.", "",
        "| page | performance | each run | CLS | LCP | TBT | FCP | Speed Index | bytes | requests | audits below full marks (runs) |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, page in pages.items():
        costly = ", ".join(f"{audit} ({count})" for audit, count in sorted(page["costly"].items())) or "-"
        lines.append(
            f"| {name} | {page['score']:.0f} | {', '.join(map(str, page['scores']))} | {page['cls']:.3f} "
            f"(worst {max(page['cls_each']):.3f}) | "
            f"{ms(page['lcp_ms'])} | {ms(page['tbt_ms'])} | {ms(page['fcp_ms'])} | {ms(page['si_ms'])} | "
            f"{page['bytes'] / 1024:.1f} KB | {page['requests']:.0f} | {costly} |")
    met = [name for name, page in pages.items() if meets(page)]
    missed = [name for name in pages if name not in met]
    lines += ["", f"Target: performance at least {TARGET_SCORE} (median of {runs}) and layout shift at most "
              f"{TARGET_CLS} (every run) on the three pages: " + ("**met** on all three." if not missed else
                                                       f"**missed** on {', '.join(missed)}.")]
    return "\n".join(lines) + "\n"


def write_section(text: str, path: Path) -> None:
    """Replace our section of BENCHMARKS.md, or put it after "What a host pays" (else after the title)."""
    doc = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    lines = doc.splitlines(keepends=True)

    def end_of(start: int) -> int:
        return next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))

    heads = [i for i, line in enumerate(lines) if line.rstrip("\n") == SECTION]
    if heads:
        start, stop = heads[0], end_of(heads[0])
    else:
        after = [i for i, line in enumerate(lines) if line.rstrip("\n") == AFTER]
        start = stop = end_of(after[0]) if after else next(
            (i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    lines[start:stop] = [text, "\n"]
    path.write_text("".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md as it is")
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's full Lighthouse JSON in")
    options = parser.parse_args(argv)
    # SIGTERM unwinds like Ctrl-C: the running Lighthouse's group is ended (run_once) and the server stopped
    # (tests/server.py's own handler, which chains to this one).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if options.keep:
        options.keep.mkdir(parents=True, exist_ok=True)
    started, load = datetime.now(timezone.utc), os.getloadavg()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "an unknown commit"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True).stdout.split("\n")
    if any(line[3:] and line[3:] != "BENCHMARKS.md" for line in dirty):
        commit += " plus uncommitted changes"
    result = measure(options.runs, options.keep)
    text = section(result, started, load, commit)
    print(text, end="")
    if not options.no_write:
        write_section(text, ROOT / "BENCHMARKS.md")
        print(f"wrote {ROOT / 'BENCHMARKS.md'}", file=sys.stderr)
    return 0 if all(meets(page) for page in result["pages"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
