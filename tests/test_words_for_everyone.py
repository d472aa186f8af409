"""Words that fit every player (issue 45): nothing a player reads or hears takes a gender.

English: no he/his/him/himself (nor she/her) in the catalogue (tests/test_i18n.py keeps it the code's own),
the templates, the page scripts and the docs a user reads. Czech and Slovak: no past tense that would take
the player's gender (a noun phrase or the present instead), and no "(a)" doubled ending. Albanian: no
"he who" / "she who" for whoever it is.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

pytestmark = pytest.mark.sqlite_only  # words only

ROOT = Path(__file__).resolve().parents[1]
ENGLISH = re.compile(r"\b(he|his|him|himself|she|her|hers|herself)\b", re.IGNORECASE)
# The past tense of what a player does at the table (knock, play, win, lose, score, come), in the forms that
# take a gender: masculine -l, feminine -la, plural -li/-ly ("přišel" alone is left out: a form comes too);
# "psal" too, as "jste psali" takes the reader's.
# The neuter of an impersonal "se nehrálo" is no one's, and so is a thing's ("zápas skončil").
SLAVIC = re.compile(r"\b\w*(klepal|klopal|hrál|hral|získal|ziskal|psal|písal)[aiy]?\b|\b\w*(přišl|prišl)[aiy]\b"
                    r"|\w\((a|la|i|y)\)", re.IGNORECASE)
ALBANIAN = re.compile(r"\b(ai|ajo) që\b", re.IGNORECASE)


def texts(lang: str):
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        for message in read_po(po):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            yield ids[0], [*ids, *strings] if lang == "en" else [s for s in strings if s]


def user_files():
    yield from sorted((ROOT / "templates").rglob("*.html"))
    yield from sorted((ROOT / "templates").rglob("*.svg"))
    yield from sorted((ROOT / "static").glob("*.js"))
    yield ROOT / "README.md"
    yield from (ROOT / "docs" / name for name in ("RULES.md", "MATCHFILE.md"))


def test_the_english_words_take_no_gender():
    found = [(msgid, hit.group(0)) for msgid, said in texts("en") for text in said for hit in ENGLISH.finditer(text)]
    for path in user_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found += [(f"{path.relative_to(ROOT)}:{number}", hit.group(0)) for hit in ENGLISH.finditer(line)]
    assert found == []


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_czech_and_slovak_take_no_gender_in_the_past(lang):
    found = [(msgid, hit.group(0)) for msgid, said in texts(lang) for text in said for hit in SLAVIC.finditer(text)]
    assert found == []


def test_albanian_says_whoever():
    found = [(msgid, hit.group(0)) for msgid, said in texts("sq") for text in said for hit in ALBANIAN.finditer(text)]
    assert found == []


@pytest.mark.parametrize("pattern, text", [(ENGLISH, "a player keeps his rating"), (ENGLISH, "He knocks"),
                                           (SLAVIC, "Kdo zaklepal?"), (SLAVIC, "nehrál(a)"),
                                           (SLAVIC, "ktorí prišli"), (ALBANIAN, "ai që mban serverin")])
def test_the_checks_catch_what_they_look_for(pattern, text):
    assert pattern.search(text)


@pytest.mark.parametrize("pattern, text", [(ENGLISH, "the hand, then the sheet"), (SLAVIC, "Zatím se nehrálo."),
                                           (SLAVIC, "zápas skončil"), (ALBANIAN, "kush mban serverin")])
def test_the_checks_pass_what_fits_everyone(pattern, text):
    assert not pattern.search(text)
