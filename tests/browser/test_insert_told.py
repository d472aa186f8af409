"""The message after "Insert a hand before" (issue 45, item 6): the saved line links its row, and what is said
aloud is its words only, no markup; the same page with the script and without."""
from __future__ import annotations

import json
import os

import pytest

from tests.browser.conftest import Player, load_case
from tests.browser.test_say_aloud import STAND_IN

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SHOTS")  # a folder: the screens are kept there to look at
WORDS = "Hand 2: Ben scores 12 → game 1."


def insert(player, page, script: bool) -> None:
    doc = load_case("seed001-ana-ben")[0]
    match_id = player.import_by_paste(doc)
    page.goto(f"/matches/{match_id}/hands/new?before=2")
    form = page.locator("form", has=page.get_by_role("button", name="Save as points"))
    form.locator("label.pick", has_text="Ben").click()
    if script:
        for digit in "12":
            form.locator(f"[data-role=points-pad] [data-points-key='{digit}']").tap()
    else:
        form.locator("input[name=points]").fill("12")
    form.get_by_role("button", name="Save as points").click()
    page.wait_for_url("**#told")


def told(page) -> str:
    saved = page.locator(".flash-saved")
    expect(saved).to_have_text(WORDS)  # no stray '">' of a broken attribute
    link = saved.get_by_role("link", name=WORDS)
    expect(link).to_have_attribute("href", "#hand-2")
    say = saved.get_attribute("data-say")
    assert say == WORDS.replace(" → ", ", "), say
    assert page.locator(".flashes [data-say]").count() == 1
    link.click()
    page.wait_for_url("**#hand-2")
    expect(page.locator("#hand-2")).to_be_in_viewport()
    return say


def test_the_inserted_hand_is_said_without_markup_with_the_script(page):
    page.add_init_script(STAND_IN % json.dumps(["en-US"]))
    page.add_init_script("localStorage.setItem('gin-ledger-speak', 'on')")
    insert(Player(page), page, script=True)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "insert-told.png"))
    assert page.evaluate("window.said.map(w => w.text)") == ["Hand 2: Ben scores 12, game 1."]
    told(page)


def test_the_inserted_hand_links_its_row_without_the_script(no_script):
    insert(Player(no_script), no_script, script=False)
    told(no_script)
