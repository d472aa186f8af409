"""Languages: the catalogues are complete and current, every page speaks Czech, Slovak or Albanian
when asked (by Accept-Language or by the footer switch), and the CLI's language comes from the
environment while `replay`'s output never changes."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from html import escape, unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from flask_babel import gettext, ngettext

from views.site import i18n
from app import create_app
from models.game.entry import read_entry
from models.errors import MatchError
from models.game.rules import Rules
from tests.generate import long_match
from views.match.sheet import SHOWN_HANDS
from views.match.words import scores_phrase
from webutil import case, hidden, import_match, new_match, post_hand

pytestmark = pytest.mark.sqlite_only  # the languages: the database is incidental

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "translations"
LANGS = ("en", "cs", "sk", "sq")
OTHERS = ("cs", "sk", "sq")
PLURALS = {"en": 2, "cs": 3, "sk": 3, "sq": 2}
ACCEPT = {"cs": "cs-CZ,cs;q=0.9,en;q=0.5", "sk": "sk-SK,sk;q=0.9,cs;q=0.8,en;q=0.5", "sq": "sq-AL,sq;q=0.9,en;q=0.5"}

# What may stay as it is on a page in any language: people, the brand, the language names in the switch.
NAMES = ("Ana", "Ben", "Gin Ledger", "English", "Čeština", "Slovenčina", "Shqip")
# English words that are no word of Czech, Slovak or Albanian: any of them on such a page is a leftover.
ENGLISH_WORDS = ("the", "and", "of", "is", "with", "for", "your", "hand", "hands", "game", "games", "match",
                 "matches", "player", "players", "points", "scores", "deals", "dealt", "wins", "won", "knock",
                 "knocked", "knocker", "undercut", "deadwood", "lay-offs", "box", "boxes", "shutout", "draw",
                 "save", "undo", "delete", "rename", "merge", "refresh", "back", "next", "new", "count", "cards",
                 "rules", "stakes", "screen", "sheet", "import", "export", "open", "finished", "none")


def catalogue(lang: str):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as stream:
        return read_po(stream, locale=lang)


def entries(lang: str):
    return [message for message in catalogue(lang) if message.id]


# --------------------------------------------------------------------------
# The catalogues
# --------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_entry_is_translated_and_none_is_fuzzy(lang):
    cat = catalogue(lang)
    assert not cat.fuzzy, f"{lang}: the catalogue's header is marked fuzzy"
    assert cat.num_plurals == PLURALS[lang], (lang, cat.plural_forms)
    problems = []
    for message in entries(lang):
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        if isinstance(message.id, tuple):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            if len(forms) != PLURALS[lang] or not all(form.strip() for form in forms):
                problems.append(f"plural forms missing: {message.id!r} -> {forms!r}")
        elif not (message.string or "").strip():
            problems.append(f"empty: {message.id!r}")
    assert not problems, f"{lang}:\n" + "\n".join(problems)


def test_the_catalogues_hold_every_string_of_the_sources(tmp_path):
    """Extract as the README says; every msgid found must be in every catalogue, and nothing else."""
    pot = tmp_path / "messages.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-o", str(pot),
                                str(ROOT)])
    with open(pot, "rb") as stream:
        wanted = {message.id for message in read_po(stream) if message.id}
    assert len(wanted) > 300
    for lang in LANGS:
        have = {message.id for message in entries(lang)}
        assert wanted - have == set(), f"{lang} lacks {sorted(map(str, wanted - have))}: run pybabel update"
        assert have - wanted == set(), f"{lang} keeps strings no source uses: {sorted(map(str, have - wanted))}"


PLACEHOLDERS = re.compile(r"%\((\w+)\)[sd]|\{(\w+)(?:![rs])?\}|</?\w+>")


def placeholders(text: str) -> set[str]:
    return {match.group(0) for match in PLACEHOLDERS.finditer(text)}


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_every_placeholder_and_tag(lang):
    problems = []
    for message in entries(lang):
        if isinstance(message.id, tuple):
            wanted = placeholders(message.id[0]) | placeholders(message.id[1])
            forms = message.string
        else:
            wanted, forms = placeholders(message.id), (message.string,)
        for form in forms:
            if placeholders(form) != wanted:
                problems.append(f"{message.id!r}: {form!r}")
    assert not problems, "\n".join(problems)


def compiled(po_path: Path, lang: str) -> dict:
    with open(po_path, "rb") as stream:
        cat = read_po(stream, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, cat)
    buffer.seek(0)
    return Translations(fp=buffer)._catalog


def test_the_compiled_catalogues_the_app_reads_are_current(app):
    """The .mo files kept in git say what the .po files say: run `pybabel compile -d translations` after an edit."""
    folder = Path(app.config["BABEL_TRANSLATION_DIRECTORIES"])
    for lang in LANGS:
        mo = folder / lang / "LC_MESSAGES" / "messages.mo"
        assert mo.exists(), mo
        with open(mo, "rb") as stream:
            served = Translations(fp=stream)._catalog
        assert served == compiled(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", lang), lang


def tree_state(root: Path) -> dict:
    """Every file under the checkout (but caches the test run itself writes) with its size and time."""
    skip = {"__pycache__", ".pytest_cache", ".hypothesis", "node_modules", ".git"}
    return {path: (path.stat().st_size, path.stat().st_mtime_ns) for path in root.rglob("*")
            if path.is_file() and not skip & set(path.relative_to(root).parts)}


def test_the_app_writes_nothing_into_its_checkout(tmp_path):
    """A read-only checkout starts and speaks every language: nothing is compiled or kept beside the code."""
    before = tree_state(ROOT)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "test"})
    client = app.test_client()
    for lang in OTHERS:
        page = client.get("/", headers={"Accept-Language": ACCEPT[lang]}).get_data(as_text=True)
        assert html_lang(page) == lang
    assert tree_state(ROOT) == before


# --------------------------------------------------------------------------
# Choosing the language
# --------------------------------------------------------------------------

def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def test_accept_language_picks_the_language_and_the_switch_overrides_it(client):
    assert html_lang(client.get("/").get_data(as_text=True)) == "en"
    for lang, header in ACCEPT.items():
        page = client.get("/", headers={"Accept-Language": header})
        assert html_lang(page.get_data(as_text=True)) == lang
        assert "Accept-Language" in page.headers.get("Vary", "")
    assert html_lang(client.get("/", headers={"Accept-Language": "de-DE,fr;q=0.8"}).get_data(as_text=True)) == "en"
    # The footer's link keeps the choice in the session, whatever the browser asks for, and goes back.
    switched = client.get("/language/sk?next=/players")
    assert switched.status_code == 303 and switched.headers["Location"] == "/players"
    page = client.get("/players", headers={"Accept-Language": ACCEPT["cs"]}).get_data(as_text=True)
    assert html_lang(page) == "sk" and "Hráči" in page
    # ?lang= on any page does the same.
    page = client.get("/?lang=sq", headers={"Accept-Language": ACCEPT["cs"]}).get_data(as_text=True)
    assert html_lang(page) == "sq" and "Ndeshje e re" in page
    assert html_lang(client.get("/", headers={"Accept-Language": ACCEPT["cs"]}).get_data(as_text=True)) == "sq"
    assert client.get("/language/de").status_code == 404


def test_the_switch_never_sends_elsewhere_and_names_each_language_in_itself(client):
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", ""):
        response = client.get("/language/cs", query_string={"next": target})
        assert response.headers["Location"] == "/", target
    page = client.get("/matches/new?x=1&lang=cs").get_data(as_text=True)
    footer = page[page.index('<footer'):page.index('</footer>')]
    for code, name in i18n.LANGUAGES.items():
        assert f'hreflang="{code}" lang="{code}"' in footer and f">{name}</a>" in footer
    assert 'href="/language/sk?next=/matches/new?x%3D1"' in footer
    assert 'aria-current="true">Čeština<' in footer


def test_the_language_survives_the_passphrase(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "t",
                      "PASSPHRASE": "our table"})
    client = app.test_client()
    login = client.get("/language/cs?next=/login", follow_redirects=True).get_data(as_text=True)
    assert "Tento stůl je soukromý" in login
    response = client.post("/login", data={"csrf_token": hidden(login, "csrf_token"), "passphrase": "our table"},
                           follow_redirects=True)
    assert "Vítejte u stolu." in response.get_data(as_text=True)
    assert html_lang(client.get("/").get_data(as_text=True)) == "cs"


# --------------------------------------------------------------------------
# Every page, in each language
# --------------------------------------------------------------------------

class Visible(HTMLParser):
    """Text a person sees or hears: text nodes (not script or style) and the attributes read aloud."""

    READ = ("title", "aria-label", "placeholder", "alt", "label")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skip = 0
        self.skipping: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        # Not for translation: scripts, styles, and what the page marks translate="no" (a match-file key).
        if tag in ("script", "style") or attrs.get("translate") == "no":
            self.skip += 1
            self.skipping.append(tag)
        for name in self.READ:
            if attrs.get(name):
                self.texts.append(attrs[name])
        if tag == "meta" and attrs.get("name") == "description":
            self.texts.append(attrs.get("content") or "")

    def handle_endtag(self, tag):
        if self.skipping and tag == self.skipping[-1]:
            self.skipping.pop()
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(data)


def visible_text(page: str) -> str:
    parser = Visible()
    parser.feed(page)
    text = " \n ".join(" ".join(unescape(t).split()) for t in parser.texts)
    text = re.sub(r"\S+://\S+", " ", text)  # the addresses shown beside the QR codes
    for name in NAMES:
        text = text.replace(name, " ")
    return text


def leftover_patterns(lang: str) -> list[tuple[str, re.Pattern]]:
    """Each English msgid's words (between its blanks), unless the language keeps them too (gin, Hollywood, JSON...)."""
    translations = " \n ".join(form for message in entries(lang)
                               for form in (message.string if isinstance(message.string, tuple)
                                            else (message.string,)))
    patterns = []
    for message in entries(lang):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            for part in PLACEHOLDERS.split(msgid):
                part = (part or "").strip(" :;,.·–()!?")
                if len(re.sub(r"[^A-Za-z]", "", part)) < 3 or part in translations:
                    continue
                left = r"\b" if re.match(r"\w", part) else ""
                right = r"\b" if re.search(r"\w$", part) else ""
                patterns.append((part, re.compile(left + re.escape(part) + right)))
    for word in ENGLISH_WORDS:
        patterns.append((word, re.compile(r"\b" + re.escape(word) + r"\b", re.I)))
    return patterns


def english_left(page: str, lang: str, patterns) -> list[str]:
    text = visible_text(page)
    # A case-sensitive pattern is its part between word bounds: where the part is not in the text,
    # it cannot match, so most of the regexes need not run.
    found = sorted({part for part, pattern in patterns
                    if (pattern.flags & re.IGNORECASE or part in text) and pattern.search(text)})
    return found


@pytest.fixture
def table(client):
    """Matches as a table has them: one played for money with a closed game, one finished, cards counted."""
    playing = new_match(client, stake="0.05", currency="€")
    for winner, points in (("Ana", 18), ("Ben", 22), ("Ana", 30), ("Ana", 25), ("Ben", 40), ("Ana", 35)):
        assert post_hand(client, playing, winner=winner, points=str(points)).status_code == 302
    assert post_hand(client, playing, knocker="Ben", knocker_deadwood="4", opponent_deadwood="2",
                     cards_knocker="3S 4S 5S 7H 7D 7C 9H 10H JH 2C").status_code == 302
    finished = import_match(client, case("full-hollywood-match"))
    long = import_match(client, long_match(SHOWN_HANDS + 5))  # its page folds hands 1–5 away
    # The read-only link is a secret: it is on the join page only (templates/match.html, c5a679d).
    page = client.get(f"/matches/{playing}/join").get_data(as_text=True)
    token = re.search(r"/view/([A-Za-z0-9_-]+)", page).group(1)
    long_token = re.search(r"/view/([A-Za-z0-9_-]+)",
                           client.get(f"/matches/{long}/join").get_data(as_text=True)).group(1)
    players = {name: int(pid) for pid, name in
               re.findall(r'href="/players/(\d+)"><strong>(?:<bdi>)?([^<]+)(?:</bdi>)?</strong>', client.get("/players").get_data(as_text=True))}
    return {"playing": playing, "finished": finished, "long": long, "long_token": long_token, "token": token,
            "players": players}


def pages(client, table) -> dict[str, str]:
    """Every page, fetched in the client's current language; some with a refusal or a flash on them."""
    playing, finished, token, ids = table["playing"], table["finished"], table["token"], table["players"]
    got = {}

    def get(name, url, status=200):
        response = client.get(url)
        assert response.status_code == status, (name, response.status_code)
        got[name] = response.get_data(as_text=True)

    get("home", "/")
    get("new match", "/matches/new")
    get("match with stakes and a closed game", f"/matches/{playing}")
    get("finished match", f"/matches/{finished}")
    get("edit hand", f"/matches/{playing}/hands/7")
    get("history", f"/matches/{playing}/history")
    get("insert a hand", f"/matches/{playing}/hands/new?before=2")
    get("delete a hand, asked", f"/matches/{playing}/hands/2/delete")
    get("count cards", f"/matches/{playing}/count?knocker=Ana&k=3S+4S+5S+7H+7D+7C+9H+10H+JH+2C"
                       f"&d=6S+2S+QH+8H+KD+KC+KS+4D+9C+5C")
    get("count cards, refused", f"/matches/{playing}/count?k=ZZ&d=7H+7H", 400)
    get("players", "/players")
    get("a player", f"/players/{ids['Ana']}")
    get("head-to-head", f"/players/{ids['Ana']}/vs/{ids['Ben']}")
    get("ladder", "/ladder")
    get("ladder to print", "/ladder/print")
    get("ladder on the big screen", "/ladder/big")
    get("tonight", "/tonight")
    get("read-only", f"/view/{token}")
    get("big screen", f"/view/{token}/big")
    get("big screen of the match", f"/matches/{playing}/big")
    get("live fragment", f"/matches/{playing}/live")
    get("long match, older hands folded", f"/matches/{table['long']}")
    get("whole sheet", f"/matches/{table['long']}/sheet")
    get("read-only, older hands folded", f"/view/{table['long_token']}")
    get("read-only whole sheet", f"/view/{table['long_token']}/sheet")
    get("404 of the app", "/matches/9999", 404)
    get("404 of the server", "/no/such/page", 404)
    new = client.get("/matches/new").get_data(as_text=True)
    refused = client.post("/matches/new", data={"csrf_token": hidden(new, "csrf_token"), "players": ["", ""],
                                                "target": "x", "stake": "abc"})
    assert refused.status_code == 400
    got["refused new match"] = refused.get_data(as_text=True)
    nameless = client.post("/matches/new", data={"csrf_token": hidden(new, "csrf_token"), "players": ["", ""],
                                                 "format": "hollywood", "preset": "classic"})
    assert nameless.status_code == 400
    got["refused new match, by the engine"] = nameless.get_data(as_text=True)
    match_page = client.get(f"/matches/{playing}").get_data(as_text=True)
    over = client.post(f"/matches/{playing}/hands", data={
        "csrf_token": hidden(match_page, "csrf_token"), "form_id": hidden(match_page, "form_id"),
        "knocker": "Ana", "knocker_deadwood": "12", "opponent_deadwood": "30"})
    assert over.status_code == 400
    got["refused hand"] = over.get_data(as_text=True)
    saved = post_hand(client, playing, knocker="Ana", knocker_deadwood="5", opponent_deadwood="5")
    got["flash after an undercut"] = client.get(saved.headers["Location"]).get_data(as_text=True)
    undo = client.post(f"/matches/{playing}/undo", data={"csrf_token": hidden(match_page, "csrf_token"),
                                                         "version": hidden(got["flash after an undercut"], "version")},
                       follow_redirects=True)
    got["flash after undo"] = undo.get_data(as_text=True)
    return got


def check_every_page(client, table, lang):
    patterns = leftover_patterns(lang)
    seen = pages(client, table)
    assert len(seen) >= 20
    problems = {}
    for name, page in seen.items():
        if name != "live fragment":
            assert html_lang(page) == lang, name
        found = english_left(page, lang, patterns)
        if found:
            problems[name] = found
    assert not problems, f"English left on {lang} pages:\n" + "\n".join(f"  {k}: {v}" for k, v in problems.items())
    texts = json.loads(re.search(r'<script type="application/json" id="texts">(.*?)</script>',
                                 seen["match with stakes and a closed game"], re.S).group(1))
    said = [value for value in texts.values() if isinstance(value, str)] + [
        value for group in texts.values() if isinstance(group, dict) for value in group.values()]
    blanks_out = re.sub(r"%\(\w+\)s", " ", " \n ".join(said))
    assert not english_left(f"<p>{escape(blanks_out)}</p>", lang, patterns), texts
    return seen


@pytest.mark.parametrize("lang", OTHERS)
def test_every_page_in_the_browsers_language_has_no_english_left(app, table, lang):
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = ACCEPT[lang]
    check_every_page(client, table, lang)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_page_after_the_switch_has_no_english_left(client, table, lang):
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en-GB,en;q=0.9"
    client.get(f"/language/{lang}?next=/")
    seen = check_every_page(client, table, lang)
    if lang == "cs":
        match = seen["match with stakes and a closed game"]
        assert "Sázka: 0,05 € za bod" in match  # money as Czech writes it, exact
        assert "Ana platí, Ben dostává" in match or "Ben platí, Ana dostává" in match
        assert re.search(r"\d{1,2}\. \d{1,2}\. \d{4}", visible_text(match)), "a Czech date"
        assert "Kolo 8: Ana klepe, 5 proti 5. Podříznutí! Ben získává 10 → do hry 3." in seen["flash after an undercut"]
        assert "Kolo 8 vráceno zpět." in seen["flash after undo"]
        assert "Kola 1–5 jsou v celém zápisu" in seen["long match, older hands folded"]
        assert f"Tento výtisk ukazuje posledních {SHOWN_HANDS} kol; celý zápis" in seen["long match, older hands folded"]
        assert f"Všech {SHOWN_HANDS + 5} kol." in seen["whole sheet"] and "Zpět na zápas" in seen["read-only whole sheet"]


@pytest.mark.parametrize("lang", OTHERS)
def test_the_passphrase_page_has_no_english_left(tmp_path, lang):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "t",
                      "PASSPHRASE": "our table"})
    patterns = leftover_patterns(lang)
    by_browser = app.test_client()
    by_browser.environ_base["HTTP_ACCEPT_LANGUAGE"] = ACCEPT[lang]
    by_switch = app.test_client()
    by_switch.get(f"/language/{lang}?next=/login")
    for client in (by_browser, by_switch):
        page = client.get("/", follow_redirects=True).get_data(as_text=True)
        assert html_lang(page) == lang and 'name="passphrase"' in page
        assert english_left(page, lang, patterns) == []
        wrong = client.post("/login", data={"csrf_token": hidden(page, "csrf_token"), "passphrase": "nope"})
        assert wrong.status_code == 403
        assert english_left(wrong.get_data(as_text=True), lang, patterns) == []


def test_the_check_finds_english_where_there_is_some(client, table):
    """The walk above would pass on nothing: on the English pages it finds plenty."""
    patterns = leftover_patterns("cs")
    seen = pages(client, table)
    assert all(len(english_left(page, "cs", patterns)) >= 5 for page in seen.values()), {
        name: english_left(page, "cs", patterns) for name, page in seen.items()}


def test_english_pages_are_as_they_were(client, table):
    """The default stays English, word for word (a few sentences the other tests also rely on)."""
    page = client.get(f"/matches/{table['playing']}").get_data(as_text=True)
    assert html_lang(page) == "en"
    assert "Next: hand 8, Ana deals." in page
    assert "308 − 112 =</span> <strong>196</strong> to Ana" in page
    assert "Stakes: 0.05 € a point" in page


def test_the_offline_pages_of_the_service_worker_follow_the_language(client):
    english = client.get("/sw.js").get_data(as_text=True)
    assert "Not saved: the server cannot be reached" in english
    czech = client.get("/sw.js", headers={"Accept-Language": ACCEPT["cs"]}).get_data(as_text=True)
    pages_json = json.loads(re.search(r"var PAGES = (\{.*?\});", czech).group(1))
    assert "Neuloženo: server není dostupný" in pages_json["not_sent"]
    assert "Offline: server není dostupný" in pages_json["offline"] and 'lang="cs"' in pages_json["offline"]


def test_the_card_api_answers_in_the_language(client):
    cards = "3S 4S 5S 7H 7D 7C 9H 10H JH 2C".split()
    body = client.get("/api/arrange", query_string={"cards": cards, "limit": "10"},
                      headers={"Accept-Language": ACCEPT["cs"]}).get_json()
    assert body["text"] == "Smí klepnout: 2, což dovoluje limit klepnutí 10."
    assert set(body) >= {"melds", "laid_off", "deadwood", "points", "status", "count"}  # keys stay
    refused = client.get("/api/arrange", query_string={"cards": ["7H", "7H"]}, headers={"Accept-Language": "sk"})
    assert refused.status_code == 400 and refused.get_json() == {"error": "cards: 7♥ je tam dvakrát"}


# --------------------------------------------------------------------------
# Plurals
# --------------------------------------------------------------------------

def test_czech_plural_forms(app):
    with app.test_request_context(), i18n.forced("cs"):
        assert [ngettext("%(num)d match", "%(num)d matches", n) for n in (1, 2, 5)] == [
            "1 zápas", "2 zápasy", "5 zápasů"]
        assert [ngettext("Imported %(one)s vs %(two)s: %(num)d hand.", "Imported %(one)s vs %(two)s: %(num)d hands.",
                         n, one="Ana", two="Ben") for n in (1, 3, 13)] == [
            "Nahráno Ana – Ben: 1 kolo.", "Nahráno Ana – Ben: 3 kola.", "Nahráno Ana – Ben: 13 kol."]
        # A no-break space after the one-letter "a" (CLDR's Czech list).
        assert [scores_phrase("Ana", 18, games) for games in ([1], [1, 2])] == [
            "Ana získává 18 → do hry 1.", "Ana získává 18 → do her 1 a\u00a02."]
    with app.test_request_context(), i18n.forced("sq"):
        assert [ngettext("%(num)d match", "%(num)d matches", n) for n in (1, 2)] == ["1 ndeshje", "2 ndeshje"]


# The games of a hand in words, as each language lists them (CLDR, through Babel's format_list): Czech and
# Slovak keep a one-letter "a" on the line of the number after it (a no-break space).
GAMES_LISTED = {"en": ("1, 2, and 3", "1 and 3"), "cs": ("1, 2 a\u00a03", "1 a\u00a03"),
                "sk": ("1, 2 a 3", "1 a\u00a03"), "sq": ("1, 2 dhe 3", "1 dhe 3")}


@pytest.mark.parametrize("lang", LANGS)
def test_the_games_of_a_hand_are_listed_as_the_language_lists_them(app, lang):
    from models.game.changes import games_words

    three, two = GAMES_LISTED[lang]
    with app.test_request_context(), i18n.forced(lang):
        assert [i18n.games_list(games) for games in ([1, 2, 3], [1, 3], [2], [])] == [three, two, "2", ""]
        # The same list inside an engine's sentence (a deleted hand's later hands: models/game/changes.py).
        assert i18n.render(games_words((1, 2, 3))).endswith(three)
        assert i18n.render(games_words((1, 3))).endswith(two)
        assert scores_phrase("Ana", 18, [1, 2, 3]).rstrip(".").endswith(three)
    assert str(games_words((1, 2, 3))) == "games 1, 2, and 3"  # the English of the engine, outside any page


def test_czech_plurals_on_the_pages(client):
    client.get("/?lang=cs")
    for hands in (1, 3, 13):
        doc = {"players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": 1}] * hands}
        page = client.get("/").get_data(as_text=True)
        response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"), "text": json.dumps(doc)},
                               follow_redirects=True)
        expected = {1: "1 kolo", 3: "3 kola", 13: "13 kol"}[hands]
        assert f"Nahráno Ana – Ben: {expected}." in response.get_data(as_text=True)
    assert "3 zápasy" in client.get("/players").get_data(as_text=True)


# --------------------------------------------------------------------------
# The engine's refusals
# --------------------------------------------------------------------------

def test_refusals_keep_their_english_reason_and_are_translated_in_the_web_layer(app):
    with pytest.raises(MatchError) as caught:
        read_entry({"knocker": "Ana", "knocker_deadwood": 12, "opponent_deadwood": 30}, ("Ana", "Ben"), Rules())
    error = caught.value.at_hand(3)
    assert error.reason == "12 is over the knock limit 10"
    assert error.line() == str(error) == "hand 3, knocker_deadwood: 12 is over the knock limit 10"
    with app.test_request_context():
        assert i18n.translated(error) == error.line()
        with i18n.forced("cs"):
            assert i18n.translated(error) == "kolo 3, knocker_deadwood: 12 je nad limitem klepnutí 10"
        with i18n.forced("sq"):
            assert i18n.translated(error) == "raundi 3, knocker_deadwood: 12 është mbi kufirin e trokitjes 10"
        with i18n.forced("sk"):
            assert gettext("Hand %(number)s undone.", number=4) == "Kolo 4 vrátené späť."


# --------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------

NO_LOCALE = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def test_the_environment_names_the_cli_language():
    assert i18n.environment_language({}) == "en"
    assert i18n.environment_language({"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert i18n.environment_language({"LANGUAGE": "sk:cs", "LANG": "cs_CZ.UTF-8"}) == "sk"
    assert i18n.environment_language({"LC_ALL": "C.UTF-8", "LANG": "sq_AL.UTF-8"}) == "sq"
    assert i18n.environment_language({"LANGUAGE": "de:fr", "LC_MESSAGES": "en_GB.UTF-8", "LANG": "cs_CZ"}) == "en"
    assert i18n.environment_language({"LANG": "de_DE.UTF-8"}) == "en"


def run_cli(runner, args, **env):
    return runner.invoke(args=args, env={**NO_LOCALE, **env})


def test_replay_prints_the_same_in_any_language(runner, tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(case("seed001-ana-ben")))
    outputs = {lang: run_cli(runner, ["replay", str(path)], **({"LANG": lang} if lang else {}))
               for lang in (None, "cs_CZ.UTF-8", "sk_SK.UTF-8", "sq_AL.UTF-8")}
    english = outputs[None]
    assert english.exit_code == 0 and set(json.loads(english.stdout)) == {
        "players", "hands", "games", "next_dealer", "finished", "winner", "net"}
    for result in outputs.values():
        assert result.exit_code == 0 and result.stdout == english.stdout and result.stderr == ""


def test_cli_refusals_are_english_by_default_and_czech_when_asked(runner, tmp_path):
    doc = {"players": ["Ana", "Ben"], "hands": [{"draw": True},
           {"knocker": "Ana", "knocker_deadwood": 11, "opponent_deadwood": 30}]}
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    english = run_cli(runner, ["replay", str(path)])
    assert english.exit_code == 2 and english.stdout == ""
    assert english.stderr == "hand 2, knocker_deadwood: 11 is over the knock limit 10\n"
    czech = run_cli(runner, ["replay", str(path)], LANG="cs_CZ.UTF-8")
    assert czech.exit_code == 2 and czech.stdout == ""
    assert czech.stderr == "kolo 2, knocker_deadwood: 11 je nad limitem klepnutí 10\n"
    meld = run_cli(runner, ["deadwood", "7H", "7H"], LANGUAGE="sq")
    assert meld.exit_code == 2 and meld.stderr == "7H shfaqet dy herë\n"


@pytest.mark.slow
def test_flask_replay_in_a_czech_shell(tmp_path):
    """The real command, as a Czech shell runs it: the refusal is Czech, the output is not."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["Ana", "Ana"]}')
    env = {k: v for k, v in os.environ.items() if k not in NO_LOCALE and not k.startswith("FLASK_")}
    env.update(LANG="cs_CZ.UTF-8", FLASK_DATABASE=str(tmp_path / "db.sqlite"), FLASK_SECRET_KEY="t")
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "replay", str(bad)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "players: hráči se musí lišit, oba jsou 'Ana'\n"


def test_a_template_under_a_forced_language_speaks_it(app):
    """The page's language and catalogue are looked up once a request (views/site/i18n.page_language),
    but a language forced inside the request (i18n.forced) still switches them, and back."""
    from flask import render_template_string

    with app.test_request_context("/"):
        assert render_template_string("{{ _('Players') }} {{ 1234|num }}") == "Players 1,234"
        with i18n.forced("cs"):
            assert render_template_string("{{ _('Players') }} {{ 1234|num }}") == "Hráči 1\xa0234"
            assert i18n.current_language() == "cs"
        assert render_template_string("{{ _('Players') }} {{ 1234|num }}") == "Players 1,234"
        assert i18n.current_language() == "en"
