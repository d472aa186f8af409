"""Compression, as the client asks by its q-values, where it is safe.

- Static files are compressed once (brotli and gzip) the first time they are asked for, kept by
  path and modification time, and sent in the encoding the client takes.
- Pages and fragments are compressed per response only where every secret in them is masked per
  response, as the CSRF token is (views/site/csrf.py), or is in the address the page was asked at, as a
  hosted table's key is in /t/<key>/… and a read-only token in /view/<token>… (`secrets_in_address`).
  BREACH guesses a secret from the sizes of answers to requests the attacker makes the victim's browser
  send, with guesses beside the secret: to send one to such an address, the attacker must already know
  what it holds. The join page (it names the read-only token, its address does not) and a hosted
  server's pages outside every table (the front page lists the tables this browser opened, by their
  keys) are sent as they are.

The encoding is chosen with Werkzeug's parser of Accept-Encoding (`request.accept_encodings`), so
`gzip;q=0` is never sent gzip; an encoding is used only if it makes the body smaller.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import threading

import brotli
from flask import Response, current_app, g, request
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

ENCODINGS = ("br", "gzip")
COMPRESSIBLE = (".css", ".js", ".svg", ".webmanifest", ".json", ".txt", ".html")

_kept: dict[tuple[str, float], dict[str, bytes]] = {}
_lock = threading.Lock()


def variants(path: str, mtime: float) -> dict[str, bytes]:
    """The file's bytes as they are ("identity") and in each encoding that makes it smaller."""
    key = (path, mtime)
    found = _kept.get(key)
    if found is not None:
        return found
    with open(path, "rb") as stream:
        data = stream.read()
    made = {"identity": data}
    if path.endswith(COMPRESSIBLE):
        for name, packed in (("br", brotli.compress(data, quality=11)), ("gzip", gzip.compress(data, 9, mtime=0))):
            if len(packed) < len(data):
                made[name] = packed
    with _lock:
        for old in [k for k in _kept if k[0] == path]:
            del _kept[old]
        _kept[key] = made
    return made


def chosen(available) -> str:
    """The best encoding the client takes (q above 0), among those this file has; else identity."""
    offered = [name for name in ENCODINGS if name in available]
    best = request.accept_encodings.best_match(offered) if offered else None
    return best if best in available else "identity"


def send_static(folder: str, filename: str, mimetype_of) -> Response:
    path = safe_join(folder, filename)
    if path is None or not os.path.isfile(path):
        raise NotFound()
    made = variants(path, os.path.getmtime(path))
    encoding = chosen(made)
    body = made[encoding]
    response = Response(body, mimetype=mimetype_of(filename))
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.set_etag(hashlib.sha256(body).hexdigest()[:16])
    response.cache_control.no_cache = True  # asked again, answered 304; a versioned address is kept a year
    return response.make_conditional(request)


# Pages that name a read-only token (a secret link) their address does not hold.
TOKEN_PAGES = frozenset({"matches.join"})
PAGE_TYPES = frozenset({"text/html", "application/json", "text/plain", "image/svg+xml", "text/csv"})
SMALLEST = 512  # below this a compressed body saves less than its headers cost
# A page is compressed for each response, so at the quickest levels: the bytes they leave over what the
# slower levels would save are a few hundred per answer (the numbers are in the commit that chose them).
PAGE_BROTLI, PAGE_GZIP = 1, 1


def secrets_in_address() -> bool:
    """Whether every secret this request's page can hold, but the CSRF token, is in its own address: a
    table's key in a hosted table's pages (/t/<key>/…), a read-only token in the spectator's (/view/<token>…,
    which name no table: views/tables/tables.py). At home the pages hold no key, and only the join page a token."""
    from views.tables.scope import SPECTATOR_ENDPOINTS

    if request.endpoint in TOKEN_PAGES:
        return False
    if not current_app.config.get("HOSTED") or request.endpoint in SPECTATOR_ENDPOINTS:
        return True
    table = g.get("table")
    return table is not None and request.path.startswith(f"/t/{table.key}/")  # the path below the mount


def compressible(response: Response) -> bool:
    return (response.status_code == 200 and not response.direct_passthrough
            and "Content-Encoding" not in response.headers and response.mimetype in PAGE_TYPES
            and request.endpoint != "static" and secrets_in_address()
            and response.content_length is not None and response.content_length >= SMALLEST)


def compress_page(response: Response) -> Response:
    """An after_request hook: a page holding no unmasked secret, compressed as the client asks."""
    if not compressible(response):
        return response
    response.vary.add("Accept-Encoding")
    encoding = request.accept_encodings.best_match(ENCODINGS)
    if encoding is None:
        return response
    body = response.get_data()
    packed = (brotli.compress(body, quality=PAGE_BROTLI) if encoding == "br"
              else gzip.compress(body, PAGE_GZIP, mtime=0))
    if len(packed) < len(body):
        response.set_data(packed)
        response.headers["Content-Encoding"] = encoding
    return response
