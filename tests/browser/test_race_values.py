"""A race picture's end values are drawn whole inside the picture on a 360 x 740 phone.

Each line's final value is written right of its end. A value cut off at the picture's edge reads as
another number (a 198 as 19), so every value must sit inside its picture and right of its line's end,
whatever its length, in the font Chromium draws it with (DejaVu Sans on Debian, the widest usual one).
"""
from __future__ import annotations

import pytest

from tests.browser.conftest import Player

pytestmark = pytest.mark.browser

# Each race picture: its box, its lines' right ends and its values' boxes, in the page's pixels.
RACES = """() => [...document.querySelectorAll('svg.race')].map(svg => {
  const box = svg.getBoundingClientRect();
  const ends = [...svg.querySelectorAll('polyline')].map(line => {
    const points = line.points, last = points.getItem(points.numberOfItems - 1);
    return new DOMPoint(last.x, last.y).matrixTransform(line.getScreenCTM()).x;
  });
  return {game: svg.dataset.game, right: box.right, left: box.left,
          values: [...svg.querySelectorAll('text.value')].map(text => {
            const b = text.getBoundingClientRect();
            return {text: text.textContent, left: b.left, right: b.right};
          }), ends};
})"""


def match_with_ends(values: tuple[int, int]) -> dict:
    """A single game to a target out of reach, whose two lines end at `values` (Ana's, then Ben's)."""
    hands = [{"winner": name, "points": points} for name, points in zip(("Ana", "Ben"), values) if points]
    return {"players": ["Ana", "Ben"], "format": "single", "rules": {"target": 1_000_000}, "hands": hands}


@pytest.mark.parametrize("values", [(198, 11), (7, 88), (9041, 151), (123456, 0)])
def test_end_values_sit_whole_inside_their_picture(page, values):
    player = Player(page)
    player.import_by_paste(match_with_ends(values))
    races = page.evaluate(RACES)
    assert races, "the match page draws its race"
    for race in races:
        drawn = sorted(value["text"] for value in race["values"])
        assert drawn == sorted(str(value) for value in values), race
        for value in race["values"]:
            assert value["right"] <= race["right"] - 0.5, f"{value['text']} is cut off at the picture's edge: {race}"
            assert value["left"] >= max(race["ends"]) + 1, f"{value['text']} is drawn over its line: {race}"
