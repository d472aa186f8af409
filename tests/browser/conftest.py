"""Browser tests: the app in a real server process, driven by Playwright in Debian's Chromium.

Without Chromium or the playwright package these tests skip on a workstation and
fail under CI=true, so a CI run can never pass by silently testing nothing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.browser.driver import TIMEOUT_MS, launch, phone, why_not
from tests.server import Server

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
MATCH_URL = re.compile(r"/matches/(\d+)(#.*)?$")


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def missing(reason: str, hint: str):
    """Skip on a workstation; under CI a missing tool is a failure, not a pass."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true, so this is an error): {hint}", pytrace=False)
    pytest.skip(hint)


@pytest.fixture(scope="session")
def server():
    """Base URL of the app served by waitress (4 threads) in its own process, on a fresh database."""
    workdir = Path(tempfile.mkdtemp(prefix="gin-ledger-browser-"))
    try:
        with Server(workdir / "gin-ledger.sqlite", threads=4) as running:
            yield running.base
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def _playwright():
    if why_not():
        missing(*why_not())
    from playwright.sync_api import expect, sync_playwright
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(_playwright):
    browser = launch(_playwright)
    yield browser
    browser.close()


@pytest.fixture
def context_options() -> dict:
    """Extra options for the browser context; a test module may override this fixture."""
    return {}


@pytest.fixture
def page(browser, server, context_options):
    """A fresh context (cookies, storage) per test: a 360x740 touch phone. Script errors fail the test."""
    context = phone(browser, server, **context_options)
    page = context.new_page()
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    yield page
    context.close()
    assert not script_errors, f"JavaScript errors on the page: {script_errors}"


@pytest.fixture
def no_script(browser, server):
    """A phone with JavaScript off: every page must work the same, only without the preview."""
    context = phone(browser, server, java_script_enabled=False)
    yield context.new_page()
    context.close()


# What the test modules share, as fixtures (two conftest.py files make `import conftest` ambiguous).

def load_case(name: str) -> tuple[dict, dict]:
    """A shared case as (input document, expected replay output)."""
    doc = json.loads((CASES / f"{name}.json").read_text())
    expected = doc.pop("expected")
    return doc, expected


@pytest.fixture(scope="session")
def case():
    return load_case


class Player:
    """Acts through the pages as a player at the table would."""

    def __init__(self, page):
        self.page = page

    def match_id(self) -> int:
        found = MATCH_URL.search(self.page.url)
        assert found, f"not on a match page: {self.page.url}"
        return int(found.group(1))

    def new_match(self, first: str = "Ana", second: str = "Ben", first_dealer: str = "1",
                  format: str = "hollywood") -> int:
        """Start a match through the new-match form; first_dealer is the seat (1, 2) or random."""
        page = self.page
        page.goto("/matches/new")
        page.fill("#player1", first)
        page.fill("#player2", second)
        page.check(f"input[name=format][value='{format}']")
        page.check(f"input[name=first_dealer][value='{first_dealer}']")
        page.get_by_role("button", name="Start the match").click()
        page.wait_for_url(MATCH_URL)
        return self.match_id()

    def import_by_paste(self, doc: dict) -> int:
        """Import a match file through the home page's paste box; returns the new match's id."""
        page = self.page
        page.goto("/")
        page.get_by_text("Paste the JSON instead").click()
        page.fill("textarea[name=text]", json.dumps(doc))
        page.get_by_role("button", name="Import", exact=True).click()
        page.wait_for_url(MATCH_URL)
        return self.match_id()

    def type_points(self, winner: str, points: int) -> None:
        """One hand through the "Type the points instead" form."""
        page = self.page
        number = self.last_hand() + 1
        page.get_by_text("Type the points instead").click()
        form = page.locator("form", has=page.get_by_role("button", name="Save points"))
        form.locator("label.pick", has_text=winner).click()
        form.locator("input[name=points]").fill(str(points))
        form.get_by_role("button", name="Save points").click()
        page.wait_for_url(f"**#hand-{number}")

    def hand_count(self) -> int:
        """The hand rows drawn (a long match's page draws only its last ones)."""
        return self.page.locator(".sheet tbody tr[id^=hand-]").count()

    def last_hand(self) -> int:
        """The number of the last hand on the sheet, 0 before the first."""
        rows = self.page.locator(".sheet tbody tr[id^=hand-]")
        return int(rows.last.get_attribute("id").removeprefix("hand-")) if rows.count() else 0

    def row(self, number: int) -> list[str]:
        """The score cells of a hand's row: game 1 both players, game 2 both, ..."""
        return [t.strip() for t in self.page.locator(f"#hand-{number} td:not(.note)").all_text_contents()]

    def totals(self) -> list[str]:
        """The sheet's score line (Σ): game by game, player by player."""
        return [t.strip() for t in self.page.locator(".sheet tfoot tr").first.locator("td:not(.note)").all_text_contents()]

    def closings(self) -> list[str]:
        return [" ".join(t.split()) for t in self.page.locator(".sheet tr.closing").all_text_contents()]

    def export(self) -> dict:
        """The match file the page advertises, fetched with the page's own cookies."""
        page = self.page
        href = page.get_attribute('link[rel=alternate][type="application/json"]', "href")
        assert href == f"/matches/{self.match_id()}.json", href
        response = page.request.get(href)
        assert response.ok, response.status
        return response.json()


@pytest.fixture
def player(page):
    return Player(page)


@pytest.fixture(scope="session")
def seeded(browser, server) -> dict[str, int]:
    """Matches imported once for the tests that only look at pages: case name -> match id.

    Tests that use these must not change them."""
    context = phone(browser, server, touch=False)
    someone = Player(context.new_page())
    ids = {name: someone.import_by_paste(load_case(name)[0])
           for name in ("full-hollywood-match", "seed001-ana-ben")}
    context.close()
    return ids


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_script() -> str:
    """axe-core's script for the accessibility checks (npm ci installs it from package.json)."""
    if not AXE.exists():
        missing(f"{AXE} is missing", "axe-core not installed: run npm ci")
    return str(AXE)
