import os
import tempfile

import pytest

from app import create_app


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    """The CLI speaks the shell's language (i18n.environment_language): the tests expect English unless they ask."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def app():
    fd, path = tempfile.mkstemp(suffix=".sqlite")
    os.close(fd)
    os.unlink(path)
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"})
    yield app
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
