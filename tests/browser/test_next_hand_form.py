"""After a save with the page script, the next hand's form as a page drawn anew would show it (issue 45, item 7):
its labels not those of the hand just saved, and with Oklahoma the saved message, the scores and the next
tap (the upcard) on the screen, not scrolled away."""
from __future__ import annotations

import os

import pytest

from tests.server import Client

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SHOTS")  # a folder: the screens are kept there to look at
OKLAHOMA = {"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana", "rules": {"oklahoma": True},
            "hands": []}


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def whole_on_screen(page, selector: str, above_bar: bool = False) -> None:
    box = page.evaluate("""([s, above]) => {
        const r = document.querySelector(s).getBoundingClientRect();
        const bar = document.querySelector('#hand-form .save-bar').getBoundingClientRect();
        return [r.top, r.bottom, above ? bar.top : innerHeight]; }""", [selector, above_bar])
    assert box[0] >= -4 and box[1] <= box[2], (selector, box)


def oklahoma_knock(page, rank: str, kd: str, od: str) -> None:
    form = page.locator("#hand-form")
    form.locator(f"label[for=upcard-rank-{rank}]").tap()
    form.locator("label[for=upcard-suit-S]").tap()
    form.locator("label[for=knocker-2]").tap()
    form.locator(f"label[for=kd-{kd}]").tap()
    for digit in od:
        form.locator(f"[data-role=pad] [data-key='{digit}']").tap()


def test_oklahoma_after_a_save_shows_the_message_the_scores_and_the_upcard(page, server):
    match_id = Client(server).import_match(OKLAHOMA)
    page.goto(f"/matches/{match_id}")
    drawn = {role: page.locator(f"#hand-form [data-role={role}]").first.inner_text()
             for role in ("knocker-name", "defender-name", "layoff-note")}
    assert drawn == {"knocker-name": "Knocker", "defender-name": "Defender", "layoff-note": "after lay-offs"}
    link = page.locator("[data-role=count-link]").get_attribute("href")
    oklahoma_knock(page, "3", "0", "20")  # a gin with the 3 up: its limit 3, no lay-offs
    expect(page.locator("#hand-form [data-role=knocker-name]").first).to_have_text("Ben")
    expect(page.locator("#hand-form [data-role=layoff-note]")).to_have_text("(no lay-offs after gin)")
    expect(page.locator("label[for=kd-4]")).to_be_visible()
    expect(page.locator("input#kd-4")).to_be_disabled()  # over the 3's limit
    page.locator("#hand-form button.save").tap()
    page.wait_for_url("**#hand-1")
    expect(page.locator(".flash-saved")).to_contain_text("Hand 1:")
    shot(page, "oklahoma-after-save")
    whole_on_screen(page, ".flash-saved")
    whole_on_screen(page, ".board")
    whole_on_screen(page, "#hand-form fieldset.upcard", above_bar=True)
    # the next hand's labels, as the page draws them: nothing of Ben's gin with the 3 up
    for role, words in drawn.items():
        expect(page.locator(f"#hand-form [data-role={role}]").first).to_have_text(words)
    expect(page.locator("#hand-form input[name=knocker_deadwood]:disabled")).to_have_count(0)
    assert page.locator("[data-role=count-link]").get_attribute("href") == link
    assert page.reload() and page.locator("#hand-form [data-role=knocker-name]").first.inner_text() == "Knocker"
