"""Storage: the migrations as .sql files, a newer file refused, the `finished` index kept true."""
import hashlib
import os
import sqlite3
import time

import pytest

from app import StartRefused, create_app
from models.storage import schema
from models.errors import MatchOver, SchemaTooNew
from models.storage.connection import connect, immediate, migrate
from models.storage.ledger_file import open_ledger
from models.storage.finished import ENGINE_FILES, ENGINE_MODULES, engine_fingerprint, refresh_finished
from models.storage.hand_writes import add_hand, delete_hand, replace_hand
from models.storage.matches import EVERY_TABLE, create_match, get_match, list_matches, matches_where

HOME = 1  # the one table of a home file: migration 0008 makes it with id 1

# The schema exactly as the Python strings of models/storage/schema.py had it before the
# migrations became .sql files: what every existing database file was made from.
OLD_MIGRATIONS = (
    # 1: players, matches and hands exactly as entered; no totals anywhere.
    """
    CREATE TABLE player (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL
    );
    CREATE TABLE match (
        id INTEGER PRIMARY KEY,
        player1_id INTEGER NOT NULL REFERENCES player(id),
        player2_id INTEGER NOT NULL REFERENCES player(id),
        format TEXT NOT NULL CHECK (format IN ('hollywood', 'single')),
        rules TEXT NOT NULL,
        first_dealer INTEGER NOT NULL CHECK (first_dealer IN (0, 1)),
        created TEXT NOT NULL,
        finished TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        view_token TEXT NOT NULL UNIQUE,
        CHECK (player1_id <> player2_id)
    );
    CREATE INDEX match_player1 ON match(player1_id);
    CREATE INDEX match_player2 ON match(player2_id);
    CREATE INDEX match_finished ON match(finished);
    CREATE TABLE hand (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('knock', 'draw', 'points')),
        knocker INTEGER CHECK (knocker IN (0, 1)),
        knocker_deadwood INTEGER,
        opponent_deadwood INTEGER,
        big_gin INTEGER,
        upcard TEXT,
        winner INTEGER CHECK (winner IN (0, 1)),
        points INTEGER,
        cards TEXT,
        submission TEXT UNIQUE,
        created TEXT NOT NULL,
        UNIQUE (match_id, position)
    );
    """,

    # 2: failed passphrase attempts, kept in the database so every worker sees them.
    """
    CREATE TABLE login_failure (
        id INTEGER PRIMARY KEY,
        address TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX login_failure_address ON login_failure(address, at);
    """,

    # 3: rule presets a table saved for itself, beside Classic and Modern.
    """
    CREATE TABLE preset (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        rules TEXT NOT NULL,
        created TEXT NOT NULL
    );
    """,

    # 4: money per point, kept as exact decimal text (never a float), and its symbol.
    """
    ALTER TABLE match ADD COLUMN stake TEXT;
    ALTER TABLE match ADD COLUMN currency TEXT
    """,
)

def old_split(script):
    # The old splitter: correct for these four scripts, which hold no `;` in a string.
    return [part.strip() for part in script.split(";") if part.strip()]

def old_file(path, version):
    """A database file as the old code left it after `version` migrations."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    for script in OLD_MIGRATIONS[:version]:
        for statement in old_split(script):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.execute("COMMIT")
    conn.close()

def tables(path, exclude=()):
    """Every schema object with its SQL, whitespace folded (the .sql files are indented anew)."""
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()
    conn.close()
    return {(kind, name): " ".join((sql or "").split()) for kind, name, sql in rows if name not in exclude}

def file_digest(path):
    with open(path, "rb") as stream:
        return hashlib.sha256(stream.read()).hexdigest()


def new_app(path):
    return create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test"})


# ---- migrations ------------------------------------------------------------------

def test_the_sql_files_make_the_schema_the_old_strings_made(tmp_path):
    old, new = tmp_path / "old.sqlite", tmp_path / "new.sqlite"
    old_file(old, len(OLD_MIGRATIONS))
    conn = connect(str(new))
    with immediate(conn):
        for script in schema.migrations()[:len(OLD_MIGRATIONS)]:
            for statement in schema.split_statements(script):
                conn.execute(statement)
    conn.close()
    assert tables(new) == tables(old)
    assert ("table", "hand") in tables(new)


TABLES_OBJECTS = {"play_table", "play_table_one_home", "sqlite_autoindex_play_table_1", "match_table",
                  "match_needs_table", "match_keeps_table"}  # what migration 0008 (tables) adds
HISTORY_OBJECTS = {"hand_event", "hand_event_match"}  # what migration 0009 (hand history) adds
EPOCH_OBJECTS = {"epoch"}  # what migration 0010 (the epoch; hands keep their places) adds
# what migration 0011 adds: failures per scope, passphrase generations, table starts per address
LIMIT_OBJECTS = {"login_failure_scope", "passphrase_generation",
                 "table_start", "table_start_address"}
# what migration 0013 adds: a match's number at its table, and the triggers that require one
NUMBER_OBJECTS = {"match_number", "match_needs_number", "match_keeps_number"}
BOARD_OBJECTS = {"board", "sqlite_autoindex_board_1"}  # what migration 0014 (tables of three and four) adds


def test_a_fresh_file_is_the_old_schema_plus_only_the_later_migrations(tmp_path):
    old, fresh = tmp_path / "old.sqlite", tmp_path / "fresh.sqlite"
    old_file(old, len(OLD_MIGRATIONS))
    new_app(fresh)
    later = set(tables(fresh)) - set(tables(old))
    added = {"engine", "match_rematch_of", "login", "login_made_at"} | TABLES_OBJECTS | HISTORY_OBJECTS | EPOCH_OBJECTS | LIMIT_OBJECTS \
        | NUMBER_OBJECTS | BOARD_OBJECTS  # 0005 to 0014
    assert {name for _, name in later} == added
    # 0006 adds columns to match, 0008 one more; 0008 rebuilds player and preset with a table each.
    rebuilt = {"match", "player", "preset", "hand", "login_failure"}  # 0009 adds `deleted`; 0011 `scope`
    assert tables(fresh, exclude=added | rebuilt) == tables(old, exclude=rebuilt)
    old_match, new_match = tables(old)[("table", "match")], tables(fresh)[("table", "match")]
    assert new_match == old_match.replace(
        "currency TEXT,", "currency TEXT, name TEXT, abandoned TEXT, rematch_of INTEGER REFERENCES match(id),"
        " table_id INTEGER REFERENCES play_table(id), deleted TEXT, number INTEGER,"
        " player3_id INTEGER REFERENCES player(id), player4_id INTEGER REFERENCES player(id),"
        " first_seat INTEGER CHECK (first_seat BETWEEN 0 AND 3),")
    for name in ("player", "preset"):
        assert "UNIQUE (table_id, name)" in tables(fresh)[("table", name)]
    # 0014 rebuilds hand: seats 0 to 3 and the kind `boards` (a deal of partners)
    assert tables(fresh)[("table", "hand")] == tables(old)[("table", "hand")].replace(
        "created TEXT NOT NULL,", "created TEXT NOT NULL, deleted TEXT,").replace(
        "'points')", "'points', 'boards')").replace("knocker IN (0, 1)", "knocker BETWEEN 0 AND 3").replace(
        "winner IN (0, 1)", "winner BETWEEN 0 AND 3")
    assert sqlite3.connect(fresh).execute("PRAGMA user_version").fetchone()[0] == schema.known_version()


def test_a_file_at_version_2_from_the_old_code_upgrades_in_place(tmp_path):
    path, reference = tmp_path / "v2.sqlite", tmp_path / "reference.sqlite"
    old_file(path, 2)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO player (name, created) VALUES ('Ana', 'then'), ('Ben', 'then')")
    conn.execute("INSERT INTO login_failure (address, at) VALUES ('10.0.0.9', 1.5)")
    conn.commit()
    conn.close()
    app = new_app(path)
    new_app(reference)
    assert tables(path) == tables(reference)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.known_version()
    assert [row[0] for row in conn.execute("SELECT name FROM player ORDER BY id")] == ["Ana", "Ben"]
    assert conn.execute("SELECT address FROM login_failure").fetchone()[0] == "10.0.0.9"
    assert [row[1] for row in conn.execute("PRAGMA table_info(match)")][-11:] == [
        "stake", "currency", "name", "abandoned", "rematch_of", "table_id", "deleted", "number",
        "player3_id", "player4_id", "first_seat"]
    assert app.test_client().get("/").status_code == 200


def test_statements_are_cut_where_sqlite_says_they_end():
    script = """-- a comment; with a semicolon
    CREATE TABLE t (a TEXT DEFAULT 'x;y');
    CREATE TRIGGER t_copy AFTER INSERT ON t BEGIN
        INSERT INTO t SELECT 'copy;' WHERE new.a NOT LIKE 'copy%';
    END;
    INSERT INTO t VALUES ('one; two');
    -- the end
    """
    statements = schema.split_statements(script)
    assert len(statements) == 3
    assert statements[1].endswith("END;")
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)
    assert [row[0] for row in conn.execute("SELECT a FROM t ORDER BY rowid")] == ["one; two", "copy;"]


def test_a_failing_migration_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "v3.sqlite"
    old_file(path, 3)
    before = tables(path)
    broken = schema.migrations()[:3] + ("ALTER TABLE match ADD COLUMN stake TEXT; SELECT no_such_function();",)
    monkeypatch.setattr(schema, "migrations", lambda: broken)
    with pytest.raises(sqlite3.OperationalError):
        open_ledger(str(path))
    assert tables(path) == before
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 3


def test_misnumbered_migration_files_are_a_packaging_error(monkeypatch, tmp_path):
    folder = tmp_path / "migrations" / "sqlite"
    folder.mkdir(parents=True)
    (folder / "0001_one.sql").write_text("CREATE TABLE a (x);")
    (folder / "0003_three.sql").write_text("CREATE TABLE c (x);")

    class Package:
        def joinpath(self, name):
            return tmp_path / name

    schema.migrations.cache_clear()
    monkeypatch.setattr(schema.resources, "files", lambda package: Package())
    try:
        with pytest.raises(schema.MigrationsBroken):
            schema.migrations()
    finally:
        schema.migrations.cache_clear()


# ---- a file from a newer Gin Ledger ------------------------------------------------

def newer_file(path, version):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE from_the_future (x)")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


def test_a_file_from_a_newer_gin_ledger_is_refused_untouched(tmp_path):
    path = tmp_path / "newer.sqlite"
    newer = schema.known_version() + 3
    newer_file(path, newer)
    before = file_digest(path)
    with pytest.raises(StartRefused) as stopped:
        new_app(path)
    refused = stopped.value.reason
    assert isinstance(refused, SchemaTooNew)
    message = str(refused)
    assert str(stopped.value) == f"Gin Ledger cannot start: {message}"
    assert "newer Gin Ledger" in message
    assert f"version {newer}" in message and f"knows up to {schema.known_version()}" in message
    assert str(path) in message
    assert (refused.found, refused.known) == (newer, schema.known_version())
    assert file_digest(path) == before
    assert sorted(os.listdir(tmp_path)) == ["newer.sqlite"]  # no -wal or -shm beside it


def test_the_transaction_checks_the_version_again(tmp_path):
    """Between the first look and the write lock, a newer Gin Ledger may have upgraded the file."""
    path = tmp_path / "raced.sqlite"
    newer_file(path, schema.known_version() + 1)
    with pytest.raises(schema.SchemaTooNew):
        migrate(connect(str(path)), str(path))
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == schema.known_version() + 1


# ---- the `finished` index -------------------------------------------------------------

def stored_matches(conn):
    return matches_where(conn, "1", (), "m.id", -1, table=EVERY_TABLE)


def assert_index_is_the_fold(conn):
    for stored in stored_matches(conn):
        assert (stored.finished is not None) == stored.sheet().finished, f"match {stored.id}"


@pytest.fixture
def ledger(tmp_path):
    conn = open_ledger(str(tmp_path / "ledger.sqlite"))
    yield conn
    conn.close()


def full_match():
    from casefiles import case

    from models.files.matchfile import match_from_document
    return match_from_document(case("full-hollywood-match"))


def test_every_write_path_keeps_the_index_equal_to_the_fold(ledger):
    full = full_match()
    played = create_match(ledger, full.with_hands(full.hands[:-1]), table=HOME)
    imported = create_match(ledger, full, table=HOME)  # an import arrives finished
    assert_index_is_the_fold(ledger)
    add_hand(ledger, played, full.hands[-1], table=HOME)  # the closing hand
    assert get_match(ledger, played, table=HOME).finished is not None
    assert_index_is_the_fold(ledger)
    delete_hand(ledger, played, len(full.hands), get_match(ledger, played, table=HOME).version,
                        table=HOME)  # undo the closing hand
    assert get_match(ledger, played, table=HOME).finished is None
    assert_index_is_the_fold(ledger)
    replace_hand(ledger, imported, 1, full.hands[0], get_match(ledger, imported, table=HOME).version,
                         table=HOME)
    assert_index_is_the_fold(ledger)
    with pytest.raises(MatchOver):
        add_hand(ledger, imported, full.hands[0], table=HOME)
    assert_index_is_the_fold(ledger)
    finished = [m.id for m in list_matches(ledger, finished=True, table=HOME)]
    playing = [m.id for m in list_matches(ledger, finished=False, table=HOME)]
    assert (finished, playing) == ([imported], [played])


def test_an_index_made_wrong_is_corrected_when_the_engine_changes(tmp_path):
    path = tmp_path / "ledger.sqlite"
    conn = open_ledger(str(path))
    full = full_match()
    over = create_match(conn, full, table=HOME)
    playing = create_match(conn, full.with_hands(full.hands[:4]), table=HOME)
    conn.execute("UPDATE match SET finished = CASE id WHEN ? THEN NULL ELSE '2020-01-01T00:00:00+00:00' END",
                 (over,))
    versions = {m.id: m.version for m in stored_matches(conn)}
    assert refresh_finished(conn) is None  # the same engine: the index is trusted, nothing read
    assert get_match(conn, over, table=HOME).finished is None
    conn.execute("UPDATE engine SET fingerprint = 'an older engine'")
    conn.close()
    app = new_app(path)  # the start notices the other engine and rebuilds
    conn = connect(str(path))
    assert_index_is_the_fold(conn)
    last_hand = conn.execute("SELECT MAX(created) FROM hand WHERE match_id = ?", (over,)).fetchone()[0]
    assert get_match(conn, over, table=HOME).finished == last_hand
    assert {m.id: m.version for m in stored_matches(conn)} == {over: versions[over] + 1,
                                                              playing: versions[playing] + 1}
    assert conn.execute("SELECT fingerprint FROM engine").fetchone()[0] == engine_fingerprint()
    assert app.test_client().get("/").status_code == 200


def test_the_fingerprint_follows_the_engine_source(tmp_path):
    files = []
    for name in ENGINE_MODULES:
        copy = tmp_path / f"{name}.py"
        copy.write_bytes((ENGINE_FILES[0].parent / f"{name}.py").read_bytes())
        files.append(copy)
    assert engine_fingerprint(files) == engine_fingerprint()
    files[2].write_text(files[2].read_text() + "\n# a changed rule\n")
    assert engine_fingerprint(files) != engine_fingerprint()
    assert {path.name for path in ENGINE_FILES} >= {"ledger.py", "rules.py"}


def test_what_the_rebuild_costs_for_a_thousand_matches(ledger, record_property):
    full = full_match()
    ledger.execute("PRAGMA synchronous = OFF")  # only to make the thousand quickly
    for number in range(1000):
        create_match(ledger, full if number % 2 else full.with_hands(full.hands[:number % 12]), table=HOME)
    ledger.execute("UPDATE match SET finished = NULL")
    ledger.execute("UPDATE engine SET fingerprint = 'an older engine'")
    started = time.perf_counter()
    corrected = refresh_finished(ledger)
    took = time.perf_counter() - started
    print(f"\nrebuilding `finished` for 1,000 matches ({len(full.hands)} hands or fewer) took {took:.3f} s")
    record_property("rebuild_finished_seconds", took)
    assert corrected == 500
    assert_index_is_the_fold(ledger)  # its time is printed and recorded, never asserted: bench/ times things
