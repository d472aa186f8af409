"""The benchmark's short runs, so bench/ cannot rot: each must finish and fill every table with numbers.

No timing is asserted: the numbers depend on the machine, and so does how long the run takes
(it is small, and each server's start waits for its answer). A run that never ends is killed
after HANG_S, a guard against hanging forever and not a measure, and the test says it hung.
The smoke run writes its report to a temporary file, never to BENCHMARKS.md, and leaves no
server running.

bench/engines_bench.py --smoke (SQLite beside PostgreSQL, issue 26) runs twice: on SQLite alone, saying
that PostgreSQL was not measured, and on the PostgreSQL server of the tests' PostgreSQL half
(tests/postgres.py: skipped without GIN_LEDGER_TEST_POSTGRESQL, an error under CI=true), where it
must drop every schema it made.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.driver import why_not
from tests.postgres import server_url
from tests.server import servers_started_by

pytestmark = pytest.mark.bench

ROOT = Path(__file__).resolve().parents[1]
# Section -> how many tables it must hold in a smoke run (Lighthouse is not run in one).
TABLES = {"Targets": 1, "Hand entry": 2, "Sheet cost as a match grows": 2, "Throughput": 2,
          "Two processes on one file": 1, "Memory": 2, "Weight": 1, "Taps": 1, "Lighthouse": 0,
          "Where the time goes": 2}
BROWSER_SECTIONS = ("Weight", "Taps")
# Seconds after which the run counts as hung (killed, and the test fails saying so): far beyond any slow
# machine's run, only so that a hang ends. GIN_LEDGER_BENCH_HANG_S sets it; 0 waits for ever.
HANG_S = float(os.environ.get("GIN_LEDGER_BENCH_HANG_S") or 3600)


def tables_by_section(report: str) -> dict[str, list[list[list[str]]]]:
    """Every Markdown table of the report, under its `## ` heading, as rows of cells (the header row first)."""
    found: dict[str, list] = {}
    section, table = None, None
    for line in report.splitlines():
        if line.startswith("## "):
            section, table = line[3:], None
            found[section] = []
        elif line.startswith("|") and section:
            if table is None:
                table = []
                found[section].append(table)
            table.append([cell.strip() for cell in line.strip("|").split("|")])
        else:
            table = None
    return found


def empty_numeric_cells(table: list[list[str]]) -> list[str]:
    """Cells of right-aligned (numeric) columns that hold no digit: a number that was not filled in."""
    header, align, rows = table[0], table[1], table[2:]
    numeric = [i for i, spec in enumerate(align) if spec.endswith(":")]
    return [f"{header[i]} in {row[0]!r}" for row in rows for i in numeric if not re.search(r"\d", row[i])] + (
        [] if rows else ["no rows"])


def first_cells(table: list[list[str]]) -> list[str]:
    """The first column of a table's rows, below its header and alignment rows."""
    return [row[0] for row in table[2:]]


def run_smoke(script: str = "bench/run.py", *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """`script` --smoke to its end, however long that takes, unless it hangs (HANG_S): then it is killed
    (its servers end with it: tests/server.py) and the test fails. Its servers must all be gone when it ends."""
    with subprocess.Popen([sys.executable, script, "--smoke", *args], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env or dict(os.environ)) as bench:
        try:
            out, err = bench.communicate(timeout=HANG_S or None)
        except subprocess.TimeoutExpired:
            bench.kill()
            out, err = bench.communicate()
            pytest.fail(f"{script} --smoke hung: still running after {HANG_S:.0f} s (GIN_LEDGER_BENCH_HANG_S), "
                        f"killed. Its last words:\n{err[-4000:]}")
    assert not servers_started_by(bench.pid), f"{script} --smoke left servers running"
    return subprocess.CompletedProcess(bench.args, bench.returncode, out, err)


@pytest.mark.browser  # it drives Chromium for the weight and taps sections
def test_bench_smoke_fills_every_table_with_numbers():
    before = (ROOT / "BENCHMARKS.md").read_bytes()
    done = run_smoke()
    assert done.returncode == 0, f"bench/run.py --smoke exited {done.returncode}:\n{done.stderr[-4000:]}"
    written = re.search(r"wrote (\S+)", done.stderr)
    assert written, done.stderr[-2000:]
    report = Path(written.group(1))
    assert report.resolve() != (ROOT / "BENCHMARKS.md").resolve()
    text = report.read_text(encoding="utf-8")
    report.unlink()
    assert text == done.stdout
    assert (ROOT / "BENCHMARKS.md").read_bytes() == before, "the smoke run must not touch BENCHMARKS.md"

    no_browser = why_not() is not None and os.environ.get("CI") != "true"
    found = tables_by_section(text)
    for section, count in TABLES.items():
        assert section in found, f"no section {section!r} in the report"
        expected = 0 if no_browser and section in BROWSER_SECTIONS else count
        assert len(found[section]) == expected, (section, found[section], text)
        for table in found[section]:
            assert not empty_numeric_cells(table), (section, empty_numeric_cells(table))
    assert "Not measured" not in text or no_browser, text
    assert len(found["Targets"][0]) - 2 == (2 if no_browser else 8), found["Targets"]
    assert first_cells(found["Throughput"][1]) == ["4", "16"], found["Throughput"][1]  # clients per level
    assert first_cells(found["Two processes on one file"][0]) == ["1", "1", "2", "2"], text  # processes per row
    assert len(first_cells(found["Memory"][0])) == 5 and len(first_cells(found["Memory"][1])) == 2, found["Memory"]


ENGINES_SECTION = "SQLite and PostgreSQL (issue 26)"


def engines_smoke(tmp_path: Path, *args: str, env: dict | None = None) -> list[list[list[str]]]:
    """bench/engines_bench.py --smoke with its section written to a file: its tables, each filled with numbers."""
    before = (ROOT / "BENCHMARKS.md").read_bytes()
    out = tmp_path / "engines.md"
    done = run_smoke("bench/engines_bench.py", "--out", str(out), *args, env=env)
    assert done.returncode == 0, f"bench/engines_bench.py --smoke exited {done.returncode}:\n{done.stderr[-4000:]}"
    assert (ROOT / "BENCHMARKS.md").read_bytes() == before, "the smoke run must not touch BENCHMARKS.md"
    text = out.read_text(encoding="utf-8")
    assert text == done.stdout
    tables = tables_by_section(text)[ENGINES_SECTION]
    assert len(tables) == 3, text  # hands, page GETs, the write lock
    for table in tables:
        assert not empty_numeric_cells(table), empty_numeric_cells(table)
    return tables


def test_engines_bench_smoke_on_sqlite_says_postgresql_was_not_measured(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "GIN_LEDGER_BENCH_POSTGRESQL"}
    hands, gets, lock = engines_smoke(tmp_path, env=env)
    assert [row[:3] for row in hands[2:]] == [["SQLite", "1", "4"], ["SQLite", "1", "16"], ["SQLite", "2", "4"],
                                               ["SQLite", "2", "16"]]
    assert first_cells(gets) == ["SQLite"] * 2 and first_cells(lock) == ["SQLite"]
    assert "PostgreSQL not measured: no server given" in (tmp_path / "engines.md").read_text()


def bench_schemas(url: str) -> set[str]:
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        return {row[0] for row in conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'bench%'")}


def test_engines_bench_smoke_on_postgresql_drops_its_schemas(tmp_path):
    url = server_url()
    before = bench_schemas(url)
    hands, gets, lock = engines_smoke(tmp_path, "--postgresql", url)
    engines = ["SQLite", "PostgreSQL", "PostgreSQL, synchronous_commit off"]
    assert [tuple(row[:3]) for row in hands[2:]] == [(engine, str(p), str(c)) for engine in engines for p in (1, 2)
                                                     for c in (4, 16)]
    assert first_cells(gets) == [engine for engine in engines for _ in (1, 2)] and first_cells(lock) == engines
    assert bench_schemas(url) <= before, "the bench left its schemas behind"


def test_the_full_run_keeps_the_sections_it_does_not_write():
    """bench/run.py rewrites its own sections of BENCHMARKS.md and keeps the others' (host costs, engines,
    Lighthouse, the hand-written tables), between its opening and its sections, in their order."""
    from bench.run import beside_the_others

    existing = ("# Benchmarks\n\nold opening\n\n## What a host pays (issue 24)\n\nhost numbers\n\n"
                "## Targets\n\nold targets\n\n## Lighthouse on the home pages\n\nby lighthouse.py\n")
    generated = "# Benchmarks\n\nnew opening\n\n## Targets\n\nnew targets\n\n## Memory\n\nnew memory\n"
    assert beside_the_others(generated, existing) == (
        "# Benchmarks\n\nnew opening\n\n## What a host pays (issue 24)\n\nhost numbers\n\n"
        "## Lighthouse on the home pages\n\nby lighthouse.py\n\n## Targets\n\nnew targets\n\n## Memory\n\nnew memory\n")
    assert beside_the_others(generated, "") == generated
