"""Flask's signed-cookie session, Secure over HTTPS, and cheap to read back.

A table's phone sends back, on its next request, the very cookie this process signed for it on the
last one (a saved hand's flash, then the page that shows it). Checking that signature again and
unpacking it (base64, zlib, HMAC, JSON) cost a saved hand a tenth of its time; so the serializer
remembers what it signed, and a cookie it signed itself is read from that memory. Only the exact
string that was signed is found there, and its age is checked as itsdangerous checks it; any other
cookie (another process's, an older one) is checked in full.
"""
from __future__ import annotations

import time
from typing import NamedTuple

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import SignatureExpired

from models.storage.caches import BoundedCache

REMEMBERED_BYTES = 4 * 1024 * 1024  # a session is a few hundred bytes: thousands of phones


class Signed(NamedTuple):
    text: str  # the session as tagged JSON, unpacked anew for each request (a session is mutable)
    at: float


class RememberingSerializer:
    """An itsdangerous URLSafeTimedSerializer that knows the cookies it signed (loads and dumps only)."""

    def __init__(self, signer, tags, remembered: BoundedCache):
        self.signer, self.tags, self.remembered = signer, tags, remembered

    def dumps(self, data) -> str:
        value = self.signer.dumps(data)
        self.remembered.put(value, Signed(self.tags.dumps(data), time.time()))
        return value

    def loads(self, value: str, max_age: int | None = None):
        found = self.remembered.get(value)
        if found is None:
            data, signed_at = self.signer.loads(value, max_age=max_age, return_timestamp=True)
            self.remembered.put(value, Signed(self.tags.dumps(data), signed_at.timestamp()))
            return data
        if max_age is not None and time.time() - found.at > max_age:
            raise SignatureExpired("the session cookie has expired")
        return self.tags.loads(found.text)


def signed_size(entry: Signed) -> int:
    return len(entry.text) + 400  # the key (the cookie, about as long) and the entry's own objects


class SessionInterface(SecureCookieSessionInterface):
    """Flask's cookie session, Secure whenever the request came over HTTPS (after ProxyFix)."""

    def __init__(self):
        self._made: tuple | None = None  # (the keys, the serializer made with them)

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or request.is_secure

    def get_signing_serializer(self, app: Flask):
        """Made once per set of keys, not once a request; new keys make a new one, which forgets."""
        if not app.secret_key:
            return None
        keys = self.keys(app)
        if self._made is None or self._made[0] != keys:
            remembered = BoundedCache(REMEMBERED_BYTES, size_of=signed_size)
            self._made = (keys, RememberingSerializer(super().get_signing_serializer(app), self.serializer, remembered))
        return self._made[1]

    @staticmethod
    def keys(app: Flask) -> tuple:
        return (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
