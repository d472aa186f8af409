"""Two phones on one match: a hand saved on one appears on the other by itself."""
import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def imported_on_a_phone(browser, server, case):
    """A phone at 360 x 740 that imported a worked match: the phone, the match file, the match's address."""
    doc, _ = case("seed000-bob-alexandra")
    a = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    a.goto("/")
    a.get_by_text("Paste the JSON instead").click()
    a.fill("textarea[name=text]", __import__("json").dumps(doc))
    a.get_by_role("button", name="Import", exact=True).click()
    a.wait_for_url(re.compile(r"/matches/\d+"))
    return a, doc, a.url.split("#")[0]


def test_a_hand_saved_on_phone_a_appears_on_phone_b_without_a_reload(browser, server, case):
    """The follow asks every 2.5 s (bench/ measures how soon a hand is seen); here only that it comes."""
    a, doc, match_url = imported_on_a_phone(browser, server, case)
    token = re.search(r"/view/([A-Za-z0-9_-]+)", a.request.get(match_url + "/join").text()).group(1)

    b = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    b.goto(match_url)
    watcher = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    watcher.goto(f"/view/{token}")
    expect(b.locator(".sheet tbody tr[id^=hand-]")).to_have_count(4)

    a.locator("label[for=knocker-2]").click()       # Alexandra knocks
    a.locator("label[for=kd-3]").click()
    a.fill("[name=opponent_deadwood]", "20")
    a.get_by_role("button", name="Save hand").click()
    a.wait_for_url("**#hand-5")

    for follower in (b, watcher):
        expect(follower.locator("#hand-5")).to_be_visible(timeout=30_000)
    # Alexandra's second win: 18 + 17 in game 1, 17 in game 2.
    assert [c.strip() for c in b.locator("#hand-5 td:not(.note)").all_text_contents()][:4] == ["", "35", "", "17"]
    # The follower's preview now knows the new routing: Alexandra's next win goes to games 1, 2, and 3.
    b.locator("label[for=knocker-2]").click()
    b.locator("label[for=kd-2]").click()
    b.fill("[name=opponent_deadwood]", "12")
    expect(b.locator("[data-role=preview]")).to_contain_text("games 1, 2, and 3")


def test_the_read_only_page_changes_nothing(page, seeded):
    page.goto(f"/matches/{seeded['seed001-ana-ben']}/join")
    token = re.search(r"/view/([A-Za-z0-9_-]+)", page.content()).group(1)
    page.goto(f"/view/{token}")
    assert page.locator("form").count() == 0
    assert page.locator("input, select, textarea").count() == 0
    assert page.locator(".sheet a[href*='/hands/']").count() == 0


def sheet_rows(page) -> list[str]:
    """The sheet's rows as a reader sees them: id and text, row by row."""
    return page.eval_on_selector_all(".sheet tbody tr", "rows => rows.map(r => r.id + '|' + r.innerText.trim())")


def live_region(page) -> list[str]:
    """What the live region shows: the board's and the sheet's text (totals, next dealer, undo button,
    settlements) and the race pictures' titles and lines."""
    return page.eval_on_selector_all("#live [data-region=board], #live [data-region=sheet]", """els => els.map(e =>
        e.innerText.trim() + "|" + [...e.querySelectorAll("svg title, svg polyline")].map(
            t => t.textContent + (t.getAttribute("points") || "")).join("/"))""")


def test_the_step_keeps_the_pages_own_rows_and_ends_as_a_page_drawn_anew(browser, server, case):
    """The saving phone and the other phone get only the new row (a step, data-from); what they then show
    is what a reload of the match draws, hand after hand."""
    a, doc, match_url = imported_on_a_phone(browser, server, case)
    b = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    b.goto(match_url)
    steps = {"a": 0, "b": 0}
    for name, phone in (("a", a), ("b", b)):
        phone.on("response", lambda r, name=name: steps.__setitem__(name, steps[name] + (
            r.status == 200 and ("/live" in r.url or "/hands" in r.url) and "data-from=" in r.text())))
    fresh = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    for number, points in ((5, "7"), (6, "12")):
        a.get_by_text("Type the points instead").click()
        form = a.locator("form", has=a.get_by_role("button", name="Save points"))
        form.locator("label.pick", has_text="Alexandra").click()
        form.locator("input[name=points]").fill(points)
        form.get_by_role("button", name="Save points").click()
        a.wait_for_url(f"**#hand-{number}")
        expect(b.locator(f"#hand-{number}")).to_be_visible(timeout=30_000)
        fresh.goto(match_url)
        assert sheet_rows(a) == sheet_rows(fresh) == sheet_rows(b)
        assert live_region(a) == live_region(fresh) == live_region(b)
    assert steps == {"a": 2, "b": 2}
