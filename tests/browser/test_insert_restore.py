"""A forgotten hand inserted before hand 2 through the form, and a deleted hand restored, on a 360x740 phone."""
import os

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SHOTS")  # a folder: the screens are kept there to look at


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_a_hand_is_inserted_before_hand_2_and_a_deleted_one_restored(player, page, case):
    doc = case("seed001-ana-ben")[0]
    match_id = player.import_by_paste(doc)
    before = player.export()["hands"]
    page.goto(f"/matches/{match_id}/hands/2")
    page.get_by_role("link", name="Insert a hand before hand 2").click()
    expect(page.get_by_role("heading", name="Insert a hand before hand 2")).to_be_visible()
    shot(page, "insert-form")
    form = page.locator("form", has=page.get_by_role("button", name="Save as points"))
    form.locator("label.pick", has_text="Ben").click()
    form.locator("input[name=points]").fill("12")
    form.get_by_role("button", name="Save as points").click()
    page.wait_for_url("**#told")  # where the list of what moved is read
    expect(page.locator(".flashes")).to_contain_text("Inserted as hand 2")
    after = player.export()["hands"]
    assert after[1] == {"winner": "Ben", "points": 12} and after[2:] == before[1:]

    page.goto(f"/matches/{match_id}/hands/3/delete")
    page.get_by_role("button", name="Delete hand 3").click()
    expect(page.locator(".flashes")).to_contain_text("Hand 3 deleted")
    assert len(player.export()["hands"]) == 6
    page.get_by_role("button", name="Restore hand 3").click()
    expect(page.locator(".flashes")).to_contain_text("Hand 3 restored")
    assert player.export()["hands"] == after

    page.goto(f"/matches/{match_id}")
    page.get_by_role("link", name="History of the hands").click()
    expect(page.locator("ol.history li").first).to_contain_text("Hand 3 restored on")
    expect(page.locator("ol.history")).to_contain_text("Hand 2 inserted on")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    shot(page, "history-page")
