"""The count pad on a pre-filled field and past a field's most (issue 45, item 5): the first tap on a count the
server drew replaces it, and a digit refused is shown under the pad and said, never dropped unsaid."""
from __future__ import annotations

import json
import os

import pytest

from tests.browser.test_say_aloud import STAND_IN
from tests.server import Client

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SHOTS")  # a folder: the screens are kept there to look at
REFUSED = {  # the words under the pad when a 9 would make the defender's count 99
    "en": "Defender's deadwood after lay-offs: at most 98, so the 9 was not added.",
    "cs": "Mrtvé karty soupeře po přiložení: nejvýš 98, takže 9 nebylo přidáno.",
    "sk": "Mŕtve karty súpera po priložení: najviac 98, takže 9 nebolo pridané.",
    "sq": "Kartat e pashoqe të kundërshtarit pas shtimeve: më së shumti 98, ndaj 9 nuk u shtua.",
}


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def knocked(server) -> int:
    return Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                        "hands": [{"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 30}]})


def listening(page) -> None:
    page.add_init_script(STAND_IN % json.dumps(["en-US", "cs-CZ", "sk-SK", "sq-AL"]))
    page.add_init_script("localStorage.setItem('gin-ledger-speak', 'on')")


def tap(page, digits: str) -> None:
    for digit in digits:
        page.locator(f"#hand-form [data-role=pad] [data-key='{digit}']").tap()


def test_the_first_tap_on_the_edit_pages_count_replaces_it(page, server):
    listening(page)
    match_id = knocked(server)
    page.goto(f"/matches/{match_id}/hands/1")
    field = page.locator("input[name=opponent_deadwood]")
    expect(field).to_have_value("30")
    tap(page, "44")
    expect(field).to_have_value("44")
    note = page.locator("#hand-form [data-role=preview]")  # in the save bar, where the next tap is
    expect(note).to_have_text("Ana scores 40 → game 1.")
    tap(page, "4")  # a third digit: refused, and said so
    expect(field).to_have_value("44")
    expect(note).to_have_text("Defender's deadwood after lay-offs: at most 98, so the 4 was not added.")
    expect(note).to_be_in_viewport()
    shot(page, "edit-pad-refused")
    assert page.evaluate("window.said.map(w => w.text)") == [note.inner_text()]
    tap(page, "\u232b")  # the next key that is taken: the preview again
    expect(field).to_have_value("4")
    expect(note).not_to_contain_text("at most")
    expect(note).to_contain_text("scores")
    page.locator("#hand-form button[type=submit]").tap()
    page.wait_for_url(f"**/matches/{match_id}#hand-1")
    assert Client(server).export(match_id)["hands"][0]["opponent_deadwood"] == 4


def test_a_backspace_on_a_drawn_count_edits_it(page, server):
    match_id = knocked(server)
    page.goto(f"/matches/{match_id}/hands/1")
    tap(page, "\u232b7")
    expect(page.locator("input[name=opponent_deadwood]")).to_have_value("37")


@pytest.mark.parametrize("lang", sorted(REFUSED))
def test_a_count_past_the_most_is_refused_aloud_on_the_new_hand_form(page, server, lang):
    listening(page)
    match_id = knocked(server)
    page.goto(f"/matches/{match_id}?lang={lang}")
    field = page.locator("input[name=opponent_deadwood]")
    with page.expect_response(lambda r: "/preview?" in r.url):  # the first 9's, answered after the refusal
        tap(page, "99")
    expect(field).to_have_value("9")
    note = page.locator("#hand-form [data-role=preview]")
    expect(note).to_have_text(REFUSED[lang])
    expect(note).to_be_in_viewport()
    assert page.evaluate("window.said.map(w => w.text)") == [REFUSED[lang]]
    if lang == "en":
        shot(page, "new-hand-pad-refused")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, width


def test_the_typed_points_pad_says_its_own_most(page, server):
    match_id = knocked(server)
    page.goto(f"/matches/{match_id}")
    page.get_by_text("Type the points instead").click()
    field = page.locator("input[name=points]")
    for digit in "10000000":
        page.locator(f"[data-role=points-pad] [data-points-key='{digit}']").tap()
    expect(field).to_have_value("1000000")
    expect(page.locator("#typed-points [data-role=pad-refused]")).to_have_text(
        "Points: at most 1,000,000, so the 0 was not added.")


def test_without_the_script_the_field_takes_the_servers_most(no_script, server):
    match_id = knocked(server)
    no_script.goto(f"/matches/{match_id}/hands/1")
    field = no_script.locator("input[name=opponent_deadwood]")
    expect(field).to_have_attribute("maxlength", "2")
    expect(field).to_have_attribute("data-most", "98")
    expect(no_script.locator("#hand-form [data-role=pad-refused]")).to_be_hidden()
