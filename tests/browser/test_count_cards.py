"""Count cards in a real browser: tap a knocker's and a defender's hand, use the counts, save the hand.

With script the grid counts on each tap (asking /api/arrange, no reload); without
script the same grid is a form and the "Count" buttons ask the server.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from models.game.cards import RANKS, SUITS

pytestmark = pytest.mark.browser

KNOCKER = "3S 4S 5S 7H 7D 7C 9H 10H JH 2C".split()   # deadwood 2C: may knock with 2
DEFENDER = "6S 2S QH 8H KD KC KS 4D 9C 5C".split()   # lays off 2S 6S 8H QH; deadwood 4D 5C 9C = 18


def grid_order(codes: list[str]) -> list[str]:
    """The order the grid sends the cards in: suit by suit (S H D C), ace to king."""
    return sorted(codes, key=lambda c: (SUITS.index(c[-1]), RANKS.index(c[:-1])))


def tap_cards(page, side: str, codes: list[str]) -> None:
    for code in codes:
        page.locator(f"label[for={side}-{code}]").tap()
        expect(page.locator(f"#{side}-{code}")).to_be_checked()


def result(page, side: str):
    return page.locator(f".count-result[data-side={side}]")


def use_the_counts(page, match_id: int, seat: int = 1):
    """Tap "Use these counts" (the server counts the taps and redirects): the hand form, filled."""
    page.get_by_role("button", name="Use these counts").tap()
    page.wait_for_url(re.compile(rf"/matches/{match_id}\?.*#hand-form$"))
    form = page.locator("#hand-form")
    expect(form.locator(f"#knocker-{seat}")).to_be_checked()
    expect(form.locator("#kd-2")).to_be_checked()
    expect(form.locator("input[name=opponent_deadwood]")).to_have_value("18")
    expect(form.locator(".counted-cards")).to_contain_text("7 of hearts")
    expect(form.locator(".counted-cards")).to_contain_text("queen of hearts")
    return form


def check_saved_hand(page, player, match_id: int) -> None:
    """The sheet's first row, the export's cards, and the edit page showing them."""
    # with the script at the new row, without it at the message over the next hand's form
    page.wait_for_url(re.compile(rf"/matches/{match_id}#(hand-1|told)$"))
    assert player.row(1) == ["16", "", "", "", "", ""]
    expect(page.locator(".flash-saved")).to_have_text("Hand 1: Ana knocks, 2 against 18. Ana scores 16 → game 1.")
    hand = player.export()["hands"][0]
    assert hand == {"knocker": "Ana", "knocker_deadwood": 2, "opponent_deadwood": 18,
                    "cards": {"knocker": grid_order(KNOCKER), "defender": grid_order(DEFENDER)}}
    page.get_by_role("link", name="Edit hand 1").click()
    page.wait_for_url(f"**/matches/{match_id}/hands/1")
    cards = page.locator(".counted-cards")
    expect(cards).to_contain_text("Ana: ")
    expect(cards).to_contain_text("3 of spades")
    expect(cards).to_contain_text("Ben: ")
    expect(cards).to_contain_text("queen of hearts")


def test_count_cards_by_taps_then_save_the_hand(page, player):
    match_id = player.new_match("Ana", "Ben")
    form = page.locator("#hand-form")
    form.locator("label[for=knocker-1]").tap()
    link = page.get_by_role("link", name="Count cards")
    expect(link).to_have_attribute("href", f"/matches/{match_id}/count?knocker=Ana")
    link.tap()
    page.wait_for_url(f"**/matches/{match_id}/count?knocker=Ana")
    count_url = page.url

    # Large targets, and the grid fits the phone's width.
    box = page.locator("label[for=k-10H]").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    expect(page.locator("[data-role=count-submit]").first).to_be_hidden()  # the script counts on each tap
    expect(page.locator("#k-title")).to_have_text("Ana's cards (knocker)")
    expect(page.locator("#d-title")).to_have_text("Ben's cards (defender)")

    tap_cards(page, "k", KNOCKER[:9])
    expect(result(page, "k").locator("[data-role=status]")).to_have_text("9 of 10 cards tapped.")
    tap_cards(page, "k", KNOCKER[9:])
    knocker = result(page, "k")
    expect(knocker.locator("[data-role=status]")).to_have_text("May knock with 2 (within the knock limit 10).")
    expect(knocker.locator(".meld")).to_have_count(3)
    expect(knocker.locator("[data-role=deadwood]")).to_contain_text("2 of clubs")
    expect(knocker.locator("[data-role=points]")).to_have_text("2")
    expect(page.locator("#d-7H")).to_be_disabled()  # a card in the knocker's hand is not the defender's

    tap_cards(page, "d", DEFENDER)
    defender = result(page, "d")
    expect(defender.locator("[data-role=status]")).to_have_text("Deadwood 18 after laying off 4 cards.")
    expect(defender.locator(".meld")).to_have_count(1)
    for name in ("2 of spades", "6 of spades", "8 of hearts", "queen of hearts"):
        expect(defender.locator("[data-role=laid_off]")).to_contain_text(name)
    expect(defender.locator("[data-role=points]")).to_have_text("18")
    assert page.url == count_url  # counted without a reload

    # A mistaken tap is taken back and counted again.
    page.locator("label[for=d-AH]").tap()
    expect(defender.locator("[data-role=status]")).to_have_text("The defender holds 10 cards; untap one.")
    page.locator("label[for=d-AH]").tap()
    expect(defender.locator("[data-role=status]")).to_have_text("Deadwood 18 after laying off 4 cards.")

    use_the_counts(page, match_id)
    expect(form.locator("[data-role=preview]")).to_have_text("Ana scores 16 → game 1.")
    form.get_by_role("button", name="Save hand").tap()
    check_saved_hand(page, player, match_id)


@pytest.fixture
def context_options(request) -> dict:
    """As the shared fixture, unless a test asks for other options (no script)."""
    return getattr(request, "param", {})


@pytest.mark.parametrize("context_options", [{"java_script_enabled": False}], indirect=True)
def test_count_cards_without_script(page, player):
    """The grid is a plain GET form: tap, press Count, the server answers."""
    match_id = player.new_match("Ana", "Ben")
    page.goto(f"/matches/{match_id}/count")
    expect(page.locator("#k-title")).to_have_text("Knocker's cards (knocker)")
    page.locator("label[for=knocker-1]").tap()
    tap_cards(page, "k", KNOCKER)
    page.locator("[data-role=count-submit]").first.tap()
    page.wait_for_url(re.compile(r"/count\?knocker=Ana&k=3S"))
    expect(page.locator("#k-title")).to_have_text("Ana's cards (knocker)")
    expect(result(page, "k").locator("[data-role=status]")).to_have_text(
        "May knock with 2 (within the knock limit 10).")
    expect(page.locator("#d-7H")).to_be_disabled()

    tap_cards(page, "d", DEFENDER)
    page.locator("[data-role=count-submit]").last.tap()
    page.wait_for_url(re.compile(r"&d=2S"))
    expect(result(page, "d").locator("[data-role=status]")).to_have_text("Deadwood 18 after laying off 4 cards.")

    use_the_counts(page, match_id).get_by_role("button", name="Save hand").tap()
    check_saved_hand(page, player, match_id)


@pytest.mark.parametrize("context_options", [{"java_script_enabled": False}], indirect=True)
def test_use_these_counts_without_script_needs_no_count_first(page, player):
    """Tapped cards go straight to the hand form: the server counts them on the way."""
    match_id = player.new_match("Ana", "Ben")
    page.goto(f"/matches/{match_id}/count")
    page.locator("label[for=knocker-2]").tap()
    tap_cards(page, "k", KNOCKER)
    tap_cards(page, "d", DEFENDER)
    expect(use_the_counts(page, match_id, seat=2).locator(".counted-cards")).to_contain_text("Ben: ")




@pytest.mark.parametrize("context_options", [{"bypass_csp": True}], indirect=True)  # axe is injected script
def test_count_page_accessibility_light_and_dark(page, player, axe_script):
    """axe finds nothing serious on the grid with hands tapped, in both colour schemes."""
    match_id = player.new_match("Ana", "Ben")
    page.goto(f"/matches/{match_id}/count?knocker=Ana&" + "&".join(f"k={c}" for c in KNOCKER)
              + "&" + "&".join(f"d={c}" for c in DEFENDER))
    page.add_script_tag(path=axe_script)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")["violations"]
        serious = [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
                   for v in found if v["impact"] in ("serious", "critical")]
        assert not serious, f"({scheme}) " + "; ".join(serious)
