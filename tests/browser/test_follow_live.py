"""Two phones on one match: a hand saved on one appears on the other by itself."""
import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_hand_saved_on_phone_a_appears_on_phone_b_without_a_reload(browser, server, case):
    """The follow asks every 2.5 s (bench/ measures how soon a hand is seen); here only that it comes."""
    a = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    doc, _ = case("seed000-bob-alexandra")
    a.goto("/")
    a.get_by_text("Paste the JSON instead").click()
    a.fill("textarea[name=text]", __import__("json").dumps(doc))
    a.get_by_role("button", name="Import", exact=True).click()
    a.wait_for_url(re.compile(r"/matches/\d+"))
    match_url = a.url.split("#")[0]
    token = re.search(r"/view/([A-Za-z0-9_-]+)", a.request.get(match_url + "/join").text()).group(1)

    b = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    b.goto(match_url)
    watcher = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server).new_page()
    watcher.goto(f"/view/{token}")
    expect(b.locator(".sheet tbody tr[id^=hand-]")).to_have_count(4)

    a.locator("label[for=knocker-2]").click()       # Alexandra knocks
    a.locator("label[for=kd-3]").click()
    a.fill("[name=opponent_deadwood]", "20")
    a.get_by_role("button", name="Save hand").click()
    a.wait_for_url("**#hand-5")

    for follower in (b, watcher):
        expect(follower.locator("#hand-5")).to_be_visible(timeout=30_000)
    # Alexandra's second win: 18 + 17 in game 1, 17 in game 2.
    assert [c.strip() for c in b.locator("#hand-5 td:not(.note)").all_text_contents()][:4] == ["", "35", "", "17"]
    # The follower's preview now knows the new routing: Alexandra's next win goes to games 1, 2 and 3.
    b.locator("label[for=knocker-2]").click()
    b.locator("label[for=kd-2]").click()
    b.fill("[name=opponent_deadwood]", "12")
    expect(b.locator("[data-role=preview]")).to_contain_text("games 1, 2 and 3")


def test_the_read_only_page_changes_nothing(page, seeded):
    page.goto(f"/matches/{seeded['seed001-ana-ben']}/join")
    token = re.search(r"/view/([A-Za-z0-9_-]+)", page.content()).group(1)
    page.goto(f"/view/{token}")
    assert page.locator("form").count() == 0
    assert page.locator("input, select, textarea").count() == 0
    assert page.locator(".sheet a[href*='/hands/']").count() == 0
