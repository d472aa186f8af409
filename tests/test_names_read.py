"""One reader of names for every kind of name (issue 25): NUL and control characters were stored in
table, match, preset and device names; U+202E in a player's name reversed the heading; "A\u200bna"
and "Ana" were two players who look the same."""
import json
from html import unescape

import pytest
from webutil import hidden, new_match

from app import create_app
from models.game import names
from models.storage.connection import connect
from models.storage.players import player_named, players_summary

BAD = ["a\x00b", "a\u202eb", "a\u2066b", "a\x1fb", "a\u2028b"]


@pytest.mark.parametrize("bad", BAD)
def test_every_name_field_refuses_control_and_format_characters(client, bad):
    """The new match's players, preset and currency; a match's name; a rename and a merge; the device."""
    page = client.get("/matches/new").get_data(as_text=True)
    answer = client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"), "players": [bad, "Ben"],
                                               "format": "hollywood", "preset": "classic", "first_dealer": "1"})
    assert answer.status_code == 400 and "U+" in answer.get_data(as_text=True)
    for field, value in (("save_as", bad), ("currency", bad)):
        answer = client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ben"],
                                                   "format": "hollywood", "preset": "classic", "first_dealer": "1",
                                                   "stake": "0.05", field: value})
        assert answer.status_code == 400, field
    match_id = new_match(client)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/name", data={"csrf_token": hidden(page, "csrf_token"), "name": bad})
    conn = connect(client.application.config["DATABASE"])
    ana = player_named(conn, "Ana", table=1)["id"]
    client.post(f"/players/{ana}/rename", data={"csrf_token": hidden(page, "csrf_token"), "new_name": bad})
    client.post("/device", data={"csrf_token": hidden(page, "csrf_token"), "device": bad, "match": str(match_id)})
    stored = [row[column] for table, column in (("match", "name"), ("player", "name"), ("preset", "name"))
              for row in conn.execute(f"SELECT {column} FROM {table}")]  # noqa: S608 - constant names
    assert not any(value and names.refused_characters(value) for value in stored), stored
    with client.session_transaction() as session:
        assert not names.refused_characters(session.get("device") or "")


def test_a_table_name_with_a_nul_is_refused(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "l.sqlite"), "SECRET_KEY": "k", "HOSTED": True},
                     instance_path=str(tmp_path / "i"))
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    answer = client.post("/tables", data={"csrf_token": hidden(page, "csrf_token"), "table_name": "Club\x00B"})
    assert answer.status_code == 400 and "U+0000" in answer.get_data(as_text=True)


def test_invisible_characters_are_no_part_of_who_a_name_is():
    assert names.identity("A\u200bna") == names.identity("ana") == names.identity("ANA")
    assert names.identity("Zoe\u0308") == names.identity("Zoë")
    assert names.read_name("  Zoe\u0308  ", "players", 40) == "Zoë"
    assert names.read_name("👩\u200d👩\u200d👧", "players", 40) == "👩\u200d👩\u200d👧"  # joiners stay


def test_a_new_name_that_looks_like_a_kept_player_is_asked_about(client):
    new_match(client, players=("Ana", "Ben"))
    page = client.get("/matches/new").get_data(as_text=True)
    fields = {"csrf_token": hidden(page, "csrf_token"), "players": ["\u0410na", "Cleo"], "format": "hollywood",
              "preset": "classic", "first_dealer": "1"}
    asked = client.post("/matches/new", data=fields)
    text = unescape(asked.get_data(as_text=True))
    assert asked.status_code == 400 and "looks like “Ana”" in text and 'name="new_players"' in text
    kept = client.post("/matches/new", data={**fields, "new_players": "y"})
    assert kept.status_code == 302
    players = [row["name"] for row in players_summary(connect(client.application.config["DATABASE"]),
                                                              table=1)]
    assert "\u0410na" in players and "Ana" in players


def test_plain_text_exports_put_each_name_between_isolates(client):
    """A right-to-left name keeps its own direction in a Share text (U+2068 ... U+2069)."""
    match_id = new_match(client, players=("\u05e9\u05e8\u05d4", "Ben"))  # Sarah in Hebrew
    text = client.get(f"/matches/{match_id}/summary.txt").get_data(as_text=True)
    assert "\u2068\u05e9\u05e8\u05d4\u2069" in text and "\u2068Ben\u2069" in text
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert '<h1 class="match-title"><bdi>\u05e9\u05e8\u05d4</bdi>' in page


SPELLINGS = [("ana", "ZOË"), ("ANA", "zoe\u0308"), ("Ana", "Zoe\u0308"), ("a\u200bna", "zoë")]


@pytest.mark.parametrize("ana, zoe", SPELLINGS)
def test_a_match_file_names_a_player_in_any_spelling_of_that_person(ana, zoe):
    """MATCHFILE.md: two names are the same player when they match after NFC, case folding and collapsed
    white space. A hand's knocker or winner and the first dealer are read so, and scored as the match's own."""
    from models.files.matchfile import replay

    def match(one: str, two: str) -> dict:
        return {"players": ["Ana", "Zoë"], "first_dealer": two,
                "hands": [{"knocker": one, "knocker_deadwood": 2, "opponent_deadwood": 30},
                          {"winner": two, "points": 12}, {"knocker": two, "knocker_deadwood": 9, "opponent_deadwood": 4}]}

    assert replay(json.dumps(match(ana, zoe))) == replay(json.dumps(match("Ana", "Zoë")))


def test_an_import_stores_a_hand_under_the_match_s_own_spelling(client):
    from webutil import export, import_match
    doc = {"players": ["Ana", "Zoë"], "first_dealer": "zoe\u0308", "hands": [
        {"knocker": "ANA", "knocker_deadwood": 2, "opponent_deadwood": 30}, {"winner": "zoë", "points": 12}]}
    match_id = import_match(client, doc)
    assert export(client, match_id)["first_dealer"] == "Zoë"
    assert [hand.get("knocker") or hand.get("winner") for hand in export(client, match_id)["hands"]] == ["Ana", "Zoë"]


@pytest.mark.parametrize("other", ["Anna", "An a", 5, None, ["Ana"]])
def test_a_name_of_no_player_is_still_refused_naming_the_field(other):
    from models.errors import MatchError
    from models.files.matchfile import replay
    with pytest.raises(MatchError) as refused:
        replay(json.dumps({"players": ["Ana", "Ben"],
                           "hands": [{"knocker": other, "knocker_deadwood": 2, "opponent_deadwood": 30}]}))
    assert refused.value.hand == 1 and refused.value.field == "knocker"
    with pytest.raises(MatchError) as refused:
        replay(json.dumps({"players": ["Ana", "Ben"], "first_dealer": other}))
    assert refused.value.field == "first_dealer"
