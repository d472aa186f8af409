"""The big screen on a TV across the table (1920 x 1080), a laptop or tablet (1280 x 800) and a phone.

One screen that does not scroll and leaves no half of it empty: the scoreboard large across the
top; under it, side by side, the last hands (the newest one shown, the sheet's head kept) and the
money and the races. A finished match shows its result, the net and the money; the screen follows
the match as hands are saved on a phone, by itself. Measured with the elements' boxes.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import Player, load_case
from tests.browser.driver import phone
from tests.browser.test_sheet_print_big import renamed

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips, or fails under CI=true, and says why
    expect = None

pytestmark = pytest.mark.browser

TV, LAPTOP = (1920, 1080), (1280, 800)
# Alexandra's wins go into games 1, then 1 and 2, then all three: this ends 3-0 on the sixth hand
# (130-30, 150-0 shut out, 110-40), 1,020 net, at 0.05 € a point 51.00 €.
TO_THE_END = [("Alexandra", 60), ("Bartholomew", 30), ("Alexandra", 70), ("Alexandra", 80),
              ("Bartholomew", 40), ("Alexandra", 30)]

BOXES = """() => {
  const box = e => { if (!e) return null; const r = e.getBoundingClientRect();
    return r.width && r.height ? {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                                  width: r.width, height: r.height} : null; };
  const one = s => box(document.querySelector(s));
  const hands = [...document.querySelectorAll('.big-screen .sheet tbody tr.hand')];
  return {board: one('.big-screen .board'), left: one('.big-screen #sheet'), sheet: one('.big-screen .sheet-wrap'),
          head: one('.big-screen .sheet thead'), legend: one('.big-screen .sheet-legend'),
          races: one('.big-screen .races'), payments: one('.big-screen .payments'),
          last: box(hands[hands.length - 1]), last_id: hands.length ? hands[hands.length - 1].id : null,
          width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
          view: [innerWidth, innerHeight]};
}"""


def save_points(page, match_id: int, winner: str, points: int) -> None:
    """One hand as the match page's "Type the points instead" form sends it without the page script (its
    token, form id and hand number from the page; Post/Redirect/Get), so this module measures the big
    screen, not the hand form's script."""
    page.goto(f"/matches/{match_id}")
    form = page.locator("form", has=page.locator("input[name=points]"))
    fields = {name: form.locator(f"input[name={name}]").first.get_attribute("value")
              for name in ("csrf_token", "form_id", "number")}
    answer = page.request.post(f"/matches/{match_id}/hands", form={**fields, "winner": winner, "points": str(points)},
                               max_redirects=0)
    assert answer.status in (302, 303) and answer.headers["location"].endswith("#told"), \
        (answer.status, answer.headers, answer.text()[:500])


def staked_match(page, hands: list[tuple[str, int]], names=("Alexandra", "Bartholomew")) -> int:
    """A Hollywood match played for 0.05 € a point, started through the form, its hands saved as points."""
    page.goto("/matches/new")
    page.fill("#player1", names[0])
    page.fill("#player2", names[1])
    page.check("input[name=format][value='hollywood']")
    page.check("input[name=first_dealer][value='1']")
    page.locator("details.stakes summary").click()
    page.fill("input[name=stake]", "0.05")
    page.fill("input[name=currency]", "€")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    match_id = Player(page).match_id()
    for winner, points in hands:
        save_points(page, match_id, winner, points)
    return match_id


@pytest.fixture(scope="module")
def matches(browser, server) -> dict[str, int | str]:
    """Made once: the worked 13-hand match (long names, finished, no stake), a staked match finished
    3-0, one still played (two games closed), and the finished one's spectator link."""
    context = phone(browser, server, touch=False)
    page = context.new_page()
    thirteen = renamed(load_case("full-hollywood-match")[0])
    ids: dict[str, int | str] = {"thirteen": Player(page).import_by_paste(thirteen)}
    ids["finished"] = staked_match(page, TO_THE_END)
    ids["playing"] = staked_match(page, [("Ana", 25), ("Ben", 18), ("Ana", 41), ("Ben", 120), ("Ana", 12)],
                                  names=("Ana", "Ben"))
    page.goto(f"/matches/{ids['finished']}/join")  # its spectator's link, as the join page gives it
    ids["view"] = "/view/" + re.search(r"/view/([A-Za-z0-9_-]+)", page.content()).group(1)
    context.close()
    return ids


def inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack
            and inner["top"] >= outer["top"] - slack and inner["bottom"] <= outer["bottom"] + slack)


def check_one_screen(page, hands: int) -> dict:
    """The board across the top; under it, side by side, the sheet (a finished match's result and
    settlements above its hands) and the money and the races; nothing off the screen."""
    found = page.evaluate(BOXES)
    width, height = found["view"]
    screen = {"left": 0, "top": 0, "right": width, "bottom": height}
    assert found["width"] <= width and found["height"] <= height, f"the big screen scrolls: {found}"
    board, left, sheet, races = found["board"], found["left"], found["sheet"], found["races"]
    assert board and left and sheet and races, found
    # The scoreboard large, as wide as the screen, at the top.
    assert board["width"] >= 0.9 * width and board["height"] >= 0.2 * height and board["top"] < 0.25 * height, board
    # Under it the sheet (left) and the races (right) side by side, each a good part of the width.
    assert left["top"] >= board["bottom"] and races["top"] >= board["bottom"], found
    assert left["right"] <= races["left"], f"the sheet and the races are not side by side: {found}"
    assert left["top"] < races["bottom"] and races["top"] < left["bottom"], found
    assert left["width"] >= 0.4 * width and races["width"] >= 0.3 * width, found
    assert inside(sheet, left), found
    assert races["right"] >= 0.95 * width, f"the right of the screen is empty: {found}"
    # No half-empty screen: the lower part reaches well down it.
    lowest = max(sheet["bottom"], found["legend"]["bottom"], races["bottom"])
    assert lowest >= 0.75 * height, f"the bottom of the screen is empty: {found}"
    # The newest hand is drawn whole, in the sheet's box and on the screen, under the sheet's head.
    assert found["last_id"] == f"hand-{hands}", found
    assert inside(found["last"], sheet) and inside(found["last"], screen), found
    assert found["head"] and abs(found["head"]["top"] - sheet["top"]) <= 1, found
    assert found["last"]["top"] >= found["head"]["bottom"] - 2, f"the newest hand is under the sheet's head: {found}"
    for part in (board, left, sheet, races):
        assert inside(part, screen), (part, found)
    return found


@pytest.mark.parametrize("size", [TV, LAPTOP], ids=["tv", "laptop"])
@pytest.mark.parametrize("which, hands", [("thirteen", 13), ("playing", 5), ("finished", 6)])
def test_the_big_screen_fills_the_screen(page, matches, size, which, hands):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"/matches/{matches[which]}/big")
    found = check_one_screen(page, hands)
    if which != "thirteen":  # played for money: the money is on the right, above the races, on the screen
        payments = found["payments"]
        assert payments and payments["left"] >= found["left"]["right"], found
        assert payments["bottom"] <= found["races"]["top"] + 1, found
        assert payments["bottom"] <= size[1], found


def check_the_money(page) -> None:
    """A finished staked match on the screen: its result with the net, each game's payment and the total."""
    view = page.viewport_size
    screen = {"left": 0, "top": 0, "right": view["width"], "bottom": view["height"]}
    result = page.locator(".big-screen .next")
    expect(result).to_have_text("Match over: Alexandra wins 3–0, net +1,020.")
    expect(page.locator(".big-screen [data-region=board] .meta")).to_contain_text("finished: Alexandra wins 3–0")
    rows = page.locator(".big-screen .payments tr")
    expect(rows).to_have_count(4)
    texts = [" ".join(t.split()) for t in rows.all_inner_texts()]
    assert texts[:3] == ["Game 1 Bartholomew pays Alexandra 11.25 €", "Game 2 Bartholomew pays Alexandra 30.00 €",
                         "Game 3 Bartholomew pays Alexandra 9.75 €"], texts
    assert texts[3] == "In total Bartholomew pays Alexandra 51.00 €", texts
    for part in (result, page.locator(".big-screen .payments"), page.locator(".big-screen .payments tr.total"),
                 *page.locator(".big-screen table.settle[id^=settle-]").all()):
        b = part.bounding_box()
        assert b, part
        drawn = {"left": b["x"], "top": b["y"], "right": b["x"] + b["width"], "bottom": b["y"] + b["height"]}
        assert inside(drawn, screen), (part, b)
    assert page.locator(".big-screen table.settle[id^=settle-]").count() == 3


@pytest.mark.parametrize("size", [TV, LAPTOP], ids=["tv", "laptop"])
def test_a_finished_match_shows_its_result_and_money(page, matches, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"/matches/{matches['finished']}/big")
    check_the_money(page)


def test_the_spectators_big_screen_shows_the_money_too(page, matches):
    page.set_viewport_size({"width": TV[0], "height": TV[1]})
    page.goto(matches["view"] + "/big")
    check_the_money(page)
    check_one_screen(page, 6)
    assert page.locator(".big-screen form").count() == 0


def test_on_a_phone_it_reads_down_the_page(page, matches):
    """360 x 740: nothing sideways; the board, then the hands, the result, the money and the races."""
    page.goto(f"/matches/{matches['finished']}/big")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), \
        page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    expect(page.locator(".big-screen .next")).to_have_text("Match over: Alexandra wins 3–0, net +1,020.")
    expect(page.locator(".big-screen .payments tr.total")).to_contain_text("51.00 €")
    parts = (".big-screen .board", ".big-screen .sheet", ".big-screen .payments", ".big-screen .races")
    tops = [page.locator(part).bounding_box()["y"] for part in parts]
    assert tops == sorted(tops), tops


def test_the_big_screen_follows_the_match_to_its_end(page, browser, server):
    """Hands saved on a phone reach the TV by themselves: the new row and the payment of a game just
    closed are swapped in (the page is not loaded again), and at the end the result and the money."""
    context = phone(browser, server, touch=False)
    try:
        phone_page = context.new_page()
        match_id = staked_match(phone_page, TO_THE_END[:2])
        page.set_viewport_size({"width": TV[0], "height": TV[1]})
        page.goto(f"/matches/{match_id}/big")
        expect(page.locator(".big-screen .payments")).to_contain_text("Nothing is owed until a game closes.")
        page.evaluate("window.drawnOnce = true")  # gone if the page were loaded again
        save_points(phone_page, match_id, *TO_THE_END[2])  # Alexandra's second win closes game 1 at 130-30
        expect(page.locator(".big-screen #hand-3")).to_be_visible()
        expect(page.locator(".big-screen .payments tr")).to_have_count(2)  # game 1 and the total so far
        first = re.compile(r"Game 1\s*Bartholomew pays Alexandra\s*11.25 €")
        expect(page.locator(".big-screen .payments tr").first).to_have_text(first)
        assert page.evaluate("window.drawnOnce === true"), "the big screen was loaded again, not swapped"
        check_one_screen(page, 3)
        for hand in TO_THE_END[3:]:
            save_points(phone_page, match_id, *hand)
        check_the_money(page)  # the match finished: the page draws itself anew, with the settlements
        check_one_screen(page, 6)
    finally:
        context.close()


# Each game's box on a phone holds what it says; the money's and the settlements' tables fit the width.
HELD = """() => [...document.querySelectorAll('.board .game')].flatMap(game => {
  const box = game.getBoundingClientRect();
  return [...game.querySelectorAll('*')].filter(part => { const b = part.getBoundingClientRect();
    return b.width && (b.left < box.left - .5 || b.right > box.right + .5); })
    .map(part => `${part.className}: ${part.textContent.trim()}`);
})"""


@pytest.mark.parametrize("lang", ["en", "cs", "sk", "sq"])
def test_on_a_phone_a_finished_staked_match_fits_in_every_language(page, matches, lang):
    """360 x 740: the big screen's boxes of won games (their scores, boxes and result badge), the money's
    table with two long names ("Bartholomew platí, Alexandra dostává") and the settlements' net rows stay
    inside the screen and their boxes, on the big screen, the match page, the whole sheet and the
    spectator's view."""
    for path in (f"/matches/{matches['finished']}/big", f"/matches/{matches['finished']}",
                 f"/matches/{matches['finished']}/sheet", matches["view"], f"/matches/{matches['playing']}/big"):
        page.goto(f"{path}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), \
            (path, page.evaluate("[document.documentElement.scrollWidth, innerWidth]"))
        assert page.evaluate(HELD) == [], path
