"""A ledger whose main file is torn, as a crash in the middle of a checkpoint leaves it, opens as SQLite
recovers it: through its -wal. SQLite only: these tests read and damage the file itself.

A checkpoint copies the -wal's pages into the main file and only then resets the -wal; killed half way,
the main file holds some new pages and some old, and only the -wal makes it whole. Every start read the
schema version from the main file alone (`immutable=1`), found a torn page 1, and refused to start for
good: the server, `backup` and every other command.
"""
import json
import shutil
import sqlite3
import struct
import subprocess
import sys
import time
from collections import Counter

import pytest

from app import StartRefused, create_app
from casefiles import case
from models.errors import LedgerDamaged
from models.files.matchfile import replay
from server import ROOT, Server, server_env
from test_crash import BIG_TARGET, Poster, exported_hands, input_part
from views.site import db
from webutil import export, import_match, post_hand

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow]

CASES = ("seed001-ana-ben", "seed000-bob-alexandra")


def wal_pages(wal_path) -> tuple[int, set[int]]:
    """The page size and the numbers of the pages the -wal holds (its 32-byte header, then frames of a
    24-byte header, whose first field is the page number, and one page)."""
    data = open(wal_path, "rb").read()
    page_size = struct.unpack(">I", data[8:12])[0]
    pages, offset = set(), 32
    while offset + 24 + page_size <= len(data):
        pages.add(struct.unpack(">I", data[offset:offset + 4])[0])
        offset += 24 + page_size
    return page_size, pages


def torn_copy(tmp_path):
    """A ledger as a crash mid-checkpoint leaves it, and every match's file as the server showed it.

    The first match is written by an app left open (its -wal keeps every page since the schema's, page 1
    among them); the later ones too are only in the -wal, copied while the app that
    wrote them still holds its connections open (as a killed server leaves them: no last checkpoint).
    Then every page of the main file that the -wal holds anew is overwritten with garbage: what a
    checkpoint cut off half way leaves of them is not to be trusted, and SQLite never reads it."""
    live = tmp_path / "live.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(live), "SECRET_KEY": "k"},
                     instance_path=str(tmp_path / "instance"))
    client = app.test_client()
    import_match(client, case(CASES[0]))
    first = app  # its connections left open, as an older server's: the -wal keeps the schema's page 1
    app = create_app({"TESTING": True, "DATABASE": str(live), "SECRET_KEY": "k"},
                     instance_path=str(tmp_path / "instance"))
    client = app.test_client()
    ids = [import_match(client, case(name)) for name in CASES]
    match_id = ids[-1]
    for points in range(1, 6):
        assert post_hand(client, match_id, winner="Bob", points=str(points)).status_code == 302
    expected = {match_id: export(client, match_id) for match_id in (1, *ids)}
    torn = tmp_path / "torn.sqlite"
    shutil.copy(live, torn)
    shutil.copy(f"{live}-wal", f"{torn}-wal")  # the -shm is only an index: SQLite rebuilds it from the -wal
    db.close_app(app)
    db.close_app(first)
    page_size, pages = wal_pages(f"{torn}-wal")
    size = torn.stat().st_size
    torn_pages = sorted(page for page in pages if page * page_size <= size)
    assert 1 in torn_pages, "the -wal does not hold page 1: the test would not tear the header"
    with open(torn, "r+b") as stream:
        for page in torn_pages:
            stream.seek((page - 1) * page_size)
            stream.write(b"\xa5" * page_size)
    return torn, expected


def test_a_ledger_torn_by_a_crash_mid_checkpoint_starts_backs_up_and_keeps_every_hand(tmp_path):
    torn, expected = torn_copy(tmp_path)
    with pytest.raises(sqlite3.DatabaseError):  # the main file alone is not a database any more
        sqlite3.connect(f"file:{torn}?mode=ro&immutable=1", uri=True).execute("PRAGMA user_version").fetchone()

    backup = tmp_path / "backup.sqlite"
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "backup", str(backup)], cwd=ROOT,
                          env=server_env(torn), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("Backed up "), done.stderr[-2000:]
    assert sqlite3.connect(backup).execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    app = create_app({"TESTING": True, "DATABASE": str(torn), "SECRET_KEY": "k"},
                     instance_path=str(tmp_path / "instance"))
    try:
        client = app.test_client()
        for match_id, document in expected.items():
            assert export(client, match_id) == document
        assert client.get("/").status_code == 200
    finally:
        db.close_app(app)
    for path in (torn, backup):
        assert sqlite3.connect(path).execute("SELECT count(*) FROM hand WHERE deleted IS NULL").fetchone()[0] == \
            sum(len(document["hands"]) for document in expected.values())


def test_a_really_damaged_ledger_is_said_in_one_sentence_and_left_as_it_is(tmp_path):
    torn, _expected = torn_copy(tmp_path)
    (tmp_path / "torn.sqlite-wal").unlink()  # the -wal that made it whole is gone: the pages are garbage
    before = torn.read_bytes()
    with pytest.raises(StartRefused) as refused:
        create_app({"TESTING": True, "DATABASE": str(torn), "SECRET_KEY": "k"},
                   instance_path=str(tmp_path / "instance"))
    assert isinstance(refused.value.reason, LedgerDamaged)
    for command in (["run", "--port", "0"], ["backup", str(tmp_path / "b.sqlite")]):
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", *command], cwd=ROOT,
                              env=server_env(torn), capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
        said = done.stderr.strip()
        assert said.count("\n") == 0, said
        assert str(torn) in said and "is damaged" in said
        assert "flask --app app restore" in said and "flask --app app backup" in said
    assert torn.read_bytes() == before
    assert not (tmp_path / "b.sqlite").exists()


def test_one_of_two_servers_on_one_file_restarts_again_and_again_while_the_other_writes(tmp_path):
    """Each restart reads the file while the other process writes and checkpoints it; a kill may land
    in the middle of the killed server's own checkpoint. Every restart must come up, and every hand
    either server acknowledged is there once."""
    path = tmp_path / "ledger.sqlite"
    for name in ("steady", "restarted"):
        (tmp_path / name).mkdir()
    steady = Server(path, threads=4, log_dir=tmp_path / "steady").start()
    restarted = Server(path, threads=4, log_dir=tmp_path / "restarted").start()
    try:
        match_id = steady.client().import_match(BIG_TARGET)
        acked = []
        for round_ in range(6):  # each round's points are its own, so (player, points) names a hand
            writer = Poster(steady.client(), match_id, 0, offset=round_ * 400, pause=0.01)
            poster = Poster(restarted.client(), match_id, 1, offset=round_ * 400)
            writer.start()
            poster.start()
            began = time.monotonic()
            while time.monotonic() - began < 0.5 and len(poster.acked) < 20 + 5 * round_:
                time.sleep(0.005)
            restarted.kill()
            poster.join(timeout=60)
            restarted.start()  # while the other writes; raises, with the server's log, if it cannot open the file
            assert writer.is_alive(), "the other server stopped writing before the restart was done"
            writer.stopping.set()
            writer.join(timeout=60)
            for one in (writer, poster):
                assert one.failure is None and one.other == [], (one.failure, one.other)
            assert writer.acked and poster.acked, round_
            acked += writer.acked + poster.acked
        doc, stored = exported_hands(restarted.client(), match_id)
        counts = Counter(stored)
        missing = [hand for hand in acked if hand not in counts]
        assert not missing, f"acknowledged but lost: {missing[:10]}"
        assert all(n == 1 for n in counts.values()), [hand for hand, n in counts.items() if n > 1]
        assert doc["result"] == replay(json.dumps(input_part(doc)))
    finally:
        restarted.stop()
        steady.stop()
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
