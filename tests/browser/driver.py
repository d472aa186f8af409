"""Playwright in Debian's Chromium as the browser tests drive it, importable by the bench too.

Not a test module and no pytest in it: conftest.py turns `why_not()` into a skip (or a
CI failure), the bench into a line of its report.
"""
from __future__ import annotations

import os

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 360, "height": 740}
TIMEOUT_MS = 10_000  # generous: a busy CI machine is slow, and a passing step never waits for it


def why_not() -> tuple[str, str] | None:
    """(what is missing, how to install it) when the browser cannot run here, else None."""
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing", "Chromium not found: apt-get install -y chromium"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing", "playwright not installed: pip install -r requirements-dev.txt"
    return None


def launch(playwright):
    """Chromium headless, with nothing of its own on the network to blur request counts."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def phone(browser, base_url: str, touch: bool = True, **options):
    """A fresh context (cookies, cache, storage): a 360x740 phone, touch unless asked otherwise."""
    context = browser.new_context(viewport=VIEWPORT, has_touch=touch, base_url=base_url, **options)
    context.set_default_timeout(TIMEOUT_MS)
    return context
