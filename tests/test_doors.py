"""Issue 14, the doors an attacker found open: each test failed before its fix.

Where a door is about processes or the network (the secret key, the rate limit,
a deleted database) the test runs real processes or a real waitress server.
"""
import http.client
import json
import multiprocessing
import os
import sqlite3
import threading
import time
import unicodedata
from pathlib import Path

import pytest

import app as gin_ledger
from models.storage import throttle
from models.errors import SchemaTooNew
from models.game.match import MAX_HANDS
from models.files.matchfile import load_match, name_key
from server import Server
from webutil import case, export, hand_count, hidden, import_match, new_match, post_hand
from models.storage.connection import connect
from models.storage.ledger_file import open_ledger
from models.storage.players import players_summary

HOME = 1  # the one table of a home file: migration 0008 makes it with id 1


# ---- 1. redirects go only to paths of this site --------------------------------

EVIL_TARGETS = ["/\t/evil.example/", "/\n/evil.example/", "/\r\n//evil.example", "//evil.example/",
                "/\\evil.example", "\\/evil.example", "https://evil.example/", "javascript:alert(1)",
                "/\n", " //evil.example", "/\x00x", "/\u2028/evil.example", "evil.example"]


@pytest.mark.parametrize("target", EVIL_TARGETS)
def test_the_language_switch_never_leaves_the_site(client, target):
    response = client.get("/language/cs", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_the_language_switch_goes_back_to_a_path_of_this_site(client):
    response = client.get("/language/cs", query_string={"next": "/matches/new?a=1%2F2"})
    assert response.headers["Location"] == "/matches/new?a=1%2F2"


@pytest.fixture
def private(tmp_path):
    app = gin_ledger.create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "k",
                                 "PASSPHRASE": "open sesame"})
    return app.test_client()


@pytest.mark.parametrize("target", EVIL_TARGETS)
def test_the_login_never_sends_a_player_off_the_site(private, target):
    page = private.get("/login").get_data(as_text=True)
    response = private.post("/login", query_string={"next": target},
                            data={"csrf_token": hidden(page, "csrf_token"), "passphrase": "open sesame"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


# ---- 2. an edit or undo without a readable version is refused as stale ---------------

@pytest.mark.parametrize("version", [None, "", "abc", "1e3", "1_0", " 1", "-1", "9" * 5000])
def test_an_undo_without_its_version_deletes_nothing(client, version):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token")}
    if version is not None:
        data["version"] = version
    response = client.post(f"/matches/{match_id}/undo", data=data, follow_redirects=True)
    assert hand_count(client, match_id) == 6
    text = response.get_data(as_text=True)
    assert "changed on another phone" in text or (len(version) > 18 and "nothing was changed" in text)


@pytest.mark.parametrize("version", [None, "abc", "1e3"])
def test_an_edit_without_its_version_changes_nothing(client, version):
    match_id = import_match(client, case("seed001-ana-ben"))
    before = export(client, match_id)["hands"][0]
    page = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), "draw": "y"}
    if version is not None:
        data["version"] = version
    client.post(f"/matches/{match_id}/hands/1", data=data)
    assert export(client, match_id)["hands"][0] == before


def test_an_undo_with_its_version_still_works(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/undo", data={"csrf_token": hidden(page, "csrf_token"),
                                                   "version": hidden(page, "version")})
    assert hand_count(client, match_id) == 5


# ---- 3. every field has a length limit, and the refusal names it ---------------------

@pytest.mark.parametrize("field, value", [
    ("form_id", "x" * 450_000),
    ("version", "1" * 100),
    ("cards_knocker", "AS " * 5000),
    ("cards_defender", "2H " * 5000),
    ("upcard", "7H" * 1000),
    ("knocker", "A" * 5000),
])
def test_an_overlong_hand_field_is_refused_by_name(client, field, value):
    match_id = new_match(client)
    fields = {"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22", field: value}
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), **fields}
    response = client.post(f"/matches/{match_id}/hands", data=data)
    assert response.status_code == 400
    assert hand_count(client, match_id) == 0
    text = response.get_data(as_text=True)
    assert "at most" in text and (field in text or "Knocker&#39;s cards" in text or "Defender&#39;s cards" in text
                                  or "Upcard" in text or "Who knocked?" in text), text[:3000]


def test_an_overlong_name_and_import_are_refused(client):
    page = client.get("/matches/new").get_data(as_text=True)
    response = client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"),
                                                  "players": ["A" * 100_000, "Ben"], "first_dealer": "1"})
    assert response.status_code == 400
    assert client.get("/players").get_data(as_text=True).count("AAAA") == 0
    page = client.get("/").get_data(as_text=True)
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"),
                                            "text": " " * 1_100_000 + json.dumps(case("seed001-ana-ben"))})
    assert response.status_code == 400
    assert "text" in response.get_data(as_text=True)


def test_a_hand_with_fields_of_ordinary_length_is_saved(client):
    match_id = new_match(client)
    response = post_hand(client, match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="22",
                         cards_knocker="AS 2S 3S 4S 5S 6S 7S 8S 9S 10S KH")
    assert response.status_code == 302


# ---- 4. counts are digits, read with a cap ---------------------------------------

@pytest.mark.parametrize("limit", ["\u00b2", "\u00b3", "\u2460", "1" * 4301, "1_0", " 5", "5 ", "+5", "-0",
                                   "\uff15x", "1\u0663"])
def test_the_arrange_api_refuses_what_is_not_a_count(client, limit):
    response = client.get("/api/arrange", query_string={"cards": "AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "limit": limit})
    assert response.status_code == 400
    assert "limit" in response.get_json()["error"]


@pytest.mark.parametrize("limit, status", [("10", "may_knock"), ("\u0663", "cannot_knock"),
                                           ("\u0967\u0966", "may_knock")])
def test_the_arrange_api_reads_digits_of_any_script(client, limit, status):
    response = client.get("/api/arrange", query_string={"cards": "AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "limit": limit})
    assert response.status_code == 200, response.get_json()
    knock = response.get_json()
    assert knock["points"] == 10
    assert knock["status"] == ("knock" if status == "may_knock" else "over")


@pytest.mark.parametrize("value", ["1_0", "\u00b2", "1" * 4301])
def test_the_hand_form_refuses_what_is_not_a_count(client, value):
    match_id = new_match(client)
    response = post_hand(client, match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood=value)
    assert response.status_code == 400
    assert hand_count(client, match_id) == 0


def test_the_hand_form_reads_arabic_indic_digits(client):
    match_id = new_match(client)
    assert post_hand(client, match_id, knocker="Ana", knocker_deadwood="\u0663",
                     opponent_deadwood="\u0662\u0662").status_code == 302
    assert export(client, match_id)["hands"][0] == {"knocker": "Ana", "knocker_deadwood": 3,
                                                     "opponent_deadwood": 22}


# ---- 5. one person per name -----------------------------------------------------

ZOE_NFC, ZOE_NFD = unicodedata.normalize("NFC", "Zoë"), unicodedata.normalize("NFD", "Zoë")


def test_the_identity_key_is_nfc_case_folded_with_spaces_collapsed():
    assert name_key("Ana") == name_key("ana") == name_key("ANA")
    assert name_key(ZOE_NFC) == name_key(ZOE_NFD) and ZOE_NFC != ZOE_NFD
    assert name_key("Ana  Maria") == name_key("ana maria")
    assert name_key("Ana") != name_key("Anna")


@pytest.mark.parametrize("players", [("Ana", "ANA"), (ZOE_NFC, ZOE_NFD), ("Ana Maria", "ana  maria")])
def test_a_file_or_form_naming_one_person_twice_is_refused(client, players):
    with pytest.raises(Exception) as refused:
        load_match(json.dumps({"players": list(players), "hands": []}))
    assert "players" in str(refused.value)
    page = client.get("/matches/new").get_data(as_text=True)
    response = client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"),
                                                  "players": list(players), "first_dealer": "1"})
    assert response.status_code == 400


def test_a_second_spelling_is_the_same_player(client):
    new_match(client, players=("Ana", ZOE_NFC))
    new_match(client, players=("ana", ZOE_NFD))
    import_match(client, {"players": ["ANA", "Ben"], "hands": []})
    assert sorted(player_names(client)) == ["Ana", "Ben", ZOE_NFC]


def player_names(client) -> list[str]:
    conn = connect(client.application.config["DATABASE"])
    try:
        return [row["name"] for row in players_summary(conn, table=HOME)]
    finally:
        conn.close()


def player_ids(client) -> dict:
    conn = connect(client.application.config["DATABASE"])
    try:
        return {row["name"]: row["id"] for row in players_summary(conn, table=HOME)}
    finally:
        conn.close()


def test_a_rename_to_another_players_spelling_is_refused_and_every_export_replays(client, runner, tmp_path):
    match_id = new_match(client, players=("Rena", "Tom"))
    page = client.get("/players").get_data(as_text=True)
    ids = player_ids(client)
    response = client.post(f"/players/{ids['Tom']}/rename", data={"csrf_token": hidden(page, "csrf_token"),
                                                                  "new_name": "RENA"}, follow_redirects=True)
    assert "Not renamed" in response.get_data(as_text=True)
    doc = export(client, match_id)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc))
    assert runner.invoke(args=["replay", str(path)]).exit_code == 0
    renamed = client.post(f"/players/{ids['Rena']}/rename", data={"csrf_token": hidden(page, "csrf_token"),
                                                                  "new_name": "RENA"}, follow_redirects=True)
    assert "is now RENA" in renamed.get_data(as_text=True)  # one person's own spelling may change
    assert sorted(player_names(client)) == ["RENA", "Tom"]


def test_a_merge_finds_a_player_by_another_spelling(client):
    new_match(client, players=("Ana", "Ben"))
    page = client.get("/players").get_data(as_text=True)
    response = client.post("/players/merge", data={"csrf_token": hidden(page, "csrf_token"), "keep": "ANA",
                                                   "drop": "ana"}, follow_redirects=True)
    assert "choose two different players" in response.get_data(as_text=True)


# ---- 6. the secret key is made once, atomically ------------------------------------

def make_key(folder: str, start, results) -> None:
    start.wait()
    try:
        results.put(("key", gin_ledger.secret_key(folder)))
    except BaseException as error:  # what the test reports, whatever it is
        results.put(("raised", repr(error)))


@pytest.mark.slow
def test_four_processes_on_a_fresh_instance_agree_on_one_key(tmp_path):
    context = multiprocessing.get_context("fork")
    failures, trials = [], 100
    for trial in range(trials):
        folder = tmp_path / str(trial)
        folder.mkdir()
        start, results = context.Barrier(4), context.Queue()
        processes = [context.Process(target=make_key, args=(str(folder), start, results)) for _ in range(4)]
        for process in processes:
            process.start()
        answers = [results.get(timeout=30) for _ in processes]
        for process in processes:
            process.join(timeout=30)
        keys = {value for kind, value in answers if kind == "key"}
        if len(keys) != 1 or "" in keys or any(kind == "raised" for kind, _ in answers):
            failures.append(answers)
        assert sorted(os.listdir(folder)) == ["secret_key"], os.listdir(folder)
    assert not failures, f"{len(failures)} of {trials} trials: {failures[:3]}"


# ---- 7. the login rate limit under a burst -----------------------------------------

PASSPHRASE = "open sesame"


def post_from(base: str, source: str, path: str, fields: dict, cookie: str) -> int:
    """A POST from another loopback address (127.0.0.0/8 is all this machine)."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    body = "&".join(f"{k}={v}" for k, v in fields.items())
    conn.request("POST", path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded",
                                                   "Cookie": cookie})
    status = conn.getresponse().status
    conn.close()
    return status


@pytest.mark.slow
def test_a_burst_of_40_wrong_tries_checks_at_most_10(tmp_path, record_property):
    with Server(tmp_path / "db.sqlite", threads=40, env={"FLASK_PASSPHRASE": PASSPHRASE}) as server:
        clients = [server.client() for _ in range(40)]
        tokens = [client.page_fields("/login", "csrf_token") for client in clients]
        start = threading.Barrier(40)
        statuses = [None] * 40

        def attempt(i):
            start.wait()
            statuses[i] = clients[i].post("/login", {**tokens[i], "passphrase": f"guess {i}"}).status

        threads = [threading.Thread(target=attempt, args=(i,)) for i in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        checked = statuses.count(403)
        record_property("checked_of_40", checked)
        assert checked <= 10 and statuses.count(429) == 40 - checked, statuses
        assert clients[0].post("/login", {**tokens[0], "passphrase": PASSPHRASE}).status == 429
        other = server.client()
        token = other.page_fields("/login", "csrf_token")["csrf_token"]
        cookie = "; ".join(f"{c.name}={c.value}" for c in other.jar)
        assert post_from(server.base, "127.0.0.2", "/login",
                         {"csrf_token": token, "passphrase": PASSPHRASE.replace(" ", "+")}, cookie) == 302


def test_the_right_passphrase_from_a_quiet_address_is_never_refused(tmp_path):
    conn = open_ledger(str(tmp_path / "db.sqlite"))
    for _ in range(30):
        throttle.attempt(conn, "10.0.0.1", correct=False)
    assert throttle.attempt(conn, "10.0.0.1", correct=True) is throttle.BLOCKED
    assert throttle.attempt(conn, "10.0.0.2", correct=True) is throttle.PASSED
    assert throttle.attempt(conn, "10.0.0.3", correct=False) is throttle.WRONG
    assert throttle.attempt(conn, "10.0.0.3", correct=True) is throttle.PASSED


# ---- 8. a match has a hand limit -----------------------------------------------------

def draws(count: int) -> dict:
    return {"players": ["Ana", "Ben"], "hands": [{"draw": True}] * count}


def test_an_import_over_the_hand_limit_is_refused_naming_hands(client):
    with pytest.raises(Exception) as refused:
        load_match(json.dumps(draws(MAX_HANDS + 1)), most_hands=MAX_HANDS)
    assert str(refused.value).startswith("hands:")
    assert len(load_match(json.dumps(draws(MAX_HANDS + 1))).hands) == MAX_HANDS + 1  # replay's contract has none
    page = client.get("/").get_data(as_text=True)
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"),
                                            "text": json.dumps(draws(MAX_HANDS + 1))})
    assert response.status_code == 400 and "hands" in response.get_data(as_text=True)


def test_the_largest_match_is_accepted_and_no_hand_added_beyond_it(client, record_property):
    match_id = import_match(client, draws(MAX_HANDS))
    began = time.perf_counter()
    assert client.get(f"/matches/{match_id}").status_code == 200
    record_property("page_seconds_2000_hands", round(time.perf_counter() - began, 3))
    response = post_hand(client, match_id, draw="y")
    assert response.status_code == 400 and str(MAX_HANDS) in response.get_data(as_text=True)
    assert hand_count(client, match_id) == MAX_HANDS


# ---- 9. a deleted database is an error, never a new empty file -----------------------

@pytest.mark.slow
def test_a_deleted_database_answers_503_and_writes_nothing(tmp_path):
    database = tmp_path / "db.sqlite"
    with Server(database) as server:
        phone = server.client()
        match_id = phone.import_match(case("seed001-ana-ben"))
        token = phone.page_fields("/", "csrf_token")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        for path in ("/", f"/matches/{match_id}", "/players"):
            answer = phone.get(path)
            assert answer.status == 503, (path, answer.status)
            assert "database" in answer.body.lower()
        assert phone.post("/import", {**token, "text": json.dumps(case("seed001-ana-ben"))}).status == 503
        assert not database.exists()
        assert "database" in server.log().lower() and str(database) in server.log()


def test_a_database_of_a_newer_schema_is_never_written(tmp_path):
    database = tmp_path / "db.sqlite"
    conn = sqlite3.connect(database)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    before = database.read_bytes()
    with pytest.raises(gin_ledger.StartRefused) as refused:
        gin_ledger.create_app({"DATABASE": str(database), "SECRET_KEY": "k"})
    assert isinstance(refused.value.reason, SchemaTooNew)
    assert database.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["db.sqlite"]


# ---- 10. a byte-order mark is welcome --------------------------------------------------

def test_a_match_file_with_a_byte_order_mark_is_read(client):
    text = json.dumps(case("seed001-ana-ben"))
    assert len(load_match(b"\xef\xbb\xbf" + text.encode()).hands) == 6
    assert len(load_match("\ufeff" + text).hands) == 6
    page = client.get("/").get_data(as_text=True)
    response = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"), "text": "\ufeff" + text})
    assert response.status_code == 302


# ---- 11. contradictions are refused, with the field named ----------------------------

def test_a_bad_upcard_on_a_plain_match_is_named(client):
    match_id = new_match(client)
    response = post_hand(client, match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="22", upcard="ZZ")
    assert response.status_code == 400
    assert "Upcard" in response.get_data(as_text=True)


def test_a_bad_spade_double_is_named(client):
    page = client.get("/matches/new").get_data(as_text=True)
    response = client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ben"],
                                                  "first_dealer": "1", "spade_double": "maybe"})
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "Spade upcard doubles" in text.split("</summary>")[1].split("</details>")[0].split("Not a valid")[0] \
        and "Not a valid choice" in text


@pytest.mark.parametrize("fields, field", [
    ({"draw": "y", "knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22", "winner": "Ben",
      "points": "20"}, "knocker"),
    ({"draw": "y", "winner": "Ben", "points": "20"}, "winner"),
    ({"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22", "points": "20"}, "knocker"),
    ({"knocker": ["Ana", "Ben"], "knocker_deadwood": "4", "opponent_deadwood": "22"}, "knocker"),
    ({"knocker": "Ana", "knocker_deadwood": ["4", "9"], "opponent_deadwood": "22"}, "knocker_deadwood"),
])
def test_a_contradictory_hand_is_refused_naming_a_field(client, fields, field):
    match_id = new_match(client)
    response = post_hand(client, match_id, **fields)
    assert response.status_code == 400, export(client, match_id)
    assert hand_count(client, match_id) == 0
    assert field in response.get_data(as_text=True) or "Who knocked?" in response.get_data(as_text=True)
