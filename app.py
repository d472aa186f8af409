"""Gin Ledger: the application factory."""
from __future__ import annotations

import os
import secrets

import click
from flask import Flask, flash, redirect, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import InternalServerError

import cli
import db
import netinfo

csrf = CSRFProtect()


def secret_key(instance_path: str) -> str:
    """Made once and kept, so restarts and several workers agree on sessions."""
    path = os.path.join(instance_path, "secret_key")
    try:
        with open(path, encoding="ascii") as stream:
            return stream.read().strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as stream:
            stream.write(key)
        return key


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "gin-ledger.sqlite"),
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,  # a long evening at the table must not expire the forms
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=30 * 24 * 3600,
    )
    app.config.from_prefixed_env()
    if test_config:
        app.config.update(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)

    db.init_app(app)
    csrf.init_app(app)
    cli.register(app)
    register_views(app)
    register_errors(app)
    announce_addresses()
    return app


def announce_addresses() -> None:
    """Under `flask run`, say which addresses a phone on the same Wi-Fi can open."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.info_name != "run" or os.environ.get("WERKZEUG_RUN_MAIN") == "true":
        return
    host, port = ctx.params.get("host"), ctx.params.get("port") or 5000
    if host in ("127.0.0.1", "localhost"):
        click.echo(" * Only this machine can open it; add --host 0.0.0.0 so phones can join.")
        return
    for url in netinfo.urls(port):
        click.echo(f" * Open on a phone on the same Wi-Fi: {url}")


def register_views(app: Flask) -> None:
    from views import access, cards, exports, hands, live, matches, players, pwa, readonly

    app.before_request(access.require_passphrase)
    app.register_blueprint(access.bp)
    app.register_blueprint(matches.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(exports.bp)
    app.register_blueprint(readonly.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(cards.bp)
    app.after_request(security_headers)
    from views.qr import qr_svg, table_base_url, table_url

    app.jinja_env.globals.update(qr=qr_svg, table_url=table_url, table_base_url=table_base_url,
                                 icon_data_uri=pwa.icon_data_uri(app.static_folder))


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; "
       "object-src 'none'; frame-ancestors 'none'")


def security_headers(response):
    """No inline script anywhere; same-origin referrers keep Flask-WTF's HTTPS check working."""
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def register_errors(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_refused(error):
        """Back to the form with a message, not a bare 400."""
        flash("The form had expired or came from elsewhere; nothing was saved. Please try again.", "error")
        target = request.referrer if request.referrer and request.referrer.startswith(request.host_url) else "/"
        return redirect(target, 303)

    @app.errorhandler(429)
    @app.errorhandler(403)
    @app.errorhandler(404)
    @app.errorhandler(405)
    @app.errorhandler(413)
    @app.errorhandler(400)
    def http_error(error):
        return render_template("error.html", error=error), error.code

    @app.errorhandler(500)
    def server_error(error):
        """A last resort that still speaks to the player; nothing half-written is kept."""
        return render_template("error.html", error=InternalServerError(
            "Something went wrong on our side; nothing was saved. Please try again.")), 500
