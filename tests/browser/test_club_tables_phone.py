"""The club's book of tables at 360 x 740 (issue 46): a player's page lists with whom the player sat, tonight's
page seats four at a partners table, and one tap starts the partners match; each fits the phone.
Screenshots for a look, when asked (GIN_SHOTS=<folder>)."""
import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_ladder_phone import SHOTS, fits

pytestmark = pytest.mark.browser


def partners(seats: list[str], winner: str) -> dict:
    """A partners match of one game, closed by one deal typed as 130 points for `winner`'s side."""
    return {"table": "partners", "format": "single", "players": seats, "first_dealer": seats[0],
            "hands": [{"winner": winner, "points": 130}]}


def test_with_whom_and_a_table_of_four_on_a_phone(player):
    player.import_by_paste(partners(["Oriel", "Pavla", "Rolf", "Sanna"], "Rolf"))
    page = player.page
    page.goto("/players")
    page.get_by_role("link", name=re.compile(r"^Oriel\b")).first.click()
    together = page.locator("table.partners")
    expect(together).to_contain_text("Rolf")
    expect(together.locator("tbody tr")).to_have_count(1)
    fits(page)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "player-with-whom-360.png"), full_page=True)

    page.goto("/tonight?seats=four")
    expect(page.locator("input[name=seats][value=four]")).to_be_checked()
    start = page.get_by_role("button", name=re.compile(r"^Start partners: ")).first
    expect(start).to_be_visible()
    assert start.bounding_box()["height"] >= 44
    fits(page)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "tonight-four-360.png"), full_page=True)
    said = start.inner_text()
    start.click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    one, three, two, four = re.match(r"Start partners: (.+) & (.+) vs (.+) & (.+)", said).groups()
    expect(page.locator(".flashes, .notices").first).to_contain_text(f"New match: {one} & {three} vs {two} & {four}.")
