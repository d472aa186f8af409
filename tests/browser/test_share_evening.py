"""Tonight on the home page at 360x740: the Share button is there and, in a browser without
navigator.share, a tap shows the text to copy. Screenshots for a look, when asked (GIN_SHOTS)."""
import os

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GIN_SHOTS")


def test_share_shows_the_evening_text_without_navigator_share(player, case):
    first = player.import_by_paste(case("seed001-ana-ben")[0])
    player.import_by_paste(case("seed001-ana-ben")[0])
    page = player.page
    page.add_init_script("delete Navigator.prototype.share;")
    page.goto("/")
    section = page.locator("section.tonight").first
    expect(section).to_contain_text("Ana is ahead tonight")
    text = section.locator(".share-text")
    expect(text).to_be_hidden()
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "home-tonight.png"))
    section.get_by_role("link", name="Share").click()
    expect(text).to_be_visible()
    expect(text).to_contain_text("Tonight: \u2068Ana\u2069 vs \u2068Ben\u2069")  # each name between isolates
    assert page.url.endswith("/")  # the script kept the page; without it the link opens the text
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "home-shared.png"))
        page.goto(f"/matches/{first}/sheet.svg")
        page.screenshot(path=os.path.join(SHOTS, "sheet-svg.png"))
