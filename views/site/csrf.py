"""The CSRF token masked per response, so a compressed page says nothing of it (BREACH).

Flask-WTF's token is the same in every response of a session. Each page carries it masked: a random
pad as long as the token, then the token XOR the pad, so no two responses share a byte of it, and
compression cannot be used to guess it. A POST's token is unmasked and checked with Flask-WTF's
public `validate_csrf`, for every unsafe request (`protect`, which stands in for CSRFProtect's own
check, off by WTF_CSRF_CHECK_DEFAULT) and in every form (`MaskedCSRF`, WTForms' CSRF interface).
"""
from __future__ import annotations

import base64
import binascii
import secrets
from urllib.parse import urlsplit

from flask import current_app, request
from flask_wtf.csrf import CSRFError, generate_csrf, validate_csrf
from wtforms import ValidationError
from wtforms.csrf.core import CSRF

from .blanks import CSRF as CSRF_BLANK, blank, drawing_kept

PREFIX = "m."
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
HEADERS = ("X-CSRFToken", "X-CSRF-Token")
_exempt: set = set()


def mask(token: str) -> str:
    data = token.encode()
    pad = secrets.token_bytes(len(data))
    return PREFIX + base64.urlsafe_b64encode(pad + bytes(a ^ b for a, b in zip(data, pad))).decode()


def unmask(value: str | None) -> str | None:
    if not value or not value.startswith(PREFIX):
        return None
    try:
        raw = base64.urlsafe_b64decode(value[len(PREFIX):].encode())
    except (binascii.Error, ValueError):
        return None
    half = len(raw) // 2
    if len(raw) % 2 or not half:
        return None
    return bytes(a ^ b for a, b in zip(raw[half:], raw[:half])).decode("utf-8", "replace")


def masked_token() -> str:
    """This response's masked token; in a page being kept (views/site/pages.py), the blank each response fills."""
    if drawing_kept():
        return blank(CSRF_BLANK)
    return mask(generate_csrf())


def exempt(view):
    """A view that takes unsafe requests without a token (only tests use it)."""
    _exempt.add(view)
    return view


def check(value: str | None) -> None:
    try:
        validate_csrf(unmask(value))
    except ValidationError as error:
        raise CSRFError(error.args[0]) from None


def same_origin(referrer: str) -> bool:
    here, there = urlsplit(request.host_url), urlsplit(referrer)
    return (here.scheme, here.netloc) == (there.scheme, there.netloc)


def protect() -> None:
    """Runs before every request: an unsafe method needs this session's token (masked), and over HTTPS a
    Referer of this site, as CSRFProtect asks."""
    if request.method in SAFE_METHODS or not request.endpoint or request.routing_exception is not None:
        return  # no view takes it (a 404 or 405 answers it)
    if current_app.view_functions.get(request.endpoint) in _exempt:
        return
    check(request.form.get("csrf_token") or next((request.headers[h] for h in HEADERS if h in request.headers), None))
    if request.is_secure and current_app.config.get("WTF_CSRF_SSL_STRICT", True):
        if not request.referrer:
            raise CSRFError("The referrer header is missing.")
        if not same_origin(request.referrer):
            raise CSRFError("The referrer does not match the host.")


class MaskedCSRF(CSRF):
    """Every form's csrf_token field: drawn masked, checked unmasked."""

    def generate_csrf_token(self, csrf_token_field) -> str:
        return masked_token()

    def validate_csrf_token(self, form, field) -> None:
        try:
            validate_csrf(unmask(field.data))
        except ValidationError as error:
            raise ValidationError(error.args[0]) from None
