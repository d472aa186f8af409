"""The other phone follows by the held stream where the server holds one (gunicorn with gevent workers, the
README's club command), and by polls where it holds none (waitress, the session's server)."""
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from stream_server import GeventServer

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def club_server():
    workdir = Path(tempfile.mkdtemp(prefix="gin-ledger-stream-"))
    try:
        with GeventServer(workdir / "gin-ledger.sqlite", log_dir=workdir) as running:
            yield running.base
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def two_phones(browser, base):
    a = browser.new_context(viewport=PHONE, base_url=base).new_page()
    a.goto("/matches/new")
    a.fill("input[name=players] >> nth=0", "Ana")
    a.fill("input[name=players] >> nth=1", "Ben")
    a.locator("form button[type=submit]").last.click()
    a.wait_for_url(re.compile(r"/matches/\d+"))
    b = browser.new_context(viewport=PHONE, base_url=base).new_page()
    polls = []
    b.on("request", lambda request: polls.append(request.url) if request.url.endswith("/live") else None)
    b.goto(a.url.split("#")[0])
    return a, b, polls


def save_on(a):
    a.locator("label[for=knocker-1]").click()
    a.locator("label[for=kd-3]").click()
    a.fill("[name=opponent_deadwood]", "20")
    a.get_by_role("button", name="Save hand").click()


def test_the_other_phone_follows_by_the_stream(browser, club_server):
    a, b, polls = two_phones(browser, club_server)
    expect(b.locator("#live")).to_have_attribute("data-follow", "stream", timeout=30_000)
    save_on(a)
    expect(b.locator("#hand-1")).to_be_visible(timeout=30_000)
    expect(b.locator("#hand-form input[name=number]")).to_have_value("2")  # its form enters the next hand
    b.screenshot(path="/tmp/shots-39/stream-follower.png")
    assert polls == []  # pushed, not asked for
    save_on(a)
    expect(b.locator("#hand-2")).to_be_visible(timeout=30_000)
    assert b.locator(".sheet tbody tr[id^=hand-]").count() == 2 and polls == []


def test_where_no_stream_opens_the_phone_polls(browser, server):
    a, b, polls = two_phones(browser, server)
    expect(b.locator("#live")).to_have_attribute("data-follow", "poll", timeout=30_000)
    save_on(a)
    expect(b.locator("#hand-1")).to_be_visible(timeout=30_000)
    assert polls  # the hand came by a poll
