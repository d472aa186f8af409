"""gunicorn's settings file for Gin Ledger (README, "Serving"): read from the directory gunicorn starts in,
or named by `-c gunicorn.conf.py`. It sets nothing the command line sets; it tells the app, in each worker,
how many connections that worker answers at once (`--worker-connections`), so the held streams leave a
reserve of them to saves and pages (views/live/room.py); it keeps no connection past its answer, so those
stay free; and it has each worker give its database back before it ends."""

# A connection per request: a kept idle connection (gunicorn keeps one 2 s by default, and a phone refused a
# stream polls every 2.5 s) would hold one of the worker's connections that the streams leave for saves.
# A player pays nothing for it: a save comes a minute or more after the page's last request, on a new
# connection anyway; a held stream is one long answer.
keepalive = 0


def post_worker_init(worker):
    # after the app is loaded in the worker (and gevent has patched it): the app's modules are imported
    from views.live.room import served_by

    served_by(worker.cfg.worker_connections)


def worker_exit(server, worker):
    # the app gives back its database while the worker's hub still runs: psycopg_pool's own clean-up at the
    # interpreter's end, under gevent, prints "greenlet is being finalized" for every worker stopped
    from views.site.db import close_app

    if hasattr(worker.wsgi, "extensions"):  # the app as create_app made it (not a wrapper around it)
        close_app(worker.wsgi)
