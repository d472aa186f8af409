"""A write parses what the player sent inside its unit of work, against the match it holds locked: a
rename or merge committed after the page's read and before the write is never a 500."""
from contextlib import closing

import pytest

import views.match.hands
from models.storage.connection import connect
from models.storage.players import merge_players, rename_player
from webutil import export, hidden, new_match

HOME = 1
KNOCK_ANA = {"knocker": "Ana", "knocker_deadwood": "3", "opponent_deadwood": "21"}


def renamed_between(app, monkeypatch, change):
    """The view reads the match, then another phone's change commits, then the view writes."""
    read = views.match.hands.match_or_404

    def read_then_change(match_id):
        stored = read(match_id)
        with closing(connect(app.config["DATABASE"])) as other:
            change(other)
        return stored

    monkeypatch.setattr(views.match.hands, "match_or_404", read_then_change)


def form_of(client, match_id: int, **fields) -> dict:
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    return {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), **fields}


@pytest.mark.parametrize("change", ["rename", "merge"])
def test_a_hand_posted_across_a_rename_is_refused_by_name_never_a_500(app, client, monkeypatch, change):
    match_id = new_match(client, ("Ana", "Ben"))
    if change == "merge":
        new_match(client, ("Anna", "Ben"))
    data = form_of(client, match_id, **KNOCK_ANA)
    renamed_between(app, monkeypatch, (lambda conn: rename_player(conn, "Ana", "Anna", table=HOME))
                    if change == "rename" else (lambda conn: merge_players(conn, "Anna", "Ana", table=HOME)))
    answer = client.post(f"/matches/{match_id}/hands", data=data)
    assert answer.status_code == 400
    assert "Ana" in answer.get_data(as_text=True)  # the sentence names what it could not place
    monkeypatch.undo()
    assert export(client, match_id)["players"] == ["Anna", "Ben"] and export(client, match_id)["hands"] == []


def test_a_hand_edited_across_a_rename_is_refused_by_name_never_a_500(app, client, monkeypatch):
    match_id = new_match(client, ("Ana", "Ben"))
    first = form_of(client, match_id, **KNOCK_ANA)
    assert client.post(f"/matches/{match_id}/hands", data=first).status_code == 302
    page = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "version": hidden(page, "version"),
            "knocker": "Ana", "knocker_deadwood": "5", "opponent_deadwood": "21"}
    renamed_between(app, monkeypatch, lambda conn: rename_player(conn, "Ana", "Anna", table=HOME))
    answer = client.post(f"/matches/{match_id}/hands/1", data=data)
    assert answer.status_code in (302, 400)  # the page was drawn before the rename: stale, or refused by name
    monkeypatch.undo()
    assert export(client, match_id)["hands"] == [{"knocker": "Anna", "knocker_deadwood": 3, "opponent_deadwood": 21}]


def test_a_new_match_saving_its_rules_as_a_preset_is_one_unit_of_work(app, client, monkeypatch):
    import models.storage.work

    taken = []
    lock = models.storage.work.immediate

    def counted(*args, **kwargs):
        taken.append(args[1:])
        return lock(*args, **kwargs)

    monkeypatch.setattr(models.storage.work, "immediate", counted)
    match_id = new_match(client, preset="modern", target="150", save_as="Club")
    assert len(taken) == 1
    monkeypatch.undo()
    assert "Club" in client.get("/matches/new").get_data(as_text=True)
    assert export(client, match_id)["rules"]["target"] == 150
