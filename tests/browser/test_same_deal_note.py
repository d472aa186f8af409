"""Saving through the "saved on another phone" note asks "same deal?" when it is (issue 37).

A phone entering hand 2 sees another phone save it: the note moves its entry on to hand 3. An entry
the same as the other phone's hand is asked about first, as a stale page's save is; another entry
is saved as hand 3 at once (tests/browser/test_first_screen.py).
"""
from __future__ import annotations

import pytest

from tests.server import Client

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

ASKED = {"en": ("Another phone already saved hand 2:", "Yes, save it as hand 3", "No, drop it"),
         "cs": ("Jiný telefon už uložil kolo 2:", "Ano, uložit jako kolo 3", "Ne, zahodit"),
         "sk": ("Iný telefón už uložil kolo 2:", "Áno, uložiť ako kolo 3", "Nie, zahodiť"),
         "sq": ("Një telefon tjetër e ka ruajtur tashmë raundin 2:", "Po, ruaje si raundin 3", "Jo, hidhe")}
HAND = {"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 22}


def entered_while_another_phone_saved_it(page, server, query: str = "") -> int:
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": [{"winner": "Ben", "points": 9}]})
    page.goto(f"/matches/{match_id}{query}")
    form = page.locator("#hand-form")
    form.locator("label[for=knocker-1]").tap()
    form.locator("label[for=kd-4]").tap()
    for digit in "22":
        form.locator(f"[data-role=pad] [data-key='{digit}']").tap()
    assert Client(server).post_hand(match_id, **{k: str(v) for k, v in HAND.items()}).status == 302
    expect(form.locator("[data-role=moved-on]")).to_be_visible(timeout=15_000)  # the follow's next poll
    return match_id


@pytest.mark.parametrize("lang", sorted(ASKED))
def test_the_same_entry_saved_through_the_note_is_asked_about(page, server, lang):
    title, yes, no = ASKED[lang]
    match_id = entered_while_another_phone_saved_it(page, server, f"?lang={lang}")
    page.locator("#hand-form button.save").tap()
    question = page.locator("#question")
    expect(question).to_contain_text(title)
    expect(page.get_by_role("button", name=yes)).to_be_visible()
    assert len(Client(server).export(match_id)["hands"]) == 2  # nothing stored before the answer
    page.get_by_role("link", name=no).tap()
    expect(page.locator("#hand-form")).to_be_visible()
    assert len(Client(server).export(match_id)["hands"]) == 2


def test_another_deal_all_the_same_is_saved_after_the_question(page, server):
    match_id = entered_while_another_phone_saved_it(page, server)
    page.locator("#hand-form button.save").tap()
    page.get_by_role("button", name="Yes, save it as hand 3").tap()
    expect(page.locator("#enter")).to_have_text("Hand 4")
    assert Client(server).export(match_id)["hands"][1:] == [HAND, HAND]
