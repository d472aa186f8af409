"""Meld solver: hand-worked answers, then hypothesis against a literal brute force.

The brute force here shares no code with models/game/melds.py: it finds melds by
checking every subset of the hand, tries every collection of disjoint melds,
and lays off by literally adding a card to a knocker meld and asking whether
the result is still a meld, in every order.
"""
from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardutil import all_melds, full_deck, is_meld
from models.game.cards import SUITS, Card, parse_card
from models.game.meld_codes import MeldError, check_knocker_melds, parse_hand, parse_knocker_melds, parse_meld
from models.game.melds import Arrangement, best_after_layoffs, best_arrangement

DECK = full_deck()


def cards(text: str) -> list[Card]:
    return [parse_card(code) for code in text.split()]


def codes(group) -> list[str]:
    return [card.code for card in group]


# --------------------------------------------------------------------------
# Brute force (independent of the module)
# --------------------------------------------------------------------------

def literal_is_meld(group) -> bool:
    """3+ cards: all one rank with different suits, or one suit, ranks consecutive."""
    if len(group) < 3:
        return False
    if len({c.rank for c in group}) == 1:
        return len({c.suit for c in group}) == len(group)
    if len({c.suit for c in group}) != 1:
        return False
    ranks = sorted(c.rank for c in group)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))


def brute_melds(hand) -> list[tuple[Card, ...]]:
    """Every subset of the hand of size 3+ that is a meld."""
    ordered = sorted(hand)
    return [
        group
        for size in range(3, len(ordered) + 1)
        for group in combinations(ordered, size)
        if literal_is_meld(group)
    ]


def disjoint_unions(melds):
    """The cards covered by every collection of pairwise-disjoint melds."""
    def go(start, used):
        yield used
        for i in range(start, len(melds)):
            if used.isdisjoint(melds[i]):
                yield from go(i + 1, used | frozenset(melds[i]))
    yield from go(0, frozenset())


def points(group) -> int:
    return sum(card.value for card in group)


def brute_best_points(hand) -> int:
    """Least deadwood over every collection of disjoint melds."""
    total = points(hand)
    return min(total - points(used) for used in disjoint_unions(brute_melds(hand)))


def max_laid_off_value(loose, knocker) -> int:
    """Most points that can be laid off, trying every card on every meld in every order."""
    memo: dict = {}

    def go(config, left):
        key = (config, left)
        if key not in memo:
            best = 0
            for card in left:
                for i, meld in enumerate(config):
                    grown = meld | {card}
                    if literal_is_meld(list(grown)):
                        nxt = config[:i] + (grown,) + config[i + 1:]
                        best = max(best, card.value + go(nxt, left - {card}))
            memo[key] = best
        return memo[key]

    return go(tuple(frozenset(m) for m in knocker), frozenset(loose))


def brute_layoff_points(defender, knocker) -> int:
    """Least deadwood when own melds are chosen first and the rest laid off maximally."""
    hand = frozenset(defender)
    best = points(hand)
    seen = set()
    for used in disjoint_unions(brute_melds(defender)):
        rest = hand - used
        if rest not in seen:
            seen.add(rest)
            best = min(best, points(rest) - max_laid_off_value(rest, knocker))
    return best


def assert_well_formed(arrangement: Arrangement, hand, knocker=()) -> None:
    """Melds valid and sorted, every card accounted for once, points add up."""
    melded = [card for meld in arrangement.melds for card in meld]
    everything = melded + list(arrangement.laid_off) + list(arrangement.deadwood)
    assert sorted(everything) == sorted(hand)
    for meld in arrangement.melds:
        assert literal_is_meld(meld) and list(meld) == sorted(meld)
    assert list(arrangement.melds) == sorted(arrangement.melds)
    assert list(arrangement.deadwood) == sorted(arrangement.deadwood)
    assert list(arrangement.laid_off) == sorted(arrangement.laid_off)
    assert arrangement.points == points(arrangement.deadwood)
    laid = arrangement.laid_off
    assert max_laid_off_value(laid, knocker) == points(laid), "a laid-off card does not fit"


# --------------------------------------------------------------------------
# Hands worked out by hand
# --------------------------------------------------------------------------

def test_greedy_longest_meld_is_wrong():
    # Greedy takes the 4-run 4S-7S and strands 7H 7D (14 more points).
    # Best: run 4S 5S 6S plus set 7D 7H 7S; deadwood KC QD 2H 9C = 10+10+2+9.
    hand = cards("4S 5S 6S 7S 7H 7D KC QD 2H 9C")
    result = best_arrangement(hand)
    assert codes(result.deadwood) == ["2H", "9C", "QD", "KC"]
    assert result.points == 31
    assert [codes(m) for m in result.melds] == [["4S", "5S", "6S"], ["7D", "7H", "7S"]]


def test_card_in_set_or_run_goes_to_the_set():
    # 7H in the set 7S 7D 7H leaves 5H 6H (11); in the run 5H 6H 7H it leaves
    # 7S 7D (14).  Fillers KC QC 2D 9S 3C add 10+10+2+9+3 = 34 either way.
    result = best_arrangement(cards("7S 7D 7H 5H 6H KC QC 2D 9S 3C"))
    assert [codes(m) for m in result.melds] == [["7D", "7H", "7S"]]
    assert result.points == 11 + 34


def test_card_in_set_or_run_goes_to_the_run():
    # With 8H 9H instead: set leaves 8H 9H (17), run 7H 8H 9H leaves 7S 7D (14).
    result = best_arrangement(cards("7S 7D 7H 8H 9H KC QC 2D 9S 3C"))
    assert [codes(m) for m in result.melds] == [["7H", "8H", "9H"]]
    assert result.points == 14 + 34


def test_card_in_set_or_run_with_both_sides():
    # 5H-9H is one run of five (leaves 7S 7D = 14); the set 7S 7D 7H would
    # leave 5H 6H 8H 9H (28).  Fillers KC QC 3C: 23.
    result = best_arrangement(cards("7S 7D 7H 5H 6H 8H 9H KC QC 3C"))
    assert [codes(m) for m in result.melds] == [["5H", "6H", "7H", "8H", "9H"]]
    assert codes(result.deadwood) == ["3C", "7D", "7S", "QC", "KC"]
    assert result.points == 14 + 23


def test_four_of_a_kind_splits_to_feed_a_run():
    # 7C is needed for 7C 8C 9C; the other three sevens still make a set.
    result = best_arrangement(cards("7S 7H 7D 7C 8C 9C AS 2S 3S KD"))
    # Melds are listed in card order, so 7C 8C 9C sorts before 7D 7H 7S.
    assert [codes(m) for m in result.melds] == [["AS", "2S", "3S"], ["7C", "8C", "9C"], ["7D", "7H", "7S"]]
    assert result.points == 10


def test_no_meld_hand_scores_98():
    # Spades K J 9, hearts K J 9, diamonds Q 10, clubs Q 10: no suit has three
    # consecutive ranks, and every rank appears only twice, so there is no
    # meld.  Deadwood is 2 * (10 + 10 + 10 + 10 + 9) = 98.
    hand = cards("KS KH QD QC JS JH 10D 10C 9S 9H")
    assert all_melds(hand) == []
    result = best_arrangement(hand)
    assert result.melds == () and result.points == 98


def test_gin():
    result = best_arrangement(cards("AS 2S 3S 4S 5D 5H 5C JC QC KC"))
    assert result.points == 0 and result.deadwood == ()
    assert len(result.melds) == 3


def test_big_gin_eleven_cards():
    result = best_arrangement(cards("AS 2S 3S 4S 5S 5D 5H 5C JC QC KC"))
    assert result.points == 0 and result.deadwood == ()
    assert sum(len(m) for m in result.melds) == 11


def test_ace_is_low_and_runs_do_not_wrap():
    # Q K A is not a run; A 2 3 is.  Q and K are left: 20 points.
    assert not is_meld(cards("QS KS AS"))
    assert all_melds(cards("QS KS AS")) == []
    result = best_arrangement(cards("QS KS AS 2S 3S"))
    assert [codes(m) for m in result.melds] == [["AS", "2S", "3S"]]
    assert result.points == 20
    assert best_arrangement(cards("JS QS KS")).points == 0


def test_all_melds_counts_subsets_and_subruns():
    # Four sevens: four 3-subsets plus the whole set.  A five-card run has
    # three 3-runs, two 4-runs and itself.
    assert len(all_melds(cards("7S 7H 7D 7C"))) == 5
    assert len(all_melds(cards("3H 4H 5H 6H 7H"))) == 6
    assert all_melds(cards("3H 4H 5H")) == [tuple(cards("3H 4H 5H"))]


def test_ties_are_reproducible_whatever_the_input_order():
    # K set or J-Q-K run: both leave 20 points on 2 cards.
    hand = cards("KS KD KH QH JH 2C 4D")
    first = best_arrangement(hand)
    assert first.points == 26
    rng = random.Random(7)
    for _ in range(20):
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert best_arrangement(shuffled) == first


def test_to_dict_uses_card_codes():
    result = best_arrangement(cards("4H 5H 6H 10D KC"))
    assert result.to_dict() == {
        "melds": [["4H", "5H", "6H"]],
        "laid_off": [],
        "deadwood": ["10D", "KC"],
        "points": 20,
    }


def test_partial_and_full_hands_are_accepted():
    assert best_arrangement([]) == Arrangement((), (), (), 0)
    assert best_arrangement(cards("KS")).points == 10
    assert best_arrangement(DECK).points == 0


# --------------------------------------------------------------------------
# Lay-offs worked out by hand
# --------------------------------------------------------------------------

def test_layoffs_chain_upwards_and_downwards():
    # 8H then 9H go on top of 5H 6H 7H; 4H then 3H below it.  KC stays.
    result = best_after_layoffs(cards("9H 8H 4H 3H KC"), [cards("5H 6H 7H")])
    assert codes(result.laid_off) == ["3H", "4H", "8H", "9H"]
    assert codes(result.deadwood) == ["KC"] and result.points == 10


def test_chain_needs_every_link():
    # 9H cannot go on 5H 6H 7H without 8H.
    result = best_after_layoffs(cards("9H KC"), [cards("5H 6H 7H")])
    assert result.laid_off == () and result.points == 19


def test_layoff_onto_sets():
    # A three-card set takes its missing suit; a four-card set takes nothing,
    # and a set never takes a neighbouring rank.
    assert codes(best_after_layoffs(cards("7H 8S"), [cards("7S 7D 7C")]).laid_off) == ["7H"]
    assert best_after_layoffs(cards("8S 6S"), [cards("7S 7D 7C")]).points == 14
    assert best_after_layoffs(cards("9H"), [cards("9S 9D 9C")]).points == 0
    assert best_after_layoffs(cards("2H 3S"), [cards("9S 9D 9C 9H")]).points == 5


def test_own_set_and_chained_layoff_together():
    # Knocker 4H 5H 6H.  Defender 7H 8H 7S 7D 7C: keeping all four sevens as a
    # set strands 8H (8); the set 7S 7D 7C plus laying off 7H then 8H leaves 0.
    result = best_after_layoffs(cards("7H 8H 7S 7D 7C"), [cards("4H 5H 6H")])
    assert result.points == 0
    assert codes(result.laid_off) == ["7H", "8H"]
    assert [codes(m) for m in result.melds] == [["7C", "7D", "7S"]]


def test_layoff_via_run_beats_layoff_onto_set():
    # 7H fits the set 7S 7D 7C or below 8H 9H 10H; only the run lets 6H follow.
    result = best_after_layoffs(cards("7H 6H"), [cards("7S 7D 7C"), cards("8H 9H 10H")])
    assert codes(result.laid_off) == ["6H", "7H"] and result.points == 0


def test_layoffs_fill_a_gap_from_both_sides():
    # 5H goes on top of 2H-4H, 7H under 8H-10H; 6H can follow either.
    result = best_after_layoffs(cards("5H 6H 7H QS"), [cards("2H 3H 4H"), cards("8H 9H 10H")])
    assert result.points == 10
    result = best_after_layoffs(cards("5H 7H"), [cards("2H 3H 4H"), cards("8H 9H 10H")])
    assert codes(result.laid_off) == ["5H", "7H"] and result.points == 0


def test_no_knocker_melds_means_plain_best():
    hand = cards("4S 5S 6S 7S 7H 7D KC QD 2H 9C")
    assert best_after_layoffs(hand, []) == best_arrangement(hand)


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------

def test_parse_hand_accepts_ten_or_eleven():
    assert parse_hand("AS 2S 3S 4S 5D 5H 5C JC QC KC".split()) == cards("AS 2S 3S 4S 5D 5H 5C JC QC KC")
    assert len(parse_hand("AS 2S 3S 4S 5S 5D 5H 5C JC QC KC".split())) == 11


@pytest.mark.parametrize(
    "hand, fragment",
    [
        ("AS 2S 3S 4S 5D 5H 5C JC QC 1C", "'1C' is not a card"),
        ("AS 2S 3S 4S 5D 5H 5C JC QC AS", "AS appears twice"),
        ("AS 2S 3S 4S 5D 5H 5C JC QC", "this one has 9"),
        ("AS 2S 3S 4S 5D 5H 5C JC QC KC 9D 9H", "this one has 12"),
    ],
)
def test_parse_hand_names_the_problem(hand, fragment):
    with pytest.raises(MeldError, match=fragment):
        parse_hand(hand.split())


def test_parse_hand_refuses_a_string():
    with pytest.raises(MeldError, match="list of card codes"):
        parse_hand("AS 2S 3S")


def test_parse_meld():
    assert parse_meld(["9H", "7H", "8H"]) == tuple(cards("7H 8H 9H"))
    assert parse_meld(["QD", "QS", "QC", "QH"]) == tuple(cards("QC QD QH QS"))


@pytest.mark.parametrize(
    "meld, fragment",
    [
        ("7H 8H", "at least 3 cards"),
        ("QS KS AS", "consecutive"),
        ("7H 8H 10H", "consecutive"),
        ("7H 8S 9H", "one rank"),
        ("7H 7S 7X", "'7X' is not a card"),
        ("7H 7S 7H", "7H appears twice"),
    ],
)
def test_parse_meld_names_the_problem(meld, fragment):
    with pytest.raises(MeldError, match=fragment):
        parse_meld(meld.split())


def test_knocker_melds_must_not_overlap():
    with pytest.raises(MeldError, match="7H is in more than one"):
        check_knocker_melds([cards("7S 7D 7H"), cards("5H 6H 7H")], [])
    with pytest.raises(MeldError, match="KC is in both"):
        check_knocker_melds([cards("JC QC KC")], cards("2D KC"))
    with pytest.raises(MeldError, match="KC is in both"):
        parse_knocker_melds([["JC", "QC", "KC"]], cards("2D KC"))
    assert parse_knocker_melds([["JC", "QC", "KC"], ["2S", "2H", "2D"]]) == [
        tuple(cards("JC QC KC")), tuple(cards("2D 2H 2S"))
    ]


def test_solvers_refuse_bad_input():
    with pytest.raises(MeldError, match="KS appears twice"):
        best_arrangement(cards("KS KS"))
    with pytest.raises(MeldError, match="not a meld"):
        best_after_layoffs(cards("2D"), [cards("JC QC AC")])
    with pytest.raises(MeldError, match="KC is in both"):
        best_after_layoffs(cards("KC"), [cards("JC QC KC")])


# --------------------------------------------------------------------------
# Properties against the brute force
# --------------------------------------------------------------------------

random_hands = st.sampled_from([10, 11]).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True)
)


@st.composite
def dense_hands(draw):
    """10 or 11 cards from 3-6 adjacent ranks, where melds overlap heavily."""
    width = draw(st.integers(3, 6))
    low = draw(st.integers(1, 14 - width))
    pool = [Card(rank, suit) for rank in range(low, low + width) for suit in SUITS]
    size = draw(st.sampled_from([10, 11]))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


@st.composite
def layoff_deals(draw):
    """Knocker melds in a window of ranks; defender cards from that window +-1 rank."""
    width = draw(st.integers(4, 8))
    low = draw(st.integers(1, 14 - width))
    knocker: list[list[Card]] = []
    taken: set[Card] = set()
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            start = draw(st.integers(low, low + width - 3))
            length = draw(st.integers(3, min(5, low + width - start)))
            suit = draw(st.sampled_from(SUITS))
            meld = [Card(rank, suit) for rank in range(start, start + length)]
        else:
            rank = draw(st.integers(low, low + width - 1))
            suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=4, unique=True))
            meld = [Card(rank, suit) for suit in suits]
        if taken.isdisjoint(meld):
            knocker.append(meld)
            taken.update(meld)
    ranks = range(max(1, low - 1), min(13, low + width) + 1)
    pool = [Card(r, s) for r in ranks for s in SUITS if Card(r, s) not in taken]
    size = min(len(pool), draw(st.sampled_from([10, 11])))
    defender = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    return defender, knocker


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(random_hands)
def test_random_hands_match_brute_force(hand):
    result = best_arrangement(hand)
    assert_well_formed(result, hand)
    assert result.points == brute_best_points(hand)


@SETTINGS
@given(dense_hands())
def test_dense_hands_match_brute_force(hand):
    result = best_arrangement(hand)
    assert_well_formed(result, hand)
    assert result.points == brute_best_points(hand)


@SETTINGS
@given(st.one_of(random_hands, dense_hands()))
def test_all_melds_matches_brute_force(hand):
    assert all_melds(hand) == sorted(brute_melds(hand))


@SETTINGS
@given(dense_hands(), st.randoms(use_true_random=False))
def test_input_order_does_not_matter(hand, rng):
    shuffled = hand[:]
    rng.shuffle(shuffled)
    assert best_arrangement(shuffled) == best_arrangement(hand)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layoff_deals())
def test_layoffs_match_brute_force(deal):
    defender, knocker = deal
    result = best_after_layoffs(defender, knocker)
    assert_well_formed(result, defender, knocker)
    assert result.points == brute_layoff_points(defender, knocker)
    assert result.points <= best_arrangement(defender).points
