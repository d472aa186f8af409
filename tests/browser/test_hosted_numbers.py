"""A hosted table's matches at 360 x 740, numbered at the table (issue 37, point 6).

Tables A and B start matches in turn (A, B, B, A, B, A): the ids are A's 1, 4, 6. On A's phones the
address bar, every link and the live region's tag say 1, 2, 3; a hand saved with the script on match 2
stays on match 2's address and reaches the other phone following it.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.driver import phone
from tests.server import Server
from tests.test_tables import HOSTED, new_match, start_table

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-37")
PLAYED = {"A": (("Ana", "Ben"), ("Ben", "Ana"), ("Ana", "Cleo")),
          "B": (("Zoltan", "Yvette"), ("Yvette", "Zoltan"), ("Zoltan", "Xena"))}


@pytest.fixture(scope="module")
def two_tables():
    """A hosted server with tables A and B, their three matches each started in turn: (base, A, B)."""
    workdir = Path(tempfile.mkdtemp(prefix="gin-ledger-numbers-"))
    try:
        with Server(workdir / "ledger.sqlite", threads=4, env=HOSTED) as server:
            clients = {name: server.client() for name in "AB"}
            tables = {name: start_table(client, f"Club {name}") for name, client in clients.items()}
            made = {"A": [], "B": []}
            for name in "ABBABA":
                made[name].append(new_match(clients[name], tables[name], PLAYED[name][len(made[name])]))
            assert made == {"A": [1, 2, 3], "B": [1, 2, 3]}
            yield server.base, tables["A"], tables["B"]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def match_numbers(page) -> set[int]:
    """Every match number in the page's links, forms and live region's tag."""
    addresses = page.eval_on_selector_all("[href], [action], [data-live-url]", "nodes => nodes.map(n =>"
                                          " (n.getAttribute('href') || '') + ' ' + (n.getAttribute('action') || '')"
                                          " + ' ' + (n.getAttribute('data-live-url') || ''))")
    found = {int(number) for text in addresses for number in re.findall(r"/matches/(\d+)", text)}
    live = page.query_selector("#live")
    tag = live.get_attribute("data-etag") if live else None
    return found | ({int(tag.strip('"').split("-")[0])} if tag else set())


def test_table_a_sees_its_matches_1_2_3_and_a_saved_hand_stays_on_its_number(browser, two_tables):
    base, a, _b = two_tables
    SHOTS.mkdir(exist_ok=True)
    one = phone(browser, base).new_page()
    one.goto(a)
    links = one.eval_on_selector_all(f"a[href^='{a}matches/']", "nodes => nodes.map(n => n.getAttribute('href'))")
    assert sorted({int(m) for m in re.findall(r"matches/(\d+)", " ".join(links))}) == [1, 2, 3]
    one.screenshot(path=str(SHOTS / "a-home.png"), full_page=True)
    one.goto(f"{a}matches/2")
    expect(one.locator("h1.match-title")).to_contain_text("Ben")
    assert match_numbers(one) == {2}
    other = phone(browser, base).new_page()
    other.goto(f"{a}matches/2")
    one.locator("label[for=knocker-1]").click()
    one.locator("label[for=kd-3]").click()
    one.fill("[name=opponent_deadwood]", "20")
    one.get_by_role("button", name="Save hand").click()
    expect(one.locator("#hand-1")).to_be_visible()
    assert re.fullmatch(rf"{re.escape(base + a)}matches/2(#.*)?", one.url), one.url
    assert match_numbers(one) == {2}
    expect(other.locator("#hand-1")).to_be_visible(timeout=30_000)  # followed by its number's tag
    assert match_numbers(other) == {2}
    one.screenshot(path=str(SHOTS / "a-match2-saved.png"))
    one.goto(f"{a}matches/2/history")
    assert match_numbers(one) == {2}
    one.screenshot(path=str(SHOTS / "a-history2.png"), full_page=True)
