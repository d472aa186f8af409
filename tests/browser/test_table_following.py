"""Two phones on one table of four at 360 x 740 (issue 46): a deal saved on one shows on the other by itself,
and on the spectator's link and the big screen; a deal form nothing was entered in moves on to the next
deal, one half entered is kept and its save told the deal was saved on another phone. Screenshots are
written to GIN_LEDGER_SHOTS (if set) to look at."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Player
from tests.browser.driver import phone
from tests.browser.test_table_deal_phone import enter_first_deal, shot

pytestmark = pytest.mark.browser
SEEN_MS = 10_000  # the follow asks every 2.5 s on a phone, 5 s on a page that only shows


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


@pytest.fixture
def phones(browser, server):
    contexts, errors = [], []

    def open_page(tv: bool = False):
        context = (browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server) if tv
                   else phone(browser, server))
        contexts.append(context)
        opened = context.new_page()
        opened.on("pageerror", lambda error: errors.append(str(error)))
        return opened

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_a_deal_saved_on_one_phone_shows_on_the_other_the_link_and_the_big_screen(page, phones, case):
    doc, _ = case("tables/partners-example")
    doc["hands"] = []
    match_id = Player(page).import_by_paste(doc)
    match_url = f"/matches/{match_id}"
    token = re.search(r"/view/([A-Za-z0-9_-]+)", page.request.get(match_url + "/join").text()).group(1)
    follower = phones()
    follower.goto(match_url)
    watcher = phones()
    watcher.goto(f"/view/{token}")
    big = phones(tv=True)
    big.goto(f"/view/{token}/big")
    expect(follower.locator("#deal-title")).to_have_text("Deal 1")

    enter_first_deal(page)
    page.get_by_role("button", name="Save the deal").click()
    expect(page.locator("#deal-title")).to_have_text("Deal 2")

    for other in (follower, watcher, big):
        expect(other.locator("#deal-1")).to_be_visible(timeout=SEEN_MS)
        expect(other.locator("[data-region=board] .game").first).to_contain_text("18")
    expect(follower.locator("#deal-title")).to_have_text("Deal 2")  # its empty form drawn for the next deal
    expect(follower.get_by_role("button", name="Undo deal 1")).to_be_visible()
    assert watcher.locator("form").count() == 0 and big.locator("form").count() == 0
    for shown in (follower, watcher):
        no_sideways_scroll(shown)
    shot(follower, "table-follower")
    shot(watcher, "table-watcher")
    shot(big, "table-big-screen")

    # and back: a deal saved on the follower shows on the first phone
    follower.check("input[name=b1_result][value=draw]")
    follower.check("input[name=b2_result][value=knock]")
    follower.check("input[name=b2_knocker][value=Cy]")
    follower.fill("#b2_kd", "5")
    follower.fill("#b2_od", "5")
    follower.get_by_role("button", name="Save the deal").click()
    expect(page.locator("#deal-2")).to_be_visible(timeout=SEEN_MS)
    expect(big.locator("#deal-2")).to_be_visible(timeout=SEEN_MS)


def test_a_deal_half_entered_when_the_other_phone_saved_it_is_kept_and_its_save_told(page, phones, case):
    doc, _ = case("tables/partners-example")
    doc["hands"] = []
    match_id = Player(page).import_by_paste(doc)
    late = phones()
    late.goto(f"/matches/{match_id}")
    late.check("input[name=b1_knocker][value=Ana]")  # begun on the second phone

    enter_first_deal(page)
    page.get_by_role("button", name="Save the deal").click()
    expect(late.locator("#deal-1")).to_be_visible(timeout=SEEN_MS)
    expect(late.locator("#deal-title")).to_have_text("Deal 1")  # what was entered stays
    expect(late.locator("input[name=b1_knocker][value=Ana]")).to_be_checked()

    enter_first_deal(late)
    late.get_by_role("button", name="Save the deal").click()
    expect(late.get_by_text("This deal was already saved on another phone")).to_be_visible()
    expect(late.locator("#deal-title")).to_have_text("Deal 2")
    assert len(page.request.get(f"/matches/{match_id}.json").json()["hands"]) == 1
    no_sideways_scroll(late)
