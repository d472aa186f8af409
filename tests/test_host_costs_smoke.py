"""bench/host_costs.py runs to its end on a real server and says every number (no timing is asserted)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.bench


def test_host_costs_smoke_prints_each_cost_the_model_and_the_follow_latency():
    done = subprocess.run([sys.executable, "bench/host_costs.py", "--rounds", "1", "--each", "3", "--latency-saves", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    out = done.stdout
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


def test_host_costs_smoke_on_a_hosted_server_weighs_a_tables_pages():
    """--hosted: the same costs for one table under /t/<key>/, whose pages are compressed too."""
    done = subprocess.run([sys.executable, "bench/host_costs.py", "--hosted", "--rounds", "1", "--each", "2",
                           "--latency-saves", "1"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "hosted: FLASK_HOSTED=1, one table" in done.stdout
    assert re.search(r"first visit of a 13-hand match page .*: \d+\.\d KB", done.stdout)
    assert re.search(r"saved hand by the page script, over the wire: \d+\.\d KB", done.stdout)
