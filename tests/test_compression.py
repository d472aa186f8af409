"""Compressed where it is safe (issue 24): static files and pages as the client's q-values ask, and a
compressed page's CSRF token masked per response (BREACH); pages that hold an unmaskable secret (a
read-only token its address does not hold, a hosted server's list of tables) are sent as they are."""
import brotli
import gzip
import re

import pytest
from webutil import case, hidden, hosted_app, import_match, start_table

from views.site import csrf

pytestmark = pytest.mark.sqlite_only  # compression of what is sent: the database is incidental


def body(response) -> bytes:
    data = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    return brotli.decompress(data) if encoding == "br" else gzip.decompress(data) if encoding == "gzip" else data


@pytest.mark.parametrize("asked, sent", [("gzip, br", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip"),
                                         ("gzip;q=0", None), ("gzip;q=0, br;q=0", None), ("", None),
                                         ("identity", None), ("*", "br")])
def test_static_files_and_pages_are_sent_in_the_encoding_asked(client, asked, sent):
    match_id = import_match(client, case("seed001-ana-ben"))
    headers = {"Accept-Encoding": asked} if asked else {}
    for path in ("/static/style.css", "/static/app.js", f"/matches/{match_id}", "/"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200 and answer.headers.get("Content-Encoding") == sent, (path, asked)
        assert "Accept-Encoding" in answer.headers["Vary"]
        plain = client.get(path, headers={"Accept-Encoding": "identity"}).get_data()
        assert body(answer)[:200] == plain[:200]


def test_a_versioned_static_file_is_kept_a_year_compressed(client):
    page = client.get("/").get_data(as_text=True)
    stylesheet = page.split('href="/static/style.css?v=')[1].split('"')[0]
    answer = client.get(f"/static/style.css?v={stylesheet}", headers={"Accept-Encoding": "br"})
    assert answer.headers["Content-Encoding"] == "br"
    assert "max-age=31536000" in answer.headers["Cache-Control"] and "immutable" in answer.headers["Cache-Control"]
    again = client.get(f"/static/style.css?v={stylesheet}", headers={"Accept-Encoding": "br",
                                                                     "If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_a_static_address_with_another_hash_is_asked_again_not_kept_a_year(client):
    """One step of a rolling deploy: a page drawn by a newer process names its stylesheet's new hash, and
    an older process answers with the file it has. That answer must not be kept a year under the new address."""
    page = client.get("/").get_data(as_text=True)
    stylesheet = page.split('href="/static/style.css?v=')[1].split('"')[0]
    other = ("0" if stylesheet[0] != "0" else "1") + stylesheet[1:]
    for address in (f"/static/style.css?v={other}", "/static/style.css"):
        answer = client.get(address, headers={"Accept-Encoding": "br"})
        assert answer.status_code == 200
        assert answer.cache_control.no_cache and not answer.cache_control.immutable, address
        assert answer.cache_control.max_age is None, address


def test_a_compressed_page_masks_its_csrf_token_per_response_and_each_still_works(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    pages = [body(client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "gzip, br"})).decode()
             for _ in range(3)]
    tokens = [hidden(page, "csrf_token") for page in pages]
    assert len(set(tokens)) == 3 and all(token.startswith(csrf.PREFIX) for token in tokens)
    # one session's token, never sent as it is: the signed token's payload (its first part) is the session's;
    # its timestamp may move on a second between two pages on a slow machine
    assert len({csrf.unmask(token).split(".")[0] for token in tokens}) == 1
    assert all(csrf.unmask(tokens[0]) not in page for page in pages)
    for token, page in zip(tokens, pages):
        saved = client.post(f"/matches/{match_id}/hands", data={
            "csrf_token": token, "form_id": hidden(page, "form_id"), "winner": "Ana", "points": "3"})
        assert saved.status_code in (302, 409), saved.status_code
    refused = client.post(f"/matches/{match_id}/hands", data={"csrf_token": csrf.unmask(tokens[0]),
                                                              "winner": "Ana", "points": "3"})
    assert refused.status_code == 303  # an unmasked token is no token: the form had expired


def hosted_table(tmp_path):
    """A hosted server's test client and the address of a table started on it."""
    hosted = hosted_app(tmp_path).test_client()
    return hosted, start_table(hosted, "Club")


def test_the_join_page_naming_a_token_its_address_does_not_hold_is_never_compressed(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    join = client.get(f"/matches/{match_id}/join", headers={"Accept-Encoding": "gzip, br"})
    assert join.status_code == 200 and "Content-Encoding" not in join.headers and "/view/" in join.get_data(as_text=True)
    assert "/view/" not in body(client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "br"})).decode()


def test_the_spectators_pages_hold_only_the_token_of_their_address_and_are_compressed(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    token = client.get(f"/matches/{match_id}/join").get_data(as_text=True).split("/view/")[1].split('"')[0]
    for path in (f"/view/{token}", f"/view/{token}/sheet", f"/view/{token}/big", f"/view/{token}/live"):
        answer = client.get(path, headers={"Accept-Encoding": "gzip, br"})
        assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br", path
        assert set(re.findall(r"/view/([A-Za-z0-9_-]+)", body(answer).decode())) <= {token}, path


def test_a_hosted_tables_pages_hold_only_the_key_of_their_address_and_are_compressed(tmp_path):
    hosted, home = hosted_table(tmp_path)
    key = home.split("/t/")[1].split("/")[0]
    page = hosted.get(home, headers={"Accept-Encoding": "gzip, br"})
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "br"
    html = body(page).decode()
    assert f"/t/{key}/" in html and set(re.findall(r"/t/([A-Za-z0-9_-]+)/", html)) == {key}
    first, second = (hidden(body(hosted.get(home, headers={"Accept-Encoding": "br"})).decode(), "csrf_token")
                     for _ in range(2))
    assert first != second  # masked per response
    match_id = import_match(hosted, case("seed001-ana-ben"), home)
    join = hosted.get(f"/t/{key}/matches/{match_id}/join", headers={"Accept-Encoding": "gzip, br"})
    assert join.status_code == 200 and "Content-Encoding" not in join.headers
    token = join.get_data(as_text=True).split("/view/")[1].split('"')[0]
    watched = hosted.get(f"/view/{token}", headers={"Accept-Encoding": "br"})
    assert watched.headers["Content-Encoding"] == "br" and key not in body(watched).decode()
    assert hosted.get("/static/style.css", headers={"Accept-Encoding": "br"}).headers["Content-Encoding"] == "br"


def test_a_hosted_servers_front_page_listing_the_tables_keys_is_never_compressed(tmp_path):
    hosted, home = hosted_table(tmp_path)
    key = home.split("/t/")[1].split("/")[0]
    hosted.get(home)
    front = hosted.get("/", headers={"Accept-Encoding": "gzip, br"})
    assert front.status_code == 200 and "Content-Encoding" not in front.headers
    assert f"/t/{key}/" in front.get_data(as_text=True)  # the table this browser opened
    assert hosted.get(f"/t/{'x' * 22}/", headers={"Accept-Encoding": "br"}).status_code == 404

