"""Gin Ledger: the application factory."""
from __future__ import annotations

import mimetypes
import os
import secrets
import tempfile

import click
from flask import Flask
from flask_babel import gettext
from flask_wtf.csrf import CSRFProtect

import cli
from views.site import db
from views.site import errors
from views.site import jinja
from views.site import i18n
from views.site import netinfo
from views.site import kept, serving
from models.storage.address import SQLITE, read_address
from models.storage.caches import MB, BoundedCache
from models.errors import DatabaseRefused, LedgerError
from models.storage.match_cache import MatchCache

csrf = CSRFProtect()


class StartRefused(SystemExit):
    """What stops the app at its start (a database it cannot use, a newer Gin Ledger's, a damaged file).

    A SystemExit, so whoever started it (flask run, a flask command, waitress-serve --call) prints the
    one English sentence and exits, never a traceback; `reason` is the LedgerError it says."""

    def __init__(self, reason: LedgerError):
        self.reason = reason
        super().__init__(f"Gin Ledger cannot start: {reason}")


def secret_key(instance_path: str) -> str:
    """Made once and kept, so restarts and several workers agree on sessions.

    Several workers may start together on a fresh folder: the key is written
    whole to a file of its own and linked into place (os.link fails if the name
    exists), so a reader finds no key or a whole one, and every loser of the race
    reads the winner's.
    """
    path = os.path.join(instance_path, "secret_key")
    try:
        return read_key(path)
    except FileNotFoundError:
        pass
    fd, draft = tempfile.mkstemp(prefix=".secret_key-", dir=instance_path)  # 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as stream:
            stream.write(secrets.token_hex(32))
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another worker was first: its key is the one
        else:
            sync_folder(instance_path)
    finally:
        os.unlink(draft)
    return read_key(path)


def read_key(path: str) -> str:
    with open(path, encoding="ascii") as stream:
        return stream.read().strip()


def sync_folder(folder: str) -> None:
    """The new name itself survives a power cut."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class GinLedger(Flask):
    jinja_environment = jinja.Environment  # plain-dict template globals (views/site/jinja.py)

    def send_static_file(self, filename: str):
        """Compressed as the client asks (views/site/compression.py): the stylesheet is a quarter of its size."""
        from views.site.compression import send_static

        return send_static(self.static_folder, filename, lambda name: mimetypes.guess_type(name)[0]
                           or "application/octet-stream")


def create_app(test_config: dict | None = None, instance_path: str | None = None) -> Flask:
    """The app; `instance_path` moves the folder of the database and the kept key (tests use a temporary one)."""
    app = GinLedger(__name__, instance_relative_config=True, instance_path=instance_path)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "gin-ledger.sqlite"),
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        # A pasted match file may be as long as an uploaded one (1 MB): the form refuses it by name.
        MAX_FORM_MEMORY_SIZE=2 * 1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,  # a long evening at the table must not expire the forms
        WTF_CSRF_CHECK_DEFAULT=False,  # views/site/csrf.protect checks every unsafe request, its token unmasked
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=30 * 24 * 3600,
        MATCH_CACHE_BYTES=64 * MB,  # folded matches kept for the home and record pages
        QR_CACHE_BYTES=4 * MB,  # drawn QR codes (a few kB each)
        TABLE_STARTS_PER_MINUTE=3,  # new tables one address may start a minute on a hosted server
        PAGE_CACHE_BYTES=64 * MB,  # drawn match pages and live fragments (views/site/pages.py; about 30 KB a match page)
        DATABASE_POOL_SIZE=10,  # PostgreSQL sessions one app process keeps at most (views/site/db.py)
    )
    app.config.from_prefixed_env()
    if test_config:
        app.config.update(test_config)
    # Only what is needed is written: a checkout may be read-only when the database lives elsewhere,
    # and an address (postgresql://...) is never taken for a folder (DatabaseRefused for one it cannot use).
    try:
        address = read_address(app.config["DATABASE"])
    except DatabaseRefused as refused:
        raise StartRefused(refused.given_as("FLASK_DATABASE")) from None
    if address.engine == SQLITE:
        os.makedirs(os.path.dirname(os.path.abspath(address.target)), exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        os.makedirs(app.instance_path, exist_ok=True)
        app.config["SECRET_KEY"] = secret_key(app.instance_path)

    init_caches(app)
    serving.init_app(app)  # first of the request hooks: an untrusted Host is refused before any other runs
    try:
        db.init_app(app)
    except DatabaseRefused as refused:  # a server that does not answer
        raise StartRefused(refused.given_as("FLASK_DATABASE")) from None
    except LedgerError as refused:  # a newer Gin Ledger's file, a damaged one
        raise StartRefused(refused) from None
    from views.live.quiet_polls import QuietPolls

    serving.inside_host_check(app, lambda inner: QuietPolls(inner, app, bool(app.config.get("HOSTED"))))
    i18n.init_app(app)  # first: `?lang=` is read before the passphrase check
    from views.tables import access, tables

    tables.init_app(app)  # the table is found from the address before every before_request hook
    # The passphrase before CSRF: a stranger's POST is sent to the login, not told its form expired.
    app.before_request(access.require_passphrase)
    app.before_request(access.require_table_passphrase)
    access.note_passphrase(app)
    app.before_request(tables.remember_table)
    csrf.init_app(app)
    from views.site import csrf as masked_csrf

    app.before_request(masked_csrf.protect)
    cli.register(app)
    register_views(app)
    app.register_blueprint(errors.bp)  # every error page (views/site/errors.py)
    announce_addresses(app)
    return app


def init_caches(app: Flask) -> None:
    """Every cache belongs to this app, bounded in bytes: two apps in one process share nothing."""
    from views.site import pages

    app.extensions[kept.EXTENSION] = kept.Caches(
        matches=MatchCache(app.config["MATCH_CACHE_BYTES"]),
        qr=BoundedCache(app.config["QR_CACHE_BYTES"]),
        pages=BoundedCache(app.config["PAGE_CACHE_BYTES"], size_of=pages.entry_size),
    )


def announce_addresses(app: Flask) -> None:
    """Under `flask run`, say which addresses a phone on the same Wi-Fi can open (in the shell's language)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.info_name != "run" or os.environ.get("WERKZEUG_RUN_MAIN") == "true":
        return
    host, port = ctx.params.get("host"), ctx.params.get("port") or 5000
    with i18n.speaking(app):
        if host in ("127.0.0.1", "localhost"):
            click.echo(" * " + gettext("Only this machine can open it; add --host 0.0.0.0 so phones can join."))
            return
        for url in netinfo.urls(port):
            click.echo(" * " + gettext("Open on a phone on the same Wi-Fi: %(url)s", url=url))


def register_views(app: Flask) -> None:
    """A table's pages at today's addresses at home; under /t/<key>/ on a hosted server, beside its front page."""
    from views.tables import access, players, tables
    from views.match import cards, deals, hands, matches, preview
    from views.files import exports
    from views.history import history
    from views.live import live, readonly
    from views.site import pwa, template_globals
    from views.club import ladder
    from views.live import stream

    hosted = bool(app.config.get("HOSTED"))
    prefix = tables.PREFIX if hosted else None
    app.register_blueprint(access.bp)
    stream.init_app(app)
    for part in (matches, hands, deals, history, exports, players, live, cards, preview, ladder, stream):
        app.register_blueprint(part.bp, url_prefix=prefix)
    app.register_blueprint(readonly.bp)  # a spectator's link names no table (views/live/readonly.py)
    app.register_blueprint(stream.view_bp)
    if hosted:
        app.register_blueprint(tables.bp)
        app.register_blueprint(access.table_bp, url_prefix=prefix)
    app.register_blueprint(pwa.bp)
    template_globals.init_app(app)
    app.after_request(security_headers)
    from views.site.compression import compress_page

    app.after_request(compress_page)
    app.after_request(pwa.cache_versioned_static)


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; "
       "object-src 'none'; frame-ancestors 'none'")


def security_headers(response):
    """No inline script anywhere; same-origin referrers keep Flask-WTF's HTTPS check working.
    Only a page draws anything: an empty answer or a stream carries none of these."""
    if response.status_code in (204, 304) or response.content_length == 0 or response.mimetype == "text/event-stream":
        return response
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
