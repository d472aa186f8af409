"""Who may use the app: anyone on a home network, or only those who know the passphrase."""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import replace

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext
from werkzeug.security import check_password_hash, generate_password_hash

from views.site.db import get_db
from views.tables.forms import LoginForm, TablePassphraseForm
from views.site.targets import safe_path
from models.storage import logins, throttle

from .scope import SPECTATOR_ENDPOINTS, current_table, home_url
from models.storage.tables import Table, set_table_passphrase as keep_table_passphrase

bp = Blueprint("access", __name__)
table_bp = Blueprint("table_access", __name__)  # a hosted table's own login and passphrase, under its prefix
TABLE_LOGIN = "table_access.login"

OPEN_ENDPOINTS = {"access.login", "static", "language.switch"} | SPECTATOR_ENDPOINTS

SERVER = "server"  # the scope of FLASK_PASSPHRASE; a table's own passphrase will be another scope
SESSION_KEY = "login"


def passphrase() -> str | None:
    return current_app.config.get("PASSPHRASE") or None


# Where each scope's passphrase is read, by the part before ":" ("table:7" would ask "table" for "7").
PASSPHRASE_SOURCES: dict[str, Callable[[str], str | None]] = {SERVER: lambda _key: passphrase()}


def scope_passphrase(scope: str) -> str | None:
    kind, _, key = scope.partition(":")
    source = PASSPHRASE_SOURCES.get(kind)
    return source(key) if source else None


def passphrase_digest(scope: str) -> str | None:
    """Keyed with the secret key, so the stored digest says nothing about the passphrase without it;
    a changed passphrase gives another digest and so shuts out the logins made with the old one."""
    phrase = scope_passphrase(scope)
    if phrase is None:
        return None
    key = current_app.config["SECRET_KEY"]
    key = key if isinstance(key, bytes) else str(key).encode()
    return hmac.new(key, f"{scope}\0{phrase}".encode(), hashlib.sha256).hexdigest()


def lifetime() -> float:
    value = current_app.config["PERMANENT_SESSION_LIFETIME"]
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)


def current_login() -> logins.Login | None:
    """This request's login, looked up once: the row must exist, be young enough and match today's passphrase."""
    if "login" not in g:
        g.login = None
        login_id = session.get(SESSION_KEY)
        if isinstance(login_id, str):
            found = logins.find(get_db(), login_id, lifetime())
            if found is not None and current_passphrase_login(found):
                g.login = found
    return g.login


def current_passphrase_login(found: logins.Login) -> bool:
    """Made with the scope's passphrase of today, and in its generation (not one changed and changed back)."""
    digest = passphrase_digest(found.scope)
    return (digest is not None and hmac.compare_digest(found.digest, digest)
            and found.generation == logins.generation(get_db(), found.scope, digest))


def note_passphrase(app) -> None:
    """At start: a server passphrase other than the last one seen starts its generation now, even if no
    one logs in before it is changed back."""
    with app.app_context():
        digest = passphrase_digest(SERVER)
        if digest is not None:
            logins.generation(get_db(), SERVER, digest)


def signed_in(scope: str = SERVER) -> bool:
    found = current_login()
    return found is not None and found.scope == scope


def logout_offered() -> bool:
    """The header's logout button: only where there is a passphrase and this browser came in with it."""
    table = g.get("table")
    if table is not None and table.passphrase_hash and table_unlocked(table):
        return True
    return passphrase() is not None and signed_in()


def require_passphrase():
    """Runs before every request: with a passphrase set, only the login, static files and spectator links are open."""
    if not passphrase() or request.endpoint in OPEN_ENDPOINTS or signed_in():
        return None
    return redirect(url_for("access.login", next=request.full_path if request.method == "GET" else None))


def start_session(scope: str) -> None:
    """A fresh session naming a new login row; the language chosen on the login page stays."""
    language = session.get("lang")
    session.clear()
    if language:
        session["lang"] = language
    session[SESSION_KEY] = logins.create(get_db(), scope, passphrase_digest(scope), lifetime())
    session.permanent = True  # the cookie and the row both last PERMANENT_SESSION_LIFETIME: 30 days


def table_scope(table: Table) -> str:
    return f"table:{table.key}"


def table_passphrase(key: str) -> str | None:
    """A table's passphrase as kept (its salted hash): a new passphrase is a new hash, so the
    logins made with the old one no longer match."""
    table = g.get("table")
    return table.passphrase_hash if table is not None and table.key == key else None


PASSPHRASE_SOURCES["table"] = table_passphrase
UNLOCKED = "unlocked"  # {table key: login id} of the tables this browser gave the passphrase of
MOST_UNLOCKED = 20


def table_unlocked(table: Table) -> bool:
    """A login row of this table's scope, made with its passphrase of today; the row, not the cookie, decides."""
    login_id = session.get(UNLOCKED, {}).get(table.key)
    if not isinstance(login_id, str):
        return False
    found = logins.find(get_db(), login_id, lifetime())
    return found is not None and found.scope == table_scope(table) and current_passphrase_login(found)


def require_table_passphrase():
    """Runs before every request after the table is known: a table with its own passphrase
    opens only to a browser that gave it (the server's passphrase, if any, was asked first)."""
    table = g.get("table")
    if table is None or not table.passphrase_hash or request.endpoint in OPEN_ENDPOINTS | {TABLE_LOGIN}:
        return None
    if table_unlocked(table):
        return None
    return redirect(url_for(TABLE_LOGIN, next=request.full_path if request.method == "GET" else None))


def unlock_table(table: Table) -> None:
    """A login row for the table, as for the server's passphrase, so logging out ends it for every copy."""
    g.table = table  # the passphrase just set or given is the one the digest is made of
    login_id = logins.create(get_db(), table_scope(table), passphrase_digest(table_scope(table)), lifetime())
    unlocked = {key: value for key, value in session.get(UNLOCKED, {}).items() if key != table.key}
    session[UNLOCKED] = dict(list(unlocked.items())[-(MOST_UNLOCKED - 1):] + [(table.key, login_id)])
    session.permanent = True


@bp.route("/login", methods=["GET", "POST"])
def login():
    if not passphrase():
        return redirect(home_url())
    form = LoginForm()
    if not form.validate_on_submit():
        return render_template("login.html", form=form), 400 if request.method == "POST" else 200
    return answer_attempt(form, SERVER, lambda: hmac.compare_digest(form.passphrase.data.encode(),
                                                                    passphrase().encode()),
                          lambda: start_session(SERVER))


def answer_attempt(form: LoginForm, scope: str, check: Callable[[], bool], let_in: Callable[[], None]):
    """One rate limit per client address and per scope (the server's passphrase, each table's): the try
    is counted before the passphrase is compared (a blocked try hashes nothing), and a right one
    clears only its own scope's failures."""
    reserved = throttle.reserve(get_db(), request.remote_addr or "unknown", scope)
    if reserved.row is None:
        form.passphrase.errors.append(gettext("Too many wrong tries; wait a quarter of an hour."))
        return render_template("login.html", form=form), 429
    outcome = throttle.settle(get_db(), reserved, check())
    if outcome is throttle.PASSED:
        let_in()
        flash(gettext("Welcome to the table."))
        return redirect(safe_path(request.args.get("next"), home_url()))
    form.passphrase.errors.append(gettext("That is not the passphrase."))
    return render_template("login.html", form=form), 403


@bp.post("/logout")
def logout():
    """Deletes the login rows (the server's and every table's), so every copy of this cookie is refused
    from now on, not only this browser's."""
    for login_id in [session.get(SESSION_KEY), *session.get(UNLOCKED, {}).values()]:
        if isinstance(login_id, str):
            logins.end(get_db(), login_id)
    language = session.get("lang")
    session.clear()
    if language:  # leaving the table does not change the language
        session["lang"] = language
    return redirect(url_for("access.login") if passphrase() else home_url())


@table_bp.route("/login", methods=["GET", "POST"], endpoint="login")
def login_table():
    """The same page and the same rate limit per address as the server's passphrase."""
    table = current_table()
    if not table.passphrase_hash:
        return redirect(home_url())
    form = LoginForm()
    if not form.validate_on_submit():
        return render_template("login.html", form=form), 400 if request.method == "POST" else 200
    return answer_attempt(form, table_scope(table), lambda: check_password_hash(table.passphrase_hash,
                                                                                form.passphrase.data),
                          lambda: unlock_table(table))


def table_passphrase_form() -> TablePassphraseForm:
    return TablePassphraseForm(formdata=None)


@table_bp.post("/passphrase")
def set_table_passphrase():
    """Salted and hashed (werkzeug's scrypt); this browser stays in, every other one is asked."""
    table = current_table()
    form = TablePassphraseForm()
    if not form.validate_on_submit():
        reasons = form.errors.get("passphrase") or [gettext("The form had expired; nothing was changed.")]
        flash(gettext("No passphrase set: %(reason)s", reason=" ".join(map(str, reasons))), "error")
        return redirect(url_for("matches.home", _anchor="table-passphrase"), 303)
    digest = generate_password_hash(form.passphrase.data)
    keep_table_passphrase(get_db(), digest, table=table.id)
    unlock_table(replace(table, passphrase_hash=digest))
    flash(gettext("This table now asks every other browser for its passphrase."))
    return redirect(url_for("matches.home"), 303)
