"""A player's page, a head-to-head and a match's race picture, in a real browser."""
import json
import re
import uuid

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_player_pages_and_the_race_picture(player, page, case):
    doc, _ = case("seed001-ana-ben")
    # Names of their own: the browser tests share one server, where Ana and Ben play often.
    one, two = "Hana " + uuid.uuid4().hex[:6], "Boris " + uuid.uuid4().hex[:6]
    text = json.dumps(doc).replace('"Ana"', json.dumps(one)).replace('"Ben"', json.dumps(two))
    match_id = player.import_by_paste(json.loads(text))
    # The race: three games, each line has a point per hand until the game closed (hand 0 included).
    races = page.locator("svg.race")
    expect(races).to_have_count(3)
    first = races.nth(0)
    assert [len(p.split()) for p in first.locator("polyline").evaluate_all("els => els.map(e => e.getAttribute('points'))")] == [7, 7]
    assert first.locator("circle.closed-marker").count() == 1
    assert first.locator("circle.closed-marker").get_attribute("data-hand") == "6"
    assert races.nth(1).locator("circle.closed-marker").count() == 0
    box = first.bounding_box()
    assert box and box["width"] <= 360

    page.goto("/players")
    page.get_by_role("link", name=re.compile("^" + re.escape(one))).first.click()
    expect(page.locator("h1")).to_have_text(one)
    expect(page.locator("table.record")).to_contain_text("Hands won")
    page.get_by_role("link", name=re.compile(re.escape(two))).first.click()
    expect(page.locator("table.record th[scope=col]")).to_have_text(["Figure", one, two])
    net = page.locator("svg.net-chart polyline")
    expect(net).to_have_count(2)
    # One match between them: the running net starts at 0 and has one point per match after it.
    assert len(net.nth(0).get_attribute("points").split()) == 2
    assert page.locator(f"a[href='/matches/{match_id}']").count() == 1
