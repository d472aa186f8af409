"""`flask copy-db SOURCE DEST`: a home ledger moved to a host and back (SQLite to PostgreSQL to
SQLite, and SQLite to SQLite), every table, match, hand and history row with its id, the pages the
same afterwards; a destination that holds anything refused and left as it was; new rows saved after
the copy; and `flask backup` on PostgreSQL pointing to pg_dump.

The source is one SQLite file entered through the forms: a named match with a deleted hand and a
restored one, a finished match and its rematch, a match with a stake and a saved preset at the home
table, and a second table with its own passphrase, preset and match.
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
from urllib.parse import urlsplit

import pytest

from app import create_app
from casefiles import CASES
from models.storage import copy_ledger
from models.storage.address import read_address
from postgres import Schema
from views.site import db
from models.storage.connection import connect
from models.storage.ledger_file import open_ledger
from webutil import case, epoch_of, export, hidden, import_match, new_match, post_hand
from models.storage.tables import create_table

COPIED = ("play_table", "player", "preset", "match", "hand", "board", "hand_event")
LEFT_BEHIND = ("login", "login_failure", "passphrase_generation", "table_start")
PASSPHRASE = "green felt"
# What a page holds that is this request's or this database's, not the ledger's: a form's token and
# id, the match's version and the epoch (the destination has its own; the copy bumps every version).
PER_REQUEST = [re.compile(pattern) for pattern in (
    r'(name="(?:csrf_token|form_id|version)"[^>]*value=")[^"]*',
    r'(value=")[^"]*(?="[^>]*name="(?:csrf_token|form_id|version)")',
    r'(data-(?:etag|version|form-id)=")[^"]*', r'(&#34;version&#34;: )\d+')]


def config(database: str, hosted: bool = False) -> dict:
    return {"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "HOSTED": hosted,
            "TABLE_STARTS_PER_MINUTE": 100}


def form_with(page: str, button: str) -> tuple[str, dict]:
    """The action and hidden fields of the form whose button says `button`."""
    for form in re.findall(r"<form\b.*?</form>", page, re.DOTALL):
        if button in form:
            action = re.search(r'action="([^"]*)"', form).group(1)
            fields = dict(re.findall(r'name="(csrf_token|version|form_id)"[^>]*value="([^"]*)"', form))
            fields.update({n: v for v, n in re.findall(r'value="([^"]*)"[^>]*name="(csrf_token|version|form_id)"', form)})
            return action, fields
    raise AssertionError(f"no form with {button!r}")


def delete_hand(client, prefix: str, match_id: int, number: int):
    page = client.get(f"{prefix}matches/{match_id}").get_data(as_text=True)
    return client.post(f"{prefix}matches/{match_id}/hands/{number}/delete",
                       data={"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version")})


def home_table_matches(client) -> dict[str, int]:
    """At the home table (no prefix): every kind of row a match keeps."""
    named = import_match(client, case("seed001-ana-ben"))
    assert delete_hand(client, "/", named, 3).status_code == 302
    action, fields = form_with(client.get(f"/matches/{named}/history").get_data(as_text=True), "Restore hand 3")
    assert client.post(action, data=fields).status_code == 302  # a restored hand
    assert delete_hand(client, "/", named, 5).status_code == 302  # a deleted hand, left deleted
    page = client.get(f"/matches/{named}").get_data(as_text=True)
    assert client.post(f"/matches/{named}/name", data={"csrf_token": hidden(page, "csrf_token"),
                                                        "name": "Friday at Eva's"}).status_code == 302
    finished = import_match(client, case("full-hollywood-match"))
    page = client.get(f"/matches/{finished}").get_data(as_text=True)
    answer = client.post(f"/matches/{finished}/rematch", data={"csrf_token": hidden(page, "csrf_token")})
    rematch = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert post_hand(client, rematch, knocker="Ana", knocker_deadwood="0", opponent_deadwood="30").status_code == 302
    staked = new_match(client, players=("Ana", "Cleo"), stake="0.25", currency="€", save_as="Club rules",
                       preset="modern", target="150")
    assert post_hand(client, staked, winner="Cleo", points="27").status_code == 302
    return {"named": named, "finished": finished, "rematch": rematch, "staked": staked}


def second_table(client) -> tuple[str, int]:
    """A hosted table with its own passphrase, preset and match; returns its prefix and the match."""
    page = client.get("/").get_data(as_text=True)
    answer = client.post("/tables", data={"csrf_token": hidden(page, "csrf_token"), "table_name": "Club B"})
    prefix = urlsplit(answer.headers["Location"]).path
    page = client.get(prefix + "matches/new").get_data(as_text=True)
    answer = client.post(prefix + "matches/new", data={
        "csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Zoltan"], "format": "hollywood",
        "preset": "classic", "first_dealer": "1", "save_as": "Brigid rules"})
    match_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"{prefix}matches/{match_id}").get_data(as_text=True)
    assert client.post(f"{prefix}matches/{match_id}/hands", data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
        "knocker": "Zoltan", "knocker_deadwood": "5", "opponent_deadwood": "17"}).status_code == 302
    page = client.get(prefix).get_data(as_text=True)
    assert client.post(prefix + "passphrase", data={"csrf_token": hidden(page, "csrf_token"),
                                                    "passphrase": PASSPHRASE}).status_code == 303
    return prefix, match_id


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """The home ledger, entered through the forms, and where its pages are."""
    path = str(tmp_path_factory.mktemp("source") / "home.sqlite")
    home = create_app(config(path))
    matches = home_table_matches(home.test_client())
    db.close_app(home)
    hosted = create_app(config(path, hosted=True))
    prefix, club_match = second_table(hosted.test_client())
    with sqlite3.connect(path) as conn:
        home_key = conn.execute("SELECT key FROM play_table WHERE home = 1").fetchone()[0]
        assert conn.execute("SELECT COUNT(*) FROM login").fetchone()[0] > 0  # left behind by the copy
    db.close_app(hosted)
    return {"path": path, "matches": matches, "club": (prefix, club_match), "home": f"/t/{home_key}/"}


def run(source: str, dest: str):
    """`flask copy-db SOURCE DEST`, by an app of its own on a third database."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(config(os.path.join(folder, "app.sqlite")))
        try:
            return app.test_cli_runner().invoke(args=["copy-db", source, dest])
        finally:
            db.close_app(app)


def finished_column(database: str) -> list[tuple]:
    conn = connect(database)
    try:
        return [(row["id"], row["finished"]) for row in conn.execute("SELECT id, finished FROM match ORDER BY id")]
    finally:
        conn.close()


def rows(database: str, table: str) -> list[tuple]:
    conn = connect(database)
    try:
        # By name, not by place: the engines' migrations add some columns in another order.
        bumped = (("match", "version"), ("play_table", "book"))  # versions the copy's writes move on
        names = sorted(n for n in copy_ledger.columns_of(conn, table) if (table, n) not in bumped)
        order = copy_ledger.KEYED.get(table, "id")
        found = conn.execute(f'SELECT {", ".join(names)} FROM "{table}" ORDER BY {order}').fetchall()
        return [tuple(row[name] for name in names) for row in found]
    finally:
        conn.close()


def one_value(database: str, sql: str):
    conn = connect(database)
    try:
        row = conn.execute(sql).fetchone()
        return row[list(row.keys())[0]]  # the one column, whatever its name
    finally:
        conn.close()


def count(database: str, table: str) -> int:
    return one_value(database, f'SELECT COUNT(*) FROM "{table}"')


def largest_id(database: str, table: str) -> int:
    return one_value(database, f'SELECT MAX(id) FROM "{table}"')


def same_page(text: str) -> str:
    for pattern in PER_REQUEST:
        text = pattern.sub(r"\1", text)
    return text


def pages(client, prefix: str, match_ids) -> dict[str, str]:
    """Every page and file a table shows of its matches, less what is the request's own."""
    paths = [prefix, prefix + "players", prefix + "matches/new"]
    for match_id in match_ids:
        paths += [f"{prefix}matches/{match_id}{end}" for end in
                  ("", ".json", ".csv", "/history", "/sheet", "/live", "/summary.txt")]
    found = {}
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 200, path
        found[path] = same_page(answer.get_data(as_text=True))
    return found


def logged_in(app, prefix: str):
    """A browser let in to the passphrase table, as a guest would be."""
    client = app.test_client()
    answer = client.get(prefix)
    assert answer.status_code == 302 and "/login" in answer.headers["Location"]
    login = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert client.post(answer.headers["Location"], data={"csrf_token": hidden(login, "csrf_token"),
                                                         "passphrase": PASSPHRASE}).status_code == 302
    assert client.get(prefix).status_code == 200
    return client


def everything(database: str, source: dict) -> dict[str, str]:
    """The pages of both tables, read by a hosted app on `database`."""
    app = create_app(config(database, hosted=True))
    try:
        prefix, club_match = source["club"]
        home = pages(app.test_client(), source["home"], source["matches"].values())
        return {**home, **pages(logged_in(app, prefix), prefix, [club_match])}
    finally:
        db.close_app(app)


def report(source: str, dest: str, counts: dict[str, int]) -> str:
    def said(num, one, many):
        return f"{num} {one if num == 1 else many}"
    return (f"Copied {said(counts['play_table'], 'table', 'tables')}, {said(counts['player'], 'player', 'players')}, "
            f"{said(counts['match'], 'match', 'matches')}, {said(counts['hand'], 'hand', 'hands')}, "
            f"{said(counts['hand_event'], 'history row', 'history rows')} and "
            f"{said(counts['preset'], 'preset', 'presets')} from {source} to {dest}.\n")


def test_a_home_ledger_copied_there_and_back_serves_the_same_pages(source, database, tmp_path):
    counts = {table: count(source["path"], table) for table in COPIED}
    assert counts["play_table"] == 2 and counts["preset"] == 2 and counts["match"] == 5
    with sqlite3.connect(source["path"]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM hand WHERE deleted IS NOT NULL").fetchone()[0] == 1
        assert {row[0] for row in conn.execute("SELECT action FROM hand_event")} >= {"deleted", "restored"}
    before = everything(source["path"], source)
    home, ids = source["home"], source["matches"]
    assert "Friday at Eva&#39;s" in before[f"{home}matches/{ids['named']}"]
    assert "Restore hand 5" in before[f"{home}matches/{ids['named']}/history"]
    assert "Stakes: 0.25 € a point" in before[f"{home}matches/{ids['staked']}"]
    assert "Club rules" in before[f"{home}matches/new"] and "Brigid rules" in before[f"{source['club'][0]}matches/new"]
    assert f"{home}matches/{ids['rematch']}" in before[f"{home}matches/{ids['finished']}"]
    done = run(source["path"], database)
    assert done.exit_code == 0, done.output
    assert (done.stdout, done.stderr) == (report(source["path"], read_address(database).shown, counts), "")
    for table in COPIED:
        assert rows(database, table) == rows(source["path"], table), table
    assert everything(database, source) == before

    back = str(tmp_path / "back.sqlite")
    done = run(database, back)
    assert done.exit_code == 0, done.output
    for table in COPIED:
        assert rows(back, table) == rows(source["path"], table), table
    assert everything(back, source) == before


def test_what_logins_and_the_throttle_keep_stays_behind(source, database):
    assert run(source["path"], database).exit_code == 0
    for table in LEFT_BEHIND:
        assert count(database, table) == 0, table
    assert count(source["path"], "login") > 0
    conn, home = connect(database), connect(source["path"])
    try:
        assert epoch_of(conn) != epoch_of(home)  # the destination's own
        versions = {row["id"]: row["version"] for row in conn.execute("SELECT id, version FROM match")}
        assert all(versions[row["id"]] > row["version"] for row in home.execute("SELECT id, version FROM match"))
        assert rows(database, "match") == rows(source["path"], "match")  # `finished` folded again, the same
    finally:
        conn.close()
        home.close()


def snapshot_of(database: str) -> dict[str, list[tuple]]:
    return {table: rows(database, table) for table in COPIED}


def test_a_destination_with_a_match_is_refused_and_left_as_it_was(source, database):
    app = create_app(config(database))
    client = app.test_client()
    match_id = new_match(client, players=("Dora", "Emil"))
    db.close_app(app)
    before = snapshot_of(database)
    done = run(source["path"], database)
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == (f"copy-db: {read_address(database).shown} is not empty (it holds 2 players, 1 match): "
                           f"copy into a new, empty database; nothing was changed\n")
    assert snapshot_of(database) == before
    app = create_app(config(database))
    assert export(app.test_client(), match_id)["players"] == ["Dora", "Emil"]
    db.close_app(app)


def test_a_destination_with_only_another_table_is_refused_inside_the_write(source, database):
    """The unit of work asks again under the write lock: what the command looked at may have changed."""
    dest = open_ledger(database)
    create_table(dest, "Club C")
    before = snapshot_of(database)
    done = run(source["path"], database)
    assert done.exit_code == 2 and "(it holds 1 table besides the home table)" in done.stderr
    home = open_ledger(source["path"])
    try:
        with pytest.raises(copy_ledger.DestinationNotEmpty) as refused:
            copy_ledger.copy_ledger(home, dest)
        assert refused.value.held == {"play_table": 1}
        assert snapshot_of(database) == before
    finally:
        home.close()
        dest.close()


def test_after_the_copy_new_hands_matches_players_tables_and_presets_get_new_ids(source, database, monkeypatch):
    monkeypatch.setattr(copy_ledger, "MOST_VALUES", 1)  # one row per INSERT: every parent is in before its child
    assert run(source["path"], database).exit_code == 0
    identified = [table for table in COPIED if table not in copy_ledger.KEYED]  # the tables with an id
    largest = {table: largest_id(database, table) for table in identified}
    app = create_app(config(database, hosted=True))
    try:
        client = app.test_client()
        home = source["home"]
        rematch = source["matches"]["rematch"]
        page = client.get(f"{home}matches/{rematch}").get_data(as_text=True)
        assert client.post(f"{home}matches/{rematch}/hands", data={
            "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
            "winner": "Ben", "points": "12"}).status_code == 302
        assert len(client.get(f"{home}matches/{rematch}.json").get_json()["hands"]) == 2
        page = client.get(home + "matches/new").get_data(as_text=True)
        answer = client.post(home + "matches/new", data={
            "csrf_token": hidden(page, "csrf_token"), "players": ["Fiona", "Gus"], "format": "single",
            "preset": "classic", "first_dealer": "1", "save_as": "New rules"})
        assert answer.status_code == 302, answer.get_data(as_text=True)
        # The address names its number at the table (tests/test_match_numbers.py); its id is checked below.
        assert client.get(answer.headers["Location"]).status_code == 200
        page = client.get("/").get_data(as_text=True)
        assert client.post("/tables", data={"csrf_token": hidden(page, "csrf_token"),
                                            "table_name": "Club D"}).status_code == 303
    finally:
        db.close_app(app)
    for table in identified:
        assert largest_id(database, table) > largest[table], table


def test_a_match_that_no_longer_folds_is_copied_as_it_was_entered(database, tmp_path):
    path = str(tmp_path / "broken.sqlite")
    app = create_app(config(path))
    match_id = import_match(app.test_client(), case("full-hollywood-match"))
    db.close_app(app)
    with sqlite3.connect(path) as conn:  # a hand after the end, as another program might leave it
        last = conn.execute("SELECT MAX(position) FROM hand WHERE match_id = ?", (match_id,)).fetchone()[0]
        conn.execute("INSERT INTO hand (match_id, position, kind, winner, points, created)"
                     " VALUES (?, ?, 'points', 0, 5, '2026-01-01T00:00:00+00:00')", (match_id, last + 1024))
    done = run(path, database)
    assert done.exit_code == 0, done.output
    assert rows(database, "hand") == rows(path, "hand")
    finished = finished_column(path)
    assert finished[0][1] is not None  # it was finished before the hand after its end
    assert finished_column(database) == finished  # and still is
    app = create_app(config(database))
    try:
        page = app.test_client().get(f"/matches/{match_id}").get_data(as_text=True)
        assert "cannot be scored as it is stored" in page
        assert len(export(app.test_client(), match_id)["hands"]) == len(case("full-hollywood-match")["hands"]) + 1
    finally:
        db.close_app(app)


def test_a_copy_onto_itself_or_from_nothing_is_refused(source, tmp_path):
    same = run(source["path"], source["path"])
    assert same.exit_code == 2 and "are the same database" in same.stderr
    missing = str(tmp_path / "none.sqlite")
    nothing = run(missing, str(tmp_path / "dest.sqlite"))
    assert nothing.exit_code == 2
    assert (nothing.stdout, nothing.stderr) == ("", f"copy-db: there is no ledger at {missing}: nothing was copied\n")
    assert not (tmp_path / "none.sqlite").exists() and not (tmp_path / "dest.sqlite").exists()


def test_a_server_that_does_not_answer_is_refused_in_one_line(source):
    done = run(source["path"], "postgresql://gin:s3cret@127.0.0.1:9/gin")
    assert done.exit_code == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith("copy-db: ") and "does not answer" in done.stderr and "s3cret" not in done.stderr
    assert "FLASK_DATABASE" not in done.stderr  # an argument of the command, not the setting


def test_the_report_speaks_the_shell_language(source, tmp_path, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "cs")
    done = run(source["path"], str(tmp_path / "cs.sqlite"))
    assert done.exit_code == 0 and done.stdout.startswith("Zkopírováno") and "5 zápasů" in done.stdout


def test_backup_on_postgresql_says_to_use_pg_dump(tmp_path):
    schema = Schema()
    try:
        app = create_app(config(schema.url))
        target = tmp_path / "gin copy.dump"
        done = app.test_cli_runner().invoke(args=["backup", str(target)])
        db.close_app(app)
        assert done.exit_code == 2 and not target.exists() and done.stdout == ""
        assert done.stderr == (f"backup: the database is PostgreSQL: use pg_dump (pg_dump -Fc -f '{target}' "
                               f"'{schema.url}'), and pg_restore to bring it back\n")
    finally:
        schema.drop()


def test_restore_on_postgresql_says_to_use_pg_restore(tmp_path):
    schema = Schema()
    try:
        app = create_app(config(schema.url))
        given = tmp_path / "gin copy.dump"
        given.write_bytes(b"PGDMP")
        done = app.test_cli_runner().invoke(args=["restore", str(given)])
        db.close_app(app)
        assert done.exit_code == 2 and done.stdout == ""
        assert done.stderr == (f"restore: the database is PostgreSQL: use pg_restore (pg_restore --clean -d "
                               f"'{schema.url}' '{given}')\n")
    finally:
        schema.drop()


def test_backup_on_postgresql_never_shows_the_password(tmp_path):
    schema = Schema()
    try:
        parts = urlsplit(schema.url)
        with_password = parts._replace(netloc=f"{parts.username}:s3cret@{parts.hostname}:{parts.port}").geturl()
        app = create_app(config(with_password))
        done = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "gin.dump")])
        db.close_app(app)
        assert done.exit_code == 2 and "s3cret" not in done.output and ":***@" in done.stderr
    finally:
        schema.drop()


def test_a_table_of_four_is_copied_with_its_seats_and_boards(database, tmp_path):
    path = str(tmp_path / "partners.sqlite")
    app = create_app(config(path))
    doc = json.loads((CASES / "tables" / "partners-example.json").read_text())
    doc.pop("expected")
    match_id = import_match(app.test_client(), doc)
    exported = export(app.test_client(), match_id)
    db.close_app(app)
    done = run(path, database)
    assert done.exit_code == 0, done.output
    assert rows(database, "board") == rows(path, "board") and len(rows(path, "board")) == 4
    assert rows(database, "match") == rows(path, "match")
    app = create_app(config(database))
    try:
        assert export(app.test_client(), match_id) == exported
    finally:
        db.close_app(app)
