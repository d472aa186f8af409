"""Serving behind a reverse proxy and to named hosts only.

`FLASK_PROXY_HOPS` says how many proxies in front may be believed about the
client's address, scheme, host and port (Werkzeug's ProxyFix); without it the
X-Forwarded-* headers are ignored, as anyone could send them. Once a request
is known to be HTTPS, the session cookie is Secure and the answer carries HSTS;
on plain HTTP neither, or a phone at a home table could never log in again.
`FLASK_TRUSTED_HOSTS` is Flask's TRUSTED_HOSTS, given as a comma-separated list.
"""
from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.exceptions import SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

from .session_cookie import SessionInterface

HSTS = "max-age=31536000"


class ConfigurationError(ValueError):
    """A setting the app cannot start with; the message names it."""


def proxy_hops(value) -> int:
    """FLASK_PROXY_HOPS arrives as an int (Flask reads FLASK_* as JSON) or as text; a guess would trust too much."""
    text = "0" if value is None or value == "" else str(value).strip()
    if not (text.isascii() and text.isdigit()):
        raise ConfigurationError(f"FLASK_PROXY_HOPS must be a whole number of proxies (0, 1, 2...), not {value!r}")
    return int(text)


def trusted_hosts(value) -> list[str] | None:
    """'a.example, .b.example' as a list, as Flask wants it; None (every host) when unset or empty."""
    if value is None:
        return None
    names = value.split(",") if isinstance(value, str) else [str(name) for name in value]
    names = [name.strip() for name in names if name.strip()]
    return names or None


def refuse_untrusted_host():
    """Flask found the Host untrusted while routing; answer here, before any hook builds a URL from it.

    The error page cannot be drawn: every link on it would need the host Flask refused."""
    if isinstance(request.routing_exception, SecurityError):
        return Response("Bad Request: this host name is not served here.\n", 400, mimetype="text/plain")
    return None


def strict_transport(response):
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_app(app: Flask) -> None:
    """Call before any other before_request hook, so an untrusted host is refused first."""
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config.get("TRUSTED_HOSTS"))
    hops = proxy_hops(app.config.get("PROXY_HOPS"))
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)
    app.session_interface = SessionInterface()
    app.before_request(refuse_untrusted_host)
    app.after_request(strict_transport)
