"""The session cookie read back from what this process signed (views/site/session_cookie.py) is the
session Flask's own check would give, and nothing it would refuse is let through."""
import time

import pytest
from itsdangerous import BadSignature, SignatureExpired

from app import create_app

pytestmark = pytest.mark.sqlite_only  # the session cookie: the database is incidental


def serializer(app):
    return app.session_interface.get_signing_serializer(app)


def test_a_cookie_signed_here_reads_back_as_signed(app):
    signer = serializer(app)
    value = signer.dumps({"lang": "cs", "_flashes": [("saved", "Hand 3")]})
    assert signer.loads(value, max_age=60) == {"lang": "cs", "_flashes": [("saved", "Hand 3")]}
    assert app.session_interface.get_signing_serializer(app) is signer  # made once, not once a request


def test_what_a_request_changes_in_its_session_is_not_remembered(app):
    """Flask's flash appends to the session's list in place: the next read must not see that."""
    signer = serializer(app)
    value = signer.dumps({"_flashes": [("saved", "Hand 3")]})
    signer.loads(value, max_age=60)["_flashes"].append(("saved", "Hand 4"))
    assert signer.loads(value, max_age=60) == {"_flashes": [("saved", "Hand 3")]}


def test_a_changed_cookie_is_refused(app):
    signer = serializer(app)
    value = signer.dumps({"login": "abc"})
    forged = value[:-2] + ("AA" if not value.endswith("AA") else "BB")
    with pytest.raises(BadSignature):
        signer.loads(forged, max_age=60)


def test_a_remembered_cookie_still_expires(app, monkeypatch):
    signer = serializer(app)
    value = signer.dumps({"login": "abc"})
    later = time.time() + 120
    monkeypatch.setattr(time, "time", lambda: later)
    with pytest.raises(SignatureExpired):
        signer.loads(value, max_age=60)


def test_a_cookie_signed_elsewhere_keeps_its_own_age(app, monkeypatch):
    """Another process (or this one before a restart) signed it: checked in full, and remembered
    with the time it was signed, not the time it was first read here."""
    other = create_app({"TESTING": True, "DATABASE": app.config["DATABASE"], "SECRET_KEY": "test"})
    then = time.time() - 100
    monkeypatch.setattr(time, "time", lambda: then)
    value = serializer(other).dumps({"login": "abc"})
    monkeypatch.undo()
    with pytest.raises(SignatureExpired):
        serializer(app).loads(value, max_age=50)
    assert serializer(app).loads(value, max_age=200) == {"login": "abc"}
    with pytest.raises(SignatureExpired):  # now remembered, and still as old as it is
        serializer(app).loads(value, max_age=50)


def test_a_new_secret_key_forgets_every_cookie(app):
    value = serializer(app).dumps({"login": "abc"})
    app.secret_key = "another"
    with pytest.raises(BadSignature):
        serializer(app).loads(value, max_age=60)


def test_the_session_travels_between_requests(client):
    """End to end: the language chosen on one request is the next request's, and a flash shows once."""
    client.get("/language/cs")
    assert 'lang="cs"' in client.get("/").get_data(as_text=True)
