"""Server-side SVG pictures: plain markup, no chart library and no script.

Colours come from classes in style.css (CSP forbids inline styles); every
picture has a title and a text alternative for screen readers.
"""
from __future__ import annotations

from dataclasses import dataclass

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
    labels: dict[str, tuple[float, float]]  # name -> where its final value is written, right of its line end


def scale(values: list[int], low: int, high: int, steps: int):
    span = max(high - low, 1)
    dx = (WIDTH - 2 * PAD) / max(steps, 1)
    for i, value in enumerate(values):
        yield round(PAD + i * dx, 1), round(HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span, 1)


LABEL_GAP = 12  # px of the viewBox between two end values, so 103 and 98 never overprint


def end_labels(ends: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Each line's final value sits just right of its end; two ends close together are
    pushed apart, because a race usually ends with the two lines near the target."""
    placed = {name: [x + 7, y + 4] for name, (x, y) in ends.items()}
    order = sorted(placed, key=lambda name: placed[name][1])
    for upper, lower in zip(order, order[1:]):
        short = LABEL_GAP - (placed[lower][1] - placed[upper][1])
        if short > 0:
            placed[upper][1] -= short / 2
            placed[lower][1] += short / 2
    return {name: (x, round(min(max(y, LABEL_GAP), HEIGHT - 2), 1)) for name, (x, y) in placed.items()}


def plot(series: dict[str, list[int]], target: int | None = None) -> Plot:
    values = [v for points in series.values() for v in points]
    top = max(values + [target or 0, 1])
    bottom = min(values + [0])
    steps = max(len(points) for points in series.values()) - 1
    lines, ends = {}, {}
    for name, points in series.items():
        coords = list(scale(points, bottom, top, steps))
        lines[name] = " ".join(f"{x},{y}" for x, y in coords)
        ends[name] = coords[-1]
    target_y = next(scale([target], bottom, top, steps))[1] if target else None
    zero_y = next(scale([0], bottom, top, steps))[1]
    return Plot(lines, ends, target_y, zero_y, top, bottom, steps, end_labels(ends))
