"""gunicorn's settings file for Gin Ledger (README, "Serving"): read from the directory gunicorn starts in,
or named by `-c gunicorn.conf.py`. It sets nothing the command line sets; it tells the app, in each worker,
how many connections that worker answers at once (`--worker-connections`), so the held streams leave a
reserve of them to saves and pages (views/live/room.py)."""


def post_worker_init(worker):
    # after the app is loaded in the worker (and gevent has patched it): the app's modules are imported
    from views.live.room import served_by

    served_by(worker.cfg.worker_connections)
