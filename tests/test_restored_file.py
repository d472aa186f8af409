"""A backup restored over the running file: nothing kept from the file it replaced is handed out
for it (the finding: versions go back, so a page kept by version showed the old row under the
message of the new hand, and a second server stepped its kept sheet into hands not in the file).

The file's epoch changes whenever a server meets another file under its path (models/connection.py),
and every kept thing is keyed by it beside the match's version."""
import os
import shutil
import sqlite3

from server import Server
from webutil import case, export, hidden, import_match, post_hand

from app import create_app
import pytest

pytestmark = pytest.mark.sqlite_only  # a SQLite file restored over the running one (PostgreSQL: tests/test_postgres.py)

KNOCK_ANA = {"knocker": "Ana", "knocker_deadwood": "3", "opponent_deadwood": "21"}  # Ana scores 18
KNOCK_BEN = {"knocker": "Ben", "knocker_deadwood": "1", "opponent_deadwood": "40"}  # Ben scores 39
ANA_ROW, BEN_ROW = "knock 18 →", "knock 39 →"  # how the sheet's row notes say them


def take_backup(path: str, target) -> None:
    source = sqlite3.connect(path)
    with sqlite3.connect(target) as copy:
        source.backup(copy)
    source.close()


def restore(backup, path: str) -> None:
    """As an operator restores: the old log and index go, the copy is moved into place."""
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)
    shutil.copy(backup, path + ".new")
    os.replace(path + ".new", path)


def test_one_server_after_a_restore_shows_the_hand_saved_not_the_one_restored_away(app, client, tmp_path):
    match_id = import_match(client, case("seed001-ana-ben"))
    page = f"/matches/{match_id}"
    client.get(page)
    backup = tmp_path / "backup.sqlite"
    take_backup(app.config["DATABASE"], backup)
    assert post_hand(client, match_id, **KNOCK_ANA).status_code == 302
    kept = client.get(page).get_data(as_text=True)
    assert ANA_ROW in kept and client.get(f"{page}/live").status_code == 200
    restore(backup, app.config["DATABASE"])
    # The same version number again, with another hand: the answer shows this hand, not the kept one.
    saved = post_hand(client, match_id, **KNOCK_BEN)
    assert saved.status_code == 302
    shown = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Hand 7: Ben scores 39" in shown and BEN_ROW in shown
    assert ANA_ROW not in shown
    assert export(client, match_id)["hands"][-1] == {"knocker": "Ben", "knocker_deadwood": 1, "opponent_deadwood": 40}
    assert ANA_ROW not in client.get(f"{page}/live").get_data(as_text=True)


def test_a_follower_is_told_of_a_restore_even_at_the_version_it_had(app, client, tmp_path):
    match_id = import_match(client, case("seed001-ana-ben"))
    backup = tmp_path / "backup.sqlite"
    take_backup(app.config["DATABASE"], backup)
    post_hand(client, match_id, **KNOCK_ANA)
    followed = client.get(f"/matches/{match_id}/live")
    restore(backup, app.config["DATABASE"])
    post_hand(client, match_id, **KNOCK_BEN)  # the version number the follower has, other contents
    polled = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": followed.headers["ETag"]})
    assert polled.status_code == 200 and BEN_ROW in polled.get_data(as_text=True)


def test_two_servers_on_one_file_serve_only_what_is_in_the_file_after_a_restore(tmp_path):
    """Each server meets the restored file on its own; neither steps a kept sheet into hands not in it."""
    path = str(tmp_path / "ledger.sqlite")
    create_app({"DATABASE": path, "SECRET_KEY": "k"}, instance_path=str(tmp_path / "instance"))
    with Server(path) as one, Server(path) as two:
        ana, ben = one.client(), two.client()
        match_id = ana.import_match(case("seed001-ana-ben"))
        for phone in (ana, ben):
            phone.get(f"/matches/{match_id}")
        backup = tmp_path / "backup.sqlite"
        take_backup(path, backup)
        assert ana.post_hand(match_id, **KNOCK_ANA).status == 302
        for phone in (ana, ben):  # both keep the match with hand 7 (Ana's)
            assert ANA_ROW in phone.get(f"/matches/{match_id}").body
        restore(backup, path)
        assert ben.post_hand(match_id, **KNOCK_BEN).status == 302  # server two saves hand 7 again
        assert ana.post_hand(match_id, **{"winner": "Ana", "points": "5"}).status == 302  # server one, hand 8
        conn = sqlite3.connect(path)
        stored = conn.execute("SELECT COUNT(*) FROM hand WHERE deleted IS NULL").fetchone()[0]
        conn.close()
        for phone in (ana, ben):
            doc = phone.export(match_id)
            assert len(doc["hands"]) == stored == 8
            assert doc["hands"][6] == {"knocker": "Ben", "knocker_deadwood": 1, "opponent_deadwood": 40}
            assert doc["hands"][7] == {"winner": "Ana", "points": 5}
            page = phone.get(f"/matches/{match_id}").body
            assert ANA_ROW not in page and BEN_ROW in page and 'id="hand-8"' in page
