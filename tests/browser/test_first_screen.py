"""The first screen after a save on a 360 x 740 phone, and a phone that joined by the QR code (issue 23).

After each kind of save (a fresh match's first hand, a draw, a hand that closes a game, long names
such as O'Neil) every key of the next hand's count pad is on the screen and clear of the sticky Save
bar, with no scroll; with Oklahoma the next tap is the upcard, asked first: it is clear of the bar with
the saved message and the scores still on the screen (issue 45), the pad a scroll later. The typed
points have a pad of their own. A
phone entering a hand that another phone saved meanwhile moves on to the next number, keeps its
entries and says so. A match page opened first (never the home page) gets the service worker and
reloads without the server.

The matches are made beside the browser (tests/server.Client), so the phone's first page is the
match itself, as for a phone that joined by the QR code. With GIN_LEDGER_SHOTS set to a folder,
the tests leave screenshots there to be looked at.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.browser.driver import VIEWPORT, phone
from tests.server import Client, Server

try:
    from playwright.sync_api import Error, expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    Error, expect = Exception, None

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GIN_LEDGER_SHOTS")
KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "⌫", "C"]


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"first-screen-{name}.png"))


def match(server: str, players=("Ana", "Ben"), hands=(), **rules) -> int:
    doc = {"format": "hollywood", "players": list(players), "first_dealer": players[0], "hands": list(hands)}
    if rules:
        doc["rules"] = rules
    return Client(server).import_match(doc)


def open_match(page, match_id: int) -> None:
    page.goto(f"/matches/{match_id}")
    expect(page.locator("#hand-form [data-role=pad]")).to_be_visible()


def tap(page, selector: str) -> None:
    page.locator("#hand-form").locator(selector).tap()


def keys(page, digits: str) -> None:
    for digit in digits:
        tap(page, f"[data-role=pad] [data-key='{digit}']")


def save(page, number: int, button: str = "Save hand") -> None:
    page.get_by_role("button", name=button).tap()
    page.wait_for_url(f"**#hand-{number}")
    expect(page.locator(".flash-saved")).to_contain_text(f"Hand {number}:")
    expect(page.locator("#enter")).to_have_text(f"Hand {number + 1}")


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found, f"{locator} is not drawn"
    return found


def assert_pad_clear(page, what: str) -> None:
    """Every key of the count pad (and the deadwood row above it) on the screen, above the Save bar."""
    bar = box(page.locator("#hand-form .save-bar"))
    assert bar["y"] + bar["height"] <= VIEWPORT["height"] + 0.5, f"{what}: the Save bar is off the screen: {bar}"
    form = page.locator("#hand-form")
    controls = [(f"key {k}", form.locator(f"[data-role=pad] [data-key='{k}']")) for k in KEYS]
    controls += [(f"deadwood {n}", form.locator(f"label[for=kd-{n}]")) for n in (0, 5, 6, 10)]
    controls += [("the defender's count", form.locator("[name=opponent_deadwood]"))]
    for name, control in controls:
        b = box(control)
        assert b["y"] >= -0.5 and b["y"] + b["height"] <= bar["y"] + 0.5, \
            f"{what}: {name} is {'above the screen' if b['y'] < 0 else 'under the Save bar'}: {b}, bar at {bar['y']}"
    heading = box(page.locator("#enter"))
    assert heading["y"] >= -0.5, f"{what}: the next hand's heading went off the screen: {heading}"


# ---- the count pad after each kind of save ----

def test_the_pad_is_clear_after_a_fresh_matchs_first_knock_and_after_a_draw(page, server):
    open_match(page, match(server))
    tap(page, "label[for=knocker-1]")
    tap(page, "label[for=kd-4]")
    keys(page, "22")
    save(page, 1)
    assert_pad_clear(page, "a fresh match's first knock")
    assert page.evaluate("scrollY") == 0  # all of it fits: the flash and the board stay in view
    save(page, 2, "Draw (nobody knocked)")
    expect(page.get_by_role("button", name="Take the draw back")).to_be_visible()
    assert_pad_clear(page, "a draw")
    shot(page, "after-a-draw")


def test_the_pad_is_clear_after_a_hand_that_closes_a_game(page, server):
    open_match(page, match(server, hands=[{"winner": "Ana", "points": 90}]))
    tap(page, "label[for=knocker-1]")
    tap(page, "label[for=kd-4]")
    keys(page, "22")
    save(page, 2)
    expect(page.locator(".board .game.closed")).to_have_count(1)
    assert_pad_clear(page, "a game closed")
    expect(page.locator(".flash-saved")).to_be_in_viewport()  # what was saved is still read
    shot(page, "game-closed")


def test_the_pad_is_clear_with_long_names_and_stays_clear_under_a_two_line_preview(page, server):
    players = ("Siobhan O'Neil", "Maximilian")
    open_match(page, match(server, players, hands=[{"winner": "Maximilian", "points": 100}]))
    tap(page, "label[for=knocker-1]")
    tap(page, "label[for=kd-4]")
    keys(page, "20")
    save(page, 2)
    assert_pad_clear(page, "long names")
    save(page, 3, "Draw (nobody knocked)")
    assert_pad_clear(page, "long names after a draw")
    # entering the next hand: the preview takes two lines and the bar grows; the pad is still clear
    tap(page, "label[for=knocker-1]")
    tap(page, "label[for=kd-3]")
    keys(page, "25")
    preview = page.locator("#hand-form [data-role=preview]")
    expect(preview).to_have_text("Siobhan O'Neil scores 22 → games 2 and 3.")
    assert box(preview)["height"] > 30, box(preview)  # two lines at 360 px
    assert_pad_clear(page, "long names, two-line preview")
    shot(page, "long-names-entering")


def assert_upcard_clear(page, what: str) -> None:
    """Oklahoma: the saved message, the scores and the whole upcard picker on the screen, above the Save bar."""
    bar = box(page.locator("#hand-form .save-bar"))
    for name, selector in (("the saved message", ".flash-saved"), ("the scores", ".board"),
                           ("the next hand's heading", "#enter"), ("the upcard", "#hand-form fieldset.upcard")):
        b = box(page.locator(selector))
        assert b["y"] >= -4 and b["y"] + b["height"] <= bar["y"] + 0.5, f"{what}: {name} is out of view: {b}, {bar}"


@pytest.mark.parametrize("then", ["knock", "draw"])
def test_the_message_scores_and_upcard_are_clear_in_oklahoma(page, server, then):
    open_match(page, match(server, oklahoma=True))
    tap(page, "label[for=upcard-rank-7]")
    tap(page, "label[for=upcard-suit-S]")
    tap(page, "label[for=knocker-1]")
    tap(page, "label[for=kd-3]")
    keys(page, "20")
    save(page, 1)
    assert_upcard_clear(page, "Oklahoma after a knock")
    if then == "draw":
        save(page, 2, "Draw (nobody knocked)")
        assert_upcard_clear(page, "Oklahoma after a draw")
    shot(page, f"oklahoma-{then}")


def test_typed_points_have_their_own_pad_and_open_in_view(page, server):
    match_id = match(server, hands=[{"winner": "Ana", "points": 18}])
    open_match(page, match_id)
    page.get_by_text("Type the points instead", exact=True).tap()
    panel = page.locator("details", has=page.get_by_role("button", name="Save points"))
    points = panel.locator("input[name=points]")
    expect(points).to_have_attribute("inputmode", "none")  # the pad, not the phone's keyboard
    page.wait_for_timeout(200)  # the panel is brought into view after it opens
    seen = [points, panel.get_by_role("button", name="Save points"), panel.locator("label.pick", has_text="Ben")]
    seen += [panel.locator(f"[data-points-key='{k}']") for k in KEYS]
    for control in seen:
        b = box(control)
        assert b["y"] >= 0 and b["y"] + b["height"] <= VIEWPORT["height"], f"{control} is out of view: {b}"
    panel.locator("label.pick", has_text="Ben").tap()
    for key in "1259⌫":
        panel.locator(f"[data-points-key='{key}']").tap()
    expect(points).to_have_value("125")
    shot(page, "typed-points")
    panel.get_by_role("button", name="Save points").tap()
    page.wait_for_url("**#hand-2")
    expect(page.locator(".flash-saved")).to_contain_text("Hand 2:")
    assert Client(server).export(match_id)["hands"][1] == {"winner": "Ben", "points": 125}


# ---- a second phone mid-entry ----

def test_a_phone_mid_entry_moves_on_when_another_phone_saves_that_hand(page, server):
    match_id = match(server, ("Ana", "Max"), hands=[{"winner": "Ana", "points": 18}])
    open_match(page, match_id)
    expect(page.locator("#enter")).to_have_text("Hand 2")
    tap(page, "label[for=knocker-2]")  # Max knocks, half entered here
    tap(page, "label[for=kd-2]")
    keys(page, "24")
    other = Client(server).post_hand(match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="22")
    assert other.status == 302, other.status  # hand 2, saved on the other phone

    expect(page.locator("#hand-2")).to_be_visible()  # followed live
    expect(page.locator("#enter")).to_have_text("Hand 3")
    expect(page.locator("[data-region=board] .meta")).to_contain_text("hand 3")
    for field in page.locator(".entry input[name=number]").all():
        assert field.input_value() == "3"
    note = page.locator("#hand-form [data-role=moved-on]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Hand 2 was saved on another phone: yours is now hand 3.")
    expect(note.get_by_role("link", name="Same deal: clear mine")).to_be_visible()
    # what this phone typed is kept
    assert page.locator("#knocker-2").is_checked() and page.locator("#kd-2").is_checked()
    assert page.locator("[name=opponent_deadwood]").input_value() == "24"
    shot(page, "moved-on")

    save(page, 3)  # saved as the next deal, with no question
    expect(page.locator("#hand-form [data-role=moved-on]")).to_be_hidden()
    assert [h["knocker"] for h in Client(server).export(match_id)["hands"][1:]] == ["Ana", "Max"]


def test_the_same_deal_entered_on_two_phones_is_dropped_in_one_tap(page, server):
    match_id = match(server)
    open_match(page, match_id)
    tap(page, "label[for=knocker-1]")
    tap(page, "label[for=kd-4]")
    keys(page, "22")
    assert Client(server).post_hand(match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="22").status == 302
    note = page.locator("#hand-form [data-role=moved-on]")
    expect(note).to_contain_text("Hand 1 was saved on another phone: yours is now hand 2.")
    note.get_by_role("link", name="Same deal: clear mine").tap()
    expect(page.locator("#enter")).to_have_text("Hand 2")
    expect(page.locator("#hand-form [data-role=moved-on]")).to_be_hidden()
    assert not page.locator("#knocker-1").is_checked() and page.locator("[name=opponent_deadwood]").input_value() == ""
    assert len(Client(server).export(match_id)["hands"]) == 1


# ---- a phone that joined by the QR code: the match page first ----

WORKER = "() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL"


def test_a_match_page_opened_first_is_looked_after_by_the_service_worker(page, server):
    match_id = match(server)
    open_match(page, match_id)  # the phone's first page: never the home page
    assert page.locator("html").get_attribute("data-sw") == "/sw.js"
    page.wait_for_function(WORKER)
    assert page.evaluate(WORKER).endswith("/sw.js")


@pytest.fixture
def own_server():
    """A server of this test's own, to be stopped: the Wi-Fi gone, as the phone sees it."""
    workdir = Path(tempfile.mkdtemp(prefix="gin-ledger-offline-"))
    running = Server(workdir / "gin-ledger.sqlite", threads=2).start()
    try:
        yield running
    finally:
        running.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_a_match_page_opened_first_reloads_when_the_server_cannot_be_reached(browser, own_server):
    match_id = match(own_server.base, hands=[{"winner": "Ana", "points": 18}])
    context = phone(browser, own_server.base)
    try:
        page = context.new_page()
        open_match(page, match_id)
        page.wait_for_function(WORKER)
        tap(page, "label[for=knocker-2]")
        tap(page, "label[for=kd-2]")
        keys(page, "24")
        save(page, 2)  # saved by the page script: the page is drawn, not loaded
        own_server.stop()
        with pytest.raises(Error):
            page.request.get(f"/matches/{match_id}", timeout=3000)  # the server is gone indeed
        page.reload()
        expect(page.locator("h1.match-title")).to_have_text(re.compile(r"Ana\s+vs\s+Ben"))
        expect(page.locator("#hand-2")).to_be_visible()  # the copy kept after the save, not the first one
        expect(page.locator("#enter")).to_have_text("Hand 3")
        expect(page.locator("#hand-form [data-role=pad]")).to_be_visible()  # its script and style from the cache
        shot(page, "offline-reload")
    finally:
        context.close()
