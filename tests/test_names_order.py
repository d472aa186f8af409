"""Issue 23, finding 8a: names are listed in reading order for the page's language (8b: and file names
keep every letter of them, below).

The Unicode Collation Algorithm (pyuca) for every language, with each language's own letters after the
letter they follow (Czech and Slovak č, ch, ř, š, ž, Slovak ä and ô, Albanian ç, dh, ë, gj, ll, nj, rr, sh,
th, xh, zh: CLDR's tailorings). SQLite's NOCASE folds ASCII only and sorted Ëndrit, Łukasz and Žofia
after Zoë.
"""
from __future__ import annotations

import io
import re
import zipfile
from html import unescape

import pytest
from werkzeug.http import parse_options_header

from webutil import new_match

OTHERS = ["Zuzana", "Žofia", "Zoë", "Sokol", "Shpend", "Łukasz", "Ivo", "Hana", "Eva", "Ëndrit", "Cyril",
          "Chris", "Čeněk", "Äda"]

ORDER = {
    "en": ["Äda", "Ana", "Čeněk", "Chris", "Cyril", "Ëndrit", "Eva", "Hana", "Ivo", "Łukasz", "Shpend", "Sokol",
           "Zoë", "Žofia", "Zuzana"],
    "cs": ["Äda", "Ana", "Cyril", "Čeněk", "Ëndrit", "Eva", "Hana", "Chris", "Ivo", "Łukasz", "Shpend", "Sokol",
           "Zoë", "Zuzana", "Žofia"],
    "sk": ["Ana", "Äda", "Cyril", "Čeněk", "Ëndrit", "Eva", "Hana", "Chris", "Ivo", "Łukasz", "Shpend", "Sokol",
           "Zoë", "Zuzana", "Žofia"],
    "sq": ["Äda", "Ana", "Čeněk", "Chris", "Cyril", "Eva", "Ëndrit", "Hana", "Ivo", "Łukasz", "Sokol", "Shpend",
           "Zoë", "Žofia", "Zuzana"],
}
IDS = {name: number for number, name in enumerate(["Ana", *OTHERS], start=1)}  # players numbered as first seen


@pytest.fixture
def table(client):
    for name in OTHERS:
        new_match(client, players=("Ana", name))
    return client


def players_listed(page: str) -> list[str]:
    listing = page.split('<ul class="matches">', 1)[1].split("</ul>", 1)[0]
    return [unescape(name) for name in re.findall(r"<strong>([^<]+)</strong>", listing)]


@pytest.mark.parametrize("lang", sorted(ORDER))
def test_the_players_list_is_in_reading_order(table, lang):
    page = table.get(f"/players?lang={lang}").get_data(as_text=True)
    assert players_listed(page) == ORDER[lang]
    # The tidy-up forms list them in the same order.
    renames = re.findall(r'<input id="rename-(\d+)"', page)
    assert [int(found) for found in renames] == [IDS[name] for name in ORDER[lang]]


@pytest.mark.parametrize("lang", sorted(ORDER))
def test_a_players_opponents_are_in_reading_order(table, lang):
    page = table.get(f"/players/1?lang={lang}").get_data(as_text=True)
    chips = page.split('<ul class="chips">', 1)[1].split("</ul>", 1)[0]
    opponents = [unescape(name) for name in re.findall(r'<a class="button" href="[^"]+">[^<]*?vs ([^<]+)</a>', chips)]
    if lang == "en":
        assert opponents == [name for name in ORDER[lang] if name != "Ana"]
    links = re.findall(r'href="/players/1/vs/(\d+)"', chips)
    assert [int(link) for link in links] == [IDS[name] for name in ORDER[lang] if name != "Ana"]


# --------------------------------------------------------------------------
# Finding 8b: file names keep every letter
# --------------------------------------------------------------------------

def disposition(response) -> str:
    return response.headers["Content-Disposition"]


def test_a_match_file_name_keeps_every_letter_beside_an_ascii_fallback(client):
    match_id = new_match(client, players=("Žofia", "Łukasz"))
    for ext in ("json", "csv"):
        header = disposition(client.get(f"/matches/{match_id}.{ext}?download=1"))
        assert header == (f'attachment; filename="gin-ledger-{match_id}-Zofia-Lukasz.{ext}"; '
                          f"filename*=UTF-8''gin-ledger-{match_id}-%C5%BDofia-%C5%81ukasz.{ext}")
        name = parse_options_header(header)[1]["filename"]
        assert name == f"gin-ledger-{match_id}-Žofia-Łukasz.{ext}"  # what a browser saves


def test_an_ascii_name_needs_no_second_name_and_nothing_unsafe_is_kept(client):
    plain = new_match(client, players=("Ana", "Ben"))
    assert disposition(client.get(f"/matches/{plain}.json?download=1")) == \
        f'attachment; filename="gin-ledger-{plain}-Ana-Ben.json"'
    odd = new_match(client, players=("O'Neil / \"Bo\"", "Олег"))
    header = disposition(client.get(f"/matches/{odd}.json?download=1"))
    assert header == (f'attachment; filename="gin-ledger-{odd}-ONeilBo-player.json"; '
                      f"filename*=UTF-8''gin-ledger-{odd}-ONeilBo-%D0%9E%D0%BB%D0%B5%D0%B3.json")


def test_the_zip_keeps_every_letter_in_its_entries_and_names_itself(client):
    first = new_match(client, players=("Žofia", "Łukasz"))
    second = new_match(client, players=("Zoë", "Ëndrit"))
    response = client.get("/export.zip")
    assert disposition(response) == 'attachment; filename="gin-ledger-matches.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.data))
    assert sorted(archive.namelist()) == sorted([f"gin-ledger-{first}-Žofia-Łukasz.json",
                                                 f"gin-ledger-{second}-Zoë-Ëndrit.json"])
    assert all(info.flag_bits & 0x800 for info in archive.infolist())  # marked UTF-8, as unzip tools read it
