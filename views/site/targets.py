"""Where a `next` may send a browser: only a path of this site.

One reader for every `next` (the language switch, the login), because an
address that looks like a path can still name another host once a browser has
cleaned it: tabs and newlines are dropped, a backslash reads as a slash, and
`//host` or `scheme:` leave the site.
"""
from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit


def safe_path(target: str | None, fallback: str = "/") -> str:
    """`target` if it can only be a path of this site, else `fallback`."""
    if not target or not target.startswith("/") or "\\" in target or target.startswith("//"):
        return fallback
    if any(unicodedata.category(char)[0] in "CZ" for char in target):  # controls, spaces, separators
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return fallback
    return target
