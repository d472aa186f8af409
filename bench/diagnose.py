"""Why the slow parts are slow: measurements that explain the numbers, not targets.

- What one hand's POST costs the disk: fdatasync and unlink calls counted with strace
  on the server (when strace is there), what one fdatasync costs on this disk, and the
  hand entry timed again while the benchmark holds one idle SQLite connection open to
  the same file (so a request closing its connection is no longer the last one, and
  SQLite neither checkpoints nor deletes the WAL at every request).
- Where the sheet's time goes as it grows: the view's stages timed in-process on the
  same database file, and its hot functions under cProfile.
"""
from __future__ import annotations

import cProfile
import os
import pstats
import random
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from .harness import HIGH_TARGET, ROOT, Server, random_hand
from .measure import Table, ms, p95


def fdatasync_cost(folder: Path, count: int) -> dict:
    """One small write and fdatasync, as a SQLite commit does, on the disk the database is on."""
    path = folder / "fsync-probe"
    times = []
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        for i in range(count):
            os.pwrite(fd, os.urandom(4096), (i % 8) * 4096)
            start = time.perf_counter()
            os.fdatasync(fd)
            times.append(ms(time.perf_counter() - start))
    finally:
        os.close(fd)
        path.unlink()
    return {"median": statistics.median(times), "p95": p95(times), "n": count}


def syscalls_per_hand(server: Server, hands: int) -> dict:
    """strace -c on the server while `hands` hands are entered (POST + sheet GET each)."""
    if not shutil.which("strace"):
        return {"error": "strace is not installed"}
    table = Table(server, HIGH_TARGET)
    rng = random.Random(11)
    table.enter(random_hand(rng))
    out = server.workdir / "strace.txt"
    tracer = subprocess.Popen(["strace", "-f", "-c", "-o", str(out), "-e",
                               "trace=fdatasync,fsync,unlink,openat", "-p", str(server.process.pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.8)  # attaching to every thread takes a moment
    if tracer.poll() is not None:
        return {"error": f"strace could not attach: {tracer.stderr.read().decode().strip()[-200:]}"}
    for _ in range(hands):
        table.enter(random_hand(rng))
    time.sleep(0.3)
    tracer.terminate()
    try:
        tracer.wait(timeout=10)
    except subprocess.TimeoutExpired:
        tracer.kill()
        tracer.wait()
    counts = {}
    for line in out.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[-1] in ("fdatasync", "fsync", "unlink", "openat") and parts[3].isdigit():
            counts[parts[-1]] = int(parts[3])
    out.unlink()
    return {"hands": hands, **{name: counts.get(name, 0) / hands for name in ("fdatasync", "fsync", "unlink", "openat")}}


def entry_with_connection_held(server: Server, hands: int) -> dict:
    """Hand entry timed in alternating blocks: as served, and with one idle connection held open."""
    table = Table(server, HIGH_TARGET)
    rng = random.Random(12)
    for _ in range(3):
        table.enter(random_hand(rng))
    plain, held = [], []
    block = max(1, min(10, hands // 4))
    while len(plain) < hands or len(held) < hands:
        for keep in (False, True):
            keeper = None
            if keep:
                keeper = sqlite3.connect(server.database)
                keeper.execute("SELECT COUNT(*) FROM match").fetchone()
            try:
                for _ in range(block):
                    total, post, _get = table.enter(random_hand(rng))
                    (held if keep else plain).append((ms(total), ms(post)))
            finally:
                if keeper:
                    keeper.close()
    def med(rows, i):
        return statistics.median(r[i] for r in rows)
    return {"n": min(len(plain), len(held)), "plain_entry": med(plain, 0), "plain_post": med(plain, 1),
            "held_entry": med(held, 0), "held_post": med(held, 1)}


def sheet_stages(database: Path, ids: dict, repeats: int) -> dict:
    """The match page's view taken apart in-process, on the server's own database file."""
    from app import create_app
    from db import get_db
    from models import storage
    from views.matches import render_match
    from views.sheet_view import sheet_rows

    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench"})
    rows = []
    profile_target = max(ids)
    for hands, match_id in sorted(ids.items()):
        stages = {"read": [], "fold": [], "rows": [], "view": []}
        with app.test_request_context(f"/matches/{match_id}"):
            render_match(storage.get_match(get_db(), match_id))  # warm up
            for _ in range(repeats):
                t0 = time.perf_counter()
                stored = storage.get_match(get_db(), match_id)
                t1 = time.perf_counter()
                sheet = stored.sheet()
                t2 = time.perf_counter()
                sheet_rows(sheet)
                t3 = time.perf_counter()
                render_match(storage.get_match(get_db(), match_id))
                t4 = time.perf_counter()
                stages["read"].append(ms(t1 - t0))
                stages["fold"].append(ms(t2 - t1))
                stages["rows"].append(ms(t3 - t2))
                stages["view"].append(ms(t4 - t3))
        med = {k: statistics.median(v) for k, v in stages.items()}
        med["template"] = max(0.0, med["view"] - med["read"] - med["fold"] - med["rows"])
        rows.append({"hands": hands, **med})
    hot, top_big = profile_view(app, ids[profile_target], max(1, repeats // 4))
    small = min(ids)
    _named, top_small = profile_view(app, ids[small], max(2, repeats // 2))
    return {"rows": rows, "profile": hot, "profile_hands": profile_target, "repeats": repeats,
            "top": {profile_target: top_big, small: top_small}}


HOT = [
    (("flask/app.py", "flask/helpers.py"), "url_for", "url_for (an edit link per row)"),
    ("markupsafe/__init__.py", "escape", "HTML escaping"),
    ("models/ledger.py", "score_sheet", "the fold (score_sheet)"),
    ("views/sheet_view.py", "sheet_rows", "sheet_rows"),
    ("models/storage.py", "get_match", "reading the hands (get_match)"),
    ("flask/templating.py", "render_template", "render_template, all of it"),
]


APP_DIRS = ("views/", "models/", "db.py", "forms.py", "app.py", "netinfo.py")
WRAPPERS = {"show", "render_match", "dispatch_request", "root", "block_main"}


def profile_view(app, match_id: int, repeats: int) -> tuple[list[dict], list[dict]]:
    """cProfile of the whole request (test client): cumulative share of a few named functions,
    and the app's own functions that take the most (the view's wrappers left out)."""
    client = app.test_client()
    client.get(f"/matches/{match_id}")
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        client.get(f"/matches/{match_id}")
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = max(v[3] for v in stats.stats.values())  # the outermost cumulative time
    found = []
    for suffix, name, label in HOT:
        for (filename, _line, func), (_cc, calls, _tt, cumulative, _callers) in stats.stats.items():
            if func == name and filename.replace(os.sep, "/").endswith(suffix):  # str or tuple of str
                found.append({"what": label, "share": cumulative / total, "calls": calls // repeats})
                break
    root = str(ROOT).replace(os.sep, "/") + "/"
    mine = []
    for (filename, line, func), (_cc, calls, _tt, cumulative, _callers) in stats.stats.items():
        path = filename.replace(os.sep, "/")
        if not path.startswith(root) or path.startswith(root + "bench/") or func in WRAPPERS:
            continue
        relative = path[len(root):]
        if relative.startswith(APP_DIRS) and 0.03 <= cumulative / total < 0.9:
            mine.append({"what": f"{relative}:{line} {func}", "share": cumulative / total,
                         "calls": max(1, calls // repeats)})
    mine.sort(key=lambda h: -h["share"])
    return found, mine[:6]


def folds_per_request(folder: Path) -> dict:
    """How many times one hand's POST and one sheet GET fold the match (score_sheet calls, cProfile)."""
    import json

    from app import create_app
    from .harness import form_fields, hidden, match_doc, hands_for

    app = create_app({"DATABASE": str(folder / "folds.sqlite"), "SECRET_KEY": "bench"})
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    reply = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"),
                                         "text": json.dumps(match_doc(hands_for(10, 3), HIGH_TARGET))})
    path = reply.headers["Location"]
    page = client.get(path).get_data(as_text=True)
    fields = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
              **form_fields({"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 22})}

    def calls(request) -> int:
        profiler = cProfile.Profile()
        profiler.enable()
        request()
        profiler.disable()
        return sum(v[1] for (filename, _l, func), v in pstats.Stats(profiler).stats.items()
                   if func == "score_sheet" and filename.replace(os.sep, "/").endswith("models/ledger.py"))

    post = calls(lambda: client.post(path.split("#")[0] + "/hands", data=fields))
    get = calls(lambda: client.get(path))
    return {"post": post, "get": get}


def diagnose(server: Server, hands: int, strace_hands: int) -> dict:
    return {
        "folds": folds_per_request(server.workdir),
        "fdatasync": fdatasync_cost(server.workdir, max(10, hands)),
        "syscalls": syscalls_per_hand(server, strace_hands),
        "held": entry_with_connection_held(server, hands),
        "tmp": tempfile.gettempdir(),
    }
