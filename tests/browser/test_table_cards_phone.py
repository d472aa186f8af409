"""A table's card grid per board at a 360 x 740 phone (issue 46): from the deal form "Count cards: board 2"
opens the grid of that board's two players, which fits the width with taps of at least 44 px; "Use these
counts" fills board 2's deadwoods and keeps board 1's entries, and the deal saves. With and without the
script. Screenshots are written to GIN_LEDGER_SHOTS (if set) to look at."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.driver import VIEWPORT
from tests.browser.conftest import Player
from tests.browser.test_count_cards import DEFENDER, KNOCKER, result, tap_cards
from tests.browser.test_table_deal_phone import shot

pytestmark = pytest.mark.browser

GRID_CONTROLS = """() => [...document.querySelectorAll(
    '#count-form label.card, #count-form label.pick, #count-form button, #count-form select, main a.button')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const b = e.getBoundingClientRect();
              return {what: e.outerHTML.slice(0, 80), width: b.width, height: b.height}; })"""
DEAL_BUTTONS = "() => [...document.querySelectorAll('#deal-form button')].map(e => e.getBoundingClientRect().height)"


def fits(page, controls: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"], f"the page is {width}px wide on a {VIEWPORT['width']}px phone"
    small = [c for c in page.evaluate(controls) if c["width"] < 44 or c["height"] < 44]
    assert not small, small


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_board_two_is_counted_on_the_phone_and_board_one_keeps_its_entries(page, no_script, case, script):
    doc, _ = case("tables/partners-example")
    doc["hands"] = []
    phone = page if script else no_script
    Player(page).import_by_paste(doc)
    phone.goto(page.url)
    match_path = re.sub(r"^https?://[^/]+", "", phone.url)
    assert min(phone.evaluate(DEAL_BUTTONS)) >= 44
    phone.check("input[name=b1_result][value=knock]")
    phone.check("input[name=b1_knocker][value=Ana]")
    phone.fill("#b1_kd", "3")
    phone.fill("#b1_od", "20")
    phone.get_by_role("button", name="Count cards: board 2").click()
    phone.wait_for_url(re.compile(r"/count\?board=2&"))
    expect(phone.locator("main .meta")).to_contain_text("Deal 1 · Board 2: Cy vs Dan.")
    fits(phone, GRID_CONTROLS)
    phone.locator("label[for=knocker-2]").tap()  # Dan
    tap_cards(phone, "k", KNOCKER)
    tap_cards(phone, "d", DEFENDER)
    if script:  # counted on each tap by the server, through the page's JSON
        expect(result(phone, "d").locator("[data-role=points]")).to_have_text("18")
    else:
        phone.locator("[data-role=count-submit]").first.click()
        expect(result(phone, "d").locator("[data-role=points]")).to_have_text("18")
    expect(phone.locator("[data-role=knocker-name]")).to_have_text("Dan")
    expect(result(phone, "k").locator("[data-role=points]")).to_have_text("2")
    fits(phone, GRID_CONTROLS)
    shot(phone, f"table-cards-{'script' if script else 'noscript'}")
    phone.get_by_role("button", name="Use these counts").click()
    phone.wait_for_url(re.compile(r"#deal-form$"))
    expect(phone.locator("#b2_kd")).to_have_value("2")
    expect(phone.locator("#b2_od")).to_have_value("18")
    expect(phone.locator("input[name=b2_knocker][value=Dan]")).to_be_checked()
    expect(phone.locator("#b1_kd")).to_have_value("3")
    expect(phone.locator("#b1_od")).to_have_value("20")
    expect(phone.locator("input[name=b1_knocker][value=Ana]")).to_be_checked()
    phone.get_by_role("button", name="Save the deal").click()
    phone.wait_for_url(f"**{match_path}#deal-form")
    assert phone.locator("tr.deal-row").count() == 1 and phone.locator("tr.board-row").count() == 2
