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
