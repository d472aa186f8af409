"""The benchmark's short run, so bench/ cannot rot: it must finish and report every section.

No timing is asserted: the numbers depend on the machine. The smoke run writes its
report to a temporary file, never to BENCHMARKS.md.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ("# Benchmarks", "## Targets", "## Hand entry", "## Sheet cost as a match grows", "## Throughput",
            "## Weight", "## Taps", "## Lighthouse", "## Why")

pytestmark = pytest.mark.browser  # it drives Chromium for the weight and taps sections


def test_bench_smoke_runs_and_reports_every_section():
    before = (ROOT / "BENCHMARKS.md").read_bytes() if (ROOT / "BENCHMARKS.md").exists() else None
    done = subprocess.run([sys.executable, "bench/run.py", "--smoke"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env=dict(os.environ))
    assert done.returncode == 0, f"bench/run.py --smoke exited {done.returncode}:\n{done.stderr[-4000:]}"
    for heading in SECTIONS:
        assert re.search(rf"^{re.escape(heading)}$", done.stdout, re.M), f"no {heading!r} in the output"
    written = re.search(r"wrote (\S+)", done.stderr)
    assert written, done.stderr[-2000:]
    report = Path(written.group(1))
    assert report.resolve() != (ROOT / "BENCHMARKS.md").resolve()
    assert report.read_text(encoding="utf-8").strip() == done.stdout.strip()
    report.unlink()
    after = (ROOT / "BENCHMARKS.md").read_bytes() if (ROOT / "BENCHMARKS.md").exists() else None
    assert after == before, "the smoke run must not touch BENCHMARKS.md"
    if os.environ.get("CI") == "true":  # CI has Chromium: the browser sections must hold numbers
        assert "| knock (Ana knocks with 4, Ben holds 22) |" in done.stdout, done.stdout
        assert "| hand entry |" in done.stdout, done.stdout
