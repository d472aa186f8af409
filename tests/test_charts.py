"""The race pictures' geometry (views/charts.py)."""
import random

from views.charts import plot, scale


def test_a_race_plot_writes_each_point_as_scale_places_it():
    """views/charts.plot finds each x and y it wrote before (a picture redrawn after every hand);
    the points are still exactly where `scale` puts them, for any race."""
    rng = random.Random(5)
    for _ in range(500):
        hands = rng.randint(0, 90)
        series = {"A": [0], "B": [0]}
        for _ in range(hands):
            for points in series.values():
                points.append(points[-1] + rng.choice([0, 0, rng.randint(-20, 70)]))
        target = rng.choice([None, 100, 250])
        drawn = plot(series, target)
        for name, points in series.items():
            placed = scale(points, drawn.bottom, drawn.top, drawn.steps)
            assert drawn.lines[name] == " ".join(f"{x},{y}" for x, y in placed)
            assert drawn.ends[name] == placed[-1]
