"""Unit tests of the scoring engine, with every expected value worked out by hand.

Players are Ana and Ben unless said otherwise. Default (Classic) rules: gin 25,
undercut 10, big gin 31, knock limit 10, target 100, game bonus 100, box 25,
shutout x2, dealer rule `winner`.
"""
from __future__ import annotations

import json
import re

import pytest

from models.errors import MatchError
from models.files.matchfile import export_document, load_match, replay
from models.game.presets import PRESETS
from models.game.rules import Rules, rules_from

from casefiles import CASES, DOCS


def document(hands, **extra) -> dict:
    return {"players": ["Ana", "Ben"], "hands": hands, **extra}


def run(hands, **extra) -> dict:
    """The replay output of a match of Ana and Ben with these hands."""
    return replay(json.dumps(document(hands, **extra)))


def one(hand, **extra) -> dict:
    """The replay line of a single hand."""
    return run([hand], **extra)["hands"][0]


def knock(who, kd, od, **more) -> dict:
    return {"knocker": who, "knocker_deadwood": kd, "opponent_deadwood": od, **more}


def points(who, n) -> dict:
    return {"winner": who, "points": n}


DRAW = {"draw": True}


def refusal(source) -> MatchError:
    """The MatchError a document (or raw text) is refused with, by load_match and replay alike."""
    text = source if isinstance(source, (str, bytes)) else json.dumps(source)
    with pytest.raises(MatchError) as loaded:
        load_match(text)
    with pytest.raises(MatchError) as replayed:
        replay(text)
    assert (replayed.value.hand, replayed.value.field) == (loaded.value.hand, loaded.value.field)
    return loaded.value


# ---------------------------------------------------------------------------
# What each kind of hand scores
# ---------------------------------------------------------------------------


def test_knock_scores_the_difference():
    # kd 4 < od 22: Ana scores 22 - 4 = 18
    assert one(knock("Ana", 4, 22)) == {
        "number": 1, "dealer": "Ana", "result": "knock", "winner": "Ana", "points": 18, "games": [1]}


def test_knock_at_the_limit():
    # kd 10 (= limit) < od 11: 11 - 10 = 1
    line = one(knock("Ben", 10, 11))
    assert (line["result"], line["winner"], line["points"]) == ("knock", "Ben", 1)


def test_gin_scores_deadwood_plus_gin_bonus():
    # 15 + 25 = 40
    line = one(knock("Ana", 0, 15))
    assert (line["result"], line["winner"], line["points"]) == ("gin", "Ana", 40)


def test_gin_against_zero_is_still_gin_not_an_undercut():
    # od 0 = kd 0, but gin is never undercut: 0 + 25 = 25 to the knocker
    line = one(knock("Ana", 0, 0))
    assert (line["result"], line["winner"], line["points"]) == ("gin", "Ana", 25)


def test_big_gin_scores_deadwood_plus_big_gin_bonus():
    # 9 + 31 = 40
    line = one(knock("Ben", 0, 9, big_gin=True))
    assert (line["result"], line["winner"], line["points"]) == ("big_gin", "Ben", 40)


def test_big_gin_false_is_plain_gin():
    # 9 + 25 = 34
    line = one(knock("Ben", 0, 9, big_gin=False))
    assert (line["result"], line["winner"], line["points"]) == ("gin", "Ben", 34)


def test_undercut_on_equal_counts():
    # kd 7 >= od 7: Ben (the defender) scores 7 - 7 + 10 = 10
    line = one(knock("Ana", 7, 7))
    assert (line["result"], line["winner"], line["points"]) == ("undercut", "Ben", 10)


def test_undercut_on_lower_count():
    # kd 9 > od 3: Ben scores 9 - 3 + 10 = 16
    line = one(knock("Ana", 9, 3))
    assert (line["result"], line["winner"], line["points"]) == ("undercut", "Ben", 16)


def test_undercut_against_zero_after_layoffs():
    # kd 1 > od 0: Ana (defender) scores 1 - 0 + 10 = 11
    line = one(knock("Ben", 1, 0))
    assert (line["result"], line["winner"], line["points"]) == ("undercut", "Ana", 11)


def test_undercut_bonus_setting():
    # bonus 25: 7 - 7 + 25 = 25, and 9 - 3 + 25 = 31
    rules = {"undercut_bonus": 25}
    assert one(knock("Ana", 7, 7), rules=rules)["points"] == 25
    assert one(knock("Ana", 9, 3), rules=rules)["points"] == 31


def test_gin_and_big_gin_bonus_settings():
    # gin 20: 15 + 20 = 35; big gin 50: 9 + 50 = 59
    assert one(knock("Ana", 0, 15), rules={"gin_bonus": 20})["points"] == 35
    assert one(knock("Ana", 0, 9, big_gin=True), rules={"big_gin_bonus": 50})["points"] == 59


def test_typed_points_are_taken_as_they_are():
    line = one(points("Ben", 18))
    assert (line["result"], line["winner"], line["points"]) == ("points", "Ben", 18)


def test_draw_scores_nothing():
    assert one(DRAW) == {"number": 1, "dealer": "Ana", "result": "draw", "winner": None,
                         "points": 0, "games": []}


def test_knock_limit_setting():
    # limit 5: kd 5 is a knock (20 - 5 = 15), kd 6 is refused
    assert one(knock("Ana", 5, 20), rules={"knock_limit": 5})["points"] == 15
    error = refusal(document([knock("Ana", 6, 20)], rules={"knock_limit": 5}))
    assert (error.hand, error.field) == (1, "knocker_deadwood")


def test_knock_limit_zero_means_gin_only():
    assert one(knock("Ana", 0, 20), rules={"knock_limit": 0})["result"] == "gin"
    error = refusal(document([knock("Ana", 1, 20)], rules={"knock_limit": 0}))
    assert (error.hand, error.field) == (1, "knocker_deadwood")


# ---------------------------------------------------------------------------
# Oklahoma
# ---------------------------------------------------------------------------

OKLAHOMA = {"oklahoma": True}


def test_oklahoma_upcard_7_allows_7():
    # 7H: limit 7; kd 7 < od 20: 20 - 7 = 13 (hearts: not doubled)
    line = one(knock("Ana", 7, 20, upcard="7H"), rules=OKLAHOMA)
    assert (line["result"], line["points"]) == ("knock", 13)


def test_oklahoma_upcard_7_refuses_8():
    error = refusal(document([DRAW, knock("Ana", 8, 20, upcard="7H")], rules=OKLAHOMA))
    assert (error.hand, error.field) == (2, "knocker_deadwood")
    assert "7H" in error.reason


def test_oklahoma_ace_means_gin_only():
    # AC: gin 12 + 25 = 37 is fine, a knock with 1 is refused
    assert one(knock("Ana", 0, 12, upcard="AC"), rules=OKLAHOMA)["points"] == 37
    error = refusal(document([knock("Ana", 1, 30, upcard="AC")], rules=OKLAHOMA))
    assert (error.hand, error.field) == (1, "knocker_deadwood")


@pytest.mark.parametrize("upcard", ["KD", "QH", "JC", "10D"])
def test_oklahoma_face_cards_and_ten_allow_10(upcard):
    # limit 10: kd 10 < od 30: 30 - 10 = 20
    assert one(knock("Ana", 10, 30, upcard=upcard), rules=OKLAHOMA)["points"] == 20


def test_oklahoma_low_upcard():
    # 2C: kd 2 is fine (9 - 2 = 7), kd 3 is not
    assert one(knock("Ana", 2, 9, upcard="2C"), rules=OKLAHOMA)["points"] == 7
    assert refusal(document([knock("Ana", 3, 9, upcard="2C")], rules=OKLAHOMA)).field == "knocker_deadwood"


def test_oklahoma_upcard_sets_the_limit_over_the_knock_limit_setting():
    # RULES.md: the upcard sets that deal's knock limit (9H: 9), whatever knock_limit says
    line = one(knock("Ana", 9, 20, upcard="9H"), rules={"oklahoma": True, "knock_limit": 5})
    assert line["points"] == 20 - 9


def test_spades_double_a_gin():
    # 5S: (12 + 25) x 2 = 74
    line = one(knock("Ana", 0, 12, upcard="5S"), rules=OKLAHOMA)
    assert (line["result"], line["points"]) == ("gin", 74)


def test_spades_double_an_undercut():
    # 9S: Ana knocks 9 against 9: Ben (9 - 9 + 10) x 2 = 20
    line = one(knock("Ana", 9, 9, upcard="9S"), rules=OKLAHOMA)
    assert (line["result"], line["winner"], line["points"]) == ("undercut", "Ben", 20)


def test_spades_double_a_knock_and_a_big_gin():
    # 7S: (31 - 6) x 2 = 50; AS: (12 + 31) x 2 = 86
    assert one(knock("Ana", 6, 31, upcard="7S"), rules=OKLAHOMA)["points"] == 50
    assert one(knock("Ana", 0, 12, upcard="AS", big_gin=True), rules=OKLAHOMA)["points"] == 86


def test_no_doubling_when_spade_double_is_off():
    # 5S with spade_double false: 12 + 25 = 37
    rules = {"oklahoma": True, "spade_double": False}
    assert one(knock("Ana", 0, 12, upcard="5S"), rules=rules)["points"] == 37


def test_typed_points_are_never_doubled():
    # a points hand is what was written on paper: 20 stays 20 even with KS
    assert one({"winner": "Ana", "points": 20, "upcard": "KS"}, rules=OKLAHOMA)["points"] == 20


def test_upcard_outside_oklahoma_changes_nothing():
    # not Oklahoma: 2S neither limits the knock to 2 nor doubles: 20 - 9 = 11
    assert one(knock("Ana", 9, 20, upcard="2S"))["points"] == 11


def test_oklahoma_draw_needs_no_upcard():
    assert one(DRAW, rules=OKLAHOMA)["result"] == "draw"


# ---------------------------------------------------------------------------
# Who deals
# ---------------------------------------------------------------------------

# Ben deals first. Hands: Ana wins, draw, Ben wins, Ben wins, Ana wins.
DEALER_HANDS = [knock("Ana", 2, 10), DRAW, points("Ben", 5), points("Ben", 5), points("Ana", 5)]


@pytest.mark.parametrize("rule, dealers, next_dealer", [
    # winner: Ben; Ana won -> Ana; draw -> Ana again; Ben won -> Ben; Ben; Ana won -> Ana
    ("winner", ["Ben", "Ana", "Ana", "Ben", "Ben"], "Ana"),
    # loser: Ben; Ana won -> Ben; draw -> Ben; Ben won -> Ana; Ben won -> Ana; Ana won -> Ben
    ("loser", ["Ben", "Ben", "Ben", "Ana", "Ana"], "Ben"),
    # alternate: Ben; -> Ana; draw keeps Ana; -> Ben; -> Ana; -> Ben
    ("alternate", ["Ben", "Ana", "Ana", "Ben", "Ana"], "Ben"),
])
def test_dealer_rules(rule, dealers, next_dealer):
    out = run(DEALER_HANDS, first_dealer="Ben", rules={"dealer_rule": rule})
    assert [h["dealer"] for h in out["hands"]] == dealers
    assert out["next_dealer"] == next_dealer


def test_default_dealer_rule_is_winner_and_first_dealer_is_first_player():
    out = run(DEALER_HANDS)
    # Ana; Ana won -> Ana; draw -> Ana; Ben won -> Ben; Ben; Ana won -> Ana
    assert [h["dealer"] for h in out["hands"]] == ["Ana", "Ana", "Ana", "Ben", "Ben"]
    assert out["next_dealer"] == "Ana"
    assert run([])["next_dealer"] == "Ana"
    assert run([], first_dealer="Ben")["next_dealer"] == "Ben"


def test_undercut_winner_deals_next_under_winner_rule():
    # Ana knocks 7 against 7: Ben wins the undercut, so Ben deals
    assert run([knock("Ana", 7, 7)])["next_dealer"] == "Ben"


@pytest.mark.parametrize("rule", ["winner", "loser", "alternate"])
def test_draws_keep_the_dealer(rule):
    out = run([DRAW, DRAW, DRAW], first_dealer="Ben", rules={"dealer_rule": rule})
    assert [h["dealer"] for h in out["hands"]] == ["Ben", "Ben", "Ben"]
    assert out["next_dealer"] == "Ben"
    assert all(g["scores"] == {"Ana": 0, "Ben": 0} and g["boxes"] == {"Ana": 0, "Ben": 0}
               for g in out["games"])


# ---------------------------------------------------------------------------
# Hollywood: where wins are written, closing, settling
# ---------------------------------------------------------------------------


def test_hollywood_pattern_first_second_third_and_later_win():
    out = run([points("Ana", 1), points("Ana", 2), points("Ana", 3), points("Ana", 4), points("Ben", 5)])
    assert [h["games"] for h in out["hands"]] == [[1], [1, 2], [1, 2, 3], [1, 2, 3], [1]]
    # game 1: Ana 1+2+3+4 = 10, game 2: 2+3+4 = 9, game 3: 3+4 = 7; Ben 5 in game 1 only
    assert [g["scores"] for g in out["games"]] == [
        {"Ana": 10, "Ben": 5}, {"Ana": 9, "Ben": 0}, {"Ana": 7, "Ben": 0}]
    assert [g["boxes"] for g in out["games"]] == [
        {"Ana": 4, "Ben": 1}, {"Ana": 3, "Ben": 0}, {"Ana": 2, "Ben": 0}]


def test_player_shut_out_of_closed_game_1_starts_in_game_2():
    out = run([points("Ana", 40), points("Ana", 35), points("Ana", 30),
               points("Ben", 12), points("Ben", 20), points("Ana", 10)])
    # Ana: [1], [1,2], [1,2,3] -> game 1 = 40+35+30 = 105 >= 100 closes for Ana.
    # Ben's first win cannot go into closed game 1: it starts game 2; his second: 2 and 3.
    # Ana's next win: games 2 and 3 (she has scored in both; game 1 is closed).
    assert [h["games"] for h in out["hands"]] == [[1], [1, 2], [1, 2, 3], [2], [2, 3], [2, 3]]
    g1, g2, g3 = out["games"]
    assert g1["winner"] == "Ana" and g1["scores"] == {"Ana": 105, "Ben": 0}
    # game 2: Ana 35+30+10 = 75, Ben 12+20 = 32; game 3: Ana 30+10 = 40, Ben 20
    assert g2["scores"] == {"Ana": 75, "Ben": 32} and g2["boxes"] == {"Ana": 3, "Ben": 2}
    assert g3["scores"] == {"Ana": 40, "Ben": 20} and g3["boxes"] == {"Ana": 2, "Ben": 1}
    # settled: Ana 105 + 3 x 25 + 100 = 280, Ben 0; shutout: 280 x 2 = 560
    assert g1["settlement"] == {"game_bonus": 100, "box_bonus": {"Ana": 75, "Ben": 0},
                                "shutout": True, "totals": {"Ana": 280, "Ben": 0}, "net": 560}
    assert out["net"] == {"Ana": 560, "Ben": -560}
    assert out["finished"] is False and out["winner"] is None


def test_two_games_close_on_one_hand_and_the_next_win_still_lands():
    out = run([points("Ana", 1), points("Ana", 1), points("Ana", 99), points("Ben", 5), points("Ana", 1)])
    # Ana 1 -> [1]: g1 1.  Ana 1 -> [1,2]: g1 2, g2 1.
    # Ana 99 -> [1,2,3]: g1 101 and g2 100 both close; g3 99 stays open.
    # Ben 5: no box in game 3 yet, and it is the only open game -> [3].
    # Ana 1 -> [3]: g3 100 closes; the match is over.
    assert [h["games"] for h in out["hands"]] == [[1], [1, 2], [1, 2, 3], [3], [3]]
    g1, g2, g3 = out["games"]
    assert (g1["winner"], g2["winner"], g3["winner"]) == ("Ana", "Ana", "Ana")
    # g1: 101 + 3 x 25 + 100 = 276 vs 0, shutout: 552
    assert g1["settlement"]["totals"] == {"Ana": 276, "Ben": 0} and g1["settlement"]["net"] == 552
    # g2: 100 + 2 x 25 + 100 = 250 vs 0, shutout: 500
    assert g2["settlement"]["totals"] == {"Ana": 250, "Ben": 0} and g2["settlement"]["net"] == 500
    # g3: Ana 99 + 1 = 100 + 2 x 25 + 100 = 250, Ben 5 + 25 = 30: 220, no shutout
    assert g3["scores"] == {"Ana": 100, "Ben": 5}
    assert g3["settlement"]["totals"] == {"Ana": 250, "Ben": 30} and g3["settlement"]["net"] == 220
    assert g3["settlement"]["shutout"] is False
    # 552 + 500 + 220 = 1272
    assert out["net"] == {"Ana": 1272, "Ben": -1272}
    assert out["finished"] is True and out["winner"] == "Ana"


def test_game_closes_on_reaching_the_target_exactly():
    # 60 + 40 = 100 = target: closes (game 1). 99 would not.
    out = run([points("Ana", 60), points("Ana", 40)])
    assert out["games"][0]["winner"] == "Ana"
    assert run([points("Ana", 60), points("Ana", 39)])["games"][0]["winner"] is None


def test_bonuses_do_not_count_towards_the_target():
    # single, target 100, box 25: Ana 90 in 3 boxes would be 90 + 75 = 165 with boxes; still open
    out = run([points("Ana", 30)] * 3, format="single")
    assert out["games"][0]["winner"] is None and out["finished"] is False


def test_match_winner_needs_two_of_three_games():
    # Ben 100 -> [1]: game 1 closes for Ben.
    # Ana 100: game 1 is closed and she has no box in 2 or 3 -> [2]: game 2 closes for Ana.
    # Ana 100: only game 3 is open and she has no box there -> [3]: closes for Ana.
    out = run([points("Ben", 100), points("Ana", 100), points("Ana", 100)])
    assert [h["games"] for h in out["hands"]] == [[1], [2], [3]]
    assert [g["winner"] for g in out["games"]] == ["Ben", "Ana", "Ana"]
    assert out["finished"] is True and out["winner"] == "Ana"
    # each game: 100 + 25 + 100 = 225 vs 0, shutout x 2 = 450
    assert [g["settlement"]["net"] for g in out["games"]] == [450, 450, 450]
    # Ana: -450 + 450 + 450 = 450
    assert out["net"] == {"Ana": 450, "Ben": -450}


# ---------------------------------------------------------------------------
# Single format, shutouts, presets
# ---------------------------------------------------------------------------


def test_single_format():
    out = run([points("Ana", 60), knock("Ben", 2, 32), points("Ana", 45)], format="single")
    # Ana 60, Ben 32 - 2 = 30, Ana 60 + 45 = 105 >= 100: closed, the match is over
    assert len(out["games"]) == 1
    assert [h["games"] for h in out["hands"]] == [[1], [1], [1]]
    game = out["games"][0]
    assert game["scores"] == {"Ana": 105, "Ben": 30} and game["boxes"] == {"Ana": 2, "Ben": 1}
    # Ana 105 + 2 x 25 + 100 = 255, Ben 30 + 25 = 55: 200
    assert game["settlement"] == {"game_bonus": 100, "box_bonus": {"Ana": 50, "Ben": 25},
                                  "shutout": False, "totals": {"Ana": 255, "Ben": 55}, "net": 200}
    assert out["finished"] is True and out["winner"] == "Ana"
    assert out["net"] == {"Ana": 200, "Ben": -200}


@pytest.mark.parametrize("multiplier, net", [(1, 225), (2, 450), (3, 675)])
def test_shutout_multiplier(multiplier, net):
    # Ana 100 in one hand, Ben nothing: 100 + 25 + 100 = 225 vs 0, times the multiplier
    rules = {"shutout_multiplier": multiplier} if multiplier != 2 else {}
    game = run([points("Ana", 100)], format="single", rules=rules)["games"][0]
    assert game["settlement"]["shutout"] is True
    assert game["settlement"]["totals"] == {"Ana": 225, "Ben": 0}
    assert game["settlement"]["net"] == net


def test_one_point_is_not_a_shutout():
    # Ben 1 first: Ana 100 + 25 + 100 = 225, Ben 1 + 25 = 26: 199, not doubled
    settlement = run([points("Ben", 1), points("Ana", 100)], format="single")["games"][0]["settlement"]
    assert settlement["shutout"] is False and settlement["net"] == 199


def test_modern_preset_values():
    modern = PRESETS["modern"]
    assert (modern.gin_bonus, modern.undercut_bonus, modern.box_bonus) == (25, 25, 25)
    # everything else as Classic
    assert {k: v for k, v in modern.to_dict().items() if getattr(Rules(), k) != v} == {"undercut_bonus": 25}
    assert (modern.big_gin_bonus, modern.knock_limit, modern.target, modern.game_bonus,
            modern.shutout_multiplier, modern.dealer_rule, modern.oklahoma, modern.spade_double) == (
        31, 10, 100, 100, 2, "winner", False, True)
    assert PRESETS["classic"] == Rules()


def test_classic_defaults_are_the_rules_table():
    assert Rules().to_dict() == {
        "gin_bonus": 25, "undercut_bonus": 10, "big_gin_bonus": 31, "knock_limit": 10,
        "target": 100, "game_bonus": 100, "box_bonus": 25, "shutout_multiplier": 2,
        "dealer_rule": "winner", "oklahoma": False, "spade_double": True,
        # RULES.md "Variants"
        "undercut_on_tie": True, "immediate_boxes": False, "shutout_bonus": 0, "gin_boxes": 1,
        "undercut_boxes": 1, "oklahoma_ace": "gin", "spade_double_boxes": False}


@pytest.mark.parametrize("name, differs", [
    ("bicycle", {"gin_bonus": 20, "box_bonus": 20, "shutout_bonus": 100, "shutout_multiplier": 1}),
    ("palace", {"undercut_bonus": 20, "box_bonus": 10, "immediate_boxes": True, "game_bonus": 0,
                "shutout_multiplier": 1}),
])
def test_variant_presets_are_the_rules_table(name, differs):
    # RULES.md's presets table: the rest are the defaults (Bicycle's undercut 10 is the default)
    preset = PRESETS[name]
    assert {k: v for k, v in preset.to_dict().items() if getattr(Rules(), k) != v} == differs


def test_box_bonus_and_game_bonus_settings():
    # box 20, game bonus 50: Ana 100 + 20 + 50 = 170 vs 0, x 2 = 340
    out = run([points("Ana", 100)], format="single", rules={"box_bonus": 20, "game_bonus": 50})
    assert out["games"][0]["settlement"]["totals"] == {"Ana": 170, "Ben": 0}
    assert out["games"][0]["settlement"]["net"] == 340


def test_target_setting():
    # target 125: 100 does not close, 100 + 25 does
    assert run([points("Ana", 100)], format="single", rules={"target": 125})["finished"] is False
    assert run([points("Ana", 100), points("Ana", 25)], format="single", rules={"target": 125})["finished"] is True


# ---------------------------------------------------------------------------
# Rules validation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("settings, field", [
    ({"gin_bonus_typo": 20}, "rules.gin_bonus_typo"),          # unknown key
    ({"gin_bonus": -1}, "rules.gin_bonus"),                    # negative bonus
    ({"undercut_bonus": -10}, "rules.undercut_bonus"),
    ({"box_bonus": -25}, "rules.box_bonus"),
    ({"knock_limit": 11}, "rules.knock_limit"),
    ({"knock_limit": -1}, "rules.knock_limit"),
    ({"target": 0}, "rules.target"),
    ({"shutout_multiplier": 0}, "rules.shutout_multiplier"),
    ({"dealer_rule": "random"}, "rules.dealer_rule"),          # unknown dealer rule
    ({"gin_bonus": True}, "rules.gin_bonus"),                  # bool where int expected
    ({"target": 100.0}, "rules.target"),                       # float where int expected
    ({"target": "100"}, "rules.target"),
    ({"oklahoma": 1}, "rules.oklahoma"),                       # int where bool expected
    ({"spade_double": 0}, "rules.spade_double"),
    ({"oklahoma": "true"}, "rules.oklahoma"),
    # the variants
    ({"undercut_on_tie": "no"}, "rules.undercut_on_tie"),
    ({"immediate_boxes": 1}, "rules.immediate_boxes"),
    ({"spade_double_boxes": None}, "rules.spade_double_boxes"),
    ({"shutout_bonus": -1}, "rules.shutout_bonus"),
    ({"gin_boxes": 0}, "rules.gin_boxes"),
    ({"gin_boxes": 6}, "rules.gin_boxes"),
    ({"undercut_boxes": 0}, "rules.undercut_boxes"),
    ({"undercut_boxes": 1.0}, "rules.undercut_boxes"),
    ({"oklahoma_ace": "eleven"}, "rules.oklahoma_ace"),
    ({"oklahoma_ace": 1}, "rules.oklahoma_ace"),
])
def test_rules_validation_refuses(settings, field):
    with pytest.raises(MatchError) as info:
        rules_from(settings)
    assert info.value.field == field
    # and the same through a match file, where it belongs to no hand
    error = refusal(document([], rules=settings))
    assert (error.hand, error.field) == (None, field)


def test_rules_must_be_an_object():
    error = refusal(document([], rules=[["gin_bonus", 20]]))
    assert (error.hand, error.field) == (None, "rules")


def test_rules_accept_the_bounds():
    rules = rules_from({"knock_limit": 0, "target": 1, "gin_bonus": 0, "shutout_multiplier": 1})
    assert (rules.knock_limit, rules.target, rules.gin_bonus, rules.shutout_multiplier) == (0, 1, 0, 1)
    assert rules_from({"knock_limit": 10}).knock_limit == 10


# ---------------------------------------------------------------------------
# Match-file refusals: which hand (1-based, None for the match's own fields) and field
# ---------------------------------------------------------------------------

OK = points("Ana", 5)

REFUSALS = [
    ("number as string", document([OK, knock("Ana", "2", 30)]), 2, "knocker_deadwood"),
    ("7.0 float", document([OK, knock("Ana", 2, 7.0)]), 2, "opponent_deadwood"),
    ("7.0 float points", document([{"winner": "Ana", "points": 7.0}]), 1, "points"),
    ("true as a number", document([{"winner": "Ana", "points": True}]), 1, "points"),
    ("true as deadwood", document([knock("Ana", True, 30)]), 1, "knocker_deadwood"),
    ("unknown knocker", document([knock("Eve", 2, 30)]), 1, "knocker"),
    ("unknown winner", document([OK, DRAW, points("Eve", 5)]), 3, "winner"),
    ("same player twice", {"players": ["Ana", "Ana"], "hands": []}, None, "players"),
    ("same player, other case", {"players": ["Ana", "ANA"], "hands": []}, None, "players"),
    ("one player", {"players": ["Ana"], "hands": []}, None, "players"),
    ("three players", {"players": ["Ana", "Ben", "Cyril"], "hands": []}, None, "players"),
    ("no players", {"hands": []}, None, "players"),
    ("empty name", {"players": ["Ana", ""], "hands": []}, None, "players"),
    ("blank name", {"players": ["  ", "Ben"], "hands": []}, None, "players"),
    ("name not a string", {"players": ["Ana", 7], "hands": []}, None, "players"),
    ("first_dealer not a player", document([], first_dealer="Eve"), None, "first_dealer"),
    ("unknown format", document([], format="triple"), None, "format"),
    ("hand after the match finished",
     document([points("Ana", 100), points("Ben", 10)], format="single"), 2, "hand"),
    ("hand after a Hollywood match finished",
     document([points("Ana", 100)] * 3 + [DRAW]), 4, "hand"),
    ("big_gin with deadwood", document([knock("Ana", 2, 30, big_gin=True)]), 1, "big_gin"),
    ("big_gin not bool", document([knock("Ana", 0, 30, big_gin="yes")]), 1, "big_gin"),
    ("big_gin as 1", document([knock("Ana", 0, 30, big_gin=1)]), 1, "big_gin"),
    ("opponent deadwood 99", document([knock("Ana", 2, 99)]), 1, "opponent_deadwood"),
    ("knocker deadwood 99", document([knock("Ana", 99, 99)]), 1, "knocker_deadwood"),
    ("negative deadwood", document([knock("Ana", 2, -1)]), 1, "opponent_deadwood"),
    ("knock over limit", document([DRAW, knock("Ana", 11, 30)]), 2, "knocker_deadwood"),
    ("missing deadwood", document([{"knocker": "Ana", "knocker_deadwood": 2}]), 1, "opponent_deadwood"),
    ("missing upcard under Oklahoma",
     document([knock("Ana", 2, 30)], rules=OKLAHOMA), 1, "upcard"),
    ("bad upcard 1H", document([knock("Ana", 0, 30, upcard="1H")], rules=OKLAHOMA), 1, "upcard"),
    ("bad upcard 11C", document([knock("Ana", 0, 30, upcard="11C")], rules=OKLAHOMA), 1, "upcard"),
    ("lower-case upcard", document([knock("Ana", 0, 30, upcard="7s")], rules=OKLAHOMA), 1, "upcard"),
    ("upcard not a string", document([knock("Ana", 0, 30, upcard=7)], rules=OKLAHOMA), 1, "upcard"),
    ("bad upcard outside Oklahoma", document([knock("Ana", 0, 30, upcard="ZZ")]), 1, "upcard"),
    ("zero points", document([points("Ana", 0)]), 1, "points"),
    ("negative points", document([OK, points("Ben", -5)]), 2, "points"),
    ("draw: false", document([{"draw": False}]), 1, "draw"),
    ("draw: 1", document([{"draw": 1}]), 1, "draw"),
    ("unknown key in a knock", document([knock("Ana", 2, 30, speed="fast")]), 1, "speed"),
    ("unknown key in a points hand", document([{"winner": "Ana", "points": 5, "big_gin": True}]), 1, "big_gin"),
    ("unknown key in a draw", document([{"draw": True, "winner": "Ana"}]), 1, "winner"),
    ("hand not an object", document([OK, "Ana 5"]), 2, "hand"),
    ("hand with no kind", document([{}]), 1, "knocker"),
    ("hands not a list", document({"1": OK}), None, "hands"),
    ("cards twice the same", document([knock("Ana", 0, 30, cards={"knocker": ["7S"], "defender": ["7S"]})]),
     1, "cards.defender"),
]


@pytest.mark.parametrize("source, hand, field", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_match_file_refusals(source, hand, field):
    error = refusal(source)
    assert (error.hand, error.field) == (hand, field)
    # the one line the replay command prints names both
    where = f"hand {hand}, " if hand is not None else ""
    assert error.line().startswith(f"{where}{field}: ")


TEXT_REFUSALS = [
    ("not JSON", "{not json"),
    ("empty file", ""),
    ("not an object: list", "[]"),
    ("not an object: string", '"match"'),
    ("not an object: null", "null"),
    ("NaN", '{"players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": NaN}]}'),
    ("Infinity", '{"players": ["Ana", "Ben"], "hands": [{"winner": "Ana", "points": Infinity}]}'),
    ("-Infinity", '{"players": ["Ana", "Ben"], "rules": {"target": -Infinity}}'),
    ("not UTF-8", b'{"players": ["Ana", "B\xe9n"]}'),
]


@pytest.mark.parametrize("text", [r[1] for r in TEXT_REFUSALS], ids=[r[0] for r in TEXT_REFUSALS])
def test_file_refusals(text):
    error = refusal(text)
    assert (error.hand, error.field) == (None, "file")


def test_a_valid_file_with_everything_in_it_is_accepted():
    doc = {
        "format": "hollywood",
        "players": ["Žofia", "Ľubo"],
        "first_dealer": "Ľubo",
        "rules": {"undercut_bonus": 25, "oklahoma": True},
        "hands": [
            {"knocker": "Žofia", "knocker_deadwood": 4, "opponent_deadwood": 22, "upcard": "10H",
             "cards": {"knocker": ["2S", "2H"], "defender": ["KD"]}},
            {"draw": True, "upcard": "3C"},
            {"winner": "Ľubo", "points": 18},
        ],
    }
    out = replay(json.dumps(doc, ensure_ascii=False).encode("utf-8"))
    # 22 - 4 = 18 for Žofia; Ľubo 18 typed
    assert [(h["result"], h["winner"], h["points"]) for h in out["hands"]] == [
        ("knock", "Žofia", 18), ("draw", None, 0), ("points", "Ľubo", 18)]


# ---------------------------------------------------------------------------
# The replay output has exactly the keys of MATCHFILE.md
# ---------------------------------------------------------------------------


def matchfile_example() -> dict:
    text = (DOCS / "MATCHFILE.md").read_text()
    section = text.split("## Output of `replay`", 1)[1]
    block = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    return json.loads(block)


def test_replay_output_keys_match_matchfile_exactly():
    example = matchfile_example()
    case = json.loads((CASES / "seed001-ana-ben.json").read_text())
    case.pop("expected")
    out = replay(json.dumps(case))

    top = {"players", "hands", "games", "next_dealer", "finished", "winner", "net"}
    hand_keys = {"number", "dealer", "result", "winner", "points", "games"}
    game_keys = {"number", "scores", "boxes", "winner", "settlement"}
    settlement_keys = {"game_bonus", "box_bonus", "shutout", "totals", "net"}

    assert set(example) == set(out) == top
    for hand in example["hands"] + out["hands"]:
        assert set(hand) == hand_keys
    for game in example["games"] + out["games"]:
        assert set(game) == game_keys
        if game["settlement"] is not None:
            assert set(game["settlement"]) == settlement_keys
    # and the values shown in MATCHFILE.md are what the engine gives for seed 001
    assert out["hands"][:2] == example["hands"]
    assert {k: v for k, v in out.items() if k != "hands"} == {k: v for k, v in example.items() if k != "hands"}


def test_every_result_name_is_one_of_matchfile():
    out = run([knock("Ana", 2, 30), knock("Ana", 0, 3), knock("Ana", 0, 3, big_gin=True),
               knock("Ana", 5, 5), DRAW, points("Ben", 1)])
    assert [h["result"] for h in out["hands"]] == ["knock", "gin", "big_gin", "undercut", "draw", "points"]


def test_empty_match_output():
    assert run([]) == {
        "players": ["Ana", "Ben"],
        "hands": [],
        "games": [{"number": n, "scores": {"Ana": 0, "Ben": 0}, "boxes": {"Ana": 0, "Ben": 0},
                   "winner": None, "settlement": None} for n in (1, 2, 3)],
        "next_dealer": "Ana",
        "finished": False,
        "winner": None,
        "net": {"Ana": 0, "Ben": 0},
    }


def test_export_is_the_input_plus_result():
    match = load_match(json.dumps(document([knock("Ana", 4, 22)], rules={"undercut_bonus": 25})))
    exported = export_document(match)
    assert set(exported) == {"format", "players", "first_dealer", "rules", "hands", "result"}
    assert exported["first_dealer"] == "Ana" and exported["format"] == "hollywood"
    assert exported["rules"]["undercut_bonus"] == 25 and exported["rules"]["gin_bonus"] == 25
    assert exported["hands"] == [knock("Ana", 4, 22)]
    assert exported["result"]["hands"][0]["points"] == 18
    # importing it (result ignored) gives the same match back
    assert load_match(json.dumps(exported)) == match


# ---------------------------------------------------------------------------
# The variants of RULES.md
# ---------------------------------------------------------------------------


def test_tie_is_an_undercut_by_default_and_the_knockers_without_undercut_on_tie():
    assert one(knock("Ana", 7, 7))["result"] == "undercut"
    line = one(knock("Ana", 7, 7), rules={"undercut_on_tie": False})
    assert (line["result"], line["winner"], line["points"], line["games"]) == ("knock", "Ana", 0, [1])
    # a lower knocker is still undercut
    assert one(knock("Ana", 7, 6), rules={"undercut_on_tie": False})["result"] == "undercut"


def test_immediate_boxes_count_towards_the_target_and_not_at_the_settlement():
    # box 10: 90 + 10 = 100 closes the game at once; the settlement adds no box bonus
    game = run([points("Ana", 90)], format="single", rules={"immediate_boxes": True, "box_bonus": 10})["games"][0]
    assert (game["scores"], game["winner"]) == ({"Ana": 100, "Ben": 0}, "Ana")
    assert game["settlement"]["box_bonus"] == {"Ana": 0, "Ben": 0}
    assert game["settlement"]["totals"] == {"Ana": 200, "Ben": 0}


def test_shutout_bonus_is_added_before_the_multiplier_and_only_in_a_shutout():
    rules = {"shutout_bonus": 50}
    # Ana 100 + 100 + 25 + 50 = 275, x 2 = 550
    settlement = run([points("Ana", 100)], format="single", rules=rules)["games"][0]["settlement"]
    assert (settlement["totals"]["Ana"], settlement["net"]) == (275, 550)
    settlement = run([points("Ben", 1), points("Ana", 100)], format="single", rules=rules)["games"][0]["settlement"]
    assert settlement["totals"]["Ana"] == 225


def test_gin_and_undercut_boxes():
    rules = {"gin_boxes": 3, "undercut_boxes": 2}
    out = run([knock("Ana", 0, 10), knock("Ana", 8, 2), knock("Ana", 4, 20)], format="single", rules=rules)
    assert out["games"][0]["boxes"] == {"Ana": 4, "Ben": 2}


def test_oklahoma_ace_one_lets_a_player_knock_with_one():
    rules = {"oklahoma": True, "oklahoma_ace": "one"}
    assert one(knock("Ana", 1, 30, upcard="AC"), rules=rules)["points"] == 29
    assert refusal(document([knock("Ana", 2, 30, upcard="AC")], rules=rules)).field == "knocker_deadwood"


def test_spade_double_boxes_doubles_the_boxes_of_a_doubled_hand_only():
    rules = {"oklahoma": True, "spade_double_boxes": True, "gin_boxes": 2}
    out = run([knock("Ana", 0, 10, upcard="5S"), knock("Ben", 0, 10, upcard="5H")], format="single", rules=rules)
    assert out["games"][0]["boxes"] == {"Ana": 4, "Ben": 2}
    # without spade_double there is nothing doubled, so nothing more
    out = run([knock("Ana", 0, 10, upcard="5S")], format="single", rules={**rules, "spade_double": False})
    assert out["games"][0]["boxes"] == {"Ana": 2, "Ben": 0}
