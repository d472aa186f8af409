"""Many tables on one server (FLASK_HOSTED=1), against a real waitress process.

Two tables, each with matches, players (one name shared by both), a preset and hands.
Every rule of the app that lives under /t/<table_key> is asked with table A's key and
table B's ids, with a wrong key, and without a key: nothing of B is ever found from A,
nothing of a table without its key. Then the exports, the front page's list, a table's
own passphrase, the language switch under the prefix, and a home file from before
tables upgrading with every match in its home table at today's addresses.
"""
from __future__ import annotations

import io
import json
import re
import secrets
import sqlite3
import zipfile
from collections import Counter
from urllib.parse import quote, urlsplit

import pytest
from werkzeug.exceptions import MethodNotAllowed, NotFound

from app import create_app
from models.storage import schema
from server import Client, Server, hidden
from models.storage.connection import connect, immediate

HOSTED = {"FLASK_HOSTED": "1", "FLASK_TABLE_STARTS_PER_MINUTE": "100"}  # these tests start many tables
ARGUMENT = re.compile(r"<(?:\w+:)?(\w+)>")
B_ONLY = ("Zoltan", "Yvette", "Brigid rules", "Club B")  # words only table B's data holds
NO_TABLE_KEY = "/t/<table_key>"
METHODS = ("GET", "POST")  # each rule is asked both ways, whichever it has


def start_table(client: Client, name: str) -> str:
    """Start a table from the front page; returns its address /t/<key>/ (where the 303 points)."""
    fields = client.page_fields("/", "csrf_token")
    answer = client.post("/tables", {**fields, "table_name": name})
    assert answer.status == 303, (answer.status, answer.body[:500])
    path = urlsplit(answer.location).path
    assert re.fullmatch(r"/t/[A-Za-z0-9_-]{32,}/", path), path
    return path


def new_match(client: Client, table: str, players: tuple[str, str], **fields) -> int:
    form = client.page_fields(table + "matches/new", "csrf_token")
    answer = client.post(table + "matches/new", {**form, "players": list(players), "format": "hollywood",
                                                 "preset": "classic", "first_dealer": "1", **fields})
    assert answer.status == 302, (answer.status, answer.body[:800])
    path = urlsplit(answer.location).path
    assert path.startswith(table + "matches/"), path
    return int(path.rsplit("/", 1)[1])


def post_hand(client: Client, table: str, match_id: int, **fields):
    form = client.page_fields(f"{table}matches/{match_id}", "csrf_token", "form_id")
    return client.post(f"{table}matches/{match_id}/hands", {**form, **fields})


def player_ids(client: Client, table: str) -> dict[str, int]:
    page = client.get(table + "players")
    assert page.status == 200
    return {name: int(number) for number, name in
            re.findall(re.escape(table) + r'players/(\d+)"><strong>([^<]+)<', page.body)}


def fill(rule: str, values: dict) -> str:
    return ARGUMENT.sub(lambda found: quote(str(values[found.group(1)]), safe=""), rule)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One hosted server with tables A and B, and one phone (browser) at each."""
    folder = tmp_path_factory.mktemp("tables")
    with Server(folder / "ledger.sqlite", env=HOSTED) as server:
        one, two = server.client(), server.client()
        a, b = start_table(one, "Club A"), start_table(two, "Club B")
        a_match = new_match(one, a, ("Ana", "Ben"), save_as="Alba rules")
        assert post_hand(one, a, a_match, knocker="Ana", knocker_deadwood="3", opponent_deadwood="20").status == 302
        new_match(one, a, ("Ana", "Cleo"))
        b_match = new_match(two, b, ("Ana", "Zoltan"), save_as="Brigid rules")
        assert post_hand(two, b, b_match, knocker="Zoltan", knocker_deadwood="2", opponent_deadwood="30").status == 302
        b_other = new_match(two, b, ("Yvette", "Zoltan"))
        b_token = re.search(r"/view/([\w-]+)", two.get(f"{b}matches/{b_match}/join").body).group(1)
        b_players = player_ids(two, b)
        # A hosted table's addresses name its matches by their number at the table; the ids count across
        # the server (A's matches are 1 and 2, B's 3 and 4), and only the file says them.
        assert (a_match, b_match, b_other) == (1, 1, 2)
        with sqlite3.connect(folder / "ledger.sqlite") as conn:
            b_ids = [row[0] for row in conn.execute("SELECT m.id FROM match m JOIN play_table t ON t.id = m.table_id"
                                                    " WHERE t.key = ? ORDER BY m.id", (b.split("/")[2],))]
        assert b_ids == [3, 4]
        yield dict(server=server, one=one, two=two, a=a, b=b, a_match=a_match, b_match=b_match, b_other=b_other,
                   b_match_id=b_ids[0], b_token=b_token, a_players=player_ids(one, a), b_players=b_players,
                   folder=folder)


@pytest.fixture(scope="module")
def table_rules(world):
    """Every rule of the hosted app, as its url_map lists them."""
    app = create_app({"TESTING": True, "HOSTED": 1, "SECRET_KEY": "test",
                      "DATABASE": str(world["folder"] / "map-only.sqlite")})
    rules = list(app.url_map.iter_rules())
    inside = [rule for rule in rules if "table_key" in rule.arguments]
    assert len(inside) >= 37, [rule.rule for rule in inside]
    # The spectator's four addresses are the only match pages outside the table: they name a token.
    spectator = sorted(rule.rule for rule in rules if rule.endpoint.startswith("readonly."))
    assert spectator == ["/view/<token>", "/view/<token>/big", "/view/<token>/live", "/view/<token>/sheet"]
    return app, inside


def ask(client: Client, method: str, path: str, csrf: str):
    """GET, or POST with a valid CSRF token of this browser, so the view itself answers."""
    return client.get(path) if method == "GET" else client.post(path, {"csrf_token": csrf})


def expected(rules, rule, method: str) -> int:
    """404 for a method the address has (one address may be two rules, GET and POST); a method it
    lacks is refused (405) by the routing, before any table or data is looked at."""
    allowed = set().union(*(other.methods for other in rules if other.rule == rule.rule))
    return 404 if method in allowed else 405


@pytest.mark.slow
def test_a_table_address_is_unguessable_and_its_page_is_its_own(world):
    a = world["a"]
    key = a.split("/")[2]
    assert len(key) >= 32  # secrets.token_urlsafe(24): 192 random bits
    home = world["one"].get(a)
    assert home.status == 200 and "Club A" in home.body
    assert all(word not in home.body for word in B_ONLY)
    assert f'href="{a}matches/new"' in home.body and f'{a}players' in home.body
    # The home page's QR and link for a second phone hold the table's own address.
    assert re.search(rf'<a href="http://[^"]+{re.escape(a)}">', home.body)


@pytest.mark.slow
def test_every_route_of_table_a_asked_with_table_b_ids_is_404(world, table_rules, record_property):
    app, rules = table_rules
    one, b_players = world["one"], world["b_players"]
    csrf = one.page_fields(world["a"], "csrf_token")["csrf_token"]
    # B's match by its id: A has no match of that number (B's numbers at A are A's own matches).
    values = {"table_key": world["a"].split("/")[2], "match_id": world["b_match_id"], "number": 1, "hand_id": 1,
              "player_id": b_players["Zoltan"], "other_id": b_players["Yvette"], "token": world["b_token"]}
    counts, tried = Counter(), 0
    for rule in rules:
        if not set(rule.arguments) & {"match_id", "player_id", "other_id", "token"}:
            continue
        for method in METHODS:
            answer = ask(one, method, fill(rule.rule, values), csrf)
            tried += 1
            counts[(method, answer.status)] += 1
            assert answer.status == expected(rules, rule, method), (method, rule.rule, answer.status, answer.body[:300])
            assert all(word not in answer.body for word in B_ONLY), (method, rule.rule)
    record_property("b_ids_under_a", dict(counts))
    print("B's ids under A's key:", tried, dict(counts))
    assert tried >= 56  # 37 table rules; the spectator's 3 are global (a token, not a table key)
    # Players are also named in forms: merging B's two players from A finds neither.
    merged = one.post(world["a"] + "players/merge", {"csrf_token": csrf, "keep": "Zoltan", "drop": "Yvette"})
    assert merged.status == 302
    # B's data is untouched by all those POSTs (rename, delete, undo, abandon, rematch, merge...).
    b_file = json.loads(world["two"].get(f"{world['b']}matches/{world['b_match']}.json").body)
    assert b_file["players"] == ["Ana", "Zoltan"] and len(b_file["hands"]) == 1
    assert player_ids(world["two"], world["b"]) == b_players


@pytest.mark.slow
def test_every_page_of_table_a_answers_its_own_browser(world, table_rules):
    """The same crawl with A's own ids: every page of a table works under its prefix (no 404, no 500)."""
    app, rules = table_rules
    values = {"table_key": world["a"].split("/")[2], "match_id": world["a_match"], "number": 1, "hand_id": 1,
              "player_id": world["a_players"]["Ana"], "other_id": world["a_players"]["Ben"],
              "token": re.search(r"/view/([\w-]+)", world["one"].get(
                  f"{world['a']}matches/{world['a_match']}/join").body).group(1)}
    counts = Counter()
    for rule in rules:
        if "GET" in rule.methods:
            answer = world["one"].get(fill(rule.rule, values))
            counts[answer.status] += 1
            held = (503,) if rule.rule.endswith("/stream") else ()  # waitress holds no stream: the page polls
            assert answer.status in (200, 302, 303, 400, *held), (rule.rule, answer.status, answer.body[:300])
    assert counts[200] >= 21, counts


@pytest.mark.slow
def test_every_table_route_with_a_wrong_key_is_404(world, table_rules):
    app, rules = table_rules
    one = world["one"]
    csrf = one.page_fields(world["a"], "csrf_token")["csrf_token"]
    values = {"table_key": secrets.token_urlsafe(24), "match_id": world["a_match"], "number": 1, "hand_id": 1,
              "player_id": world["a_players"]["Ana"], "other_id": world["a_players"]["Ben"], "token": "x"}
    counts = Counter()
    for rule in rules:
        for method in METHODS:
            answer = ask(one, method, fill(rule.rule, values), csrf)
            counts[(method, answer.status)] += 1
            assert answer.status == expected(rules, rule, method), (method, rule.rule, answer.status)
    print("wrong key:", sum(counts.values()), dict(counts))


@pytest.mark.slow
def test_every_table_route_without_a_key_is_404_unless_it_is_a_global_page(world, table_rules):
    app, rules = table_rules
    one = world["server"].client()  # a browser that opened no table: the front page lists none
    csrf = one.page_fields("/", "csrf_token")["csrf_token"]
    values = {"match_id": world["a_match"], "number": 1, "hand_id": 1, "player_id": world["a_players"]["Ana"],
              "other_id": world["a_players"]["Ben"], "token": "x"}
    adapter = app.url_map.bind("127.0.0.1")
    counts, globals_ = Counter(), set()
    for rule in rules:
        path = fill(rule.rule.replace(NO_TABLE_KEY, "", 1), values) or "/"
        for method in METHODS:
            try:
                adapter.match(path, method)
                outside = True  # '/', '/login': the server's own pages, outside every table
            except MethodNotAllowed:
                outside = True  # one of those pages, asked with a method it lacks
            except NotFound:
                outside = False
            answer = ask(one, method, path, csrf)
            counts[(method, answer.status)] += 1
            if outside:
                globals_.add(path)
                assert "Club A" not in answer.body and answer.status != 500
                continue
            assert answer.status == 404, (method, path, answer.status)
    assert globals_ == {"/", "/login"}, globals_
    print("no key:", sum(counts.values()), dict(counts), "global pages:", sorted(globals_))


@pytest.mark.slow
def test_the_exports_of_a_hold_nothing_of_b(world):
    one, a = world["one"], world["a"]
    archive = one.get(a + "export.zip")
    assert archive.status == 200
    # The client decodes bodies as text; the zip is fetched again as bytes.
    import urllib.request
    with one.opener.open(urllib.request.Request(world["server"].base + a + "export.zip")) as raw:
        files = zipfile.ZipFile(io.BytesIO(raw.read()))
    docs = [json.loads(files.read(name)) for name in files.namelist()]
    assert sorted(doc["players"][1] for doc in docs) == ["Ben", "Cleo"]
    text = json.dumps(docs) + one.get(f"{a}matches/{world['a_match']}.csv").body + \
        one.get(f"{a}players/{world['a_players']['Ana']}.csv").body + one.get(a + "players").body
    assert all(word not in text for word in B_ONLY)
    new_page = one.get(a + "matches/new").body  # presets and player suggestions are the table's own
    assert "Alba rules" in new_page and "Brigid rules" not in new_page
    assert "Zoltan" not in new_page and "Yvette" not in new_page


@pytest.mark.slow
def test_a_name_is_one_person_per_table(world):
    """Ana plays at both tables: two players, each with only their own table's matches."""
    assert world["a_players"]["Ana"] != world["b_players"]["Ana"]
    record = world["one"].get(f"{world['a']}players/{world['a_players']['Ana']}").body
    assert "Ben" in record and "Zoltan" not in record


@pytest.mark.slow
def test_the_front_page_lists_the_tables_this_browser_opened_and_only_those(world):
    server = world["server"]
    assert "Club A" in world["one"].get("/").body and "Club B" not in world["one"].get("/").body
    assert "Club B" in world["two"].get("/").body and "Club A" not in world["two"].get("/").body
    stranger = server.client()
    front = stranger.get("/")
    assert front.status == 200 and 'name="table_name"' in front.body
    assert "Your tables" not in front.body and "Club" not in front.body
    # A spectator's link does not make the table one of this browser's.
    assert stranger.get(f"/view/{world['b_token']}").status == 200
    assert "Club B" not in stranger.get("/").body
    assert stranger.get(world["b"]).status == 200  # its address is the way in
    assert "Club B" in stranger.get("/").body and "Club A" not in stranger.get("/").body


@pytest.mark.slow
def test_a_start_without_a_name_is_refused_on_the_front_page(world):
    client = world["server"].client()
    fields = client.page_fields("/", "csrf_token")
    assert client.post("/tables", {**fields, "table_name": "x" * 81}).status == 400
    assert client.post("/tables", {"table_name": "No token"}).status in (303, 400)  # CSRF: back with a message
    assert "Your tables" not in client.get("/").body


@pytest.mark.slow
def test_a_table_passphrase_asks_every_other_browser(world, tmp_path):
    server = world["server"]
    owner = server.client()
    table = start_table(owner, "Club P")
    match_id = new_match(owner, table, ("Ana", "Ben"))
    fields = owner.page_fields(table, "csrf_token")
    assert owner.post(table + "passphrase", {**fields, "passphrase": "ab"}).status == 303  # too short: refused
    assert owner.get(table).status == 200
    assert owner.post(table + "passphrase", {**fields, "passphrase": "green felt"}).status == 303
    assert owner.get(table).status == 200  # the one who set it stays in
    with sqlite3.connect(world["folder"] / "ledger.sqlite") as conn:
        stored = conn.execute("SELECT passphrase_hash FROM play_table WHERE name = 'Club P'").fetchone()[0]
    assert "green felt" not in stored and stored.startswith(("scrypt:", "pbkdf2:"))
    other = server.client()
    answer = other.get(f"{table}matches/{match_id}")
    assert answer.status == 302
    # A number the table never gave is asked for the passphrase as well: nothing says how many it gave.
    assert other.get(f"{table}matches/{match_id + 1}").status == 302
    assert other.get(f"{table}matches/{match_id + 1}/live").status == 302
    login = urlsplit(answer.location)
    assert login.path == table + "login" and f"next={table}matches/{match_id}" in login.query
    page = other.get(login.path + "?" + login.query)
    assert page.status == 200 and "Ana" not in page.body
    token = hidden(page.body, "csrf_token")
    assert other.post(login.path + "?" + login.query, {"csrf_token": token, "passphrase": "red felt"}).status == 403
    assert other.get(f"{table}matches/{match_id}.json").status == 302
    come_in = other.post(login.path + "?" + login.query, {"csrf_token": token, "passphrase": "green felt"})
    assert come_in.status == 302 and urlsplit(come_in.location).path == f"{table}matches/{match_id}"
    assert other.get(f"{table}matches/{match_id}").status == 200
    assert other.get(world["b"]).status == 200  # other tables are not affected
    # A new passphrase asks again everywhere but where it was set.
    assert owner.post(table + "passphrase", {**fields, "passphrase": "blue felt"}).status == 303
    assert other.get(table).status == 302 and owner.get(table).status == 200


@pytest.mark.slow
def test_the_language_switch_and_the_join_page_stay_on_the_table(world):
    one, a, match_id = world["one"], world["a"], world["a_match"]
    join = one.get(f"{a}matches/{match_id}/join")
    assert join.status == 200
    assert re.search(rf'<a href="http://[^"]+{re.escape(a)}matches/{match_id}">', join.body)
    assert re.search(r'<a href="http://[^"/]+/view/[\w-]+">', join.body)  # the spectator's: no table key
    switch = re.search(r'href="(/language/cs\?next=[^"]+)"', join.body).group(1).replace("&amp;", "&")
    answer = one.get(switch)
    assert answer.status == 303 and urlsplit(answer.location).path == f"{a}matches/{match_id}/join"
    assert 'lang="cs"' in one.get(a).body
    one.get("/language/en?next=/")
    # Static files, the service worker and the manifest stay global.
    assert one.get("/sw.js").status == 200 and one.get("/static/manifest.webmanifest").status == 200
    assert one.get(a + "sw.js").status == 404


# ---- a home server ----------------------------------------------------------------

THEN = "2026-01-02T20:00:00+00:00"


def before_tables() -> tuple[str, ...]:
    """The migrations before the one that made tables (0008): a file at that version is a home file of old."""
    scripts = schema.migrations()
    return scripts[:next(number for number, script in enumerate(scripts) if "CREATE TABLE play_table" in script)]


def old_home_file(path) -> None:
    """A home file as the code before tables left it, with a played match and a preset."""
    conn = connect(str(path))
    with immediate(conn):
        for number, script in enumerate(before_tables(), start=1):
            for statement in schema.split_statements(script):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("INSERT INTO player (name, created) VALUES ('Ana', ?), ('Ben', ?)", (THEN, THEN))
        conn.execute("""INSERT INTO match (player1_id, player2_id, format, rules, first_dealer, created, view_token)
                        VALUES (1, 2, 'hollywood', '{}', 0, ?, 'old-token')""", (THEN,))
        conn.execute("""INSERT INTO hand (match_id, position, kind, knocker, knocker_deadwood, opponent_deadwood,
                        created) VALUES (1, 1, 'knock', 0, 3, 20, ?)""", (THEN,))
        conn.execute("INSERT INTO preset (name, rules, created) VALUES ('Ours', '{}', ?)", (THEN,))
    conn.close()


def test_a_home_file_from_before_tables_keeps_every_match_at_todays_addresses(tmp_path):
    path = tmp_path / "home.sqlite"
    old_home_file(path)
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test"})
    conn = sqlite3.connect(path)
    home_id = conn.execute("SELECT id FROM play_table WHERE home = 1").fetchone()[0]
    assert conn.execute("SELECT COUNT(*) FROM play_table").fetchone()[0] == 1
    for name in ("match", "player", "preset"):
        assert {row[0] for row in conn.execute(f"SELECT table_id FROM {name}")} == {home_id}  # nosec B608
    home_key = conn.execute("SELECT key FROM play_table").fetchone()[0]
    conn.close()
    assert not any("table_key" in rule.arguments for rule in app.url_map.iter_rules())
    client = app.test_client()
    home = client.get("/").get_data(as_text=True)
    assert 'href="/matches/1"' in home and "Start a table" not in home and "/t/" not in home
    sheet = client.get("/matches/1")
    assert sheet.status_code == 200 and 'id="hand-1"' in sheet.get_data(as_text=True)
    assert client.get("/matches/1.json").get_json()["players"] == ["Ana", "Ben"]
    assert client.get("/view/old-token").status_code == 200
    assert "Ours" in client.get("/matches/new").get_data(as_text=True)
    assert client.get(f"/t/{home_key}/").status_code == 404 and client.get("/tables").status_code == 404


@pytest.mark.slow
def test_logging_out_of_a_table_ends_every_copy_of_its_cookie(world):
    """A table's login is a row like the server's: logout deletes it, so a cookie copied before is refused."""
    server = world["server"]
    owner = server.client()
    table = start_table(owner, "Club L")
    fields = owner.page_fields(table, "csrf_token")
    assert owner.post(table + "passphrase", {**fields, "passphrase": "green felt"}).status == 303
    guest = server.client()
    login = urlsplit(guest.get(table).location)
    token = hidden(guest.get(login.path + "?" + login.query).body, "csrf_token")
    assert guest.post(login.path + "?" + login.query, {"csrf_token": token, "passphrase": "green felt"}).status == 302
    copy = guest.copy()
    assert copy.get(table).status == 200 and guest.get(table).status == 200
    page = guest.get(table).body
    assert "Log out" in page
    assert guest.post("/logout", {"csrf_token": hidden(page, "csrf_token")}).status in (302, 303)
    assert guest.get(table).status == 302
    assert copy.get(table).status == 302  # the copy made before the logout is refused too
    assert owner.get(table).status == 200  # another browser's login is its own


@pytest.mark.slow
def test_a_spectator_link_names_the_match_and_never_the_table(world):
    """The table's key is the way into the whole table: a spectator's link must not carry it."""
    server = world["server"]
    owner = server.client()
    table = start_table(owner, "Club S")
    match_id = new_match(owner, table, ("Ana", "Ben"))
    post_hand(owner, table, match_id, knocker="Ana", knocker_deadwood="4", opponent_deadwood="22")
    page = owner.get(f"{table}matches/{match_id}/join").body  # where the read-only link is
    link = re.search(r'href="(?:https?://[^/"]+)?(/view/[^"]+)"', page).group(1)
    assert "/t/" not in link
    key = table.split("/")[2]
    spectator = server.client()
    for path in (link, link + "/live", link + "/big", link + "/sheet"):
        answer = spectator.get(path)
        assert answer.status == 200, path
        assert key not in answer.body, path
    assert "Ana" in spectator.get(link).body
    assert spectator.get("/view/not-a-token").status == 404
    assert spectator.get(table + f"view/{link.rsplit('/', 1)[1]}").status == 404  # no longer under the table
