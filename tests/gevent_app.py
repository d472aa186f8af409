"""Not a test module: the app for tests/stream_server.py's gunicorn worker, which ends when the test
process that started the server is gone (its parent is gunicorn's master, so it asks after that pid)."""
import os
import threading
import time


def served_app():
    parent = int(os.environ["GIN_LEDGER_TEST_PARENT"])

    def watch() -> None:
        while True:
            time.sleep(1)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
    import app as gin_ledger

    return gin_ledger.create_app()
