"""What an answered POST promises: the hand survives the server being killed outright.

The server is waitress in a subprocess, killed with SIGKILL mid-stream (no shutdown,
no checkpoint); the restarted server must show every hand whose POST got its 302, and
the database must be sound as the kill left it (`sound`). That test runs on both engines
(the `database` fixture, tests/conftest.py). Also, SQLite only: `flask --app app backup`
taken while hands are being posted gives a sound file holding a consistent prefix.
"""
import contextlib
import http.client
import json
import secrets
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter

import psycopg
import pytest

from models.storage.connection import begin_write
from models.storage.address import POSTGRESQL, read_address
from models.game.ledger import score_sheet
from models.files.matchfile import match_document, replay
from postgres import with_query
from server import ROOT, Client, Server, server_env
from models.storage.connection import connect, migrate
from models.storage.matches import get_match
from webutil import version_now

pytestmark = pytest.mark.slow  # each test starts a server or another process: left out of the quick loop

HOME = 1  # the one table of a home file: migration 0008 makes it with id 1

BIG_TARGET = {"players": ["Ana", "Ben"], "format": "hollywood", "first_dealer": "Ana",
              "rules": {"target": 1_000_000}}
WINNERS = ("Ana", "Ben")
MAX_POSTS_EACH = 400  # bound: the kill comes long before
GONE_WITHIN_S = 15.0  # for PostgreSQL to end the sessions of a killed server (it sees their sockets close)


def input_part(doc: dict) -> dict:
    return {key: value for key, value in doc.items() if key != "result"}


def integrity(path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def sessions_of(conn, app_name: str) -> list[tuple]:
    """PostgreSQL: the sessions a server opened (pid, state, whether in a transaction)."""
    return [tuple(row) for row in conn.execute(
        "SELECT pid, state, xact_start IS NOT NULL FROM pg_stat_activity WHERE application_name = ?", (app_name,))]


def sound(database, app_name: str) -> str:
    """"ok", or what is wrong with the database as a killed server left it.

    SQLite: the file passes PRAGMA integrity_check. PostgreSQL: a killed client cannot damage the
    server's files, but its sessions can outlive it, holding an open transaction or the write lock
    (models/storage/postgres.py WRITE_LOCK) that every later write waits for. So: no session of the killed
    server (its PGAPPNAME, `app_name`) is left within GONE_WITHIN_S, and a new session takes the
    write lock at once."""
    if read_address(str(database)).engine != POSTGRESQL:
        return integrity(database)
    conn = connect(database)
    try:
        deadline = time.monotonic() + GONE_WITHIN_S
        while left := sessions_of(conn, app_name):
            if time.monotonic() > deadline:
                return f"sessions of the killed server still there: {left}"
            time.sleep(0.05)
        conn.execute("SET lock_timeout = '2s'")  # other writes hold it for milliseconds
        try:
            begin_write(conn)  # the lock every write takes first
        except psycopg.errors.LockNotAvailable:
            return "the write lock is still held"
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        return "ok"
    finally:
        conn.close()


def agrees(database, match_id: int) -> str:
    """"ok" when the match row and its hand rows are of one moment: one version for the match made,
    one per hand since (as the backup test checks), and every hand in a place of its own."""
    conn = connect(str(database))
    try:
        version = version_now(conn, match_id)
        rows = conn.execute("SELECT position FROM hand WHERE match_id = ?", (match_id,)).fetchall()
    finally:
        conn.close()
    positions = [row["position"] for row in rows]
    if version != len(positions) + 1:
        return f"version {version} beside {len(positions)} hands"
    if len(set(positions)) != len(positions):
        return f"hands sharing a place: {sorted(p for p in positions if positions.count(p) > 1)}"
    return "ok"


class Poster(threading.Thread):
    """One phone entering hands as fast as the server answers, until told to stop or cut off.

    Thread `n` posts winner WINNERS[n] with points offset+1, offset+2, ...: (winner, points)
    names each hand. The csrf token is read once, up front; each post has a fresh form id, as a
    freshly drawn page would.
    """

    def __init__(self, client: Client, match_id: int, number: int, offset: int = 0, pause: float = 0.0):
        super().__init__(daemon=True)
        self.client, self.match_id, self.number, self.offset, self.pause = client, match_id, number, offset, pause
        self.attempted: list[tuple[str, int]] = []
        self.acked: list[tuple[str, int]] = []
        self.other: list = []
        self.failure: BaseException | None = None
        self.stopping = threading.Event()
        # read before the thread starts, so a kill can only ever cut a POST
        self.token = client.page_fields(f"/matches/{match_id}", "csrf_token")["csrf_token"]

    def run(self) -> None:
        try:
            for seq in range(MAX_POSTS_EACH):
                if self.stopping.is_set():
                    return
                hand = (WINNERS[self.number], self.offset + seq + 1)
                self.attempted.append(hand)
                try:
                    answer = self.client.post(f"/matches/{self.match_id}/hands", {
                        "csrf_token": self.token, "form_id": secrets.token_urlsafe(12),
                        "winner": hand[0], "points": str(hand[1]), "confirmed": "yes"})  # above the most: said so
                except (OSError, http.client.HTTPException):  # the server is gone: refused, reset, cut mid-answer
                    return
                if answer.status == 302:
                    self.acked.append(hand)
                else:
                    self.other.append((hand, answer.status, answer.body[:300]))
                if self.pause:
                    time.sleep(self.pause)
        except BaseException as error:  # reported by the test, not lost in the thread
            self.failure = error


def exported_hands(client: Client, match_id: int) -> tuple[dict, list[tuple[str, int]]]:
    doc = client.export(match_id)
    return doc, [(hand["winner"], hand["points"]) for hand in doc["hands"]]


def test_every_acknowledged_hand_survives_sigkill(database, tmp_path, record_property):
    """On a SQLite file and on a PostgreSQL schema (`database`); the killed server's sessions carry
    an application_name of their own (libpq's PGAPPNAME), so `sound` can tell them apart."""
    app_name = f"gin-ledger-crash-{secrets.token_hex(4)}"
    served = database  # PostgreSQL: named app_name; the schema's name is the test's own sessions' (tests/postgres.py)
    if read_address(database).engine == POSTGRESQL:
        served = with_query(database, application_name=app_name)
    server = Server(served, threads=8, log_dir=tmp_path, env={"PGAPPNAME": app_name}).start()
    figures = []
    try:
        match_id = server.client().import_match(BIG_TARGET)
        acked_all: list[tuple[str, int]] = []
        attempted_all: list[tuple[str, int]] = []
        for round_ in range(2):  # kill, restart, post more, kill again
            posters = [Poster(server.client(), match_id, n, offset=round_ * 10_000) for n in range(2)]
            for poster in posters:
                poster.start()
            began = time.monotonic()
            while time.monotonic() - began < 1.0 and sum(len(p.acked) for p in posters) < 60:
                time.sleep(0.01)
            assert all(p.is_alive() for p in posters), [repr(p.failure) for p in posters]
            if read_address(database).engine == POSTGRESQL:  # so that `sound` looks for the right sessions
                with contextlib.closing(connect(database)) as conn:
                    assert sessions_of(conn, app_name), "the server's sessions do not carry PGAPPNAME"
            server.kill()  # SIGKILL to the waitress process, posts in flight
            for poster in posters:
                poster.join(timeout=60)
                assert not poster.is_alive()
                assert poster.failure is None, repr(poster.failure)
                assert poster.other == [], poster.other
            acked = [hand for p in posters for hand in p.acked]
            attempted = [hand for p in posters for hand in p.attempted]
            acked_all += acked
            attempted_all += attempted
            assert acked, "nothing was acknowledged before the kill"

            assert sound(database, app_name) == "ok"  # as the kill left it, before any recovery by the app
            assert agrees(database, match_id) == "ok"
            server.start()  # same database, new port
            doc, stored = exported_hands(server.client(), match_id)
            counts = Counter(stored)
            missing = [hand for hand in acked_all if hand not in counts]
            assert not missing, f"acknowledged but lost: {missing}"
            assert all(n == 1 for n in counts.values()), f"doubled: {[h for h, n in counts.items() if n > 1]}"
            assert set(stored) <= set(attempted_all), "a hand nobody posted"
            assert doc["result"] == replay(json.dumps(input_part(doc)))
            unanswered = len(set(stored) & set(attempted) - set(acked))
            figures.append((len(acked), len(set(acked) & set(stored)), unanswered, len(attempted) - len(acked)))

        server.stop()
        assert sound(database, app_name) == "ok"
        conn = connect(database)
        try:
            positions = [row["position"] for row in conn.execute(
                "SELECT position FROM hand WHERE match_id = ? ORDER BY position", (match_id,))]
        finally:
            conn.close()
        assert positions == [(n + 1) * 1024 for n in range(len(positions))]  # one place each, in order
    finally:
        server.stop()
    for round_, (acked, found, unanswered_kept, unanswered) in enumerate(figures, start=1):
        print(f"\ncrash round {round_}: {acked} hands acknowledged before SIGKILL, {found} found after restart; "
              f"{unanswered} posts unanswered, of which {unanswered_kept} were stored anyway")
    record_property("acked_before_kill", [f[0] for f in figures])
    record_property("found_after_restart", [f[1] for f in figures])


def run_backup(database, target) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flask", "--app", "app", "backup", str(target)],
                          cwd=ROOT, env=server_env(database), capture_output=True, text=True, timeout=60)


def test_backup_while_hands_are_posted_is_sound_and_a_consistent_prefix(tmp_path, record_property):
    path = tmp_path / "ledger.sqlite"
    with Server(path, threads=8) as server:
        # An idle connection held open, as a long-lived worker's would be: without it the last
        # request's close checkpoints the WAL, and even a plain file copy would look consistent.
        idle = sqlite3.connect(path)
        idle.execute("SELECT COUNT(*) FROM match").fetchone()
        matches = [server.client().import_match(BIG_TARGET) for _ in range(2)]
        posters = [Poster(server.client(), match_id, n, pause=0.002) for n, match_id in enumerate(matches)]
        for poster in posters:
            poster.start()
        backups = []
        for number in range(2):
            while sum(len(p.acked) for p in posters) < 15 * (number + 1):
                assert all(p.is_alive() for p in posters), [repr(p.failure) for p in posters]
                time.sleep(0.01)
            before = {p.match_id: len(p.acked) for p in posters}
            target = tmp_path / f"backup-{number}.sqlite"
            done = run_backup(path, target)
            after = {p.match_id: len(p.attempted) for p in posters}
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith("Backed up "), done.stdout
            assert done.stderr == ""
            backups.append((target, before, after))
        for poster in posters:
            poster.stopping.set()
            poster.join(timeout=60)
            assert poster.failure is None and poster.other == [], (poster.failure, poster.other)
        finals = {match_id: exported_hands(server.client(), match_id)[1] for match_id in matches}
        idle.close()

    sizes = []
    for target, before, after in backups:
        assert integrity(target) == "ok"
        conn = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        try:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            ids = [row["id"] for row in conn.execute("SELECT id FROM match ORDER BY id")]
            assert ids == matches
            for match_id in ids:
                stored = get_match(conn, match_id, table=HOME)
                doc = match_document(stored.match)
                assert replay(json.dumps(doc)) == score_sheet(stored.match).to_dict()
                hands = [(h.winner, h.points) for h in stored.match.hands]
                # what was answered before the backup began is in it; nothing not yet posted is
                assert before[match_id] <= len(hands) <= after[match_id]
                assert hands == finals[match_id][:len(hands)], "not a prefix of what was stored"
                # one version for the match made, one per hand since
                assert stored.version == len(hands) + 1, "match row and hand rows from different moments"
                sizes.append(len(hands))
        finally:
            conn.close()
    print(f"\nbackups taken while posting held {sizes} hands (per match); "
          f"the matches ended with {[len(h) for h in finals.values()]}")
    record_property("backup_hands", sizes)


def test_backup_refuses_a_target_it_cannot_write(tmp_path):
    path = tmp_path / "ledger.sqlite"
    migrate(connect(str(path)))
    done = run_backup(path, tmp_path / "no-such-folder" / "copy.sqlite")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("backup: ")
