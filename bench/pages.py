"""The browser parts: page weight and taps in Chromium (tests/browser/driver.py), and Lighthouse.

Bytes are what the browser received (Playwright's events); requests are what the server
received (tests/server.py's request log), so a service worker answering from its cache
does not count as a request and one fetching for the page does.
"""
from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench import lighthouse as bench_lighthouse
from bench.loads import match_doc, typical_match
from tests.browser.driver import CHROMIUM, launch, phone
from tests.server import Client, Server

SETTLE_MS = 400  # after `load`: the favicon and anything late still count
KINDS = {"text/html": "html", "text/css": "css", "text/javascript": "js", "application/javascript": "js"}
STATIC = ("/static/", "/sw.js", "/favicon")
CATEGORIES = ("performance", "accessibility", "best-practices")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift")


class Recorder:
    """The responses a context's pages (and its service worker) got from the network, between start and stop."""

    def __init__(self, context, server: Server):
        self.server, self.rows, self.on, self.mark = server, [], False, 0
        context.on("requestfinished", lambda request: self.on and self.rows.append(request))

    def start(self) -> None:
        self.rows, self.on, self.mark = [], True, len(self.server.requests_seen())

    def stop(self, page) -> dict:
        """Settle, then weigh by kind of content, with the server's view of the requests."""
        page.wait_for_timeout(SETTLE_MS)
        self.on = False
        weight = dict.fromkeys(("html", "css", "js", "img", "other", "headers", "gzip"), 0)
        hosts = set()
        for request in self.rows:
            response = request.response()
            if response is None or response.from_service_worker:
                continue  # answered inside the browser
            served = response.headers.get("content-type", "").split(";")[0]
            kind = KINDS.get(served, "img" if served.startswith("image/") else "other")
            sizes = request.sizes()
            weight[kind] += sizes["responseBodySize"]
            weight["headers"] += sizes["responseHeadersSize"] + sizes["requestHeadersSize"] + sizes["requestBodySize"]
            weight["gzip"] += len(gzip.compress(response.body(), 6)) if response.status == 200 else 0
            hosts.add(urlsplit(request.url).hostname)
        seen = self.server.requests_seen()[self.mark:]
        body = sum(weight[k] for k in ("html", "css", "js", "img", "other"))
        return {**weight, "body": body, "requests": seen, "other_hosts": sorted(hosts - {"127.0.0.1"})}


def warm_phone(browser, server: Server):
    """A phone that has used the app before: home visited, its service worker in control (if it registers one)."""
    context = phone(browser, server.base)
    page = context.new_page()
    page.goto("/", wait_until="load")
    worker = page.evaluate("""() => !navigator.serviceWorker || !document.documentElement.dataset.sw ? false :
        Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((ok) => setTimeout(ok, 5000, false))])""")
    return context, page, bool(worker)


def weight(browser, server: Server) -> dict:
    """Each page with an empty cache; then one saved hand (a knock) on a warm phone."""
    hands, setup = typical_match(), Client(server.base)
    paths = {"home": "/", "new match": "/matches/new",
             "hand entry": f"/matches/{setup.import_match(match_doc(hands[:-1]))}",
             "sheet": f"/matches/{setup.import_match(match_doc(hands))}"}
    rows = []
    for name, path in paths.items():
        context = phone(browser, server.base)
        recorder, page = Recorder(context, server), context.new_page()
        recorder.start()
        page.goto(path, wait_until="load")
        rows.append({"page": name, **recorder.stop(page)})
        context.close()
    context, page, worker = warm_phone(browser, server)
    recorder = Recorder(context, server)
    page.goto(f"/matches/{setup.import_match(match_doc(hands[:-2]))}", wait_until="load")
    for selector in ("label[for=knocker-1]", "label[for=kd-4]", '[data-key="2"]', '[data-key="2"]'):
        page.click(selector)
    recorder.start()
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_url("**#hand-*")
    rows.append({"page": "saving a hand", **recorder.stop(page)})
    context.close()
    return {"rows": rows, "hands": len(hands), "service_worker": worker, "paths": paths}


# What a player taps for each kind of hand on a new match's page, and what the page must then say.
TAPS = {
    "knock (Ana knocks with 4, Ben holds 22)": (
        ["label[for=knocker-1]", "label[for=kd-4]", '[data-key="2"]', '[data-key="2"]', "Save hand"],
        "Hand 1: Ana knocks, 4 against 22. Ana scores 18"),
    "gin (Ana gins, Ben holds 22)": (
        ["label[for=knocker-1]", "label[for=kd-0]", '[data-key="2"]', '[data-key="2"]', "Save hand"],
        "Hand 1: Ana knocks, 0 against 22. Gin! Ana scores 47"),
    "undercut (Ana knocks with 8, Ben holds 5)": (
        ["label[for=knocker-1]", "label[for=kd-8]", '[data-key="5"]', "Save hand"],
        "Hand 1: Ana knocks, 8 against 5. Undercut! Ben scores 13"),
    "draw": (["Draw (nobody knocked)"], "Hand 1: a draw"),
}


def tap_hand(browser, server: Server, name: str) -> dict:
    """One hand by taps on a warm phone; round trips are what the server got from the save tap
    until the sheet had loaded (static files and live polls listed apart)."""
    steps, expected = TAPS[name]
    context, page, _worker = warm_phone(browser, server)
    page.goto(f"/matches/{Client(server.base).import_match(match_doc([]))}", wait_until="load")
    page.wait_for_timeout(SETTLE_MS)
    first = len(server.requests_seen())
    for step in steps[:-1]:
        page.tap(step)
    # As a player reads the preview before saving: what the earlier taps asked is answered before the save
    # tap, so only what the save tap itself costs follows it (a preview's 120 ms would otherwise fall on
    # either side of it, by how quickly the taps came).
    page.wait_for_timeout(SETTLE_MS)
    saved_from = len(server.requests_seen())
    started = time.perf_counter()
    page.get_by_role("button", name=steps[-1]).tap()
    page.wait_for_url("**#hand-1")
    page.wait_for_load_state("load")
    seconds = time.perf_counter() - started
    page.wait_for_timeout(SETTLE_MS)
    said = " ".join(page.locator(".flash").all_text_contents())
    context.close()
    if expected not in said:
        raise RuntimeError(f"{name}: the page said {said!r}, not {expected!r}")
    seen = server.requests_seen()
    after = seen[saved_from:]
    trips = [r for r in after if not r.split()[1].startswith(STATIC) and not r.split()[1].endswith("/live")]
    return {"hand": name, "actions": len(steps), "trips": trips, "ms": seconds * 1000,
            "static": [r for r in after if r.split()[1].startswith(STATIC)],
            "meanwhile": seen[first:saved_from] + [r for r in after if r.split()[1].endswith("/live")]}


def playwright_parts(server: Server) -> dict:
    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")  # a worker's fetches count
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            return {"weight": weight(browser, server), "taps": [tap_hand(browser, server, name) for name in TAPS]}
        finally:
            browser.close()


# ---- Lighthouse ------------------------------------------------------------------

def lighthouse_run(cli: Path, url: str) -> dict:
    """One run with Lighthouse's defaults (a phone, simulated slow 4G, CPU x4)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.json"
        subprocess.run(["node", str(cli), url, "--output=json", f"--output-path={out}", "--quiet",
                        f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={bench_lighthouse.CHROME_FLAGS}"],
                       env=dict(os.environ, CHROME_PATH=CHROMIUM), check=True, capture_output=True, timeout=300)
        report = json.loads(out.read_text())
    audits = report["audits"]
    below = sorted({ref["id"] for c in CATEGORIES for ref in report["categories"][c]["auditRefs"]
                    if ref.get("weight") and audits[ref["id"]].get("score") not in (None, 1)})
    return {"scores": [round(report["categories"][c]["score"] * 100) for c in CATEGORIES], "below": below,
            "metrics": [audits[m].get("displayValue", "") for m in METRICS]}


def lighthouse(server: Server, paths: dict, runs: int) -> dict:
    """`runs` runs per page; the one with the median performance score is shown. Lighthouse is the version pinned
    in bench/lighthouse/, installed there on first use (bench/lighthouse.py: `npm ci --prefix bench/lighthouse`)."""
    if not shutil.which("node"):
        return {"error": "node is not on PATH"}
    cli = bench_lighthouse.installed_cli()
    pages = {}
    for name, path in paths.items():
        done = sorted((lighthouse_run(cli, server.base + path) for _ in range(runs)), key=lambda r: r["scores"][0])
        pages[name] = {**done[len(done) // 2], "runs": [r["scores"][0] for r in done]}
    return {"pages": pages, "runs": runs, "version": bench_lighthouse.pinned_version()}
