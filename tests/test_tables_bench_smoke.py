"""bench/tables_bench.py runs to its end (--smoke), on SQLite and on the tests' PostgreSQL server: it asserts no
time, only that every figure it reports was measured (each save and page it times answered as it should)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import server_url

pytestmark = pytest.mark.bench  # runs bench/tables_bench.py --smoke

ROOT = Path(__file__).resolve().parents[1]
ROWS = ("saved hand of two (POST + its page)", "saved deal of partners (POST + its page)",
        "40-hand match of two: page GET", "40-deal partners match: page GET")


def smoke(env: dict) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "tables_bench.py"), "--smoke"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def row(out: str, name: str) -> list[str]:
    found = re.search(rf"^\| {re.escape(name)} \|(.*)\|$", out, re.M)
    assert found, (name, out)
    return [cell.strip() for cell in found.group(1).split("|")]


def test_the_tables_bench_measures_every_row_on_sqlite():
    out = smoke({k: v for k, v in os.environ.items() if k != "GIN_LEDGER_BENCH_POSTGRESQL"})
    assert out.startswith("## Tables of three and four")
    for name in (*ROWS, "bare app: saved hand (the floor)"):
        assert re.fullmatch(r"\d+\.\d\d", row(out, name)[0]), (name, out)
    assert "PostgreSQL not measured" in out


def test_the_tables_bench_measures_every_row_on_postgresql():
    env = {**os.environ, "GIN_LEDGER_BENCH_POSTGRESQL": server_url()}
    out = smoke(env)
    assert "| request | SQLite: CPU ms | PostgreSQL: CPU ms |" in out
    for name in ROWS:
        assert all(re.fullmatch(r"\d+\.\d\d", cell) for cell in row(out, name)), (name, out)
