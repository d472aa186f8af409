"""Saving a hand with the page script: one request, and nothing lost when the server is away."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def enter_knock(page):
    page.locator("label[for=knocker-1]").click()
    page.locator("label[for=kd-4]").click()
    page.locator("[data-key='2']").click()
    page.locator("[data-key='2']").click()
    page.get_by_role("button", name="Save hand").click()


def saves(requests: list) -> list:
    """What went to the server apart from the static files, the live poll and the preview's questions."""
    return [r for r in requests if "/static/" not in r[1] and not r[1].endswith("/live") and "/preview?" not in r[1]]


def test_a_knock_is_saved_in_one_round_trip(player, page):
    match_id = player.new_match()
    page.wait_for_timeout(300)
    page.evaluate("() => { window.drawnOnce = 'still here'; }")  # gone if the document were written anew
    requests = []
    page.on("request", lambda r: requests.append((r.method, r.url)))
    enter_knock(page)
    expect(page.locator("#hand-1")).to_be_visible()
    page.wait_for_timeout(400)
    assert saves(requests) == [("POST", re.sub(r"#.*", "", page.url).replace(f"/matches/{match_id}",
                                                                             f"/matches/{match_id}/hands"))]
    assert page.url.endswith("#hand-1")
    assert page.evaluate("() => window.drawnOnce") == "still here"
    assert player.row(1)[0] == "18"
    assert "Ana scores 18" in page.locator(".flashes").inner_text()
    assert page.evaluate("() => document.activeElement.closest('.flashes') !== null")  # told what was saved
    expect(page.locator("#hand-1")).to_have_class(re.compile(r"\bfresh\b"))


def test_the_next_hand_after_a_save_works_as_the_first(player, page):
    """The new main region is set up again: the pad, the preview, the live poll's version, the next save."""
    player.new_match()
    enter_knock(page)
    expect(page.locator("#hand-1")).to_be_visible()
    page.evaluate("() => { window.drawnOnce = true; }")
    expect(page.locator("[data-role=pad]")).to_be_visible()
    page.locator("label[for=knocker-2]").click()
    page.locator("label[for=kd-0]").click()
    page.locator("[data-key='9']").click()
    expect(page.locator("[data-role=preview]")).to_have_text("Gin! Ben scores 34 → game 1.")
    requests = []
    page.on("request", lambda r: requests.append((r.method, r.url)))
    page.wait_for_timeout(3200)  # a live poll (every 2.5 s): the page knows its new version, so nothing new
    polls = [r for r in requests if r[1].endswith("/live")]
    assert polls, requests
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#hand-2")).to_be_visible()
    assert page.url.endswith("#hand-2")
    assert player.row(2)[1] == "34"
    assert len(saves(requests)) == 1 and page.evaluate("() => window.drawnOnce") is True


def test_a_refusal_replaces_only_the_main_region_and_focuses_the_field(player, page):
    player.new_match()
    page.evaluate("() => { window.drawnOnce = true; }")
    page.locator("label[for=knocker-1]").click()
    page.locator("label[for=kd-4]").click()  # no defender's count
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#opponent_deadwood-error")).to_be_visible()
    assert page.evaluate("() => window.drawnOnce") is True
    assert page.evaluate("() => document.activeElement.name") == "opponent_deadwood"
    assert page.locator("#knocker-1").is_checked() and page.locator("#kd-4").is_checked()
    assert player.hand_count() == 0
    page.locator("[data-key='3']").click()
    page.locator("[data-key='0']").click()
    expect(page.locator("[data-role=preview]")).to_have_text("Ana scores 26 → game 1.")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#hand-1")).to_be_visible()
    assert player.row(1)[0] == "26"


def test_when_the_server_cannot_be_reached_the_entries_stay_and_are_sent_by_themselves(player, page):
    match_id = player.new_match()
    page.route(f"**/matches/{match_id}/hands", lambda route: route.abort("internetdisconnected"))
    enter_knock(page)
    expect(page.locator("[data-role=waiting]")).to_have_text("Waiting to send hand 1…")
    assert page.locator("#knocker-1").is_checked() and page.locator("#kd-4").is_checked()
    assert page.locator("[name=opponent_deadwood]").input_value() == "22"
    page.unroute(f"**/matches/{match_id}/hands")
    expect(page.locator("#hand-1")).to_be_visible(timeout=8000)  # no second tap: the retry sends it
    assert player.export()["hands"] == [{"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 22}]
