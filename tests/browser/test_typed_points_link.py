"""The typed points one tap from the first screen at 360 x 740 (issue 37), with and without the script.

"Type the points instead" sat below the first screen: a scroll for every hand copied from paper. The
next hand's heading carries a link into the panel; the browser opens the panel it points into.
"""
from __future__ import annotations

import pytest

from tests.browser.driver import VIEWPORT, phone
from tests.server import Client

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

WORDS = {"en": ("Type points", "Save points", "Hand"), "cs": ("Zadat body", "Uložit body", "Kolo"),
         "sk": ("Zadať body", "Uložiť body", "Kolo"), "sq": ("Shkruaj pikët", "Ruaj pikët", "Raundi")}


def above_the_bar(page, locator) -> bool:
    """Wholly on the screen and clear of the sticky Save bar: a tap needs no scroll."""
    b, bar = locator.bounding_box(), page.locator(".save-bar").bounding_box()
    return b is not None and b["y"] >= -1 and b["y"] + b["height"] <= min(bar["y"], VIEWPORT["height"]) + 1


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
@pytest.mark.parametrize("lang", sorted(WORDS))
def test_typed_points_are_one_tap_from_the_first_screen(browser, server, lang, script):
    link_words, save_words, hand = WORDS[lang]
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": [{"winner": "Ana", "points": 12}]})
    context = phone(browser, server, java_script_enabled=script)
    page = context.new_page()
    try:
        page.goto(f"/matches/{match_id}?lang={lang}")
        link = page.locator("#enter + [data-role=typed-link]")
        expect(link).to_have_text(link_words)
        assert above_the_bar(page, link), link.bounding_box()
        link.tap()
        save = page.get_by_role("button", name=save_words, exact=True)
        expect(save).to_be_visible()
        assert page.locator(".alt-entries details").evaluate("d => d.open")
        form = page.locator("#typed-points")
        for target in (form.locator("label.pick", has_text="Ben"), save):
            b = target.bounding_box()
            assert b and 0 <= b["y"] and b["y"] + b["height"] <= VIEWPORT["height"], b
        form.locator("label.pick", has_text="Ben").tap()
        form.locator("input[name=points]").fill("31")
        save.tap()
        expect(page.locator("#enter")).to_have_text(f"{hand} 3")
        assert Client(server).export(match_id)["hands"][1] == {"winner": "Ben", "points": 31}
        # the next hand's link is in view again where the save lands
        assert above_the_bar(page, page.locator("[data-role=typed-link]")), page.locator("[data-role=typed-link]").bounding_box()
    finally:
        context.close()
