"""Every error page, in one place: each kind of error maps to one status and one page.

As microblog's errors blueprint does, the handlers are the app's (`app_errorhandler`),
so no view turns an error into a 500 by forgetting to catch it:

- Werkzeug's HTTP errors (400, 403, 404, 405, 413, 429) say their name and
  description in the page's language;
- a refused or expired CSRF token goes back to the form with a message;
- the engine's and storage's errors (models/errors.py) by their base:
  `NotFound` is a 404, `StaleMatch` a 409 (a browser's form is sent back to the
  match as it is now), any other `Refusal` a 400 that says why, and any other
  `LedgerError` the 500 page; `DatabaseGone` is a 503 and writes nothing;
- a fault of the database under a request (a `DatabaseFault`, or the engine's own
  error that says one: models/connection.fault_of) is a 503 whose sentence is true
  of what that request did, never a 500.

A view that catches an error itself still may: it answers first. No other file under
views/ registers an error handler (tests/test_error_handler.py checks it).
"""
from __future__ import annotations

import sqlite3

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, Conflict, HTTPException, InternalServerError, ServiceUnavailable
from werkzeug.exceptions import NotFound as NotFoundPage

from models.storage import postgres
from models.storage.connection import fault_of
from models.errors import (N_, CommitUnknown, DatabaseBusy, DatabaseFault, DatabaseGone, DatabaseLost,
                           DatabaseUnreachable, DatabaseUnreadable, DiskFull, LedgerError, NoSuchMatch, NoSuchTable,
                           NotFound, Refusal, StaleMatch)

from . import db
from .i18n import translated

bp = Blueprint("errors", __name__)

# Werkzeug's own names and descriptions, so the error page can say them in the page's language.
ERROR_NAMES = {
    400: N_("Bad Request"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    413: N_("Request Entity Too Large"),
    429: N_("Too Many Requests"),
    500: N_("Internal Server Error"),
    503: N_("Service Unavailable"),
}
ERROR_DESCRIPTIONS = {
    400: N_("The browser (or proxy) sent a request that this server could not understand."),
    403: N_("You don't have the permission to access the requested resource. It is either read-protected or not "
            "readable by the server."),
    404: N_("The requested URL was not found on the server. If you entered the URL manually please check your "
            "spelling and try again."),
    405: N_("The method is not allowed for the requested URL."),
    413: N_("The data value transmitted exceeds the capacity limit."),
    429: N_("This user has exceeded an allotted request count. Try again later."),
}

# What a page that named a missing thing says (the catalogues hold them: views/match/match_page.py, views/tables/tables.py).
NOT_FOUND_WORDS = (
    (NoSuchMatch, N_("There is no such match.")),
    (NoSuchTable, N_("There is no such table here.")),
)
STALE = N_("This match changed on another phone; here it is now.")


def error_words(error: HTTPException) -> tuple[str, str]:
    """The error's name and description; Werkzeug's English defaults are translated, ours already are."""
    name = gettext(ERROR_NAMES[error.code]) if error.code in ERROR_NAMES else error.name
    description = error.description
    if description == type(error).description and error.code in ERROR_DESCRIPTIONS:
        description = gettext(ERROR_DESCRIPTIONS[error.code])
    return name, description


def error_page(error: HTTPException):
    """error.html with the error's name and description in the page's language, at its status."""
    name, description = error_words(error)
    return render_template("error.html", error=error, name=name, description=description), error.code


def from_fetch() -> bool:
    """The page script sent it (static/app.js): it wants the answer itself, not a redirect."""
    return request.headers.get("X-Requested-With") == "fetch"


@bp.app_errorhandler(CSRFError)
def csrf_refused(error):
    """Back to the form with a message, not a bare 400."""
    flash(gettext("The form had expired or came from elsewhere; nothing was saved. Please try again."), "error")
    target = request.referrer if request.referrer and request.referrer.startswith(request.host_url) else "/"
    return redirect(target, 303)


@bp.app_errorhandler(429)
@bp.app_errorhandler(403)
@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
@bp.app_errorhandler(400)
def http_error(error):
    return error_page(error)


@bp.app_errorhandler(NotFound)
def not_found(error: NotFound):
    """A match, table, hand or player that is not kept here (deleted on another phone, or never there): 404."""
    words = next((text for kind, text in NOT_FOUND_WORDS if isinstance(error, kind)), ERROR_DESCRIPTIONS[404])
    return error_page(NotFoundPage(gettext(words)))


@bp.app_errorhandler(StaleMatch)
def stale_match(error: StaleMatch):
    """The match changed after the page was drawn: nothing was saved. A browser's form goes back to the
    match as it is now (Post/Redirect/Get); the page script, and any other request, is told 409."""
    if request.method == "POST" and not from_fetch():
        flash(gettext(STALE), "warning")
        return redirect(url_for("matches.show", match_id=error.match_id), 303)
    return error_page(Conflict(gettext(STALE)))


@bp.app_errorhandler(Refusal)
def refused(error: Refusal):
    """Input the engine will not take, which no view answered with its form: 400, saying why."""
    return error_page(BadRequest(translated(error)))


@bp.app_errorhandler(DatabaseGone)
def database_gone(error: DatabaseGone):
    """503 with words, logged for whoever runs the server; nothing was written."""
    current_app.logger.error("Gin Ledger: %s", error)
    if isinstance(error, DatabaseUnreachable):  # no session could be had: nothing of the request ran
        return unavailable(READ_WORDS[DatabaseLost] if reading() else NOT_SAVED_WORDS[DatabaseLost])
    return error_page(ServiceUnavailable(gettext(
        "The database file cannot be opened: it was deleted or moved while Gin Ledger was running. Nothing was "
        "saved. Whoever runs the server must put it back, then restart Gin Ledger.")))


# What a request that met a fault of the database is told: true of what that request did.
READ_WORDS = {
    DatabaseLost: N_("The sheet cannot be read just now: the database server does not answer. Try again in a "
                     "moment. If it goes on, whoever runs the server must look at PostgreSQL."),
    DatabaseBusy: N_("The sheet cannot be read just now: another program holds the database. Try again in a "
                     "moment."),
    DatabaseUnreadable: N_("The sheet cannot be read: the database file cannot be read. Whoever runs the server "
                           "must look at it (the server's log says why)."),
}
NOT_SAVED_WORDS = {
    DatabaseLost: N_("The database server does not answer just now. Nothing was saved: try again in a moment. If "
                     "it goes on, whoever runs the server must look at PostgreSQL."),
    DatabaseBusy: N_("Nothing was saved: another program holds the database just now. Try again in a moment."),
    DiskFull: N_("Nothing was saved: the disk of the database is full. Whoever runs the server must make room; "
                 "then try again."),
    DatabaseUnreadable: N_("Nothing was saved: the database file cannot be written. Whoever runs the server must "
                           "look at it (the server's log says why)."),
}
SAVED_BUT = N_("Your change was saved, but the page after it cannot be drawn just now: the database does not "
               "answer. Reload the page in a moment.")
KEPT = N_("The database stopped answering just as your change was saved; it came back, and the change was kept.")
NOT_KNOWN = N_("The database stopped answering while your change was being saved, and is not back yet: whether "
               "it was kept is not known. Reload the match in a moment before entering it again: it shows whether "
               "it is there.")


def reading() -> bool:
    return request.method in ("GET", "HEAD", "OPTIONS")


def unavailable(words: str):
    return error_page(ServiceUnavailable(gettext(words)))


def words_for(fault: DatabaseFault, table: dict) -> str:
    for kind, text in table.items():
        if isinstance(fault, kind):
            return text
    return table[DatabaseUnreadable]


@bp.app_errorhandler(sqlite3.Error)
@bp.app_errorhandler(postgres.psycopg.Error)
@bp.app_errorhandler(DatabaseFault)
def database_fault(error: Exception):
    """The database failed under a request (a PostgreSQL restart, a locked file, a full disk): a 503 whose
    sentence is true of this request, never a 500. The session the fault may have cut is given back
    first (the pool drops it). A read is read once more on a fresh session before anything is said; a
    write whose COMMIT was cut off finds out from its one-time key whether it was kept."""
    fault = fault_of(error)
    if fault is None:  # not the database's fault but ours (a constraint, a statement): the 500 page
        current_app.logger.error("Gin Ledger: %s", type(error).__name__, exc_info=error)
        return server_error(error)
    current_app.logger.warning("Gin Ledger: %s %s: %s", request.method, request.path, fault)
    saved = db.give_back_after_fault()
    if isinstance(fault, CommitUnknown):
        return commit_unknown(fault)
    if saved:
        return unavailable(SAVED_BUT)
    if reading():
        if not g.get("read_again"):
            g.read_again = True
            return again()
        return unavailable(words_for(fault, READ_WORDS))
    return unavailable(words_for(fault, NOT_SAVED_WORDS))


def again():
    """The request's hooks and view once more, on a fresh session; what it meets is answered as at first."""
    try:
        answer = current_app.preprocess_request()
        return answer if answer is not None else current_app.dispatch_request()
    except Exception as error:  # noqa: BLE001 - answered by its own handler, this one among them
        return current_app.handle_user_exception(error)


def commit_unknown(fault: CommitUnknown):
    """Wait for the database, then ask it whether the write's one-time key was kept: "kept" sends the
    page to the match as after any save, "not kept" says nothing was saved; a write without a key, or a
    database that does not come back in time, is told so, never guessed."""
    kept = db.submission_kept_when_back(fault.submission) if fault.submission else None
    if kept is None:
        return unavailable(NOT_KNOWN)
    if not kept:
        return unavailable(NOT_SAVED_WORDS[DatabaseLost])
    flash(gettext(KEPT), "saved")
    match_id = (request.view_args or {}).get("match_id")
    return redirect(url_for("matches.show", match_id=match_id) if match_id is not None else request.path, 303)


@bp.app_errorhandler(LedgerError)
def ledger_error(error: LedgerError):
    """Any other of ours (a saved hand's twin no view asked about, a schema too new): a bug, logged; the 500 page."""
    current_app.logger.error("Gin Ledger: %s reached no view's answer", type(error).__name__, exc_info=error)
    return server_error(error)


@bp.app_errorhandler(500)
def server_error(error):
    """A last resort that still speaks to the player; nothing half-written is kept."""
    return error_page(InternalServerError(gettext(
        "Something went wrong on our side; nothing was saved. Please try again.")))
