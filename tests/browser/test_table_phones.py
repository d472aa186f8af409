"""Phones at the table, in the browser at 360x740: one deal is one hand whatever the phones do,
a mistake costs one tap, and a save made while the Wi-Fi is gone is sent once when it returns."""
import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import MATCH_URL, Player
from tests.browser.driver import phone

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GIN_LEDGER_SHOTS")  # a folder: the tests leave screenshots there to be looked at


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def knock(page, knocker_seat: int, kd: int, od: int) -> None:
    page.locator(f"label[for=knocker-{knocker_seat}]").click()
    page.locator(f"label[for=kd-{kd}]").click()
    page.fill("[name=opponent_deadwood]", str(od))


def stored_hands(player: Player, match_id: int | None = None) -> list[dict]:
    """The match file as the server has it now (asked beside the page, which may be showing an error)."""
    response = player.page.request.get(f"/matches/{match_id or player.match_id()}.json")
    assert response.ok, response.status
    return response.json()["hands"]


@pytest.fixture
def second_phone(browser, server):
    context = phone(browser, server)
    yield context.new_page()
    context.close()


def test_the_second_phone_is_asked_and_saves_exactly_one_more_hand(player, page, second_phone, browser, server):
    match_id = player.new_match()
    b = second_phone
    b.goto(f"/matches/{match_id}")
    follower = phone(browser, server).new_page()  # a third phone that only follows, its form empty
    follower.goto(f"/matches/{match_id}")
    knock(b, 2, 2, 24)  # Ben's deal, half entered on phone B
    b.route("**/live", lambda route: route.abort())  # B has not heard of A's save yet (or runs no script)

    knock(page, 1, 4, 22)  # phone A saves that deal first
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_url("**#hand-1")
    expect(follower.locator("#enter")).to_have_text("Hand 2")  # the live update moves an empty form on
    expect(follower.locator("#hand-form input[name=number]")).to_have_value("2")

    b.get_by_role("button", name="Save hand").click()
    question = b.get_by_role("heading", name=re.compile("Another phone already saved hand 1"))
    expect(question).to_contain_text("Ana scores 18 → game 1. Is yours another deal?")
    expect(b.get_by_text("If it is, yours is hand 2: Ben scores 22 → game 1.")).to_be_visible()
    shot(b, "phone-b-question")
    assert len(stored_hands(player)) == 1

    b.get_by_role("button", name="Yes, save it as hand 2").dblclick()
    expect(b.locator("#hand-2")).to_be_visible()
    follower.context.close()
    assert [h["knocker"] for h in stored_hands(player)] == ["Ana", "Ben"]


def test_a_save_without_network_waits_and_is_sent_once(player, page):
    match_id = player.new_match()
    page.context.set_offline(True)
    knock(page, 1, 4, 22)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("[data-role=waiting]")).to_have_text("Waiting to send hand 1…")
    shot(page, "waiting-to-send")
    page.context.set_offline(False)  # the `online` event sends it
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("[data-role=waiting]")).to_have_count(0)
    page.reload()
    assert len(stored_hands(player)) == 1 and page.evaluate("localStorage.length") == 0
    assert MATCH_URL.search(page.url).group(1) == str(match_id)


def test_a_save_reloaded_while_offline_is_sent_once_when_back(player, page):
    match_id = player.new_match()
    page.context.set_offline(True)
    knock(page, 1, 4, 22)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("[data-role=waiting]")).to_be_visible()
    page.reload()  # offline: the service worker's copy of the page, with what waits to be sent
    expect(page.locator("[data-role=waiting]")).to_have_text("Waiting to send hand 1…")
    page.context.set_offline(False)
    page.goto(f"/matches/{match_id}")
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("[data-role=waiting]")).to_have_count(0)
    page.reload()
    assert len(stored_hands(player)) == 1 and page.evaluate("localStorage.length") == 0


def test_the_waiting_state_survives_a_reload_until_the_server_answers(player, page):
    match_id = player.new_match()
    hands = f"**/matches/{match_id}/hands"
    # The network is up but the server is not reached: the proxy in front of it answers 502.
    page.route(hands, lambda route: route.fulfill(status=502, body="bad gateway")
               if route.request.method == "POST" else route.continue_())
    knock(page, 1, 4, 22)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("[data-role=waiting]")).to_have_text("Waiting to send hand 1…")
    page.reload()
    expect(page.locator("[data-role=waiting]")).to_have_text("Waiting to send hand 1…")
    assert len(stored_hands(player)) == 0
    page.unroute(hands)
    expect(page.locator("#hand-1")).to_be_visible(timeout=8000)  # the retry timer sends it
    page.reload()
    expect(page.locator("[data-role=waiting]")).to_have_count(0)
    assert len(stored_hands(player)) == 1


def test_a_save_answered_503_after_it_was_stored_is_sent_again_and_kept_once(player, page):
    """The database dropped the session after the COMMIT: the server says 503 although the hand is kept.
    The page script sends the same form again (its one-time key), and the sheet holds the hand once."""
    match_id = player.new_match()
    hands = f"**/matches/{match_id}/hands"
    cut = []

    def stored_then_503(route):
        if route.request.method != "POST" or cut:
            route.continue_()
            return
        cut.append(route.fetch())  # it reached the server, which stored it
        route.fulfill(status=503, body="the page after it cannot be drawn just now")

    page.route(hands, stored_then_503)
    knock(page, 1, 4, 22)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#hand-1")).to_be_visible(timeout=8000)  # sent again by the retry timer
    assert cut and cut[0].status == 200
    assert len(stored_hands(player)) == 1
    expect(page.locator("[data-role=waiting]")).to_have_count(0)
    page.reload()
    expect(page.locator("#hand-2")).to_have_count(0)
    assert len(stored_hands(player)) == 1


def test_a_draw_is_taken_back_with_one_tap(player, page):
    player.new_match()
    page.get_by_role("button", name="Draw (nobody knocked)").click()
    expect(page.locator(".flashes")).to_contain_text("Hand 1: a draw; Ana deals again.")
    shot(page, "draw-way-back")
    page.get_by_role("button", name="Take the draw back").click()
    expect(page.locator(".flashes")).to_contain_text("The draw of hand 1 is taken back.")
    assert stored_hands(player) == []
    draw = page.get_by_role("button", name="Draw (nobody knocked)").bounding_box()
    save = page.get_by_role("button", name="Save hand").bounding_box()
    # Beside Save in the thumb's bar, never under it: a slip off Save does not land on Draw.
    assert abs(draw["y"] - save["y"]) < 10 and draw["x"] + draw["width"] + 8 <= save["x"]


def test_an_undo_is_redone_with_one_tap(player, page):
    player.new_match()
    player.type_points("Ben", 18)
    page.get_by_role("button", name="Undo hand 1").click()
    expect(page.locator(".flashes")).to_contain_text("Hand 1 undone.")
    shot(page, "undo-way-back")
    page.get_by_role("button", name="Redo hand 1").click()
    expect(page.locator("#hand-1")).to_be_visible()
    assert stored_hands(player) == [{"winner": "Ben", "points": 18}]


def test_delete_asks_and_lists_what_moves(player, page, case):
    match_id = player.import_by_paste(case("seed001-ana-ben")[0])
    page.goto(f"/matches/{match_id}/hands/2")
    page.get_by_role("link", name="Delete hand 2").click()
    expect(page.get_by_role("heading", name="Delete hand 2?")).to_be_visible()
    expect(page.locator(".changes")).to_contain_text("Hand 5, now hand 4: game 1 (before: games 1 and 2).")
    shot(page, "delete-confirmation")
    assert len(stored_hands(player, match_id)) == 6
    page.get_by_role("button", name="Delete hand 2").click()
    expect(page.locator(".flashes")).to_contain_text("Hand 2 deleted")
    assert len(stored_hands(player)) == 5


def test_5000_points_are_asked_and_saved_once(player, page):
    player.new_match()
    page.get_by_text("Type the points instead").click()
    form = page.locator("form", has=page.get_by_role("button", name="Save points"))
    form.locator("label.pick", has_text="Ana").click()
    form.locator("input[name=points]").fill("5000")
    form.get_by_role("button", name="Save points").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        "5000 points is more than one hand can score under these rules (129). Save it anyway?")
    shot(page, "points-question")
    assert stored_hands(player) == []
    page.get_by_role("button", name="Yes, save 5000 points").dblclick()
    expect(page.locator("#hand-1")).to_be_visible()
    assert stored_hands(player) == [{"winner": "Ana", "points": 5000}]
