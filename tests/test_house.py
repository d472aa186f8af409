"""The house stays easy to change: rooms of at most 500 lines, no hand-kept cache keys in templates,
every write of what a match shows through the unit of work, and a stored match that no longer folds
still shown, with the way to repair it."""
import ast
import re
import sqlite3
from html import unescape
from pathlib import Path

from test_pages import WRITES, knock
from webutil import case, hidden, import_match

from models.files.matchfile import match_from_document
from models.errors import MatchError
from models.storage.connection import connect
from models.storage.ledger_file import open_ledger
from models.storage.hand_writes import insert_hand_before
from models.storage.matches import create_match, get_match
from webutil import version_now

ROOT = Path(__file__).resolve().parents[1]
HOME = 1


def cache_calls() -> re.Pattern:
    """A call of any function of the page cache and its blanks (views/site/pages.py, views/site/blanks.py)."""
    names = set()
    for module in ("pages", "blanks"):
        tree = ast.parse((ROOT / "views" / "site" / f"{module}.py").read_text(encoding="utf-8"))
        names |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {"kept_page", "kept_part", "blank", "note", "per_request"} <= names
    names.discard("per_request")  # the one a template calls: its blank for what is each request's own
    return re.compile(r"\b(?:%s)\(" % "|".join(sorted(names)))


def test_no_template_keeps_a_cache_key_by_hand(app):
    """What is kept, and under which key, is the views' business: no template calls the page cache (but
    per_request, which draws a part each request fills), and no template global hands it another."""
    calls = cache_calls()
    assert calls.search("{{ kept_part('race', stored, draw) }}")
    found = [str(p.relative_to(ROOT)) for p in ROOT.glob("templates/**/*.html") if calls.search(p.read_text(encoding="utf-8"))]
    assert found == []
    handed = {name for name, value in app.jinja_env.globals.items()
              if getattr(value, "__module__", "") in ("views.site.pages", "views.site.blanks")
              and name != "per_request"}
    assert handed == set()


MATCH_TABLES = re.compile(r"^\s*(?:INSERT INTO|UPDATE|DELETE FROM)\s+(match|hand|hand_event|player|preset)\b", re.I)


def transactions(statements: list[str]) -> list[list[str]]:
    out, current = [], None
    for statement in statements:
        word = statement.strip().split()[0].upper()
        if word == "BEGIN":
            current = [statement]
        elif word in ("COMMIT", "ROLLBACK"):
            if current is not None:
                out.append(current + [statement])
            current = None
        elif current is not None:
            current.append(statement)
        else:
            out.append([statement])  # a statement outside any transaction
    if current is not None:
        out.append(current)  # a transaction never ended
    return out


def test_every_write_of_a_match_bumps_its_version_in_the_same_transaction(tmp_path):
    """Each write path, traced: a transaction that writes a match's tables is BEGIN IMMEDIATE and
    bumps a version before its COMMIT (the unit of work, models/storage/work.py)."""
    conn = open_ledger(str(tmp_path / "ledger.sqlite"))
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    for what, write in WRITES.items():
        match_id = create_match(conn, match_from_document(case("seed001-ana-ben")), table=HOME)
        before = version_now(conn, match_id)
        seen.clear()
        write(conn, match_id)
        assert version_now(conn, match_id) > before, what
        written = [statements for statements in transactions(seen) if not statements[-1].upper().startswith("ROLLBACK")
                   and any(MATCH_TABLES.match(s) and "version = version + 1" not in s for s in statements)]
        # The trace saw the write's own statements: without them the checks below would pass on nothing.
        assert written, (what, seen)
        for statements in written:
            assert statements[0].upper().startswith("BEGIN IMMEDIATE"), (what, statements[0])
            assert statements[-1].upper().startswith("COMMIT"), (what, statements[-1])
            assert any("SET version = version + 1" in s for s in statements), (what, statements)


def broken_match(client) -> int:
    """A match whose file holds a hand after its end (as another program or an older engine might leave it)."""
    match_id = import_match(client, case("full-hollywood-match"))
    conn = connect(client.application.config["DATABASE"])  # autocommit: each statement is kept
    last = conn.execute("SELECT MAX(position) AS last FROM hand WHERE match_id = ?", (match_id,)).fetchone()["last"]
    conn.execute("INSERT INTO hand (match_id, position, kind, winner, points, created)"
                 " VALUES (?, ?, 'points', 0, 5, '2026-01-01T00:00:00+00:00')", (match_id, last + 1024))
    conn.execute("UPDATE match SET version = version + 1 WHERE id = ?", (match_id,))
    conn.close()
    return match_id


def test_a_match_that_no_longer_folds_is_shown_with_its_refusal_and_repaired(client):
    match_id = broken_match(client)
    hands = len(case("full-hollywood-match")["hands"])
    page = client.get(f"/matches/{match_id}")
    text = unescape(page.get_data(as_text=True))
    assert page.status_code == 200 and "cannot be scored as it is stored" in text
    assert f"hand {hands + 1}" in text and f"Delete hand {hands + 1}" in text
    assert "cannot be scored" in client.get("/").get_data(as_text=True)
    exported = client.get(f"/matches/{match_id}.json")
    assert exported.status_code == 200 and len(exported.get_json()["hands"]) == hands + 1
    for path in (f"/matches/{match_id}.csv", f"/matches/{match_id}/live", f"/matches/{match_id}/sheet",
                 "/export.zip", f"/matches/{match_id}/history", f"/matches/{match_id}/hands/{hands + 1}"):
        assert client.get(path).status_code < 500, path
    # A new hand is refused while it does not fold; the repair (delete the hand it names) is taken.
    refused = client.post(f"/matches/{match_id}/hands", data={"csrf_token": hidden(text, "csrf_token"),
                                                               "winner": "Ana", "points": "5"})
    assert refused.status_code < 500
    confirm = client.get(f"/matches/{match_id}/hands/{hands + 1}/delete").get_data(as_text=True)
    done = client.post(f"/matches/{match_id}/hands/{hands + 1}/delete",
                       data={"csrf_token": hidden(confirm, "csrf_token"), "version": hidden(confirm, "version")})
    assert done.status_code == 302
    assert "cannot be scored" not in client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert client.get(f"/matches/{match_id}.json").get_json()["result"]["finished"] is True


def test_a_write_never_leaves_a_match_that_folded_one_that_does_not(tmp_path):
    conn = open_ledger(str(tmp_path / "ledger.sqlite"))
    match_id = create_match(conn, match_from_document(case("full-hollywood-match")), table=HOME)
    version = version_now(conn, match_id)
    last = len(get_match(conn, match_id, table=HOME).match.hands)
    try:
        insert_hand_before(conn, match_id, 1, knock("Ana", 0, 90), None, version, table=HOME)
        insert_hand_before(conn, match_id, 1, knock("Ana", 0, 90), None, version + 1, table=HOME)
    except MatchError:
        pass
    stored = get_match(conn, match_id, table=HOME)
    assert stored.refusal is None and len(stored.match.hands) >= last
