"""Logins that can end: logout for every copy of the cookie, a new passphrase, against real waitress."""
import pytest
from flask import Flask

from server import Server, hidden
from views.tables import access

pytestmark = pytest.mark.slow  # each test starts a server or another process: left out of the quick loop

PASSPHRASE = "open sesame"


def log_in(client, phrase=PASSPHRASE):
    page = client.get("/login")
    assert page.status == 200, page.status
    return client.post("/login", {"csrf_token": hidden(page.body, "csrf_token"), "passphrase": phrase})


def is_in(client) -> bool:
    """In means the home page itself; out means the login's redirect."""
    answer = client.get("/")
    assert answer.status in (200, 302), answer.status
    return answer.status == 200


@pytest.fixture
def private(tmp_path):
    with Server(tmp_path / "db.sqlite", threads=2, env={"FLASK_PASSPHRASE": PASSPHRASE}) as server:
        yield server


def test_logging_out_refuses_every_copy_of_the_cookie(private):
    phone = private.client()
    assert log_in(phone).status == 302
    copy = phone.copy()
    assert is_in(phone) and is_in(copy)
    home = phone.get("/").body
    assert 'action="/logout"' in home and ">Log out<" in home
    answer = phone.post("/logout", {"csrf_token": hidden(home, "csrf_token")})
    assert answer.status == 302 and answer.location.endswith("/login")
    assert not is_in(phone)
    assert not is_in(copy)  # the copy still holds the old, validly signed cookie


def test_a_new_passphrase_shuts_out_the_old_logins(private):
    phone = private.client()
    log_in(phone)
    assert is_in(phone)
    private.stop()
    private.env["FLASK_PASSPHRASE"] = "new words"
    private.start()
    phone = phone.copy(private.base)
    assert not is_in(phone)
    assert log_in(phone, PASSPHRASE).status == 403
    assert log_in(phone, "new words").status == 302
    assert is_in(phone)


def test_the_same_passphrase_keeps_logins_over_a_restart(private):
    phone = private.client()
    log_in(phone)
    private.stop()
    private.start()
    assert is_in(phone.copy(private.base))


def test_an_old_cookie_without_a_login_row_is_refused(tmp_path):
    """A cookie signed with the right key but naming no login (or from before logins were kept) opens nothing."""
    signer = Flask("signer").session_interface.get_signing_serializer(signing_app("test"))
    with Server(tmp_path / "db.sqlite", threads=2, env={"FLASK_PASSPHRASE": PASSPHRASE}) as server:
        for forged in ({"passed": True}, {access.SESSION_KEY: "made-up"}):
            answer = server.client().get("/", headers={"Cookie": f"session={signer.dumps(forged)}"})
            assert answer.status == 302 and "/login" in answer.location, forged


def signing_app(key: str) -> Flask:
    app = Flask("signer")
    app.secret_key = key
    return app
