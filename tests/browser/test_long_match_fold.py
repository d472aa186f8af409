"""A long match at the table: its page shows the last hands under one line to the whole sheet,
which a tap opens and which prints every hand; the printed match page says where it is."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Player
from tests.browser.driver import phone
from tests.browser.test_sheet_print_big import NO_SIDEWAYS, page_count
from tests.generate import long_match
from views.match.sheet import SHOWN_HANDS

pytestmark = pytest.mark.browser

COUNT = SHOWN_HANDS + 60
FOLDED = f"Hands 1–{COUNT - SHOWN_HANDS} are on the whole sheet"


@pytest.fixture(scope="module")
def long_id(browser, server) -> int:
    """Imported once and only looked at."""
    context = phone(browser, server, touch=False)
    match_id = Player(context.new_page()).import_by_paste(long_match(COUNT, seed=4))
    context.close()
    return match_id


def test_the_fold_line_opens_the_whole_sheet_with_the_same_totals(page, player, long_id):
    page.goto(f"/matches/{long_id}")
    assert player.hand_count() == SHOWN_HANDS
    fold = page.locator(".sheet tr.folded a")
    expect(fold).to_have_text(FOLDED)
    box = fold.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 200, box  # a thumb finds it
    assert page.evaluate(NO_SIDEWAYS)
    totals = player.totals()
    last = player.row(COUNT)
    fold.click()
    page.wait_for_url(f"**/matches/{long_id}/sheet")
    expect(page.get_by_role("heading", level=1)).to_have_text("The whole sheet")
    assert player.hand_count() == COUNT
    assert player.totals() == totals and player.row(COUNT) == last
    assert page.evaluate(NO_SIDEWAYS)
    page.get_by_role("link", name="Edit hand 3", exact=True).click()  # an old hand is one tap from here too
    page.wait_for_url(f"**/matches/{long_id}/hands/3")
    page.go_back()
    page.get_by_role("link", name="Back to the match").first.click()
    page.wait_for_url(f"**/matches/{long_id}")


@pytest.mark.parametrize("size", ["A4", "Letter"])
def test_the_printed_match_page_says_where_every_hand_is(page, long_id, size):
    page.goto(f"/matches/{long_id}")
    page.emulate_media(media="print")
    note = page.locator(".fold-note")
    expect(note).to_be_visible()
    assert re.fullmatch(rf"This printout shows the last {SHOWN_HANDS} hands; the whole sheet, every hand, is at "
                        rf"http://\S+/matches/{long_id}/sheet", note.inner_text()), note.inner_text()
    expect(page.locator(".sheet tr.folded")).to_be_hidden()
    assert page_count(page.pdf(format=size)) == 1  # the last hands, the totals, the races: one page


def test_the_whole_sheet_prints_every_hand_and_the_totals_once(page, long_id):
    page.goto(f"/matches/{long_id}/sheet")
    page.emulate_media(media="print")
    expect(page.locator(".fold-note")).to_have_count(0)
    visible = page.locator(".sheet tbody tr.hand").evaluate_all("rows => rows.filter(r => r.offsetParent).length")
    assert visible == COUNT
    # The header repeats on every printed page; the totals stand once, under the last hand.
    assert page.locator(".sheet tfoot").evaluate("f => getComputedStyle(f).display") == "table-row-group"
    assert page.locator(".sheet thead").evaluate("h => getComputedStyle(h).display") == "table-header-group"
    assert page_count(page.pdf(format="A4")) >= 2
    headings = page.locator("h1, h2").evaluate_all("els => els.filter(e => e.offsetParent).map(e => e.innerText)")
    assert sum("Ana vs Ben" in h for h in headings) == 1, headings  # the title once


def test_a_saved_hand_moves_the_window(page, player):
    """With the page script a save swaps the page in: the new hand shows, the oldest shown one folds away."""
    match_id = player.import_by_paste(long_match(SHOWN_HANDS + 1, seed=9))
    expect(page.locator(".sheet tr.folded a")).to_have_text("Hand 1 is on the whole sheet")
    player.type_points("Ana", 5)
    assert page.url.endswith(f"/matches/{match_id}#hand-{SHOWN_HANDS + 2}")
    expect(page.locator(".sheet tr.folded a")).to_have_text("Hands 1–2 are on the whole sheet")
    assert player.hand_count() == SHOWN_HANDS
    expect(page.locator(f"#hand-{SHOWN_HANDS + 2}")).to_be_visible()
    expect(page.locator("#hand-2")).to_have_count(0)


def test_the_spectator_reaches_every_hand(page, long_id):
    page.goto(f"/matches/{long_id}/join")  # where the read-only link is
    page.goto("/view/" + page.get_attribute("a[href*='/view/']", "href").split("/view/", 1)[1])
    page.locator(".sheet tr.folded a").click()
    page.wait_for_url(re.compile(r"/view/[\w-]+/sheet$"))
    assert page.locator(".sheet tbody tr.hand").count() == COUNT
    assert page.locator(".sheet tbody a").count() == 0  # read-only: no hand links
    assert page.locator("form").count() == 0
