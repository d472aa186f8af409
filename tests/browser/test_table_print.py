"""A table of three or four on paper (issue 46): its page and its whole sheet printed on A4 and on Letter carry
every deal's row with its boards beneath, what each player pays or gets, no entry form, and nothing past the
right edge; a finished evening's match is one page, a 40-deal one a few."""
from __future__ import annotations

import json
import re
import shutil
import subprocess  # nosec B404: pdftotext, a fixed program with fixed arguments

import pytest

from tests.browser.conftest import CASES, Player, in_ci
from tests.browser.driver import phone
from tests.browser.test_sheet_print_big import page_count

pytestmark = pytest.mark.browser

WHOLE, CHOUETTE, LONG = "partners-hollywood-whole-match", "chouette-four-hollywood", "forty-draws"
MINUS = "\u2212"


def table_doc(name: str) -> tuple[dict, dict | None]:
    if name == LONG:  # forty deals of partners, both boards drawn: never finished, 120 rows
        return {"table": "partners", "players": ["Ana", "Ben", "Cy", "Dan"], "first_dealer": "Ana",
                "hands": [{"boards": [{"draw": True}, {"draw": True}]}] * 40}, None
    doc = json.loads((CASES / "tables" / f"{name}.json").read_text())
    return doc, doc.pop("expected")


@pytest.fixture(scope="module")
def tables(browser, server) -> dict[str, int]:
    context = phone(browser, server, touch=False)
    someone = Player(context.new_page())
    ids = {name: someone.import_by_paste(table_doc(name)[0]) for name in (WHOLE, CHOUETTE, LONG)}
    context.close()
    return ids


def pdf_text(pdf: bytes) -> str:
    if shutil.which("pdftotext") is None:
        if in_ci():
            pytest.fail("pdftotext is missing (CI=true): apt-get install -y poppler-utils", pytrace=False)
        pytest.skip("pdftotext not found: apt-get install -y poppler-utils")
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True,  # nosec
                          timeout=30).stdout.decode("utf-8")


def printed(page, path: str, size: str) -> tuple[bytes, str]:
    page.goto(path)
    page.emulate_media(media="print")
    assert page.locator(".board-entry, #deal-form").evaluate_all(
        "els => els.filter(e => e.offsetParent !== null).length") == 0, "the entry form is printed"
    # nothing past the right edge: every drawn element ends inside the page's width
    widest = page.evaluate("""() => Math.max(...[...document.querySelectorAll('main *')]
        .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().right))""")
    assert widest <= page.evaluate("document.documentElement.clientWidth"), widest
    pdf = page.pdf(format=size)
    return pdf, pdf_text(pdf)


def said(net: int) -> str:
    return f"{'+' if net > 0 else MINUS if net else ''}{abs(net):,}"


@pytest.mark.parametrize("size", ["A4", "Letter"])
@pytest.mark.parametrize("where", ["", "/sheet"], ids=["page", "whole-sheet"])
@pytest.mark.parametrize("name", [WHOLE, CHOUETTE])
def test_a_finished_table_prints_its_deals_boards_and_money_on_one_page(page, tables, name, where, size):
    _, expected = table_doc(name)
    pdf, text = printed(page, f"/matches/{tables[name]}{where}", size)
    assert page_count(pdf) == 1
    lines = text.splitlines()
    for hand in expected["hands"]:
        deal = [line for line in lines if re.match(rf"\s*{hand['number']}\s+{re.escape(hand['dealer'])}\s", line)]
        assert deal and deal[0].rstrip().endswith(str(hand["points"])), (hand["number"], deal)
        for board in hand["boards"]:
            pair = f"{board['players'][0]}–{board['players'][1]} ({board['dealer']})"
            assert any(pair in line and line.rstrip().endswith(f" {board['points']}") for line in lines), pair
    assert "What each player pays or gets" in text
    for player, net in expected["player_net"].items():
        assert re.search(rf"{player}: {re.escape(said(net))}(\s|$)", text), (player, net)
    assert "Save the deal" not in text and "Check the deal" not in text


@pytest.mark.parametrize("size", ["A4", "Letter"])
def test_forty_deals_print_on_a_few_pages_every_row_kept(page, tables, size):
    pdf, text = printed(page, f"/matches/{tables[LONG]}/sheet", size)
    assert 2 <= page_count(pdf) <= 4, page_count(pdf)
    deals = re.findall(r"^\s*(\d+)\s+(?:Ana & Cy|Ben & Dan)\s+draw\s+0\s*$", text, re.M)
    assert [int(n) for n in deals] == list(range(1, 41))
    assert len(re.findall(r"^\s+(?:Ana–Ben|Cy–Dan|Ana–Dan|Cy–Ben) \((?:Ana|Cy)\)\s+draw\s+0\s*$", text, re.M)) == 80
    for player in ("Ana", "Ben", "Cy", "Dan"):
        assert f"{player}: 0" in text
    for number, sheet in enumerate(text.split("\f"), start=1):  # no page parts a deal from its boards
        deal_rows = len(re.findall(r"^\s*\d+\s+(?:Ana & Cy|Ben & Dan)\s+draw", sheet, re.M))
        assert len(re.findall(r"^\s+\w+–\w+ \(\w+\)", sheet, re.M)) == 2 * deal_rows, number


NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= innerWidth"


def test_a_finished_tables_page_offers_the_share_the_picture_and_the_rematch_at_360(page, tables):
    page.goto(f"/matches/{tables[WHOLE]}")
    assert page.evaluate(NO_SIDEWAYS), page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    result = page.locator("section.result")
    share = result.locator("[data-share-button]")
    picture = result.get_by_role("link", name="The final sheet as a picture")
    rematch = result.get_by_role("button", name="Rematch")
    for control in (share, rematch, page.get_by_role("link", name="Deals as CSV"),
                    page.get_by_role("link", name="The whole sheet")):
        box = control.bounding_box()
        assert box and box["height"] >= 44 and box["x"] + box["width"] <= 360, box
    assert picture.is_visible()
    share_text = result.locator(".share-text").text_content()
    assert "What each player pays or gets: " in share_text and "Karel" in share_text
    picture_answer = page.request.get(picture.get_attribute("href"))
    assert picture_answer.ok and "Karel" in picture_answer.text()
