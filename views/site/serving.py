"""Serving behind a reverse proxy and to named hosts only.

`FLASK_PROXY_HOPS` says how many proxies in front may be believed about the
client's address, scheme, host and port (Werkzeug's ProxyFix); without it the
X-Forwarded-* headers are ignored, as anyone could send them. Once a request
is known to be HTTPS, the session cookie is Secure and the answer carries HSTS;
on plain HTTP neither, or a phone at a home table could never log in again.
`FLASK_TRUSTED_HOSTS` is Flask's TRUSTED_HOSTS, given as a comma-separated list.
"""
from __future__ import annotations

import re

from flask import Flask, Response, request
from werkzeug.exceptions import SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

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


# A host name of LDH labels (at most 63 characters each, 253 in all), an IPv4 address, or an IPv6
# address in brackets; then an optional port of 1 to 65535.
LABEL = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
HOST = re.compile(rf"(?:{LABEL}(?:\.{LABEL})*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{{1,5}}))?")


def host_problem(host: str) -> str | None:
    """Why a Host header cannot be a host this server answers (None: it can)."""
    match = HOST.fullmatch(host)
    if match is None or len(host.split(":")[0]) > 253:
        return "the Host header is not a host name"
    port = match.group(1)
    if port is not None and not 1 <= int(port) <= 65535:
        return "the Host header's port is not between 1 and 65535"
    return None


class HostCheck:
    """A malformed Host (a bad port, an over-long label, characters no host name has) is a 400 with
    words before Flask sees it: Flask builds URLs from the Host, and this one would break them."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST")
        problem = host_problem(host) if host is not None else None
        if problem is not None:
            body = f"Bad Request: {problem}; nothing was done.\n".encode()
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"),
                                               ("Content-Length", str(len(body)))])
            return [body]
        return self.wsgi_app(environ, start_response)


HOST_CHECK = "gin_ledger_host_check"


def inside_host_check(app: Flask, wrap) -> None:
    """Put a WSGI layer between the Host check (and ProxyFix) and Flask: its requests are checked too."""
    check = app.extensions[HOST_CHECK]
    check.wsgi_app = wrap(check.wsgi_app)


# The largest number a path may carry: SQLite's integers stop at 2**63 - 1, so a larger one is no
# match id, hand or player of any table; it is refused (404) before it reaches a query.
LARGEST_PATH_NUMBER = 2 ** 62


class BoundedInteger(IntegerConverter):
    """Every `<int:...>` of a route: at most LARGEST_PATH_NUMBER."""

    def __init__(self, url_map, *args, **kwargs):
        kwargs.setdefault("max", LARGEST_PATH_NUMBER)
        super().__init__(url_map, *args, **kwargs)


def strict_transport(response):
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_app(app: Flask) -> None:
    """Call before any other before_request hook, so an untrusted host is refused first."""
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config.get("TRUSTED_HOSTS"))
    hops = proxy_hops(app.config.get("PROXY_HOPS"))
    app.url_map.converters["int"] = BoundedInteger
    app.wsgi_app = HostCheck(app.wsgi_app)  # inside ProxyFix: the Host it sets from X-Forwarded-Host is checked
    app.extensions[HOST_CHECK] = app.wsgi_app
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)
    app.session_interface = SessionInterface()
    app.before_request(refuse_untrusted_host)
    app.after_request(strict_transport)
