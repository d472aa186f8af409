"""Counting cards through the test client: the grid page without script, its JSON, and keeping the cards."""
import copy
import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from models.files.matchfile import replay
from webutil import export, hidden, import_match, new_match, post_hand

pytestmark = pytest.mark.sqlite_only  # counting cards: the database is incidental

KNOCKER = "3S 4S 5S 7H 7D 7C 9H 10H JH 2C".split()   # 3-4-5S, 7s, 9-10-JH; deadwood 2C = 2
DEFENDER = "6S 2S QH 8H KD KC KS 4D 9C 5C".split()   # KKK; lays off 2S 6S 8H QH; deadwood 4D 5C 9C = 18
GIN = "AS 2S 3S 4S 5D 5H 5C JD QD KD".split()


def count_page(client, match_id, knocker=None, k=(), d=(), route="count", **extra):
    query = ([("knocker", knocker)] if knocker else []) + [("k", c) for c in k] + [("d", c) for c in d]
    query += list(extra.items())
    return client.get(f"/matches/{match_id}/{route}", query_string=query)


def text(html: str) -> str:
    """The page as a reader hears it: tags out, the spoken card names kept, spaces folded."""
    html = re.sub(r'<span aria-hidden="true">[^<]*</span>', "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def result(html: str, side: str) -> str:
    start = html.index(f'<div class="count-result" data-side="{side}">')
    return html[start:html.index("</dl>", start)]


def role(fragment: str, name: str) -> str:
    end = r'</span> <span class="points">' if name == "deadwood" else "</(dd|strong|p)>"
    match = re.search(rf'data-role="{name}"[^>]*>(.*?){end}', fragment, re.S)
    assert match, name
    return text(match.group(1))


def melds(fragment: str) -> list[str]:
    """The meld groups of a result, each as its cards' spoken names."""
    inside = re.search(r'data-role="melds">(.*?)</dd>', fragment, re.S).group(1)
    return [text(group) for group in inside.split('<span class="meld">')[1:]]


def use_link(client, match_id, *taps, **extra) -> dict:
    """Where "Use these counts" lands: the count form's query sent to its formaction, which redirects."""
    html = count_page(client, match_id, *taps, **extra).get_data(as_text=True)
    button = re.search(r'<button type="submit" class="button primary big" data-role="use"\s+formaction="([^"]+)">', html)
    assert button and button.group(1) == f"/matches/{match_id}/count/use"
    response = count_page(client, match_id, *taps, route="count/use", **extra)
    assert response.status_code == 303
    parts = urlsplit(response.headers["Location"])
    return {"path": parts.path, "fragment": parts.fragment, **{k: v[0] for k, v in parse_qs(parts.query).items()}}


@pytest.fixture
def match_id(client):
    return new_match(client)


# --------------------------------------------------------------------------
# The page without script
# --------------------------------------------------------------------------

def test_the_grid_is_a_get_form_of_52_cards_a_side(client, match_id):
    html = count_page(client, match_id).get_data(as_text=True)
    form = re.search(r'<form method="get" action="/matches/\d+/count" id="count-form"', html)
    assert form
    for side in "kd":
        boxes = re.findall(rf'<input type="checkbox" class="sr" name="{side}" value="([^"]+)" id="{side}-\1"', html)
        assert len(boxes) == 52 and len(set(boxes)) == 52
    # Each card: rank and suit symbol on the face, its name for a screen reader, its suit's class.
    assert ('<label for="k-7H" class="card suit-h"><span aria-hidden="true">7♥</span>'
            '<span class="sr">7 of hearts</span></label>') in html
    assert '<span class="sr">queen of spades</span>' in html and "♣" in html and "♦" in html
    assert "cards.js" in html and "<script>" not in html and "style=" not in html


def test_a_knocker_and_a_defender_counted(client, match_id):
    response = count_page(client, match_id, "Ana", KNOCKER, DEFENDER)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for code in KNOCKER:
        assert f'value="{code}" id="k-{code}" checked>' in html
        assert f'value="{code}" id="d-{code}" disabled>' in html  # in one hand, not tappable in the other
    knocker = result(html, "k")
    assert role(knocker, "status") == "May knock with 2 (within the knock limit 10)."
    assert melds(knocker) == ["3 of spades 4 of spades 5 of spades", "7 of clubs 7 of diamonds 7 of hearts",
                              "9 of hearts 10 of hearts jack of hearts"]
    assert role(knocker, "deadwood") == "2 of clubs"
    assert role(knocker, "points") == "2"
    defender = result(html, "d")
    assert role(defender, "status") == "Deadwood 18 after laying off 4 cards."
    assert melds(defender) == ["king of clubs king of diamonds king of spades"]
    assert role(defender, "laid_off") == "2 of spades 6 of spades 8 of hearts queen of hearts"
    assert role(defender, "deadwood") == "4 of diamonds 5 of clubs 9 of clubs"
    assert role(defender, "points") == "18"
    assert """<span data-role="knocker-name">Ana</span>'s cards""" in html
    assert """<span data-role="defender-name">Ben</span>'s cards""" in html

    link = use_link(client, match_id, "Ana", KNOCKER, DEFENDER)
    assert link == {"path": f"/matches/{match_id}", "fragment": "hand-form", "knocker": "Ana",
                    "knocker_deadwood": "2", "opponent_deadwood": "18",
                    "cards_knocker": " ".join(KNOCKER), "cards_defender": " ".join(DEFENDER)}


def test_no_layoffs_before_the_knockers_cards_or_after_gin(client, match_id):
    alone = result(count_page(client, match_id, d=DEFENDER).get_data(as_text=True), "d")
    assert role(alone, "status") == "Deadwood 44."
    assert role(alone, "laid_off") == "none"

    # 6S 7S could go on the knocker's run AS-4S after a knock, but not after gin.
    defender = "6S QH 8H KC KH KS 4D 9C 6C 7C".split()
    html = count_page(client, match_id, "Ben", GIN, defender).get_data(as_text=True)
    assert role(result(html, "k"), "status") == "Gin: all 10 cards melded (no lay-offs)."
    assert role(result(html, "d"), "status") == "Deadwood 50."
    assert role(result(html, "d"), "laid_off") == "none"
    assert use_link(client, match_id, "Ben", GIN, defender)["knocker_deadwood"] == "0"


@pytest.mark.parametrize("cards, status, count", [
    (GIN + ["10D"], "Big gin: all 11 cards melded (no lay-offs).", "0"),
    (GIN + ["KH"], "Discard K♥: Gin: all 10 cards melded (no lay-offs).", "0"),
    ("2S 3S 4S 5D 5H 5C JD QD KD 3C KH".split(), "Discard K♥: May knock with 3 (within the knock limit 10).", "3"),
    ("AS 2S 3S 7D 8D 9D KC KH 4C 2H".split(), "Cannot knock: 26 is over the knock limit 10.", "26"),
    (KNOCKER[:7], "7 of 10 cards tapped.", None),
])
def test_knock_status(client, match_id, cards, status, count):
    html = count_page(client, match_id, "Ana", cards).get_data(as_text=True)
    assert role(result(html, "k"), "status") == status
    link = use_link(client, match_id, "Ana", cards)
    if count is not None:
        assert link["knocker_deadwood"] == count
    else:
        assert "knocker_deadwood" not in link
    assert ("big_gin" in link) == status.startswith("Big gin")


def test_the_discard_is_shown_apart(client, match_id):
    html = count_page(client, match_id, "Ana", "2S 3S 4S 5D 5H 5C JD QD KD 3C KH".split()).get_data(as_text=True)
    knocker = result(html, "k")
    assert '<div data-role="discard-row">' in knocker
    assert role(knocker, "discard") == "king of hearts"
    assert melds(knocker) == ["2 of spades 3 of spades 4 of spades", "5 of clubs 5 of diamonds 5 of hearts",
                              "jack of diamonds queen of diamonds king of diamonds"]
    assert role(knocker, "deadwood") == "3 of clubs"
    assert role(knocker, "points") == "3"
    plain = result(count_page(client, match_id, "Ana", KNOCKER).get_data(as_text=True), "k")
    assert '<div data-role="discard-row" hidden>' in plain


def test_oklahoma_limit_comes_from_the_upcard(client):
    match_id = new_match(client, oklahoma="y")
    hand = "AS 2S 3S 7D 8D 9D KC KH KS 4C".split()  # deadwood 4
    html = count_page(client, match_id, "Ana", hand, upcard="3H").get_data(as_text=True)
    assert role(result(html, "k"), "status") == "Cannot knock: 4 is over the Oklahoma limit 3 (upcard 3♥)."
    assert use_link(client, match_id, "Ana", hand, upcard="3H")["upcard"] == "3H"
    assert '<option value="3H" selected>' in html
    html = count_page(client, match_id, "Ana", hand, upcard="7C").get_data(as_text=True)
    assert role(result(html, "k"), "status") == "May knock with 4 (within the Oklahoma limit 7 (upcard 7♣))."
    html = count_page(client, match_id, "Ana", hand, upcard="AD").get_data(as_text=True)
    assert "over the Oklahoma limit 0 (upcard A♦, an ace: gin only)" in role(result(html, "k"), "status")


@pytest.mark.parametrize("k, d, message", [
    (["ZZ"], [], "k: 'ZZ' is not a card"),
    (["7S", "7S"], [], "k: 7♠ appears twice"),
    (KNOCKER + ["AD", "AH"], [], "k: at most 11 cards, not 12"),
    (KNOCKER, ["7H"], "d: 7♥ is in the knocker's hand too"),
    ([], ["10X"], "d: '10X' is not a card"),
])
def test_bad_taps_are_named(client, match_id, k, d, message):
    response = count_page(client, match_id, "Ana", k, d)
    assert response.status_code == 400
    assert message in text(response.get_data(as_text=True))


def test_no_such_match(client):
    assert count_page(client, 999).status_code == 404


# --------------------------------------------------------------------------
# The JSON the script asks
# --------------------------------------------------------------------------

def arrange(client, cards, **params):
    query = [("cards", c) for c in cards] + [
        (key, value) for key, values in params.items() for value in (values if isinstance(values, list) else [values])]
    return client.get("/api/arrange", query_string=query)


def test_api_arrangement_and_status(client):
    response = arrange(client, KNOCKER, limit="10")
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = response.get_json()
    assert body["melds"] == [["3S", "4S", "5S"], ["7C", "7D", "7H"], ["9H", "10H", "JH"]]
    assert (body["laid_off"], body["deadwood"], body["points"]) == ([], ["2C"], 2)
    assert (body["status"], body["count"], body["discard"]) == ("knock", 2, None)
    assert body["text"] == "May knock with 2 (within the knock limit 10)."
    assert arrange(client, KNOCKER, limit="1").get_json()["status"] == "over"
    assert arrange(client, GIN, limit="10").get_json()["status"] == "gin"
    assert arrange(client, GIN + ["10D"], limit="10").get_json()["status"] == "big_gin"
    assert arrange(client, KNOCKER[:3], limit="10").get_json()["status"] == "incomplete"
    assert arrange(client, KNOCKER, upcard="AH").get_json()["text"].endswith("an ace: gin only).")


def test_api_defender_with_and_without_onto(client):
    body = arrange(client, DEFENDER, onto=["3S 4S 5S", "9H 10H JH", "7C 7D 7H"]).get_json()
    assert body["laid_off"] == ["2S", "6S", "8H", "QH"] and body["points"] == 18 and body["count"] == 18
    assert body["onto"] == [["3S", "4S", "5S"], ["9H", "10H", "JH"], ["7C", "7D", "7H"]]
    plain = arrange(client, DEFENDER).get_json()
    assert plain["laid_off"] == [] and plain["points"] == 44 and plain["status"] == "counted"
    # Codes may also come space-separated in one parameter (a plus in the query).
    assert client.get("/api/arrange?cards=" + "+".join(DEFENDER)).get_json() == plain
    assert arrange(client, []).get_json()["points"] == 0


def count_json(client, match_id, *taps, **extra):
    return count_page(client, match_id, *taps, route="count.json", **extra)


def test_the_page_json_counts_both_hands_as_the_page_does(client, match_id):
    html = count_page(client, match_id, "Ana", KNOCKER, DEFENDER).get_data(as_text=True)
    assert f'data-api="/matches/{match_id}/count.json"' in html
    response = count_json(client, match_id, "Ana", KNOCKER, DEFENDER)
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = response.get_json()
    assert body["k"]["text"] == role(result(html, "k"), "status") == "May knock with 2 (within the knock limit 10)."
    assert body["d"]["text"] == role(result(html, "d"), "status") == "Deadwood 18 after laying off 4 cards."
    assert (body["k"]["count"], body["d"]["count"], body["d"]["laid_off"]) == (2, 18, ["2S", "6S", "8H", "QH"])
    assert body["d"]["onto"] == body["k"]["melds"]
    assert count_json(client, match_id).get_json()["k"]["text"] == "0 of 10 cards tapped."


def test_the_page_json_takes_the_upcard_only_in_oklahoma(client, match_id):
    hand = "AS 2S 3S 7D 8D 9D KC KH KS 4C".split()  # deadwood 4
    assert count_json(client, match_id, "Ana", hand, upcard="3H").get_json()["k"]["status"] == "knock"
    oklahoma = new_match(client, oklahoma="y")
    assert count_json(client, oklahoma, "Ana", hand, upcard="3H").get_json()["k"]["text"] == (
        "Cannot knock: 4 is over the Oklahoma limit 3 (upcard 3♥).")


def test_the_page_json_names_a_refused_tap(client, match_id):
    response = count_json(client, match_id, "Ana", ["7S", "7S"], ["ZZ"])
    assert response.status_code == 400
    assert response.get_json() == {"error": "k: 7♠ appears twice; d: 'ZZ' is not a card (rank A 2 ... 10 J Q K, "
                                            "then suit S H D C)"}


def test_the_page_script_knows_no_rule_and_builds_no_link():
    script = (Path(__file__).resolve().parents[1] / "static" / "cards.js").read_text(encoding="utf-8")
    code = "\n".join(line.split("//")[0] for line in script.splitlines())
    for word in ("limit", "gin", "onto", "oklahoma", "count ===", "href", "matches"):
        assert word not in code.lower(), word


@pytest.mark.parametrize("cards, params, fragment", [
    (["ZZ"], {}, "cards: 'ZZ' is not a card"),
    (["AS", "AS"], {}, "cards: A♠ appears twice"),
    (KNOCKER + ["AD", "AH"], {}, "cards: at most 11 cards"),
    (DEFENDER, {"onto": "4H 5H 7H"}, "onto: 4H 5H 7H is not a meld"),
    (DEFENDER, {"onto": "KS KH KD"}, "is in both the knocker's melds and the defender's hand"),
    (DEFENDER, {"onto": ["4H 5H 6H", "6H 6S 6D"]}, "6H is in more than one"),
    (KNOCKER, {"limit": "11"}, "limit: must be a whole number from 0 to 10"),
    (KNOCKER, {"limit": "-1"}, "limit: must be a whole number"),
    (KNOCKER, {"upcard": "1H"}, "upcard: '1H' is not a card"),
    (KNOCKER, {"limit": "10", "upcard": "7H"}, "upcard: send limit or an Oklahoma upcard, not both"),
    (DEFENDER, {"limit": "10", "onto": "4H 5H 6H"}, "onto: a knocker does not lay off"),
])
def test_api_refusals_are_json_400(client, cards, params, fragment):
    response = arrange(client, cards, **params)
    assert response.status_code == 400 and response.mimetype == "application/json"
    assert fragment in response.get_json()["error"]


# --------------------------------------------------------------------------
# From the count page to a saved hand
# --------------------------------------------------------------------------

def test_use_these_counts_prefills_the_hand_form(client, match_id):
    used = count_page(client, match_id, "Ana", KNOCKER, DEFENDER, route="count/use")
    assert used.status_code == 303
    response = client.get(used.headers["Location"].split("#")[0])
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<input type="radio" class="sr" id="knocker-1" name="knocker" value="Ana" checked>' in html
    assert '<input type="radio" class="sr" id="kd-2" name="knocker_deadwood" value="2" checked>' in html
    assert re.search(r'<input [^>]*name="opponent_deadwood"[^>]*value="18"', html)
    assert hidden(html, "cards_knocker") == " ".join(KNOCKER)
    assert hidden(html, "cards_defender") == " ".join(DEFENDER)
    assert "Cards, kept with this hand: Ana: 3 of spades" in text(html)
    # "Count cards" goes back to the grid with the same taps.
    count_link = unescape(re.search(r'<a class="button" data-role="count-link" href="([^"]+)"', html).group(1))
    assert count_link.startswith(f"/matches/{match_id}/count?knocker=Ana&k=3S&k=4S")
    assert len(export(client, match_id)["hands"]) == 0  # a prefilled form stores nothing


def test_use_these_counts_with_a_bad_tap_stays_on_the_grid_and_names_it(client, match_id):
    response = count_page(client, match_id, "Ana", KNOCKER, ["7H"], route="count/use")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "d: 7♥ is in the knocker's hand too" in text(html)
    assert 'id="count-form"' in html and 'value="2C" id="k-2C" checked>' in html


def test_use_these_counts_needs_no_count_first_and_takes_the_oklahoma_upcard(client):
    match_id = new_match(client, oklahoma="y")
    link = use_link(client, match_id, "Ben", GIN + ["10D"], upcard="AD")
    assert (link["knocker"], link["knocker_deadwood"], link["big_gin"], link["upcard"]) == ("Ben", "0", "y", "AD")
    assert "opponent_deadwood" not in link and "cards_defender" not in link


def test_no_use_button_once_the_match_is_over(client):
    match_id = import_match(client, {"format": "single", "players": ["Ana", "Ben"],
                                     "hands": [{"winner": "Ana", "points": 150}]})
    assert 'data-role="use"' in count_page(client, new_match(client)).get_data(as_text=True)
    html = count_page(client, match_id).get_data(as_text=True)
    assert 'data-role="use"' not in html


def test_prefill_leaves_out_what_cannot_be(client, match_id):
    html = client.get(f"/matches/{match_id}?knocker=Eve&knocker_deadwood=x&opponent_deadwood=123&upcard=ZZ").get_data(
        as_text=True)
    assert " checked" not in html.split('id="hand-form"')[1].split("</form>")[0]
    assert re.search(r'<input [^>]*name="opponent_deadwood"[^>]*value=""', html)


def test_count_cards_link_on_the_match_page(client, match_id):
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'<a class="button" data-role="count-link" href="/matches/{match_id}/count">Count cards</a>' in html


def test_a_hand_saved_with_cards_exports_them_and_replay_ignores_them(client, match_id):
    response = post_hand(client, match_id, knocker="Ana", knocker_deadwood="2", opponent_deadwood="18",
                         cards_knocker=" ".join(KNOCKER), cards_defender=" ".join(DEFENDER))
    assert response.status_code == 302
    doc = export(client, match_id)
    assert doc["hands"] == [{"knocker": "Ana", "knocker_deadwood": 2, "opponent_deadwood": 18,
                             "cards": {"knocker": KNOCKER, "defender": DEFENDER}}]
    assert doc["result"]["hands"][0]["points"] == 16
    plain = copy.deepcopy(doc)
    del plain["result"], plain["hands"][0]["cards"]
    with_cards = {k: v for k, v in doc.items() if k != "result"}
    assert replay(json.dumps(with_cards)) == replay(json.dumps(plain)) == doc["result"]

    # The import takes the cards back, and the edit page shows them and keeps them through a change.
    again = import_match(client, with_cards)
    assert export(client, again)["hands"] == doc["hands"]
    page = client.get(f"/matches/{again}/hands/1").get_data(as_text=True)
    assert "Cards, kept with this hand: Ana: 3 of spades 4 of spades" in text(page)
    assert "Ben: 6 of spades" in text(page)
    response = client.post(f"/matches/{again}/hands/1", data={
        "csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"), "knocker": "Ana",
        "knocker_deadwood": "2", "opponent_deadwood": "20",
        "cards_knocker": hidden(page, "cards_knocker"), "cards_defender": hidden(page, "cards_defender")})
    assert response.status_code == 302
    assert export(client, again)["hands"][0]["cards"] == {"knocker": KNOCKER, "defender": DEFENDER}


def test_only_the_sides_tapped_are_kept(client, match_id):
    assert post_hand(client, match_id, knocker="Ben", knocker_deadwood="0", opponent_deadwood="44",
                     cards_knocker=" ".join(GIN), cards_defender="  ").status_code == 302
    assert export(client, match_id)["hands"][0]["cards"] == {"knocker": GIN}


def test_a_typed_points_hand_keeps_no_cards(client, match_id):
    assert post_hand(client, match_id, winner="Ana", points="12", cards_knocker=" ".join(GIN)).status_code == 302
    assert "cards" not in export(client, match_id)["hands"][0]


@pytest.mark.parametrize("fields, message", [
    ({"cards_knocker": "3S ZZ"}, "Knocker's cards: 'ZZ' is not a card"),
    ({"cards_knocker": "3S 3S"}, "Knocker's cards: 3♠ appears twice"),
    ({"cards_knocker": " ".join(KNOCKER + ["AD", "AH"])}, "Knocker's cards: at most 11 cards, not 12"),
    ({"cards_knocker": " ".join(KNOCKER), "cards_defender": "7H"}, "Defender's cards: 7♥ is in the knocker's hand too"),
    ({"cards_defender": "as"}, "Defender's cards: 'as' is not a card"),
])
def test_bad_cards_are_refused_with_the_field_named_and_nothing_stored(client, match_id, fields, message):
    response = post_hand(client, match_id, knocker="Ana", knocker_deadwood="2", opponent_deadwood="18", **fields)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in text(html)
    assert re.search(r'<p class="error" id="cards_(knocker|defender)-error">', html)
    assert export(client, match_id)["hands"] == []


def test_import_refuses_bad_cards_with_the_hand_and_field(client):
    page = client.get("/").get_data(as_text=True)
    doc = {"players": ["Ana", "Ben"], "hands": [
        {"knocker": "Ana", "knocker_deadwood": 2, "opponent_deadwood": 18, "cards": {"knocker": ["ZZ"]}}]}
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"), "text": json.dumps(doc)})
    assert response.status_code == 400
    assert "hand 1, cards.knocker: &#39;ZZ&#39; is not a card" in response.get_data(as_text=True)
