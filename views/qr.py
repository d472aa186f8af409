"""QR codes drawn by the server as inline SVG (segno), so a phone joins by its camera."""
from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import segno
from flask import current_app, request
from markupsafe import Markup
from werkzeug.sansio.utils import host_is_trusted

from . import netinfo
from models import caches


def qr_svg(text: str, label: str) -> Markup:
    """Drawn once per app for each link (the app's own bounded cache), as the home page shows it on every visit."""
    cache = current_app.extensions[caches.EXTENSION].qr
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


def table_base_url(addresses: list[str] | None = None) -> str:
    """The address a phone can open: the one in use, unless that is this machine's loopback.

    With TRUSTED_HOSTS set, Flask has refused the request before this runs unless its Host
    is trusted, and a network address replaces the loopback only if it is trusted too:
    a QR code never names a host the server would answer with 400."""
    parts = urlsplit(request.host_url)
    if not is_loopback(parts.hostname or ""):
        return request.host_url
    found = netinfo.local_addresses() if addresses is None else addresses
    trusted = current_app.config.get("TRUSTED_HOSTS")
    found = [address for address in found if not trusted or host_is_trusted(address, trusted)]
    if not found:
        return request.host_url
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{found[0]}{port}/"


def table_url(path: str) -> str:
    return table_base_url().rstrip("/") + path
