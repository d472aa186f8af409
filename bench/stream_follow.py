"""How soon the other phone shows a save, as a player feels it: two Chromium phones at 360 x 740, each with a
4x slower CPU (CDP Emulation.setCPUThrottlingRate) and a 150 ms round trip (a proxy on 127.0.0.1 that holds
every chunk 75 ms each way, so a held stream's events are delayed as a request is), on the README's club
server (gunicorn, a gevent worker). From the tap on Save on phone A to the new row on phone B.

    python bench/stream_follow.py [--saves 20] [--database URL] [--workers 1]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from streams import club_server, free_port, stop  # noqa: E402

ONE_WAY_S = 0.075


def delaying_proxy(listen: int, target: int) -> None:
    """Every chunk reaches the other side ONE_WAY_S after it was read, in order."""
    async def pipe(reader, writer):
        queue = asyncio.Queue()

        async def later():
            while True:
                at, data = await queue.get()
                await asyncio.sleep(max(0.0, at - time.monotonic()))
                if not data:
                    writer.close()
                    return
                writer.write(data)
                await writer.drain()
        sender = asyncio.create_task(later())
        try:
            while True:
                data = await reader.read(65536)
                queue.put_nowait((time.monotonic() + ONE_WAY_S, data))
                if not data:
                    break
            await sender
        except (ConnectionError, asyncio.CancelledError):
            sender.cancel()

    async def client(reader, writer):
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True)

    async def serve():
        server = await asyncio.start_server(client, "127.0.0.1", listen)
        async with server:
            await server.serve_forever()

    threading.Thread(target=lambda: asyncio.run(serve()), daemon=True).start()


def phone(browser, base: str):
    context = browser.new_context(viewport={"width": 360, "height": 740}, base_url=base, bypass_csp=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return page


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--database", default=None)
    parser.add_argument("--workers", type=int, default=1)
    options = parser.parse_args(argv)
    print("load before:", Path("/proc/loadavg").read_text().strip(), "cores:", os.cpu_count())
    folder = Path(tempfile.mkdtemp(prefix="gin-follow-"))
    server, port = club_server(options.database or str(folder / "ledger.sqlite"), options.workers)
    proxied = free_port()
    delaying_proxy(proxied, port)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            base = f"http://127.0.0.1:{proxied}"
            a = phone(browser, base)
            a.goto("/matches/new")
            a.fill("input[name=players] >> nth=0", "Ana")
            a.fill("input[name=players] >> nth=1", "Ben")
            a.locator("form button[type=submit]").last.click()
            a.wait_for_url(re.compile(r"/matches/\d+"))
            b = phone(browser, base)
            b.goto(a.url.split("#")[0])
            b.wait_for_selector("#live[data-follow=stream]", timeout=60_000)
            a.evaluate("""() => document.addEventListener("submit", () => { window.tapped = Date.now(); }, true)""")
            seen = []
            for number in range(1, options.saves + 1):
                b.evaluate("""(n) => { window.seenAt = null; new MutationObserver((_, o) => {
                    if (document.getElementById("hand-" + n)) { window.seenAt = Date.now(); o.disconnect(); } })
                    .observe(document.getElementById("live"), {childList: true, subtree: true}); }""", number)
                knocker = random.choice(["1", "2"])
                a.locator(f"label[for=knocker-{knocker}]").click()
                a.locator("label[for=kd-5]").click()
                a.fill("[name=opponent_deadwood]", "6")  # a small win: the match lasts the run
                a.get_by_role("button", name="Save hand").click()
                b.wait_for_function("window.seenAt !== null", timeout=30_000)
                seen.append(b.evaluate("window.seenAt") - a.evaluate("window.tapped"))
                time.sleep(random.uniform(0.5, 1.5))
            browser.close()
        seen.sort()
        print({"saves": len(seen), "median ms": statistics.median(seen),
               "p95 ms": seen[min(len(seen) - 1, int(0.95 * len(seen)))], "max ms": seen[-1]})
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    print("load after:", Path("/proc/loadavg").read_text().strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
