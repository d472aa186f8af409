"""The edit page's save button names the kind the server scores the entered hand as (issue 45, item 7): a gin
is never offered as "Save as a knock"; it follows the entries with the script, and is drawn so without it."""
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
HANDS = [{"knocker": "Ana", "knocker_deadwood": 0, "opponent_deadwood": 30},
         {"knocker": "Ben", "knocker_deadwood": 5, "opponent_deadwood": 20},
         {"winner": "Ana", "points": 12}]
SAVE = {  # the button for the gin of hand 1, then that hand made a knock, then an undercut, in each language
    "en": ("Save as a gin", "Save as a knock", "Save as an undercut"),
    "cs": ("Uložit jako gin", "Uložit jako klepnutí", "Uložit jako podříznutí"),
    "sk": ("Uložiť ako gin", "Uložiť ako klepanie", "Uložiť ako podrezanie"),
    "sq": ("Ruaje si gin", "Ruaje si trokitje", "Ruaje si nënvleftësim"),
}


def match(server) -> int:
    return Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                        "hands": HANDS})


@pytest.mark.parametrize("lang", sorted(SAVE))
def test_the_save_button_follows_the_kind_of_the_entered_hand(page, server, lang):
    gin, knock, undercut = SAVE[lang]
    match_id = match(server)
    page.goto(f"/matches/{match_id}/hands/1?lang={lang}")
    button = page.locator("#hand-form [data-role=save-as]")
    expect(button).to_have_text(gin)
    if SHOTS and lang == "en":
        page.screenshot(path=os.path.join(SHOTS, "edit-gin.png"))
    page.locator("label[for=kd-4]").tap()
    expect(button).to_have_text(knock)
    page.locator("[data-role=pad] [data-key=C]").tap()
    page.locator("[data-role=pad] [data-key='3']").tap()
    expect(button).to_have_text(undercut)
    page.locator("[data-role=pad] [data-key=C]").tap()  # no count: not yet a kind
    expect(button).to_have_text({"en": "Save as a knock or gin", "cs": "Uložit jako klepnutí nebo gin",
                                 "sk": "Uložiť ako klepanie alebo gin", "sq": "Ruaje si trokitje ose gin"}[lang])


def test_without_the_script_each_hand_is_drawn_with_its_own_kind(no_script, server):
    match_id = match(server)
    for number, words in ((1, "Save as a gin"), (2, "Save as a knock"), (3, "Save as a knock or gin")):
        no_script.goto(f"/matches/{match_id}/hands/{number}")
        expect(no_script.locator("#hand-form button[type=submit]")).to_have_text(words)
