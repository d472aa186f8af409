"""Ratings: a pure fold of a table's finished matches, in the order they finished, through openskill.

Nothing here is stored. Each finished match rates its players with openskill's Plackett-Luce
model (Weng-Lin's Bayesian approximation) as two teams: the winning side of the match (two games of
three in Hollywood, the game in a single game: `Sheet.winner`) ranks first. At a table of two each
team is one player; partners are two teams of two, chouette the box alone against the team of 2-3. A player's rating is a belief about his
skill, a mean `mu` and an uncertainty `sigma`; the number shown is the cautious end of it,
`SCALE * (mu - 3 sigma)`: a new player shows 0, and it rises as his results show what he can do.

The order is the one the matches finished in, read from stored data: `match.finished`, the time
the write that closed the match was stored (the unit of work sets it once, when the fold first says
the match is over, and keeps it while the match stays over), then the match's id. Any write that
changes a result, or takes a match away or brings it back, changes what this fold reads, so every
rating after it follows. Players are kept by their id, never by their name: a renamed player keeps
his rating, and two merged spellings are one player with one rating.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the package's defaults: mu 25, sigma 25/3 (its public interface only)
Z = 3  # how many sigmas below the mean the shown number sits: 99.7% sure the player is at least this good
SCALE = 40  # the shown number is the ordinal times SCALE, rounded: whole numbers, a player's first win ~ +120
START = 0  # what a new player shows: 40 * (25 - 3 * 25/3)
PROVISIONAL = 5  # a table's default: players with fewer finished matches are listed apart
PROVISIONAL_MOST = 50  # the setting's bounds (0: nobody is provisional)
TREND_POINTS = 20  # the trend picture shows the rating after each of the player's last 20 matches


@dataclass(frozen=True)
class Result:
    """A finished match as the fold reads it: when it finished (ISO text, UTC), who won and who lost: a player id
    at a table of two, else the ids of the winning side's players and of the losing side's."""

    match_id: int
    finished: str
    winner: int | tuple[int, ...]
    loser: int | tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return self.winner if isinstance(self.winner, tuple) else (self.winner,)

    @property
    def losers(self) -> tuple[int, ...]:
        return self.loser if isinstance(self.loser, tuple) else (self.loser,)


@dataclass(frozen=True)
class Point:
    """A player's rating after one of his matches."""

    match_id: int
    finished: str
    rating: int
    won: bool


@dataclass(frozen=True)
class Rated:
    """One player's rating now, with its history (oldest first)."""

    player: int
    mu: float
    sigma: float
    points: tuple[Point, ...]
    rating: int = field(init=False)  # shown(mu, sigma)
    won: int = field(init=False)  # how many of his matches he won

    def __post_init__(self) -> None:
        object.__setattr__(self, "rating", shown(self.mu, self.sigma))
        object.__setattr__(self, "won", sum(point.won for point in self.points))

    @property
    def matches(self) -> int:
        return len(self.points)

    @property
    def last(self) -> str:
        return self.points[-1].finished

    def rating_before(self, moment: str) -> int:
        """What he showed before `moment` (ISO text): after his last match finished earlier, else START."""
        for point in reversed(self.points):  # newest first: tonight's few are passed over
            if point.finished < moment:
                return point.rating
        return START

    def trend(self, most: int = TREND_POINTS) -> tuple[int, ...]:
        """The rating before his last `most` matches, then after each of them."""
        points = self.points[-most:]
        first = START if len(points) == len(self.points) else self.points[-most - 1].rating
        return (first, *(point.rating for point in points))


def shown(mu: float, sigma: float) -> int:
    """The number a page shows: the ordinal (mu - 3 sigma) scaled to whole numbers."""
    return round(SCALE * (mu - Z * sigma))


def in_order(results: Iterable[Result]) -> list[Result]:
    """The order the matches finished in: their stored finishing time, then their id."""
    return sorted(results, key=lambda result: (result.finished, result.match_id))


def rate(results: Iterable[Result]) -> Mapping[int, Rated]:
    """Every rated player by id: the fold of `results` in the order they finished. Read-only, so a cache may share it."""
    beliefs: dict = {}  # player id -> his openskill rating object after his latest match (the model returns new ones)
    points: dict[int, list[Point]] = {}
    for result in in_order(results):
        sides = (result.winners, result.losers)
        seated = [player for side in sides for player in side]
        if len(set(seated)) != len(seated) or not all(sides):
            raise ValueError(f"match {result.match_id} has a player on both sides, or a side of nobody")
        teams = [[beliefs.get(player) or MODEL.rating() for player in side] for side in sides]
        # One team per side, the winners ranked first: a match of two is a team of one against a team of one.
        after_teams = MODEL.rate(teams, ranks=[1, 2])
        for side, after_team, won in ((sides[0], after_teams[0], True), (sides[1], after_teams[1], False)):
            for player, after in zip(side, after_team):
                beliefs[player] = after
                points.setdefault(player, []).append(
                    Point(result.match_id, result.finished, shown(after.mu, after.sigma), won))
    return MappingProxyType({player: Rated(player, after.mu, after.sigma, tuple(points[player]))
                             for player, after in beliefs.items()})


@dataclass(frozen=True)
class Rung:
    """A line of the ladder: the rank (equal ratings share one) and the player's rating."""

    rank: int
    rated: Rated


def ladder(rated: Iterable[Rated], least: int, name_key: Callable[[Rated], object]) -> tuple[list[Rung], list[Rated]]:
    """The ranked players (at least `least` finished matches), highest rating first, and the provisional ones
    apart, highest rating first too, so a young club's first night already reads in order; equal ratings share
    a rank and are listed by `name_key`."""
    ranked = sorted((r for r in rated if r.matches >= least), key=lambda r: (-r.rating, name_key(r)))
    rungs, rank = [], 0
    for index, one in enumerate(ranked, start=1):
        if index == 1 or one.rating != ranked[index - 2].rating:
            rank = index
        rungs.append(Rung(rank, one))
    provisional = sorted((r for r in rated if r.matches < least), key=lambda r: (-r.rating, name_key(r)))
    return rungs, provisional


def trend_path(values: tuple[int, ...], width: int, height: int, pad: int = 2) -> str:
    """The points of an SVG polyline through `values`, left to right, the highest at the top."""
    if len(values) < 2:
        values = (values[0], values[0]) if values else (START, START)
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (width - 2 * pad) / (len(values) - 1)
    return " ".join(f"{pad + i * step:.1f},{pad + (high - v) / span * (height - 2 * pad):.1f}"
                    for i, v in enumerate(values))
