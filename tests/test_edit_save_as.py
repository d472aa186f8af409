"""The edit page names the kind the engine scores the entered hand as (issue 45): drawn for the stored hand, and
said anew by the edited hand's preview as the entries change."""
from webutil import import_match

HANDS = [{"knocker": "Ana", "knocker_deadwood": 0, "opponent_deadwood": 30, "big_gin": True},
         {"knocker": "Ben", "knocker_deadwood": 5, "opponent_deadwood": 20}]


def test_the_edit_page_and_its_preview_name_the_kind(client):
    match_id = import_match(client, {"players": ["Ana", "Ben"], "first_dealer": "Ana", "hands": HANDS})
    page = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    assert 'data-role="save-as">Save as a big gin</button>' in page and "Save as a knock<" not in page
    assert 'data-role="save-as">Save as a knock</button>' in client.get(f"/matches/{match_id}/hands/2").get_data(as_text=True)
    ask = f"/matches/{match_id}/hands/2/preview?knocker=Ben&knocker_deadwood="
    assert client.get(ask + "0&opponent_deadwood=20").get_json()["save"] == "Save as a gin"
    assert client.get(ask + "9&opponent_deadwood=4").get_json()["save"] == "Save as an undercut"
    assert client.get(ask + "9").get_json()["save"] == "Save as a knock or gin"
    assert "save" not in client.get(f"/matches/{match_id}/preview?knocker=Ben").get_json()  # the next hand's form
