"""The ladder's headings break between words only, never inside one ("Pla/ce", "Po/řa/dí"; issue 45), in every
language, on a phone (360 x 740), on a TV (1920 x 1080) and on paper (the print view at A4's width); the
printed ladder says its date, never "today". Screenshots for a look, when asked (GIN_SHOTS=<folder>)."""
import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.driver import phone
from tests.browser.test_ladder_phone import single

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GIN_SHOTS")
LANGUAGES = ("en-GB", "cs-CZ", "sk-SK", "sq-AL")

# Every word of every column heading, with the number of lines its letters take (more than one: broken inside).
BROKEN_WORDS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll(".ladder thead th")) {
    if (!th.getClientRects().length) continue;  // a heading the screen does not show
    for (const node of [...th.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)) {
      for (const found of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(found[0]);
      }
    }
  }
  return broken;
}"""


RUNS = iter(range(1, 1000))


@pytest.fixture
def ladder_with_both_lists(player):
    """Three finished matches of players new to the server: with the provisional count at 2, two of them ranked
    and two provisional."""
    run = f" {next(RUNS)}"
    for winner, loser in (("Ilse", "Jonas"), ("Ilse", "Katrin"), ("Jonas", "Lorenz")):
        player.import_by_paste(single(winner + run, loser + run))
    page = player.page
    page.goto("/ladder")
    page.fill("input[name=provisional]", "2")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("table.ladder")).to_have_count(2)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_ladder_heading_breaks_inside_a_word(ladder_with_both_lists, browser, server, language):
    context = phone(browser, server, locale=language)
    page = context.new_page()
    try:
        for address, size, media in (("/ladder", {"width": 360, "height": 740}, "screen"),
                                     ("/ladder/big", {"width": 1920, "height": 1080}, "screen"),
                                     ("/ladder/print", {"width": 718, "height": 1050}, "print")):
            page.set_viewport_size(size)
            page.emulate_media(media=media)
            page.goto(address)
            expect(page.locator(".ladder thead th").first).to_be_visible()
            assert page.evaluate(BROKEN_WORDS) == [], f"{address} in {language} at {size['width']} px"
            if SHOTS:
                page.screenshot(path=os.path.join(SHOTS, f"ladder-heads-{language}-{address.strip('/').replace('/', '-')}.png"),
                                full_page=True)
    finally:
        context.close()


def test_the_printed_ladder_says_its_date_not_today(ladder_with_both_lists, player):
    page = player.page
    page.goto("/ladder/print")
    page.emulate_media(media="print")
    printed = page.locator("main").inner_text()
    assert "today" not in printed and "yesterday" not in printed, printed
    year = str(page.evaluate("new Date().getFullYear()"))
    expect(page.locator("p.printed")).to_contain_text(re.compile(r"As of .*" + year))
    assert year in page.locator("table.ladder td.last").first.inner_text()
