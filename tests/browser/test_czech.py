"""A Czech phone at the table: the browser asks for Czech (Accept-Language cs-CZ) and the whole hand
entry answers in Czech: the labels, the preview sentence before saving, the flash after it."""
from __future__ import annotations

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

MATCH_URL = re.compile(r"/matches/(\d+)(#.*)?$")


@pytest.fixture
def context_options() -> dict:
    """A Czech browser: Playwright's locale sets navigator.language and the Accept-Language header."""
    return {"locale": "cs-CZ"}


def row(page, number: int) -> list[str]:
    return [t.strip() for t in page.locator(f"#hand-{number} td:not(.note)").all_text_contents()]


def test_a_knock_and_an_undercut_entered_in_czech(page):
    page.goto("/matches/new")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("h1")).to_have_text("Nový zápas")
    page.fill("#player1", "Ana")
    page.fill("#player2", "Ben")
    page.check("input[name=format][value='hollywood']")
    page.check("input[name=first_dealer][value='1']")
    page.get_by_role("button", name="Začít zápas").click()
    page.wait_for_url(MATCH_URL)
    expect(page.locator(".flash")).to_have_text("Nový zápas: Ana – Ben. Jako první rozdává Ana.")
    expect(page.locator("p.meta")).to_contain_text("rozdává Ana")

    form = page.locator("#hand-form")
    pad = form.locator("[data-role=pad]")
    preview = form.locator("[data-role=preview]")
    expect(form.locator("legend").first).to_have_text("Kdo klepe?")

    # A knock: Ana knocks with 4, Ben holds 22 after laying off.
    form.locator("label[for=knocker-1]").tap()
    form.locator("label[for=kd-4]").tap()
    pad.locator("[data-key='2']").tap()
    pad.locator("[data-key='2']").tap()
    expect(form.locator("[data-role=knocker-name]")).to_have_text("Ana")
    expect(form.locator("[data-role=defender-name]")).to_have_text("Ben")
    expect(form.locator("[data-role=layoff-note]")).to_have_text("po přiložení")
    expect(preview).to_have_text("Ana získává 18 → do hry 1.")
    form.locator("label[for=kd-0]").tap()  # gin on the way: no lay-offs, a bonus
    expect(form.locator("[data-role=layoff-note]")).to_have_text("(po ginu se nepřikládá)")
    expect(preview).to_have_text("Gin! Ana získává 47 → do hry 1.")
    form.locator("label[for=kd-4]").tap()
    expect(preview).to_have_text("Ana získává 18 → do hry 1.")
    form.get_by_role("button", name="Uložit kolo").tap()
    page.wait_for_url("**#hand-1")
    expect(page.locator(".flash-saved")).to_have_text("Kolo 1: Ana klepe, 4 proti 22. Ana získává 18 → do hry 1.")
    assert row(page, 1) == ["18", "", "", "", "", ""]
    expect(page.locator("#hand-1 + tr.story")).to_have_text("klepnutí 18 → do hry 1 · rozdávající Ana")

    # An undercut: Ben knocks with 5 and Ana holds 3; it is Ana's second win, so games 1 and 2.
    form.locator("label[for=knocker-2]").tap()
    form.locator("label[for=kd-5]").tap()
    pad.locator("[data-key='3']").tap()
    expect(preview).to_have_text("Podříznutí! Ana získává 12 → do her 1 a 2.")
    form.get_by_role("button", name="Uložit kolo").tap()
    page.wait_for_url("**#hand-2")
    expect(page.locator(".flash-saved")).to_have_text("Kolo 2: Ben klepe, 5 proti 3. Podříznutí! Ana získává 12 → do her 1 a 2.")
    assert row(page, 2) == ["30", "", "12", "", "", ""]
    totals = [t.strip() for t in page.locator(".sheet tfoot tr").first.locator("td:not(.note)").all_text_contents()]
    assert totals == ["30", "0", "12", "0", "0", "0"]
    expect(page.locator("p.next")).to_have_text("Dále: kolo 3, rozdává Ana.")
    expect(page.locator(".board .game").first.locator(".status")).to_have_text("do 100")
