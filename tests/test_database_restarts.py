"""A database that restarts under phones that save: a retry at most, never a wrong word, never a 500.

PostgreSQL: a cluster of the test's own (the suite's shared one must keep serving the other tests) is
restarted at once (`pg_ctl restart -m immediate`, as after a crash, a failover or a managed database's
maintenance) again and again while phones save and read through a waitress process with a pool of two
sessions. Each answer is held to its words: a saved hand (302, or 303 "it was kept") is stored once;
"nothing was saved" is not stored; a page that only reads never says "nothing was saved". After the last
restart the app serves again at once, with no restart of its own.

SQLite: a file locked by another program and a full disk, each a 503 in words and nothing stored.
"""
from __future__ import annotations

import glob
import http.client
import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from collections import Counter
from html import unescape

import pytest

from models.storage import connection
from server import Client, Server, free_port
from webutil import export, hidden, import_match

RESTARTS = 4
SAVES_BETWEEN = 10  # acknowledged saves before each restart, and after the last
NOT_SAVED = "Nothing was saved"
READ_FAILED = "The sheet cannot be read just now"
SAVED_BUT = "Your change was saved, but the page after it cannot be drawn"
NOT_KNOWN = "whether it was kept is not known"
TARGET = {"players": ["Ana", "Ben"], "format": "hollywood", "first_dealer": "Ana", "rules": {"target": 1_000_000}}


def postgres_bin() -> str:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but PostgreSQL's initdb is missing (apt-get install postgresql)", pytrace=False)
        pytest.skip("no PostgreSQL server programs here: apt-get install postgresql")
    return os.path.dirname(found[-1])


class Cluster:
    """A throwaway PostgreSQL cluster on loopback, run as the postgres user when the tests run as root."""

    def __init__(self):
        self.bin = postgres_bin()
        self.dir = tempfile.mkdtemp(prefix="gin-ledger-restarts-")
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        self.run("initdb", "-D", f"{self.dir}/data", "-A", "trust", "-U", "postgres", "-E", "UTF8")
        self.options = (f"-k {self.dir} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off "
                        "-c full_page_writes=off")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, program: str, *args: str) -> None:
        command = [f"{self.bin}/{program}", *args]
        if os.geteuid() == 0:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(f"'{part}'" for part in command)]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-w", "-t", "60", "-o", self.options,
                 "start")

    def restart(self) -> None:
        """At once, as a crash or a failover: every session is cut, open transactions are lost."""
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-m", "immediate", "-w", "-t", "60",
                 "-o", self.options, "restart")

    def stop(self) -> None:
        try:
            self.run("pg_ctl", "-D", f"{self.dir}/data", "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def cluster():
    made = Cluster()
    made.start()
    yield made
    made.stop()


def said(body: str) -> str:
    """The page's words, without its markup."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))


def stored_hands(client: Client, matches: list[int]) -> Counter:
    """Every hand the matches hold, as (match, winner, points), counted."""
    return Counter((match_id, hand["winner"], hand["points"])
                   for match_id in matches for hand in client.export(match_id)["hands"])


class Phone(threading.Thread):
    """Saves hands one after another until told to stop, as the only phone saving `winner`'s wins in its
    match, so (match, winner, points) names each hand; each answer is kept beside it. A reader reads the
    match page instead."""

    def __init__(self, client: Client, match_id: int, winner: str, reader: bool = False):
        super().__init__(daemon=True)
        self.client, self.match_id, self.winner, self.reader = client, match_id, winner, reader
        self.answers: list[tuple[tuple[int, str, int] | None, int, str]] = []
        self.stopping = threading.Event()
        self.failure: BaseException | None = None
        self.token = hidden(client.get(f"/matches/{match_id}").body, "csrf_token")

    def run(self) -> None:
        try:
            for seq in range(1, 400):
                if self.stopping.is_set():
                    return
                if self.reader:
                    answer = self.client.get(f"/matches/{self.match_id}")
                    self.answers.append((None, answer.status, said(answer.body) if answer.status != 200 else ""))
                    time.sleep(0.02)
                    continue
                hand = (self.match_id, self.winner, seq)
                answer = self.client.post(f"/matches/{self.match_id}/hands", {
                    "csrf_token": self.token, "form_id": secrets.token_urlsafe(12),
                    "winner": self.winner, "points": str(seq), "confirmed": "yes"})
                self.answers.append((hand, answer.status, said(answer.body) if answer.status != 302 else ""))
                time.sleep(0.01)
        except (OSError, http.client.HTTPException) as error:  # the app server never goes away here
            self.failure = error
        except BaseException as error:
            self.failure = error


def acknowledged(phones) -> int:
    """Saves answered "saved" so far, by all the phones."""
    return sum(1 for phone in phones for hand, status, _words in list(phone.answers)
               if hand is not None and status in (302, 303))


@pytest.mark.slow
def test_restarts_of_postgresql_cost_a_retry_never_a_wrong_word(cluster, tmp_path, record_property):
    server = Server(cluster.url, threads=4, log_dir=tmp_path, env={"FLASK_DATABASE_POOL_SIZE": "2"}).start()
    try:
        client = server.client()
        matches = [client.import_match(TARGET) for _ in range(2)]
        match_id = matches[0]
        phones = [Phone(server.client(), matches[n // 2], ("Ana", "Ben")[n % 2]) for n in range(4)]
        phones.append(Phone(server.client(), match_id, "", reader=True))
        for phone in phones:
            phone.start()
        # Each restart waits for saves acknowledged since the one before it (however slow the machine):
        # the phones save between the restarts, not only before them.
        between = []
        for _restart in range(RESTARTS + 1):
            before = acknowledged(phones)
            deadline = time.monotonic() + 120
            while acknowledged(phones) < before + SAVES_BETWEEN and time.monotonic() < deadline:
                time.sleep(0.05)
            between.append(acknowledged(phones) - before)
            if _restart < RESTARTS:
                cluster.restart()
        for phone in phones:
            phone.stopping.set()
            phone.join(timeout=120)
            assert not phone.is_alive() and phone.failure is None, repr(phone.failure)

        back = time.monotonic()  # serving again with no restart of its own
        assert client.get("/").status == 200 and client.get(f"/matches/{match_id}").status == 200
        after = Phone(server.client(), match_id, "Ben")
        answer = after.client.post(f"/matches/{match_id}/hands", {
            "csrf_token": after.token, "form_id": secrets.token_urlsafe(12), "winner": "Ben", "points": "9000",
            "confirmed": "yes"})
        assert answer.status == 302, said(answer.body)[:500]
        back = time.monotonic() - back
        stored = stored_hands(client, matches)
    finally:
        server.stop()

    answers = [answer for phone in phones for answer in phone.answers]
    statuses = Counter(status for _hand, status, _words in answers)
    assert 500 not in statuses, [words[:300] for _hand, status, words in answers if status == 500][:3]
    assert set(statuses) <= {200, 302, 303, 503}, statuses
    assert all(n == 1 for n in stored.values()), [hand for hand, n in stored.items() if n > 1]
    saves = [(hand, status, words) for hand, status, words in answers if hand is not None]
    for hand, status, words in saves:
        if status in (302, 303):  # saved, or "it came back, and the change was kept"
            assert hand in stored, (hand, status, words[:300])
        elif status == 503 and NOT_SAVED in words:
            assert hand not in stored, ("said nothing was saved, but it was", hand)
        elif status == 503 and SAVED_BUT in words:
            assert hand in stored, ("said it was saved, but it was not", hand)
        else:
            assert status == 503 and NOT_KNOWN in words, (hand, status, words[:500])
    reads = [(status, words) for hand, status, words in answers if hand is None]
    assert reads and all(status == 200 or (status == 503 and READ_FAILED in words) for status, words in reads), \
        [words[:300] for status, words in reads if status != 200][:3]
    acked = sum(1 for _hand, status, _words in saves if status in (302, 303))
    assert min(between) >= SAVES_BETWEEN, (between, statuses)  # saved after every restart, the last one too
    print(f"\n{RESTARTS} restarts: {len(saves)} saves, {acked} acknowledged and stored once; answers {dict(statuses)}; "
          f"{len(reads)} reads; serving again {back:.2f} s after the phones stopped")
    record_property("answers", dict(statuses))


# ---- SQLite's own faults -----------------------------------------------------------------------------

@pytest.fixture
def quick_busy(monkeypatch):
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 200)  # a lock held longer is a fault, said at once


@pytest.mark.sqlite_only
def test_a_file_locked_by_another_program_is_a_503_and_stores_nothing(app, client, quick_busy):
    match_id = import_match(client, TARGET)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program writing, and not letting go
    try:
        answer = client.post(f"/matches/{match_id}/hands", data={
            "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
            "winner": "Ana", "points": "25"})
        assert answer.status_code == 503, answer.status_code
        words = said(answer.get_data(as_text=True))
        assert "Nothing was saved: another program holds the database" in words
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert export(client, match_id)["hands"] == []
    answer = client.post(f"/matches/{match_id}/hands", data={  # the same form again, once the lock is gone
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), "winner": "Ana", "points": "25"})
    assert answer.status_code == 302
    assert len(export(client, match_id)["hands"]) == 1


@pytest.mark.sqlite_only
def test_a_full_disk_is_a_503_that_says_so_and_stores_nothing(app, client):
    from views.site import db

    first = import_match(client, TARGET)
    with app.test_request_context():
        conn = db.get_db()  # this thread's connection: the test client's requests use it too
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full: no page more
    big = {**TARGET, "hands": [{"winner": "Ana", "points": n} for n in range(1, 400)]}
    page = client.get("/").get_data(as_text=True)
    answer = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"),
                                          "text": __import__("json").dumps(big)})
    assert answer.status_code == 503
    words = said(answer.get_data(as_text=True))
    assert "Nothing was saved: the disk of the database is full" in words
    with app.test_request_context():
        conn = db.get_db()
        assert conn.execute("SELECT count(*) FROM match").fetchone()[0] == 1
        assert not conn.in_transaction
        conn.execute("PRAGMA max_page_count = 1073741823")
    assert client.get(f"/matches/{first}").status_code == 200
