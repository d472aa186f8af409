"""Home, new match, import, export, CSV and rematch through the Flask test client."""
import csv
import io
import json
import re

import pytest

from models.files.matchfile import replay
from casefiles import case_params
from webutil import case, export, hidden, import_match, new_match


def test_home_lists_matches_in_progress_first_with_scores_and_dealer(client):
    import_match(client, case("full-hollywood-match"))
    import_match(client, case("seed001-ana-ben"))
    page = client.get("/").get_data(as_text=True)
    playing, finished = page.split('id="done"')
    assert "108–62" in playing and "Ana deals" in playing
    assert "Ana won 3–0" in finished


def test_new_match_with_modern_preset_and_a_setting_typed_over_it(client):
    match_id = new_match(client, preset="modern", target="150", dealer_rule="alternate", first_dealer="2")
    doc = export(client, match_id)
    assert doc["rules"]["undercut_bonus"] == 25 and doc["rules"]["target"] == 150
    assert doc["rules"]["dealer_rule"] == "alternate"
    assert doc["first_dealer"] == "Ben"
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Game ends at</dt><dd>150" in page


def test_first_dealer_drawn_at_random_is_one_of_the_players(client):
    dealers = {export(client, new_match(client, first_dealer="random"))["first_dealer"] for _ in range(12)}
    assert dealers <= {"Ana", "Ben"} and dealers


@pytest.mark.parametrize("fields, message", [
    ({"players": ["Ana", "Ana"]}, "must differ"),
    ({"players": ["Ana", ""]}, "non-empty"),
    ({"players": ["Ana", "B" * 41]}, "at most 40"),
    ({"knock_limit": "11"}, "between 0 and 10"),
    ({"gin_bonus": "-5"}, "between 0"),
    ({"target": "0"}, "between 1"),
    ({"target": "abc"}, "Not a valid integer"),
    ({"dealer_rule": "random"}, "Not a valid choice"),
])
def test_new_match_refusals_store_nothing(client, fields, message):
    page = client.get("/matches/new").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ben"], "preset": "classic", **fields}
    response = client.post("/matches/new", data=data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert "Being played" in client.get("/").get_data(as_text=True)
    assert client.get("/matches/1").status_code == 404


def test_known_players_are_suggested(client):
    new_match(client, players=("Zuzana", "Peter"))
    page = client.get("/matches/new").get_data(as_text=True)
    assert '<option value="Zuzana">' in page


@pytest.mark.parametrize("path", case_params())  # tables of three and four too: the app stores them
def test_every_case_imports_or_is_refused(client, path):
    doc = json.loads(path.read_text())
    expected = doc.pop("expected")
    page = client.get("/").get_data(as_text=True)
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"), "text": json.dumps(doc)})
    if expected == {"error": True}:
        assert response.status_code == 400
        assert "Not imported" in response.get_data(as_text=True)
        assert client.get("/matches/1").status_code == 404
    else:
        match_id = int(response.headers["Location"].rsplit("/", 1)[1])
        exported = export(client, match_id)
        assert exported["result"] == expected
        again = import_match(client, exported)
        assert export(client, again)["result"] == expected


def test_import_by_file_upload(client):
    page = client.get("/").get_data(as_text=True)
    body = json.dumps(case("seed000-bob-alexandra")).encode()
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"),
                                            "file": (io.BytesIO(body), "match.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302


def test_import_refuses_invalid_utf8(client):
    page = client.get("/").get_data(as_text=True)
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"),
                                            "file": (io.BytesIO(b'{"players": ["\xff"]}'), "m.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "UTF-8" in response.get_data(as_text=True)


def test_import_refuses_a_key_given_twice_and_keeps_nothing(client):
    page = client.get("/").get_data(as_text=True)
    text = '{"players": ["Ana", "Ben"], "rules": {"target": 100, "target": 250}, "hands": []}'
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"), "text": text})
    assert response.status_code == 400
    assert "rules.target: is given twice" in response.get_data(as_text=True)
    assert client.get("/matches/1").status_code == 404


def test_match_page_advertises_its_export(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    link = re.search(r'<link rel="alternate" type="application/json" href="([^"]+)"', page)
    assert link
    doc = json.loads(client.get(link.group(1)).get_data(as_text=True))
    result = doc.pop("result")
    assert replay(json.dumps(doc)) == result
    download = client.get(link.group(1) + "?download=1")
    assert "attachment" in download.headers["Content-Disposition"]


def test_csv_of_the_hands_is_guarded_against_formulas(client):
    doc = {"players": ["=HYPERLINK(1)", "<script>alert(1)</script>"],
           "hands": [{"winner": "=HYPERLINK(1)", "points": 18}]}
    match_id = import_match(client, doc)
    rows = list(csv.reader(io.StringIO(client.get(f"/matches/{match_id}.csv").get_data(as_text=True))))
    assert rows[1][3] == "'=HYPERLINK(1)"
    assert rows[1][4] == "18"
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_rematch_keeps_players_and_rules(client):
    doc = case("modern-preset-single")
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    response = client.post(f"/matches/{match_id}/rematch", data={"csrf_token": hidden(page, "csrf_token")})
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert new_id != match_id
    old, new = export(client, match_id), export(client, new_id)
    assert (new["players"], new["rules"], new["format"]) == (old["players"], old["rules"], old["format"])
    assert new["hands"] == []


def test_every_page_renders(client):
    match_id = import_match(client, case("oklahoma-spades-double"))
    for url in ["/", "/matches/new", f"/matches/{match_id}", f"/matches/{match_id}/hands/1",
                f"/matches/{match_id}.json", f"/matches/{match_id}.csv", "/static/style.css", "/static/app.js"]:
        assert client.get(url).status_code == 200, url


def test_a_table_saves_its_own_preset_and_uses_it_again(client):
    first = new_match(client, preset="modern", target="150", save_as="Club")
    assert export(client, first)["rules"]["target"] == 150
    page = client.get("/matches/new").get_data(as_text=True)
    assert 'value="saved:Club"' in page
    second = new_match(client, preset="saved:Club")
    rules = export(client, second)["rules"]
    assert (rules["target"], rules["undercut_bonus"]) == (150, 25)


def test_an_unknown_preset_is_refused(client):
    page = client.get("/matches/new").get_data(as_text=True)
    response = client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"),
                                                 "players": ["Ana", "Ben"], "preset": "saved:Nope"})
    assert response.status_code == 400
    assert "Not a valid choice" in response.get_data(as_text=True)


def test_a_game_won_with_fewer_boxes_can_settle_against_its_winner(client):
    # Single game: Ben wins 9 hands of 10 points (90), then Ana 100 in one hand.
    # Ana 100 + 100 game + 1 box 25 = 225; Ben 90 + 9 boxes 225 = 315; net 225 - 315 = -90.
    doc = {"format": "single", "players": ["Ana", "Ben"],
           "hands": [{"winner": "Ben", "points": 10}] * 9 + [{"winner": "Ana", "points": 100}]}
    match_id = import_match(client, doc)
    assert export(client, match_id)["result"]["games"][0]["settlement"]["net"] == -90
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "<strong>90</strong> to Ben, who had more boxes" in page
    assert '<span class="winner">Ana</span> wins · −90' in page  # a true minus sign, not a hyphen


def test_new_match_form_takes_every_setting(client):
    """The form names its fields as the settings: one missing from the form, or from the page, would
    silently keep the preset's value. Each setting is sent away from the preset's, and the match keeps it."""
    from models.game.rules import SETTINGS, Rules

    page = client.get("/matches/new").get_data(as_text=True)
    classic, sent, expected = Rules().to_dict(), {}, {}
    for name, declared in SETTINGS.items():
        assert re.search(rf'name="{name}"', page), f"no field for {name} on the page"
        if declared.tables_only:  # a table of three or four's: its form seats three or four (issue 46)
            continue
        if declared.kind is int:
            expected[name] = declared.low if classic[name] != declared.low else declared.low + 1
            sent[name] = str(expected[name])
        elif declared.kind is bool:
            expected[name] = not classic[name]
            sent[name] = "y" if declared.ticked else ("on" if expected[name] else "off")
        else:
            expected[name] = next(word.value for word in declared.choices if word.value != classic[name])
            sent[name] = expected[name]
    match_id = new_match(client, **sent)
    assert export(client, match_id)["rules"] == {**classic, **expected}
