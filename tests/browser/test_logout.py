"""The header's logout at 360 px: there when a passphrase is set, on one line with the nav, and it ends the login."""
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.driver import phone
from tests.server import Server

pytestmark = pytest.mark.browser
PASSPHRASE = "our table"


@pytest.fixture(scope="module")
def private_server():
    workdir = Path(tempfile.mkdtemp(prefix="gin-ledger-logout-"))
    try:
        with Server(workdir / "gin-ledger.sqlite", threads=2, env={"FLASK_PASSPHRASE": PASSPHRASE}) as running:
            yield running.base
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def logged_in(context, lang: str):
    """A new page of `context`, past the passphrase, on the home page in `lang`."""
    page = context.new_page()
    page.goto(f"/login?lang={lang}")
    page.fill("input[name=passphrase]", PASSPHRASE)
    page.press("input[name=passphrase]", "Enter")
    page.wait_for_url("**/")
    return page


@pytest.mark.parametrize("lang, words", [("en", "Log out"), ("cs", "Odhlásit se"), ("sk", "Odhlásiť sa"),
                                         ("sq", "Dil")])
def test_logout_sits_in_the_header_and_ends_the_login(browser, private_server, lang, words):
    context = phone(browser, private_server)
    page = logged_in(context, lang)
    button = page.locator("header.top form.logout button")
    expect(button).to_have_text(words)
    brand, box = page.locator("header .brand").bounding_box(), button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= 360, box
    assert abs((box["y"] + box["height"] / 2) - (brand["y"] + brand["height"] / 2)) < 2  # one line with the name
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    button.click()
    page.wait_for_url("**/login")
    page.goto("/players")
    assert "/login" in page.url
    context.close()


HEADER_ITEMS = "header.top :is(.brand, .navlink)"


@pytest.mark.parametrize("lang", ["en", "cs", "sk", "sq"])
def test_the_match_page_header_takes_two_lines_at_most(browser, private_server, lang):
    """With a passphrase the match page's header holds the name, Sheet, Players, the language and Log out:
    what does not fit beside the name goes whole to a second line; no word is broken inside its link."""
    context = phone(browser, private_server)
    page = logged_in(context, lang)
    page.locator("textarea[name=text]").evaluate(
        "(t) => { t.value = JSON.stringify({players: ['Ana', 'Ben'], hands: [{winner: 'Ana', points: 18}]});"
        " t.form.submit(); }")
    page.wait_for_url("**/matches/*")
    boxes = [item.bounding_box() for item in page.locator(HEADER_ITEMS).all()]
    assert len(boxes) == 5  # the name, Sheet, Players, the language, Log out
    rows = {round(box["y"] + box["height"] / 2) for box in boxes}
    assert len(rows) <= 2, boxes
    assert all(44 <= box["height"] < 48 for box in boxes), boxes  # two lines of text in a link would be 48
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 360 for box in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
