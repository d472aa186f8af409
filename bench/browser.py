"""The browser parts: page weight and taps with Playwright in Debian's Chromium, and Lighthouse.

Every page is loaded in a fresh browser context (empty cache, no cookies) on a 360x740
touch screen, as tests/browser does. Requests are counted from Playwright's events:
what the page asked for, to which host, and how many bytes came back.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from .harness import ROOT, Client, Server, import_match, match_doc, typical_match

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 360, "height": 740}
SETTLE_MS = 400  # after `load`: the favicon and anything late still count
LIGHTHOUSE_VERSION = "12.2.3"
LIGHTHOUSE_DIR = ROOT / "bench" / ".lighthouse"
LIGHTHOUSE_CLI = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"

KINDS = {"document": "html", "stylesheet": "css", "script": "js", "image": "img"}
def browser_missing() -> str | None:
    """Why the Playwright parts cannot run here, or None."""
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -r requirements-dev.txt)"
    return None


def kind_of(request, response=None) -> str:
    """html / css / js / img / fetch / other, by what came back when it says (a page fetched by a
    service worker is a "fetch" to Playwright), else by the kind of request and its path."""
    if response is not None:
        served = (response.headers.get("content-type") or "").split(";")[0].strip()
        by_type = {"text/html": "html", "text/css": "css", "text/javascript": "js",
                   "application/javascript": "js"}.get(served)
        if by_type and not (by_type == "html" and request.resource_type in ("fetch", "xhr")
                            and not getattr(request, "service_worker", None)):
            return by_type
        if served.startswith("image/"):
            return "img"
    kind = KINDS.get(request.resource_type)
    if kind:
        return kind
    if request.resource_type in ("fetch", "xhr"):
        return "fetch"
    path = urlsplit(request.url).path
    if path.endswith((".svg", ".png", ".ico", ".jpg", ".jpeg", ".webp", ".gif")):
        return "img"
    return "other"


# What the page's own fetch() calls got back. Playwright reports a fetch answered by an
# empty 304 as failed (net::ERR_ABORTED) though the page gets its 304; this tells them apart.
FETCH_LOG = """(() => {
  const original = window.fetch;
  if (!original) return;
  window.__benchFetches = [];
  window.fetch = function (input, init) {
    const url = new URL(typeof input === "string" ? input : input.url, location.href).pathname;
    return original.apply(this, arguments).then(
      (r) => { window.__benchFetches.push([url, r.status]); return r; },
      (e) => { window.__benchFetches.push([url, String(e)]); throw e; });
  };
})();"""


class Recorder:
    """Every request of a browser context (its pages, and a service worker's if there is one)
    from start() to stop(), with the bytes that came back and when it was sent."""

    def __init__(self, context):
        self.context = context
        self.sent: dict = {}
        self.finished: list = []
        self.failed: list = []
        self.on = False
        context.add_init_script(FETCH_LOG)
        context.on("request", lambda r: self.on and self.sent.setdefault(id(r), time.perf_counter()))
        context.on("requestfinished", lambda r: self.on and self.finished.append(r))
        context.on("requestfailed", lambda r: self.on and self.failed.append(r))

    def start(self) -> None:
        self.sent.clear()
        self.finished.clear()
        self.failed.clear()
        self.on = True

    def stop(self, page) -> list[dict]:
        page.wait_for_timeout(SETTLE_MS)
        self.on = False
        try:
            seen = page.evaluate("window.__benchFetches || []")
        except Exception:  # noqa: BLE001 - a page in the middle of navigating
            seen = []
        rows = []
        for request in self.finished + self.failed:
            response = request.response() if request in self.finished else None
            if response is not None and getattr(response, "from_service_worker", False):
                continue  # answered inside the browser: not a request to the server
            sizes = request.sizes() if response else {}
            try:
                packed = len(gzip.compress(response.body(), 6)) if response and response.status == 200 else 0
            except Exception:  # noqa: BLE001 - a body the browser no longer holds
                packed = 0
            path = urlsplit(request.url).path
            status = response.status if response else (request.failure or "failed")
            if response is None and request.resource_type == "fetch":
                for i, (url, got) in enumerate(seen):
                    if url == path:
                        status = f"{got} (as the page saw it)"
                        del seen[i]
                        break
            rows.append({
                "gzip": packed, "at": self.sent.get(id(request), 0.0),
                "url": request.url, "path": path, "method": request.method, "type": request.resource_type,
                "kind": kind_of(request, response), "status": status,
                "worker": getattr(request, "service_worker", None) is not None,
                "host": urlsplit(request.url).hostname,
                "body": sizes.get("responseBodySize", 0), "headers": sizes.get("responseHeadersSize", 0)
                + sizes.get("requestHeadersSize", 0) + sizes.get("requestBodySize", 0),
            })
        rows.sort(key=lambda r: r["at"])
        return rows


def describe(row: dict) -> str:
    return f'{row["method"]} {row["path"]} → {row["status"]}' + (" (service worker)" if row["worker"] else "")


def is_static(entry: dict) -> bool:
    """A file a page loads (style, script, icon, manifest, service worker), not a page or a fetch of data."""
    path = entry["path"]
    return path.startswith("/static/") or path.endswith((".js", ".css", ".webmanifest", ".svg", ".png", ".ico"))


def server_view(entries: list[dict], rows: list[dict]) -> list[str]:
    """The server's log of requests, each marked when Playwright saw a service worker send it
    (the n-th request for a path on the server is taken to be the n-th the browser sent)."""
    senders: dict = {}
    for row in rows:  # in the order they were sent
        senders.setdefault((row["method"], row["path"]), []).append(row["worker"])
    out = []
    for entry in entries:
        queue = senders.get((entry["method"], entry["path"]), [])
        mark = " (service worker)" if queue and queue.pop(0) else ""
        out.append(f'{entry["method"]} {entry["path"]} → {entry["status"]}{mark}')
    return out


def weigh(rows: list[dict], entries: list[dict]) -> dict:
    """Bytes from what the browser received; requests from what the server received."""
    web = [r for r in rows if not r["url"].startswith(("data:", "blob:"))]
    by_kind = {k: sum(r["body"] for r in web if r["kind"] == k) for k in ("html", "css", "js", "img", "fetch", "other")}
    return {
        **by_kind,
        "body": sum(by_kind.values()),
        "gzip": sum(r["gzip"] for r in web),
        "headers": sum(r["headers"] for r in web),
        "requests": len(entries),
        "other_hosts": sorted({r["host"] for r in web if r["host"] != "127.0.0.1"}),
        "statuses": server_view(entries, web),
    }


def seed_pages(server: Server) -> dict:
    """A database as a table has it: one match being played, one finished; and how the server
    answers a revalidation of a static file."""
    client = Client(server)
    hands = typical_match()
    playing = import_match(client, match_doc(hands[:-1]))
    finished = import_match(client, match_doc(hands))
    html = client.get(f"/matches/{playing}").text
    svg = sum(len(m.encode()) for m in re.findall(r"<svg\b.*?</svg>", html, re.S))
    table = sum(len(m.encode()) for m in re.findall(r"<table\b.*?</table>", html, re.S))
    css = client.get("/static/style.css")
    again = client.request("GET", "/static/style.css", headers={"If-None-Match": css.headers.get("etag", "")})
    return {
        "home": "/", "new match": "/matches/new",
        "hand entry": f"/matches/{playing}", "sheet": f"/matches/{finished}",
        "hands": len(hands),
        "static_cache": css.headers.get("cache-control", "(none)"),
        "revalidation": {"status": again.status, "connection": again.headers.get("connection", "keep-alive")},
        "entry_html": {"total": len(html.encode()), "svg": svg, "tables": table},
    }


def new_context(browser):
    return browser.new_context(viewport=VIEWPORT, has_touch=True)


def weight(browser, server: Server, pages: dict) -> list[dict]:
    """Each page with an empty cache; then saving a hand (a knock) with the cache warm."""
    results = []
    for name in ("home", "new match", "hand entry", "sheet"):
        context = new_context(browser)
        recorder = Recorder(context)
        page = context.new_page()
        mark = server.requests_seen()[0]
        recorder.start()
        page.goto(server.base + pages[name], wait_until="load")
        rows = recorder.stop(page)
        results.append({"page": name, "path": pages[name], **weigh(rows, server.requests_seen(mark)[1])})
        context.close()
    # the page a table sees after every hand: POST, redirect, sheet, with the cache already warm
    client = Client(server)
    path = f"/matches/{import_match(client, match_doc(typical_match()[:-2]))}"
    context, recorder, page, worker = warm_page(browser, server, path)
    for selector in ("label[for=knocker-1]", "label[for=kd-4]", '[data-key="2"]', '[data-key="2"]'):
        page.click(selector)
    mark = server.requests_seen()[0]
    recorder.start()
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_url("**#hand-*")
    page.wait_for_load_state("load")
    rows = recorder.stop(page)
    results.append({"page": "saving a hand", "path": path, "service_worker": worker,
                    **weigh(rows, server.requests_seen(mark)[1])})
    context.close()
    return results


def warm_page(browser, server: Server, path: str):
    """A phone that has used the app before (its service worker in place) with `path` open and settled."""
    context = new_context(browser)
    recorder = Recorder(context)
    page = context.new_page()
    worker = settle_in(page, server)
    page.goto(server.base + path, wait_until="load")
    page.wait_for_timeout(SETTLE_MS)
    return context, recorder, page, worker


# What a player does for each kind of hand on the match page; each step is one tap.
TAPS = {
    "knock (Ana knocks with 4, Ben holds 22)": (
        ["label[for=knocker-1]", "label[for=kd-4]", '[data-key="2"]', '[data-key="2"]', "Save hand"],
        "Hand 1: Ana scores 18"),
    "gin (Ana gins, Ben holds 22)": (
        ["label[for=knocker-1]", "label[for=kd-0]", '[data-key="2"]', '[data-key="2"]', "Save hand"],
        "Hand 1: Gin! Ana scores 47"),
    "undercut (Ana knocks with 8, Ben holds 5)": (
        ["label[for=knocker-1]", "label[for=kd-8]", '[data-key="5"]', "Save hand"],
        "Hand 1: Undercut! Ben scores 13"),
    "draw": (["Draw (nobody knocked)"], "Hand 1: a draw"),
}
def taps(browser, server: Server) -> list[dict]:
    """Each kind of hand entered on a new match's page by taps. Requests are recorded from the
    first tap; round trips are those from the last tap (the save) until the sheet has loaded."""
    results = []
    client = Client(server)
    for name, (steps, expected) in TAPS.items():
        path = f"/matches/{import_match(client, match_doc([]))}"
        context, recorder, page, worker = warm_page(browser, server, path)
        first = server.requests_seen()[0]
        recorder.start()
        for step in steps:
            saved_from = server.requests_seen()[0]  # before the last tap: the save
            save_at = time.perf_counter()
            if step.startswith(("label", "[")):
                page.tap(step)
            else:
                page.get_by_role("button", name=step).tap()
        page.wait_for_url("**#hand-1")
        page.wait_for_load_state("load")
        seconds = time.perf_counter() - save_at
        rows = recorder.stop(page)
        said = " ".join(page.locator(".flash").all_text_contents())
        context.close()
        if expected not in said:
            raise RuntimeError(f"{name}: the page said {said!r}, not {expected!r}")
        _, entries = server.requests_seen(first)
        before = [e for e in entries if e["seq"] < saved_from]
        after = [e for e in entries if e["seq"] >= saved_from]
        # what the old page still polled before the new page was asked for is not the save's doing
        posted = next((i for i, e in enumerate(after) if e["method"] == "POST"), 0)
        landed = next((i for i, e in enumerate(after) if i > posted and e["method"] == "GET"
                       and not is_static(e) and not e["path"].endswith("/live")), len(after))
        # and a live poll answered 200 after the save came from a page drawn before it (the new
        # page is drawn at the new version, so its own polls are answered 304)
        def old_poll(i: int, e: dict) -> bool:
            return e["path"].endswith("/live") and (posted < i < landed or (i > landed and e["status"] == 200))
        before += after[:posted] + [e for i, e in enumerate(after) if old_poll(i, e)]
        after = [e for i, e in enumerate(after) if i >= posted and not old_poll(i, e)]
        trips = [e for e in after if not is_static(e)]
        described = dict(zip(map(id, after), server_view(after, rows)))
        results.append({
            "hand": name, "actions": len(steps), "round_trips": len(trips),
            "trips": [described[id(e)] for e in trips],
            "documents": sum(1 for e in trips if not e["path"].endswith("/live")),
            "other_requests": [described[id(e)] for e in after if is_static(e)],
            "before_save": server_view(before, rows),
            "said": said, "ms": seconds * 1000, "service_worker": worker,
        })
    return results


def settle_in(page, server: Server) -> bool:
    """A phone that has used the app before: the home page visited, and the service worker
    it registers (if any) installed and in control. Returns whether one is."""
    page.goto(server.base + "/", wait_until="load")
    try:
        return bool(page.evaluate("""async () => {
            if (!navigator.serviceWorker || !document.documentElement.dataset.sw) return false;
            const ready = navigator.serviceWorker.ready.then(() => true);
            const late = new Promise((resolve) => setTimeout(() => resolve(false), 5000));
            return await Promise.race([ready, late]);
        }"""))
    except Exception:  # noqa: BLE001 - no worker then
        return False


def playwright_parts(server: Server) -> dict:
    # so that what a service worker fetches is reported on the context too (Chromium)
    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    from playwright.sync_api import sync_playwright

    pages = seed_pages(server)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            return {"pages": pages, "weight": weight(browser, server, pages), "taps": taps(browser, server)}
        finally:
            browser.close()


# ---- Lighthouse -----------------------------------------------------------------

def lighthouse_ready() -> str | None:
    """Install lighthouse@12.2.3 into bench/.lighthouse (git-ignored) if needed; why not, or None."""
    if not shutil.which("node") or not shutil.which("npm"):
        return "node and npm are not installed (apt-get install -y nodejs npm)"
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing"
    installed = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "package.json"
    if installed.exists() and json.loads(installed.read_text()).get("version") == LIGHTHOUSE_VERSION:
        return None
    LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["npm", "install", "--prefix", str(LIGHTHOUSE_DIR), "--no-audit", "--no-fund",
                           "--loglevel=error", f"lighthouse@{LIGHTHOUSE_VERSION}"],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not LIGHTHOUSE_CLI.exists():
        return f"npm install lighthouse@{LIGHTHOUSE_VERSION} failed: {(done.stderr or done.stdout).strip()[-400:]}"
    return None


CATEGORIES = ("performance", "accessibility", "best-practices")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
           "speed-index")


def lighthouse(url: str, workdir: Path) -> dict:
    """One Lighthouse run with its default (mobile, simulated throttling) settings."""
    out = workdir / "lighthouse.json"
    done = subprocess.run(
        ["node", str(LIGHTHOUSE_CLI), url, "--output=json", f"--output-path={out}",
         f"--only-categories={','.join(CATEGORIES)}", "--quiet",
         "--chrome-flags=--headless --no-sandbox --disable-gpu"],
        env=dict(os.environ, CHROME_PATH=CHROMIUM), capture_output=True, text=True, timeout=300)
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"lighthouse exited {done.returncode}: {done.stderr.strip()[-600:]}")
    report = json.loads(out.read_text())
    out.unlink()
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse: {report['runtimeError'].get('message')}")
    scores = {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}
    refs = {ref["id"]: name for name in CATEGORIES for ref in report["categories"][name]["auditRefs"]
            if ref.get("weight", 0) > 0 or name != "performance"}
    failing = []
    for audit_id, audit in report["audits"].items():
        score = audit.get("score")
        if audit_id in refs and score is not None and score < 1 and audit.get("scoreDisplayMode") in (
                "binary", "numeric", "metricSavings"):
            where = ""
            items = (audit.get("details") or {}).get("items") or []
            if items and isinstance(items[0].get("node"), dict):
                where = items[0]["node"].get("selector", "")
            failing.append({"category": refs[audit_id], "id": audit_id, "title": audit["title"],
                            "score": score, "value": audit.get("displayValue", ""), "where": where})
    metrics = {m: report["audits"][m].get("displayValue", "") for m in METRICS}
    settings = report["configSettings"]
    return {"scores": scores, "failing": failing, "metrics": metrics,
            "benchmark_index": (report.get("environment") or {}).get("benchmarkIndex"),
            "settings": f'{settings["formFactor"]}, throttling {settings["throttlingMethod"]}'}


def lighthouse_parts(server: Server, pages: dict, runs: int) -> dict:
    """`runs` Lighthouse runs per page; the run with the median performance score is reported."""
    why = lighthouse_ready()
    if why:
        return {"error": why}
    results = {}
    for name in ("hand entry", "sheet"):
        done = []
        try:
            for _ in range(runs):
                done.append(lighthouse(server.base + pages[name], server.workdir))
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            if not done:
                results[name] = {"error": str(error)}
                continue
        done.sort(key=lambda r: r["scores"]["performance"])
        median = dict(done[len(done) // 2])
        median["runs"] = [r["scores"]["performance"] for r in done]
        median["indexes"] = [r["benchmark_index"] for r in done]
        median["load"] = os.getloadavg()[0]
        results[name] = median
    return {"pages": results, "runs": runs}
