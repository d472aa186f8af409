"""bench/ladder_bench.py runs to its end on a small club (--smoke): it asserts no time, only that every figure
it reports was measured (each GET it times answered 200)."""
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.bench  # runs bench/ladder_bench.py --smoke

ROOT = Path(__file__).resolve().parents[1]


def test_the_ladder_bench_runs_on_a_small_club():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "ladder_bench.py"), "--smoke"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    for said in ("club: 20 players, 200 finished matches", "ladder, fresh start:", "ladder, warm:",
                 "match page GET, warm:", "ladder after an edit of an early hand"):
        assert said in done.stdout, done.stdout
