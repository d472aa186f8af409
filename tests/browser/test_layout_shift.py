"""No layout shift (issue 24): the home, new-match and match pages at 360 x 740 with the CPU slowed 4x.

Lighthouse measured CLS 0.201 on the match page: the script hid the Refresh link after the first paint.
Refresh is now in <noscript>, and what the script shows later (the keep-the-screen-on button) has its
room from the start. Layout shifts are summed as Chromium reports them (the Layout Instability API).

The page script comes SCRIPT_LATE_S late, so the first paint is always before it runs, as on a slow phone:
then whatever it shows must have had its room already. Lighthouse caught the count pad of a 13-hand match's
form (shown by the script) pushing what is below it down, in 2 runs of 3: the room for it is now kept."""
import json
import time

import pytest

from tests.generate import long_match

pytestmark = pytest.mark.browser

SCRIPT_LATE_S = 0.4
WATCH = """
window.__cls = 0;
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { if (!e.hadRecentInput) window.__cls += e.value; });
}).observe({ type: "layout-shift", buffered: true });
"""


def cls_of(browser, server, path: str) -> float:
    context = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.add_init_script(WATCH)
    page.route("**/static/app.js*", lambda route: (time.sleep(SCRIPT_LATE_S), route.continue_()))
    page.goto(path, wait_until="load")
    page.wait_for_timeout(1500)  # what the script does after load (the follow's set-up, the wake button)
    shifted = page.evaluate("() => window.__cls")
    context.close()
    return shifted


def shifted(shifts: dict) -> str:
    """The pages that shifted more than a trace, named in full (an assertion's own repr is cut short)."""
    return ", ".join(f"{path}: {value:.3f}" for path, value in shifts.items() if value > 0.02)


def test_no_page_shifts_as_it_loads(browser, server, case):
    setup = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    matches = []
    for doc in (case("seed001-ana-ben")[0], long_match(13, seed=5)):  # the 13 hands of bench/lighthouse.py
        setup.goto("/")
        setup.get_by_text("Paste the JSON instead").click()
        setup.fill("textarea[name=text]", json.dumps(doc))
        setup.get_by_role("button", name="Import", exact=True).click()
        setup.wait_for_url("**/matches/*")
        matches.append(setup.url.split("#")[0].split(setup.url.split("/matches/")[0])[1])
    shifts = {path: cls_of(browser, server, path) for path in ("/", "/matches/new", *matches)}
    assert not shifted(shifts), shifted(shifts)


def test_no_other_page_a_script_touches_shifts_either(browser, server, seeded):
    """The pages where the script shows, hides or moves something after the first paint: the count pad's
    page, the hand form on its own page, a hand's edit, the big screen, the history, the whole sheet, and
    the spectator's page and its big screen."""
    match_id = seeded["seed001-ana-ben"]
    setup = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    setup.goto(f"/matches/{match_id}/join")
    view = "/view/" + setup.locator("a[href*='/view/']").first.get_attribute("href").split("/view/")[1]
    pages = [f"/matches/{match_id}/{rest}" for rest in ("count", "hands/new", "hands/3", "big", "history", "sheet")]
    shifts = {path: cls_of(browser, server, path) for path in (*pages, view, f"{view}/big")}
    assert not shifted(shifts), shifted(shifts)
