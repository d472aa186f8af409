"""The printed sheet of an Oklahoma evening with variants: the head names every rule that is not
Classic's, and each hand's row its upcard as a card (3♥), on A4 and on Letter.

Set SHOTS to a folder to keep the PDFs and their pages as PNGs (pdftoppm) to look at.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Player
from tests.browser.driver import phone
from tests.server import Client
from tests.test_words import oklahoma_match

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SHOTS")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# Each rule not Classic's as the printed head words it (views/match/rule_words.rules_summary)
WORDS = ["Hollywood to 150, gin 25, undercut 10, box 25, game 100", "shutout bonus 50", "the loser deals",
         "Oklahoma, spade doubles", "a tie goes to the knocker", "boxes count at once", "doubled boxes",
         "ace knocks at 1"]


@pytest.fixture(scope="module")
def oklahoma(browser, server) -> tuple[int, dict]:
    context = phone(browser, server, touch=False)
    doc = oklahoma_match()  # the same Oklahoma match with variants as tests/test_words.py prints
    match_id = Player(context.new_page()).import_by_paste(doc)
    context.close()
    return match_id, doc


def page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def face(code: str) -> str:
    return code[:-1] + SUITS[code[-1]]


@pytest.mark.parametrize("size", ["A4", "Letter"])
def test_the_printed_sheet_names_the_variants_and_shows_the_upcards(page, oklahoma, size, tmp_path):
    match_id, doc = oklahoma
    page.goto(f"/matches/{match_id}")
    upcards = page.locator(".sheet tr.hand .upcard")
    expect(upcards.first).to_be_hidden()  # on the phone the row's second line says the hand; the card is for paper
    page.emulate_media(media="print")
    head = page.locator("#sheet-title .print-only")
    expect(head).to_be_visible()
    said = " ".join(head.inner_text().split())
    for words in WORDS:
        assert words in said, (words, said)
    # Every hand dealt with an upcard shows it as a card, in its row; a typed-points hand has none.
    expected = [f"· upcard {face(hand['upcard'])}" for hand in doc["hands"] if "upcard" in hand]
    assert [" ".join(t.split()) for t in upcards.all_inner_texts()] == expected
    for number, hand in enumerate(doc["hands"], 1):
        row = page.locator(f"#hand-{number}")
        assert row.locator(".upcard").count() == (1 if "upcard" in hand else 0), number
        if "upcard" in hand:
            expect(row.locator(".upcard")).to_be_visible()
            assert hand["upcard"] not in row.inner_text()
    # Nothing of the sheet is cut off at the paper's edge: the note column with its upcard fits.
    pdf = page.pdf(format=size)
    assert page_count(pdf) == 1
    path = Path(SHOTS or tmp_path) / f"oklahoma-{size}.pdf"
    path.write_bytes(pdf)
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                              check=True).stdout
        flat = " ".join(text.split())
        for words in ("shutout bonus 50", "boxes count at once", "ace knocks at 1"):
            assert words in flat, (words, flat[:600])
        for code in {hand["upcard"] for hand in doc["hands"] if "upcard" in hand}:
            assert f"upcard {face(code)}" in flat, (code, flat)
    if SHOTS and shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "110", str(path), str(path.with_suffix(""))], check=True)


NO_SPADES = {"en": ("Oklahoma, no spade doubling", "doubled boxes"),
             "cs": ("Oklahoma, pik nezdvojnásobuje", "zdvojnásobené čárky"),
             "sk": ("Oklahoma, pika nezdvojnásobuje", "zdvojnásobené čiarky"),
             "sq": ("Oklahoma, maçi nuk dyfishon", "raunde të fituara të dyfishuara")}


@pytest.mark.parametrize("lang", sorted(NO_SPADES))
def test_the_printed_head_says_no_spade_doubling_and_no_doubled_boxes_when_off(page, server, lang):
    """Spade doubling off: the head says so, and the doubled boxes (which only a doubled hand earns) go unsaid."""
    doc = {"format": "hollywood", "players": ["Ana", "Ben"], "first_dealer": "Ana", "hands": [],
           "rules": {"oklahoma": True, "spade_double": False, "spade_double_boxes": True}}
    match_id = Client(server).import_match(doc)
    page.goto(f"/matches/{match_id}?lang={lang}")
    page.emulate_media(media="print")
    said = " ".join(page.locator("#sheet-title .print-only").inner_text().split())
    says, unsaid = NO_SPADES[lang]
    assert says in said and unsaid not in said, said
