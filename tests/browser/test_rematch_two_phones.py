"""The evening goes on: both phones tap Rematch on the finished match and land on the same new one;
the finished match then leads to it, and the new one back. Screenshots for a look, when asked."""
import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.driver import phone

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GIN_SHOTS")  # a folder: save the pages as a player sees them, to look at


def shot(page, name: str, at: str | None = None) -> None:
    """One 360x740 screen, at the top or scrolled to the element `at`."""
    if SHOTS:
        if at:
            page.locator(at).first.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def test_two_phones_tap_rematch_and_land_on_the_same_match(browser, server, player, case):
    finished = player.import_by_paste(case("full-hollywood-match")[0])
    ana = player.page
    ben = phone(browser, server).new_page()
    ben.goto(f"/matches/{finished}")
    shot(ana, "finished-before-rematch")
    ana.get_by_role("button", name="Rematch").click()
    ana.wait_for_url(re.compile(r"/matches/\d+$"))
    ben.get_by_role("button", name="Rematch").click()  # his page still shows the button
    ben.wait_for_url(re.compile(r"/matches/\d+$"))
    assert ana.url == ben.url and not ana.url.endswith(f"/matches/{finished}")
    expect(ben.locator(".flashes")).to_contain_text("The rematch was already started: here it is.")
    expect(ana.locator(".about")).to_contain_text("Rematch of the match started today")
    shot(ana, "rematch")
    rematch_path = "/matches/" + ana.url.rsplit("/", 1)[1]
    ana.goto(f"/matches/{finished}")
    expect(ana.get_by_role("link", name="Go to the rematch")).to_have_attribute("href", rematch_path)
    expect(ana.get_by_role("button", name="Rematch")).to_have_count(0)
    shot(ana, "finished-after-rematch")
    shot(ana, "finished-tools", at=".match-tools")
    ben.context.close()


def test_the_home_page_and_the_new_match_form_as_a_player_sees_them(page, player, case):
    playing = player.import_by_paste(case("seed001-ana-ben")[0])
    page.fill("#name", "Friday at Eva's")
    page.get_by_role("button", name="Save the name").click()
    expect(page.locator(".flashes")).to_contain_text("This match is now called")
    page.goto("/")
    expect(page.locator(f"a[href='/matches/{playing}'] .scores")).to_contain_text("✓")
    shot(page, "home")
    page.goto("/matches/new")
    expect(page.locator("[data-name-of=player1]")).to_have_text("the first name above")
    page.fill("#player1", "Cleo")
    page.fill("#player2", "Dan")
    expect(page.locator("[data-name-of=player1]")).to_have_text("Cleo")  # the script, as names are typed
    expect(page.locator("[data-name-of=player2]")).to_have_text("Dan")
    shot(page, "new-match")


def test_the_abandoned_list_and_an_abandoned_match_are_accessible(browser, server, axe_script, case):
    from tests.browser.conftest import Player
    from tests.browser.test_a11y import check

    context = phone(browser, server, bypass_csp=True)  # axe is injected as inline script
    page = context.new_page()
    set_aside = Player(page).import_by_paste(case("seed000-bob-alexandra")[0])
    page.get_by_role("button", name="Abandon this match").click()
    page.wait_for_url(re.compile(r"/$"))
    page.locator("#abandoned summary").click()
    expect(page.locator(f"#abandoned a[href='/matches/{set_aside}']")).to_be_visible()
    shot(page, "home-abandoned", at="#abandoned")
    check(page, axe_script, "home with an abandoned match")
    page.goto(f"/matches/{set_aside}")
    expect(page.locator(".abandoned-note")).to_contain_text("Abandoned today")
    shot(page, "abandoned-match")
    check(page, axe_script, "an abandoned match")
    page.get_by_role("button", name="Reopen this match").click()
    expect(page.locator(".flashes")).to_contain_text("is open again")
    context.close()
