"""The smaller points of issue 37 at 360 x 740: long names, tight boxes, the language choice, the legend."""
from __future__ import annotations

import pytest

from tests.browser.driver import VIEWPORT
from tests.server import Client

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

LONG = "Maximilianaugustusferdinandbartholomeusx"  # 40 letters, no space


def test_a_forty_letter_name_breaks_inside_its_box_on_every_page(page, server):
    assert len(LONG) == 40
    match_id = Client(server).import_match({"format": "hollywood", "players": [LONG, "Ben"], "first_dealer": "Ben",
                                            "hands": [{"winner": LONG, "points": 120}, {"winner": LONG, "points": 130},
                                                      {"winner": "Ben", "points": 10}]})
    for path in (f"/matches/{match_id}", "/", f"/matches/{match_id}/sheet", f"/matches/{match_id}/hands/1",
                 f"/matches/{match_id}/history", "/players", f"/matches/{match_id}/hands/1/delete",
                 f"/matches/{match_id}/join", f"/matches/{match_id}/count"):
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= VIEWPORT["width"], f"{path} is {width}px wide"


@pytest.mark.parametrize("lang", ["cs", "en", "sk", "sq"])
def test_the_big_gin_tile_holds_its_words_as_tall_as_the_counts(page, server, lang):
    """"Gin i madh", "Velký gin": the words inside the tile, which stays 44 px tall as the counts beside it."""
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": []})
    page.goto(f"/matches/{match_id}?lang={lang}")
    tile, words = page.locator("label[for=big_gin]").bounding_box(), page.locator("label[for=big_gin] .words").bounding_box()
    count = page.locator("label[for=kd-10]").bounding_box()
    assert tile["height"] <= 44.5 and count["height"] <= 44.5, (tile, count)  # the 44 px rows, not grown
    assert tile["y"] <= words["y"] and words["y"] + words["height"] <= tile["y"] + tile["height"], (tile, words)
    assert tile["x"] <= words["x"] and words["x"] + words["width"] <= tile["x"] + tile["width"], (tile, words)
    page.locator("label[for=big_gin]").tap()
    assert page.locator("#big_gin").is_checked()


LANGUAGE_NAMES = {"en": "English", "cs": "Čeština", "sk": "Slovenčina", "sq": "Shqip"}


@pytest.mark.parametrize("lang", sorted(LANGUAGE_NAMES))
def test_the_language_choice_is_one_tap_from_the_first_screen(page, server, lang):
    hands = [{"winner": ("Ana", "Ben")[n % 2], "points": 3} for n in range(12)]  # a long page
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": hands})
    page.goto(f"/matches/{match_id}?lang={lang}")
    link = page.locator("header .lang-link")
    expect(link).to_have_text(lang.upper())
    box = link.bounding_box()
    assert box and box["y"] + box["height"] <= VIEWPORT["height"] and box["x"] + box["width"] <= VIEWPORT["width"]
    link.tap()
    other = "cs" if lang == "en" else "en"
    choice = page.locator(f"#langs a[hreflang={other}]")
    expect(choice).to_be_in_viewport()
    choice.tap()
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.locator(f"#langs [aria-current=true]")).to_have_text(LANGUAGE_NAMES[other])


NAMES_IN_CLOSED_BOXES = """() => [...document.querySelectorAll('.game.closed')].flatMap(box => {
  const b = box.getBoundingClientRect();
  return [...box.querySelectorAll('.who bdi, .badge .winner')].map(name => {
    const range = document.createRange(); range.selectNodeContents(name);
    const lines = [...range.getClientRects()];
    return {name: name.textContent, lines: lines.length,
            inside: lines.every(r => r.left >= b.left - 0.5 && r.right <= b.right + 0.5)};
  });
})"""


@pytest.mark.parametrize("lang", sorted(LANGUAGE_NAMES))
def test_a_closed_games_box_keeps_each_name_on_one_line(page, server, lang):
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Katarzyna", "Bartholomew"],
                                            "first_dealer": "Katarzyna",
                                            "hands": [{"winner": "Katarzyna", "points": 110},
                                                      {"winner": "Bartholomew", "points": 105}]})
    page.goto(f"/matches/{match_id}?lang={lang}")
    names = page.evaluate(NAMES_IN_CLOSED_BOXES)
    assert len(names) == 6, names  # two boxes closed: both players' lines and the winner in the badge
    assert all(n["lines"] == 1 and n["inside"] for n in names), names


WAITING = {"en": "Waiting to send hand 3…", "cs": "Kolo 3 čeká na odeslání…", "sk": "Kolo 3 čaká na odoslanie…",
           "sq": "Raundi 3 pret të dërgohet…"}


@pytest.mark.parametrize("lang", sorted(WAITING))
def test_waiting_to_send_keeps_the_pad_clear_of_the_save_bar(page, server, lang):
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": [{"winner": "Ana", "points": 18}]})
    page.goto(f"/matches/{match_id}?lang={lang}")
    form = page.locator("#hand-form")

    def knock(count: str) -> None:
        form.locator("label[for=knocker-2]").tap()
        form.locator("label[for=kd-2]").tap()
        for digit in count:
            form.locator(f"[data-role=pad] [data-key='{digit}']").tap()
        form.locator("button.save").tap()

    knock("24")
    page.wait_for_url("**#hand-2")  # a saved hand's message over the board
    page.route("**/hands", lambda route: route.abort())  # the Wi-Fi gone: the save cannot be sent
    knock("30")
    note = page.locator("[data-role=waiting]")
    expect(note).to_have_text(WAITING[lang])
    page.wait_for_timeout(300)  # the note's own scroll, if any
    bar = page.locator(".save-bar").bounding_box()
    for key in ("7", "C"):  # the pad's second row
        box = form.locator(f"[data-role=pad] [data-key='{key}']").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 0.5, (key, box, bar)
    box = note.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"], box


def test_the_chart_legends_two_marks_are_drawn_as_their_lines(page, server):
    """Solid for the first player, dashed for the second, as the race pictures draw them, on screen and paper."""
    match_id = Client(server).import_match({"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana",
                                            "hands": [{"winner": "Ana", "points": 18}, {"winner": "Ben", "points": 20}]})
    page.goto(f"/matches/{match_id}")
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        marks = page.evaluate("""() => [...document.querySelectorAll('.races .legend .mark line')].map(l => {
            const s = getComputedStyle(l), b = l.closest('svg').getBoundingClientRect();
            return {dash: s.strokeDasharray, width: b.width}; })""")
        lines = page.evaluate("""() => ['s1', 's2'].map(s => getComputedStyle(
            document.querySelector('.races .chart .series.' + s)).strokeDasharray)""")
        assert [m["dash"] for m in marks] == lines and lines[0] != lines[1], (media, marks, lines)
        assert all(m["width"] >= 24 for m in marks), marks  # long enough to show the dashes
