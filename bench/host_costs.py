"""What a host pays, measured on a real waitress server: server CPU per request (from /proc, the
server process's own user + system time), bytes over the wire as a phone asks (gzip, br), and from
those the tables one core serves and the cores 10,000 active tables need.

    python bench/host_costs.py [--rounds N] [--each N] [--latency-saves N] [--hosted]

A table: two phones and a spectator following a match, a hand every 90 s. Per table and hour that is
40 saves by the page script (each answered with the step from the version its page shows: the board,
the new row, the next hand's state), the follow's polls at the pages' pace (views/live/following.py: every
2.5 s on each phone, every 5 s on the spectator's page, 2 x 1,440 + 720; all but the ones after a save
"nothing new", asked as the script asks: X-Sheet, an empty 200 on a kept connection), after each save the
step for the other phone (kept by the save) and for the spectator (read-only, drawn), and 6 page views
(each device opens the match about twice). A follower is one version behind a hand saved every 90 s, so
its answer is the step; the whole live fragment (a page further behind), and a save answered with it,
are measured beside.

Beside Gin Ledger, on a second waitress, the floor under a save: a bare Flask + Flask-WTF + sqlite3 app of
the same shape (bench/bare_app.py) and its static GET of the same stylesheet. Each cost is the median of
interleaved rounds, so every kind of request on both servers saw the same noise. Last, how soon a saved
hand is seen: a follower asking as static/app.js does, at each page's pace, saves at random moments, the
time from a save's answer to the follower's.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from generate import long_match  # noqa: E402
from server import Server  # noqa: E402
from views.live.following import ENTERING_EVERY_MS, SHOWING_EVERY_MS  # noqa: E402

# A phone names the server as it reached it: a host name, never this machine's loopback (a page asked
# at 127.0.0.1 looks up the machine's network addresses for its printed links, views/tables/qr.py).
PHONE = {"Accept-Encoding": "gzip, br", "User-Agent": "bench", "Host": "ledger.example"}
HANDS_PER_HOUR, PHONES, SPECTATORS, PAGE_VIEWS = 40, 2, 1, 6
PHONE_POLL_S, SPECTATOR_POLL_S = ENTERING_EVERY_MS / 1000, SHOWING_EVERY_MS / 1000
POLLS_PER_HOUR = PHONES * 3600 / PHONE_POLL_S + SPECTATORS * 3600 / SPECTATOR_POLL_S
TABLES = 10_000
MB = 1024 * 1024
BARE_STATIC = "bare app: static GET of the stylesheet"
BARE_SAVE = "bare app: saved hand (the floor)"
QUIET_304 = "quiet poll (If-None-Match, 304)"
REDIRECTED = "saved hand without the script (Post/Redirect/Get: the POST and the page)"
SCRIPT_POLL = "quiet poll as the page script asks (X-Sheet, empty 200)"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Phone:
    """One keep-alive connection with a cookie, as a phone's browser holds one."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def ask(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        sent = {**PHONE, **(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=sent)
        answer = self.conn.getresponse()
        data = answer.read()
        cookie = answer.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        wire = len(data) + sum(len(k) + len(v) + 4 for k, v in answer.getheaders())
        return answer, data, wire


def decoded(answer, data: bytes) -> str:
    import gzip

    import brotli
    encoding = answer.getheader("Content-Encoding")
    return (brotli.decompress(data) if encoding == "br" else gzip.decompress(data) if encoding == "gzip"
            else data).decode()


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html) or re.search(rf'value="([^"]*)"[^>]*name="{name}"', html)
    return unescape(found.group(1))


def version_of(tag: str) -> int:
    return int(tag.strip('"').rsplit("-", 1)[1])


def etag_after(tag: str) -> str:
    """The live region's ETag once one more write is made (views/live/quiet_polls.etag_for)."""
    head, version = tag.strip('"').rsplit("-", 1)
    return f'"{head}-{int(version) + 1}"'


def follow_latency(port: int, live: str, tag: str, save, saves: int, every_s: float) -> list[float]:
    """End to end, from a save's answer to the follower's first answer that shows it (or a later hand): the
    follower asks `live` as static/app.js does (the next ask `every_s` after the last answer), the saves
    come at random moments, sometimes two within one interval."""
    seen: list[tuple[int, float]] = []
    stop = threading.Event()

    def follow():
        follower, shown = Phone(port), tag
        while not stop.is_set():
            answer, _, _ = follower.ask("GET", live, headers={"X-Sheet": shown})
            if answer.status == 200 and answer.getheader("ETag") != shown:
                shown = answer.getheader("ETag")
                seen.append((version_of(shown), time.monotonic()))
            stop.wait(every_s)

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    chance, saved = random.Random(24), []
    for _ in range(saves):
        time.sleep(chance.uniform(0.2, 2 * every_s))
        saved.append((version_of(save()), time.monotonic()))
    time.sleep(every_s + 1)
    stop.set()
    thread.join()
    return [min(at for shown, at in seen if shown >= version) - when for version, when in saved]


MEMORY_TABLES, MEMORY_HANDS = 20, 5


def memory_per_table() -> dict[str, float]:
    """What a table keeps in the app's bounded caches (their own byte counts, models/storage/caches.py), in process:
    each of MEMORY_TABLES tables opens its 13-hand match on a phone and on the spectator's link, then
    saves MEMORY_HANDS hands by the page script, each followed by the other phone's and the spectator's
    polls. Per table: what opening it keeps, what each hand adds (a new version's steps, race pictures and
    notes; the older versions' entries stay until the least recently used go), and its match page drawn
    again at its last version."""
    from app import create_app
    from views.site.kept import EXTENSION

    folder = tempfile.mkdtemp(prefix="gin-memory-")
    app = create_app({"DATABASE": str(Path(folder) / "ledger.sqlite"), "SECRET_KEY": "memory"})
    kept = app.extensions[EXTENSION]
    client = app.test_client()
    headers = {"Host": "ledger.example"}  # what is kept is the same whatever the encoding asked
    token = hidden(client.get("/", headers=headers).get_data(as_text=True), "csrf_token")
    doc = long_match(13, seed=5)

    def used() -> int:
        return kept.pages.bytes + kept.matches.entries.bytes

    start, opened, per_hand, per_hand_pages, current = used(), 0, 0, 0, 0
    for _ in range(MEMORY_TABLES):
        answer = client.post("/import", data={"csrf_token": token, "text": json.dumps(doc)}, headers=headers)
        page = answer.headers["Location"].split("ledger.example", 1)[-1]
        before = used()
        html = client.get(page, headers=headers).get_data(as_text=True)
        view = re.search(r"/view/([A-Za-z0-9_-]+)", client.get(f"{page}/join", headers=headers).get_data(as_text=True)).group(1)
        client.get(f"/view/{view}", headers=headers)
        tag = client.get(f"{page}/live", headers=headers).headers["ETag"]
        client.get(f"/view/{view}/live", headers=headers)
        opened += used() - before
        form_token = hidden(html, "csrf_token")
        for _ in range(MEMORY_HANDS):
            before, pages_before = used(), kept.pages.bytes
            answer = client.post(f"{page}/hands", headers={**headers, "X-Answer": "fragment", "X-Sheet": tag},
                                 data={"csrf_token": form_token, "form_id": secrets.token_urlsafe(12),
                                       "winner": "Ana", "points": "3"})
            assert answer.status_code == 200, answer.status_code
            previous, tag = tag, answer.headers["ETag"]
            for live in (f"{page}/live", f"/view/{view}/live"):
                assert client.get(live, headers={**headers, "If-None-Match": previous}).status_code == 200
            per_hand += used() - before
            per_hand_pages += kept.pages.bytes - pages_before
        after = used()
        client.get(page, headers=headers)  # the match page of the version the table is at now
        current += used() - after
    assert used() - start < kept.pages.max_bytes, "the bound was reached: fewer tables would tell"
    hands = MEMORY_TABLES * MEMORY_HANDS
    return {"opened": opened / MEMORY_TABLES, "per_hand": per_hand / hands, "per_hand_pages": per_hand_pages / hands,
            "page": current / MEMORY_TABLES, "pages_bound": kept.pages.max_bytes,
            "bound": kept.pages.max_bytes + kept.matches.entries.max_bytes + kept.qr.max_bytes}


class Bare:
    """bench/bare_app.py on a waitress of its own (tests/server.py, as many threads as Gin Ledger's; it
    keeps its own database), and one phone of it."""

    def __init__(self, folder: Path):
        self.server = Server(folder / "bare.sqlite", threads=4, factory="bench.bare_app:watched_app")

    def __enter__(self):
        self.server.start()
        self.pid, self.phone = self.server.pid, Phone(self.server.port)
        answer, data, _ = self.phone.ask("GET", "/")
        self.token = hidden(decoded(answer, data), "csrf_token")
        return self

    def save(self):
        body = {"csrf_token": self.token, "form_id": secrets.token_urlsafe(12), "winner": "Ana", "points": "3"}
        answer, _, _ = self.phone.ask("POST", "/hands", urlencode(body).encode())
        assert answer.status == 200, answer.status

    def stylesheet(self):
        answer, _, _ = self.phone.ask("GET", "/static/style.css")
        assert answer.status == 200, answer.status

    def __exit__(self, *exc):
        self.server.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--each", type=int, default=40)
    parser.add_argument("--latency-saves", type=int, default=16, help="saves timed from save to follower")
    parser.add_argument("--hosted", action="store_true", help="a public host's server (FLASK_HOSTED=1), one table on it")
    options = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="gin-host-"))
    env = {"FLASK_HOSTED": "1"} if options.hosted else {}
    with Server(folder / "ledger.sqlite", threads=4, env=env) as server, Bare(folder) as bare:
        phone = Phone(server.port)
        answer, data, _ = phone.ask("GET", "/")
        token = hidden(decoded(answer, data), "csrf_token")
        table = ""  # where the table's pages are: under /t/<key> on a hosted server
        if options.hosted:
            answer, _, _ = phone.ask("POST", "/tables", urlencode({"csrf_token": token, "table_name": "Bench"}).encode())
            table = answer.getheader("Location").split("ledger.example", 1)[-1].rstrip("/")
            answer, data, _ = phone.ask("GET", f"{table}/")
            token = hidden(decoded(answer, data), "csrf_token")
        doc = long_match(13, seed=5)
        doc["rules"]["target"] = 1_000_000
        answer, _, _ = phone.ask("POST", f"{table}/import", urlencode({"csrf_token": token, "text": json.dumps(doc)}).encode())
        match = answer.getheader("Location").rsplit("/", 1)[1]
        page = f"{table}/matches/{match}"
        answer, data, first_html = phone.ask("GET", page)
        html = decoded(answer, data)
        assets = re.findall(r'(?:href|src)="(/static/[^"]+\?v=[^"]+)"', html)
        first_visit = first_html + sum(phone.ask("GET", a)[2] for a in assets)
        css = next(a for a in assets if "style.css" in a)
        manifest = "/static/manifest.webmanifest"
        token = hidden(html, "csrf_token")
        answer, _, _ = phone.ask("GET", f"{page}/live")
        tag = answer.getheader("ETag")
        previous = tag
        saved_bytes = []

        def fresh_match():
            """Saves go to a match of 13 hands again each round: a table's match, not one of hundreds."""
            nonlocal saves_page, tag, previous, spectator_live
            answer, _, _ = phone.ask("POST", f"{table}/import", urlencode({"csrf_token": token, "text": json.dumps(doc)}).encode())
            saves_page = f"{table}/matches/" + answer.getheader("Location").rsplit("/", 1)[1]
            answer, data, _ = phone.ask("GET", f"{saves_page}/join")
            spectator_live = "/view/" + re.search(r"/view/([A-Za-z0-9_-]+)", decoded(answer, data)).group(1) + "/live"
            answer, _, _ = phone.ask("GET", f"{saves_page}/live")
            tag = previous = answer.getheader("ETag")

        saves_page, spectator_live = page, None

        def hand_form() -> bytes:
            """The hand form as the page sends it: Ana scores 3, a new one-time id."""
            return urlencode({"csrf_token": token, "form_id": secrets.token_urlsafe(12), "winner": "Ana",
                              "points": "3"}).encode()

        def save(shown: bool = True):
            """As the page script saves: X-Sheet names the version its live region shows (without it, as a
            page further behind: the whole live region)."""
            nonlocal tag, previous
            body = hand_form()
            answer, data, wire = phone.ask("POST", f"{saves_page}/hands", body, {
                "X-Requested-With": "fetch", "X-Answer": "fragment", **({"X-Sheet": tag} if shown else {})})
            assert answer.status == 200 and answer.getheader("X-Answer") == "fragment", answer.status
            assert ("data-from=" in decoded(answer, data)) == shown, "a save from the version before is its step"
            previous, tag = tag, answer.getheader("ETag")
            if shown:
                saved_bytes.append(wire)
            return tag

        def redirected_save():
            """Without the page script: Post/Redirect/Get, the POST and the new page it leads to (drawn)."""
            nonlocal tag, previous
            body = hand_form()
            answer, _, _ = phone.ask("POST", f"{saves_page}/hands", body)
            assert answer.status in (302, 303), answer.status
            answer, _, _ = phone.ask("GET", answer.getheader("Location").split("#")[0])
            assert answer.status == 200, answer.status
            previous, tag = tag, etag_after(tag)

        def quiet_poll():
            answer, _, _ = phone.ask("GET", f"{saves_page}/live", headers={"If-None-Match": tag})
            assert answer.status == 304, answer.status

        def script_poll():
            """As static/app.js asks: X-Sheet names the version shown; nothing new is an empty 200."""
            answer, data, _ = phone.ask("GET", f"{saves_page}/live", headers={"X-Sheet": tag})
            assert answer.status == 200 and data == b"", answer.status

        def follower():
            """The other phone's poll after a save: it shows the version before."""
            answer, data, _ = phone.ask("GET", f"{saves_page}/live", headers={"X-Sheet": previous})
            assert answer.status == 200 and "data-from=" in decoded(answer, data), answer.status

        def save_and_spectator():
            """A save, then the spectator's poll: its read-only step is drawn anew (the phone's was kept by the save)."""
            save()
            answer, data, _ = phone.ask("GET", spectator_live, headers={"X-Sheet": previous})
            assert answer.status == 200 and "data-from=" in decoded(answer, data), answer.status

        ours = {"static GET of the stylesheet": lambda: phone.ask("GET", css),
                "static GET of the manifest": lambda: phone.ask("GET", manifest),
                QUIET_304: quiet_poll,
                SCRIPT_POLL: script_poll,
                "saved hand by the page script": save,
                "saved hand answered with the whole live region": lambda: save(shown=False),
                REDIRECTED: redirected_save,
                "saved hand, then the spectator's step (drawn)": save_and_spectator,
                "fragment for a follower (200)": follower,
                "whole live fragment (200, no ETag)": lambda: phone.ask("GET", f"{saves_page}/live"),
                "match page view": lambda: phone.ask("GET", page)}
        kinds = {name: (ask, server.pid) for name, ask in ours.items()}
        kinds.update({BARE_STATIC: (bare.stylesheet, bare.pid), BARE_SAVE: (bare.save, bare.pid)})
        # /proc counts in clock ticks (10 ms): the cheap requests are asked ten times as often in a round,
        # so a quiet poll's cost is known to 0.01 ms, not 0.1.
        times = {name: options.each * (10 if name.startswith(("static", "quiet", BARE_STATIC)) else 1) for name in kinds}
        costs: dict[str, list[float]] = {name: [] for name in kinds}
        for _ in range(options.rounds):
            fresh_match()
            for name, (ask, pid) in kinds.items():
                before = cpu_seconds(pid)
                for _ in range(times[name]):
                    ask()
                costs[name].append((cpu_seconds(pid) - before) / times[name])
        rss = int(re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{server.pid}/status").read_text()).group(1))
        fresh_match()
        latencies = follow_latency(server.port, f"{saves_page}/live", tag, save, options.latency_saves, PHONE_POLL_S)
        fresh_match()
        watched = follow_latency(server.port, spectator_live, tag, save, options.latency_saves, SPECTATOR_POLL_S)
    cost = {name: statistics.median(values) for name, values in costs.items()}
    memory = memory_per_table()
    # After each save the other phone gets the step the save kept; the spectator's read-only one is drawn.
    def table_hour(quiet: str) -> float:
        return (HANDS_PER_HOUR * cost["saved hand, then the spectator's step (drawn)"]
                + HANDS_PER_HOUR * cost["fragment for a follower (200)"]
                + (POLLS_PER_HOUR - HANDS_PER_HOUR * (PHONES + SPECTATORS - 1)) * cost[quiet]
                + PAGE_VIEWS * cost["match page view"])

    per_hour = table_hour(SCRIPT_POLL)
    css_cost, manifest_cost = cost["static GET of the stylesheet"], cost["static GET of the manifest"]
    bare_css = cost[BARE_STATIC]
    print("server: waitress, 4 threads (Gin Ledger" + (", hosted: FLASK_HOSTED=1, one table" if options.hosted else "")
          + ", and the bare app on one of its own)")
    print()
    print("| request | server CPU (ms) | ratio |")
    print("|---|---:|---|")
    for name, value in cost.items():
        ratio = ("" if not (css_cost and manifest_cost)  # a run too short for /proc's clock ticks
                 else f"{value / css_cost:.2f}x the stylesheet" if name in ("saved hand by the page script", REDIRECTED)
                 else f"{value / manifest_cost:.2f}x the manifest" if name.startswith("quiet")
                 else f"{value / bare_css:.2f}x its stylesheet" if name == BARE_SAVE and bare_css else "")
        print(f"| {name} | {value * 1000:.3f} | {ratio} |")
    print()
    print(f"- first visit of a 13-hand match page (page, stylesheet, script; gzip, br): {first_visit / 1000:.1f} KB")
    print(f"- saved hand by the page script, over the wire: {statistics.median(saved_bytes) / 1000:.1f} KB")
    print(f"- polls per table per hour: {POLLS_PER_HOUR:,.0f} (each phone every {PHONE_POLL_S:g} s, the spectator every "
          f"{SPECTATOR_POLL_S:g} s while a page is open; every 10 s after five quiet minutes)")
    print(f"- server CPU per table per hour: {per_hour:.2f} s; tables per core: {3600 / per_hour if per_hour else float('inf'):,.0f}")
    print(f"- 10,000 active tables: {TABLES * per_hour / 3600:.1f} cores "
          f"({TABLES * table_hour(QUIET_304) / 3600:.1f} if every quiet poll were a 304, which closes the connection)")
    print(f"- a saved hand seen by the other phone (end to end, {len(latencies)} saves at random moments, this "
          f"machine's loopback): median {statistics.median(latencies):.2f} s, at most {max(latencies):.2f} s "
          f"(target 3 s; by construction at most {PHONE_POLL_S:g} s plus a poll's round trip)")
    print(f"- a saved hand seen by the spectator (the same, at its pace): median {statistics.median(watched):.2f} s, "
          f"at most {max(watched):.2f} s (by construction at most {SPECTATOR_POLL_S:g} s plus a poll's round trip)")
    print(f"- server memory after the run: {rss / 1024:.0f} MB")
    hands_per_second = TABLES * HANDS_PER_HOUR / 3600
    print(f"- memory per table, in the app's bounded caches ({MEMORY_TABLES} tables in process, their own byte "
          f"counts): {memory['opened'] / 1000:.0f} KB once its pages are opened on a phone and the spectator's "
          f"link, {memory['per_hand'] / 1000:.0f} KB more for each saved hand (the new version's steps, race "
          f"pictures and notes; the versions before stay until the least recently used go), "
          f"{memory['page'] / 1000:.0f} KB for its match page drawn again at the version it is at")
    print(f"- the caches are bounded ({memory['bound'] / MB:.0f} MB a process, whatever the tables): at "
          f"10,000 tables ({hands_per_second:.0f} hands a second) the page cache holds the newest "
          f"{memory['pages_bound'] / (hands_per_second * memory['per_hand_pages']):.0f} s of saved hands, so the other "
          f"phone's and the spectator's steps (asked within {SPECTATOR_POLL_S:g} s) are kept, and a page opened "
          f"later is drawn again")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
