"""A deal comes back where it was played, and "before hand N" means the N the sheet shows.

Every hand keeps its place among the deals around it (models/storage/hand_rows.py): a delete only marks it,
an insert takes a free place, a restore takes the mark away. The findings these tests hold:
- delete hand 5, insert a hand before hand 2, restore hand 5: it came back one place early;
- undo, redo, undo: two "Restore hand N", and both stored the deal;
- after a delete, "before hand 4" stored the hand as hand 3, and an insert that ended the match
  early was stored and made every page of the table answer 500.
"""
import random
from html import unescape

import pytest
from test_hand_history import delete, form_with, insert, version_of
from webutil import export, hidden, import_match
from models.errors import MatchError
from models.storage.connection import connect
from models.storage.ledger_file import open_ledger
from models.storage.hand_writes import delete_hand, insert_hand_before, restore_hand
from models.storage.matches import create_match, get_match


HOME = 1


def typed(points: list[tuple[str, int]], players=("Ana", "Ben")) -> dict:
    return {"players": list(players), "rules": {}, "first_dealer": players[0],
            "hands": [{"winner": w, "points": p} for w, p in points]}


def hands_of(client, match_id: int) -> list:
    return [(h["winner"], h["points"]) for h in export(client, match_id)["hands"]]


def restore_from_history(client, match_id: int, number: int, confirmed: bool = False):
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    action, data = form_with(page, f"Restore hand {number}")
    if confirmed:
        data["confirmed"] = "yes"
    return client.post(action, data=data)


SIX = [("Ana", 11), ("Ben", 12), ("Ana", 13), ("Ben", 14), ("Ana", 15), ("Ben", 16)]


def test_a_deleted_hand_comes_back_between_the_deals_it_was_played_among(client):
    match_id = import_match(client, typed(SIX))
    assert delete(client, match_id, 5).status_code == 302
    assert insert(client, match_id, 2, winner="Ben", points="7").status_code == 302
    restored = restore_from_history(client, match_id, 6)  # hand 5 is hand 6 now: one hand went in above it
    assert restored.status_code == 302
    assert hands_of(client, match_id) == [("Ana", 11), ("Ben", 7), ("Ben", 12), ("Ana", 13), ("Ben", 14),
                                          ("Ana", 15), ("Ben", 16)]
    assert "Hand 6 restored" in unescape(client.get(restored.headers["Location"]).get_data(as_text=True))


def test_after_a_delete_before_hand_4_is_the_hand_4_the_sheet_shows(client):
    match_id = import_match(client, typed(SIX))
    delete(client, match_id, 3)
    answer = insert(client, match_id, 4, winner="Ana", points="9")
    assert "Inserted as hand 4" in unescape(client.get(answer.headers["Location"]).get_data(as_text=True))
    assert hands_of(client, match_id)[3] == ("Ana", 9)
    assert hands_of(client, match_id) == [("Ana", 11), ("Ben", 12), ("Ben", 14), ("Ana", 9), ("Ana", 15), ("Ben", 16)]


FINDING = [("Ben", 30), ("Ana", 40), ("Ben", 20), ("Ana", 60), ("Ana", 25), ("Ana", 20), ("Ben", 30), ("Ben", 20)]


@pytest.mark.parametrize("points", ["30", "70"])
def test_an_insert_after_a_delete_is_stored_where_the_sheet_says_or_refused_and_every_page_answers(client, points):
    """Ana 30 before hand 4 fits; Ana 70 there would end the match before its last hand: refused."""
    from models.game.ledger import score_sheet
    from models.files.matchfile import match_from_document

    match_id = import_match(client, typed(FINDING))
    delete(client, match_id, 3)
    kept = hands_of(client, match_id)
    wanted = kept[:3] + [("Ana", int(points))] + kept[3:]
    try:
        score_sheet(match_from_document(typed(wanted)))
        fits = True
    except MatchError:
        fits = False
    assert fits == (points == "30")
    answer = insert(client, match_id, 4, winner="Ana", points=points)
    if fits:
        assert answer.status_code == 302 and hands_of(client, match_id) == wanted
    else:
        text = unescape(answer.get_data(as_text=True))
        assert answer.status_code == 400 and "would be over after hand" in text
        assert hands_of(client, match_id) == kept
    token = get_match(connect(client.application.config["DATABASE"]), match_id, table=HOME).view_token
    for path in ("/", f"/matches/{match_id}", f"/matches/{match_id}.json", f"/matches/{match_id}.csv",
                 f"/matches/{match_id}/live", f"/matches/{match_id}/sheet", f"/view/{token}", "/export.zip"):
        assert client.get(path).status_code == 200, path


def test_a_stale_restore_button_changes_nothing(client):
    match_id = import_match(client, typed(SIX))
    delete(client, match_id, 2)
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    action, data = form_with(page, "Restore hand 2")
    insert(client, match_id, 1, winner="Ana", points="3")  # another phone changed the match since
    kept = hands_of(client, match_id)
    refused = client.post(action, data=data, follow_redirects=True)
    assert "changed on another phone" in unescape(refused.get_data(as_text=True))
    assert hands_of(client, match_id) == kept


def test_a_restore_that_changes_a_closed_game_asks_first(client):
    match_id = import_match(client, typed([("Ana", 60), ("Ana", 50), ("Ben", 20), ("Ben", 30)]))
    delete(client, match_id, 1)  # game 1 reopens; Ben's hands now close nothing
    # Ana's deal back in its place would close game 1 again at hand 2
    delete(client, match_id, 1)
    for _ in range(3):
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        client.post(f"/matches/{match_id}/hands", data={"csrf_token": hidden(page, "csrf_token"),
                    "form_id": hidden(page, "form_id"), "winner": "Ben", "points": "40"})
    before = hands_of(client, match_id)  # Ben has closed game 1 with these
    asked = restore_from_history(client, match_id, 1)
    assert asked.status_code == 409, asked.get_data(as_text=True)
    assert "changes games already closed" in unescape(asked.get_data(as_text=True))
    assert hands_of(client, match_id) == before
    assert restore_from_history(client, match_id, 1, confirmed=True).status_code == 302
    assert len(hands_of(client, match_id)) == len(before) + 1


# ---- the same, as a model: a list of deals in the order they were played ----

def check_against_model(conn, match_id: int, model: list[list]) -> None:
    live = [deal for deal, gone in model if not gone]
    stored = get_match(conn, match_id, table=HOME).match.hands
    assert [(h.winner, h.points) for h in stored] == live


@pytest.mark.parametrize("seed", range(12))
def test_deletes_inserts_and_restores_keep_every_deal_where_it_was_played(tmp_path, seed):
    """Random deletes, inserts and restores through storage, each checked against the played order."""
    from models.files.matchfile import match_from_document

    rng = random.Random(seed)
    conn = open_ledger(str(tmp_path / "ledger.sqlite"))
    points = [(rng.choice(("Ana", "Ben")), 10 + i) for i in range(8)]  # each deal told apart by its points
    match_id = create_match(conn, match_from_document(typed(points, ("Ana", "Ben")) | {
        "rules": {"target": 10_000}}), table=HOME)
    model = [[deal, False] for deal in points]
    gone: dict[tuple, int] = {}  # a deleted deal -> its row
    for step in range(40):
        version = get_match(conn, match_id, table=HOME).version
        live = [i for i, (_, dead) in enumerate(model) if not dead]
        action = rng.choice(("delete", "insert", "restore"))
        if action == "delete" and len(live) > 1:
            number = rng.randint(1, len(live))
            saved = delete_hand(conn, match_id, number, version, table=HOME)
            model[live[number - 1]][1] = True
            gone[tuple(model[live[number - 1]][0])] = saved.hand_id
        elif action == "insert":
            number = rng.randint(1, len(live))
            deal = ("Ana" if step % 2 else "Ben", 100 + step)
            insert_hand_before(conn, match_id, number, hand_of(deal), None,
                                       version, table=HOME)
            model.insert(live[number - 1], [deal, False])
        elif action == "restore" and gone:
            deal = rng.choice(sorted(gone))
            saved = restore_hand(conn, match_id, gone.pop(deal), version, table=HOME, confirmed=True)
            place = next(i for i, (d, dead) in enumerate(model) if tuple(d) == deal and dead)
            model[place][1] = False
            assert saved.number == sum(1 for d, dead in model[:place] if not dead) + 1
        check_against_model(conn, match_id, model)


def hand_of(deal):
    from models.game.hand import Hand

    return Hand(kind="points", winner=deal[0], points=deal[1])
