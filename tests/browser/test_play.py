"""Playing through the pages in a real browser: typed points, taps on the pad, undo, edit, rematch, print."""
from __future__ import annotations

import copy
import json
import re

import pytest

from models.files.matchfile import replay

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

EMPTY = {"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana", "hands": []}


def blank(n: int = 6) -> list[str]:
    return [""] * n


def cells(**written) -> list[str]:
    """A row of a Hollywood sheet: cells(g1_ana=18) -> ['18', '', '', '', '', '']."""
    order = ["g1_ana", "g1_ben", "g2_ana", "g2_ben", "g3_ana", "g3_ben"]
    return [str(written[key]) if key in written else "" for key in order]


def test_seed001_typed_points_from_a_new_match(page, player, case):
    doc, expected = case("seed001-ana-ben")
    match_id = player.new_match("Ana", "Ben", first_dealer="1")
    expect(page.locator("p.meta")).to_contain_text("Ana deals")

    for hand in doc["hands"]:
        player.type_points(hand["winner"], hand["points"])

    assert player.row(1) == cells(g1_ana=18)
    assert player.row(2) == cells(g1_ben=22)
    assert player.row(3) == cells(g1_ana=48, g2_ana=30)
    assert player.row(4) == cells(g1_ana=73, g2_ana=55, g3_ana=25)
    assert player.row(5) == cells(g1_ben=62, g2_ben=40)
    assert player.row(6) == cells(g1_ana=108, g2_ana=90, g3_ana=60)
    assert player.totals() == ["108", "62", "90", "40", "60", "0"]

    closings = player.closings()
    assert len(closings) == 1, closings
    assert "Ana wins game 1" in closings[0]
    assert "308 − 112 = 196 to Ana" in closings[0], closings[0]
    # The double rule sits right under hand 6 (and its second line), the hand that closed game 1.
    assert page.locator("#hand-6 + tr.story + tr.closing").count() == 1
    expect(page.locator(".board .game").first.locator(".status")).to_have_text("Ana wins · +196")
    expect(page.locator("p.next")).to_have_text("Next: hand 7, Ana deals.")

    exported = player.export()
    assert player.match_id() == match_id
    assert exported["players"] == ["Ana", "Ben"]
    assert exported["hands"] == doc["hands"]
    assert exported["result"] == expected


def test_knock_gin_undercut_by_taps_and_a_one_click_draw(page, player):
    player.import_by_paste(EMPTY)
    form = page.locator("#hand-form")
    pad = form.locator("[data-role=pad]")
    preview = form.locator("[data-role=preview]")
    od = form.locator("input[name=opponent_deadwood]")
    expect(pad).to_be_visible()  # the script shows the on-page pad

    actions: list[str] = []

    def tap(locator, what: str) -> None:
        locator.tap()
        actions.append(what)

    # A knock: Ana knocks with 4, Ben has 22 after lay-offs.
    tap(form.locator("label[for=knocker-1]"), "tap Ana")
    tap(form.locator("label[for=kd-4]"), "tap 4")
    tap(pad.locator("[data-key='2']"), "pad 2")
    tap(pad.locator("[data-key='2']"), "pad 2")
    expect(od).to_have_value("22")
    expect(form.locator("[data-role=knocker-name]")).to_have_text("Ana")
    expect(form.locator("[data-role=defender-name]")).to_have_text("Ben")
    expect(preview).to_contain_text("Ana scores 18")
    expect(preview).to_have_text("Ana scores 18 → game 1.")
    tap(form.get_by_role("button", name="Save hand"), "save")
    page.wait_for_url("**#hand-1")
    assert len(actions) <= 5, actions
    assert player.row(1) == cells(g1_ana=18)
    expect(page.locator(".flash-saved")).to_have_text("Hand 1: Ana knocks, 4 against 22. Ana scores 18 → game 1.")

    # A gin: Ben, 0, Ana holds 15 and may not lay off. On the way, the preview follows every change.
    expect(preview).to_have_text("")  # a fresh form after saving
    form.locator("label[for=knocker-2]").tap()
    expect(form.locator("[data-role=knocker-name]")).to_have_text("Ben")
    form.locator("label[for=kd-3]").tap()
    pad.locator("[data-key='1']").tap()
    pad.locator("[data-key='5']").tap()
    expect(preview).to_have_text("Ben scores 12 → game 1.")
    big_gin = form.locator("input[name=big_gin]")
    big_gin.check()
    expect(preview).to_have_text("Big gin needs 0 deadwood.")  # the server would refuse it
    big_gin.uncheck()
    form.locator("label[for=kd-0]").tap()
    expect(form.locator("[data-role=layoff-note]")).to_have_text("(no lay-offs after gin)")
    expect(preview).to_have_text("Gin! Ben scores 40 → game 1.")
    form.get_by_role("button", name="Save hand").tap()
    page.wait_for_url("**#hand-2")
    assert player.row(2) == cells(g1_ben=40)

    # An undercut: Ana knocks with 7, Ben also has 7; a mistyped digit is corrected on the pad.
    form.locator("label[for=knocker-1]").tap()
    form.locator("label[for=kd-7]").tap()
    pad.locator("[data-key='9']").tap()
    pad.locator("[data-key='⌫']").tap()
    pad.locator("[data-key='7']").tap()
    expect(od).to_have_value("7")
    expect(preview).to_contain_text("Undercut!")
    expect(preview).to_have_text("Undercut! Ben scores 10 → games 1 and 2.")
    form.get_by_role("button", name="Save hand").tap()
    page.wait_for_url("**#hand-3")
    assert player.row(3) == cells(g1_ben=50, g2_ben=10)

    # A draw is one tap, and writes nothing.
    page.get_by_role("button", name="Draw (nobody knocked)").tap()
    page.wait_for_url("**#hand-4")
    assert player.row(4) == blank()
    expect(page.locator("#hand-4 td.note")).to_have_text("draw · Ben dealt")
    assert player.totals() == ["18", "50", "0", "10", "0", "0"]

    result = player.export()["result"]
    assert [h["result"] for h in result["hands"]] == ["knock", "gin", "undercut", "draw"]


def test_undo_then_edit_a_hand_from_the_sheet(page, player, case):
    doc, _ = case("seed001-ana-ben")
    match_id = player.import_by_paste(doc)
    assert player.hand_count() == 6

    page.get_by_role("button", name="Undo hand 6").click()
    expect(page.locator(".flashes")).to_contain_text("Hand 6 undone.")
    expect(page.locator(".flashes")).to_contain_text("Game 1 is open again (before: won by Ana).")
    assert player.hand_count() == 5
    assert player.totals() == ["73", "62", "55", "40", "25", "0"]
    assert player.closings() == []
    expect(page.get_by_role("button", name="Undo hand 5")).to_be_visible()

    # Hand 2 was Ben 22; it should have been Ben 32.
    page.get_by_role("link", name="Edit hand 2").click()
    page.wait_for_url(f"**/matches/{match_id}/hands/2")
    points_form = page.locator("form", has=page.get_by_role("button", name="Save as points"))
    expect(points_form.locator("#winner-2")).to_be_checked()
    expect(points_form.locator("input[name=points]")).to_have_value("22")
    points_form.locator("input[name=points]").fill("32")
    points_form.get_by_role("button", name="Save as points").click()
    page.wait_for_url(f"**/matches/{match_id}#hand-2")
    expect(page.locator(".flashes")).to_contain_text("Hand 2 changed; the sheet is recomputed.")

    assert player.row(2) == cells(g1_ben=32)
    assert player.row(5) == cells(g1_ben=72, g2_ben=40)
    assert player.totals() == ["73", "72", "55", "40", "25", "0"]

    edited = copy.deepcopy(doc)
    edited["hands"] = edited["hands"][:5]
    edited["hands"][1]["points"] = 32
    exported = player.export()
    assert exported["hands"] == edited["hands"]
    assert exported["result"] == replay(json.dumps(edited))


def test_finished_match_then_rematch(page, player, case):
    doc, expected = case("full-hollywood-match")
    old_id = player.import_by_paste(doc)
    assert player.export()["result"] == expected
    expect(page.get_by_role("heading", name=re.compile("Ana wins the match 3–0"))).to_be_visible()
    expect(page.locator("#hand-form")).to_have_count(0)  # nothing more to enter

    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: bool(re.search(r"/matches/\d+$", url)) and not url.endswith(f"/matches/{old_id}"))
    new_id = player.match_id()
    assert new_id != old_id
    expect(page.locator("h1")).to_have_text("Ana vs Ben")
    expect(page.locator(".sheet tbody")).to_contain_text("No hands yet.")
    assert player.hand_count() == 0
    assert player.totals() == ["0"] * 6
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("p.next")).to_have_text(f"Next: hand 1, {expected['next_dealer']} deals.")

    fresh = player.export()
    assert fresh["players"] == doc["players"]
    assert fresh["format"] == doc["format"]
    assert fresh["hands"] == []
    assert fresh["first_dealer"] == expected["next_dealer"]
    assert fresh["result"]["finished"] is False


def test_pages_fit_a_360_pixel_phone(page, seeded):
    """Nothing makes the page scroll sideways (the wide sheet scrolls inside its own box)."""
    playing, finished = seeded["seed001-ana-ben"], seeded["full-hollywood-match"]
    for path in ("/", "/matches/new", f"/matches/{playing}", f"/matches/{finished}", f"/matches/{playing}/hands/2"):
        page.goto(path)
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        too_wide = page.evaluate("""() => {
            const width = document.documentElement.clientWidth;
            return Array.from(document.querySelectorAll('body *'))
              .filter(e => !e.closest('.sheet-wrap') && e.getBoundingClientRect().right > width + 1)
              .map(e => e.outerHTML.slice(0, 120));
        }""")
        scroll = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll <= 360 and not too_wide, f"{path} is {scroll}px wide: {too_wide[:3]}"


def test_print_the_sheet(page, player, case, tmp_path):
    doc, _ = case("seed001-ana-ben")
    player.import_by_paste(doc)

    page.emulate_media(media="print")
    buttons = page.locator(".button")
    assert buttons.count() > 0
    for button in buttons.all():
        expect(button).to_be_hidden()
    expect(page.locator("#hand-form")).to_be_hidden()
    expect(page.locator(".top")).to_be_hidden()
    expect(page.locator(".sheet")).to_be_visible()
    expect(page.locator(".sheet .note").first).to_be_visible()  # printed paper is wide enough for notes
    expect(page.locator("#sheet-title .print-only")).to_be_visible()  # date and rules in the header line

    path = tmp_path / "sheet.pdf"
    page.pdf(path=str(path), format="A4", print_background=False)
    assert path.exists()
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data)
    assert len(pages) == 1, f"{len(pages)} pages"
