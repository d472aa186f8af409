"""A table's page with a fresh deal form is kept whole per version (views/site/pages.py), as a match of two's:
what is a request's own (the one-time form id, the CSRF token, the session's notices) is filled in per request."""
import json

from casefiles import CASES
from models.game.ledger import score_sheet
from views.site.kept import app_caches
from webutil import export, hidden, import_match

FIRST_DEAL = {"b1_result": "knock", "b1_knocker": "Ana", "b1_kd": "3", "b1_od": "20",
              "b2_result": "gin", "b2_knocker": "Dan", "b2_od": "10"}


def partners(hands: int) -> dict:
    doc = json.loads((CASES / "tables" / "partners-example.json").read_text())
    doc.pop("expected")
    return {**doc, "hands": doc["hands"][:hands]}


def test_a_kept_table_page_gives_each_request_its_own_form_and_notices(app, client):
    match_id = import_match(client, partners(0))
    path = f"/matches/{match_id}"
    with app.app_context():
        pages = app_caches().pages
    before = len(pages)
    first = client.get(path).get_data(as_text=True)
    kept = len(pages)
    second = client.get(path).get_data(as_text=True)
    assert kept > before and len(pages) == kept  # drawn once for this version, then only filled in
    assert hidden(first, "form_id") != hidden(second, "form_id")
    other = app.test_client()
    theirs = other.get(path).get_data(as_text=True)
    assert hidden(theirs, "csrf_token") != hidden(second, "csrf_token")

    saved = client.post(f"{path}/deals", data={"csrf_token": hidden(second, "csrf_token"),
                                               "form_id": hidden(second, "form_id"), **FIRST_DEAL})
    assert saved.status_code == 303
    after = client.get(path).get_data(as_text=True)
    assert "Ben and Dan win the deal by 18." in after and 'class="deal-row"' in after
    assert "Ben and Dan win the deal by 18." not in client.get(path).get_data(as_text=True)  # said once
    # The other browser's page of the new version: the deal, without this browser's notice; its form saves.
    page = other.get(path).get_data(as_text=True)
    assert 'class="deal-row"' in page and "win the deal by 18." not in page
    again = other.post(f"{path}/deals", data={"csrf_token": hidden(page, "csrf_token"),
                                              "form_id": hidden(page, "form_id"), "b1_result": "draw",
                                              "b2_result": "knock", "b2_knocker": "Cy", "b2_kd": "5",
                                              "b2_od": "5"})
    assert again.status_code == 303
    assert export(client, match_id)["hands"] == partners(2)["hands"]


def test_a_refused_deal_is_drawn_with_its_refusal_not_the_kept_page(client):
    match_id = import_match(client, partners(0))
    path = f"/matches/{match_id}"
    page = client.get(path).get_data(as_text=True)
    refused = client.post(f"{path}/deals", data={"csrf_token": hidden(page, "csrf_token"),
                                                 "form_id": hidden(page, "form_id"),
                                                 **dict(FIRST_DEAL, b2_knocker="Ana")})
    assert refused.status_code == 400 and "boards.2.knocker" in refused.get_data(as_text=True)
    assert "boards.2.knocker" not in client.get(path).get_data(as_text=True)


def test_a_saved_deal_and_the_page_it_leads_to_fold_the_match_nowhere(client, monkeypatch):
    """The write steps the fold the request read (ledger.sheet_after) and the app's match cache takes the
    match it leaves, as a saved hand of two: neither the save nor the next page folds the deals again."""
    import models.storage.match_rows as match_rows

    match_id = import_match(client, partners(2))
    path = f"/matches/{match_id}"
    page = client.get(path).get_data(as_text=True)
    folds = []
    monkeypatch.setattr(match_rows, "score_sheet", lambda match: folds.append(match) or score_sheet(match))
    saved = client.post(f"{path}/deals", data={"csrf_token": hidden(page, "csrf_token"),
                                               "form_id": hidden(page, "form_id"), **FIRST_DEAL})
    assert saved.status_code == 303
    assert "win the deal by 18." in client.get(path).get_data(as_text=True)
    assert folds == []
    assert len(export(client, match_id)["hands"]) == 3
