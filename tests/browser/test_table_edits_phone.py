"""A partners deal edited on a 360 x 740 phone (issue 46): the sheet's row links its edit, the edit page
opens with both boards as entered, one board changed and saved in one tap, and neither the sheet with its
row tools nor the edit page scrolls sideways; every control is a tap of at least 44 px. Screenshots go to
GIN_LEDGER_SHOTS (if set) to look at."""
from __future__ import annotations

import pytest

from tests.browser.conftest import Player
from tests.browser.test_table_deal_phone import fits, shot

pytestmark = pytest.mark.browser

ROW_TOOLS = """() => [...document.querySelectorAll('tr.deal-tools a')].map(e => {
    const b = e.getBoundingClientRect(); return {what: e.textContent, width: b.width, height: b.height}; })"""


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_board_of_a_partners_deal_is_edited_on_one_phone_screen(page, no_script, case, script):
    doc, _ = case("tables/partners-example")
    phone = page if script else no_script
    Player(page).import_by_paste(doc)  # the paste box needs the script; the edit does not
    phone.goto(page.url)
    fits(phone)
    tools = phone.evaluate(ROW_TOOLS)
    assert len(tools) == 9 and all(t["width"] >= 44 and t["height"] >= 44 for t in tools), tools
    phone.get_by_role("link", name="Edit deal 1").click()
    assert phone.locator("h1").inner_text() == "Edit deal 1"
    assert phone.input_value("#b1_kd") == "3" and phone.is_checked("input[name=b2_result][value=gin]")
    fits(phone)
    shot(phone, f"table-edit-{'script' if script else 'noscript'}")
    phone.fill("#b1_kd", "5")
    phone.get_by_role("button", name="Save the changed deal").click()
    phone.wait_for_url("**#told")
    text = phone.locator("main").inner_text()
    assert "Deal 1 changed" in text and "Ben and Dan win the deal by 20." in text
    assert phone.locator("#deal-1 td.num").inner_text() == "20"
    phone.get_by_role("link", name="Ben and Dan win the deal by 20.").click()  # the message links the row
    assert phone.evaluate("location.hash") == "#deal-1" and phone.locator("#deal-1").is_visible()
    fits(phone)
    shot(phone, f"table-edited-{'script' if script else 'noscript'}")
