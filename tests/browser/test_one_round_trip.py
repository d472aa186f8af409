"""Saving a hand with the page script: one request, and nothing lost when the server is away."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def enter_knock(page):
    page.locator("label[for=knocker-1]").click()
    page.locator("label[for=kd-4]").click()
    page.locator("[data-key='2']").click()
    page.locator("[data-key='2']").click()
    page.get_by_role("button", name="Save hand").click()


def test_a_knock_is_saved_in_one_round_trip(player, page):
    player.new_match()
    page.wait_for_timeout(300)
    requests = []
    page.on("request", lambda r: requests.append((r.method, r.url)))
    enter_knock(page)
    expect(page.locator("#hand-1")).to_be_visible()
    page.wait_for_timeout(400)
    to_server = [r for r in requests if "/static/" not in r[1] and not r[1].endswith("/live")]
    assert to_server == [("POST", re.sub(r"#.*", "", page.url).replace(f"/matches/{player.match_id()}",
                                                                       f"/matches/{player.match_id()}/hands"))]
    assert page.url.endswith("#hand-1")
    assert player.row(1)[0] == "18"
    assert "Ana scores 18" in page.locator(".flashes").inner_text()


def test_when_the_server_cannot_be_reached_the_entries_stay(player, page):
    match_id = player.new_match()
    page.route(f"**/matches/{match_id}/hands", lambda route: route.abort("internetdisconnected"))
    enter_knock(page)
    expect(page.locator("[role=alert]")).to_contain_text("cannot be reached")
    assert page.locator("#knocker-1").is_checked() and page.locator("#kd-4").is_checked()
    assert page.locator("[name=opponent_deadwood]").input_value() == "22"
    page.unroute(f"**/matches/{match_id}/hands")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#hand-1")).to_be_visible()
    assert player.export()["hands"] == [{"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 22}]
