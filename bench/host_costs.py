"""What a host pays, measured on a real waitress server: server CPU per request (from /proc, the
server process's own user + system time), bytes over the wire as a phone asks (gzip, br), and from
those the tables one core serves and the cores 10,000 active tables need.

    python bench/host_costs.py [--rounds N]

A table: two phones and a spectator following a match, a hand every 90 s. Per table and hour that is
40 saves by the page script (each answered with the live fragment), the follow's polls (every 2.5 s
while a page is open, each phone and the spectator: 3 x 1,440, all but the ones after a save a 304),
40 x 2 fragments drawn for the other two, and 6 page views (each device opens the match about twice).
Each cost is the median of interleaved rounds, so every kind of request saw the same noise.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import statistics
import sys
import tempfile
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from generate import long_match  # noqa: E402
from server import Server  # noqa: E402

PHONE = {"Accept-Encoding": "gzip, br", "User-Agent": "bench"}
HANDS_PER_HOUR, VIEWERS, POLL_S, PAGE_VIEWS = 40, 3, 2.5, 6
TABLES = 10_000


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


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--each", type=int, default=40)
    options = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="gin-host-"))
    with Server(folder / "ledger.sqlite", threads=4) as server:
        phone = Phone(server.port)
        from urllib.parse import urlencode
        answer, data, _ = phone.ask("GET", "/")
        token = hidden(decoded(answer, data), "csrf_token")
        doc = long_match(13, seed=5)
        doc["rules"]["target"] = 1_000_000
        answer, _, _ = phone.ask("POST", "/import", urlencode({"csrf_token": token, "text": json.dumps(doc)}).encode())
        match = answer.getheader("Location").rsplit("/", 1)[1]
        page = f"/matches/{match}"
        answer, data, first_html = phone.ask("GET", page)
        html = decoded(answer, data)
        assets = re.findall(r'(?:href|src)="(/static/[^"]+\?v=[^"]+)"', html)
        first_visit = first_html + sum(phone.ask("GET", a)[2] for a in assets)
        css = next(a for a in assets if "style.css" in a)
        manifest = "/static/manifest.webmanifest"
        token = hidden(html, "csrf_token")
        answer, _, _ = phone.ask("GET", f"{page}/live")
        tag = answer.getheader("ETag")
        saved_bytes = []

        def fresh_match():
            """Saves go to a match of 13 hands again each round: a table's match, not one of hundreds."""
            nonlocal saves_page, tag
            answer, _, _ = phone.ask("POST", "/import", urlencode({"csrf_token": token, "text": json.dumps(doc)}).encode())
            saves_page = "/matches/" + answer.getheader("Location").rsplit("/", 1)[1]
            answer, _, _ = phone.ask("GET", f"{saves_page}/live")
            tag = answer.getheader("ETag")

        saves_page = page

        def save():
            nonlocal tag
            body = urlencode({"csrf_token": token, "form_id": secrets.token_urlsafe(12), "winner": "Ana",
                              "points": "3"}).encode()
            answer, _, wire = phone.ask("POST", f"{saves_page}/hands", body, {"X-Requested-With": "fetch",
                                                                        "X-Answer": "fragment"})
            assert answer.status == 200 and answer.getheader("X-Answer") == "fragment", answer.status
            tag = answer.getheader("ETag")
            saved_bytes.append(wire)

        def quiet_poll():
            answer, _, _ = phone.ask("GET", f"{saves_page}/live", headers={"If-None-Match": tag})
            assert answer.status == 304, answer.status

        kinds = {"static GET of the stylesheet": lambda: phone.ask("GET", css),
                 "static GET of the manifest": lambda: phone.ask("GET", manifest),
                 "quiet poll (If-None-Match, 304)": quiet_poll,
                 "saved hand by the page script": save,
                 "fragment for a follower (200)": lambda: phone.ask("GET", f"{saves_page}/live"),
                 "match page view": lambda: phone.ask("GET", page)}
        costs: dict[str, list[float]] = {name: [] for name in kinds}
        for _ in range(options.rounds):
            fresh_match()
            for name, ask in kinds.items():
                before = cpu_seconds(server.pid)
                for _ in range(options.each):
                    ask()
                costs[name].append((cpu_seconds(server.pid) - before) / options.each)
        rss = int(re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{server.pid}/status").read_text()).group(1))
    cost = {name: statistics.median(values) for name, values in costs.items()}
    per_hour = (HANDS_PER_HOUR * cost["saved hand by the page script"]
                + HANDS_PER_HOUR * (VIEWERS - 1) * cost["fragment for a follower (200)"]
                + (VIEWERS * 3600 / POLL_S - HANDS_PER_HOUR * (VIEWERS - 1)) * cost["quiet poll (If-None-Match, 304)"]
                + PAGE_VIEWS * cost["match page view"])
    css_cost, manifest_cost = cost["static GET of the stylesheet"], cost["static GET of the manifest"]
    print("| request | server CPU (ms) | ratio |")
    print("|---|---:|---|")
    for name, value in cost.items():
        ratio = (f"{value / css_cost:.2f}x the stylesheet" if name.startswith("saved")
                 else f"{value / manifest_cost:.2f}x the manifest" if name.startswith("quiet") else "")
        print(f"| {name} | {value * 1000:.3f} | {ratio} |")
    print()
    print(f"- first visit of a 13-hand match page (page, stylesheet, script; gzip, br): {first_visit / 1000:.1f} KB")
    print(f"- saved hand by the page script, over the wire: {statistics.median(saved_bytes) / 1000:.1f} KB")
    print(f"- polls per table per hour: {VIEWERS * 3600 / POLL_S:,.0f} (2.5 s while a page is open; 10 s after five quiet minutes)")
    print(f"- server CPU per table per hour: {per_hour:.2f} s; tables per core: {3600 / per_hour:,.0f}")
    print(f"- 10,000 active tables: {TABLES * per_hour / 3600:.1f} cores")
    print(f"- server memory after the run: {rss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
