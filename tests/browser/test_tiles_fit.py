"""The hand form's result tiles on a 360 x 740 phone hold their labels in every language.

The deadwood grid is six equal tiles a row; the last one, "Big gin" with its checkbox, has the
longest label ("Velký gin", "Veľký gin", "Gin i madh"). A label must be drawn inside its tile
(wrapping there if it must), never spill over the tile's edge onto its neighbour; the tile
keeps its words clear of its checkbox, drawn in the corner, and stays as tall as the others.
"""
from __future__ import annotations

import pytest

from tests.browser.conftest import Player

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "cs", "sk", "sq")

# Each tile of the deadwood grid: its border box, and the box of what it draws (its text and its
# checkbox), measured with a Range over the label's contents.
TILES = """() => [...document.querySelectorAll('#hand-form fieldset.deadwood .pick-grid .pick')].map(tile => {
  const range = document.createRange();
  range.selectNodeContents(tile);
  const t = tile.getBoundingClientRect(), c = range.getBoundingClientRect();
  const box = tile.querySelector('input[type=checkbox]');
  const b = box ? box.getBoundingClientRect() : null;
  return {id: tile.htmlFor, text: tile.textContent.trim(),
          tile: [t.left, t.top, t.right, t.bottom], ink: [c.left, c.top, c.right, c.bottom],
          check: b && [b.left, b.top, b.right, b.bottom], scroll: tile.scrollWidth, client: tile.clientWidth};
})"""


@pytest.fixture(scope="module")
def match_id(browser, server) -> int:
    """A Hollywood match of Ana and Ben, no hands yet: its page opens on the hand form."""
    from tests.browser.driver import phone
    context = phone(browser, server, touch=False)
    found = Player(context.new_page()).new_match("Ana", "Ben")
    context.close()
    return found


def tiles(page, match_id: int, lang: str) -> list[dict]:
    page.goto(f"/matches/{match_id}?lang={lang}")
    assert page.locator("html").get_attribute("lang") == lang
    drawn = page.evaluate(TILES)
    assert len(drawn) == 12 and drawn[-1]["id"] == "big_gin", drawn
    return drawn


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_result_tile_holds_its_label(page, match_id, lang):
    drawn = tiles(page, match_id, lang)
    for tile in drawn:
        left, top, right, bottom = tile["tile"]
        ink_left, ink_top, ink_right, ink_bottom = tile["ink"]
        inside = (ink_left >= left - 0.5 and ink_right <= right + 0.5
                  and ink_top >= top - 0.5 and ink_bottom <= bottom + 0.5)
        assert inside, f"{lang}: {tile['text']!r} spills out of its tile: {tile}"
        assert tile["scroll"] <= tile["client"], f"{lang}: {tile['text']!r} is wider than its tile: {tile}"
    # Still one even grid: two rows of six equal tiles, none off the screen.
    sizes = {(round(t["tile"][2] - t["tile"][0]), round(t["tile"][3] - t["tile"][1])) for t in drawn}
    rows = {round(t["tile"][1]) for t in drawn}
    assert len(sizes) == 1 and len(rows) == 2, (lang, sizes, rows)
    assert max(t["tile"][2] for t in drawn) <= 360, drawn


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_big_gin_tile_keeps_its_words_clear_of_its_box(page, match_id, lang):
    """The checkbox in the tile's corner (issue 37), each line of the words clear of it, every tile 44 px
    tall in every language (the longer words no longer make the grid's rows grow)."""
    drawn = tiles(page, match_id, lang)
    check_left, check_top, check_right, check_bottom = drawn[-1]["check"]
    lines = page.evaluate("""() => { const range = document.createRange();
      range.selectNodeContents(document.querySelector('label[for=big_gin] .words'));
      return [...range.getClientRects()].map(r => [r.left, r.top, r.right, r.bottom]); }""")
    for left, top, right, bottom in lines:  # 1 px for the line box above the letters' ink
        assert left >= check_right - 1 or top >= check_bottom - 1, (lines, drawn[-1])
    assert {round(t["tile"][3] - t["tile"][1]) for t in drawn} == {44}, drawn


# Each select of "Adjust rules" and the words of each of its choices, measured in the select's own font.
SELECTS = """() => { const canvas = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('details.rules select')].flatMap(select => {
    const style = getComputedStyle(select);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - 24;  // the native arrow's side
    return [...select.options].map(option => ({id: select.id, text: option.text, width: canvas.measureText(option.text).width, room}));
  });
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_choice_is_read_whole_in_its_select(page, lang):
    """New match, "Adjust rules", at 360 x 740: a choice's words fit its select beside the arrow (they were
    cut under it: "podle předvolby", "a knock with 1 o…")."""
    page.goto(f"/matches/new?lang={lang}")
    page.locator("details.rules summary").click()
    choices = page.evaluate(SELECTS)
    assert len({choice["id"] for choice in choices}) == 6, choices
    cut = [choice for choice in choices if choice["width"] > choice["room"]]
    assert not cut, f"{lang}: {cut}"


TARGETS = """() => [...document.querySelectorAll('summary, .navlink')].filter(e => e.offsetParent !== null)
  .map(e => { const b = e.getBoundingClientRect(); return {text: e.textContent.trim(), width: b.width, height: b.height}; })"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_summaries_and_header_links_are_taps_of_44_px(page, match_id, lang):
    """A <summary> ("Adjust rules", "Rules of this match") was 25 px tall, Albanian's "Dil" (log out) 23 px
    wide: every one is a tap target at least 44 x 44 px."""
    for path in ("/matches/new", f"/matches/{match_id}", "/players"):
        page.goto(f"{path}?lang={lang}")
        small = [target for target in page.evaluate(TARGETS) if target["width"] < 44 or target["height"] < 44]
        assert not small, f"{lang} {path}: {small}"
