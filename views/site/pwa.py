"""What makes Gin Ledger installable: the service worker at the root, and the favicon."""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from urllib.parse import quote

from flask import Blueprint, Response, current_app, json, render_template, request, url_for

bp = Blueprint("pwa", __name__)


CACHED = ("style.css", "app.js", "icon.svg", "manifest.webmanifest")


YEAR = 365 * 24 * 3600


@lru_cache(maxsize=64)
def file_version(path: str, mtime: float) -> str:
    with open(path, "rb") as stream:
        return hashlib.sha256(stream.read()).hexdigest()[:10]


def current_version(name: str) -> str:
    path = os.path.join(current_app.static_folder, name)
    return file_version(path, os.path.getmtime(path))


def asset(name: str) -> str:
    """A static file's address with its content hash: cached for a year, never stale.

    Every page then loads its stylesheet and script from the phone's cache, so
    the hand page costs one request once the phone has seen the app.
    """
    return url_for("static", filename=name, v=current_version(name))


def cache_versioned_static(response: Response) -> Response:
    """A year's caching only for the address of the file as it is: a page drawn by a newer process (one
    step of a rolling deploy ahead) may ask an older one for its hash, and whatever that older process
    answers must not be kept a year under the new address; it is asked again next time, as unversioned."""
    if (request.endpoint == "static" and request.args.get("v") and response.status_code in (200, 304)
            and request.args["v"] == current_version(request.view_args["filename"])):
        response.cache_control.max_age = YEAR
        response.cache_control.public = True
        response.cache_control.no_cache = None
        response.cache_control.immutable = True
    return response


def static_fingerprint(static_folder: str) -> str:
    """A hash of the cached files: a new style.css or app.js makes a new worker and cache."""
    digest = hashlib.sha256()
    for name in CACHED:
        with open(os.path.join(static_folder, name), "rb") as stream:
            digest.update(stream.read())
    return digest.hexdigest()[:12]


@bp.get("/sw.js")
def service_worker():
    """Served from the root so it may look after every page, not only /static/."""
    with open(os.path.join(current_app.static_folder, "sw.js"), encoding="utf-8") as stream:
        script = stream.read().replace("gin-ledger-v1", "gin-ledger-" + static_fingerprint(current_app.static_folder))
    pages = {"not_sent": render_template("_offline.html", offline=False),
             "offline": render_template("_offline.html", offline=True)}
    script = script.replace("var PAGES = {};", "var PAGES = " + json.dumps(pages) + ";", 1)
    script = script.replace("var STATIC = [];", "var STATIC = " + json.dumps([asset(name) for name in CACHED]) + ";", 1)
    response = Response(script, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


def icon_data_uri(static_folder: str) -> str:
    """The favicon inline in every page: one request fewer at the table."""
    with open(os.path.join(static_folder, "icon.svg"), encoding="utf-8") as stream:
        return "data:image/svg+xml," + quote(stream.read().strip(), safe=" =:/'")
