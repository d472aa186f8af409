"""A backup restored over the running file: nothing kept from the file it replaced is handed out
for it (the finding: versions go back, so a page kept by version showed the old row under the
message of the new hand, and a second server stepped its kept sheet into hands not in the file).

The file's epoch changes whenever a server meets another file under its path (models/storage/connection.py),
and every kept thing is keyed by it beside the match's version."""
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from server import Server
from webutil import case, export, hidden, import_match, post_hand

from app import create_app
import pytest

ROOT = Path(__file__).resolve().parents[1]
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
    assert "Hand 7: Ben knocks, 1 against 40. Ben scores 39" in shown and BEN_ROW in shown
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


@pytest.mark.slow
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


# ---- flask restore: the backup put back in place, the inode kept, while the app serves the file ----

def test_flask_restore_puts_the_backup_back_under_the_running_app_and_no_kept_page_outlives_it(app, client, runner,
                                                                                               tmp_path):
    """In place (SQLite's online backup API the other way), so views/site/db.py sees the same file: the new epoch
    comes with the restored contents, and the hand saved after it is the one shown, on the page and the live
    fragment, to a follower at the version it had too."""
    path = app.config["DATABASE"]
    match_id = import_match(client, case("seed001-ana-ben"))
    page = f"/matches/{match_id}"
    backup = tmp_path / "backup.sqlite"
    assert runner.invoke(args=["backup", str(backup)]).exit_code == 0
    assert post_hand(client, match_id, **KNOCK_ANA).status_code == 302
    assert ANA_ROW in client.get(page).get_data(as_text=True)
    followed = client.get(f"{page}/live")
    inode = os.stat(path).st_ino
    done = runner.invoke(args=["restore", str(backup)])
    assert done.exit_code == 0 and done.output == f"Restored {backup}: the database holds 6 hands now\n"
    assert os.stat(path).st_ino == inode  # in place: the running app cannot tell by the file
    assert len(export(client, match_id)["hands"]) == 6 and ANA_ROW not in client.get(page).get_data(as_text=True)
    saved = post_hand(client, match_id, **KNOCK_BEN)  # hand 7 again, at the version the kept pages had
    shown = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Hand 7: Ben knocks, 1 against 40. Ben scores 39" in shown and BEN_ROW in shown and ANA_ROW not in shown
    assert export(client, match_id)["hands"][-1] == {"knocker": "Ben", "knocker_deadwood": 1, "opponent_deadwood": 40}
    polled = client.get(f"{page}/live", headers={"If-None-Match": followed.headers["ETag"]})
    assert polled.status_code == 200 and BEN_ROW in polled.get_data(as_text=True)
    assert ANA_ROW not in polled.get_data(as_text=True)
    assert not [name for name in os.listdir(os.path.dirname(path)) if ".restoring-" in name]


@pytest.mark.slow
def test_a_server_serving_the_file_shows_what_flask_restore_put_back(tmp_path):
    """A waitress server keeps its connections open through the restore; a phone following at the version
    the restored file repeats is sent the restored match, not "nothing new"."""
    path = tmp_path / "ledger.sqlite"
    with Server(path) as server:
        phone = server.client()
        match_id = phone.import_match(case("seed001-ana-ben"))
        backup = tmp_path / "backup.sqlite"
        take_backup(str(path), backup)
        assert phone.post_hand(match_id, **KNOCK_ANA).status == 302
        assert ANA_ROW in phone.get(f"/matches/{match_id}").body
        env = {**os.environ, "FLASK_DATABASE": str(path), "FLASK_SECRET_KEY": "k"}
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "restore", str(backup)], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert phone.post_hand(match_id, **KNOCK_BEN).status == 302  # hand 7 again
        page = phone.get(f"/matches/{match_id}").body
        assert BEN_ROW in page and ANA_ROW not in page
        assert phone.export(match_id)["hands"][-1] == {"knocker": "Ben", "knocker_deadwood": 1, "opponent_deadwood": 40}


@pytest.mark.parametrize("kind", ["not sqlite", "another program's database", "a newer gin ledger's"])
def test_flask_restore_refuses_what_is_not_a_backup_and_changes_nothing(app, client, runner, tmp_path, kind):
    match_id = import_match(client, case("seed001-ana-ben"))
    before = export(client, match_id)
    given = tmp_path / "given.sqlite"
    if kind == "not sqlite":
        given.write_text("hands: 7\n")
    else:
        take_backup(app.config["DATABASE"], given)
        conn = sqlite3.connect(given)
        conn.execute("PRAGMA user_version = 0" if kind == "another program's database" else "PRAGMA user_version = 999")
        conn.close()
    done = runner.invoke(args=["restore", str(given)])
    assert done.exit_code == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith("restore: ") and done.stderr.endswith("; nothing was restored\n")
    if kind == "another program's database":
        assert done.stderr == f"restore: {given} is not a Gin Ledger database; nothing was restored\n"
    if kind == "a newer gin ledger's":
        assert "newer Gin Ledger" in done.stderr
    assert export(client, match_id) == before
    assert not [name for name in os.listdir(os.path.dirname(app.config["DATABASE"])) if ".restoring-" in name]
