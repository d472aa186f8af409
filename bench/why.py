"""Where a saved hand's time goes, and a 1,000-hand sheet's: cProfile of the app in this process, by file.

Not a target: the shares point at what to make cheaper when hand entry or the sheet
misses. Flask's test client calls the app directly, so the shares are of the app's own
work (and SQLite's commit, which waits for the disk), without waitress or sockets.
"""
from __future__ import annotations

import cProfile
import json
import pstats
import random
import tempfile
import time
from pathlib import Path

from bench.loads import form_fields, match_doc, random_hand, typical_match
from tests.generate import HIGH_TARGET, long_match
from tests.server import ROOT, hidden

SITE = ("site-packages/", "dist-packages/")


def place(path: str, name: str) -> str:
    """Where a function's own time is spent: an app file, SQLite, a library by package, or Python itself."""
    if path.startswith(str(ROOT)) and "-packages/" not in path:
        return str(Path(path).relative_to(ROOT))
    if path == "~":
        return "SQLite (sqlite3 calls)" if "sqlite3" in name else "Python built-ins"
    for marker in SITE:
        if marker in path:
            return path.split(marker, 1)[1].split("/", 1)[0]
    return "Python standard library"


def app_client(folder: str):
    """The app on a fresh database in `folder`, and a test client holding a session."""
    from app import create_app

    application = create_app({"DATABASE": str(Path(folder) / "why.sqlite"), "SECRET_KEY": "bench"})
    return application.test_client()


def import_match(client, doc: dict) -> int:
    token = hidden(client.get("/").text, "csrf_token")
    answer = client.post("/import", data={"csrf_token": token, "text": json.dumps(doc)})
    return int(answer.location.rstrip("/").rsplit("/", 1)[1])


def places(profiler: cProfile.Profile, seconds: float, most: int = 8) -> list[dict]:
    """Own (not cumulative) time summed by place, as a share of the requests' time: the shares add up."""
    totals: dict[str, float] = {}
    for (path, _line, name), (_cc, _calls, own, _cumulative, _callers) in pstats.Stats(profiler).stats.items():
        totals[place(path, name)] = totals.get(place(path, name), 0.0) + own
    return [{"what": what, "share": spent / seconds} for what, spent in sorted(totals.items(), key=lambda kv: -kv[1])][:most]


def profile(client, paths_and_forms, count: int) -> dict:
    """Profile `count` rounds of the given requests; each round a GET of the page first, untimed, for its tokens."""
    profiler, seconds = cProfile.Profile(), 0.0
    for _ in range(count):
        for page, make in paths_and_forms:
            text = client.get(page).text
            start = time.perf_counter()
            profiler.enable()
            make(text)
            profiler.disable()
            seconds += time.perf_counter() - start
    return {"ms": seconds * 1000 / count, "rows": places(profiler, seconds), "count": count}


def saved_hand(count: int) -> dict:
    """A hand POSTed on a typical match in progress, and the sheet its redirect leads to."""
    with tempfile.TemporaryDirectory() as folder:
        client = app_client(folder)
        match = import_match(client, match_doc(typical_match()[:-2], HIGH_TARGET))
        page, rng = f"/matches/{match}", random.Random(7)

        def save(text: str) -> None:
            fields = {name: hidden(text, name) for name in ("csrf_token", "form_id")}
            answer = client.post(f"{page}/hands", data={**fields, **form_fields(random_hand(rng))})
            if answer.status_code != 302 or client.get(answer.location).status_code != 200:
                raise RuntimeError(f"hand not saved: {answer.status_code}")

        return profile(client, [(page, save)], count)


def big_sheet(count: int, hands: int = 1000) -> dict:
    """The match page of a 1,000-hand match."""
    with tempfile.TemporaryDirectory() as folder:
        client = app_client(folder)
        page = f"/matches/{import_match(client, long_match(hands, seed=hands))}"
        return {**profile(client, [(page, lambda _text: client.get(page))], count), "hands": hands}
