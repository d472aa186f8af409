"""A table of four at a 360 x 740 phone (issue 46): the deal's screen fits the width, every control of it
is a tap of at least 44 px, a deal is checked and saved from the screen, and the same works without the
script. Screenshots are written to GIN_LEDGER_SHOTS (if set) to look at."""
from __future__ import annotations

import os

import pytest

from tests.browser.conftest import Player
from tests.browser.driver import VIEWPORT

pytestmark = pytest.mark.browser

CONTROLS = """() => [...document.querySelectorAll(
    '#deal-form input:not([type=hidden]), #deal-form button, #deal-form label.choice, #deal-form summary,'
    + ' form.stack input:not([type=hidden]), form.stack button, form.stack label.choice, #sheet button')]
  .filter(e => e.offsetParent !== null)
  .map(e => { const t = e.matches('input[type=radio], input[type=checkbox]') ? (e.closest('label') || e) : e;
              const b = t.getBoundingClientRect();
              return {what: e.outerHTML.slice(0, 80), width: b.width, height: b.height}; })"""


def shot(page, name: str) -> None:
    folder = os.environ.get("GIN_LEDGER_SHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"], f"the page is {width}px wide on a {VIEWPORT['width']}px phone"
    small = [c for c in page.evaluate(CONTROLS) if c["width"] < 44 or c["height"] < 44]
    assert not small, small


def enter_first_deal(page) -> None:
    page.check("input[name=b1_result][value=knock]")
    page.check("input[name=b1_knocker][value=Ana]")
    page.fill("#b1_kd", "3")
    page.fill("#b1_od", "20")
    page.check("input[name=b2_result][value=gin]")
    page.check("input[name=b2_knocker][value=Dan]")
    page.fill("#b2_od", "10")


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_deal_of_partners_is_entered_on_one_phone_screen(page, no_script, case, script):
    doc, _ = case("tables/partners-example")
    doc["hands"] = []
    phone = page if script else no_script
    Player(page).import_by_paste(doc)  # the paste box needs the script; the deal's screen does not
    phone.goto(page.url)
    fits(phone)
    shot(phone, f"table-deal-{'script' if script else 'noscript'}")
    enter_first_deal(phone)
    phone.get_by_role("button", name="Check the deal").click()
    assert "Ben and Dan win the deal by 18." in phone.locator(".checked").inner_text()
    enter_first_deal(phone)
    phone.get_by_role("button", name="Save the deal").click()
    phone.wait_for_url("**#deal-form")
    assert "Ben and Dan win the deal by 18." in phone.content().replace("&amp;", "&")
    assert phone.locator("tr.deal-row").count() == 1 and phone.locator("tr.board-row").count() == 2
    fits(phone)
    shot(phone, f"table-after-{'script' if script else 'noscript'}")


def test_the_new_match_form_with_four_seats_fits_the_phone(page):
    page.goto("/matches/new")
    fits(page)
    shot(page, "table-new-match")


def test_chouette_names_the_captain_before_and_after_the_deal(page, case):
    doc, _ = case("tables/chouette-three")
    doc["hands"] = []
    Player(page).import_by_paste(doc)
    assert "Imported Ana vs Ben & Cy: 0 hands." in page.locator("main").inner_text()
    assert "Ben captains this deal for Ben & Cy." in page.locator("#deal-form").inner_text()
    fits(page)
    shot(page, "table-chouette")
    page.check("input[name=b1_knocker][value=Ana]")
    page.fill("#b1_kd", "3")
    page.fill("#b1_od", "30")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url("**#deal-form")
    assert "Cy captains the next deal." in page.content()
    assert "Cy captains this deal" in page.locator("#deal-form").inner_text()
    fits(page)
