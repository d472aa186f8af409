"""Server-side SVG pictures: plain markup, no chart library and no script.

Colours come from classes in style.css (CSP forbids inline styles); every
picture has a title and a text alternative for screen readers.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape

# The page's catalogue, looked up once a request; under this name pybabel extract finds the strings.
from views.site.i18n import number, page_gettext as gettext

WIDTH, HEIGHT, PAD = 320, 180, 28


@dataclass(frozen=True)
class Plot:
    """Coordinates ready for the template: polylines per series and the target line."""

    lines: dict[str, str]  # name -> "x,y x,y ..."
    ends: dict[str, tuple[float, float]]
    target_y: float | None
    zero_y: float
    top: int
    bottom: int
    steps: int
    labels: dict[str, tuple[float, float]]  # name -> where its final value ends, at the right edge
    right: float = PAD  # the room right of the lines (right_pad)


def scale(values: list[int], low: int, high: int, steps: int, right: float = PAD):
    # The factors once, not per point: an open game's picture is drawn anew after every saved hand.
    span = max(high - low, 1)
    dx = (WIDTH - PAD - right) / max(steps, 1)
    return [(round(PAD + i * dx, 1), round(HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span, 1))
            for i, value in enumerate(values)]


# Units of the viewBox a digit of an end value takes: 12px bold (style.css) in DejaVu Sans, the widest of
# the system fonts a page may get (8.34 measured in Chromium; Roboto's and San Francisco's are narrower).
DIGIT = 8.4
VALUE_GAP, VALUE_EDGE = 7, 2  # from a line's end to its value, and from the value to the picture's edge


def right_pad(values) -> float:
    """Room right of the lines for their end values, so that the widest font writes them between the
    line's end and the picture's edge (`end_labels`): a value cut off at the edge reads as another number
    (a 198 as 19)."""
    digits = max(len(str(value)) for value in values)
    return max(PAD, math.ceil(VALUE_GAP + DIGIT * digits + VALUE_EDGE))


LABEL_GAP = 12  # px of the viewBox between two end values, so 103 and 98 never overprint


def end_labels(ends: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Where each line's final value ends (it is written right-aligned there, `race_figure`): at the
    picture's right edge, so that no font cuts it off there, beside its line's end; two ends close together
    are pushed apart, because a race usually ends with the two lines near the target."""
    placed = {name: [WIDTH - VALUE_EDGE, y + 4] for name, (x, y) in ends.items()}
    order = sorted(placed, key=lambda name: placed[name][1])
    for upper, lower in zip(order, order[1:]):
        short = LABEL_GAP - (placed[lower][1] - placed[upper][1])
        if short > 0:
            placed[upper][1] -= short / 2
            placed[lower][1] += short / 2
    return {name: (x, round(min(max(y, LABEL_GAP), HEIGHT - 2), 1)) for name, (x, y) in placed.items()}


# An open game's picture is drawn anew after every saved hand, with the points it had plus one:
# each x and y is written once (as `scale` writes it) and found again, not formatted again.

@lru_cache(maxsize=1024)
def x_texts(steps: int, right: float = PAD) -> tuple[str, ...]:
    dx = (WIDTH - PAD - right) / max(steps, 1)
    return tuple(str(round(PAD + i * dx, 1)) for i in range(steps + 1))


@lru_cache(maxsize=16384)
def y_text(value: int, low: int, high: int) -> str:
    return str(scale([value], low, high, 0)[0][1])


MOST_POINTS = WIDTH - 2 * PAD + 1  # one a unit of the plot's width: more cannot be told apart


def thinned(series: dict[str, Sequence[int]], most: int = MOST_POINTS) -> dict[str, Sequence[int]]:
    """At most `most` evenly spaced points of each series, the first and the last kept, so a race's
    picture does not grow with the match; a race of up to `most` points is drawn whole."""
    count = max(len(points) for points in series.values())
    if count <= most:
        return series
    picked = picked_points(count, most)
    return {name: [points[i] for i in picked] for name, points in series.items()}


@lru_cache(maxsize=256)
def picked_points(count: int, most: int) -> tuple[int, ...]:
    """Which of `count` points a thinned race draws: the same for every race of that length."""
    return tuple(sorted({round(j * (count - 1) / (most - 1)) for j in range(most)}))


def plot(series: dict[str, Sequence[int]], target: int | None = None, end_values: bool = False) -> Plot:
    """`end_values`: each line's last value is written right of its end, with room made for it."""
    values = [v for points in series.values() for v in points]
    top = max(values + [target or 0, 1])
    bottom = min(values + [0])
    steps = max(len(points) for points in series.values()) - 1
    right = right_pad([points[-1] for points in series.values()]) if end_values else PAD
    xs = x_texts(steps, right)
    lines, ends = {}, {}
    for name, points in series.items():
        ys = [y_text(value, bottom, top) for value in points]
        lines[name] = " ".join([f"{x},{y}" for x, y in zip(xs, ys)])
        ends[name] = (float(xs[len(points) - 1]), float(ys[-1]))
    target_y = scale([target], bottom, top, steps)[0][1] if target else None
    zero_y = scale([0], bottom, top, steps)[0][1]
    return Plot(lines, ends, target_y, zero_y, top, bottom, steps, end_labels(ends), right)


def race_figure(race, p: Plot, players: tuple[str, str]) -> Markup:
    """One game's race as the match page draws it (the markup of templates/_race.html's figure).

    Written here rather than in the template because an open game's picture is drawn anew
    after every saved hand, and the template took a tenth of a saved hand for three of them."""
    totals = ", ".join(f"{name} {race.series[name][-1]}" for name in players)
    title = gettext("Game %(number)s: %(totals)s", number=race.game, totals=totals)
    caption = gettext("Game %(number)s", number=race.game)
    closed = ""
    if race.winner:
        closed = gettext("%(winner)s closed it on hand %(hand)s", winner=race.winner, hand=race.last_hand)
        title, caption = f"{title}; {closed}", f"{caption}: {closed}"
    parts = [f'<figure class="chart">\n<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-labelledby="race-{race.game}-title" class="race" data-game="{race.game}">\n'
             f'  <title id="race-{race.game}-title">{escape(title)}</title>\n'
             f'  <line x1="28" x2="{WIDTH - p.right:g}" y1="{p.target_y}" y2="{p.target_y}" class="target"/>\n'
             f'  <text x="30" y="{p.target_y - 4}" class="label">{number(race.target)}</text>\n'
             f'  <line x1="28" x2="{WIDTH - p.right:g}" y1="{p.zero_y}" y2="{p.zero_y}" class="axis"/>\n']
    for index, name in enumerate(players, 1):
        x, y = p.labels[name]
        parts.append(f'  <polyline points="{p.lines[name]}" class="series s{index}" data-player="{escape(name)}"/>\n'
                     f'  <text x="{x}" y="{y}" text-anchor="end" class="value s{index}" aria-hidden="true">{race.series[name][-1]}</text>\n')
    if race.winner:
        x, y = p.ends[race.winner]
        parts.append(f'  <circle cx="{x}" cy="{y}" r="5" class="closed-marker" data-hand="{race.last_hand}"/>\n')
    parts.append(f"</svg>\n<figcaption>{escape(caption)}</figcaption>\n</figure>\n")
    return Markup("".join(parts))
