"""Each match's number at its table (issue 37, point 6): a hosted server shows it instead of the id,
which counts across every table and so told a table that others exist.

Storage: two tables starting matches in turn each number theirs 1, 2, 3; a rematch and an import are
numbered the same way; a deleted match keeps its number and the next one does not take it; a ledger
from before keeps every match's id as its number, so no address already given out moves.
The web: on a hosted server every address, file name and ETag of a table's pages, its spectator's
and its files names its matches 1, 2, 3 and never an id; at home the ids stay.
"""
from __future__ import annotations

import io
import re
import zipfile

import pytest


from models.game.hand import KNOCK, Hand
from models.game.match import Match
from models.storage import schema
from models.storage.address import SQLITE, dialect_of
from models.storage.connection import connect, immediate
from models.storage.ledger_file import open_ledger
from models.storage.matches import (create_match, create_rematch, delete_match, get_match, match_id_of,
                                    match_number, restore_match)
from models.storage.tables import create_table, home_table
from models.errors import NoSuchMatch
from views.site.db import get_db
from webutil import hidden, import_match, start_table


def single(one: str, two: str, gins: int = 0) -> Match:
    """A single game between `one` and `two` in which `one` went gin `gins` times (two gins win it)."""
    deal = Hand(KNOCK, knocker=one, knocker_deadwood=0, opponent_deadwood=60)
    return Match((one, two), "single", one, hands=(deal,) * gins)


@pytest.fixture
def ledger(database):
    """The ledger as the app opens it: every migration run, the home table made."""
    conn = open_ledger(database)
    try:
        yield conn
    finally:
        conn.close()


def test_two_tables_starting_matches_in_turn_each_number_theirs_1_2_3(ledger):
    a, b = create_table(ledger, "Club A").id, create_table(ledger, "Club B").id
    made = {a: [], b: []}
    for table in (a, b, b, a, b, a):
        made[table].append(create_match(ledger, single("Ana", "Ben"), table=table))
    for table in (a, b):
        assert [get_match(ledger, match_id, table=table).number for match_id in made[table]] == [1, 2, 3]
        assert [match_number(ledger, match_id, table=table) for match_id in made[table]] == [1, 2, 3]
        assert [match_id_of(ledger, n, table=table) for n in (1, 2, 3)] == made[table]
    # The ids still count across the server: B's first match is A's second id.
    assert made[a][0] < made[b][0] < made[b][1] < made[a][1]
    # A number the table never gave is no match of it, whatever match it names at the other table.
    with pytest.raises(NoSuchMatch):
        match_id_of(ledger, 4, table=a)


def test_a_rematch_and_an_import_take_the_tables_next_number(ledger):
    a, b = create_table(ledger, "Club A").id, create_table(ledger, "Club B").id
    first = create_match(ledger, single("Ana", "Ben", gins=2), table=a)  # finished
    create_match(ledger, single("Cleo", "Dan"), table=b)
    rematch = create_rematch(ledger, first, table=a)
    assert rematch.created and get_match(ledger, rematch.id, table=a).number == 2
    imported = create_match(ledger, single("Ben", "Ana", gins=1), table=b)  # a match file's hands
    assert get_match(ledger, imported, table=b).number == 2


def test_a_deleted_match_keeps_its_number_and_the_next_match_takes_a_new_one(ledger):
    home = home_table(ledger).id
    one, two = (create_match(ledger, single("Ana", "Ben"), table=home) for _ in range(2))
    assert delete_match(ledger, two, table=home)
    assert match_id_of(ledger, 2, table=home) == two  # its restore is asked for by its number
    three = create_match(ledger, single("Ana", "Ben"), table=home)
    assert restore_match(ledger, two, table=home)
    assert [get_match(ledger, match_id, table=home).number for match_id in (one, two, three)] == [1, 2, 3]


def migrated_to(database: str, version: int):
    """A connection to `database` brought up to schema `version` only, as an older Gin Ledger left it."""
    conn = connect(database)
    with immediate(conn):
        dialect = dialect_of(conn)
        scripts = schema.migrations() if dialect == SQLITE else schema.migrations(dialect)
        for number, script in enumerate(scripts[:version], start=1):
            if dialect == SQLITE:
                for statement in schema.split_statements(script):
                    conn.execute(statement)
            else:
                conn.execute(script)
            schema.set_version(conn, number)
    return conn


def test_a_ledger_from_before_keeps_each_matchs_id_as_its_number(database):
    """Every address, bookmark, print and file name given out before names the same match after."""
    conn = migrated_to(database, 12)
    with immediate(conn):
        b = conn.execute("INSERT INTO play_table (key, name, created) VALUES ('b-key', 'Club B', 'then')"
                         " RETURNING id").fetchone()["id"]
        players = {(table, name): conn.execute("INSERT INTO player (table_id, name, created) VALUES (?, ?, 'then')"
                                               " RETURNING id", (table, name)).fetchone()["id"]
                   for table, name in ((1, "Ana"), (1, "Ben"), (b, "Ana"), (b, "Zoltan"))}
        ids = [conn.execute("INSERT INTO match (table_id, player1_id, player2_id, format, rules, first_dealer,"
                            " created, view_token) VALUES (?, ?, ?, 'single', '{}', 0, 'then', ?) RETURNING id",
                            (table, players[(table, one)], players[(table, two)], f"token-{turn}")).fetchone()["id"]
               for turn, (table, one, two) in enumerate(((1, "Ana", "Ben"), (b, "Ana", "Zoltan"),
                                                         (1, "Ben", "Ana"), (b, "Zoltan", "Ana")))]
    conn.close()
    assert ids == [1, 2, 3, 4]
    ledger = open_ledger(database)
    try:
        assert [match_number(ledger, match_id, table=1) for match_id in (1, 3)] == [1, 3]
        assert [match_number(ledger, match_id, table=b) for match_id in (2, 4)] == [2, 4]
        with pytest.raises(NoSuchMatch):
            match_number(ledger, 2, table=1)  # B's match is no match of the home table
        # A new match goes on from its table's largest number.
        made = create_match(ledger, single("Ana", "Ben"), table=1)
        assert get_match(ledger, made, table=1).number == 4
        made = create_match(ledger, single("Ana", "Zoltan"), table=b)
        assert get_match(ledger, made, table=b).number == 5
    finally:
        ledger.close()


# ---- what the players see: addresses, headers, files ---------------------------------------------

def finished(one: str, two: str) -> dict:
    """A match file of one single game that `one` won with two gins."""
    gin = {"knocker": one, "knocker_deadwood": 0, "opponent_deadwood": 60}
    return {"format": "single", "players": [one, two], "hands": [gin, gin]}


MATCH_NUMBER = re.compile(r"/matches/(\d+)")
FILE_NUMBER = re.compile(r"gin-ledger-(\d+)-")
TAG_NUMBER = re.compile(r'(?:&#34;|")(\d+)-[0-9a-f]+-\d+(?:&#34;|")')


def seen(answer) -> str:
    """Everything a browser is shown of an answer: its body and its headers."""
    headers = "\n".join(f"{name}: {value}" for name, value in answer.headers.items())
    return headers + "\n" + answer.get_data(as_text=True)


def numbers_in(text: str) -> set[int]:
    """Every number that names a match in `text`: in an address, a file's name, an ETag."""
    return {int(found) for pattern in (MATCH_NUMBER, FILE_NUMBER, TAG_NUMBER) for found in pattern.findall(text)}


def every_page(client, table: str, number: int) -> dict[str, str]:
    """Each page, fragment, file and header of match `number` at `table` (a /t/<key>/ address)."""
    here = f"{table}matches/{number}"
    addresses = [table, here, f"{here}/sheet", f"{here}/history", f"{here}/big", f"{here}/join", f"{here}/count",
                 f"{here}/live", f"{here}.json?download=1", f"{here}.csv?download=1", f"{here}/summary.txt",
                 f"{here}/evening.txt", f"{here}/sheet.svg", f"{table}ladder", f"{table}tonight", f"{table}players"]
    shown = {}
    for address in addresses:
        answer = client.get(address)
        assert answer.status_code == 200, (address, answer.status_code)
        shown[address] = seen(answer)
    view = re.search(r"/view/([\w-]+)", shown[f"{here}/join"]).group(1)
    for address in (f"/view/{view}", f"/view/{view}/sheet", f"/view/{view}/big", f"/view/{view}/live"):
        answer = client.get(address)
        assert answer.status_code == 200, (address, answer.status_code)
        shown[address] = seen(answer)
    with zipfile.ZipFile(io.BytesIO(client.get(f"{table}export.zip").get_data())) as archive:
        shown[f"{table}export.zip"] = "\n".join(archive.namelist())
    return shown


# Who plays each table's matches 1, 2, 3; they are started in turn A, B, B, A, B, A: the ids are A's
# 1, 4, 6 and B's 2, 3, 5.
PLAYED = {"A": (("Ana", "Ben"), ("Ben", "Ana"), ("Ana", "Cleo")),
          "B": (("Zoltan", "Yvette"), ("Yvette", "Zoltan"), ("Zoltan", "Xena"))}
TURNS = "ABBABA"


@pytest.fixture
def two_tables(hosted):
    """Tables A and B, each with its own browser, their matches started in turn (TURNS)."""
    browsers = {"A": hosted.test_client(), "B": hosted.test_client()}
    tables = {name: start_table(browser, f"Club {name}") for name, browser in browsers.items()}
    made = {"A": [], "B": []}
    for name in TURNS:
        players = PLAYED[name][len(made[name])]
        made[name].append(import_match(browsers[name], finished(*players), tables[name]))
    assert made == {"A": [1, 2, 3], "B": [1, 2, 3]}
    return browsers, tables


def test_two_hosted_tables_each_see_their_matches_numbered_1_2_3_and_never_the_ids(two_tables):
    browsers, tables = two_tables
    for name, table in tables.items():
        for number in (1, 2, 3):
            shown = every_page(browsers[name], table, number)
            # No address, file name or ETag of table A names its matches 4 or 6 (their ids): nothing
            # tells it that B's matches came between.
            for address, text in shown.items():
                assert numbers_in(text) <= {1, 2, 3}, (address, numbers_in(text))
            here = f"{table}matches/{number}"
            stem = f"gin-ledger-{number}-" + "-".join(PLAYED[name][number - 1])
            assert f'filename="{stem}.json"' in shown[f"{here}.json?download=1"]
            assert f'filename="{stem}.csv"' in shown[f"{here}.csv?download=1"]
            assert f'ETag: "{number}-' in shown[f"{here}/live"]
            assert f'href="{here}/history"' in shown[here] and f'href="{here}/hands/2"' in shown[here]
            assert f'href="{here}"' in shown[f"{here}/history"]
        assert sorted(FILE_NUMBER.search(entry).group(1) for entry in shown[f"{table}export.zip"].split("\n")) == [
            "1", "2", "3"]


def test_a_hosted_matchs_number_opens_that_match_and_no_other_tables(two_tables):
    browsers, tables = two_tables
    a, b = tables["A"], tables["B"]
    for number, (first, second) in enumerate(PLAYED["A"], start=1):
        page = browsers["A"].get(f"{a}matches/{number}").get_data(as_text=True)
        assert f"<bdi>{first}</bdi>" in page and f"<bdi>{second}</bdi>" in page
    for id_of_another in (4, 5, 6):  # a number table A never gave is a 404, whichever table's id it is
        assert browsers["A"].get(f"{a}matches/{id_of_another}").status_code == 404
    assert browsers["A"].get(f"{b}matches/1").status_code == 200  # the key is the way in, not the number
    assert "Zoltan" in browsers["A"].get(f"{b}matches/1").get_data(as_text=True)


def test_a_rematch_a_named_device_and_a_quiet_poll_name_the_match_by_its_number(two_tables):
    browsers, tables = two_tables
    client, a = browsers["A"], tables["A"]
    page = client.get(f"{a}matches/3").get_data(as_text=True)
    made = client.post(f"{a}matches/3/rematch", data={"csrf_token": hidden(page, "csrf_token")})
    assert made.status_code == 302 and made.headers["Location"].endswith(f"{a}matches/4")
    rematch = client.get(f"{a}matches/4").get_data(as_text=True)
    assert f'href="{a}matches/3"' in rematch and numbers_in(rematch) <= {3, 4}
    assert f'href="{a}matches/4"' in client.get(f"{a}matches/3").get_data(as_text=True)
    history = client.get(f"{a}matches/2/history").get_data(as_text=True)
    assert hidden(history, "match") == "2"
    named = client.post(f"{a}device", data={"csrf_token": hidden(history, "csrf_token"), "match": "2",
                                            "device": "Ana's phone"})
    assert named.status_code == 302 and named.headers["Location"].endswith(f"{a}matches/2/history")
    tag = client.get(f"{a}matches/2/live").headers["ETag"]
    assert tag.startswith('"2-')
    quiet = client.get(f"{a}matches/2/live", headers={"X-Sheet": tag})  # answered before Flask
    assert quiet.status_code == 200 and quiet.get_data() == b"" and quiet.headers["ETag"] == tag
    assert client.get(f"{a}matches/2/live", headers={"If-None-Match": tag}).status_code == 304


def test_a_hosted_matchs_stream_names_its_events_by_the_number(two_tables):
    browsers, tables = two_tables
    answer = browsers["A"].get(f"{tables['A']}matches/3/stream", buffered=False)  # A's third match: id 6
    assert answer.status_code == 200
    text = ""
    try:
        for chunk in answer.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            if re.search(r"^id: ", text, re.MULTILINE):
                break
    finally:
        answer.close()
    assert re.search(r'^id: "3-[0-9a-f]+-\d+"$', text, re.MULTILINE), text[-300:]


def test_a_long_matchs_printout_names_the_whole_sheet_by_the_matchs_number(two_tables):
    """The printed page of a long match says where the whole sheet is: at the match's number."""
    browsers, tables = two_tables
    client, a = browsers["A"], tables["A"]
    deal = {"knocker": "Ana", "knocker_deadwood": 1, "opponent_deadwood": 2}
    number = import_match(client, {"format": "hollywood", "players": ["Ana", "Ben"], "hands": [deal] * 45}, a)
    assert number == 4  # its id is 7
    page = client.get(f"{a}matches/4").get_data(as_text=True)
    note = re.search(r'<p class="print-only fold-note">([^<]*)</p>', page).group(1)
    assert note.endswith(f"{a}matches/4/sheet"), note
    assert numbers_in(page) == {4}


def test_a_home_table_keeps_naming_its_matches_by_their_ids(app, client):
    """Not hosted: the addresses, files and ETags keep the ids, even where another table's match (from a
    server once hosted) makes the home table's numbers differ from them."""
    with app.app_context():
        conn = get_db()
        other = create_table(conn, "Once hosted").id
        create_match(conn, single("Ana", "Ben"), table=other)
    match_id = import_match(client, finished("Ana", "Ben"))
    assert match_id == 2  # its number at the home table is 1
    with app.app_context():
        assert match_number(get_db(), 2, table=home_table(get_db()).id) == 1
    page = client.get("/matches/2").get_data(as_text=True)
    assert 'href="/matches/2/history"' in page and 'data-etag="&#34;2-' in page
    assert client.get("/matches/2/live").headers["ETag"].startswith('"2-')
    assert 'filename="gin-ledger-2-Ana-Ben.json"' in seen(client.get("/matches/2.json?download=1"))
    assert client.get("/matches/1").status_code == 404  # the other table's match
