"""How often a page asks whether the match moved on: a page that enters hands every 2.5 s (a saved hand is
seen within 3 s), a page that only shows the match every 5 s. The pages run on Playwright's clock, paused:
the test moves it on a quarter second at a time and notes the clock at each ask, so no real time is waited for."""
import re
import time

import pytest

pytestmark = pytest.mark.browser
STEP_MS = 250  # an ask is noted at the step it is seen in: one step early or late


def ask_times(page, asks: int) -> list[int]:
    """The page's clock (ms) at each of its next `asks` live asks, each answered before the clock moves on."""
    started, finished = [], []
    page.on("request", lambda r: started.append(r) if r.url.endswith("/live") else None)
    page.on("response", lambda r: finished.append(r) if r.url.endswith("/live") else None)
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    clock, times = 0, []
    while len(times) < asks and clock < 60_000:
        page.clock.run_for(STEP_MS)
        clock += STEP_MS
        page.evaluate("1")  # the timers that fired have run, and their fetches started
        if len(started) > len(times):
            times.append(clock)
            deadline = time.monotonic() + 10
            while len(finished) < len(started) and time.monotonic() < deadline:
                page.wait_for_timeout(20)  # the answer comes in real time; the page's clock stands still
            page.evaluate("1")
    return times


def follower(browser, server, path: str):
    page = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    page.clock.install(time=0)
    page.goto(path)
    page.wait_for_load_state("load")
    return page


def gaps(times: list[int]) -> list[int]:
    return [later - earlier for earlier, later in zip(times, times[1:])]


def test_the_phone_asks_every_two_and_a_half_seconds_and_the_spectator_every_five(browser, server, seeded):
    match_id = seeded["seed001-ana-ben"]
    phone = follower(browser, server, f"/matches/{match_id}")
    token = re.search(r"/view/([A-Za-z0-9_-]+)", phone.request.get(f"{server}/matches/{match_id}/join").text()).group(1)
    watcher = follower(browser, server, f"/view/{token}")
    assert phone.locator("#live").get_attribute("data-every") == "2500"
    assert watcher.locator("#live").get_attribute("data-every") == "5000"

    for gap in gaps(ask_times(phone, 3)):
        assert abs(gap - 2500) <= STEP_MS, gap
    for gap in gaps(ask_times(watcher, 3)):
        assert abs(gap - 5000) <= STEP_MS, gap


def test_a_quiet_follow_names_the_version_shown_and_changes_nothing(browser, server, seeded):
    """The script asks with X-Sheet, the ETag its region shows; "nothing new" is an empty 200 (a connection
    kept, views/live/quiet_polls.py), and the page keeps every node it drew."""
    phone = follower(browser, server, f"/matches/{seeded['seed001-ana-ben']}")
    shown = phone.locator("#live").get_attribute("data-etag")
    asked, answers = [], []
    phone.on("request", lambda r: asked.append(r.headers.get("x-sheet")) if r.url.endswith("/live") else None)
    phone.on("response", lambda r: answers.append((r.status, r.headers.get("content-length"))) if r.url.endswith("/live") else None)
    phone.evaluate("() => { document.querySelector('[data-region=sheet]').kept = 'still here'; }")
    assert len(ask_times(phone, 3)) == 3
    assert asked == [shown] * 3 and answers == [(200, "0")] * 3
    assert phone.evaluate("() => document.querySelector('[data-region=sheet]').kept") == "still here"
