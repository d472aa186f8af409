"""Text responses go out gzipped to a client that asks, unchanged to one that does not."""
import gzip

from webutil import case, import_match


def test_pages_and_static_files_are_gzipped_when_asked(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    client.get("/")  # take the import's flash message
    for url in ["/", f"/matches/{match_id}", "/static/style.css", "/static/app.js", f"/matches/{match_id}.json"]:
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert "Content-Encoding" not in plain.headers, url
        assert packed.headers["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert len(packed.data) < len(plain.data) / 2, url
        unpacked = gzip.decompress(packed.data)
        if url.endswith((".css", ".js", ".json")):
            assert unpacked == plain.data, url
        else:  # pages differ only in their signed CSRF token
            assert len(unpacked) == len(plain.data) and unpacked.rstrip().endswith(b"</html>"), url


def test_a_gzipped_static_file_still_revalidates_to_304(client):
    first = client.get("/static/style.css", headers={"Accept-Encoding": "gzip"})
    again = client.get("/static/style.css", headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_small_answers_are_left_alone(client):
    match_id = import_match(client, case("seed001-ana-ben"))
    tag = client.get(f"/matches/{match_id}/live").headers["ETag"]
    assert client.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag,
                                                            "Accept-Encoding": "gzip"}).status_code == 304
