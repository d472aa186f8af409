"""Who may use the app: anyone on a home network, or only those who know the passphrase."""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import replace

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext
from werkzeug.security import check_password_hash, generate_password_hash

from .db import get_db
from .forms import LoginForm, TablePassphraseForm
from models import storage, throttle

from .common import current_table, home_url

bp = Blueprint("access", __name__)
table_bp = Blueprint("table_access", __name__)  # a hosted table's own login and passphrase, under its prefix
TABLE_LOGIN = "table_access.login"

OPEN_ENDPOINTS = {"access.login", "static", "language.switch"}


def passphrase() -> str | None:
    return current_app.config.get("PASSPHRASE") or None


def require_passphrase():
    """Runs before every request: with a passphrase set, only the login and static files are open."""
    if not passphrase() or request.endpoint in OPEN_ENDPOINTS or session.get("passed"):
        return None
    return redirect(url_for("access.login", next=request.full_path if request.method == "GET" else None))


def table_tag(table: storage.Table) -> str:
    """What a session keeps for a table it unlocked: a new passphrase makes a new tag, and asks again."""
    return hashlib.sha256(table.passphrase_hash.encode()).hexdigest()[:16]


def require_table_passphrase():
    """Runs before every request after the table is known: a table with its own passphrase
    opens only to a browser that gave it (the server's passphrase, if any, was asked first)."""
    table = g.get("table")
    if table is None or not table.passphrase_hash or request.endpoint in OPEN_ENDPOINTS | {TABLE_LOGIN}:
        return None
    if session.get("unlocked", {}).get(table.key) == table_tag(table):
        return None
    return redirect(url_for(TABLE_LOGIN, next=request.full_path if request.method == "GET" else None))


def unlock_table(table: storage.Table) -> None:
    unlocked = {key: tag for key, tag in session.get("unlocked", {}).items() if key != table.key}
    session["unlocked"] = dict(list(unlocked.items())[-19:] + [(table.key, table_tag(table))])
    session.permanent = True


def safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return home_url()


@bp.route("/login", methods=["GET", "POST"])
def login():
    if not passphrase():
        return redirect(home_url())
    form = LoginForm()
    address = request.remote_addr or "unknown"
    if form.validate_on_submit():
        db = get_db()
        if throttle.blocked(db, address):
            form.passphrase.errors.append(gettext("Too many wrong tries; wait a quarter of an hour."))
            return render_template("login.html", form=form), 429
        if hmac.compare_digest(form.passphrase.data.encode(), passphrase().encode()):
            throttle.forget(db, address)
            language = session.get("lang")
            session.clear()
            if language:  # the language chosen on the login page stays
                session["lang"] = language
            session["passed"] = True
            session.permanent = True  # PERMANENT_SESSION_LIFETIME: 30 days
            flash(gettext("Welcome to the table."))
            return redirect(safe_next(request.args.get("next")))
        throttle.record_failure(db, address)
        form.passphrase.errors.append(gettext("That is not the passphrase."))
        return render_template("login.html", form=form), 403
    return render_template("login.html", form=form), 400 if request.method == "POST" else 200


@bp.post("/logout")
def logout():
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
        return redirect(url_for("matches.home"))
    form = LoginForm()
    if not form.validate_on_submit():
        return render_template("login.html", form=form), 400 if request.method == "POST" else 200
    db, address = get_db(), request.remote_addr or "unknown"
    if throttle.blocked(db, address):
        form.passphrase.errors.append(gettext("Too many wrong tries; wait a quarter of an hour."))
        return render_template("login.html", form=form), 429
    if not check_password_hash(table.passphrase_hash, form.passphrase.data):
        throttle.record_failure(db, address)
        form.passphrase.errors.append(gettext("That is not the passphrase."))
        return render_template("login.html", form=form), 403
    throttle.forget(db, address)
    unlock_table(table)
    flash(gettext("Welcome to the table."))
    return redirect(safe_next(request.args.get("next")))


@table_bp.app_template_global()
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
    storage.set_table_passphrase(get_db(), digest, table=table.id)
    unlock_table(replace(table, passphrase_hash=digest))
    flash(gettext("This table now asks every other browser for its passphrase."))
    return redirect(url_for("matches.home"), 303)
