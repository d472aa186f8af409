"""The variants of RULES.md through the new-match form: each variant case's match built from the
form's setting fields and played through the hand form gives the case's expected result."""
import json
from pathlib import Path

import pytest

from casefiles import CASES
from models.game.presets import PRESETS
from models.game.rules import SETTING_NAMES
from webutil import export, hidden, new_match, post_hand

VARIANTS = sorted((CASES / "variants").glob("variants-*.json"))


def form_value(name: str, value) -> str:
    """A setting as the new-match form sends it: yes/no settings as on/off (Oklahoma is a checkbox)."""
    if name == "oklahoma":
        return "y"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def form_fields(doc: dict) -> dict:
    """The new-match form's fields for a case: every rule typed over Classic, named as the setting."""
    fields = {name: form_value(name, value) for name, value in doc.get("rules", {}).items()}
    first = doc.get("first_dealer", doc["players"][0])
    fields.update(format=doc.get("format", "hollywood"), first_dealer=str(doc["players"].index(first) + 1))
    return fields


@pytest.mark.parametrize("path", VARIANTS, ids=lambda path: path.stem)
def test_each_variant_case_built_through_the_form_gives_its_expected_result(client, path: Path):
    doc = json.loads(path.read_text())
    match_id = new_match(client, players=doc["players"], **form_fields(doc))
    assert export(client, match_id)["rules"] == {**PRESETS["classic"].to_dict(), **doc["rules"]}
    for hand in doc["hands"]:
        response = post_hand(client, match_id, **{k: str(v).lower() if v is True else str(v) for k, v in hand.items()})
        assert response.status_code == 302, response.get_data(as_text=True)
    assert export(client, match_id)["result"] == doc["expected"]


def test_the_variant_cases_cover_every_variant_setting():
    """So the test above fails the day a setting stops reaching the engine from the form."""
    used = set()
    for path in VARIANTS:
        used |= set(json.loads(path.read_text())["rules"])
    variants = {"undercut_on_tie", "immediate_boxes", "shutout_bonus", "gin_boxes", "undercut_boxes",
                "oklahoma_ace", "spade_double_boxes"}
    assert variants <= used and variants <= set(SETTING_NAMES)


@pytest.mark.parametrize("preset", ["bicycle", "palace"])
def test_the_new_presets_are_offered_and_start_a_match_with_their_rules(client, preset):
    page = client.get("/matches/new").get_data(as_text=True)
    assert f'value="{preset}"' in page
    match_id = new_match(client, preset=preset)
    assert export(client, match_id)["rules"] == PRESETS[preset].to_dict()


@pytest.mark.parametrize("fields", [
    {"gin_boxes": "0"}, {"undercut_boxes": "6"}, {"shutout_bonus": "-1"},
    {"oklahoma_ace": "eleven"}, {"undercut_on_tie": "maybe"}, {"immediate_boxes": "true"},
])
def test_a_variant_out_of_its_bounds_is_refused_and_starts_nothing(client, fields):
    page = client.get("/matches/new").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "players": ["Ana", "Ben"], "preset": "classic",
            "format": "hollywood", "first_dealer": "1", **fields}
    response = client.post("/matches/new", data=data)
    assert response.status_code == 400
    assert client.get("/").get_data(as_text=True).count("/matches/1") == 0


def test_the_rules_panel_names_the_variants(client):
    match_id = new_match(client, undercut_on_tie="off", immediate_boxes="on", shutout_bonus="100",
                         gin_boxes="3", oklahoma="y", oklahoma_ace="one")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    panel = page[page.index('class="rules-shown"'):]
    panel = panel[:panel.index("</details>")]
    for text in ["the knocker wins, for 0", "added to the score at once", "after a shutout bonus of 100",
                 "ace = 1 or less", "<dt>Boxes for a gin</dt><dd>3</dd>"]:
        assert text in panel, text


def test_settlements_with_immediate_boxes_add_no_box_bonus_and_show_the_shutout_bonus(client):
    from webutil import case, import_match
    doc = case("variants/variants-palace-immediate-boxes")
    doc["rules"]["shutout_bonus"] = 50
    page = client.get(f"/matches/{import_match(client, doc)}").get_data(as_text=True)
    settlements = page[page.index('class="settlements"'):]
    assert "boxes (in the score)" in settlements and "× 10 =" not in settlements
    assert "shutout bonus" in settlements and "added to the score at once" in page


def test_the_forms_ace_choices_are_the_engines():
    from models.game.rules import OKLAHOMA_ACES
    from views.match.forms import CHOICE_LABELS
    assert tuple(CHOICE_LABELS["oklahoma_ace"]) == OKLAHOMA_ACES
