"""Without the script a saved hand lands where the next hand is entered, its message in view (issue 37).

Post/Redirect/Get used to land on the saved row, 935-1,614 px down a long page: the message and the
next hand's form were off screen. It lands on the message (#told), the form under it.
"""
from __future__ import annotations

import pytest

from tests.browser.driver import VIEWPORT
from tests.server import Client

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

HAND = {"en": "Hand", "cs": "Kolo", "sk": "Kolo", "sq": "Raundi"}


def in_view(locator) -> bool:
    b = locator.bounding_box()
    return b is not None and b["y"] >= -1 and b["y"] + b["height"] <= VIEWPORT["height"] + 1


@pytest.mark.parametrize("lang", sorted(HAND))
def test_a_save_without_the_script_shows_its_message_and_the_next_form(no_script, server, lang):
    page = no_script
    hands = [{"winner": ("Ana", "Ben")[n % 2], "points": 3} for n in range(14)]  # a long sheet below the form
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"],
                                            "first_dealer": "Ana", "hands": hands})
    page.goto(f"/matches/{match_id}?lang={lang}")
    page.locator("label[for=knocker-1]").click()
    page.locator("label[for=kd-4]").click()
    page.fill("[name=opponent_deadwood]", "30")
    page.locator("#hand-form button.save").click()
    page.wait_for_url(f"**/matches/{match_id}#told")
    assert len(Client(server).export(match_id)["hands"]) == 15
    flash = page.locator(".flash-saved")
    expect(flash).to_contain_text(f"{HAND[lang]} 15:")
    assert in_view(flash), flash.bounding_box()
    expect(page.locator("#enter")).to_have_text(f"{HAND[lang]} 16")
    for what in ("#enter", "label[for=knocker-1]", "label[for=kd-4]", "#hand-form button.save"):
        assert in_view(page.locator(what)), (what, page.locator(what).bounding_box())
