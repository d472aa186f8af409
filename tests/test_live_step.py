"""The sheet moved on by one hand: a page showing the version before gets only what it lacks (the step),
whoever saved the hand, and the step applied to that page is the live region drawn whole."""
import re

import pytest

from generate import long_match
from webutil import case, hidden, import_match, new_match

FRAGMENT = {"X-Requested-With": "fetch", "X-Answer": "fragment"}
BODY = re.compile(r"<tbody([^>]*)>(.*?)</tbody>", re.S)
ROW = re.compile(r"<tr\b[^>]*>.*?</tr>", re.S)


def same_request(html: str) -> str:
    """What two responses of one version share: the per-response token and one-time id blanked."""
    html = re.sub(r'(name="csrf_token" value=")[^"]*', r"\1", html)
    return re.sub(r'(data-form-id=")[^"]*', r"\1", html)


def applied(page: str, step: str) -> str:
    """The step put into the live region `page`, by the contract static/app.js keeps (`keepRows`): the page's
    rows of the hands after data-folded up to data-after, then the step's own rows."""
    attributes, rows = BODY.search(step).groups()
    folded = int(re.search(r'data-folded="(\d+)"', attributes).group(1))
    after = int(re.search(r'data-after="(\d+)"', attributes).group(1))
    kept, hand = [], None
    for row in ROW.findall(BODY.search(page).group(2)):
        number = re.match(r'<tr id="hand-(\d+)"', row)
        hand = int(number.group(1)) if number else hand
        if hand is not None and folded < hand <= after:
            kept.append(row)
    own = ROW.findall(rows)
    first = next(i for i, row in enumerate(own) if row.startswith('<tr id="hand-'))
    body = "\n".join(own[:first] + kept + own[first:])
    whole = BODY.search(step)
    return step[:whole.start()] + "<tbody>" + body + "</tbody>" + step[whole.end():]


def without_tbody_spacing(html: str) -> str:
    match = BODY.search(html)
    return html[:match.start()] + "<tbody>" + "\n".join(ROW.findall(match.group(2))) + "</tbody>" + html[match.end():]


def post(client, match_id: int, shown: str | None, **fields):
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    data = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"), **fields}
    headers = dict(FRAGMENT, **({"X-Sheet": shown} if shown else {}))
    return client.post(f"/matches/{match_id}/hands", data=data, headers=headers)


def save(client, match_id: int, shown: str | None, **fields):
    answer = post(client, match_id, shown, **fields)
    assert answer.status_code == 200 and answer.headers["X-Answer"] == "fragment", answer.get_data(as_text=True)
    html = answer.get_data(as_text=True)
    return answer, html[html.index('\n<div data-region="board">'):]  # after this request's notices


def live(client, match_id: int):
    answer = client.get(f"/matches/{match_id}/live")
    return answer.headers["ETag"], answer.get_data(as_text=True)


def assert_is_whole_when_applied(client, match_id: int, page: str, step: str) -> None:
    _, whole = live(client, match_id)
    assert same_request(without_tbody_spacing(applied(page, step))) == same_request(without_tbody_spacing(whole))


def test_a_save_from_the_version_before_is_answered_with_the_new_row_only(client):
    match_id = import_match(client, case("seed000-bob-alexandra"))
    tag, page = live(client, match_id)
    answer, step = save(client, match_id, tag, knocker="Alexandra", knocker_deadwood="3", opponent_deadwood="20")
    assert f'data-from="{tag.replace(chr(34), "&#34;")}"' in step
    assert 'id="hand-5"' in step and 'id="hand-4"' not in step and 'id="hand-1"' not in step
    assert len(answer.data) < len(client.get(f"/matches/{match_id}/live").data)
    assert_is_whole_when_applied(client, match_id, page, step)


def test_the_other_phone_and_the_spectator_one_version_behind_get_the_same_step(client):
    match_id = import_match(client, case("seed000-bob-alexandra"))
    token = re.search(r"/view/([A-Za-z0-9_-]+)", client.get(f"/matches/{match_id}/join").get_data(as_text=True)).group(1)
    tag, page = live(client, match_id)
    spectator_page = client.get(f"/view/{token}/live").get_data(as_text=True)
    save(client, match_id, None, winner="Alexandra", points="7")  # saved without the script: the follow is the same
    polled = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag}).get_data(as_text=True)
    assert "data-from=" in polled and 'id="hand-1"' not in polled
    assert_is_whole_when_applied(client, match_id, page, polled)
    watched = client.get(f"/view/{token}/live", headers={"If-None-Match": tag}).get_data(as_text=True)
    assert "data-from=" in watched and "<form" not in watched and "/hands/" not in watched
    whole = client.get(f"/view/{token}/live").get_data(as_text=True)
    assert without_tbody_spacing(applied(spectator_page, watched)) == without_tbody_spacing(whole)


def test_a_page_further_behind_or_another_kind_of_change_gets_the_whole_region(client):
    match_id = import_match(client, case("seed000-bob-alexandra"))
    old, _ = live(client, match_id)
    save(client, match_id, None, winner="Alexandra", points="7")
    tag, _ = live(client, match_id)
    _, stale = save(client, match_id, old, winner="Bob", points="5")  # the page still shows two versions ago
    assert "data-from=" not in stale and 'id="hand-1"' in stale
    behind = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": old}).get_data(as_text=True)
    assert "data-from=" not in behind and 'id="hand-1"' in behind
    tag, _ = live(client, match_id)
    page = client.get(f"/matches/{match_id}/hands/2").get_data(as_text=True)
    client.post(f"/matches/{match_id}/hands/2", data={"csrf_token": hidden(page, "csrf_token"),
                                                      "version": hidden(page, "version"),
                                                      "winner": "Bob", "points": "9"})
    edited = client.get(f"/matches/{match_id}/live", headers={"If-None-Match": tag}).get_data(as_text=True)
    assert "data-from=" not in edited and 'id="hand-1"' in edited


def test_hand_after_hand_to_the_end_each_step_applied_is_the_whole_region(client):
    """Games closing (their heads, settlements and races) included. The last hand changes the page whole
    (the result for the form): it is answered with the page itself, its flash at the top (issue 45)."""
    match_id = new_match(client)
    tag, page = live(client, match_id)
    hands = [("Ana", "25"), ("Ben", "10"), ("Ana", "32"), ("Ben", "8"), ("Ana", "30")] + [("Ana", "30")] * 12
    for winner, points in hands:
        answer = post(client, match_id, tag, winner=winner, points=points)
        html = answer.get_data(as_text=True)
        if answer.headers.get("X-Answer") != "fragment":
            break
        got = html[html.index('\n<div data-region="board">'):]
        assert "data-from=" in got
        assert_is_whole_when_applied(client, match_id, page, got)
        tag, page = live(client, match_id)
    assert answer.status_code == 200 and 'id="result"' in html and 'class="flash flash-saved"' in html
    assert answer.headers["X-Hand-Number"] == str(len(client.get(f"/matches/{match_id}.json").get_json()["hands"]))
    assert 'data-finished="yes"' in live(client, match_id)[1] and "closed" in live(client, match_id)[1]


@pytest.mark.parametrize("hands", [40, 45])
def test_a_long_match_step_moves_the_fold(client, hands):
    doc = long_match(hands, seed=3)
    doc["rules"]["target"] = 1_000_000
    match_id = import_match(client, doc)
    tag, page = live(client, match_id)
    _, step = save(client, match_id, tag, winner=doc["players"][0], points="3")
    assert "data-from=" in step and 'class="folded' in step
    assert_is_whole_when_applied(client, match_id, page, step)


def test_the_spectators_step_shows_the_race_pictures_the_phones_step_drew(client, monkeypatch):
    """A race picture shows nothing of who asks: drawn once per version for the phone and the spectator."""
    import views.match.sheet

    drawn = []
    picture = views.match.sheet.race_picture
    monkeypatch.setattr(views.match.sheet, "race_picture", lambda sheet, number: drawn.append(number) or picture(sheet, number))
    match_id = import_match(client, case("seed000-bob-alexandra"))
    token = re.search(r"/view/([A-Za-z0-9_-]+)", client.get(f"/matches/{match_id}/join").get_data(as_text=True)).group(1)
    tag, _ = live(client, match_id)
    _, step = save(client, match_id, tag, winner="Alexandra", points="7")
    assert step.count('class="chart"') and drawn
    drawn.clear()
    watched = client.get(f"/view/{token}/live", headers={"If-None-Match": tag}).get_data(as_text=True)
    assert "data-from=" in watched and drawn == []
    assert re.findall(r'<figure class="chart">.*?</figure>', watched, re.S) == re.findall(
        r'<figure class="chart">.*?</figure>', step, re.S)
