"""One handler for every error (views/site/errors.py): each of ours reaches a page with words and its own status,
never a 500 because a view forgot to catch it."""
import re
import sqlite3
from html import unescape
from pathlib import Path

import psycopg
import pytest

from views.site import csrf
from models.errors import (N_, DatabaseGone, HandAlreadySaved, LedgerError, MatchError, MatchNotOver,
                           MigrationsBroken, NoSuchMatch, NoSuchTable, NotFound, PlayerProblem, Refusal, SchemaTooNew,
                           StaleMatch)
from webutil import case, hidden, import_match, new_match

ROOT = Path(__file__).resolve().parent.parent
SORRY = "Something went wrong on our side; nothing was saved. Please try again."
STALE = "This match changed on another phone; here it is now."


@pytest.fixture
def raising(app):
    """A throwaway route that raises whatever the test puts in `raising.error`, for GET and POST."""
    class Raiser:
        error: BaseException = LedgerError("unset")

    def boom():
        raise Raiser.error

    app.add_url_rule("/boom", "boom", csrf.exempt(boom), methods=["GET", "POST"])
    return Raiser


def words(response) -> str:
    return unescape(response.get_data(as_text=True))


def heading(response) -> str:
    return re.search(r"<h1>(.*?)</h1>", words(response), re.S).group(1).strip()


@pytest.mark.parametrize("error, status, name, description", [
    (NoSuchMatch(3), 404, "Not Found", "There is no such match."),
    (NoSuchTable("abc"), 404, "Not Found", "There is no such table here."),
    (NotFound("a link"), 404, "Not Found", "The requested URL was not found on the server."),
    (Refusal(N_("This match is still being played.")), 400, "Bad Request", "This match is still being played."),
    (MatchNotOver(N_("This match is still being played.")), 400, "Bad Request", "This match is still being played."),
    (PlayerProblem("Ana is kept; nothing to merge"), 400, "Bad Request", "Ana is kept; nothing to merge"),
    (MatchError("knocker_deadwood", "{kd} is over the knock limit {limit}", 3, kd=12, limit=10), 400,
     "Bad Request", "hand 3, knocker_deadwood: 12 is over the knock limit 10"),
    (StaleMatch(4), 409, "Conflict", STALE),
    (DatabaseGone("/gone.sqlite", "no such file"), 503, "Service Unavailable", "The database file cannot be opened"),
    (HandAlreadySaved(1, 2, None), 500, "Internal Server Error", SORRY),
    (SchemaTooNew("/new.sqlite", 99, 9), 500, "Internal Server Error", SORRY),
    (MigrationsBroken("0003 twice"), 500, "Internal Server Error", SORRY),
    (LedgerError("anything else of ours"), 500, "Internal Server Error", SORRY),
], ids=lambda value: type(value).__name__ if isinstance(value, BaseException) else None)
def test_each_error_reaches_its_status_and_a_page_in_words(client, raising, error, status, name, description):
    raising.error = error
    answer = client.get("/boom")
    assert answer.status_code == status
    assert heading(answer) == name
    assert description in words(answer)
    assert "Traceback" not in words(answer)


def test_a_stale_browser_form_goes_back_to_the_match_as_it_is_now(client, raising):
    match_id = new_match(client)
    raising.error = StaleMatch(match_id)
    answer = client.post("/boom")
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/matches/{match_id}"
    assert STALE in words(client.get(answer.headers["Location"]))


def test_a_stale_fetch_is_told_409_with_the_page(client, raising):
    raising.error = StaleMatch(5)
    answer = client.post("/boom", headers={"X-Requested-With": "fetch"})
    assert answer.status_code == 409
    assert STALE in words(answer)


def test_the_pages_speak_the_browsers_language(client, raising):
    czech = {"Accept-Language": "cs"}
    raising.error = NoSuchMatch(3)
    answer = client.get("/boom", headers=czech)
    assert (answer.status_code, heading(answer)) == (404, "Nenalezeno")
    assert "Takový zápas tu není." in words(answer)
    raising.error = MatchNotOver(N_("This match is still being played."))
    answer = client.get("/boom", headers=czech)
    assert (answer.status_code, heading(answer)) == (400, "Chybný požadavek")
    assert "Tento zápas se ještě hraje." in words(answer)


def test_werkzeugs_errors_keep_their_pages(client):
    answer = client.get("/no/such/page")
    assert answer.status_code == 404 and heading(answer) == "Not Found"
    assert client.delete("/matches/new").status_code == 405


def test_an_expired_form_goes_back_with_a_message(client):
    client.get("/")
    answer = client.post("/import", data={"text": "{}"}, headers={"Referer": "http://localhost/matches/new"})
    assert answer.status_code == 303 and answer.headers["Location"] == "http://localhost/matches/new"
    assert "The form had expired or came from elsewhere" in words(client.get("/matches/new"))


def test_rematch_after_the_rematch_was_deleted_starts_a_new_one(app, client):
    """The bug of the issue: one phone deletes the rematch, the other taps Rematch on the finished match
    (500); and the finished match went on linking the deleted rematch (404)."""
    finished = import_match(client, case("full-hollywood-match"))
    page = client.get(f"/matches/{finished}").get_data(as_text=True)
    token = hidden(page, "csrf_token")
    made = client.post(f"/matches/{finished}/rematch", data={"csrf_token": token})
    rematch_id = int(made.headers["Location"].rsplit("/", 1)[1])
    client.post(f"/matches/{rematch_id}/delete", data={"csrf_token": token, "confirm": "yes"})
    assert client.get(f"/matches/{rematch_id}").status_code == 404
    assert f"/matches/{rematch_id}\"" not in client.get(f"/matches/{finished}").get_data(as_text=True)
    again = client.post(f"/matches/{finished}/rematch", data={"csrf_token": token})
    assert again.status_code == 302
    new_id = int(again.headers["Location"].rsplit("/", 1)[1])
    assert new_id != rematch_id and client.get(f"/matches/{new_id}").status_code == 200
    assert f"/matches/{new_id}\"" in client.get(f"/matches/{finished}").get_data(as_text=True)


def test_no_view_but_views_errors_registers_an_error_handler():
    """Every error page is views/site/errors.py's: a view answers an error it expects, or lets it through."""
    registering = re.compile(r"errorhandler|register_error_handler")
    found = [str(path.relative_to(ROOT)) for path in [ROOT / "app.py", *sorted((ROOT / "views").rglob("*.py"))]
             if path != ROOT / "views" / "site" / "errors.py"
             if registering.search(path.read_text(encoding="utf-8"))]
    assert found == []
    assert registering.search((ROOT / "views" / "site" / "errors.py").read_text(encoding="utf-8"))


# ---- a fault of the database: a 503 whose sentence is true of the request --------------------------------

def sqlite_fault(code: int, text: str) -> sqlite3.Error:
    error = (sqlite3.DatabaseError if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
             else sqlite3.OperationalError)(text)
    error.sqlite_errorcode = code
    return error


FAULTS = {
    "postgresql restarted": (psycopg.OperationalError("consuming input failed: server closed the connection"),
                             "does not answer"),
    "sqlite locked": (sqlite_fault(sqlite3.SQLITE_BUSY, "database is locked"), "another program holds"),
    "sqlite disk full": (sqlite_fault(sqlite3.SQLITE_FULL, "database or disk is full"), "disk of the database is full"),
    "sqlite I/O error": (sqlite_fault(sqlite3.SQLITE_IOERR | (3 << 8), "disk I/O error"), "cannot be"),
    "sqlite damaged": (sqlite_fault(sqlite3.SQLITE_CORRUPT, "database disk image is malformed"), "cannot be"),
}


@pytest.mark.parametrize("fault", FAULTS, ids=str)
def test_a_fault_under_a_write_is_a_503_that_says_nothing_was_saved(client, raising, fault):
    raising.error, said = FAULTS[fault]
    answer = client.post("/boom")
    assert answer.status_code == 503 and heading(answer) == "Service Unavailable"
    assert "Nothing was saved" in words(answer) and said in words(answer), words(answer)[-1500:]
    assert "Traceback" not in words(answer)


@pytest.mark.parametrize("fault", [name for name in FAULTS if name != "sqlite disk full"], ids=str)
def test_a_fault_under_a_read_is_read_once_more_then_said_as_a_read(app, client, fault):
    """A read never says "nothing was saved": it saved nothing, and the player may have just saved."""
    error, said = FAULTS[fault]
    calls = []

    def flaky():
        calls.append(1)
        if len(calls) == 1:
            raise error
        return "read the second time"

    def broken():
        raise error

    app.add_url_rule("/flaky", "flaky", flaky)
    app.add_url_rule("/broken", "broken", broken)
    answer = client.get("/flaky")
    assert (answer.status_code, answer.get_data(as_text=True), len(calls)) == (200, "read the second time", 2)
    answer = client.get("/broken")
    assert answer.status_code == 503
    assert "The sheet cannot be read" in words(answer) and "Nothing was saved" not in words(answer)


def test_an_error_of_the_engine_that_is_no_fault_of_the_database_is_the_500_page(client, raising):
    raising.error = sqlite3.IntegrityError("UNIQUE constraint failed: hand.submission")
    answer = client.post("/boom")
    assert answer.status_code == 500 and SORRY in words(answer)


def test_a_commit_cut_off_is_answered_from_its_one_time_key(app, client):
    """The session was cut while its COMMIT was on the way: the database, once back, says whether the
    write's key was kept; "kept" goes to the match as after any save, "not kept" says nothing was saved."""
    from models.errors import CommitUnknown
    from views.site.db import get_db

    cut = {}

    def saving(match_id):
        raise CommitUnknown("server closed the connection unexpectedly", cut["key"])

    app.add_url_rule("/matches/<int:match_id>/cut", "cut", csrf.exempt(saving), methods=["POST"])
    match_id = new_match(client)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    client.post(f"/matches/{match_id}/hands", data={"csrf_token": hidden(page, "csrf_token"),
                                                    "form_id": hidden(page, "form_id"), "winner": "Ana", "points": "9"})
    with app.test_request_context():
        kept_key = get_db().execute("SELECT submission FROM hand").fetchone()["submission"]
    cut["key"] = kept_key
    answer = client.post(f"/matches/{match_id}/cut")
    assert answer.status_code == 303 and answer.headers["Location"] == f"/matches/{match_id}"
    assert "it came back, and the change was kept" in words(client.get(answer.headers["Location"]))
    cut["key"] = "never-sent:0000"
    answer = client.post(f"/matches/{match_id}/cut")
    assert answer.status_code == 503 and "Nothing was saved" in words(answer)
    cut["key"] = None  # a write without a one-time key: not known, and said so
    answer = client.post(f"/matches/{match_id}/cut")
    assert answer.status_code == 503 and "whether it was kept is not known" in words(answer)
    assert "Nothing was saved" not in words(answer)


def test_a_write_kept_before_a_fault_is_never_called_not_saved(app, client):
    from models.storage.work import unit_of_work
    from views.site.db import get_db

    def renamed_then_cut(match_id):
        with unit_of_work(get_db()) as work:
            get_db().execute("UPDATE match SET name = 'Friday' WHERE id = ?", (match_id,))
            work.touched(match_id, refold=False)
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    app.add_url_rule("/renamed/<int:match_id>", "renamed", csrf.exempt(renamed_then_cut), methods=["POST"])
    match_id = new_match(client)
    answer = client.post(f"/renamed/{match_id}")
    assert answer.status_code == 503
    assert "Your change was saved" in words(answer) and "Nothing was saved" not in words(answer)
