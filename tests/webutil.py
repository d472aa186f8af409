"""Helpers for driving the app through its forms as a browser would."""
import json
import re
from html import unescape
from urllib.parse import urlsplit

from casefiles import case  # noqa: F401  (the helpers below and the tests use it)


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'value="([^"]*)"[^>]*name="{name}"', html)
    assert match, f"no hidden field {name}"
    return unescape(match.group(1))


def hosted_app(tmp_path, **config):
    """The app as a public host runs it (FLASK_HOSTED=1), on a database in `tmp_path`."""
    from app import create_app

    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "ledger.sqlite"), "SECRET_KEY": "k",
                       "HOSTED": True, "TABLE_STARTS_PER_MINUTE": 50, **config},
                      instance_path=str(tmp_path / "instance"))


def start_table(client, name: str) -> str:
    """Start a table on a hosted server's front page; returns its address, /t/<key>/."""
    page = client.get("/").get_data(as_text=True)
    answer = client.post("/tables", data={"csrf_token": hidden(page, "csrf_token"), "table_name": name})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    return urlsplit(answer.headers["Location"]).path


def import_match(client, doc: dict, table: str = "/") -> int:
    """Import through the home page's form (of the hosted `table`, /t/<key>/); returns the new match's id."""
    page = client.get(table).get_data(as_text=True)
    response = client.post(f"{table}import", data={"csrf_token": hidden(page, "csrf_token"), "text": json.dumps(doc)})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def new_match(client, players=("Ana", "Ben"), **fields) -> int:
    page = client.get("/matches/new").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "players": list(players), "format": "hollywood",
            "preset": "classic", "first_dealer": "1", **fields}
    response = client.post("/matches/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def post_hand(client, match_id: int, **fields):
    """Post a hand as the match page's form does (fresh page, its token and form id)."""
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), **fields}
    return client.post(f"/matches/{match_id}/hands", data=data)


def export(client, match_id: int) -> dict:
    return json.loads(client.get(f"/matches/{match_id}.json").get_data(as_text=True))


def hand_count(client, match_id: int) -> int:
    """How many hands the match file says are stored."""
    return len(export(client, match_id)["hands"])


def version_now(conn, match_id: int) -> int:
    """The match's version as its row says, read past every cache."""
    return conn.execute("SELECT version FROM match WHERE id = ?", (match_id,)).fetchone()["version"]


def epoch_of(conn) -> str:
    """The database's epoch as its row says."""
    return conn.execute("SELECT value FROM epoch WHERE id = 1").fetchone()["value"]
