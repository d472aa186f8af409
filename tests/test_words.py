"""Issue 23: what a player reads after a change and on paper, and the words no player should see.

An insert lands on the list of what moved; the printed sheet names every rule that is not
Classic's and each Oklahoma hand's upcard; the history says the fields in words; a refusal
writes a card as a player does (3♥); the sheet's key names only the shortened names; one
time format per language; a multiplier of 1 is not shown multiplying.
"""
import json
import re
from datetime import datetime, timezone
from html import unescape

import pytest

from models.game.ledger import score_sheet
from models.files.matchfile import read_document
from tests.generate import long_match
from views.site import i18n
from views.match.sheet import SHOWN_HANDS
from webutil import case, hidden, import_match, new_match, post_hand

pytestmark = pytest.mark.sqlite_only  # the words of pages: the database is incidental


def text_of(html: str) -> str:
    """What the page says, tags out (a print-only span is still text)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def main_of(html: str) -> str:
    return html[html.index('<main id="main">'):html.index("</main>")]


def insert(client, match_id: int, before: int, **fields):
    page = client.get(f"/matches/{match_id}/hands/new?before={before}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
            "version": hidden(page, "version"), "before": str(before), **fields}
    return client.post(f"/matches/{match_id}/hands/insert", data=data)


# ---- 3. after an insert, the page lands on what moved --------------------------------------

def test_an_insert_lands_on_the_list_of_what_moved_and_links_the_new_row(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    response = insert(client, match_id, 2, knocker="Ben", knocker_deadwood="3", opponent_deadwood="20")
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location == f"/matches/{match_id}#told"  # the flashes, not the row below them
    page = client.get(location).get_data(as_text=True)
    told = re.search(r'<div class="flashes" id="told"[^>]*>(.*?)</div>', page, re.S)
    assert told, "the flashes carry the anchor the insert lands on"
    assert "Inserted as hand 2" in unescape(told.group(1)) and "Hand 2, now hand 3:" in unescape(told.group(1))
    assert 'href="#hand-2"' in told.group(1)  # the new row, one tap away and marked when reached
    assert 'id="hand-2"' in page


def test_an_insert_among_the_folded_hands_lands_on_what_moved_on_the_whole_sheet(client):
    match_id = import_match(client, long_match(SHOWN_HANDS + 5, seed=7))
    response = insert(client, match_id, 2, draw="true")
    assert response.headers["Location"] == f"/matches/{match_id}/sheet#told"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    told = re.search(r'<div class="flashes" id="told"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "Inserted as hand 2" in told and 'href="#hand-2"' in told and 'id="hand-2"' in page


def test_the_anchor_is_on_every_page_with_flashes_and_on_no_page_without(client):
    match_id = new_match(client)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)  # the "New match" flash
    assert page.count('id="told"') == 1
    assert 'id="told"' not in client.get(f"/matches/{match_id}").get_data(as_text=True)


# ---- 4. the printed sheet: every rule not Classic's, and the upcards ----------------------------

OKLAHOMA_HANDS = [
    {"knocker": "Ema", "knocker_deadwood": 3, "opponent_deadwood": 20, "upcard": "3H"},
    {"knocker": "Filip", "knocker_deadwood": 6, "opponent_deadwood": 31, "upcard": "7S"},
    {"knocker": "Ema", "knocker_deadwood": 0, "opponent_deadwood": 12, "upcard": "AS"},
    {"knocker": "Filip", "knocker_deadwood": 9, "opponent_deadwood": 9, "upcard": "KD"},
    {"winner": "Ema", "points": 20},
    {"knocker": "Ema", "knocker_deadwood": 10, "opponent_deadwood": 50, "upcard": "10C"},
    {"draw": True, "upcard": "5D"},
    {"knocker": "Filip", "knocker_deadwood": 1, "opponent_deadwood": 40, "upcard": "AH"},
]
VARIANTS = {"oklahoma": True, "oklahoma_ace": "one", "spade_double_boxes": True, "shutout_bonus": 50,
            "immediate_boxes": True, "undercut_on_tie": False, "dealer_rule": "loser", "target": 150}
# How each of them is printed (views/match/rule_words.rules_summary's words)
VARIANT_WORDS = ["to 150", "shutout bonus 50", "the loser deals", "Oklahoma, spade doubles",
                 "a tie goes to the knocker", "boxes count at once", "doubled boxes", "ace knocks at 1"]


def oklahoma_match(fmt: str = "hollywood", rules: dict = VARIANTS) -> dict:
    """A finished Oklahoma match with the variants: the hands above, again and again, until it ends."""
    doc = {"format": fmt, "players": ["Ema", "Filip"], "first_dealer": "Filip", "rules": dict(rules), "hands": []}
    while not score_sheet(read_document(doc)).finished:
        doc["hands"].append(OKLAHOMA_HANDS[len(doc["hands"]) % len(OKLAHOMA_HANDS)])
    return doc


def print_head(page: str) -> str:
    head = re.search(r'<h2 id="sheet-title" class="print-head">.*?<span class="print-only">(.*?)</span></h2>',
                     page, re.S)
    return " ".join(unescape(head.group(1)).split())


def test_the_printed_head_names_every_rule_that_is_not_classics(client):
    page = client.get(f"/matches/{import_match(client, oklahoma_match())}").get_data(as_text=True)
    head = print_head(page)
    assert "Hollywood to 150, gin 25, undercut 10, box 25, game 100" in head
    for words in VARIANT_WORDS[1:]:
        assert words in head, (words, head)


def test_a_classic_match_prints_the_head_it_always_had(client):
    page = client.get(f"/matches/{import_match(client, case('seed001-ana-ben'))}").get_data(as_text=True)
    assert print_head(page).endswith("· Hollywood to 100, gin 25, undercut 10, box 25, game 100")


def test_each_oklahoma_hand_prints_its_upcard_with_its_suit(client):
    doc = oklahoma_match()
    page = client.get(f"/matches/{import_match(client, doc)}").get_data(as_text=True)
    for number, hand in enumerate(doc["hands"], 1):
        row = re.search(rf'<tr id="hand-{number}" class="hand">(.*?)</tr>', page, re.S).group(1)
        upcard = re.search(r'<span class="print-only upcard">(.*?)</span>', row)
        if "upcard" not in hand:
            assert upcard is None, number
            continue
        face = hand["upcard"][:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[hand["upcard"][-1]]
        assert upcard and unescape(upcard.group(1)).strip() == f"· upcard {face}", (number, row)
        assert hand["upcard"] not in text_of(row)


def test_a_match_without_oklahoma_prints_no_upcards(client):
    page = client.get(f"/matches/{import_match(client, case('seed001-ana-ben'))}").get_data(as_text=True)
    assert "upcard" not in page[page.index('id="sheet"'):]


# ---- 7a. the history says the fields in words -----------------------------------------------------

def edited_history(client, lang: str | None = None) -> str:
    match_id = new_match(client, oklahoma="y")
    post_hand(client, match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="22", upcard="7H")
    post_hand(client, match_id, draw="true", upcard="5D")
    edit = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    client.post(f"/matches/{match_id}/hands/1", data={
        "csrf_token": hidden(edit, "csrf_token"), "version": hidden(edit, "version"), "knocker": "Ana",
        "knocker_deadwood": "6", "opponent_deadwood": "20", "upcard": "7H", "big_gin": "",
        "cards_knocker": "3S 4S 5S"})
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/hands/2/delete", data={"csrf_token": hidden(page, "csrf_token"),
                                                             "version": hidden(page, "version")})
    return client.get(f"/matches/{match_id}/history" + (f"?lang={lang}" if lang else "")).get_data(as_text=True)


# The match file's keys and words, as written there (the form's labels are capitalised: "Upcard", "Draw")
KEYS = ("knocker_deadwood", "opponent_deadwood", "big_gin", "knocker", "upcard", "draw", "true", "false")


def test_the_history_says_each_field_in_the_hand_forms_words(client):
    page = main_of(edited_history(client))
    said = text_of(page)
    assert "Knocker's deadwood 4 → 6" in said
    assert "Defender's deadwood after lay-offs 22 → 20" in said
    assert "Knocker's cards – → 3♠ 4♠ 5♠" in said
    assert "Who knocked? Ana, Knocker's deadwood 4, Defender's deadwood after lay-offs 22, Upcard 7♥" in said
    assert "Hand 2: Draw, Upcard 5♦" in said  # the deleted hand, offered back
    for key in KEYS:
        assert not re.search(rf"\b{key}\b", said), key
    assert '<code class="key"' not in page


@pytest.mark.parametrize("lang, words", [
    ("cs", ["Mrtvé karty klepajícího 4 → 6", "Mrtvé karty soupeře po přiložení 22 → 20", "Otočená karta 7♥"]),
    ("sk", ["Mŕtve karty klopača 4 → 6", "Mŕtve karty súpera po priložení 22 → 20", "Obrátená karta 7♥"]),
])
def test_the_history_says_the_fields_in_the_pages_language(client, lang, words):
    said = text_of(main_of(edited_history(client, lang)))
    for word in words:
        assert word in said, (word, said)
    for key in KEYS[:6]:
        assert key not in said, key


# ---- 7b. a refusal shows a card as a player writes it ----------------------------------------------

def refused(client, match_id, **fields) -> str:
    response = post_hand(client, match_id, **fields)
    assert response.status_code == 400
    return text_of(main_of(response.get_data(as_text=True)))


@pytest.mark.parametrize("upcard, reason", [
    ("3H", "Knocker's deadwood: 4 is over the knock limit 3 set by the upcard 3♥"),
    ("AH", "Knocker's deadwood: the upcard A♥ is an ace: gin only (0), not 4"),
])
def test_a_refusal_writes_the_upcard_with_its_suit(client, upcard, reason):
    match_id = new_match(client, oklahoma="y")
    said = refused(client, match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="20", upcard=upcard)
    assert reason in said
    assert upcard not in said


def test_a_refused_card_is_written_with_its_suit_and_said_once(client):
    match_id = new_match(client)
    said = refused(client, match_id, knocker="Ana", knocker_deadwood="0", opponent_deadwood="20",
                   cards_knocker="3S 3S")
    assert "Knocker's cards: 3♠ appears twice" in said and "3S" not in said
    assert said.count("appears twice") == 1
    said = refused(client, match_id, knocker="Ana", knocker_deadwood="0", opponent_deadwood="20",
                   cards_knocker="3S 4S", cards_defender="4S 9D")
    assert "Defender's cards: 4♠ is in the knocker's hand too" in said and said.count("knocker's hand too") == 1


def test_an_import_refusal_writes_the_card_with_its_suit(client):
    home = client.get("/").get_data(as_text=True)
    doc = {"players": ["Ana", "Ben"], "rules": {"oklahoma": True},
           "hands": [{"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 3, "upcard": "3H"}]}
    response = client.post("/import", data={"csrf_token": hidden(home, "csrf_token"), "text": json.dumps(doc)})
    page = main_of(response.get_data(as_text=True))
    told = text_of(re.search(r'<div class="flashes".*?</div>', page, re.S).group(0))  # the pasted file stays as it was
    assert told == "Not imported: hand 1, knocker_deadwood: 4 is over the knock limit 3 set by the upcard 3♥"
    assert text_of(page).count("set by the upcard") == 1


def test_the_command_line_and_the_english_text_keep_the_card_codes(app, runner, tmp_path):
    """The match file and the command line write cards as codes (what they read); str(error) is unchanged."""
    doc = {"players": ["Ana", "Ben"], "rules": {"oklahoma": True},
           "hands": [{"knocker": "Ana", "knocker_deadwood": 4, "opponent_deadwood": 3, "upcard": "3H"}]}
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 2
    assert result.stderr == "hand 1, knocker_deadwood: 4 is over the knock limit 3 set by the upcard 3H\n"
    from models.game.cards import CardError, parse_cards
    with pytest.raises(CardError, match="^7S appears twice$"):
        parse_cards(["7S", "7S"])


def test_the_count_page_writes_a_refused_card_with_its_suit(client):
    match_id = new_match(client)
    response = client.get(f"/matches/{match_id}/count?k=7S+7S")
    assert response.status_code == 400
    assert "k: 7♠ appears twice" in text_of(main_of(response.get_data(as_text=True)))
    answer = client.get(f"/matches/{match_id}/count.json?k=7S+7S")
    assert answer.get_json() == {"error": "k: 7♠ appears twice"}


# ---- 7c. the sheet's key names only the names it shortened ----------------------------------------

def sheet_key(client, players) -> str | None:
    match_id = new_match(client, players=players)
    found = re.search(r'<p class="sheet-key"[^>]*>(.*?)</p>', client.get(f"/matches/{match_id}").get_data(as_text=True))
    return text_of(found.group(1)) if found else None


def test_the_sheet_key_lists_only_the_shortened_names(client):
    assert sheet_key(client, ("Zoë", "O'Neil")) == "O'Ne = O'Neil"
    assert sheet_key(client, ("Alexandra", "Bartholomew")) == "Alex = Alexandra · Bart = Bartholomew"
    assert sheet_key(client, ("Ana", "Ben")) is None


# ---- 7d. one time format per language, the language's own -------------------------------------------

def test_the_history_and_the_match_page_write_the_time_alike(app, client):
    match_id = new_match(client)
    post_hand(client, match_id, draw="true")
    history = text_of(main_of(client.get(f"/matches/{match_id}/history").get_data(as_text=True)))
    at = re.search(r"Hand 1 entered on .+? at (\S+(?: [AP]M)?)", history.replace("\u202f", " ")).group(1)
    with app.test_request_context():
        now = i18n.clock(datetime.now(timezone.utc))
    assert at.replace(" ", "\u202f") == now or at == now.replace("\u202f", " ")
    assert re.fullmatch(r"\d{1,2}:\d{2}\u202f[AP]M", now), now  # English: 7:23 PM, as the match page says it


def test_clock_is_babels_short_time_of_each_language_in_the_tables_clock(app):
    when = datetime(2026, 11, 29, 18, 24, tzinfo=timezone.utc)
    local = when.astimezone()
    with app.test_request_context():
        assert i18n.clock(when) == f"{local:%I}:{local:%M}\u202f{local:%p}".lstrip("0")
        for lang in ("cs", "sk", "sq"):
            with i18n.forced(lang):
                expected = {"cs": f"{local.hour}:{local:%M}", "sk": f"{local.hour}:{local:%M}"}.get(lang)
                if expected:
                    assert i18n.clock(when) == expected
                assert i18n.played(when.isoformat(), today=local.date()).endswith(i18n.clock(when))


def test_the_history_in_czech_writes_the_time_as_czech_does(app, client):
    match_id = new_match(client)
    post_hand(client, match_id, draw="true")
    history = text_of(main_of(client.get(f"/matches/{match_id}/history?lang=cs").get_data(as_text=True)))
    assert re.search(r" \d{1,2}:\d{2}\b", history) and not re.search(r"[AP]M\b", history)


# ---- 7e. a multiplier of 1 multiplies nothing ---------------------------------------------------------

def settlements_of(page: str) -> str:
    start = page.index('class="settlements"')
    return text_of(page[start:page.index("</section>", start)])


def test_a_shutout_multiplier_of_1_is_not_shown(client):
    page = client.get(f"/matches/{import_match(client, case('variants/variants-bicycle-shutout'))}").get_data(as_text=True)
    settlements = settlements_of(page)
    assert "shutout bonus" in settlements
    assert "shutout ×" not in settlements and "× 1" not in settlements
    closing = text_of(" ".join(re.findall(r'<tr class="closing">(.*?)</tr>', page, re.S)))
    assert "wins game 1" in closing and "×" not in closing


def test_a_shutout_multiplier_of_2_is_still_shown(client):
    doc = case("variants/variants-bicycle-shutout")
    doc["rules"]["shutout_multiplier"] = 2
    page = client.get(f"/matches/{import_match(client, doc)}").get_data(as_text=True)
    assert "shutout × 2" in settlements_of(page)
    assert "× 2" in text_of(" ".join(re.findall(r'<tr class="closing">(.*?)</tr>', page, re.S)))


# ---- issue 37: the saved hand's sentence names the entry, so the table checks it by ear -------

@pytest.mark.parametrize("fields, said", [
    ({"knocker": "Ana", "knocker_deadwood": "8", "opponent_deadwood": "6"},
     "Hand 7: Ana knocks, 8 against 6. Undercut! Ben scores 12 → games 2 and 3."),
    ({"knocker": "Ben", "knocker_deadwood": "0", "opponent_deadwood": "20"},
     "Hand 7: Ben knocks, 0 against 20. Gin! Ben scores 45 → games 2 and 3."),
    ({"winner": "Ana", "points": "12"}, "Hand 7: Ana scores 12 → game"),  # typed points: no counts to say
    ({"draw": "1"}, "Hand 7: a draw;"),
])
def test_the_saved_hands_sentence_starts_with_what_was_entered(client, fields, said):
    match_id = import_match(client, case("seed001-ana-ben"))
    saved = post_hand(client, match_id, **fields)
    assert saved.status_code == 302
    flash = re.search(r'<p class="flash flash-saved"[^>]*>(.*?)</p>', client.get(saved.headers["Location"]).get_data(
        as_text=True)).group(1)
    assert unescape(flash).startswith(said)
