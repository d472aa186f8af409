"""Property tests of the scoring engine over generated, valid match documents.

`match_documents()` builds a document the way a table would fill it in: a
format, two names, maybe a first dealer, a random but valid set of rules, then
hands of every kind (knock, gin, big gin, undercut, draw, typed points) that are
valid under those rules (Oklahoma upcards included). It stops as soon as the
match is finished, asking `score_sheet` about the prefix, so every generated
document is one `load_match` accepts.

Each property is its own test. `sheets_of_prefixes` folds every prefix of the
hands once, so the properties can compare a game's state "at that point".
"""
from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.game.cards import RANKS, SUITS
from models.game.entry import read_hand
from models.errors import MatchError
from models.game.hand import MAX_DEADWOOD, score
from models.game.ledger import game_points, score_sheet, sheet_after
from models.game.match import Match
from models.files.matchfile import export_document, load_match, match_document, match_from_document, replay
from models.game.rules import Rules, rules_from
from tests.generate import long_match

MAX_HANDS = 60
# 60 examples per property keeps this file near 12 s of CPU; set ENGINE_EXAMPLES=2000
# (say) for a deeper search.
PROPERTY_SETTINGS = settings(
    max_examples=int(os.environ.get("ENGINE_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

NAME_POOL = ["Ana", "Ben", "Žofia", "Ľubo", "Ëndri", "Jozef", "Iva", "O'Neil", "Mary Ann", "李"]
names = st.one_of(
    st.sampled_from(NAME_POOL),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzÁÉčšžëç ", min_size=1, max_size=12)
    .map(str.strip)
    .filter(bool),
)


@st.composite
def player_pairs(draw):
    first = draw(names)
    second = draw(names.filter(lambda n: n.casefold() != first.casefold()))
    return [first, second]


rule_settings = st.fixed_dictionaries(
    {},
    optional={
        "gin_bonus": st.one_of(st.sampled_from([20, 25]), st.integers(0, 60)),
        "undercut_bonus": st.one_of(st.sampled_from([10, 25]), st.integers(0, 40)),
        "big_gin_bonus": st.one_of(st.just(31), st.integers(0, 60)),
        "knock_limit": st.integers(0, 10),
        # Often small, so that games (and whole matches) close within MAX_HANDS.
        "target": st.one_of(st.integers(1, 29), st.integers(30, 150), st.sampled_from([100, 125, 150])),
        "game_bonus": st.one_of(st.just(100), st.integers(0, 300)),
        "box_bonus": st.one_of(st.sampled_from([20, 25]), st.integers(0, 60)),
        "shutout_multiplier": st.integers(1, 4),
        "dealer_rule": st.sampled_from(["winner", "loser", "alternate"]),
        "oklahoma": st.booleans(),
        "spade_double": st.booleans(),
        # RULES.md "Variants"
        "undercut_on_tie": st.booleans(),
        "immediate_boxes": st.booleans(),
        "shutout_bonus": st.one_of(st.just(100), st.integers(0, 300)),
        "gin_boxes": st.integers(1, 5),
        "undercut_boxes": st.integers(1, 5),
        "oklahoma_ace": st.sampled_from(["gin", "one"]),
        "spade_double_boxes": st.booleans(),
    },
)

HAND_KINDS = ["knock", "gin", "big_gin", "undercut", "draw", "points"]


def upcard_limit(upcard: str, rules: Rules) -> int:
    """Oklahoma: ace means gin only (0), or 1 with oklahoma_ace "one"; face cards 10, else the rank."""
    rank = upcard[:-1]
    if rank == "A":
        return 1 if rules.oklahoma_ace == "one" else 0
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


class Digits:
    """Reads one generated integer as a series of small choices (mixed radix).

    One draw per hand keeps Hypothesis fast (each draw has a cost), and the
    integer still shrinks towards 0, which decodes to the simplest choices.
    """

    def __init__(self, code: int):
        self.code = code

    def pick(self, n: int) -> int:
        self.code, digit = divmod(self.code, n)
        return digit

    def between(self, low: int, high: int) -> int:
        return low + self.pick(high - low + 1)

    def small_or_any(self, low: int, high: int, small: bool) -> int:
        """Small values in a "small" match (so it runs to many hands), else any in range."""
        if small or self.pick(2) == 0:
            return self.between(low, min(high, low + 12))
        return self.between(low, high)

    def card(self) -> str:
        return RANKS[self.pick(13)] + SUITS[self.pick(4)]


HAND_CODES = st.integers(0, 2**96 - 1)


def decode_hand(code: int, players, rules: Rules, small: bool = False) -> dict:
    """One hand in match-file form, valid under `rules`, read from one integer."""
    d = Digits(code)
    kind = HAND_KINDS[d.pick(len(HAND_KINDS))]
    upcard = None
    if rules.oklahoma:
        upcard = d.card()
        limit = upcard_limit(upcard, rules)
    else:
        limit = rules.knock_limit
        if d.pick(10) == 9:
            upcard = d.card()  # allowed, and ignored, outside Oklahoma
    if kind in ("knock", "undercut") and limit == 0:
        kind = "gin"  # gin only under this limit
    if kind == "draw":
        hand: dict = {"draw": True}
    elif kind == "points":
        hand = {"winner": players[d.pick(2)], "points": d.small_or_any(1, 150, small)}
    else:
        knocker = players[d.pick(2)]
        if kind == "knock":
            kd = d.between(1, limit)
            od = d.small_or_any(kd + 1, MAX_DEADWOOD, small)
        elif kind == "undercut":
            kd = d.between(1, limit)
            od = d.between(0, kd)
        else:
            kd = 0
            od = d.small_or_any(0, MAX_DEADWOOD, small)
        hand = {"knocker": knocker, "knocker_deadwood": kd, "opponent_deadwood": od}
        if kind == "big_gin":
            hand["big_gin"] = True
        elif kind == "gin" and d.pick(5) == 4:
            hand["big_gin"] = False
        if d.pick(10) == 9:
            picked = list(dict.fromkeys(d.card() for _ in range(d.between(0, 6))))
            hand["cards"] = {"knocker": picked[:3], "defender": picked[3:]}
    if upcard is not None and (kind != "points" or d.pick(2)):
        hand["upcard"] = upcard
    return hand


def raw_hands(players, rules: Rules, small: bool = False):
    """A strategy for one valid hand under `rules`."""
    return HAND_CODES.map(lambda code: decode_hand(code, players, rules, small))


@st.composite
def match_documents(draw, max_hands: int = MAX_HANDS):
    """A valid match document; it stops at the hand that finishes the match."""
    doc: dict = {}
    fmt = draw(st.sampled_from(["hollywood", "hollywood", "single", None]))
    if fmt is not None:
        doc["format"] = fmt
    players = draw(player_pairs())
    doc["players"] = players
    if draw(st.booleans()):
        doc["first_dealer"] = draw(st.sampled_from(players))
    settings_ = draw(rule_settings)
    if settings_ or draw(st.booleans()):
        doc["rules"] = settings_
    rules = rules_from(settings_)
    match = Match(players=tuple(players), format=fmt or "hollywood",
                  first_dealer=doc.get("first_dealer"), rules=rules)
    small = draw(st.sampled_from([True, False]))  # a match of small hands runs long
    # Hypothesis leans on the first choice of a list (its "simplest"), and this
    # list starts with the longest: most matches then run until they finish.
    count = min(draw(st.sampled_from([max_hands, 34, 21, 13, 8, 5, 3, 2, 1, 0])), max_hands)
    codes = draw(st.lists(HAND_CODES, min_size=count, max_size=count))
    hands_raw: list = []
    hands: list = []
    won = {name: 0 for name in players}  # no game closes before someone has `target` in all
    for number, code in enumerate(codes, start=1):
        raw = decode_hand(code, players, rules, small)
        hands_raw.append(raw)
        hands.append(read_hand(raw, match.players, rules, number))
        outcome = score(hands[-1], match.players, rules)
        if outcome.winner is not None:
            won[outcome.winner] += game_points(outcome, rules)
        if max(won.values()) >= rules.target and score_sheet(match.with_hands(hands)).finished:
            break
    doc["hands"] = hands_raw
    return doc


def sheets_of_prefixes(doc):
    """The match, and the sheet of every prefix of its hands (index k: first k hands)."""
    match = match_from_document(doc)
    sheets = [score_sheet(match.with_hands(match.hands[:k])) for k in range(len(match.hands) + 1)]
    return match, sheets


def state_from_lines(lines, players, game_count, rules: Rules):
    """Each game's scores, boxes and winner rebuilt from the sheet's lines alone."""
    games = [{"scores": {p: 0 for p in players}, "boxes": {p: 0 for p in players}, "winner": None}
             for _ in range(game_count)]
    for line in lines:
        for number in line.games:
            game = games[number - 1]
            game["scores"][line.outcome.winner] += game_points(line.outcome, rules)
            game["boxes"][line.outcome.winner] += line.outcome.boxes
        for number in line.closed:
            games[number - 1]["winner"] = line.outcome.winner
    return games


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(match_documents())
def test_generated_documents_are_accepted(doc):
    match = load_match(json.dumps(doc))
    sheet = score_sheet(match)
    assert len(sheet.lines) == len(doc["hands"])
    # Only the last hand may be the one that finished the match.
    for k, line in enumerate(sheet.lines[:-1]):
        assert not score_sheet(match.with_hands(match.hands[: k + 1])).finished


@PROPERTY_SETTINGS
@given(match_documents())
def test_a_closed_game_never_changes_again(doc):
    _, sheets = sheets_of_prefixes(doc)
    for k, sheet in enumerate(sheets):
        for index, game in enumerate(sheet.games):
            if game.open:
                continue
            frozen = game.to_dict()
            for later in sheets[k + 1:]:
                assert later.games[index].to_dict() == frozen
                assert later.games[index].closed_by == game.closed_by


@PROPERTY_SETTINGS
@given(match_documents())
def test_no_win_is_lost_while_a_game_is_open(doc):
    _, sheets = sheets_of_prefixes(doc)
    full = sheets[-1]
    for k, line in enumerate(full.lines):
        before = sheets[k]
        if line.outcome.winner is not None and any(game.open for game in before.games):
            assert line.games, f"hand {line.number} won by {line.outcome.winner} was written nowhere"
            # ...and only into games that were open when it was played.
            assert all(before.games[n - 1].open for n in line.games)


@PROPERTY_SETTINGS
@given(match_documents())
def test_scores_and_boxes_are_the_hands_written_into_each_game(doc):
    _, sheets = sheets_of_prefixes(doc)
    for sheet in sheets:
        for game in sheet.games:
            for name in sheet.players:
                mine = [line for line in sheet.lines
                        if game.number in line.games and line.outcome.winner == name]
                assert game.scores[name] == sum(game_points(line.outcome, sheet.match.rules) for line in mine)
                assert game.boxes[name] == sum(line.outcome.boxes for line in mine)


@PROPERTY_SETTINGS
@given(match_documents())
def test_a_draw_keeps_the_dealer_and_writes_nothing(doc):
    match, sheets = sheets_of_prefixes(doc)
    full = sheets[-1]
    dealers_after = [line.dealer for line in full.lines[1:]] + [full.next_dealer]
    for k, line in enumerate(full.lines):
        if line.outcome.result != "draw":
            continue
        assert line.outcome.winner is None and line.outcome.points == 0
        assert line.games == () and line.closed == ()
        assert dealers_after[k] == line.dealer
        # Nothing on the sheet moved.
        assert [g.to_dict() for g in sheets[k + 1].games] == [g.to_dict() for g in sheets[k].games]


@PROPERTY_SETTINGS
@given(match_documents())
def test_the_dealer_follows_the_dealer_rule(doc):
    match = match_from_document(doc)
    full = score_sheet(match)
    players = match.players
    expected = doc.get("first_dealer", players[0])
    for line in full.lines:
        assert line.dealer == expected
        winner = line.outcome.winner
        if winner is None:
            continue
        loser = players[1] if winner == players[0] else players[0]
        expected = {
            "winner": winner,
            "loser": loser,
            "alternate": players[1] if line.dealer == players[0] else players[0],
        }[match.rules.dealer_rule]
    assert full.next_dealer == expected


@PROPERTY_SETTINGS
@given(match_documents())
def test_hollywood_pattern_while_all_three_games_are_open(doc):
    match, sheets = sheets_of_prefixes(doc)
    if match.format != "hollywood":
        return
    wins = {name: 0 for name in match.players}
    for k, line in enumerate(sheets[-1].lines):
        if line.outcome.winner is None:
            continue
        wins[line.outcome.winner] += 1
        if all(game.open for game in sheets[k].games):
            # a player's k-th win goes into games 1..min(k, 3)
            assert line.games == tuple(range(1, min(wins[line.outcome.winner], 3) + 1))


@PROPERTY_SETTINGS
@given(match_documents())
def test_replaying_a_prefix_gives_the_prefix_of_the_sheet(doc):
    match, sheets = sheets_of_prefixes(doc)
    full = sheets[-1]
    for k, sheet in enumerate(sheets):
        assert [line.to_dict() for line in sheet.lines] == [line.to_dict() for line in full.lines[:k]]
        # Each game as the full run had it after k hands, rebuilt from its lines.
        rebuilt = state_from_lines(full.lines[:k], match.players, match.game_count, match.rules)
        for game, then in zip(sheet.games, rebuilt):
            assert game.scores == then["scores"]
            assert game.boxes == then["boxes"]
            assert game.winner == then["winner"]
            if game.winner is not None:
                assert game.settlement == full.games[game.number - 1].settlement
        # The running totals the full run noted on each line agree with the prefix.
        if k:
            line = full.lines[k - 1]
            for number, total in line.totals.items():
                assert sheet.games[number - 1].scores[line.outcome.winner] == total
        # Who deals next is who dealt the next hand in the full run.
        if k < len(full.lines):
            assert sheet.next_dealer == full.lines[k].dealer


@PROPERTY_SETTINGS
@given(match_documents())
def test_a_sheet_folded_one_hand_at_a_time_is_the_sheet_folded_at_once(doc):
    """The saved-hand path steps the stored sheet (sheet_after); the pages fold anew: they must agree."""
    match = load_match(json.dumps(doc))
    stepped = score_sheet(match.with_hands(()))
    for hand in match.hands:
        stepped = sheet_after(stepped, hand)
    assert stepped == score_sheet(match)


@PROPERTY_SETTINGS
@given(match_documents())
def test_export_round_trips(doc):
    match = load_match(json.dumps(doc))
    exported = export_document(match)
    text = json.dumps(exported)
    again = load_match(text)  # the `result` key is ignored on import
    assert again == match
    assert replay(text) == exported["result"] == score_sheet(match).to_dict()
    assert score_sheet(again).to_dict() == exported["result"]
    written = match_document(match)
    assert match_document(load_match(json.dumps(written))) == written
    # The document as first written and as exported replay alike.
    assert replay(json.dumps(doc)) == exported["result"]


@PROPERTY_SETTINGS
@given(match_documents())
def test_settlement_arithmetic(doc):
    match = match_from_document(doc)
    rules = match.rules
    for game in score_sheet(match).games:
        if game.open:
            assert game.settlement is None
            continue
        s = game.settlement
        winner = game.winner
        loser = next(name for name in match.players if name != winner)
        assert game.scores[winner] >= rules.target > game.scores[loser]
        assert s.game_bonus == rules.game_bonus
        per_box = 0 if rules.immediate_boxes else rules.box_bonus
        assert s.box_bonus == {name: game.boxes[name] * per_box for name in match.players}
        assert s.shutout == (game.scores[loser] == 0)
        shutout_bonus = rules.shutout_bonus if s.shutout else 0
        assert s.totals[winner] == game.scores[winner] + game.boxes[winner] * per_box + rules.game_bonus + shutout_bonus
        assert s.totals[loser] == game.scores[loser] + game.boxes[loser] * per_box
        diff = s.totals[winner] - s.totals[loser]
        assert s.net == (diff * rules.shutout_multiplier if s.shutout else diff)


@PROPERTY_SETTINGS
@given(match_documents())
def test_match_net_sums_to_zero(doc):
    sheet = score_sheet(match_from_document(doc))
    net = sheet.net
    assert set(net) == set(sheet.players)
    assert sum(net.values()) == 0
    for name in sheet.players:
        signed = sum(g.settlement.net if g.winner == name else -g.settlement.net
                     for g in sheet.games if not g.open)
        assert net[name] == signed


@PROPERTY_SETTINGS
@given(match_documents())
def test_finished_iff_all_games_closed_and_winner_has_the_majority(doc):
    match, sheets = sheets_of_prefixes(doc)
    for sheet in sheets:
        out = sheet.to_dict()
        closed = [g for g in sheet.games if not g.open]
        assert out["finished"] == (len(closed) == len(sheet.games))
        if out["finished"]:
            won = sum(1 for g in sheet.games if g.winner == out["winner"])
            assert won >= (2 if match.format == "hollywood" else 1)
            assert out["winner"] in match.players
        else:
            assert out["winner"] is None


@PROPERTY_SETTINGS
@given(match_documents(), st.data())
def test_nothing_is_accepted_after_the_match_is_finished(doc, data):
    match = match_from_document(doc)
    if not score_sheet(match).finished:
        return
    extra = data.draw(raw_hands(doc["players"], match.rules))
    number = len(doc["hands"]) + 1
    try:
        load_match(json.dumps({**doc, "hands": doc["hands"] + [extra]}))
    except MatchError as error:
        assert (error.hand, error.field) == (number, "hand")
    else:
        raise AssertionError("a hand after the finished match was accepted")


# ---------------------------------------------------------------------------
# An independent reading of RULES.md, compared with the engine's whole output
# ---------------------------------------------------------------------------


def reference_replay(doc: dict) -> dict:
    """RULES.md written out again, as plainly as possible, without the engine."""
    players = doc["players"]
    rules = {**Rules().to_dict(), **doc.get("rules", {})}
    count = 3 if doc.get("format", "hollywood") == "hollywood" else 1
    scores = [{p: 0 for p in players} for _ in range(count)]
    boxes = [{p: 0 for p in players} for _ in range(count)]
    winners: list = [None] * count
    dealer = doc.get("first_dealer", players[0])
    out_hands = []
    for number, hand in enumerate(doc["hands"], start=1):
        doubled = False
        if "draw" in hand:
            result, winner, points = "draw", None, 0
        elif "points" in hand:
            result, winner, points = "points", hand["winner"], hand["points"]
        else:
            knocker = hand["knocker"]
            defender = players[1] if knocker == players[0] else players[0]
            kd, od = hand["knocker_deadwood"], hand["opponent_deadwood"]
            if kd == 0 and hand.get("big_gin"):
                result, winner, points = "big_gin", knocker, od + rules["big_gin_bonus"]
            elif kd == 0:
                result, winner, points = "gin", knocker, od + rules["gin_bonus"]
            elif kd < od or (kd == od and not rules["undercut_on_tie"]):
                result, winner, points = "knock", knocker, od - kd
            else:
                result, winner, points = "undercut", defender, kd - od + rules["undercut_bonus"]
            upcard = hand.get("upcard")
            if rules["oklahoma"] and rules["spade_double"] and upcard and upcard[-1] == "S":
                points *= 2
                doubled = True
        written = []
        if winner is not None:
            fresh = False
            for g in range(count):
                if winners[g] is not None:
                    continue
                # "Already scored" read as "has a hand written into it": with
                # gin_bonus 0 (or undercut_bonus 0) a won hand can be worth 0
                # points and still counts as a box and a start in that game.
                if boxes[g][winner] > 0:
                    written.append(g)
                elif not fresh:
                    written.append(g)
                    fresh = True
            earned = {"gin": rules["gin_boxes"], "big_gin": rules["gin_boxes"],
                      "undercut": rules["undercut_boxes"]}.get(result, 1)
            if doubled and rules["spade_double_boxes"]:
                earned *= 2
            for g in written:
                scores[g][winner] += points + (earned * rules["box_bonus"] if rules["immediate_boxes"] else 0)
                boxes[g][winner] += earned
                if scores[g][winner] >= rules["target"]:
                    winners[g] = winner
        out_hands.append({"number": number, "dealer": dealer, "result": result, "winner": winner,
                          "points": points, "games": [g + 1 for g in written]})
        if winner is not None:
            loser = players[1] if winner == players[0] else players[0]
            dealer = {"winner": winner, "loser": loser,
                      "alternate": players[1] if dealer == players[0] else players[0]}[rules["dealer_rule"]]
    games = []
    net = {p: 0 for p in players}
    for g in range(count):
        settlement = None
        if winners[g] is not None:
            w = winners[g]
            l = players[1] if w == players[0] else players[0]
            bonus = {p: 0 if rules["immediate_boxes"] else boxes[g][p] * rules["box_bonus"] for p in players}
            shutout = scores[g][l] == 0
            totals = {p: scores[g][p] + bonus[p] for p in players}
            totals[w] += rules["game_bonus"] + (rules["shutout_bonus"] if shutout else 0)
            g_net = (totals[w] - totals[l]) * (rules["shutout_multiplier"] if shutout else 1)
            settlement = {"game_bonus": rules["game_bonus"], "box_bonus": bonus, "shutout": shutout,
                          "totals": totals, "net": g_net}
            net[w] += g_net
            net[l] -= g_net
        games.append({"number": g + 1, "scores": scores[g], "boxes": boxes[g],
                      "winner": winners[g], "settlement": settlement})
    finished = all(w is not None for w in winners)
    match_winner = None
    if finished:
        match_winner = max(players, key=lambda p: winners.count(p))
    return {"players": players, "hands": out_hands, "games": games, "next_dealer": dealer,
            "finished": finished, "winner": match_winner, "net": net}


@PROPERTY_SETTINGS
@given(match_documents())
def test_engine_agrees_with_an_independent_reading_of_the_rules(doc):
    assert replay(json.dumps(doc)) == reference_replay(doc)


# ---------------------------------------------------------------------------
# Size: a long match replays whole (no timing assertion; see bench/engine_bench.py)
# ---------------------------------------------------------------------------


def test_a_ten_thousand_hand_match_replays_whole():
    doc = long_match(10_000)  # the benchmark's own long match, so both measure the same thing
    out = replay(json.dumps(doc))
    assert len(out["hands"]) == 10_000
    assert out["hands"][-1]["number"] == 10_000
    assert out["finished"] is False
    # Every won hand is a box somewhere: game 1 holds each player's every win.
    won = sum(1 for h in out["hands"] if h["winner"] is not None)
    assert sum(out["games"][0]["boxes"].values()) == won


# ---------------------------------------------------------------------------
# The variants of RULES.md
# ---------------------------------------------------------------------------


def variant_documents(**fixed):
    """Generated documents with some variant settings fixed, so each property below meets them every time."""
    return match_documents().map(lambda doc: {**doc, "rules": {**doc.get("rules", {}), **fixed}}).filter(accepted)


def accepted(doc: dict) -> bool:
    """Fixing a setting after the hands were drawn can make a hand invalid or late; those are skipped."""
    try:
        load_match(json.dumps(doc))
    except MatchError:
        return False
    return True


@PROPERTY_SETTINGS
@given(variant_documents(immediate_boxes=True))
def test_with_immediate_boxes_a_games_score_is_its_points_and_box_bonuses(doc):
    match, sheets = sheets_of_prefixes(doc)
    rules = match.rules
    for sheet in sheets:
        for game in sheet.games:
            for name in sheet.players:
                mine = [line.outcome for line in sheet.lines
                        if game.number in line.games and line.outcome.winner == name]
                assert game.scores[name] == sum(o.points + o.boxes * rules.box_bonus for o in mine)
            if game.settlement:
                assert dict(game.settlement.box_bonus) == {name: 0 for name in sheet.players}


@PROPERTY_SETTINGS
@given(variant_documents(undercut_on_tie=False))
def test_without_undercut_on_tie_no_tie_is_an_undercut(doc):
    sheet = score_sheet(match_from_document(doc))
    for line in sheet.lines:
        entry = line.entry
        if entry.kind == "knock" and entry.knocker_deadwood == entry.opponent_deadwood != 0:
            assert line.outcome.result == "knock" and line.outcome.winner == entry.knocker
            assert line.outcome.points == 0 and line.games, "a tie is still a win written somewhere"
        if line.outcome.result == "undercut":
            assert entry.knocker_deadwood > entry.opponent_deadwood


ONE_BOX = {"gin_boxes": 1, "undercut_boxes": 1, "spade_double_boxes": False, "immediate_boxes": False}


@PROPERTY_SETTINGS
@given(match_documents())
def test_extra_boxes_change_no_placement_closing_or_dealer(doc):
    """Boxes counted at the settlement only say "has scored there": more of them move nothing."""
    doc = {**doc, "rules": {**doc.get("rules", {}), "immediate_boxes": False}}
    plain = {**doc, "rules": {**doc["rules"], **ONE_BOX}}
    if not accepted(doc):
        return
    where = [(line.games, line.closed, line.dealer) for line in score_sheet(match_from_document(doc)).lines]
    assert where == [(line.games, line.closed, line.dealer) for line in score_sheet(match_from_document(plain)).lines]


@PROPERTY_SETTINGS
@given(st.one_of(match_documents(), variant_documents(undercut_on_tie=False)))  # ties: wins of 0 points
def test_has_scored_in_a_game_means_has_a_box_there(doc):
    """Whatever the boxes are worth and whenever they count: a win goes into every open game where
    the winner has a box and into the first open one where they have none."""
    _, sheets = sheets_of_prefixes(doc)
    for k, line in enumerate(sheets[-1].lines):
        if line.outcome.winner is None:
            continue
        open_games = [game for game in sheets[k].games if game.open]
        boxed = [game.number for game in open_games if game.boxes[line.outcome.winner] > 0]
        fresh = [game.number for game in open_games if game.boxes[line.outcome.winner] == 0][:1]
        assert line.games == tuple(sorted(boxed + fresh))
