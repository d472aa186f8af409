"""A refused hand form outlines only what was refused (issue 45): the choice the server refused, and the
refused group's legend; the allowed buttons beside it keep their own border, with or without the script."""
from __future__ import annotations

import pytest

from tests.browser.driver import phone
from tests.server import Client

pytestmark = pytest.mark.browser


def oklahoma_match(server: str) -> int:
    return Client(server).import_match({"players": ["Ana", "Ben"], "rules": {"oklahoma": True}, "hands": []})


def color(locator, prop: str) -> str:
    return locator.evaluate(f"e => getComputedStyle(e).{prop}")


@pytest.mark.parametrize("script", [True, False])
def test_nothing_chosen_marks_the_legend_not_the_buttons(browser, server, script):
    context = phone(browser, server, java_script_enabled=script)
    page = context.new_page()
    page.goto(f"/matches/{oklahoma_match(server)}")
    page.get_by_role("button", name="Save hand").first.click()
    page.wait_for_load_state()
    form = page.locator("#hand-form")
    error = color(page.locator("p.error").first, "color")
    legend = form.locator("fieldset:has(label[for=knocker-1]) > legend")
    assert color(legend, "color") == error
    for name in ("knocker-1", "knocker-2"):
        assert color(form.locator(f"label[for={name}]"), "borderTopColor") != error, name
    assert color(form.locator("label[for=upcard-rank-5]"), "borderTopColor") != error
    context.close()


def test_a_refused_choice_is_outlined_alone(browser, server):
    """Without the script a deadwood over the upcard's limit reaches the server: 8 is refused (a 5 up: the
    limit is 5), and 8 alone is outlined; 0 to 5, allowed, are not."""
    context = phone(browser, server, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/matches/{oklahoma_match(server)}")
    form = page.locator("#hand-form")
    for label in ("upcard-rank-5", "upcard-suit-H", "knocker-1", "kd-8"):
        form.locator(f"label[for={label}]").click()
    form.locator("#opponent_deadwood").fill("20")
    page.get_by_role("button", name="Save hand").first.click()
    page.wait_for_load_state()
    error = color(page.locator("p.error").first, "color")
    assert form.locator("#kd-8").get_attribute("aria-invalid") == "true"
    assert color(form.locator("label[for=kd-8]"), "borderTopColor") == error
    for allowed in range(0, 6):
        assert color(form.locator(f"label[for=kd-{allowed}]"), "borderTopColor") != error, allowed
    assert color(form.locator("fieldset.deadwood > legend"), "color") == error
    context.close()
