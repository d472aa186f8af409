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


def test_a_long_race_is_drawn_with_at_most_one_point_a_unit_of_width():
    """A race of up to MOST_POINTS hands is drawn whole; a longer one evenly thinned, its start, its
    end and its final scores kept, so the picture of a 1,000-hand match costs what a short one does."""
    from views.charts import MOST_POINTS, thinned

    short = {"A": list(range(50)), "B": [0] * 50}
    assert thinned(short) is short
    long = {"A": [i * 3 for i in range(1001)], "B": [i // 2 for i in range(1001)]}
    drawn = thinned(long)
    assert len(drawn["A"]) == len(drawn["B"]) == MOST_POINTS
    assert drawn["A"][0] == 0 and drawn["A"][-1] == 3000 and drawn["B"][-1] == 500
    assert drawn["A"] == sorted(drawn["A"])  # the order of the hands is kept
    assert plot(drawn, 100).ends["A"] == plot(long, 100).ends["A"]  # the line ends where it ended
