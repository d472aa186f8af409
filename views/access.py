"""Who may use the app: anyone on a home network, or only those who know the passphrase."""
from __future__ import annotations

import hmac

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext

from .db import get_db
from .forms import LoginForm
from .targets import safe_path
from models import throttle

bp = Blueprint("access", __name__)

OPEN_ENDPOINTS = {"access.login", "static", "language.switch"}


def passphrase() -> str | None:
    return current_app.config.get("PASSPHRASE") or None


def require_passphrase():
    """Runs before every request: with a passphrase set, only the login and static files are open."""
    if not passphrase() or request.endpoint in OPEN_ENDPOINTS or session.get("passed"):
        return None
    return redirect(url_for("access.login", next=request.full_path if request.method == "GET" else None))


@bp.route("/login", methods=["GET", "POST"])
def login():
    if not passphrase():
        return redirect(url_for("matches.home"))
    form = LoginForm()
    address = request.remote_addr or "unknown"
    if form.validate_on_submit():
        correct = hmac.compare_digest(form.passphrase.data.encode(), passphrase().encode())
        outcome = throttle.attempt(get_db(), address, correct)
        if outcome is throttle.BLOCKED:
            form.passphrase.errors.append(gettext("Too many wrong tries; wait a quarter of an hour."))
            return render_template("login.html", form=form), 429
        if outcome is throttle.PASSED:
            language = session.get("lang")
            session.clear()
            if language:  # the language chosen on the login page stays
                session["lang"] = language
            session["passed"] = True
            session.permanent = True  # PERMANENT_SESSION_LIFETIME: 30 days
            flash(gettext("Welcome to the table."))
            return redirect(safe_path(request.args.get("next"), url_for("matches.home")))
        form.passphrase.errors.append(gettext("That is not the passphrase."))
        return render_template("login.html", form=form), 403
    return render_template("login.html", form=form), 400 if request.method == "POST" else 200


@bp.post("/logout")
def logout():
    language = session.get("lang")
    session.clear()
    if language:  # leaving the table does not change the language
        session["lang"] = language
    return redirect(url_for("access.login") if passphrase() else url_for("matches.home"))
