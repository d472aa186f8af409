"""bench/host_costs.py runs to its end on a real server and says every number (no timing is asserted).

Most of a run is waiting, as a follower polls at a phone's pace, so the module starts both runs (at home
and hosted) at once and each test reads its own: the numbers are not compared with anything."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.bench
RUNS = {"home": ("--rounds", "1", "--each", "3", "--latency-saves", "2"),
        "hosted": ("--hosted", "--rounds", "1", "--each", "2", "--latency-saves", "1")}


@pytest.fixture(scope="module")
def runs():
    started = {name: subprocess.Popen([sys.executable, "bench/host_costs.py", *args], cwd=ROOT, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE) for name, args in RUNS.items()}
    yield started
    for run in started.values():
        run.kill()
        run.communicate()


def finished(run: subprocess.Popen) -> str:
    try:
        out, err = run.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        run.kill()
        pytest.fail("bench/host_costs.py still running after 600 s, killed")
    assert run.returncode == 0, err[-4000:]
    return out


def test_host_costs_smoke_prints_each_cost_the_model_and_the_follow_latency(runs):
    out = finished(runs["home"])
    for row in ("quiet poll (If-None-Match, 304)", "quiet poll as the page script asks (X-Sheet, empty 200)",
                "saved hand by the page script", "saved hand without the script (Post/Redirect/Get", "fragment for a follower (200)",
                "whole live fragment (200, no ETag)", "saved hand, then the spectator's step",
                "bare app: static GET of the stylesheet", "bare app: saved hand (the floor)"):
        assert re.search(rf"\| {re.escape(row)}[^|]* \| \d+\.\d+ \|", out), (row, out)
    assert re.search(r"10,000 active tables: \d+\.\d cores \(\d+\.\d if every quiet poll were a 304", out)
    assert re.search(r"seen by the other phone .*median \d+\.\d\d s, at most \d+\.\d\d s", out)
    assert re.search(r"seen by the spectator .*median \d+\.\d\d s, at most \d+\.\d\d s", out)
    assert "polls per table per hour: 3,600 " in out  # two phones every 2.5 s, the spectator every 5 s
    assert re.search(r"memory per table, .*: \d+ KB once its pages are opened .*, \d+ KB more for each saved hand", out)
    assert re.search(r"the page cache holds the newest \d+ s of saved hands", out)


def test_host_costs_smoke_on_a_hosted_server_weighs_a_tables_pages(runs):
    """--hosted: the same costs for one table under /t/<key>/, whose pages are compressed too."""
    out = finished(runs["hosted"])
    assert "hosted: FLASK_HOSTED=1, one table" in out
    assert re.search(r"first visit of a 13-hand match page .*: \d+\.\d KB", out)
    assert re.search(r"saved hand by the page script, over the wire: \d+\.\d KB", out)
