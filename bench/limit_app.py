"""The app as `create_app` builds it, plus two routes for the benchmark.

- `/bench-limit/<name>` sends a file from a temporary folder (BENCH_LIMIT_DIR) with
  `send_from_directory`, which is what Flask's own /static/ route does, so the file goes
  through the same waitress, Flask, before- and after-request hooks as the app's CSS and
  JS. The benchmark writes there a copy of the sheet it has just received: a static file
  of exactly the sheet's size, served by the same server, leaving no file in the repository.
- `/bench-log?since=N` lists the requests the server has received (method, path, status),
  in the order they arrived, so the browser parts count round trips as the server sees
  them, whatever the browser or a service worker does in between.
"""
from __future__ import annotations

import json
import os
import threading

from flask import Response, request, send_from_directory

import app as gin_ledger

LOG_PATH = "/bench-log"


class RequestLog:
    """WSGI middleware: every request but its own, with the status it was answered with."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.entries: list[dict] = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == LOG_PATH:
            return self.wsgi_app(environ, start_response)
        entry = {"method": environ.get("REQUEST_METHOD"), "path": path, "status": None}
        with self.lock:
            self.entries.append(entry)

        def recording_start_response(status, headers, exc_info=None):
            entry["status"] = int(status.split(" ", 1)[0])
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, recording_start_response)


def create_app():
    application = gin_ledger.create_app()
    folder = os.environ["BENCH_LIMIT_DIR"]
    log = RequestLog(application.wsgi_app)
    application.wsgi_app = log

    @application.get("/bench-limit/<path:filename>")
    def bench_limit(filename: str):
        return send_from_directory(folder, filename, max_age=application.get_send_file_max_age(filename))

    @application.get(LOG_PATH)
    def bench_log():
        since = request.args.get("since", default=0, type=int)
        with log.lock:
            entries = [dict(e, seq=i) for i, e in enumerate(log.entries) if i >= since]
            count = len(log.entries)
        return Response(json.dumps({"count": count, "entries": entries}), mimetype="application/json")

    return application
