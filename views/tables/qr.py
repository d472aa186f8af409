"""QR codes drawn by the server as inline SVG (segno), so a phone joins by its camera."""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

import segno
from flask import current_app, request
from markupsafe import Markup
from werkzeug.sansio.utils import host_is_trusted

from views.site import netinfo
from views.site.kept import app_caches


def qr_svg(text: str, label: str) -> Markup:
    """Drawn once per app for each link (the app's own bounded cache), as the home page shows it on every visit."""
    cache = app_caches().qr
    found = cache.get((text, label))
    if found is None:
        found = draw_qr(text, label)
        cache.put((text, label), found)
    return found


def draw_qr(text: str, label: str) -> Markup:
    """Dark on a white quiet zone in either colour scheme; `label` is what a screen reader hears."""
    code = segno.make(text, error="m")
    # A viewBox, not a width: a hosted table's long address needs more modules, and they must scale, not be cut off.
    svg = code.svg_inline(scale=4, dark="#000", light="#fff", title=label, omitsize=True)
    return Markup(svg.replace("<svg ", '<svg role="img" aria-label="{}" '.format(Markup.escape(label)), 1))


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def listens_on_loopback_only() -> bool:
    """The development server (`flask run`, 127.0.0.1 unless `--host 0.0.0.0`) names the address it listens
    on as SERVER_NAME, and so does gunicorn; a loopback one means no phone can reach this server at all.
    Waitress names none ('waitress.invalid'), a test client the host it asked: both read as not known."""
    try:
        return ipaddress.ip_address(request.environ.get("SERVER_NAME", "")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Reach:
    """Where a phone can open a page of this server (`url`), or None and why not (`why`): 'loopback' (the
    server listens only on this machine), 'offline' (this machine has no network address), 'untrusted'
    (FLASK_TRUSTED_HOSTS names none of its network addresses). `here` is the page's own address."""

    url: str | None
    here: str
    why: str | None = None


def phone_reach(path: str = "/", addresses: list[str] | None = None) -> Reach:
    """The address a phone can open: the one in use, unless that is this machine's loopback; then this
    machine's network address, if the server listens there and would answer it.

    With TRUSTED_HOSTS set, Flask has refused the request before this runs unless its Host
    is trusted, and a network address replaces the loopback only if it is trusted too:
    a QR code never names a host the server would answer with 400, nor one it does not listen on."""
    parts = urlsplit(request.host_url)
    here = request.host_url.rstrip("/") + path
    if not is_loopback(parts.hostname or ""):
        return Reach(here, here)
    if listens_on_loopback_only():
        return Reach(None, here, "loopback")
    found = netinfo.local_addresses() if addresses is None else addresses
    if not found:
        return Reach(None, here, "offline")
    trusted = current_app.config.get("TRUSTED_HOSTS")
    found = [address for address in found if not trusted or host_is_trusted(address, trusted)]
    if not found:
        return Reach(None, here, "untrusted")
    port = f":{parts.port}" if parts.port else ""
    return Reach(f"{parts.scheme}://{found[0]}{port}{path}", here)


def table_base_url(addresses: list[str] | None = None) -> str:
    """The address a phone can open, else (no phone can open any) this page's own: a printout names it."""
    reach = phone_reach("/", addresses)
    return reach.url or reach.here


def table_url(path: str, phone: bool = False) -> str | Reach:
    """`path` at `table_base_url`; with `phone=True`, the `Reach` of it, so a page draws a QR code only
    of an address a phone can open and otherwise says why none can be."""
    reach = phone_reach(path)
    if phone:
        return reach
    return reach.url or reach.here
