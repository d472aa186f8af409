"""The blanks of a kept page: where each request's own values go (views/site/pages.py fills them).

A blank is private-use characters around a name and a per-process random word, so no template, name
or number contains one. While a page is drawn to be kept, what two requests must not share (the CSRF
token: views/site/csrf.py) is drawn as its blank.
"""
from __future__ import annotations

import secrets

from flask import g

MARK = "\ue000" + secrets.token_hex(6)
END = "\ue001"
CSRF = "csrf"


def blank(name: str) -> str:
    """Where this request's `name` goes in a kept page (a form field's value, say)."""
    return f"{MARK}{name}{END}"


def drawing_kept() -> bool:
    return g.get("drawing_kept", False)
