"""A long match's pages draw only its last hands; the whole sheet, one tap away, draws every one.

The rows come from the one fold (models/game/ledger.score_sheet via StoredMatch.sheet()); only which
rows are drawn changes, so every number here is checked against score_sheet itself.
"""
from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest

from app import create_app
from models.game.ledger import score_sheet
from models.files.matchfile import load_match
from tests.generate import long_match
from views.match import sheet as common
from views.match.sheet import SHOWN_HANDS
from webutil import hidden, import_match

LONG = 1000
HAND_ROW = re.compile(r'<tr id="hand-(\d+)" class="hand[^"]*">\s*<th scope="row" class="num">(.*?)</th>(.*?)'
                      r'<td class="note">', re.S)
CELL = re.compile(r"<td[^>]*>(\d*)</td>")
FOLD = re.compile(r'<tr class="folded noprint"><td colspan="\d+"><a href="([^"]+)">([^<]+)</a></td></tr>')
FOLD_NOTE = re.compile(r'<p class="print-only fold-note">([^<]+)</p>')


def hand_rows(html: str) -> list[tuple[int, str, list[str]]]:
    """(number, the number cell's HTML, the score cells) of every hand row drawn."""
    return [(int(number), head, CELL.findall(cells)) for number, head, cells in HAND_ROW.findall(html)]


def totals(html: str) -> list[list[str]]:
    """The sheet's Σ and ▫ lines, cell by cell."""
    foot = html.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    return [CELL.findall(line) for line in foot.split("</tr>")[:2]]


def expected_cells(doc: dict) -> dict[int, list[str]]:
    """Each hand's score cells as the engine's fold says them: the winner's running total in each game it went to."""
    sheet = score_sheet(load_match(json.dumps(doc)))
    columns = [(game.number, name) for game in sheet.games for name in sheet.players]
    return {line.number: [str(line.totals[number]) if name == line.outcome.winner and number in line.totals else ""
                          for number, name in columns] for line in sheet.lines}


def expected_totals(doc: dict) -> list[list[str]]:
    sheet = score_sheet(load_match(json.dumps(doc)))
    return [[str(getattr(game, part)[name]) for game in sheet.games for name in sheet.players]
            for part in ("scores", "boxes")]


@pytest.fixture(scope="module")
def long_app():
    """One app for the read-only checks, with a 1,000-hand match and a 12-hand one imported once."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": str(Path(folder) / "db.sqlite"), "SECRET_KEY": "test"})
        client = app.test_client()
        docs = {"long": long_match(LONG), "short": long_match(12, seed=12)}
        ids = {name: import_match(client, doc) for name, doc in docs.items()}
        token = re.search(r"/view/([\w-]+)", client.get(f"/matches/{ids['long']}/join").get_data(as_text=True)).group(1)
        yield {"client": client, "docs": docs, "ids": ids, "token": token}


def get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def test_the_window_shows_every_ordinary_match_whole():
    """40: a Hollywood match to 100 takes 10 to 30 hands."""
    assert 30 < SHOWN_HANDS <= 60


def test_a_long_match_page_draws_its_last_hands_and_links_the_whole_sheet(long_app):
    client, match_id = long_app["client"], long_app["ids"]["long"]
    page = get(client, f"/matches/{match_id}")
    rows = hand_rows(page)
    assert [number for number, _, _ in rows] == list(range(LONG - SHOWN_HANDS + 1, LONG + 1))
    assert page.count('<tr id="hand-') == SHOWN_HANDS
    folds = FOLD.findall(page)
    assert folds == [(f"/matches/{match_id}/sheet", f"Hands 1–{LONG - SHOWN_HANDS} are on the whole sheet")]
    # The fold line comes first in the body, above the oldest hand shown.
    body = page.split("<tbody>", 1)[1]
    assert body.index('class="folded') < body.index(f'id="hand-{LONG - SHOWN_HANDS + 1}"')
    # Printed, the page says what it shows and where every hand is: an address another phone can open
    # (views/tables/qr.table_url: this machine's network address rather than a loopback one, as the join page's).
    [note] = FOLD_NOTE.findall(page)
    assert re.fullmatch(rf"This printout shows the last {SHOWN_HANDS} hands; the whole sheet, every hand, "
                        rf"is at http://[\w.:-]+/matches/{match_id}/sheet", note), note
    # Each row's number still opens its edit page.
    assert all(f'href="/matches/{match_id}/hands/{number}"' in head for number, head, _ in rows)
    assert f'<tr id="hand-{LONG}" class="hand">' in page


def test_a_short_match_page_draws_every_hand_and_no_fold(long_app):
    client, match_id = long_app["client"], long_app["ids"]["short"]
    page = get(client, f"/matches/{match_id}")
    assert [number for number, _, _ in hand_rows(page)] == list(range(1, 13))
    assert not FOLD.findall(page) and not FOLD_NOTE.findall(page)
    assert 'class="folded' not in page and "whole sheet" not in page


def test_the_whole_sheet_draws_every_hand_with_its_edit_link(long_app):
    client, match_id = long_app["client"], long_app["ids"]["long"]
    sheet = get(client, f"/matches/{match_id}/sheet")
    rows = hand_rows(sheet)
    assert [number for number, _, _ in rows] == list(range(1, LONG + 1))
    assert all(f'href="/matches/{match_id}/hands/{number}"' in head for number, head, _ in rows)
    assert not FOLD.findall(sheet) and not FOLD_NOTE.findall(sheet)
    assert '<h1 class="match-title">The whole sheet</h1>' in sheet and f"All {LONG:,} hands." in sheet
    assert f'href="/matches/{match_id}"' in sheet  # back to the match


def test_the_rows_drawn_are_the_folds_own(long_app):
    """Every cell drawn, on the page and on the whole sheet, is the engine's fold of the same hands."""
    client, ids, docs = long_app["client"], long_app["ids"], long_app["docs"]
    for name in ("long", "short"):
        wanted = expected_cells(docs[name])
        for url in (f"/matches/{ids[name]}", f"/matches/{ids[name]}/sheet"):
            drawn = {number: cells for number, _, cells in hand_rows(get(client, url))}
            assert drawn == {number: wanted[number] for number in drawn}, url
    assert len(wanted) == 12


def test_the_totals_and_the_settlements_are_the_same_on_the_page_and_the_whole_sheet(long_app):
    client, match_id, doc = long_app["client"], long_app["ids"]["long"], long_app["docs"]["long"]
    page, sheet = get(client, f"/matches/{match_id}"), get(client, f"/matches/{match_id}/sheet")
    assert totals(page) == totals(sheet) == expected_totals(doc)
    after = [html.split("</tfoot>", 1)[1].split("</section>", 1)[0] for html in (page, sheet)]
    assert after[0] == after[1]  # the legend, the next dealer, the settlements


def test_the_spectator_sees_the_same_window_and_its_own_whole_sheet(long_app):
    client, token, doc = long_app["client"], long_app["token"], long_app["docs"]["long"]
    spectator = client.application.test_client()  # no session of the table's
    page = get(spectator, f"/view/{token}")
    rows = hand_rows(page)
    assert [number for number, _, _ in rows] == list(range(LONG - SHOWN_HANDS + 1, LONG + 1))
    assert FOLD.findall(page) == [(f"/view/{token}/sheet", f"Hands 1–{LONG - SHOWN_HANDS} are on the whole sheet")]
    sheet = get(spectator, f"/view/{token}/sheet")
    every = hand_rows(sheet)
    assert [number for number, _, _ in every] == list(range(1, LONG + 1))
    assert all("<a" not in head for _, head, _ in rows + every)  # no edit links for a spectator
    assert "/matches" not in sheet and "<form" not in sheet
    assert f'href="/view/{token}"' in sheet
    assert totals(page) == totals(sheet) == expected_totals(doc)
    wanted = expected_cells(doc)
    assert {number: cells for number, _, cells in every} == wanted


def test_the_live_fragments_draw_the_same_window(long_app):
    client, match_id, token = long_app["client"], long_app["ids"]["long"], long_app["token"]
    for url, whole in ((f"/matches/{match_id}/live", f"/matches/{match_id}/sheet"),
                       (f"/view/{token}/live", f"/view/{token}/sheet")):
        fragment = get(client, url)
        assert [number for number, _, _ in hand_rows(fragment)] == list(range(LONG - SHOWN_HANDS + 1, LONG + 1))
        assert [href for href, _ in FOLD.findall(fragment)] == [whole]


def test_a_page_builds_rows_only_for_the_hands_it_draws(long_app, monkeypatch):
    """The cost of the page must not grow with the match: a Row is made per row drawn, no more."""
    client, ids, token = long_app["client"], long_app["ids"], long_app["token"]
    made = []
    real = common.Row

    def counted(line, *rest):
        made.append(line.number)
        return real(line, *rest)

    monkeypatch.setattr(common, "Row", counted)
    window = list(range(LONG - SHOWN_HANDS + 1, LONG + 1))
    # An app of its own on the same file, so no page is found kept from an earlier test.
    client = create_app({"TESTING": True, "DATABASE": client.application.config["DATABASE"],
                         "SECRET_KEY": "test"}).test_client()
    built = {}
    for url in (f"/matches/{ids['long']}", f"/matches/{ids['long']}/live", f"/view/{token}",
                f"/view/{token}/live", f"/matches/{ids['long']}/big", f"/view/{token}/big"):
        made.clear()
        get(client, url)
        built[url] = list(made)
    # A page that draws the rows builds the window's; one that draws none (the big screen) builds
    # none; none builds a row it does not draw.
    assert all(rows in ([], window) for rows in built.values()), built
    assert built[f"/view/{token}/live"] == built[f"/matches/{ids['long']}"] == window
    made.clear()
    get(client, f"/matches/{ids['long']}/sheet")
    assert len(made) == LONG


def test_sheet_rows_of_a_window_are_the_whole_rows_tail():
    sheet = score_sheet(load_match(json.dumps(long_match(90, seed=3))))
    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "test"})
    with app.test_request_context("/"):
        def drawn(rows):
            return [(row.line, row.cells, row.note, row.closes, row.edit_label) for row in rows]

        assert drawn(common.sheet_rows(sheet, 50)) == drawn(common.sheet_rows(sheet)[50:])
        assert common.first_shown(sheet) == 90 - SHOWN_HANDS and common.first_shown(sheet, whole=True) == 0


@pytest.mark.parametrize("count, fold", [(SHOWN_HANDS, None), (SHOWN_HANDS + 1, "Hand 1 is on the whole sheet"),
                                         (SHOWN_HANDS + 2, "Hands 1–2 are on the whole sheet")])
def test_the_fold_starts_after_the_window(client, count, fold):
    match_id = import_match(client, long_match(count, seed=count))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert page.count('<tr id="hand-') == SHOWN_HANDS
    assert [text for _, text in FOLD.findall(page)] == ([fold] if fold else [])


def edit(client, match_id: int, number: int, **fields):
    page = client.get(f"/matches/{match_id}/hands/{number}").get_data(as_text=True)
    return client.post(f"/matches/{match_id}/hands/{number}", data={
        "csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"), **fields})


def test_an_edited_hand_is_shown_where_its_row_is(client):
    """A hand the page folds away is found on the whole sheet after its edit; a shown one on the page."""
    count = SHOWN_HANDS + 20
    match_id = import_match(client, long_match(count, seed=5))
    old = edit(client, match_id, 3, winner="Ben", points="7")
    assert old.status_code == 302
    assert old.headers["Location"] == f"/matches/{match_id}/sheet#hand-3"
    sheet = client.get(old.headers["Location"]).get_data(as_text=True)
    assert 'id="hand-3"' in sheet and "Hand 3 changed; the sheet is recomputed." in sheet
    recent = edit(client, match_id, count - 1, winner="Ana", points="9")
    assert recent.headers["Location"] == f"/matches/{match_id}#hand-{count - 1}"
    assert f'id="hand-{count - 1}"' in client.get(recent.headers["Location"]).get_data(as_text=True)
    first_shown = count - SHOWN_HANDS + 1
    assert edit(client, match_id, first_shown, draw="true").headers["Location"].endswith(f"#hand-{first_shown}")
    assert "/sheet" not in edit(client, match_id, first_shown, draw="true").headers["Location"]
    assert "/sheet#" in edit(client, match_id, first_shown - 1, draw="true").headers["Location"]


def test_a_hand_inserted_among_the_folded_ones_is_shown_on_the_whole_sheet(client):
    match_id = import_match(client, long_match(SHOWN_HANDS + 5, seed=7))
    page = client.get(f"/matches/{match_id}/hands/new?before=2").get_data(as_text=True)
    answer = client.post(f"/matches/{match_id}/hands/insert", data={
        "csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
        "version": hidden(page, "version"), "before": "2", "draw": "true"})
    assert answer.status_code == 302 and answer.headers["Location"] == f"/matches/{match_id}/sheet#told"


def test_a_hosted_table_keeps_the_fold_and_the_whole_sheet_under_its_address(tmp_path):
    app = create_app({"TESTING": True, "HOSTED": 1, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "test"})
    client = app.test_client()
    front = client.get("/").get_data(as_text=True)
    table = client.post("/tables", data={"csrf_token": hidden(front, "csrf_token"), "table_name": "Club"})
    assert table.status_code == 303
    base = re.search(r"/t/[\w-]+/", table.headers["Location"]).group(0)
    home = client.get(base).get_data(as_text=True)
    imported = client.post(base + "import", data={"csrf_token": hidden(home, "csrf_token"),
                                                  "text": json.dumps(long_match(SHOWN_HANDS + 10))})
    assert imported.status_code == 302
    match_id = int(imported.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"{base}matches/{match_id}").get_data(as_text=True)
    assert [href for href, _ in FOLD.findall(page)] == [f"{base}matches/{match_id}/sheet"]
    assert FOLD_NOTE.findall(page)[0].endswith(f"{base}matches/{match_id}/sheet")
    sheet = client.get(f"{base}matches/{match_id}/sheet").get_data(as_text=True)
    assert len(hand_rows(sheet)) == SHOWN_HANDS + 10
    assert f'href="{base}matches/{match_id}/hands/1"' in sheet
    assert client.get(f"/matches/{match_id}/sheet").status_code == 404  # only under the table's address
    token = re.search(r"/view/([\w-]+)", client.get(f"{base}matches/{match_id}/join").get_data(as_text=True)).group(1)
    spectator = app.test_client()
    watched = spectator.get(f"/view/{token}").get_data(as_text=True)
    assert [href for href, _ in FOLD.findall(watched)] == [f"/view/{token}/sheet"]
    whole = spectator.get(f"/view/{token}/sheet").get_data(as_text=True)
    assert len(hand_rows(whole)) == SHOWN_HANDS + 10 and base not in whole


def test_the_printed_line_names_the_host_each_phone_came_by(long_app):
    """Two phones reaching the server by two names each print the address they can open."""
    client, match_id = long_app["client"], long_app["ids"]["long"]
    for host in ("gin.example.org", "10.0.0.7:5000", "gin.example.org"):
        page = client.get(f"/matches/{match_id}", headers={"Host": host}).get_data(as_text=True)
        assert FOLD_NOTE.findall(page)[0].endswith(f"is at http://{host}/matches/{match_id}/sheet"), (host, page[:200])


def test_a_long_target_is_written_as_the_language_writes_numbers(long_app):
    """A match to 1,000,000 (the generated long ones) says so with its separators, not '1000000'."""
    page = get(long_app["client"], f"/matches/{long_app['ids']['long']}")
    assert "The race to 1,000,000" in page and "to 1,000,000</p>" in page
    assert "1000000" not in re.sub(r'data-most="\d+"', "", page)  # the pad's bound is for the script, not read
