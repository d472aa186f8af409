"""A match as the players think of it: one rematch whoever taps, linked both ways; when it was played;
a name; abandoned and reopened; closed games read as won; the new-match form in the players' names."""
import re
import sqlite3
from datetime import date, datetime, timedelta, timezone

import pytest

from models.storage import schema
from views.site import i18n
from webutil import case, hidden, import_match, new_match
from models.errors import MatchNotOver, NoSuchMatch
from models.storage.connection import connect
from models.storage.matches import create_rematch, get_match

HOME = 1  # the one table of a home file: migration 0008 makes it with id 1

SINGLE_WON = {"format": "single", "players": ["Ana", "Ben"],
              "hands": [{"winner": "Ben", "points": 60}, {"winner": "Ben", "points": 45}]}


def csrf(client, url="/"):
    return hidden(client.get(url).get_data(as_text=True), "csrf_token")


def rematch(client, match_id, token=None):
    return client.post(f"/matches/{match_id}/rematch", data={"csrf_token": token or csrf(client, f"/matches/{match_id}")})


def stored_ids(app) -> list[int]:
    conn = connect(app.config["DATABASE"])
    try:
        return [row["id"] for row in conn.execute("SELECT id FROM match ORDER BY id")]
    finally:
        conn.close()


# ---- one rematch per match ---------------------------------------------------------

def test_two_taps_on_rematch_make_one_rematch_and_both_land_on_it(app, client):
    finished = import_match(client, case("full-hollywood-match"))
    other_phone = app.test_client()
    token_one, token_two = csrf(client, f"/matches/{finished}"), csrf(other_phone, f"/matches/{finished}")
    first, second = rematch(client, finished, token_one), rematch(other_phone, finished, token_two)
    again = rematch(client, finished, token_one)  # the same phone's double tap
    assert first.status_code == second.status_code == again.status_code == 302
    assert first.headers["Location"] == second.headers["Location"] == again.headers["Location"]
    assert stored_ids(app) == [finished, finished + 1]
    page = other_phone.get(second.headers["Location"]).get_data(as_text=True)
    assert "The rematch was already started: here it is." in page
    assert "Rematch: Ana vs Ben, same rules." in client.get(first.headers["Location"]).get_data(as_text=True)


def test_the_finished_match_and_its_rematch_link_to_each_other(client):
    finished = import_match(client, case("full-hollywood-match"))
    new_id = int(rematch(client, finished).headers["Location"].rsplit("/", 1)[1])
    old_page = client.get(f"/matches/{finished}").get_data(as_text=True)
    assert f'href="/matches/{new_id}">Go to the rematch</a>' in old_page
    assert "Rematch: started today" in old_page
    assert f'action="/matches/{finished}/rematch"' not in old_page  # the link, not a second button
    new_page = client.get(f"/matches/{new_id}").get_data(as_text=True)
    assert re.search(rf'<a href="/matches/{finished}">Rematch of the match started today \d{{1,2}}:\d{{2}}', new_page)


@pytest.mark.sqlite_only  # SQLite's own error type; PostgreSQL's UNIQUE index is the same migration's
def test_the_database_itself_refuses_a_second_rematch_of_one_match(app, client):
    finished = import_match(client, case("full-hollywood-match"))
    rematch(client, finished)
    conn = connect(app.config["DATABASE"])
    row = conn.execute("SELECT * FROM match WHERE rematch_of = ?", (finished,)).fetchone()
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("""INSERT INTO match (player1_id, player2_id, format, rules, first_dealer, created, view_token,
                        rematch_of) VALUES (?, ?, ?, ?, 0, 'now', 'another', ?)""",
                     (row["player1_id"], row["player2_id"], row["format"], row["rules"], finished))
    conn.close()


def test_a_match_being_played_has_no_rematch(app, client):
    playing = new_match(client)
    response = rematch(client, playing)
    assert response.headers["Location"] == f"/matches/{playing}"
    assert "This match is still being played." in client.get(response.headers["Location"]).get_data(as_text=True)
    assert stored_ids(app) == [playing]


def test_create_rematch_refuses_an_unfinished_match_by_type(app, client):
    playing = new_match(client)
    conn = connect(app.config["DATABASE"])
    with pytest.raises(MatchNotOver):
        create_rematch(conn, playing, table=HOME)
    with pytest.raises(NoSuchMatch):
        create_rematch(conn, 999, table=HOME)
    conn.close()


# ---- when it was played ---------------------------------------------------------------

def test_two_matches_of_the_same_players_differ_by_their_time(client):
    new_match(client)
    new_match(client)
    home = client.get("/").get_data(as_text=True)
    times = re.findall(r'<span class="meta">(today \d{1,2}:\d{2}(?:\u202f[AP]M)?) · Hollywood', home)
    assert len(times) == 2
    assert "hollywood" not in home


def test_the_time_is_said_as_the_language_says_it(app):
    now = datetime.now(timezone.utc)
    local = now.astimezone()
    stamp = now.isoformat(timespec="seconds")
    with app.test_request_context():
        assert i18n.played(stamp) == f"today {local:%I}:{local:%M}\u202f{local:%p}".replace("today 0", "today ")
        tomorrow = local.date() + timedelta(days=1)
        assert i18n.played(stamp, today=tomorrow) == i18n.played(stamp).replace("today", "yesterday")
        with i18n.forced("cs"):
            assert i18n.played(stamp) == f"dnes {local.hour}:{local:%M}"  # Czech writes 24 hours
            old = datetime(2026, 11, 29, 19, 14, tzinfo=timezone.utc)
            text = i18n.played(old.isoformat(), today=date(2027, 1, 5))
            assert text.startswith("29. 11. 2026 ") and re.search(r" \d{1,2}:\d{2}$", text)
        with i18n.forced("sq"):
            assert i18n.played(stamp).startswith("sot ")
        assert i18n.played(None) == ""


def test_signed_writes_a_minus_sign_and_a_plus(app):
    with app.test_request_context():
        assert [i18n.signed(n) for n in (-838, 0, 1234)] == ["\u2212838", "0", "+1,234"]


# ---- a name ---------------------------------------------------------------------------

def name(client, match_id, text):
    return client.post(f"/matches/{match_id}/name",
                       data={"csrf_token": csrf(client, f"/matches/{match_id}"), "name": text})


def test_a_match_can_be_named_and_the_name_taken_away(client):
    match_id = new_match(client)
    response = name(client, match_id, "  Friday at Eva's ")
    assert response.status_code == 302 and response.headers["Location"] == f"/matches/{match_id}"
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "This match is now called “Friday at Eva&#39;s”." in page
    assert "<title>Friday at Eva&#39;s (Ana vs Ben) · Gin Ledger</title>" in page
    assert 'value="Friday at Eva&#39;s"' in page  # the form shows the present name
    home = client.get("/").get_data(as_text=True)
    assert "<strong>Friday at Eva&#39;s</strong> <span class=\"players\">Ana vs Ben</span>" in home
    name(client, match_id, "")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "The name “Friday at Eva&#39;s” is removed." in page and "<title>Ana vs Ben · Gin Ledger</title>" in page


def test_a_name_too_long_is_refused_and_nothing_changes(client):
    match_id = new_match(client)
    response = name(client, match_id, "x" * 61)
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Not named:" in page and "x" * 61 not in page


def test_a_name_without_the_form_token_changes_nothing(client):
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/name", data={"name": "Sneaky"})
    assert "Sneaky" not in client.get(f"/matches/{match_id}").get_data(as_text=True)


# ---- abandoned and reopened ---------------------------------------------------------------

def set_aside(client, match_id, what="abandon"):
    return client.post(f"/matches/{match_id}/{what}", data={"csrf_token": csrf(client, f"/matches/{match_id}")})


def test_an_abandoned_match_leaves_the_lists_and_one_tap_reopens_it(client):
    kept, dropped = new_match(client), new_match(client, players=("Cleo", "Dan"))
    response = set_aside(client, dropped)
    assert response.headers["Location"] == "/"
    home = client.get("/").get_data(as_text=True)
    assert "Cleo vs Dan is set aside as abandoned" in home
    playing = home[home.index('id="playing"'):home.index('id="abandoned"')]
    assert f'href="/matches/{kept}"' in playing and f'href="/matches/{dropped}"' not in playing
    folded = home[home.index('id="abandoned"'):home.index("</details>", home.index('id="abandoned"'))]
    assert "Abandoned (1)" in folded and f'action="/matches/{dropped}/reopen"' in folded
    page = client.get(f"/matches/{dropped}").get_data(as_text=True)
    assert "Abandoned today" in page and "Reopen this match" in page and "Abandon this match" not in page
    response = client.post(f"/matches/{dropped}/reopen", data={"csrf_token": hidden(home, "csrf_token")})
    assert response.headers["Location"] == f"/matches/{dropped}"
    home = client.get("/").get_data(as_text=True)
    assert 'id="abandoned"' not in home and f'href="/matches/{dropped}"' in home


def test_a_finished_match_abandoned_leaves_the_finished_list(client):
    finished = import_match(client, case("full-hollywood-match"))
    set_aside(client, finished)
    home = client.get("/").get_data(as_text=True)
    assert 'id="done"' not in home and "Ana won 3–0, net 838" in home  # only in the folded list


# ---- the home rows ------------------------------------------------------------------------

def test_a_closed_game_reads_as_won_on_the_home_row(client):
    playing = import_match(client, case("seed001-ana-ben"))  # game 1 closed for Ana on hand 6
    home = client.get("/").get_data(as_text=True)
    row = home[home.index(f'href="/matches/{playing}"'):]
    row = row[:row.index("</li>")]
    assert "closed" not in row
    assert '<span class="sr">Game 1 won by Ana: </span><span aria-hidden="true">✓</span> 108–62' in row
    assert '<span class="sr">Game 2: </span>90–40' in row


def test_a_single_game_is_won_not_won_one_nil(client):
    match_id = import_match(client, SINGLE_WON)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert '<h2 id="result">Ben wins the game</h2>' in page
    assert "Net: Ana \u2212510 · Ben +510" in page
    assert "Ben won the game, net 510" in client.get("/").get_data(as_text=True)


# ---- the new-match form and the rules panel ------------------------------------------------------

def test_the_first_dealer_is_offered_by_the_names_typed(client):
    page = client.get("/matches/new").get_data(as_text=True)
    assert "the first name above</span>" in page and "the second name above</span>" in page
    assert "First player</label>" in page  # the inputs' own labels stay
    refused = client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ana"],
                                                "format": "hollywood", "preset": "classic"})
    assert refused.status_code == 400
    text = refused.get_data(as_text=True)
    assert 'value="1" > <span data-name-of="player1" data-unnamed="the first name above">Ana</span>' in text
    assert '<script src="/static/names.js?v=' in page


def test_a_saved_preset_is_described_by_its_own_settings(client):
    page = client.get("/matches/new").get_data(as_text=True)
    client.post("/matches/new", data={"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ben"],
                                      "format": "hollywood", "preset": "modern", "first_dealer": "1",
                                      "target": "150", "dealer_rule": "loser", "save_as": "Eva's"})
    page = client.get("/matches/new").get_data(as_text=True)
    assert "<small>every bonus 25: gin 25, undercut 25, box 25</small>" in page  # Modern, with what it is
    assert "<small>gin 25, undercut 25, box 25, to 150, the loser deals</small>" in page  # the table's own


def test_the_rules_panel_says_how_the_deal_alternates(client):
    match_id = import_match(client, case("dealer-alternates"))
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "the players take turns; after a draw the same dealer" in page and "the alternates" not in page


# ---- the migration ---------------------------------------------------------------------------

def test_a_file_from_before_0006_upgrades_with_its_matches(tmp_path):
    from app import create_app
    path = tmp_path / "v5.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    for script in schema.migrations()[:5]:
        for statement in schema.split_statements(script):
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 5")
    conn.execute("INSERT INTO player (name, created) VALUES ('Ana', 'then'), ('Ben', 'then')")
    conn.execute("""INSERT INTO match (player1_id, player2_id, format, rules, first_dealer, created, view_token)
                    VALUES (1, 2, 'hollywood', '{}', 0, '2026-11-29T19:14:00+00:00', 'tok')""")
    conn.execute("COMMIT")
    conn.close()
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "t"})
    conn = connect(str(path))
    stored = get_match(conn, 1, table=HOME)
    assert (stored.name, stored.abandoned, stored.rematch_of, stored.rematch) == (None, None, None, None)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.known_version() >= 6
    conn.close()
    client = app.test_client()
    assert "Ana vs Ben" in client.get("/").get_data(as_text=True)
    name(client, 1, "Old times")
    assert "Old times" in client.get("/").get_data(as_text=True)
