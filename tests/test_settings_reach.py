"""Each rule setting reaches the new-match form, the "Adjust rules" grid, "Rules of this match", the
printed head and the match file from its declaration alone (models/game/rules.py): every declared
setting, set off its default through the form, is shown and kept; and a setting declared anew, in a
copy of the app and nowhere else, is asked, listed, printed and written with the others."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from webutil import export, hidden

from models.game.rules import SETTINGS, TABLE_SETTING, Rules

ROOT = Path(__file__).resolve().parents[1]


def off_default(name: str):
    """A value of the setting other than its default, within its bounds."""
    declared, default = SETTINGS[name], getattr(Rules(), name)
    if declared.kind is bool:
        return not default
    if declared.kind is int:
        return default + 1 if default < declared.high else default - 1
    return next(word for word in declared.choices if word != default)


def as_sent(name: str, value) -> str:
    """The value as the new-match form sends it."""
    if SETTINGS[name].kind is bool:
        return "y" if SETTINGS[name].ticked else ("on" if value else "off")
    return str(value.value if hasattr(value, "value") else value)


def rules_list(page: str) -> list[tuple[str, str]]:
    shown = re.search(r'<details class="rules-shown">.*?</details>', page, re.S).group(0)
    return [(unescape(title), " ".join(unescape(words).split()))
            for title, words in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", shown, re.S)]


def printed_head(page: str) -> str:
    head = re.search(r'<h2 id="sheet-title" class="print-head">.*?<span class="print-only">(.*?)</span></h2>',
                     page, re.S)
    return " ".join(unescape(head.group(1)).split())


def start(client, **settings) -> int:
    form = client.get("/matches/new").get_data(as_text=True)
    sent = {"csrf_token": hidden(form, "csrf_token"), "players": ["Ana", "Ben"], "format": "hollywood",
            "preset": "classic", "first_dealer": "1", **settings}
    answer = client.post("/matches/new", data=sent)
    assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
    return int(answer.headers["Location"].rstrip("/").split("/")[-1])


def on_the_form_of_two() -> list:
    """Every setting the form sets: those of tables of three and four with the seats of a table of partners."""
    return list(SETTINGS)


@pytest.mark.parametrize("name", on_the_form_of_two())
def test_every_setting_set_on_the_form_is_listed_printed_and_kept(client, name):
    declared = SETTINGS[name]
    value = off_default(name)
    # What the setting needs on to matter (Oklahoma's ace and doubled boxes) is set too.
    needed = {"oklahoma": "y", "spade_double": "on"} if declared.applies else {}
    if declared.tables_only:  # a setting of tables of three and four: a table of partners sets it
        needed = {"table": "partners", "players": ["Ana", "Ben", "Cy", "Dan"]}
    form = client.get("/matches/new").get_data(as_text=True)
    assert f'name="{name}"' in form and declared.label in unescape(form), name
    match_id = start(client, **{**needed, name: as_sent(name, value)})
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    doc = export(client, match_id)
    kept = doc[name] if name == TABLE_SETTING else doc["rules"][name]  # the table is the file's own key
    assert kept == (value.value if hasattr(value, "value") else value)
    # Its words on "Rules of this match": its own line, or its aside in brackets on another line.
    words = declared.listed_words().template(value) or ""
    words = words % {"value": value} if "%(value)s" in words else words
    lines = rules_list(page)
    if declared.listed.aside:
        assert any(f"({words}" in said or f"; {words}" in said for _, said in lines), (name, words, lines)
    else:
        title = declared.listed.title or declared.label
        assert any(shown == title and (said == words or said.startswith(words + " (")) for shown, said in lines), (
            name, words, lines)
    if declared.said is not None:
        phrase = declared.said.words.template(value) or ""
        assert phrase.replace("%(value)s", str(value)) in printed_head(page), (name, printed_head(page))


MADE_UP_CHOICE = '''
class Misdeal(Choice):
    """What a misdeal costs (a setting declared only by tests/test_settings_reach.py)."""

    REDEAL = "redeal", N_("the same dealer deals again")
    PENALTY = "penalty", N_("the dealer pays 10")


'''
MADE_UP_SETTING = '''    misdeal: Misdeal = setting(
        Misdeal.REDEAL, label=N_("After a misdeal"), doc="What a misdeal costs.",
        listed=Listed(title=N_("Misdeal")), said=Said(20, words({Misdeal.PENALTY: N_("misdeal penalty")})))
    kitty: int = setting(0, low=0, high=50, label=N_("Kitty per game"), doc="Paid into the kitty for each game.")

'''
# Run in the copy of the app: the new-match form, a match started with the setting off its default, its
# page and its file, as JSON on stdout.
DRIVE = '''
import json, re, sys
from app import create_app
from views.site import db

app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "test"})
client = app.test_client()
form = client.get("/matches/new").get_data(as_text=True)
token = re.search(r'name="csrf_token"[^>]*value="([^"]*)"', form).group(1)
sent = {"csrf_token": token, "players": ["Ana", "Ben"], "format": "hollywood", "preset": "classic",
        "first_dealer": "1", "misdeal": "penalty", "kitty": "5"}
answer = client.post("/matches/new", data=sent)
match = answer.headers["Location"].rstrip("/").split("/")[-1]
page = client.get(f"/matches/{match}").get_data(as_text=True)
print(json.dumps({"form": form, "status": answer.status_code, "page": page,
                  "file": client.get(f"/matches/{match}.json").get_json()}))
db.close_app(app)
'''


def app_with_a_new_setting(folder: Path) -> Path:
    """A copy of the app whose models/game/rules.py declares one setting more, and nothing else changed."""
    copy = folder / "app"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", "node_modules", "tests", "bench", "docs",
                                                              "instance", "__pycache__", ".pytest_cache"))
    rules = copy / "models" / "game" / "rules.py"
    source = rules.read_text(encoding="utf-8")
    for anchor, added in (("@dataclass(frozen=True)\nclass Rules:", MADE_UP_CHOICE),
                          ("    def __post_init__(self)", MADE_UP_SETTING)):
        assert source.count(anchor) == 1, anchor
        source = source.replace(anchor, added + anchor)
    rules.write_text(source, encoding="utf-8")
    return copy


@pytest.mark.slow  # a copy of the app in a process of its own
def test_a_setting_declared_anew_reaches_the_form_the_page_the_print_and_the_file(tmp_path, database):
    copy = app_with_a_new_setting(tmp_path)
    ran = subprocess.run([sys.executable, "-c", DRIVE, database], cwd=copy, capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr[-3000:]
    seen = json.loads(ran.stdout)
    # The form asks it in the "Adjust rules" grid, after the others, with its words.
    grid = re.search(r'<details class="rules".*?</details>', seen["form"], re.S).group(0)
    asked = re.findall(r'<select id="(\w+)"', grid)
    assert asked[-1] == "misdeal" and asked[:-1] == [name for name in asked[:-1] if name in SETTINGS]
    select = re.search(r'<select id="misdeal" name="misdeal">(.*?)</select>', grid, re.S).group(1)
    assert re.findall(r'value="(\w*)"', select) == ["", "redeal", "penalty"]
    assert "the dealer pays 10" in select and '<label for="misdeal">After a misdeal</label>' in grid
    # One declared with no place or words at all is asked after it, a number in a narrow cell.
    assert re.search(r'<div><label for="kitty">Kitty per game</label> <input[^>]*name="kitty"[^>]*placeholder="0"',
                     grid.split('id="misdeal"')[1])
    # A Classic preset's line says nothing of it: it is Classic's value.
    assert "misdeal" not in re.search(r'<legend>Rules</legend>.*?</fieldset>', seen["form"], re.S).group(0)
    # The match keeps it: its page lists it after the others, its print says it, its file writes it.
    assert seen["status"] == 302
    lines = rules_list(seen["page"])
    assert lines[-3:] == [("Misdeal", "the dealer pays 10"), ("Kitty per game", "5"), ("First dealer", "Ana")], lines
    assert printed_head(seen["page"]).endswith(
        "Hollywood to 100, gin 25, undercut 10, box 25, game 100, misdeal penalty")
    assert seen["file"]["rules"]["misdeal"] == "penalty" and seen["file"]["rules"]["kitty"] == 5
    # (A table of two's file writes no setting of the tables of three and four: it is as it was before them.)
    assert {name for name in seen["file"]["rules"]} == {
        *(name for name, declared in SETTINGS.items() if not declared.tables_only), "misdeal", "kitty"}
