"""The save that ends a match, with the page script and without: the saved hand's message shown, said
aloud (when the phone asked), and the result's heading in view (issue 45, item 4)."""
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


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def one_hand_from_the_end(server) -> int:
    """A single game to 100 that Ana's knock of 4 against 39 ends (70 + 35)."""
    return Client(server).import_match({"format": "single", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                        "hands": [{"winner": "Ana", "points": 70}]})


def knock(page, script: bool) -> None:
    form = page.locator("#hand-form")
    form.locator("label[for=knocker-1]").tap()
    form.locator("label[for=kd-4]").tap()
    if script:
        for digit in "39":
            form.locator(f"[data-role=pad] [data-key='{digit}']").tap()
    else:  # no pad without the script: the number keyboard
        form.locator("input[name=opponent_deadwood]").fill("39")
    form.locator("button.save").tap()


def in_view(page, selector: str) -> bool:
    """The element's text whole on the screen (its box may start under the top edge by its border)."""
    box = page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
                                  return [r.top, r.bottom, innerHeight]; }""", selector)
    assert box[0] >= -4 and box[1] <= box[2], (selector, box)
    return True


def ends(page, server, script: bool = True) -> str:
    match_id = one_hand_from_the_end(server)
    page.goto(f"/matches/{match_id}")
    knock(page, script)
    page.wait_for_url("**#*")
    expect(page.locator("#result")).to_have_text("Ana wins the game")
    expect(page.locator(".flash-saved")).to_contain_text("Ana wins game 1")
    return page.locator(".flash-saved").get_attribute("data-say")


def test_the_last_hand_is_told_said_and_its_result_shown_with_the_script(page, server):
    page.add_init_script(STAND_IN % json.dumps(["en-US"]))
    page.add_init_script("localStorage.setItem('gin-ledger-speak', 'on')")
    say = ends(page, server)
    shot(page, "last-hand-script")
    assert in_view(page, "#result") and in_view(page, ".flash-saved")
    assert page.evaluate("window.said.map(w => w.text)") == [say]


def test_the_last_hand_is_told_and_its_result_shown_without_the_script(no_script, server):
    ends(no_script, server, script=False)
    shot(no_script, "last-hand-no-script")
    assert in_view(no_script, "#result") and in_view(no_script, ".flash-saved")


def test_the_last_hand_of_three_games_lands_on_its_message_and_result(page, server, case):
    """Hollywood: the closing flash says three games; the result is still on the first screen."""
    doc = case("full-hollywood-match")[0]
    last = doc["hands"].pop()
    assert last == {"knocker": "Ana", "knocker_deadwood": 1, "opponent_deadwood": 19}
    page.add_init_script(STAND_IN % json.dumps(["en-US"]))
    page.add_init_script("localStorage.setItem('gin-ledger-speak', 'on')")
    match_id = Client(server).import_match(doc)
    page.goto(f"/matches/{match_id}")
    form = page.locator("#hand-form")
    form.locator("label[for=knocker-1]").tap()
    form.locator("label[for=kd-1]").tap()
    for digit in "19":
        form.locator(f"[data-role=pad] [data-key='{digit}']").tap()
    form.locator("button.save").tap()
    page.wait_for_url("**#hand-13")
    expect(page.locator("#result")).to_contain_text("wins the match")
    shot(page, "last-hand-hollywood")
    assert in_view(page, "#result") and in_view(page, ".flash-saved")
    assert page.evaluate("window.said.map(w => w.text)") == [page.locator(".flash-saved").get_attribute("data-say")]
    assert Client(server).export(match_id)["hands"][-1] == last
