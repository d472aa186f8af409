"""Gin Ledger's benchmark: `python bench/run.py` writes BENCHMARKS.md; `--smoke` is the short CI version.

The app is served by waitress on 127.0.0.1 with a fresh SQLite file for each part, and
driven with the standard library's http.client (load), Playwright in Debian's Chromium
(page weight, taps) and Lighthouse 12.2.3 (scores). The full run takes a few minutes on
2 cores; `--smoke` does a handful of iterations of everything but Lighthouse and writes
its report to a temporary file, so the script cannot rot (no timing is asserted anywhere).
"""
from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import sys
import tempfile
import time
import traceback
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import browser, diagnose, measure  # noqa: E402
from bench.harness import ROOT, THREADS, Server  # noqa: E402

SECTIONS = ("## Hand entry", "## Sheet cost as a match grows", "## Throughput", "## Weight", "## Taps",
            "## Lighthouse", "## Targets", "## Why")

FULL = {"hands": 300, "rounds": 20, "engine_s": 2.0, "levels_s": 6.0, "hands_s": 10.0, "lighthouse": 3,
        "diag_hands": 60, "strace_hands": 20, "stage_repeats": 20}
SMOKE = {"hands": 5, "rounds": 1, "engine_s": 0.1, "levels_s": 0.3, "hands_s": 0.5, "lighthouse": 0,
         "diag_hands": 4, "strace_hands": 2, "stage_repeats": 2}

ENTRY_LIMIT, GROWTH_LIMIT = 3.0, 10.0
PAGE_BYTES, PAGE_REQUESTS = 30 * 1024, 3
KNOCK_ACTIONS, KNOCK_TRIPS, DRAW_ACTIONS = 5, 1, 2
SECONDS_PER_HAND = 90


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def attempt(name: str, work):
    """Run one part; a failure is reported in its section instead of ending the run."""
    log(name)
    try:
        return work()
    except Exception as error:  # noqa: BLE001 - the report says what failed
        traceback.print_exc()
        return {"error": f"{type(error).__name__}: {error}"}


def collect(cfg: dict) -> dict:
    results: dict = {"started": datetime.now(timezone.utc), "load_before": os.getloadavg(), "tree": tree_state()}
    t0 = time.perf_counter()
    with Server("entry") as server:
        results["entry"] = attempt("hand entry", lambda: measure.hand_entry(server, cfg["hands"]))
        results["diag"] = attempt("hand entry: what the disk costs",
                                  lambda: diagnose.diagnose(server, cfg["diag_hands"], cfg["strace_hands"]))
    with Server("growth") as server:
        results["growth"] = attempt("sheet growth", lambda: measure.sheet_growth(server, (10, 100, 1000),
                                                                                cfg["rounds"]))
        if "ids" in results["growth"]:
            results["stages"] = attempt("sheet stages", lambda: diagnose.sheet_stages(
                server.database, results["growth"]["ids"], cfg["stage_repeats"]))
    results["engine"] = attempt("engine", lambda: measure.engine(cfg["engine_s"]))
    with Server("load") as server:
        results["sheet_load"] = attempt("sheet throughput",
                                        lambda: measure.sheet_throughput(server, (1, 4, 16), cfg["levels_s"]))
        results["hand_load"] = attempt("hand throughput", lambda: measure.hand_throughput(server, 4, cfg["hands_s"]))
    with Server("browser") as server:
        why = browser.browser_missing()
        if why:
            results["browser"] = {"error": f"not measured: {why}"}
        else:
            results["browser"] = attempt("weight and taps (Playwright)", lambda: browser.playwright_parts(server))
        if not cfg["lighthouse"]:
            results["lighthouse"] = {"error": "not run in --smoke mode"}
        elif "pages" not in results["browser"]:
            results["lighthouse"] = {"error": results["browser"].get("error", "no pages")}
        else:
            results["lighthouse"] = attempt("lighthouse",
                                            lambda: browser.lighthouse_parts(server, results["browser"]["pages"],
                                                                             cfg["lighthouse"]))
    results["seconds"] = time.perf_counter() - t0
    results["load_after"] = os.getloadavg()
    return results


# ---- the report -------------------------------------------------------------------

def f1(x: float) -> str:
    return f"{x:.1f}"


def kb(n: float) -> str:
    return f"{n / 1024:.1f} KB"


def pct(share) -> str:
    return "-" if share is None else f"{share * 100:.0f}%"


def mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


def error_of(part) -> str | None:
    return part.get("error") if isinstance(part, dict) else "missing"


def tree_state() -> str:
    """Which code was measured: the commit, and the files changed since (read-only git commands)."""
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                                capture_output=True, text=True, timeout=10).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return "The code measured: unknown (no git)."
    if not head:
        return "The code measured: unknown (not a git checkout)."
    changed = [line[3:] for line in status if line[3:] != "BENCHMARKS.md"]
    if not changed:
        return f"The code measured: commit {head}, unchanged."
    return (f"The code measured: commit {head} plus uncommitted changes to {len(changed)} tracked files "
            f"({', '.join(changed)}).")


def machine(results: dict, cfg: dict, smoke: bool) -> list[str]:
    import waitress  # noqa: F401 - its version is in the metadata
    from importlib.metadata import version

    def load(avg):
        return " / ".join(f"{x:.1f}" for x in avg)

    return [
        f"{results['tree']} "
        f"Run {results['started']:%Y-%m-%d %H:%M} UTC{' (smoke: a handful of iterations, not for reading)' if smoke else ''}, "
        f"{results['seconds']:.0f} s. {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
        f"Flask {version('flask')}, waitress {version('waitress')} with {THREADS} threads, SQLite {sqlite3.sqlite_version} "
        f"(a fresh file in {tempfile.gettempdir()} for each part). Load average (1/5/15 min) before: "
        f"{load(results['load_before'])}, after: {load(results['load_after'])}: the client, the server, "
        "and anything else on the machine share its cores, so absolute times move between runs; the "
        "ratios are taken within one run, interleaved.",
        "",
        "Regenerate with `python bench/run.py` (a few minutes; `--smoke` for the short CI version).",
    ]


def entry_section(results: dict) -> list[str]:
    part = results["entry"]
    out = ["## Hand entry", ""]
    if error_of(part):
        return out + [f"Not measured: {error_of(part)}", ""]
    e, s = part["entry"], part["static"]
    out += [
        f"{e['n']} hands entered as a table enters them (classic rules, Hollywood to 100; a Rematch when a match "
        f"ends: {part['matches']} matches), each timed from the POST to the sheet's last byte: the POST, its 302 and "
        "the GET of the sheet it redirects to, on one keep-alive connection. Beside each, the limit: a GET, from the "
        "same server, of a static file holding the very bytes of the sheet just received "
        f"({kb(part['sizes']['min'])} to {kb(part['sizes']['max'])}, median {kb(part['sizes']['median'])}), "
        f"sent by `send_from_directory` as Flask's /static/ is. The first {part['warmup']} hands are not counted.",
        "",
        "| | median ms | p95 ms |",
        "|---|---:|---:|",
        f"| hand entry: POST + redirect + sheet GET | {f1(e['median'])} | {f1(e['p95'])} |",
        f"| of which the POST (302) | {f1(part['post']['median'])} | {f1(part['post']['p95'])} |",
        f"| of which the sheet GET | {f1(part['get']['median'])} | {f1(part['get']['p95'])} |",
        f"| static file of the same size (the limit) | {f1(s['median'])} | {f1(s['p95'])} |",
        f"| **ratio** hand entry / limit | **{part['ratio_median']:.1f}x** | {part['ratio_p95']:.1f}x |",
        "",
    ]
    if part.get("cpu_entry") is not None:
        ratio = (f" ({part['cpu_entry'] / part['cpu_static']:.1f}x)" if part["cpu_static"] >= 0.1 else
                 " (below what 10 ms clock ticks resolve over this few requests)")
        out += [
            f"The server's CPU time (from /proc, summed over the run; waiting for the disk or for a core is not "
            f"counted): {f1(part['cpu_entry'])} ms per hand entered, {part['cpu_static']:.2f} ms per static GET{ratio}.",
            "",
        ]
    out += [
        f"Target: within {ENTRY_LIMIT:.0f}x of the limit: {mark(part['ratio_median'] <= ENTRY_LIMIT)} "
        f"({part['ratio_median']:.1f}x at the median).",
        "",
    ]
    return out


def growth_section(results: dict) -> list[str]:
    part, engine = results["growth"], results["engine"]
    out = ["## Sheet cost as a match grows", ""]
    if error_of(part):
        out += [f"Not measured: {error_of(part)}", ""]
    else:
        out += [
            f"The match page (sheet and hand form) of matches imported with 10, 100 and 1,000 hands and target "
            f"1,000,000 so they stay open; {part['requests']} GETs of each, in batches of {part['batch']} round-robin. "
            "Server CPU is the waitress process's CPU time per GET (from /proc: not counting waits for a core).",
            "",
            "| hands | page | median ms | p95 ms | **ratio to 10 hands** | server CPU ms | CPU ratio | same-size static file, median ms |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in part["rows"]:
            cpu = f1(row["cpu"]) if row["cpu"] is not None else "-"
            cpu_ratio = f"{row['cpu_ratio']:.1f}x" if row["cpu_ratio"] is not None else "-"
            out.append(f"| {row['hands']:,} | {kb(row['bytes'])} | {f1(row['median'])} | {f1(row['p95'])} | "
                       f"**{row['ratio']:.1f}x** | {cpu} | {cpu_ratio} | {f1(row['static'])} |")
        last = part["rows"][-1]
        out += ["", f"Target: 1,000 hands within {GROWTH_LIMIT:.0f}x of 10 hands: {mark(last['ratio'] <= GROWTH_LIMIT)} "
                    f"({last['ratio']:.1f}x).", ""]
    if error_of(engine):
        out += [f"Engine: not measured: {error_of(engine)}", ""]
    else:
        out += [
            f"The engine alone, in-process, on a {engine['hands']}-hand match: **{engine['fold']:,.0f} folds per "
            f"second** (`score_sheet`, what every page and POST calls; {1000 / engine['fold']:.2f} ms each), "
            f"{engine['replay']:,.0f} full replays per second (`replay`: parse and validate the JSON file, fold, "
            "build the output).",
            "",
        ]
    return out


def throughput_section(results: dict) -> list[str]:
    sheet, hands = results["sheet_load"], results["hand_load"]
    out = ["## Throughput", ""]
    if error_of(sheet):
        out += [f"Sheet GETs: not measured: {error_of(sheet)}", ""]
    else:
        seconds = sheet["rows"][0]["elapsed"]
        out += [
            f"Sheet GETs of a typical match in progress ({sheet['hands']} hands), each client a thread with its own "
            f"keep-alive connection, {seconds:.0f} s per level; the clients run on the same 2 cores as the server.",
            "",
            "| clients | GETs per second | median ms | p95 ms | server CPU, share of one core |",
            "|---:|---:|---:|---:|---:|",
        ]
        out += [f"| {r['clients']} | {r['per_second']:.0f} | {f1(r['median'])} | {f1(r['p95'])} | "
                f"{pct(r.get('cpu_share'))} |" for r in sheet["rows"]]
        out += ["", "One waitress process runs the app's Python under one GIL, so it can use at most about one of "
                    "the 2 cores whatever the number of threads; the other core is shared by the client threads and "
                    "whatever else runs on the machine. Past that point more clients only queue.", ""]
    if error_of(hands):
        out += [f"Hands stored: not measured: {error_of(hands)}", ""]
    else:
        out += [
            f"Hands stored with {hands['clients']} clients, each posting to its own match (POST, redirect, sheet GET; "
            f"a Rematch when a match ends: {hands['matches']} tables), {hands['seconds']:.0f} s: "
            f"**{hands['per_second']:.1f} hands per second** ({hands['hands']} hands; median {f1(hands['median'])} ms, "
            f"p95 {f1(hands['p95'])} ms per hand; server CPU {pct(hands.get('cpu_share'))} of one core).",
            "",
            *([f"The server used {pct(hands['cpu_share'])} of a core while storing hands: what bounds it is not "
               "the CPU but the disk, each commit's fdatasync taken while SQLite's single write lock is held.", ""]
              if hands.get("cpu_share") is not None and hands["cpu_share"] < 0.8 else []),
            f"Tables served at once, if a table enters a hand every {SECONDS_PER_HAND} s: one table needs "
            f"1/{SECONDS_PER_HAND} = {1 / SECONDS_PER_HAND:.4f} hands per second, so {hands['per_second']:.1f} hands/s "
            f"÷ {1 / SECONDS_PER_HAND:.4f} = {hands['per_second']:.1f} × {SECONDS_PER_HAND} = "
            f"**{hands['tables']:,.0f} tables** with the server saturated (at half load, for latencies near the "
            f"single-client ones: about {hands['tables'] / 2:,.0f}).",
            "",
        ]
    return out


def weight_section(results: dict) -> list[str]:
    part = results["browser"]
    out = ["## Weight", ""]
    if error_of(part):
        return out + [f"Not measured: {error_of(part)}", ""]
    pages = part["pages"]
    out += [
        "Each page loaded in Chromium (Playwright) with an empty cache, counting every request until 0.4 s after "
        f"`load`; bytes are response bodies (headers, both ways, in their own column). Hand entry is the match page of "
        f"a typical match in progress ({pages['hands'] - 1} hands entered), the sheet that of the same match "
        f"finished ({pages['hands']} hands). The last row is what one saved hand (a knock) costs on a phone "
        "that has used the app before: home visited first, so its cache is warm and the service worker the app "
        f"registers from home is in control ({'yes' if part['weight'][-1].get('service_worker') else 'none here'}). "
        "Requests are counted as the server received them; bytes as the browser received them. Nothing is sent "
        "compressed; \"if gzipped\" is the 200 bodies through gzip -6, for comparison.",
        "",
        "| page | HTML | CSS | JS | images | fetch, other | total body | + headers | if gzipped | requests | "
        "to other hosts |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in part["weight"]:
        out.append(f"| {row['page']} | {kb(row['html'])} | {kb(row['css'])} | {kb(row['js'])} | {kb(row['img'])} | "
                   f"{kb(row['fetch'] + row['other'])} | {kb(row['body'])} | {kb(row['body'] + row['headers'])} | "
                   f"{kb(row['gzip'])} | {row['requests']} | {len(row['other_hosts'])} |")
    entry = next(r for r in part["weight"] if r["page"] == "hand entry")
    out += ["", "Requests, in the order the server received them:", ""]
    out += [f"- {row['page']}: {'; '.join(row['statuses'])}" for row in part["weight"]]
    out += [
        "",
        f"Target: hand-entry page under 30 KB with everything it loads: {mark(entry['body'] < PAGE_BYTES)} "
        f"({kb(entry['body'])} of bodies; {kb(entry['body'] + entry['headers'])} with headers); at most "
        f"{PAGE_REQUESTS} requests: {mark(entry['requests'] <= PAGE_REQUESTS)} ({entry['requests']}); none to another "
        f"host: {mark(not entry['other_hosts'])} ({len(entry['other_hosts'])}).",
        "",
    ]
    return out


def taps_section(results: dict) -> list[str]:
    part = results["browser"]
    out = ["## Taps", ""]
    if error_of(part):
        return out + [f"Not measured: {error_of(part)}", ""]
    out += [
        "Each hand entered on a new match's page in Chromium (touch, 360x740) by taps on the real controls, on a "
        "phone that has used the app before (home visited first); the flash after saving is checked. Requests "
        "are counted as the server received them (a log in bench/limit_app.py). A round trip is a request for a "
        "page or data (not a static file) from the save tap until the sheet has loaded and 0.4 s more; static "
        "files fetched in that time are listed beside, and so is what the page sent on its own meanwhile (during "
        "the earlier taps, or the old page's live poll).",
        "",
        "| hand | actions | round trips | which | static files | on its own meanwhile | "
        "last tap to sheet loaded, ms |",
        "|---|---:|---:|---|---|---|---:|",
    ]
    for row in part["taps"]:
        out.append(f"| {row['hand']} | {row['actions']} | {row['round_trips']} | {'; '.join(row['trips'])} | "
                   f"{'; '.join(row['other_requests']) or '-'} | {'; '.join(row['before_save']) or 'nothing'} | "
                   f"{row['ms']:.0f} |")
    knock = part["taps"][0]
    draw = part["taps"][-1]
    out += [
        "",
        f"Target: a knock in at most {KNOCK_ACTIONS} actions: {mark(knock['actions'] <= KNOCK_ACTIONS)} "
        f"({knock['actions']}) and {KNOCK_TRIPS} round trip: {mark(knock['round_trips'] <= KNOCK_TRIPS)} "
        f"({knock['round_trips']}); a draw in at most {DRAW_ACTIONS} actions: {mark(draw['actions'] <= DRAW_ACTIONS)} "
        f"({draw['actions']}).",
        "",
    ]
    return out


def lighthouse_section(results: dict) -> list[str]:
    part = results["lighthouse"]
    out = ["## Lighthouse", ""]
    if error_of(part):
        return out + [f"Not run: {error_of(part)}", ""]
    out += [
        f"Lighthouse {browser.LIGHTHOUSE_VERSION} (npm, installed into bench/.lighthouse) with Debian's Chromium, "
        "its default mobile settings (emulated phone, simulated slow 4G and 4x CPU slowdown); "
        f"{part['runs']} runs per page, the run with the median performance score shown.",
        "",
        "| page | performance | accessibility | best practices | FCP | LCP | TBT | CLS | performance of each run | "
        "host benchmark index |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    notes = []
    for name, run in part["pages"].items():
        if "error" in run:
            out.append(f"| {name} | not run: {run['error']} | | | | | | |")
            continue
        s, m = run["scores"], run["metrics"]
        indexes = ", ".join(f"{i:.0f}" for i in run["indexes"] if i is not None) or "-"
        out.append(f"| {name} | {s['performance']} | {s['accessibility']} | {s['best-practices']} | "
                   f"{m['first-contentful-paint']} | {m['largest-contentful-paint']} | {m['total-blocking-time']} | "
                   f"{m['cumulative-layout-shift']} | {', '.join(map(str, run['runs']))} | {indexes} |")
        for audit in run["failing"]:
            where = f" at `{audit['where']}`" if audit["where"] else ""
            value = f" ({audit['value']})" if audit["value"] else ""
            notes.append(f"- {name}, {audit['category']}: {audit['title']} (`{audit['id']}`, score "
                         f"{audit['score']:.2f}){value}{where}")
    met = all("scores" in r and all(v == 100 for v in r["scores"].values()) for r in part["pages"].values())
    out += ["", f"Target: 100/100/100 on both: {mark(met)}.", ""]
    if notes:
        out += ["Audits below full marks:", "", *notes, ""]
    return out


def targets_section(results: dict) -> list[str]:
    rows = []
    entry, growth, bro, lh = results["entry"], results["growth"], results["browser"], results["lighthouse"]
    if not error_of(entry):
        rows.append(("Hand entry within 3x of a same-size static file", f"{entry['ratio_median']:.1f}x",
                     entry["ratio_median"] <= ENTRY_LIMIT))
    if not error_of(growth):
        last = growth["rows"][-1]
        rows.append(("Sheet at 1,000 hands within 10x of 10 hands", f"{last['ratio']:.1f}x", last["ratio"] <= GROWTH_LIMIT))
    if not error_of(bro):
        page = next(r for r in bro["weight"] if r["page"] == "hand entry")
        rows.append(("Hand-entry page under 30 KB with all it loads", kb(page["body"]), page["body"] < PAGE_BYTES))
        rows.append(("Hand-entry page at most 3 requests", str(page["requests"]), page["requests"] <= PAGE_REQUESTS))
        rows.append(("Hand-entry page: no request to another host", str(len(page["other_hosts"])), not page["other_hosts"]))
        knock, draw = bro["taps"][0], bro["taps"][-1]
        rows.append(("Knock in at most 5 actions", str(knock["actions"]), knock["actions"] <= KNOCK_ACTIONS))
        rows.append(("Knock in one round trip", str(knock["round_trips"]), knock["round_trips"] <= KNOCK_TRIPS))
        rows.append(("Draw in at most 2 actions", str(draw["actions"]), draw["actions"] <= DRAW_ACTIONS))
    if not error_of(lh):
        for name, run in lh["pages"].items():
            if "scores" in run:
                s = run["scores"]
                rows.append((f"Lighthouse 100/100/100, {name}", "/".join(str(s[c]) for c in browser.CATEGORIES),
                             all(v == 100 for v in s.values())))
    out = ["## Targets", "", "| target | measured | |", "|---|---:|---|"]
    out += [f"| {name} | {value} | {mark(ok)} |" for name, value, ok in rows]
    missing = [n for n, p in (("hand entry", entry), ("sheet growth", growth), ("weight and taps", bro),
                              ("Lighthouse", lh)) if error_of(p)]
    if missing:
        out += ["", f"Not measured in this run: {', '.join(missing)} (see their sections)."]
    return out + [""]


def why_section(results: dict) -> list[str]:
    """The measured reasons behind what missed; the numbers come from this run."""
    out = ["## Why", ""]
    entry, diag, stages = results["entry"], results["diag"], results.get("stages", {"error": "not run"})
    if not error_of(entry) and not error_of(diag):
        held, sync, calls = diag["held"], diag["fdatasync"], diag["syscalls"]
        gain = (held["plain_post"] - held["held_post"]) / held["plain_post"]
        post, get = entry["post"]["median"], entry["get"]["median"]
        out += [
            f"**Hand entry vs the limit.** Of the hand's {f1(entry['entry']['median'])} ms at the median, the POST "
            f"is {f1(post)} and the sheet GET {f1(get)}; the static file takes {f1(entry['static']['median'])}.",
        ]
        top_small = (stages.get("top") or {}).get(min((stages.get("top") or {0: None}).keys())) \
            if not error_of(stages) else None
        if get >= post and top_small:
            out.append(
                "  The GET is the bigger part: it renders the whole match page. The app's own functions that cost the "
                f"most in it (cProfile of the {min(stages['top']):,}-hand page, share of the request): "
                + "; ".join(f"`{h['what']}` {h['share'] * 100:.0f}% ({h['calls']} calls)" for h in top_small) + ".")
        out.append(
            "  The POST, for the disk: `models/storage.py` `connect()` sets `PRAGMA synchronous = FULL` and `db.py` "
            "opens a new SQLite connection per request and closes it at teardown; when the closing connection is "
            "the last one on the file, SQLite checkpoints the WAL into the database and deletes the `-wal` and "
            "`-shm` files, and the next request creates them again.")
        if "error" in calls:
            out.append(f"  System calls per hand: not counted ({calls['error']}).")
        else:
            out.append(f"  strace on the server counts, per hand entered (POST + sheet GET): "
                       f"{calls['fdatasync'] + calls['fsync']:.1f} fdatasync/fsync, {calls['unlink']:.1f} unlinks and "
                       f"{calls['openat']:.1f} file opens ({calls['hands']} hands).")
        out += [
            f"  One 4 KB write + fdatasync on this disk takes {f1(sync['median'])} ms at the median "
            f"(p95 {f1(sync['p95'])} ms).",
            f"  Held test: with the benchmark holding one idle connection open on the same file (so no request's "
            f"connection is the last: no checkpoint, no WAL re-created), {held['n']} hands alternating in blocks: "
            f"POST {f1(held['plain_post'])} → {f1(held['held_post'])} ms "
            f"({(held['held_post'] - held['plain_post']) / held['plain_post'] * 100:+.0f}%), whole hand "
            f"{f1(held['plain_entry'])} → {f1(held['held_entry'])} ms"
            + (": the checkpoint and the WAL re-created at every request are a large part of the POST. "
               if gain >= 0.25 else
               ": in this run the disk answered fast enough that this mattered little (fdatasync times vary "
               "a lot on this virtual disk from one run to the next). ")
            + "What remains is the commit's own fdatasync (synchronous = FULL) and CPU: "
            f"the POST folds the match {diag['folds']['post']} times (`score_sheet` calls counted with cProfile"
            + ("; `add_hand` folds `current.sheet()` and `record_change` folds again" if diag["folds"]["post"] == 2
               else "") +
            f"), the sheet GET {diag['folds']['get']} more "
            "and renders the whole page with Jinja, while the limit only copies bytes.",
            "  Fix, in app code: keep one connection per waitress thread (or one idle connection for the life of "
            "the process) instead of one per request; `synchronous = NORMAL` would drop the commit's fsync too, at "
            "the cost of the durability the code comment asks for. Even with no disk wait the sheet GET alone is "
            f"{entry['get']['median'] / entry['static']['median']:.1f}x the static file, so 3x for POST + GET "
            "needs the page's render made cheap (nothing computed per request that does not change, such as QR "
            "codes) or cached per match version.",
            "",
        ]
    if not error_of(stages):
        rows = {r["hands"]: r for r in stages["rows"]}
        small, big = rows[min(rows)], rows[max(rows)]
        per_hand = (big["view"] - small["view"]) / (big["hands"] - small["hands"])
        fixed = small["view"] - per_hand * small["hands"]
        out += [
            "**Sheet growth.** The page is linear in the hands: every hand is a row the server folds, turns into "
            "cells and renders. The view taken apart in-process on the same database "
            f"(median of {stages['repeats']}, ms):",
            "",
            "| hands | read from SQLite | fold | rows | template and form | whole view |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        out += [f"| {r['hands']:,} | {r['read']:.2f} | {r['fold']:.2f} | {r['rows']:.2f} | {r['template']:.2f} | "
                f"{r['view']:.2f} |" for r in stages["rows"]]
        out += [
            "",
            f"  That is about {fixed:.1f} ms per page plus {per_hand * 1000:.0f} µs per hand, so 1,000 hands cost "
            f"{big['view'] / small['view']:.0f}x 10 hands in the view alone"
            + (f" (a ratio that a large fixed part keeps small: with half of the {fixed:.1f} ms it would be "
               f"{(fixed / 2 + big['hands'] * per_hand) / (fixed / 2 + small['hands'] * per_hand):.0f}x)"
               if fixed > 0 and big["view"] / small["view"] <= GROWTH_LIMIT else "")
            + "; the template is "
            f"{big['template'] / big['view'] * 100:.0f}% of it at {big['hands']:,} hands. Under cProfile "
            f"(approximate shares of the {stages['profile_hands']:,}-hand request):",
        ]
        out += [f"  - {h['what']}: {h['share'] * 100:.0f}%, {h['calls']:,} calls per request" for h in stages["profile"]]
        for hands, top in sorted(stages.get("top", {}).items()):
            out.append(f"  The app's own functions that cost the most at {hands:,} hands: "
                       + ("; ".join(f"`{h['what']}` {h['share'] * 100:.0f}% ({h['calls']:,} calls)" for h in top)
                          or "none above 3%") + ".")
        url_for = next((h for h in stages["profile"] if h["what"].startswith("url_for")), None)
        out += [
            "",
            "  Fix, in app code: the sheet renders every row of every hand"
            + (f"; `templates/_sheet.html` calls `url_for('hands.edit', ...)` once per row ({url_for['calls']:,} calls "
               "for this page: build the prefix once and append the number)"
               if url_for and url_for["calls"] >= stages["profile_hands"] else "")
            + ". Showing the last hands and folding older ones behind a link (or caching the rendered rows per "
            "match version) makes the page cost independent of the match's length. The fold itself is a small part.",
        ]
        if not error_of(results["growth"]):
            grow = results["growth"]["rows"]
            first, last = grow[0], grow[-1]
            per = (last["median"] - first["median"]) / (last["hands"] - first["hands"])
            allowed = (GROWTH_LIMIT - 1) * first["median"] / (last["hands"] - first["hands"])
            if per > allowed:
                out.append(
                    f"  Over HTTP: ({f1(last['median'])} − {f1(first['median'])}) ms ÷ {last['hands'] - first['hands']:,} "
                    f"hands = {per * 1000:.0f} µs per hand; within {GROWTH_LIMIT:.0f}x of {f1(first['median'])} ms it "
                    f"would have to be at most {allowed * 1000:.0f} µs, {(1 - allowed / per) * 100:.0f}% less, "
                    "if nothing is done about rendering every row.")
        out.append("")
    growth = results["growth"]
    if not error_of(growth) and growth["rows"][-1]["cpu_ratio"] is not None:
        last = growth["rows"][-1]
        out += [
            f"  Measured from outside, the server's CPU time per sheet GET grows {last['cpu_ratio']:.1f}x from 10 to "
            f"{last['hands']:,} hands (median wall time: {last['ratio']:.1f}x). CPU time leaves out the waits for a "
            "core, which on a loaded machine add to every request whatever its size.",
            "",
        ]
    bro = results["browser"]
    if not error_of(bro):
        entry_page = next(r for r in bro["weight"] if r["page"] == "hand entry")
        knock = bro["taps"][0]
        if entry_page["body"] >= PAGE_BYTES:
            out += [
                f"**Page weight.** The hand-entry page is {kb(entry_page['body'])}: HTML {kb(entry_page['html'])} "
                f"(of which inline SVG {kb(bro['pages']['entry_html']['svg'])} and tables "
                f"{kb(bro['pages']['entry_html']['tables'])}; the rest is the hand form with its deadwood buttons "
                f"and number pad, the scoreboard and the links), CSS {kb(entry_page['css'])}, "
                f"JS {kb(entry_page['js'])}, icon {kb(entry_page['img'])}. Nothing is compressed (waitress and Flask "
                f"send text as is; Lighthouse flags it as `uses-text-compression`); gzipped the same responses are "
                f"{kb(entry_page['gzip'])}. Fix: gzip in front of the app, or precompressed static files plus "
                "compressed HTML; or trim the CSS and JS.",
                "",
            ]
        if entry_page["requests"] > PAGE_REQUESTS:
            paths = [st.split(" ")[1] for st in entry_page["statuses"]]
            icon = any(p.endswith(".svg") or "icon" in p for p in paths)
            polls = [p for p in paths if p.endswith("/live")]
            out += [
                f"**Requests.** The hand-entry page makes {entry_page['requests']}: {'; '.join(entry_page['statuses'])}."
                + (" The icon is the favicon (`templates/base.html`, `<link rel=icon>`); the CSP already allows "
                   "`img-src data:`, so the icon inlined as a data: URL saves a request." if icon else "")
                + (f" `{polls[0]}` is the live poll of `static/app.js`, which calls `poll()` as soon as the script "
                   "runs: the page was drawn at that version an instant before, so this first answer is a 304 that "
                   "tells nothing; starting with `schedule()` (the first poll 1.5 s later) saves the request."
                   if polls else ""),
                "",
            ]
        if knock["round_trips"] > KNOCK_TRIPS:
            polls = [t for t in knock["trips"] if "/live " in t]
            reval = bro["pages"]["revalidation"]
            out += [
                f"**Round trips.** Saving a knock is {knock['round_trips']} round trips ({'; '.join(knock['trips'])})"
                + (f", {knock['documents']} of them documents: the form POST answers 302 (post/redirect/get, so a "
                   "reload cannot post twice) and the browser then GETs the sheet" if knock["documents"] >= 2 else "")
                + ("; the last is the new page's immediate live poll (see Requests)" if polls else "")
                + ". One round trip would need the POST to answer with the sheet itself (a 200, or fetch() and swap "
                "the page)."
                + (f" Besides, the new page revalidates what it loads ({'; '.join(knock['other_requests'])}): the "
                   f"static files come with `Cache-Control: {bro['pages']['static_cache']}`"
                   + (" (Flask's default while SEND_FILE_MAX_AGE_DEFAULT is not set)"
                      if "no-cache" in bro["pages"]["static_cache"] else "")
                   + ", so each page asks again; a max-age with versioned URLs would remove these."
                   if knock["other_requests"] else "")
                + (f" And waitress answers a 304 with `Connection: close` (measured on a revalidation of style.css: "
                   f"{reval['status']}, connection {reval['connection']}): a 304 has no Content-Length, and "
                   "waitress 3.0.2 (`task.py`, `build_response_header`) closes every HTTP/1.1 response without "
                   "one, so each revalidation and each live poll's 304 costs a new TCP connection."
                   if reval["status"] == 304 and reval["connection"] == "close" else ""),
                "",
            ]
    lh = results["lighthouse"]
    if not error_of(lh):
        runs = {name: run for name, run in lh["pages"].items() if "scores" in run}
        below = [(name, a) for name, run in runs.items() for a in run.get("failing", [])
                 if a["category"] != "performance" or run["scores"]["performance"] < 100]
        if below:
            out.append("**Lighthouse.** What cost points (listed under Lighthouse above):")
            seen = set()
            for name, audit in below:
                if audit["id"] in seen:
                    continue
                seen.add(audit["id"])
                pages = [n for n, a in below if a["id"] == audit["id"]]
                out.append(f"- `{audit['id']}` on {' and '.join(pages)}: {audit['title']}"
                           + (f" (first at `{audit['where']}`)" if audit["where"] else ""))
            if any(a["id"] == "heading-order" and "board" in a["where"] for _n, a in below):
                out.append("  The scoreboard's game titles are `<h3>` (`templates/_scoreboard.html`) right after the "
                           "page's `<h1>`, with no `<h2>` between: making them `<h2>` (or giving the scoreboard an "
                           "`<h2>`) passes the audit.")
            slow = [n for n, run in runs.items() if run["scores"]["performance"] < 100]
            if slow:
                indexes = [i for n in slow for i in runs[n]["indexes"] if i is not None]
                loads = ", ".join(f"{runs[n]['load']:.1f}" for n in slow)
                out.append(
                    f"  Performance below 100 on {' and '.join(slow)} comes from the timing metrics above, which "
                    "Lighthouse simulates from the trace of one real load (slow 4G, CPU work x4). Its CPU probe "
                    f"rated this host {min(indexes):.0f} to {max(indexes):.0f} during the runs (Chrome's calibration "
                    "puts a mid-tier phone, a Pixel 5, at 1000), with a 1-minute load average of "
                    f"{loads} on 2 cores: other work on the machine inflates the observed script and layout times, "
                    "and those are then multiplied by 4. The pages load "
                    "one small stylesheet and one deferred script, so on an idle host these metrics are what to "
                    "re-check first; the uncompressed HTML, CSS and JS (see weight) are the part the app controls.")
            out.append("")
    if len(out) == 2:
        out.append("Nothing missed in this run.")
    return out


def report(results: dict, cfg: dict, smoke: bool) -> str:
    lines = ["# Benchmarks", "", *machine(results, cfg, smoke), ""]
    for section in (targets_section, entry_section, growth_section, throughput_section, weight_section,
                    taps_section, lighthouse_section, why_section):
        lines += section(results)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a handful of iterations, no Lighthouse, a temp file")
    parser.add_argument("--out", help="where to write the report (default: BENCHMARKS.md, or a temp file with --smoke)")
    args = parser.parse_args(argv)
    cfg = SMOKE if args.smoke else FULL
    results = collect(cfg)
    text = report(results, cfg, args.smoke)
    if args.out:
        out = Path(args.out)
    elif args.smoke:
        fd, name = tempfile.mkstemp(prefix="gin-ledger-bench-", suffix=".md")
        os.close(fd)
        out = Path(name)
    else:
        out = ROOT / "BENCHMARKS.md"
    out.write_text(text, encoding="utf-8")
    print(text)
    log(f"wrote {out}")
    failed = [name for name in ("entry", "growth", "engine", "sheet_load", "hand_load", "browser")
              if error_of(results.get(name))]
    if args.smoke and results["browser"].get("error", "").startswith("not measured") and os.environ.get("CI") != "true":
        failed.remove("browser")  # a workstation without Chromium: said in the report, not a failure
    if failed:
        log(f"failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
