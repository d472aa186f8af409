"""What makes Gin Ledger installable: the service worker at the root, and the favicon."""
from __future__ import annotations

import os
from urllib.parse import quote

from flask import Blueprint, current_app, send_from_directory

bp = Blueprint("pwa", __name__)


@bp.get("/sw.js")
def service_worker():
    """Served from the root so it may look after every page, not only /static/."""
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript",
                                   max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


def icon_data_uri(static_folder: str) -> str:
    """The favicon inline in every page: one request fewer at the table."""
    with open(os.path.join(static_folder, "icon.svg"), encoding="utf-8") as stream:
        return "data:image/svg+xml," + quote(stream.read().strip(), safe=" =:/'")
