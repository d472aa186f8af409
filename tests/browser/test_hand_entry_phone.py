"""The hand-entry screen on a 360 x 740 phone, as a player at the table meets it.

A refusal lands on the refused field (with and without the script), a knock needs
no scroll after a save, Oklahoma asks for the upcard first, the scoreboard shows
full names and reads a closed game as won. `Thumb` counts the taps and scrolls
of whole hands: a tap on something outside the visible screen (or under the
sticky save bar) counts a scroll first.
"""
from __future__ import annotations

import pytest

from tests.browser.conftest import Player
from tests.browser.driver import VIEWPORT

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

ANA_BEN = {"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
           "hands": [{"winner": "Ana", "points": 18}]}
OKLAHOMA = {"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
            "rules": {"oklahoma": True}, "hands": []}


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found, f"{locator} is not drawn"
    return found


def visible_area(page) -> tuple[float, float]:
    """The part of the screen a tap can reach: above the sticky save bar (unless it is the bar)."""
    bar = page.locator(".save-bar")
    bottom = box(bar)["y"] if bar.count() else VIEWPORT["height"]
    return 0, bottom


def on_screen(page, locator, under_bar: bool = False) -> bool:
    top, bottom = (0, VIEWPORT["height"]) if under_bar else visible_area(page)
    b = box(locator)
    return b["y"] >= top - 0.5 and b["y"] + b["height"] <= bottom + 0.5 and b["x"] >= 0 and \
        b["x"] + b["width"] <= VIEWPORT["width"] + 0.5


def in_first_screen(page, locator) -> bool:
    b = box(locator)
    return b["y"] >= 0 and b["y"] + b["height"] <= VIEWPORT["height"]


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"], f"the page is {width}px wide on a {VIEWPORT['width']}px phone"


def focused(page) -> dict:
    return page.evaluate("""() => { const el = document.activeElement;
        return { name: el.name || null, id: el.id, invalid: el.getAttribute('aria-invalid'),
                 described: el.getAttribute('aria-describedby'),
                 top: el.getBoundingClientRect().top, label: (el.labels && el.labels[0]) ?
                      el.labels[0].getBoundingClientRect().top : null }; }""")


def described_text(page, ids: str) -> str:
    return " ".join(page.locator(f"[id='{one}']").inner_text() for one in ids.split())


def assert_lands_on(page, name: str, words: str) -> None:
    """The refused field has the focus, is flagged, its message (tied to it) says `words`, and it is in view."""
    now = focused(page)
    assert now["name"] == name, now
    assert now["invalid"] == "true" and now["described"], now
    assert described_text(page, now["described"]) == words
    top = now["label"] if now["label"] is not None else now["top"]  # a visually hidden radio: its button
    assert 0 <= top <= VIEWPORT["height"] - 44, f"the refused field is out of view: {now}"


class Thumb:
    """Taps as a player does, counting each tap and each scroll needed before one."""

    def __init__(self, page):
        self.page, self.taps, self.scrolls = page, 0, 0

    def tap(self, locator, under_bar: bool = False) -> None:
        if not on_screen(self.page, locator, under_bar):
            self.scrolls += 1
            locator.scroll_into_view_if_needed()
        self.taps += 1
        locator.tap()

    def key(self, digits: str) -> None:
        for digit in digits:
            self.tap(self.page.locator(f"[data-role=pad] [data-key='{digit}']"))

    def save(self, number: int, button: str = "Save hand") -> None:
        self.tap(self.page.get_by_role("button", name=button), under_bar=True)
        self.page.wait_for_url(f"**#hand-{number}")
        expect(self.page.locator(".flash-saved")).to_contain_text(f"Hand {number}:")


def start(page, doc: dict) -> int:
    return Player(page).import_by_paste(doc)


def form(page):
    return page.locator("#hand-form")


# ---- refusals where the player looks ----

def test_a_refused_knock_focuses_the_missing_count_with_the_script(page):
    start(page, ANA_BEN)
    form(page).locator("label[for=knocker-1]").tap()
    form(page).locator("label[for=kd-4]").tap()
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator("#opponent_deadwood-error")).to_have_text("Enter the defender's deadwood.")
    assert_lands_on(page, "opponent_deadwood", "Enter the defender's deadwood.")
    expect(page.locator("[aria-invalid=true]")).to_have_count(1)


def test_a_refused_knock_focuses_the_refused_field_without_the_script(no_script):
    page = no_script
    start(page, ANA_BEN)
    page.locator("label[for=kd-4]").click()
    page.fill("[name=opponent_deadwood]", "20")
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_load_state()
    words = "Tap who knocked, or type the points instead, or save a draw."
    assert_lands_on(page, "knocker", words)
    # both names are flagged and described; the one focused is the first
    for radio in page.locator("[name=knocker]").all():
        assert radio.get_attribute("aria-invalid") == "true"
        assert radio.get_attribute("aria-describedby") == "knocker-error"
    assert page.locator("[name=knocker_deadwood]:checked").get_attribute("value") == "4"  # the taps are kept
    expect(page.get_by_role("link", name="Refresh")).to_be_visible()  # no script: the page offers it


@pytest.mark.parametrize("script", [True, False])
def test_refused_typed_points_keep_their_panel_open(page, no_script, script):
    page = page if script else no_script
    match_id = start(page, ANA_BEN)
    page.get_by_text("Type the points instead", exact=True).click()
    panel = page.locator("details", has=page.get_by_role("button", name="Save points"))
    panel.locator("label.pick", has_text="Ben").click()
    panel.get_by_role("button", name="Save points").click()
    expect(page.locator("#points-error")).to_have_text("Enter the points.")
    expect(panel).to_have_attribute("open", "")
    assert_lands_on(page, "points", "Enter the points.")
    assert page.locator("#knocker-error").count() == 0  # reported in the panel, not on "Who knocked?"
    # nothing chosen at all, then points without a winner: the panel asks for the winner
    page.goto(f"/matches/{match_id}")
    page.get_by_text("Type the points instead", exact=True).click()
    panel.get_by_role("button", name="Save points").click()
    expect(page.locator("#winner-error")).to_have_text("Tap who scores.")
    expect(panel).to_have_attribute("open", "")
    assert_lands_on(page, "winner", "Tap who scores.")
    page.goto(f"/matches/{match_id}")
    page.get_by_text("Type the points instead").click()
    panel.locator("input[name=points]").fill("12")
    panel.get_by_role("button", name="Save points").click()
    expect(page.locator("#winner-error")).to_have_text("Tap who scores.")
    expect(panel).to_have_attribute("open", "")
    assert_lands_on(page, "winner", "Tap who scores.")


def test_the_script_hides_refresh_and_the_save_keeps_the_header_one_row(page):
    start(page, ANA_BEN)
    expect(page.get_by_role("link", name="Refresh")).to_be_hidden()
    header = box(page.locator("header.top"))
    assert header["height"] <= 48, header
    no_sideways_scroll(page)


# ---- a knock without scrolling ----

def test_after_a_save_the_knock_controls_and_save_are_in_the_first_screen(page):
    thumb = Thumb(page)
    start(page, ANA_BEN)
    thumb.tap(form(page).locator("label[for=knocker-1]"))
    thumb.tap(form(page).locator("label[for=kd-4]"))
    thumb.key("20")
    thumb.save(2)
    assert page.evaluate("scrollY") == 0
    assert page.evaluate("document.activeElement.classList.contains('flashes')")
    hand = form(page)
    controls = [hand.locator("label[for=knocker-1]"), hand.locator("label[for=knocker-2]"),
                *[hand.locator(f"label[for=kd-{n}]") for n in range(11)], hand.locator("label[for=big_gin]"),
                hand.locator("[name=opponent_deadwood]"),
                *[hand.locator(f"[data-role=pad] [data-key='{k}']") for k in "0123456789"]]
    for control in controls:
        assert on_screen(page, control), f"{control} is not in the first screen: {box(control)}"
    assert in_first_screen(page, page.get_by_role("button", name="Save hand"))
    assert in_first_screen(page, page.get_by_role("button", name="Draw (nobody knocked)"))
    assert (thumb.taps, thumb.scrolls) == (5, 0)
    no_sideways_scroll(page)
    # the twelve deadwood cells are one even grid: two rows of six equal buttons
    sizes = {(round(box(c)["width"]), round(box(c)["height"])) for c in controls[2:14]}
    rows = {round(box(c)["y"]) for c in controls[2:14]}
    assert len(sizes) == 1 and len(rows) == 2, (sizes, rows)


def measure(page, doc: dict, taps: list, number: int, button: str = "Save hand") -> tuple[int, int]:
    """Taps and scrolls for one hand, entered from the page as it opens after the hand before."""
    thumb = Thumb(page)
    for what in taps:
        if what.startswith("pad:"):
            thumb.key(what[4:])
        else:
            thumb.tap(form(page).locator(what))
    thumb.save(number, button)
    return thumb.taps, thumb.scrolls


def test_taps_and_scrolls_for_each_kind_of_hand(page, capsys):
    start(page, ANA_BEN)
    counts = {
        "knock": measure(page, ANA_BEN, ["label[for=knocker-1]", "label[for=kd-4]", "pad:20"], 2),
        "gin": measure(page, ANA_BEN, ["label[for=knocker-2]", "label[for=kd-0]", "pad:31"], 3),
        "undercut": measure(page, ANA_BEN, ["label[for=knocker-1]", "label[for=kd-7]", "pad:5"], 4),
        "draw": measure(page, ANA_BEN, [], 5, "Draw (nobody knocked)"),
    }
    expect(page.locator(".flash-saved")).to_contain_text("a draw")
    start(page, OKLAHOMA)
    counts["oklahoma knock"] = measure(page, OKLAHOMA, ["label[for=upcard-rank-7]", "label[for=upcard-suit-S]",
                                                        "label[for=knocker-1]", "label[for=kd-3]", "pad:20"], 1)
    expect(page.locator(".flash-saved")).to_contain_text("Ana scores 34")
    with capsys.disabled():
        print("\ntaps and scrolls at 360x740:", counts)
    for kind in ("knock", "gin", "undercut"):
        assert counts[kind][1] == 0, counts
    assert counts["draw"] == (1, 0), counts
    assert counts["oklahoma knock"][1] <= 1, counts


# ---- Oklahoma ----

def test_oklahoma_asks_for_the_upcard_first_and_the_preview_agrees_with_the_save(page):
    start(page, OKLAHOMA)
    hand = form(page)
    upcard = hand.locator("fieldset.upcard")
    assert box(upcard)["y"] < box(hand.get_by_text("Who knocked?"))["y"]
    expect(upcard.locator("input[name=upcard_rank]")).to_have_count(13)
    expect(upcard.locator("input[name=upcard_suit]")).to_have_count(4)
    assert hand.locator("select").count() == 0  # no 52-item drop-down
    preview = hand.locator("[data-role=preview]")
    hand.locator("label[for=knocker-1]").tap()
    hand.locator("label[for=kd-4]").tap()
    expect(preview).to_have_text("Choose the upcard first.")
    hand.locator("[data-role=pad] [data-key='2']").tap()
    hand.locator("[data-role=pad] [data-key='0']").tap()
    expect(preview).to_have_text("Choose the upcard first.")  # never a score before the upcard
    hand.locator("label[for=upcard-rank-3]").tap()
    hand.locator("label[for=upcard-suit-H]").tap()
    expect(preview).to_have_text("Over the knock limit (3).")
    expect(hand.locator("#kd-5")).to_be_disabled()
    expect(hand.locator("#kd-4")).to_be_checked()  # kept, so the save refuses the same thing
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator("#knocker_deadwood-error")).to_contain_text("4 is over the knock limit 3 set by the upcard 3♥")
    assert_lands_on(page, "knocker_deadwood", page.locator("#knocker_deadwood-error").inner_text())
    hand = form(page)
    page.wait_for_timeout(600)  # the preview asked again for the refused entries has answered
    expect(hand.locator("[data-role=preview]")).to_have_text("")  # the refusal is said once, by its field
    hand.locator("label[for=upcard-suit-S]").tap()
    hand.locator("label[for=kd-3]").tap()
    expect(hand.locator("[data-role=preview]")).to_have_text("Spades double. Ana scores 34 → game 1.")
    page.get_by_role("button", name="Save hand").tap()
    page.wait_for_url("**#hand-1")
    assert Player(page).export()["hands"] == [{"knocker": "Ana", "knocker_deadwood": 3, "opponent_deadwood": 20,
                                               "upcard": "3S"}]


def test_oklahoma_without_the_script_refuses_a_knock_without_upcard_at_the_picker(no_script):
    page = no_script
    start(page, OKLAHOMA)
    page.locator("label[for=knocker-2]").click()
    page.locator("label[for=kd-2]").click()
    page.fill("[name=opponent_deadwood]", "15")
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_load_state()
    assert_lands_on(page, "upcard_rank", "Choose the upcard first.")
    page.locator("label[for=upcard-rank-10]").click()
    page.locator("label[for=upcard-suit-D]").click()
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_url("**#told")
    assert Player(page).export()["hands"][0]["upcard"] == "10D"


# ---- the scoreboard ----

def test_the_scoreboard_shows_full_names_and_reads_a_closed_game_as_won(page):
    hands = [{"winner": "Alexandra", "points": 100}, {"winner": "Bob", "points": 30},
             {"winner": "Alexandra", "points": 120}, {"winner": "Bob", "points": 105}]
    start(page, {"format": "hollywood", "players": ["Alexandra", "Bob"], "first_dealer": "Bob", "hands": hands})
    board = page.locator(".board")
    names = board.locator(".who")
    expect(names).to_have_count(6)
    for name in names.all():
        text = name.inner_text()
        assert text in ("Alexandra", "Bob"), text
        cut = name.evaluate("el => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis'")
        assert not cut, f"{text} is cut"
    for score in board.locator(".pts").all():  # three-digit scores are whole too
        assert score.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    closed = board.locator(".game.closed")
    expect(closed).to_have_count(3)
    for game in closed.all():
        decorations = game.evaluate("""el => [el, ...el.querySelectorAll('*')]
            .map(e => getComputedStyle(e).textDecorationLine).filter(d => d !== 'none')""")
        assert decorations == [], decorations  # nothing struck through: it was won, not cancelled
    expect(closed.first.locator(".status")).to_have_text("Alexandra wins · +450")
    expect(closed.nth(2).locator(".status")).to_have_text("Bob wins · +460")
    assert "won" in (closed.first.locator(".line").first.get_attribute("class") or "")
    no_sideways_scroll(page)
