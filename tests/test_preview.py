"""The preview under the hand form says what saving will do: for every hand of every worked case.

Hand k is previewed on the stored sheet of hands 1..k-1 and compared with the
replayed result (engine) and with what saving it through the form then shows
(endpoint); a refused hand of an error case is refused naming the field the
import names. The next hand's preview steps that sheet by one hand, as saving
does: for every hand of every case it is the preview a whole fold gives.
"""
from __future__ import annotations

import json
import re
import secrets

import pytest

import models.game.preview
from casefiles import ROOT, playable_cases
from models.game.entry import read_entry
from models.errors import MatchError, MatchOver
from models.game.ledger import Sheet, score_sheet, sheet_after
from models.files.matchfile import load_match, read_document
from models.game.preview import INCOMPLETE, REFUSED, SCORED, Preview, deal_limit, defender_lays_off, preview_hand
from models.game.match import Match
from models.game.rules import Rules
from webutil import export, hidden, import_match

CASES = {path.stem: path for path in playable_cases(stored=True)}
# The form reads "2" as the number 2: a value of the wrong JSON type cannot be sent from a page,
# so through the web that hand is simply saved, and its preview says so.
FORM_CANNOT_SAY = {"error-number-as-string"}
RULE_WORDS = re.compile(r"_bonus|knock_limit|knockLimit|cardValue|big_gin_zero|undercut")


def load(name: str) -> tuple[dict, dict]:
    doc = json.loads(CASES[name].read_text())
    return doc, doc.pop("expected")


def before(doc: dict, k: int) -> Sheet:
    """The case's sheet of its first k-1 hands (as stored just before hand k is entered)."""
    return score_sheet(read_document({**doc, "hands": doc["hands"][:k - 1]}))


def import_refusal(doc: dict) -> MatchError:
    with pytest.raises(MatchError) as caught:
        load_match(json.dumps(doc))
    return caught.value


def replayed_closes(doc: dict, k: int) -> tuple[int, ...]:
    return score_sheet(read_document({**doc, "hands": doc["hands"][:k]})).lines[k - 1].closed


def scored_cases() -> list[str]:
    return [name for name in CASES if not name.startswith("error-")]


def refused_hands() -> list[str]:
    """The error cases refused at one of their hands (the others refuse the match's own fields)."""
    names = []
    for name in CASES:
        if name.startswith("error-"):
            doc, _ = load(name)
            if import_refusal(doc).hand is not None:
                names.append(name)
    return names


def test_the_cases_cover_what_the_preview_says():
    assert len(scored_cases()) >= 9 and len(refused_hands()) >= 7
    assert sum(len(load(name)[0]["hands"]) for name in scored_cases()) >= 50


# --------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name", scored_cases())
def test_every_hand_previews_as_it_replays(name):
    doc, expected = load(name)
    for k, raw in enumerate(doc["hands"], start=1):
        preview = preview_hand(before(doc, k), raw)
        assert preview.status == SCORED, (k, preview.refusal)
        assert preview.line.to_dict() == expected["hands"][k - 1], k
        assert preview.line.closed == replayed_closes(doc, k), k


@pytest.mark.parametrize("name", scored_cases())
def test_every_hand_previewed_as_its_own_edit_is_unchanged(name):
    doc, expected = load(name)
    sheet = score_sheet(read_document(doc))
    for k, raw in enumerate(doc["hands"], start=1):
        assert preview_hand(sheet, raw, number=k).line.to_dict() == expected["hands"][k - 1], k


@pytest.mark.parametrize("name", refused_hands())
def test_the_refused_hand_is_refused_in_the_preview_naming_the_same_field(name):
    doc, _ = load(name)
    refusal = import_refusal(doc)
    preview = preview_hand(before(doc, refusal.hand), doc["hands"][refusal.hand - 1])
    assert preview.status == REFUSED and preview.line is None
    assert preview.refusal.field == refusal.field


def test_oklahoma_limits_and_spades_double():
    doc, expected = load("oklahoma-spades-double")
    doubled = [preview_hand(before(doc, k), raw).line.outcome.doubled for k, raw in enumerate(doc["hands"], start=1)]
    assert doubled == [False, True, True, False, False, False]  # 7S and AS double; a typed-points hand never
    assert [h["points"] for h in expected["hands"][1:3]] == [50, 74]
    sheet = before(doc, 1)
    assert [preview_hand(sheet, {"upcard": up}).limit for up in ("3H", "7S", "KD", "10C", "AS")] == [3, 7, 10, 10, 0]
    assert preview_hand(sheet, {}).limit == 10  # no upcard yet: the table's limit until one is chosen
    assert preview_hand(sheet, {"upcard": "1X"}).limit == 10


def test_over_the_upcards_limit_is_the_engines_refusal():
    sheet = before(load("oklahoma-spades-double")[0], 1)
    preview = preview_hand(sheet, {"knocker": "Ema", "knocker_deadwood": 5, "opponent_deadwood": 20, "upcard": "3H"})
    assert (preview.status, preview.refusal.field, preview.limit) == (REFUSED, "knocker_deadwood", 3)
    missing = preview_hand(sheet, {"knocker": "Ema", "knocker_deadwood": 2, "opponent_deadwood": 20})
    assert (missing.status, missing.refusal.field) == (REFUSED, "upcard")


def test_an_entry_not_yet_complete_says_nothing():
    sheet = score_sheet(Match(players=("Ana", "Ben"), rules=Rules(knock_limit=7)))
    for raw in ({}, {"knocker": "Ana"}, {"knocker": "Ana", "knocker_deadwood": 3}, {"opponent_deadwood": 20},
                {"winner": "Ana"}, {"points": 12}):
        preview = preview_hand(sheet, raw)
        assert (preview.status, preview.limit, preview.line, preview.refusal) == (INCOMPLETE, 7, None, None), raw
    assert preview_hand(sheet, {"draw": True}).status == SCORED


def test_after_gin_the_defender_does_not_lay_off():
    sheet = score_sheet(Match(players=("Ana", "Ben")))
    assert not preview_hand(sheet, {"knocker": "Ana", "knocker_deadwood": 0}).lays_off
    assert preview_hand(sheet, {"knocker": "Ana", "knocker_deadwood": 1}).lays_off
    assert preview_hand(sheet, {}).lays_off


def test_an_edit_that_would_end_the_match_early_is_refused():
    doc, _ = load("modern-preset-single")
    sheet = score_sheet(read_document(doc))
    preview = preview_hand(sheet, {"winner": sheet.players[0], "points": 500}, number=1)
    assert preview.status == REFUSED and preview.refusal.field == "hand" and preview.refusal.hand == 2


# --------------------------------------------------------------------------
# The next hand steps the stored sheet: the same preview as a whole fold
# --------------------------------------------------------------------------

def folded_preview(match: Match, raw: dict) -> Preview:
    """The next hand's preview found by folding the whole match with it anew (the way it was found before it stepped)."""
    limit, lays_off = deal_limit(match.rules, raw.get("upcard")), defender_lays_off(raw)
    try:
        hand = read_entry(raw, match.players, match.rules)
        line = score_sheet(match.with_hands(match.hands + (hand,))).lines[-1]
    except MatchError as error:
        return Preview(limit, lays_off, refusal=error)
    return Preview(limit, lays_off, line=line)


def said(preview: Preview) -> tuple:
    """All a preview says; a refusal by its type, field, hand and words (an exception equals only itself)."""
    refusal = preview.refusal
    words = None if refusal is None else (type(refusal), refusal.field, refusal.hand, refusal.line())
    return preview.status, preview.limit, preview.lays_off, preview.line, words


def previewable_cases() -> list[str]:
    """Every case whose match itself reads (the others refuse a field of the match, before any hand)."""
    names = []
    for name in CASES:
        try:
            read_document({**load(name)[0], "hands": []})
        except MatchError:
            continue
        names.append(name)
    return names


def test_the_stepped_previews_cover_every_case_but_those_refusing_the_match():
    assert set(scored_cases()) | set(refused_hands()) <= set(previewable_cases())


@pytest.mark.parametrize("name", previewable_cases())
def test_every_hand_stepped_previews_as_the_whole_fold(name):
    """On the sheet the save keeps (stepped hand by hand) and on the sheet folded from the stored match,
    up to and including a case's refused hand."""
    doc, _ = load(name)
    stepped = before(doc, 1)
    for k, raw in enumerate(doc["hands"], start=1):
        try:
            match = read_document({**doc, "hands": doc["hands"][:k - 1]})
        except MatchError:  # a hand the form takes but the import refuses (FORM_CANNOT_SAY): no match after it
            break
        preview = preview_hand(stepped, raw)
        assert said(preview) == said(folded_preview(match, raw)), k
        assert said(preview_hand(score_sheet(match), raw)) == said(preview), k
        if preview.line is None:
            break
        stepped = sheet_after(stepped, preview.line.entry)


def test_a_hand_after_the_last_game_is_refused_as_the_fold_refuses_it():
    doc, _ = load("error-hand-after-finish")
    finished = before(doc, 2)
    assert finished.finished
    for raw in (doc["hands"][1], {"draw": True}, {"knocker": "Ben", "knocker_deadwood": 3, "opponent_deadwood": 20}):
        preview = preview_hand(finished, raw)
        assert isinstance(preview.refusal, MatchOver) and preview.line is None, raw
        assert (preview.refusal.field, preview.refusal.hand, preview.refusal.reason) == (
            "hand", 2, "the match was already over after hand 1"), raw
        assert said(preview) == said(folded_preview(finished.match, raw)), raw


def test_the_next_hands_preview_folds_nothing(client, monkeypatch):
    doc, expected = load("seed001-ana-ben")
    match_id = import_match(client, {**doc, "hands": doc["hands"][:-1]})
    sheet = before(doc, len(doc["hands"]))

    def no_fold(match):
        raise AssertionError("the next hand's preview folded the match")

    monkeypatch.setattr(models.game.preview, "score_sheet", no_fold)
    assert preview_hand(sheet, doc["hands"][-1]).line.to_dict() == expected["hands"][-1]
    said_by_page = ask(client, match_id, form_fields(doc["hands"][-1]))
    assert said_by_page["status"] == SCORED and said_by_page["points"] == expected["hands"][-1]["points"]


# --------------------------------------------------------------------------
# The endpoint, against what saving through the form then does
# --------------------------------------------------------------------------

def form_fields(raw: dict) -> dict:
    """A match-file hand as the hand form posts it."""
    fields = {}
    for key, value in raw.items():
        if key == "cards":
            fields.update({f"cards_{side}": " ".join(codes) for side, codes in value.items()})
        elif value is True:
            fields[key] = "y"
        elif value is not False:
            fields[key] = str(value)
    return fields


def ask(client, match_id: int, fields: dict, number: int | None = None, **headers) -> dict:
    path = f"/matches/{match_id}/hands/{number}/preview" if number else f"/matches/{match_id}/preview"
    response = client.get(path, query_string=fields, headers=headers)
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


def save(client, match_id: int, fields: dict):
    """As the page does it, also on a finished match (whose page has no hand form to read a form id from)."""
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": secrets.token_urlsafe(12), **fields}
    return client.post(f"/matches/{match_id}/hands", data=data)


def closed_now(old: dict, new: dict) -> list[int]:
    return [g["number"] for g, h in zip(old["result"]["games"], new["result"]["games"]) if h["winner"] and not g["winner"]]


def empty_match(client, doc: dict) -> int:
    return import_match(client, {**doc, "hands": []})


@pytest.mark.parametrize("name", scored_cases())
def test_every_hand_previewed_by_the_endpoint_is_what_saving_it_writes(client, name):
    doc, expected = load(name)
    match_id = empty_match(client, doc)
    for k, raw in enumerate(doc["hands"], start=1):
        fields = form_fields(raw)
        said = ask(client, match_id, fields)
        old = export(client, match_id)
        assert save(client, match_id, fields).status_code == 302, k
        new = export(client, match_id)
        line = new["result"]["hands"][k - 1]
        assert line == expected["hands"][k - 1], k
        assert said["status"] == SCORED and said["field"] is None, (k, said)
        assert (said["result"], said["winner"], said["points"], said["games"]) == (
            line["result"], line["winner"], line["points"], line["games"]), k
        assert said["closes"] == closed_now(old, new), k


@pytest.mark.parametrize("name", refused_hands())
def test_the_endpoint_refuses_the_refused_hand_as_saving_does(client, name):
    doc, _ = load(name)
    refusal = import_refusal(doc)
    match_id = empty_match(client, doc)
    for raw in doc["hands"][:refusal.hand - 1]:
        assert save(client, match_id, form_fields(raw)).status_code == 302
    fields = form_fields(doc["hands"][refusal.hand - 1])
    said = ask(client, match_id, fields)
    saved = save(client, match_id, fields)
    if name in FORM_CANNOT_SAY:
        assert said["status"] == SCORED and saved.status_code == 302
        return
    assert said["status"] == REFUSED and said["field"] == refusal.field, said
    assert said["sentence"] and "games" not in said
    assert saved.status_code == 400
    assert len(export(client, match_id)["hands"]) == refusal.hand - 1


def test_the_endpoint_on_a_finished_match_refuses_the_next_hand(client):
    doc, _ = load("error-hand-after-finish")
    match_id = import_match(client, {**doc, "hands": doc["hands"][:1]})
    said = ask(client, match_id, form_fields(doc["hands"][1]))
    assert (said["status"], said["field"], said["sentence"]) == (
        REFUSED, "hand", "the match was already over after hand 1")  # the fold's own MatchOver, as before it stepped
    assert save(client, match_id, form_fields(doc["hands"][1])).status_code == 400


def test_the_endpoint_speaks_the_pages_language_and_gives_the_limit(client):
    doc, _ = load("oklahoma-spades-double")
    match_id = empty_match(client, doc)
    knock = {"knocker": "Ema", "knocker_deadwood": "3", "opponent_deadwood": "20"}
    assert ask(client, match_id, {**knock, "upcard": "3H"})["sentence"] == "Ema scores 17 → game 1."
    doubled = ask(client, match_id, {**knock, "upcard": "7S"})
    assert (doubled["sentence"], doubled["doubled"], doubled["limit"]) == ("Spades double. Ema scores 34 → game 1.",
                                                                           True, 7)
    over = ask(client, match_id, {**knock, "upcard": "2C"})
    assert (over["status"], over["field"], over["limit"], over["sentence"]) == (
        REFUSED, "knocker_deadwood", 2, "Over the knock limit (2).")
    assert ask(client, match_id, {"upcard": "AD"}) == {"status": INCOMPLETE, "limit": 0, "lays_off": True,
                                                      "field": None, "sentence": ""}
    czech = ask(client, match_id, {**knock, "knocker_deadwood": "0", "upcard": "QS"}, **{"Accept-Language": "cs"})
    assert czech["sentence"] == "Gin! Otočené piky: body dvakrát. Ema získává 90 → do hry 1."
    assert czech["lays_off"] is False


def test_the_endpoint_words_for_a_tap_the_save_would_refuse(client):
    match_id = import_match(client, {"players": ["Ana", "Ben"], "hands": []})
    knock = {"knocker": "Ana", "knocker_deadwood": "4", "opponent_deadwood": "22"}
    assert ask(client, match_id, {**knock, "big_gin": "y"})["sentence"] == "Big gin needs 0 deadwood."
    assert ask(client, match_id, {**knock, "opponent_deadwood": "99"})["sentence"] == "Deadwood is at most 98."
    typo = ask(client, match_id, {**knock, "opponent_deadwood": "2x"})
    assert (typo["field"], typo["sentence"]) == ("opponent_deadwood",
                                                 "Defender's deadwood after lay-offs: Not a valid integer value.")
    stranger = ask(client, match_id, {**knock, "knocker": "Eve"})
    assert stranger["sentence"] == "Who knocked?: 'Eve' is not a player of this match (Ana or Ben)"
    assert ask(client, match_id, {"knocker": "Ana"})["status"] == INCOMPLETE


def test_the_edit_pages_preview_replaces_its_hand(client):
    doc, _ = load("seed001-ana-ben")
    match_id = import_match(client, doc)
    said = ask(client, match_id, {"winner": "Ben", "points": "32"}, number=2)
    assert (said["games"], said["points"], said["sentence"]) == ([1], 32, "Ben scores 32 → game 1.")
    assert client.get(f"/matches/{match_id}/hands/7/preview").status_code == 404
    assert client.get("/matches/999/preview").status_code == 404
    assert len(export(client, match_id)["hands"]) == 6  # asking wrote nothing


def test_an_edit_that_would_strand_later_hands_is_explained(client):
    doc, _ = load("modern-preset-single")
    match_id = import_match(client, doc)
    early = ask(client, match_id, {"winner": "Mira", "points": "500"}, number=1)
    assert (early["status"], early["field"]) == (REFUSED, "hand")
    assert early["sentence"] == ("with this change the match would be over before hand 2; "
                                 "delete the hands after it first")


def test_the_pages_point_the_script_at_the_endpoint_and_hold_no_rules(client):
    doc, _ = load("seed001-ana-ben")
    match_id = import_match(client, doc)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'data-preview-url="/matches/{match_id}/preview"' in page
    edit = client.get(f"/matches/{match_id}/hands/2").get_data(as_text=True)
    assert f'data-preview-url="/matches/{match_id}/hands/2/preview"' in edit
    texts = json.loads(page.split('<script type="application/json" id="texts">')[1].split("</script>")[0])
    assert not {"gin", "undercut", "big_gin", "scores", "wins", "over_limit", "and"} & set(texts)
    for script in (ROOT / "static").glob("*.js"):
        assert not RULE_WORDS.search(script.read_text(encoding="utf-8")), script.name


def test_the_preview_knows_the_tables_ace():
    doc, _ = load("variants-oklahoma-ace-one")
    assert preview_hand(before(doc, 1), {"upcard": "AS"}).limit == 1
