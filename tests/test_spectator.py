"""A spectator's link is only that: one match, read-only, and nothing else reachable from it."""
from collections import deque
from html.parser import HTMLParser
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from app import create_app
from webutil import case, hidden, import_match

PASSPHRASE = "open sesame"
LINK_ATTRIBUTES = {"href", "src", "action", "formaction", "poster", "data", "srcset"}


class Page(HTMLParser):
    """Every address a page names (links, sources, form actions, data-*-url for the scripts) and its forms."""

    def __init__(self):
        super().__init__()
        self.addresses, self.forms = [], 0

    def handle_starttag(self, tag, attrs):
        self.forms += tag == "form"
        for name, value in attrs:
            scripted = name.startswith("data-") and name.endswith(("url", "sw"))
            if value is not None and (name in LINK_ATTRIBUTES or scripted):
                self.addresses.append(value)


def read_page(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def allowed(address: str, view: str) -> bool:
    """The match's own view (its live fragment and big screen), static files, or a language switch back to those."""
    parts = urlsplit(address)
    if parts.scheme or parts.netloc:
        return parts.netloc == "localhost" and allowed(parts.path + ("?" + parts.query if parts.query else ""), view)
    if parts.path == view or parts.path.startswith(view + "/") or parts.path.startswith("/static/"):
        return True
    back = parse_qs(parts.query).get("next", [])
    return parts.path.startswith("/language/") and len(back) == 1 and allowed(back[0], view)


def crawl(client, start: str) -> tuple[set[str], list[str]]:
    """Breadth-first over every same-site address reachable from `start`; returns (visited, refused)."""
    seen, refused, queue = {start}, [], deque([start])
    while queue:
        address = queue.popleft()
        answer = client.get(address)
        found = [answer.headers["Location"]] if answer.status_code in (301, 302, 303, 307, 308) else []
        assert answer.status_code in (200, 301, 302, 303, 307, 308), (address, answer.status_code)
        if answer.mimetype == "text/html":
            page = read_page(answer.get_data(as_text=True))
            if page.forms:
                refused.append(f"{address} has a form")
            found += page.addresses
        for target in found:
            target = urljoin(address, target).removeprefix("http://localhost")
            parts = urlsplit(target)
            if target.startswith("#") or parts.scheme not in ("", "http") or parts.netloc not in ("", "localhost"):
                continue  # data: icons, and other sites (none are linked)
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen, refused


def tables(tmp_path, phrase):
    """Two matches, entered by a player who logged in if a passphrase is set; the spectator's fresh client."""
    config = {"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "k"}
    app = create_app({**config, "PASSPHRASE": phrase} if phrase else config)
    player = app.test_client()
    if phrase:
        login = player.get("/login").get_data(as_text=True)
        player.post("/login", data={"csrf_token": hidden(login, "csrf_token"), "passphrase": phrase})
    watched = import_match(player, case("seed001-ana-ben"))
    import_match(player, case("seed000-bob-alexandra"))
    page = player.get(f"/matches/{watched}/join").get_data(as_text=True)  # where the read-only link is
    token = page.split("/view/")[1].split('"')[0]
    return player, app.test_client(), watched, f"/view/{token}"


@pytest.mark.parametrize("phrase", [None, PASSPHRASE])
def test_everything_reachable_from_a_spectator_link_is_that_match_read_only(tmp_path, phrase):
    _player, spectator, _watched, view = tables(tmp_path, phrase)
    seen, refused = crawl(spectator, view)
    outside = sorted(address for address in seen if not allowed(address, view))
    assert not outside and not refused, (outside, refused)
    assert {view, view + "/live", view + "/big"} <= {urlsplit(address).path for address in seen}
    assert any(address.startswith("/language/") for address in seen)  # the crawl did follow the footer


@pytest.mark.parametrize("phrase", [None, PASSPHRASE])
def test_the_crawl_finds_the_way_out_of_a_players_page(tmp_path, phrase):
    """The same crawl from the player's own sheet reaches other pages and forms: it is able to fail."""
    player, _spectator, watched, view = tables(tmp_path, phrase)
    page = read_page(player.get(f"/matches/{watched}").get_data(as_text=True))
    assert page.forms and not all(allowed(address, view) for address in page.addresses)


def test_the_spectator_page_and_its_fragment_have_no_header_links_forms_or_hand_links(tmp_path):
    _player, spectator, watched, view = tables(tmp_path, PASSPHRASE)
    for address in (view, view + "/live", view + "/big", view + "/sheet"):
        html = spectator.get(address).get_data(as_text=True)
        assert "<form" not in html and "/matches" not in html and "/players" not in html, address
        assert 'href="/"' not in html and "Log out" not in html, address


def test_only_the_spectator_link_is_open_without_the_passphrase(tmp_path):
    player, spectator, watched, view = tables(tmp_path, PASSPHRASE)
    for address in (f"/matches/{watched}", f"/matches/{watched}/live", f"/matches/{watched}/big",
                    f"/matches/{watched}/sheet",
                    f"/matches/{watched}.json", f"/matches/{watched}/join", "/", "/players"):
        answer = spectator.get(address)
        assert answer.status_code == 302 and "/login" in answer.headers["Location"], address
    assert spectator.post(f"/matches/{watched}/hands", data={"winner": "Ana", "points": "5"}).status_code == 302
    assert spectator.get(view).status_code == 200 and spectator.get(view + "/live").status_code == 200
    assert spectator.get(view + "/sheet").status_code == 200
