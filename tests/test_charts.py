"""The race pictures' geometry (views/match/charts.py)."""
import random

import pytest

from views.match.charts import DIGIT, PAD, WIDTH, plot, scale


def test_a_race_plot_writes_each_point_as_scale_places_it():
    """views/match/charts.plot finds each x and y it wrote before (a picture redrawn after every hand);
    the points are still exactly where `scale` puts them, for any race."""
    rng = random.Random(5)
    for _ in range(500):
        hands = rng.randint(0, 90)
        series = {"A": [0], "B": [0]}
        for _ in range(hands):
            for points in series.values():
                points.append(points[-1] + rng.choice([0, 0, rng.randint(-20, 70)]))
        target = rng.choice([None, 100, 250])
        drawn = plot(series, target, end_values=rng.random() < 0.5)
        for name, points in series.items():
            placed = scale(points, drawn.bottom, drawn.top, drawn.steps, drawn.right)
            assert drawn.lines[name] == " ".join(f"{x},{y}" for x, y in placed)
            assert drawn.ends[name] == placed[-1]


def test_a_long_race_is_drawn_with_at_most_one_point_a_unit_of_width():
    """A race of up to MOST_POINTS hands is drawn whole; a longer one evenly thinned, its start, its
    end and its final scores kept, so the picture of a 1,000-hand match costs what a short one does."""
    from views.match.charts import MOST_POINTS, thinned

    short = {"A": list(range(50)), "B": [0] * 50}
    assert thinned(short) is short
    long = {"A": [i * 3 for i in range(1001)], "B": [i // 2 for i in range(1001)]}
    drawn = thinned(long)
    assert len(drawn["A"]) == len(drawn["B"]) == MOST_POINTS
    assert drawn["A"][0] == 0 and drawn["A"][-1] == 3000 and drawn["B"][-1] == 500
    assert drawn["A"] == sorted(drawn["A"])  # the order of the hands is kept
    assert plot(drawn, 100).ends["A"] == plot(long, 100).ends["A"]  # the line ends where it ended


@pytest.mark.parametrize("last", [0, 98, 250, 999, 1000, 9041, 123456, 1000000])
def test_an_end_value_is_written_whole_inside_the_picture(last):
    """A value ends at the picture's right edge, right-aligned, and the lines stop short of it by the
    widest font's digits and a gap; a long one (a 1,000-hand match's 9041) makes room for itself, or its
    first digits would be drawn over its line (and cut off at the edge, it would read as another number)."""
    drawn = plot({"A": [0, last // 2, last], "B": [0, 1, 2]}, 100, end_values=True)
    line_end = WIDTH - drawn.right
    for name, value in (("A", last), ("B", 2)):
        x, _ = drawn.labels[name]
        assert x < WIDTH
        assert x - DIGIT * max(len(str(last)), 1) >= line_end + 7
    if len(str(last)) <= 2:  # the usual race keeps the usual picture
        assert drawn.right == PAD
