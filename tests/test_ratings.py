"""The ladder's pure parts, without the web: the ratings fold (models/game/ratings.py), the pairings
(models/game/pairing.py) and the table's night (models/game/night.py)."""
from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from openskill.models import PlackettLuce

from models.game.evening import Played, tonight
from models.game.hand import KNOCK, Hand
from models.game.ledger import score_sheet
from models.game.match import Match
from models.game.night import Night, tallies
from models.game.pairing import PairingRefused, check_pair, pairings
from models.game.ratings import START, Result, ladder, rate, shown, trend_path
from models.game.stakes import Stake


def at(minute: int) -> str:
    return (datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc) + timedelta(minutes=minute)).isoformat(timespec="seconds")


def test_one_match_rates_both_players_as_openskill_does():
    rated = rate([Result(7, at(0), winner=1, loser=2)])
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]])
    assert (rated[1].mu, rated[1].sigma) == (winner.mu, winner.sigma)
    assert (rated[2].mu, rated[2].sigma) == (loser.mu, loser.sigma)
    assert rated[1].rating == shown(winner.mu, winner.sigma) > START > rated[2].rating
    assert (rated[1].matches, rated[1].won, rated[2].won, rated[1].last) == (1, 1, 0, at(0))


def test_the_fold_follows_the_order_the_matches_finished_in_not_the_order_given():
    results = [Result(1, at(0), 1, 2), Result(2, at(5), 2, 3), Result(3, at(9), 3, 1)]
    assert rate(results) == rate(list(reversed(results)))
    # The same results finishing in another order rate differently: order is part of the fold.
    moved = [Result(1, at(10), 1, 2), results[1], results[2]]
    assert rate(moved)[1].mu != rate(results)[1].mu
    # Two matches finishing in the same second go by their id.
    tied = [Result(5, at(0), 1, 2), Result(4, at(0), 2, 1)]
    assert [p.match_id for p in rate(tied)[1].points] == [4, 5]


def test_a_player_who_keeps_winning_climbs_and_his_history_says_each_step():
    rated = rate([Result(n, at(n), 1, 2 + n % 3) for n in range(6)])
    steps = [point.rating for point in rated[1].points]
    assert steps == sorted(steps) and len(set(steps)) == 6
    assert rated[1].rating_before(at(3)) == steps[2]
    assert rated[1].rating_before(at(0)) == START
    assert rated[1].trend(3) == tuple(steps[2:])
    assert rated[1].trend() == (START, *steps)


def test_a_match_with_one_player_on_both_sides_is_refused():
    with pytest.raises(ValueError):
        rate([Result(1, at(0), 4, 4)])


def test_the_ladder_ranks_the_established_and_lists_the_provisional_apart():
    results = [Result(n, at(n), 1 if n % 4 else 2, 2 if n % 4 else 1) for n in range(8)] + [Result(9, at(20), 3, 1)]
    rated = rate(results)
    names = {1: "Ana", 2: "Ben", 3: "Cyril"}
    rungs, provisional = ladder(rated.values(), 5, lambda r: names[r.player])
    assert [rung.rated.player for rung in rungs] == [1, 2]
    assert [rung.rank for rung in rungs] == [1, 2]
    assert [r.player for r in provisional] == [3]
    rungs, provisional = ladder(rated.values(), 0, lambda r: names[r.player])
    assert len(rungs) == 3 and provisional == []


def test_equal_ratings_share_a_rank_and_are_listed_by_name():
    rated = rate([Result(1, at(0), 1, 2), Result(2, at(1), 3, 4)])
    names = {1: "Zoë", 2: "Ben", 3: "Ana", 4: "Cyril"}
    rungs, _ = ladder(rated.values(), 1, lambda r: names[r.player])
    assert [(rung.rank, names[rung.rated.player]) for rung in rungs] == [(1, "Ana"), (1, "Zoë"), (3, "Ben"), (3, "Cyril")]


def test_the_trend_line_spans_its_box_highest_at_the_top():
    points = [tuple(map(float, pair.split(","))) for pair in trend_path((0, 100, 50), 80, 20).split()]
    assert points == [(2.0, 18.0), (40.0, 2.0), (78.0, 10.0)]
    assert len(trend_path((5,), 80, 20).split()) == 2  # one value: a flat line


def test_pairings_take_the_nearest_rating_not_met_tonight():
    ratings = {1: 400, 2: 390, 3: 100, 4: 95, 5: 380}
    # Gaps 10 + 5 either way (1-2 or 2-5 beside 3-4): the lower ids are seated, the tie goes the same way.
    assert pairings(ratings).pairs == ((1, 2), (3, 4))
    assert pairings(ratings).left == (5,)
    met = [frozenset((1, 2))]
    assert pairings(ratings, met=met).pairs == ((2, 5), (3, 4))
    assert pairings(ratings, busy=[1], met=met).pairs == ((2, 5), (3, 4))


def test_a_pair_that_met_does_not_leave_two_waiting():
    """Issue 45's table: the top-down greedy paired 1-2 and left 3 and 4, who met, waiting."""
    found = pairings({1: 100, 2: 95, 3: 50, 4: 0}, met=[frozenset((3, 4))])
    assert found.pairs == ((1, 3), (2, 4)) and found.left == ()


def test_the_odd_one_out_is_who_has_waited_least():
    ratings = {1: 100, 2: 90, 3: 80}
    assert pairings(ratings, played={1: 2, 2: 1, 3: 1}).left == (1,)
    assert pairings(ratings, played={1: 1, 2: 1, 3: 2}).left == (3,)
    found = pairings(ratings, played={1: 0, 2: 2, 3: 0})
    assert found.pairs == ((1, 3),) and found.left == (2,) and found.met_all == frozenset()


def test_a_player_who_has_met_everyone_free_is_left_out():
    found = pairings({1: 10, 2: 20, 3: 30}, met=[frozenset((1, 3)), frozenset((2, 3))])
    assert found.pairs == ((2, 1),) and found.left == (3,) and found.met_all == {3}


def brute_best(ratings, met, played):
    """Every seating of the free players, best by: most seated, then the waiting ones having played the most,
    then the smallest gap sum."""
    players = sorted(ratings)

    def seatings(rest):
        if len(rest) < 2:
            yield ()
            return
        first, others = rest[0], rest[1:]
        yield from seatings(others)  # first waits
        for at, other in enumerate(others):
            if frozenset((first, other)) not in met:
                for more in seatings(others[:at] + others[at + 1:]):
                    yield ((first, other),) + more

    def score(seating):
        seated = {p for pair in seating for p in pair}
        return (len(seating), sum(played[p] for p in players if p not in seated),
                -sum(abs(ratings[a] - ratings[b]) for a, b in seating))
    return max(score(seating) for seating in seatings(players)), score


def test_pairings_agree_with_every_seating_tried():
    rng = random.Random(45)
    for _ in range(300):
        count = rng.randint(1, 7)
        ratings = {player: rng.choice((0, 50, 95, 100, 120, rng.randint(0, 300))) for player in range(1, count + 1)}
        met = {frozenset(pair) for pair in itertools.combinations(ratings, 2) if rng.random() < 0.3}
        played = {player: rng.randint(0, 3) for player in ratings}
        best, score = brute_best(ratings, met, played)
        found = pairings(ratings, met=met, played=played)
        assert score(found.pairs) == best, (ratings, met, played, found)
        assert all(frozenset(pair) not in met for pair in found.pairs)
        assert sorted([p for pair in found.pairs for p in pair] + list(found.left)) == sorted(ratings)
        assert pairings(dict(reversed(ratings.items())), met=met, played=played) == found  # order-free


def test_a_pair_asked_for_must_be_two_players_of_the_table():
    assert check_pair(1, 2, [1, 2, 3]) == (1, 2)
    for one, two in ((1, 1), (1, 9), (None, 2)):
        with pytest.raises(PairingRefused):
            check_pair(one, two, [1, 2, 3])


def single(winner: str, loser: str, finished: bool = True) -> Match:
    gin = Hand(KNOCK, knocker=winner, knocker_deadwood=0, opponent_deadwood=60)
    return Match((winner, loser), "single", winner, hands=(gin, gin) if finished else (gin,))


T0 = datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)


def test_the_night_adds_up_every_match_of_the_table_per_player():
    euro = Stake(Decimal("0.10"), "€")
    matches = [Played(1, T0, T0 + timedelta(hours=1), score_sheet(single("Ana", "Ben")), euro),
               Played(2, T0, T0 + timedelta(hours=1), score_sheet(single("Cyril", "Dana"))),
               Played(3, T0 + timedelta(hours=1), T0 + timedelta(hours=2), score_sheet(single("Ben", "Cyril", False)))]
    night = Night(tuple(tonight(matches, T0 + timedelta(hours=3))))
    assert night.start == T0 and night.met == {frozenset(("Ana", "Ben")), frozenset(("Cyril", "Dana")),
                                               frozenset(("Ben", "Cyril"))}
    assert night.playing == {"Ben", "Cyril"}
    lines = {tally.name: tally for tally in tallies(night.matches, str)}
    ana_net = score_sheet(single("Ana", "Ben")).net["Ana"]
    assert (lines["Ana"].matches, lines["Ana"].matches_won, lines["Ana"].games_won, lines["Ana"].net) == (1, 1, 1, ana_net)
    assert (lines["Ben"].matches, lines["Ben"].matches_won, lines["Ben"].net) == (2, 0, -ana_net)
    assert lines["Ana"].money["€"][1] == ana_net * Decimal("0.10") == -lines["Ben"].money["€"][1]
    assert lines["Cyril"].money == {}
    assert [tally.name for tally in tallies(night.matches, str)][0] in ("Ana", "Cyril")
