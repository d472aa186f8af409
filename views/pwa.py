"""What makes Gin Ledger installable: the service worker at the root, and the favicon."""
from __future__ import annotations

import hashlib
import os
from urllib.parse import quote

from flask import Blueprint, Response, current_app, json, render_template

bp = Blueprint("pwa", __name__)


CACHED = ("style.css", "app.js", "icon.svg", "manifest.webmanifest")


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
    response = Response(script, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


def icon_data_uri(static_folder: str) -> str:
    """The favicon inline in every page: one request fewer at the table."""
    with open(os.path.join(static_folder, "icon.svg"), encoding="utf-8") as stream:
        return "data:image/svg+xml," + quote(stream.read().strip(), safe=" =:/'")
