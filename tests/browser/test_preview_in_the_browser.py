"""The preview under the hand form is the server's answer: the page script only shows it."""
import json

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

OKLAHOMA = {"players": ["Ema", "Filip"], "format": "single", "rules": {"oklahoma": True}, "hands": []}


def deadwood_buttons(page) -> dict[int, bool]:
    """{value: enabled} for the knocker's deadwood buttons."""
    inputs = page.locator("#hand-form input[name=knocker_deadwood]")
    return {int(i.get_attribute("value")): i.is_enabled() for i in inputs.all()}


def tap_knock(form, seat: int, deadwood: int, digits: str = "") -> None:
    """Tap the knocker (1 or 2), the knocker's deadwood and the defender's count on the pad."""
    form.locator(f"label[for=knocker-{seat}]").tap()
    form.locator(f"label[for=kd-{deadwood}]").tap()
    for digit in digits:
        form.locator(f"[data-key='{digit}']").tap()


def test_a_tapped_knock_shows_the_servers_sentence(player, page):
    match_id = player.new_match()
    form = page.locator("#hand-form")
    tap_knock(form, 1, 4, "2")
    # The preview of the first "2" may still be on its way on a slow machine: wait for the one of "22".
    with page.expect_response(lambda response: f"/matches/{match_id}/preview?" in response.url
                              and "opponent_deadwood=22" in response.url) as answer:
        form.locator("[data-key='2']").tap()
    assert "knocker=Ana" in answer.value.url and "opponent_deadwood=22" in answer.value.url
    assert "csrf_token" not in answer.value.url  # a token never goes into an address
    expect(form.locator("[data-role=preview]")).to_have_text("Ana scores 18 → game 1.")

    # Whatever the server says is what the page says: the script computes nothing itself.
    page.route(f"**/matches/{match_id}/preview?*", lambda route: route.fulfill(
        content_type="application/json",
        body=json.dumps({"status": "scored", "sentence": "Said by the server.", "limit": 10, "lays_off": True})))
    form.locator("[data-key='C']").tap()
    form.locator("[data-key='9']").tap()
    expect(form.locator("[data-role=preview]")).to_have_text("Said by the server.")


def pick_upcard(form, code: str) -> None:
    """The upcard picker: a rank, then a suit."""
    form.locator(f"label[for=upcard-rank-{code[:-1]}]").tap()
    form.locator(f"label[for=upcard-suit-{code[-1]}]").tap()


def test_an_oklahoma_upcard_reaches_the_preview(player, page):
    player.import_by_paste(OKLAHOMA)
    form = page.locator("#hand-form")
    form.locator("label[for=knocker-1]").tap()
    pick_upcard(form, "7S")
    form.locator("label[for=kd-3]").tap()
    form.locator("[data-key='2']").tap()
    form.locator("[data-key='0']").tap()
    expect(form.locator("[data-role=preview]")).to_have_text("Spades double. Ema scores 34 → game 1.")
    form.locator("label[for=kd-0]").tap()
    expect(form.locator("[data-role=layoff-note]")).to_have_text("(no lay-offs after gin)")
    expect(form.locator("[data-role=preview]")).to_have_text("Gin! Spades double. Ema scores 90 → game 1.")
    form.get_by_role("button", name="Save hand").tap()
    expect(page.locator(".flash-saved")).to_have_text("Hand 1: Ema knocks, 0 against 20. Gin! Spades double. Ema scores 90 → game 1.")
    assert player.row(1) == ["90", ""]


def test_the_upcards_limit_disables_the_buttons_above_it(player, page):
    player.import_by_paste(OKLAHOMA)
    form = page.locator("#hand-form")
    assert all(deadwood_buttons(page).values())  # no upcard yet: every count may be tapped
    tap_knock(form, 2, 3, "1")
    pick_upcard(form, "3H")
    expect(form.locator("#kd-4")).to_be_disabled()
    assert deadwood_buttons(page) == {n: n <= 3 for n in range(11)}
    expect(form.locator("[data-role=preview]")).to_have_text("Undercut! Ema scores 12 → game 1.")

    # A lower upcard leaves the tapped count tapped (the save then refuses what the preview says).
    pick_upcard(form, "2C")
    expect(form.locator("[data-role=preview]")).to_have_text("Over the knock limit (2).")
    assert form.locator("#kd-3").is_checked()
    assert deadwood_buttons(page) == {n: n <= 3 for n in range(11)}
    pick_upcard(form, "AD")  # an ace: gin only
    expect(form.locator("#kd-1")).to_be_disabled()
    assert deadwood_buttons(page) == {n: n in (0, 3) for n in range(11)}
    pick_upcard(form, "KD")
    expect(form.locator("#kd-10")).to_be_enabled()


def test_the_edit_page_previews_the_hand_it_replaces(page, seeded):
    match_id = seeded["seed001-ana-ben"]
    page.goto(f"/matches/{match_id}/hands/2")
    form = page.locator("#hand-form")
    tap_knock(form, 2, 2, "30")
    expect(form.locator("[data-role=preview]")).to_have_text("Ben scores 28 → game 1.")
