"""Several phones at one match, through a real waitress server with 8 threads.

Every hand is told apart by its points (and winner), so a lost or doubled hand shows
by name. Bounded: 200 + 5x5 + 2x2 posts, a few seconds in all.

The module runs once per engine (GIN_LEDGER_TEST_ENGINES, as tests/conftest.py reads it): one
server on a SQLite file, then one on a throwaway PostgreSQL schema (tests/postgres.py), each shared
by the module's tests; the rows are read back through the storage's own connection, either engine's.
"""
import json
import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from models.files.matchfile import replay
from postgres import Schema
from server import Client, Server
from models.storage.connection import connect

pytestmark = pytest.mark.slow  # each test starts a server or another process: left out of the quick loop

THREADS = 8
HANDS_EACH = 25
BIG_TARGET = {"players": ["Ana", "Ben"], "format": "hollywood", "first_dealer": "Ana",
              "rules": {"target": 1_000_000}}
STALE = "changed on another phone"


ENGINES = os.environ.get("GIN_LEDGER_TEST_ENGINES", "sqlite,postgresql").split(",")


@pytest.fixture(scope="module", params=ENGINES)
def server(request, tmp_path_factory):
    """One server for the module's tests on each engine: a SQLite file, or a PostgreSQL schema of its own."""
    folder = tmp_path_factory.mktemp(f"concurrency-{request.param}")
    schema = Schema() if request.param == "postgresql" else None  # skips the half without a server
    database = schema.url if schema else folder / "ledger.sqlite"
    try:
        with Server(database, threads=8, log_dir=folder) as running:
            yield running
    finally:
        if schema:
            schema.drop()


def input_part(doc: dict) -> dict:
    return {key: value for key, value in doc.items() if key != "result"}


def assert_replays(doc: dict) -> None:
    assert doc["result"] == replay(json.dumps(input_part(doc)))


def db_hands(database: str, match_id: int) -> list:
    """The match's hand rows as stored, readable by column name, on either engine."""
    conn = connect(database)
    try:
        return conn.execute("SELECT * FROM hand WHERE match_id = ? ORDER BY position", (match_id,)).fetchall()
    finally:
        conn.close()


def code(thread: int, seq: int) -> int:
    """Thread and sequence number in one points value: 1..725, unique."""
    return thread * 100 + seq + 1


def test_200_hands_from_8_phones_are_all_stored_once(server, record_property):
    match_id = server.client().import_match(BIG_TARGET)
    start = threading.Barrier(THREADS)

    def phone(thread: int) -> list[tuple[int, int]]:
        client = server.client()
        client.get(f"/matches/{match_id}")  # its own session cookie
        winner = ("Ana", "Ben")[thread % 2]
        answers = []
        start.wait(timeout=30)
        for seq in range(HANDS_EACH):
            # points above the most one hand scores: confirmed, as the question's "save it anyway" posts them
            answer = client.post_hand(match_id, winner=winner, points=str(code(thread, seq)), confirmed="yes")
            answers.append((answer.status, seq))
            assert answer.status == 302, (thread, seq, answer.status, answer.body[:500])
            assert answer.location == f"/matches/{match_id}#told"
        return answers

    with ThreadPoolExecutor(THREADS) as pool:
        results = [future.result(timeout=300) for future in [pool.submit(phone, t) for t in range(THREADS)]]
    assert sum(len(r) for r in results) == THREADS * HANDS_EACH

    doc = server.client().export(match_id)
    stored = Counter((hand["winner"], hand["points"]) for hand in doc["hands"])
    expected = Counter((("Ana", "Ben")[t % 2], code(t, s)) for t in range(THREADS) for s in range(HANDS_EACH))
    assert len(doc["hands"]) == THREADS * HANDS_EACH
    assert stored == expected, f"lost: {expected - stored}, doubled: {stored - expected}"
    # each phone's hands are in the order it posted them
    for thread in range(THREADS):
        mine = [hand["points"] for hand in doc["hands"] if hand["points"] // 100 == thread]
        assert mine == sorted(mine)
    assert_replays(doc)
    assert doc["result"]["finished"] is False

    rows = db_hands(server.database, match_id)
    assert [row["position"] for row in rows] == [1024 * n for n in range(1, THREADS * HANDS_EACH + 1)]  # a place each
    assert len({row["submission"] for row in rows}) == len(rows)
    record_property("hands_posted_concurrently", THREADS * HANDS_EACH)
    record_property("hands_stored", len(doc["hands"]))
    print(f"\nconcurrency: {THREADS * HANDS_EACH} hands posted by {THREADS} phones, "
          f"{len(doc['hands'])} stored, {sum(stored.values()) - len(stored)} doubled")


def cloned(client: Client) -> Client:
    """Another connection of the same phone: same session cookie."""
    twin = Client(client.base)
    for cookie in client.jar:
        twin.jar.set_cookie(cookie)
    return twin


@pytest.mark.parametrize("round_", range(5))
def test_one_form_posted_5_times_at_once_is_stored_once(server, round_):
    owner = server.client()
    match_id = owner.import_match(BIG_TARGET)
    fields = {**owner.page_fields(f"/matches/{match_id}", "csrf_token", "form_id"),
              "winner": "Ben", "points": str(round_ + 7)}
    phones = [cloned(owner) for _ in range(5)]
    start = threading.Barrier(5)

    def tap(phone: Client):
        start.wait(timeout=30)
        answer = phone.post(f"/matches/{match_id}/hands", fields)
        assert answer.status == 302, (answer.status, answer.body[:500])
        return phone.get(answer.location.split("#")[0]).body

    with ThreadPoolExecutor(5) as pool:
        pages = list(pool.map(tap, phones, timeout=120))

    doc = owner.export(match_id)
    assert [(h["winner"], h["points"]) for h in doc["hands"]] == [("Ben", round_ + 7)]
    assert sum("already saved" in page for page in pages) == 4
    assert sum("Hand 1:" in page for page in pages) == 1
    assert_replays(doc)


@pytest.mark.parametrize("together", [False, True], ids=["one-after-the-other", "at-once"])
def test_stale_edit_is_refused_and_the_first_edit_kept(server, together):
    doc = dict(BIG_TARGET, hands=[{"winner": "Ana", "points": 5}, {"winner": "Ben", "points": 6}])
    match_id = server.client().import_match(doc)
    edit = f"/matches/{match_id}/hands/1"
    first, second = server.client(), server.client()
    forms = {phone: phone.page_fields(edit, "csrf_token", "version") for phone in (first, second)}
    assert forms[first]["version"] == forms[second]["version"]
    wanted = {first: ("Ana", 11), second: ("Ben", 22)}

    def post(phone: Client):
        winner, points = wanted[phone]
        return phone, phone.post(edit, {**forms[phone], "winner": winner, "points": str(points)})

    if together:
        start = threading.Barrier(2)

        def racing(phone):
            start.wait(timeout=30)
            return post(phone)

        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(racing, (first, second), timeout=60))
    else:
        answers = [post(first), post(second)]

    for _, answer in answers:
        assert answer.status == 302, (answer.status, answer.body[:500])
    kept = [(phone, a) for phone, a in answers if a.location.endswith("#hand-1")]
    refused = [(phone, a) for phone, a in answers if not a.location.endswith("#hand-1")]
    assert len(kept) == 1 and len(refused) == 1, [a.location for _, a in answers]
    winner_phone, loser_phone = kept[0][0], refused[0][0]
    if not together:
        assert winner_phone is first
    assert refused[0][1].location == f"/matches/{match_id}"
    assert STALE in loser_phone.get(refused[0][1].location).body
    assert "Hand 1 changed" in winner_phone.get(kept[0][1].location.split("#")[0]).body

    after = server.client().export(match_id)
    assert [(h["winner"], h["points"]) for h in after["hands"]] == [wanted[winner_phone], ("Ben", 6)]
    assert_replays(after)
