import os
import tempfile

import pytest

from app import create_app
from compiled_templates import install as share_compiled_templates
from postgres import Schema
from views.site import db

share_compiled_templates()  # every app this process makes, the tests' own create_app calls too

RAM_FOLDER = "/dev/shm"


def pytest_configure(config):
    """Test files in memory (tmpfs) where the machine has one with room and TMPDIR names no other place.

    Each test's database is a new SQLite file, and a commit waits for the disk (fsync): on a disk
    other programs keep busy that wait, not the test's work, was most of a test's time. What the
    tests check is the same on either; only the folder of the files (tempfile, tmp_path) moves."""
    if os.environ.get("TMPDIR") or not os.path.isdir(RAM_FOLDER) or not os.access(RAM_FOLDER, os.W_OK):
        return
    room = os.statvfs(RAM_FOLDER)
    if room.f_bavail * room.f_frsize >= 2 * 1024 ** 3:
        tempfile.tempdir = RAM_FOLDER


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    """The CLI speaks the shell's language (i18n.environment_language): the tests expect English unless they ask."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


# The files that take longest go to the workers first (pytest-xdist hands out whole files in the order
# collected, pytest.ini `--dist loadfile`), so the run does not end on one long file while the other
# worker is idle: benchmark runs, then browsers, then servers and processes, then the rest.
FIRST_BY_MARK = ("bench", "browser", "slow")


def pytest_collection_modifyitems(items):
    def weight(item) -> int:
        return next((rank for rank, mark in enumerate(FIRST_BY_MARK) if item.get_closest_marker(mark)),
                    len(FIRST_BY_MARK))

    by_file: dict = {}  # a test file's path -> its first place
    for item in items:
        by_file[item.path] = min(by_file.get(item.path, len(FIRST_BY_MARK)), weight(item))
    items.sort(key=lambda item: by_file[item.path])  # stable: a file's tests keep their order


def pytest_generate_tests(metafunc):
    """Every test that uses the database (the `app` or `database` fixture) runs once on SQLite and once
    on PostgreSQL, unless it is marked `sqlite_only` (it reads or replaces the SQLite file itself)."""
    if "engine" in metafunc.fixturenames and not metafunc.definition.get_closest_marker("sqlite_only"):
        engines = os.environ.get("GIN_LEDGER_TEST_ENGINES", "sqlite,postgresql").split(",")
        metafunc.parametrize("engine", engines, indirect=True)


@pytest.fixture
def engine(request):
    return getattr(request, "param", "sqlite")


@pytest.fixture
def database(engine):
    """The address of an empty database of the test's engine: a new SQLite file, or a new PostgreSQL schema."""
    if engine == "postgresql":
        schema = Schema()
        yield schema.url
        schema.drop()
        return
    fd, path = tempfile.mkstemp(suffix=".sqlite")
    os.close(fd)
    os.unlink(path)
    yield path
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)


@pytest.fixture
def app(database):
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test"})
    yield app
    db.close_app(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def hosted(database, tmp_path):
    """The app as a public host runs it (FLASK_HOSTED=1), on the test's engine."""
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k", "HOSTED": True,
                      "TABLE_STARTS_PER_MINUTE": 50}, instance_path=str(tmp_path / "instance"))
    yield app
    db.close_app(app)


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
