"""A plain `pytest` says why tests skipped (issue 37): the project's pytest.ini asks for the reasons."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test starts a server or another process: left out of the quick loop

ROOT = Path(__file__).resolve().parents[1]


def test_a_plain_run_names_each_skip_and_its_reason(tmp_path):
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\n"
        "def test_skipped():\n"
        "    pytest.skip('Chromium not found: apt-get install -y chromium')\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pytest.ini"), "--rootdir", str(tmp_path),
                          "-p", "no:cacheprovider", str(tmp_path / "test_skips.py")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "1 skipped" in run.stdout, run.stdout + run.stderr
    assert "SKIPPED [1] test_skips.py:4: Chromium not found: apt-get install -y chromium" in run.stdout, run.stdout
