"""Accessibility of the ladder, its big screen and tonight's page: axe-core finds nothing serious or critical,
in the light and the dark colour scheme (tests/browser/test_a11y.py's check)."""
from __future__ import annotations

import pytest

from tests.browser.test_a11y import check
from tests.browser.test_ladder_phone import single

pytestmark = pytest.mark.browser


@pytest.fixture
def context_options() -> dict:
    """Injecting axe is inline script, which the app's Content-Security-Policy forbids."""
    return {"bypass_csp": True}


def test_the_ladder_and_tonight_pass_axe(player, axe_script):
    for winner, loser in (("Adéla", "Bořek"), ("Bořek", "Adéla"), ("Adéla", "Cecílie")):
        player.import_by_paste(single(winner, loser))
    player.import_by_paste(single("Cecílie", "Bořek", finished=False))
    page = player.page
    for address in ("/ladder", "/ladder/big", "/ladder/print", "/tonight"):
        page.goto(address)
        check(page, axe_script, address)
