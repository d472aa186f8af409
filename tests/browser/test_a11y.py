"""Accessibility: axe-core, injected into each page, finds nothing serious or critical.

Every rule in the light colour scheme, and colour contrast again in the dark one.
"""
from __future__ import annotations

import pytest

from tests.browser.conftest import Player
from tests.browser.driver import phone
from tests.generate import long_match
from views.match.sheet import SHOWN_HANDS

pytestmark = pytest.mark.browser

BLOCKING = {"serious", "critical"}
SCHEMES = ("light", "dark")


@pytest.fixture
def context_options() -> dict:
    """The app's Content-Security-Policy forbids inline script, and injecting axe is inline script."""
    return {"bypass_csp": True}


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:8]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {node['failureSummary'].splitlines()[-1].strip()}")
    return "\n".join(lines)


def check(page, axe_script: str, what: str) -> None:
    """Run axe in each colour scheme; print every violation, fail on serious or critical ones."""
    page.add_script_tag(path=axe_script)
    found = []
    backgrounds = set()
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        backgrounds.add(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))
        # Only colours change with the scheme, so the dark run checks contrast alone.
        options = {"resultTypes": ["violations"]}
        if scheme != "light":
            options["runOnly"] = ["color-contrast"]
        results = page.evaluate("options => axe.run(document, options)", options)
        assert results["testEngine"]["name"] == "axe-core"
        violations = results["violations"]
        if violations:
            print(f"\naxe on {what} ({scheme}):\n{describe(violations)}")
        found += [dict(v, scheme=scheme) for v in violations if v["impact"] in BLOCKING]
    page.emulate_media(color_scheme="light")
    assert len(backgrounds) == len(SCHEMES), f"the colour schemes did not switch: {backgrounds}"
    assert not found, f"axe on {what}:\n" + "\n".join(f"({v['scheme']}) " + describe([v]) for v in found)


@pytest.fixture
def some_hands(seeded):
    """A match being played (seed 001, six hands) and a finished one, so the lists and sheets have content."""
    return seeded["seed001-ana-ben"], seeded["full-hollywood-match"]


def test_home(axe_script, page, some_hands):
    page.goto("/")
    page.get_by_text("Paste the JSON instead").click()
    check(page, axe_script, "home")


def test_new_match_with_rules_open_and_with_errors(axe_script, page):
    page.goto("/matches/new")
    page.get_by_text("Adjust rules").click()
    check(page, axe_script, "new match")
    page.get_by_role("button", name="Start the match").click()  # no names: the form comes back with errors
    page.locator(".error").first.wait_for()
    check(page, axe_script, "new match with errors")


def test_match_page_during_entry(axe_script, page, some_hands):
    playing_id, _ = some_hands
    page.goto(f"/matches/{playing_id}")
    form = page.locator("#hand-form")
    form.locator("label[for=knocker-1]").click()
    form.locator("label[for=kd-4]").click()
    form.locator("[data-role=pad] [data-key='2']").click()
    page.get_by_text("Type the points instead").click()
    page.get_by_text("Rules of this match").click()
    check(page, axe_script, "match page")


def test_finished_match_page(axe_script, page, some_hands):
    _, finished_id = some_hands
    page.goto(f"/matches/{finished_id}")
    check(page, axe_script, "finished match page")


def test_edit_hand_page(axe_script, page, some_hands):
    playing_id, _ = some_hands
    page.goto(f"/matches/{playing_id}")
    page.get_by_role("link", name="Edit hand 2").click()
    page.wait_for_url(f"**/matches/{playing_id}/hands/2")
    check(page, axe_script, "edit hand page")


def test_big_screen(axe_script, page, some_hands):
    _, finished_id = some_hands
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"/matches/{finished_id}/big")
    check(page, axe_script, "big screen")



def test_long_match_page_with_its_fold_and_the_whole_sheet(axe_script, page, browser, server):
    """A long match's page folds its older hands behind one link; the whole sheet draws them all."""
    context = phone(browser, server, touch=False)
    match_id = Player(context.new_page()).import_by_paste(long_match(SHOWN_HANDS + 10, seed=2))
    context.close()
    page.goto(f"/matches/{match_id}")
    assert page.locator(".sheet tr.folded a").count() == 1
    check(page, axe_script, "long match page")
    page.goto(f"/matches/{match_id}/join")  # where the read-only link is
    spectator = "/view/" + page.get_attribute("a[href*='/view/']", "href").split("/view/", 1)[1]
    page.goto(f"/matches/{match_id}/sheet")
    check(page, axe_script, "whole sheet")
    page.goto(spectator + "/sheet")
    check(page, axe_script, "spectator's whole sheet")
