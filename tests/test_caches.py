"""The caches belong to one app, are bounded in bytes, never hand out a stale entry, and hand out frozen values."""
import dataclasses
import sqlite3

import pytest
from webutil import case, import_match

from app import create_app
from models.storage import caches
from models.storage.caches import BoundedCache, approximate_size
from views.site.kept import EXTENSION
from models.game.hand import Hand
from models.storage.match_cache import MatchCache
from models.files.matchfile import match_from_document
from models.storage.connection import connect
from models.storage.ledger_file import open_ledger
from models.storage.hand_writes import add_hand
from models.storage.matches import create_match, get_match, list_matches
from models.storage.match_rows import MATCH_QUERY, StoredMatch
from models.storage.players import rename_player

HOME = 1  # the one table of a home file: migration 0008 makes it with id 1


def make_app(tmp_path, name, **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{name}.sqlite"), "SECRET_KEY": "k", **config})


def app_caches(app):
    return app.extensions[EXTENSION]


def rows(conn):
    return conn.execute(MATCH_QUERY + " ORDER BY m.id").fetchall()


@pytest.fixture
def ledger(tmp_path):
    conn = open_ledger(str(tmp_path / "ledger.sqlite"))
    yield conn
    conn.close()


def test_two_apps_in_one_process_share_no_entry(tmp_path):
    one, two = make_app(tmp_path, "one"), make_app(tmp_path, "two")
    assert app_caches(one).matches is not app_caches(two).matches
    assert app_caches(one).qr is not app_caches(two).qr
    client = one.test_client()
    import_match(client, case("full-hollywood-match"))
    assert client.get("/").status_code == 200  # lists the match (folding it) and draws the table's QR code
    assert len(app_caches(one).matches.entries) == 1
    assert len(app_caches(one).qr) == 1
    assert len(app_caches(two).matches.entries) == 0 and len(app_caches(two).qr) == 0
    assert two.test_client().get("/").status_code == 200
    assert len(app_caches(two).matches.entries) == 0  # nothing to list there: one's match is not two's


def test_a_sheet_from_the_cache_cannot_be_changed(ledger):
    cache = MatchCache(caches.MB)
    doc = case("full-hollywood-match")
    doc["hands"][0]["cards"] = {"knocker": ["AS", "2S", "3S"], "defender": ["KH"]}
    create_match(ledger, match_from_document(doc), table=HOME)
    list_matches(ledger, finished=True, cache=cache, table=HOME)
    stored = cache.get(rows(ledger)[0])
    assert stored is not None
    sheet = stored.sheet()
    game, line = sheet.games[0], sheet.lines[0]
    assert game.settlement is not None and line.entry.cards["knocker"] == ("AS", "2S", "3S")
    attempts = [
        lambda: setattr(stored, "version", 99),
        lambda: setattr(sheet, "next_dealer", "Ben"),
        lambda: setattr(game, "winner", "Ben"),
        lambda: game.scores.__setitem__("Ana", 0),
        lambda: game.boxes.__setitem__("Ben", 9),
        lambda: game.settlement.totals.__setitem__("Ana", 0),
        lambda: game.settlement.box_bonus.__setitem__("Ana", 0),
        lambda: line.totals.__setitem__(1, 0),
        lambda: sheet.lines.append(line),
        lambda: sheet.games.__setitem__(0, game),
        lambda: line.entry.cards.__setitem__("knocker", []),
        lambda: line.entry.cards["knocker"].append("4S"),
        lambda: stored.match.hands.__setitem__(0, Hand("draw")),
    ]
    for attempt in attempts:
        with pytest.raises((TypeError, AttributeError, dataclasses.FrozenInstanceError)):
            attempt()
    again = list_matches(ledger, finished=True, cache=cache, table=HOME)[0]
    assert again is stored
    assert again.sheet().to_dict() == get_match(ledger, stored.id, table=HOME).sheet().to_dict()


def test_the_cache_stays_under_its_byte_bound_when_filled_past_it(ledger):
    match = match_from_document(case("full-hollywood-match"))
    for _ in range(12):
        create_match(ledger, match, table=HOME)
    one = approximate_size(get_match(ledger, 1, table=HOME).sheet())
    cache = MatchCache(4 * one)
    listed = list_matches(ledger, finished=True, limit=-1, cache=cache, table=HOME)
    assert len(listed) == 12
    assert 0 < cache.entries.bytes <= 4 * one
    assert 1 <= len(cache.entries) < 12
    newest = next(row for row in rows(ledger) if row["id"] == listed[-1].id)
    oldest = next(row for row in rows(ledger) if row["id"] == listed[0].id)
    assert cache.get(newest) is listed[-1] and cache.get(oldest) is None  # the first ones put went


def test_the_bound_is_bytes_not_entries():
    cache = BoundedCache(10_000)
    for number in range(100):
        cache.put(number, "x" * 900)
    assert cache.bytes <= 10_000
    assert 5 <= len(cache) <= 11
    assert cache.get(99) == "x" * 900 and cache.get(0) is None
    cache.put("big", "y" * 20_000)  # larger than the whole bound: not kept, and nothing else lost for it
    assert cache.get("big") is None and cache.get(99) is not None



def test_the_least_recently_used_entry_goes_first():
    piece = approximate_size("a" * 1000)
    cache = BoundedCache(3 * piece)
    for key in "abc":
        cache.put(key, key * 1000)
    cache.get("a")
    cache.put("d", "d" * 1000)
    assert cache.get("b") is None
    assert [cache.get(key) is not None for key in "acd"] == [True, True, True]
    cache.put("a", "A" * 1000)  # a key put again replaces its entry: counted once
    assert cache.bytes == 3 * piece and cache.get("a") == "A" * 1000


def test_a_stale_entry_is_never_returned_after_a_write(ledger):
    cache = MatchCache(caches.MB)
    doc = case("full-hollywood-match")
    hands = doc["hands"]
    doc["hands"] = hands[:3]
    match_id = create_match(ledger, match_from_document(doc), table=HOME)
    before = list_matches(ledger, finished=False, cache=cache, table=HOME)[0]
    old_row = rows(ledger)[0]
    assert cache.get(old_row) is before and len(before.match.hands) == 3
    full = match_from_document({**doc, "hands": hands})
    add_hand(ledger, match_id, full.hands[3], table=HOME)
    assert cache.get(old_row) is before  # the old stamp still names the old match...
    assert cache.get(rows(ledger)[0]) is None  # ...but the row as it is now never finds it
    after = list_matches(ledger, finished=False, cache=cache, table=HOME)[0]
    assert len(after.match.hands) == 4 and after.version == before.version + 1
    assert cache.get(old_row) is None  # replaced, not kept beside the new one
    rename_player(ledger, "Ana", "Anna", table=HOME)
    renamed = list_matches(ledger, finished=False, cache=cache, table=HOME)[0]
    assert renamed.match.players[0] == "Anna" and renamed.sheet().lines[0].dealer in ("Anna", "Ben")


def test_the_web_pages_follow_a_write_through_the_cache(tmp_path):
    app = make_app(tmp_path, "web")
    client = app.test_client()
    match_id = import_match(client, case("full-hollywood-match"))
    assert "Ana" in client.get("/").get_data(as_text=True)
    conn = connect(str(tmp_path / "web.sqlite"))  # another process's rename, through its unit of work
    rename_player(conn, "Ana", "Zed", table=1)
    conn.close()
    page = client.get("/").get_data(as_text=True)
    assert "Zed" in page
    assert app_caches(app).matches.entries.get(match_id)[1].match.players[0] == "Zed"


def test_the_byte_bounds_come_from_the_config(tmp_path):
    app = make_app(tmp_path, "small", MATCH_CACHE_BYTES=1234, QR_CACHE_BYTES=567)
    assert app_caches(app).matches.entries.max_bytes == 1234
    assert app_caches(app).qr.max_bytes == 567
    assert app_caches(make_app(tmp_path, "default")).matches.entries.max_bytes == 64 * caches.MB


def test_the_qr_cache_is_bounded_too(tmp_path):
    from views.tables.qr import qr_svg

    app = make_app(tmp_path, "qr", QR_CACHE_BYTES=20_000)
    with app.app_context():
        drawn = [qr_svg(f"http://192.168.1.{n}:5000/", "join") for n in range(40)]
        assert qr_svg("http://192.168.1.39:5000/", "join") is drawn[-1]
    assert app_caches(app).qr.bytes <= 20_000
    assert 1 <= len(app_caches(app).qr) < 40


@pytest.mark.parametrize("hands", [0, 1, 13, 100, 1000])
def test_a_cached_match_is_weighed_near_what_it_holds(hands):
    """The match cache weighs an entry by its hands (walking every object on each saved hand cost
    more than the fold step it saves); the estimate must stay near the measured size, or the bound
    in bytes would not be one."""
    import json

    from models.storage.match_cache import entry_size
    from models.files.matchfile import load_match
    from tests.generate import long_match

    doc = long_match(max(hands, 1), seed=hands)
    match = load_match(json.dumps({**doc, "hands": doc["hands"][:hands]}))
    stored = StoredMatch(1, match, "2026-12-01T20:00:00+00:00", None, 1, "t" * 22)
    stored.sheet()
    entry = ((1, "Ana", "Ben"), stored)
    assert 0.8 <= entry_size(entry) / approximate_size(entry) <= 1.6
