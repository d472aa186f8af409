"""The sheet at the table: a phone reads every hand, a printer puts the evening on one page,
a tablet or a TV across the table shows the games whole.

Matches are Alexandra against Bartholomew (nine and eleven letters) with running totals
past 100, imported through the home page's form.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import Player, load_case
from tests.browser.driver import phone
from tests.generate import finished_match

pytestmark = pytest.mark.browser

LONG = {"Ana": "Alexandra", "Ben": "Bartholomew"}
KINDS = ("knock", "gin", "big gin", "undercut", "draw", "points")
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= innerWidth"


def renamed(doc: dict) -> dict:
    """The same hands between two long names."""
    def name(value):
        return LONG.get(value, value) if isinstance(value, str) else value
    hands = [{key: name(value) for key, value in hand.items()} for hand in doc["hands"]]
    return {**doc, "players": [name(p) for p in doc["players"]], "first_dealer": name(doc["first_dealer"]),
            "hands": hands}


@pytest.fixture(scope="module")
def matches(browser, server) -> dict[str, int]:
    """Imported once: the worked 13-hand match renamed, 30 hands ending on the last, a 7-hand single game."""
    context = phone(browser, server, touch=False)
    someone = Player(context.new_page())
    docs = {"thirteen": renamed(load_case("full-hollywood-match")[0]), "thirty": finished_match(30),
            "single": finished_match(7, fmt="single")}
    ids = {name: someone.import_by_paste(doc) for name, doc in docs.items()}
    context.close()
    return ids


def page_count(pdf: bytes) -> int:
    """Pages of a PDF without a PDF library: its /Type /Page objects (not the /Pages tree)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def check_phone_sheet(page) -> None:
    """Every hand shows what it was, its points, where it went and who dealt; nothing scrolls sideways."""
    assert page.evaluate(NO_SIDEWAYS), page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    wrap = page.evaluate("() => { const w = document.querySelector('.sheet-wrap');"
                         " return [w.scrollWidth, w.clientWidth]; }")
    assert wrap[0] <= wrap[1], f"the sheet scrolls inside its box: {wrap}"
    rows = page.locator(".sheet tbody tr.hand")
    assert rows.count() >= 13
    for number in range(1, rows.count() + 1):
        story = page.locator(f"#hand-{number} + tr.story")
        assert story.is_visible(), f"hand {number} has no visible second line"
        text = story.inner_text()
        assert any(text.startswith(kind) for kind in KINDS), text
        assert re.search(r" dealt$", text), text
        if not text.startswith("draw"):
            assert re.search(r"^[a-z ]+ \d+ → games? \d", text), text
    # The column heads are short on a phone, and the key above the sheet names them in full.
    key = page.locator(".sheet-key")
    assert key.is_visible() and "Alex = Alexandra" in key.inner_text() and "Bart = Bartholomew" in key.inner_text()
    assert page.locator(".sheet th.name .full").first.text_content() == "Alexandra"  # still read out whole
    assert "▫ boxes: hands won in that game, each worth 25 at the settlement" in page.locator(".sheet-legend").inner_text()


def test_phone_sheet_tells_each_hand(page, matches):
    page.goto(f"/matches/{matches['thirteen']}")
    assert page.locator(".sheet tbody td").filter(has_text=re.compile(r"^\d{3}$")).count() >= 3  # 103, 117, 101
    check_phone_sheet(page)
    # Settlements as tables: every part of a total in its own cell, the net to whom.
    first = page.locator("#settle-1")
    assert first.is_visible()
    cells = [" ".join(t.split()) for t in first.locator("tr").all_inner_texts()]
    assert cells[1:] == ["score 103 56", "game bonus 100", "boxes 7 × 25 = 175 2 × 25 = 50",
                         "total 378 106", "net 272 to Alexandra"], cells
    assert page.evaluate("() => document.querySelector('#settle-3').getBoundingClientRect().right <= innerWidth")
    expect_minus = page.locator(".board .game .status").first.inner_text()
    assert expect_minus == "Alexandra wins · +272"
    # The race pictures end with each line's value.
    values = page.locator("svg.race").first.locator("text.value").all_text_contents()
    assert values == ["103", "56"]


def test_read_only_page_shows_the_same_sheet(page, matches):
    page.goto(f"/matches/{matches['thirty']}/join")  # where the read-only link is
    token_link = "/view/" + page.get_attribute("a[href*='/view/']", "href").split("/view/", 1)[1]
    page.goto(token_link)
    check_phone_sheet(page)
    assert page.locator(".sheet tbody tr.hand").count() == 30
    assert page.locator("table.settle").count() == 3


@pytest.mark.parametrize("size", ["A4", "Letter"])
@pytest.mark.parametrize("which", ["thirteen", "thirty", "single"])
def test_an_evening_prints_on_one_page(page, matches, which, size):
    page.goto(f"/matches/{matches[which]}")
    page.emulate_media(media="print")
    # Black on white: no colour and no background left anywhere on the printed page.
    colours = page.evaluate("""() => [...document.querySelectorAll('main *')].filter(e => e.offsetParent !== null)
        .flatMap(e => { const s = getComputedStyle(e);
          return [s.color, s.borderTopColor, s.borderLeftColor, s.backgroundColor]; })""")
    allowed = {"rgb(0, 0, 0)", "rgba(0, 0, 0, 0)"}
    assert set(colours) <= allowed, set(colours) - allowed
    visible = page.locator("h1, h2").evaluate_all(
        "els => els.filter(e => e.offsetParent !== null).map(e => e.innerText)")
    assert sum(1 for h in visible if "Alexandra vs Bartholomew" in h) == 1, visible  # the title once
    assert page.locator("table.settle").count() == (1 if which == "single" else 3)
    assert page_count(page.pdf(format=size)) == 1


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)], ids=["tablet", "tv"])
def test_big_screen_fits(page, matches, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for which in ("thirteen", "thirty"):
        page.goto(f"/matches/{matches[which]}/big")
        assert page.evaluate(NO_SIDEWAYS), page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        result = page.locator(".big-screen .meta .nowrap")
        assert "wins 3–0" in result.inner_text()
        assert result.evaluate("e => e.getClientRects().length") == 1, "the result breaks across lines"
        for game in page.locator(".big-screen .game").all():
            box, pts = game.bounding_box(), game.locator(".pts").first.bounding_box()
            assert pts["x"] + pts["width"] <= box["x"] + box["width"], "a score sticks out of its game"
