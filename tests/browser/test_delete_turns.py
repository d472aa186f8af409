"""The delete question says what stood before and what will stand after when a game changes hands (issue 45,
item 7), at 360x740 in the four languages, and the page without the script says the same."""
from __future__ import annotations

import os

import pytest

from tests.browser.driver import VIEWPORT
from tests.server import Client
from tests.test_game_turns import TURNED

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SHOTS")  # a folder: the screens are kept there to look at
SAID = {
    "en": "Game 1 is now won by Ben (before: by Ana).",
    "cs": "Hru 1 teď vyhrává Ben (dříve: Ana).",
    "sk": "Hru 1 teraz vyhráva Ben (predtým: Ana).",
    "sq": "Lojën 1 tani e fiton Ben (më parë: Ana).",
}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_delete_question_says_who_wins_the_game_now_and_who_did(page, server, lang):
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": TURNED})
    page.goto(f"/matches/{match_id}/hands/3/delete?lang={lang}")
    expect(page.locator("ul.changes li").first).to_be_visible()
    said = page.locator("ul.changes li").all_text_contents()
    assert SAID[lang] in said, said
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORT["width"]
    if SHOTS and lang == "en":
        page.screenshot(path=os.path.join(SHOTS, "delete-turns.png"), full_page=True)


def test_without_the_script_the_question_says_the_same(no_script, server):
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": TURNED})
    no_script.goto(f"/matches/{match_id}/hands/3/delete")
    expect(no_script.locator("ul.changes li").first).to_be_visible()
    said = no_script.locator("ul.changes li").all_text_contents()
    assert SAID["en"] in said and not any("is now closed" in line for line in said), said
