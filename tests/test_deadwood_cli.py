"""`flask --app app deadwood CARD... [--onto "4H 5H 6H"]`: JSON on stdout, refusals exit 2 with one line.

The random hands are checked against an exhaustive scorer written here, apart
from models/game/melds.py: every collection of disjoint melds is tried, and after
each the defender lays off whatever can reach the knocker's melds.
"""
import json
import random
from itertools import combinations

import pytest

from cardutil import full_deck
from models.game.cards import RANKS, SUITS, Card, parse_card

pytestmark = pytest.mark.sqlite_only  # melds and the command line: the database is incidental


def run(runner, *cards, onto=()):
    args = ["deadwood", *cards]
    for meld in onto:
        args += ["--onto", meld]
    return runner.invoke(args=args)


def answer(runner, *cards, onto=()):
    result = run(runner, *cards, onto=onto)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert result.stderr == ""
    assert result.stdout.count("\n") == 1  # one JSON object on one line
    return json.loads(result.stdout)


# --------------------------------------------------------------------------
# Known hands
# --------------------------------------------------------------------------

KNOCKER = "3S 4S 5S 7H 7D 7C 9H 10H JH 2C".split()
KNOCKER_MELDS = ["3S 4S 5S", "9H 10H JH", "7C 7D 7H"]
DEFENDER = "6S 2S QH 8H KD KC KS 4D 9C 5C".split()


def test_output_keys_and_a_knockers_hand(runner):
    out = answer(runner, *KNOCKER)
    assert set(out) == {"melds", "laid_off", "deadwood", "points"}
    assert out == {"melds": [["3S", "4S", "5S"], ["7C", "7D", "7H"], ["9H", "10H", "JH"]],
                   "laid_off": [], "deadwood": ["2C"], "points": 2}


def test_defender_lays_off_onto_the_knockers_melds(runner):
    out = answer(runner, *DEFENDER, onto=KNOCKER_MELDS)
    assert out == {"melds": [["KC", "KD", "KS"]], "laid_off": ["2S", "6S", "8H", "QH"],
                   "deadwood": ["4D", "5C", "9C"], "points": 18}
    alone = answer(runner, *DEFENDER)
    assert alone["laid_off"] == [] and alone["points"] == 6 + 2 + 10 + 8 + 4 + 9 + 5


def test_gin_and_big_gin(runner):
    gin = answer(runner, *"AS 2S 3S 4S 5D 5H 5C JD QD KD".split())
    assert gin["points"] == 0 and gin["deadwood"] == []
    big = answer(runner, *"AS 2S 3S 4S 5D 5H 5C JD QD KD 10D".split())
    assert big["points"] == 0 and sum(len(m) for m in big["melds"]) == 11


def test_the_card_a_set_and_a_run_both_want(runner):
    # 7H makes the set of sevens or the heart run 5H-6H-7H: only the run leaves 7S 7D as deadwood (14)
    # against 5H 6H (11) for the set, so the set is right here.
    out = answer(runner, *"7S 7D 7H 5H 6H KC KD KS AC 2D".split())
    assert out["points"] == 5 + 6 + 1 + 2
    assert ["7D", "7H", "7S"] in out["melds"]


def test_no_meld_hand_counts_every_card(runner):
    out = answer(runner, *"KS KH QD QC JS JH 10D 10C 9S 9H".split())
    assert out["melds"] == [] and out["points"] == 98


# --------------------------------------------------------------------------
# Refusals: exit 2, one line on stderr, nothing on stdout
# --------------------------------------------------------------------------

@pytest.mark.parametrize("cards, onto, fragment", [
    (["ZZ"] + KNOCKER[1:], (), "'ZZ' is not a card"),
    (["7s"] + KNOCKER[1:], (), "'7s' is not a card"),
    (KNOCKER[:9] + ["3S"], (), "3S appears twice"),
    (KNOCKER[:9], (), "a hand has 10 or 11 cards, this one has 9"),
    (KNOCKER + ["AD", "AH"], (), "this one has 12"),
    (DEFENDER, ["4H 5H 7H"], "is not a meld"),
    (DEFENDER, ["4H 5H"], "is not a meld"),
    (DEFENDER, ["4H 5H 6H", "6H 6D 6C"], "6H is in more than one"),
    (DEFENDER, ["KS KH KC"], "is in both the knocker's melds and the defender's hand"),
    (DEFENDER, ["4H 5H XX"], "'XX' is not a card"),
])
def test_refusals(runner, cards, onto, fragment):
    result = run(runner, *cards, onto=onto)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert fragment in result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.endswith("\n")


# --------------------------------------------------------------------------
# Random hands against an exhaustive scorer
# --------------------------------------------------------------------------

def melds_within(cards: frozenset) -> list[frozenset]:
    """Every set (3 or 4 of a rank, any 3 of a 4) and every run (3+ consecutive, one suit) in the cards."""
    out = []
    for rank in range(1, 14):
        same = [c for c in cards if c.rank == rank]
        for size in range(3, len(same) + 1):
            out += [frozenset(group) for group in combinations(same, size)]
    for suit in SUITS:
        for low in range(1, 12):
            for high in range(low + 2, 14):
                run_ = frozenset(Card(rank, suit) for rank in range(low, high + 1))
                if run_ <= cards:
                    out.append(run_)
    return out


def is_run(meld) -> bool:
    return len({c.suit for c in meld}) == 1 and len({c.rank for c in meld}) == len(meld) > 1


def laid_off(left: set, onto) -> set:
    """All the left-over cards that reach the knocker's melds: run ends (chained), then a set of three's gap.

    Laying a card on a run only moves that run's end on, so every card that can reach a run
    (through others) is taken first; a card left over that fills a set's gap opens nothing
    further, and only that one card fits the gap.
    """
    ends = {}  # suit -> ranks of the knocker's runs in that suit, growing as cards are laid on them
    for meld in onto:
        if is_run(meld):
            ends.setdefault(next(iter(meld)).suit, set()).update(c.rank for c in meld)
    gone = set()
    changed = True
    while changed:
        changed = False
        for card in sorted(set(left) - gone):
            ranks = ends.get(card.suit, set())
            if card.rank - 1 in ranks or card.rank + 1 in ranks:
                ranks.add(card.rank)
                gone.add(card)
                changed = True
    for meld in onto:
        if not is_run(meld) and len(meld) == 3:
            rank, suits = next(iter(meld)).rank, {c.suit for c in meld}
            gone |= {c for c in set(left) - gone if c.rank == rank and c.suit not in suits}
    return gone


def brute_points(cards, onto=()) -> int:
    """The least deadwood over every collection of disjoint melds, lay-offs after each."""
    cards = frozenset(cards)
    melds = melds_within(cards)
    best = [sum(c.value for c in cards)]

    def visit(start: int, left: frozenset) -> None:
        rest = left - laid_off(left, onto) if onto else left
        best[0] = min(best[0], sum(c.value for c in rest))
        for i in range(start, len(melds)):
            if melds[i] <= left:
                visit(i + 1, left - melds[i])

    visit(0, cards)
    return best[0]


def assert_well_formed(out: dict, hand: list[str], onto=()) -> None:
    """Each card once; melds are melds; lay-offs only with --onto; points add up."""
    placed = [code for meld in out["melds"] for code in meld] + out["laid_off"] + out["deadwood"]
    assert sorted(placed) == sorted(hand)
    for meld in out["melds"]:
        cards = [parse_card(code) for code in meld]
        assert frozenset(cards) in melds_within(frozenset(cards)), meld
    if not onto:
        assert out["laid_off"] == []
    assert out["points"] == sum(parse_card(code).value for code in out["deadwood"])


def window_deck(rng: random.Random) -> list[Card]:
    """Cards of 5 to 8 adjacent ranks, where melds and lay-offs crowd each other."""
    width = rng.randint(5, 8)
    low = rng.randint(1, 14 - width)
    return [Card(rank, suit) for rank in range(low, low + width) for suit in SUITS]


def test_the_brute_force_itself_on_known_hands():
    def cards(text):
        return [parse_card(code) for code in text.split()]
    assert brute_points(cards(" ".join(KNOCKER))) == 2
    assert brute_points(cards(" ".join(DEFENDER)),
                        [frozenset(cards(m)) for m in KNOCKER_MELDS]) == 18
    # A chain: 7H and 8H reach the run 4H-5H-6H only through each other.
    assert brute_points(cards("7H 8H KS"), [frozenset(cards("4H 5H 6H"))]) == 10
    assert brute_points(cards("8H KS"), [frozenset(cards("4H 5H 6H"))]) == 18
    # 5H fills the set's gap or carries the chain 6H-5H-4H down to the run 7H-9H: the run takes all three.
    assert brute_points(cards("6H 5H 4H"), [frozenset(cards("7H 8H 9H")), frozenset(cards("5S 5D 5C"))]) == 0


@pytest.mark.parametrize("seed", range(8))
def test_random_hands_match_the_brute_force(runner, seed):
    rng = random.Random(seed)
    for _ in range(15):
        deck = full_deck() if rng.random() < 0.4 else window_deck(rng)
        hand = [c.code for c in rng.sample(deck, rng.choice([10, 11]))]
        out = answer(runner, *hand)
        assert_well_formed(out, hand)
        assert out["points"] == brute_points(parse_card(c) for c in hand), hand


@pytest.mark.parametrize("seed", range(8))
def test_random_layoffs_match_the_brute_force(runner, seed):
    rng = random.Random(1000 + seed)
    tried = 0
    while tried < 15:
        deck = window_deck(rng)
        rng.shuffle(deck)
        knocker, defender = deck[:10], [c.code for c in deck[10:20]]
        if len(defender) < 10:
            continue
        # The knocker's melds: any disjoint melds of its cards, not necessarily its best.
        melds, free = [], frozenset(knocker)
        for meld in sorted(melds_within(free), key=lambda m: rng.random()):
            if meld <= free:
                melds.append(meld)
                free -= meld
        if not melds:
            continue
        tried += 1
        onto = [" ".join(c.code for c in sorted(meld)) for meld in melds]
        out = answer(runner, *defender, onto=onto)
        assert_well_formed(out, defender, onto)
        assert out["points"] == brute_points([parse_card(c) for c in defender], melds), (defender, onto)
        assert out["points"] <= brute_points(parse_card(c) for c in defender)


def test_ranks_and_suits_are_the_match_file_notation():
    assert RANKS[0] == "A" and RANKS[-1] == "K" and SUITS == ("S", "H", "D", "C")
