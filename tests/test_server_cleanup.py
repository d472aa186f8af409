"""No server outlives what started it (tests/server.py), however that ends.

A holder of servers, as a test fixture or the bench holds them, is killed with SIGKILL
(nothing of it runs: the servers notice their parent is gone), SIGTERM or SIGINT (its
handler stops them before it ends); then the bench itself, killed mid-run. The servers are found by
the parent pid in their environment (servers_started_by), so also once orphaned.

No timing is asserted: the servers' own readiness waits say when they are up, and the
wait for them to be gone polls and ends as soon as they are, bounded by GONE_S only so
that a survivor fails the test instead of hanging it.
"""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server import ROOT, START_TIMEOUT, STOP_GRACE, WATCH_INTERVAL, servers_started_by

pytestmark = [pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finds the servers in /proc"),
              pytest.mark.slow]

GONE_S = 6 * (STOP_GRACE + WATCH_INTERVAL)  # far beyond SIGTERM, then SIGKILL after STOP_GRACE
POLL_S = 0.05

# Two servers, the app alone and the app with files (the bench's), each of the factories that watch the parent.
HOLDER = """
import pathlib, signal, sys, time
sys.path.insert(0, sys.argv[1])
from tests.server import Server
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal (a background job ignores it)
folder = pathlib.Path(sys.argv[2])
with Server(folder / "plain.sqlite", threads=2) as plain, \\
        Server(folder / "files.sqlite", threads=2, files_dir=folder) as files:
    print(plain.pid, files.pid, flush=True)
    while True:
        time.sleep(1)
"""


def left_after_polling(parent: int, bound: float = GONE_S) -> list[int]:
    """Poll until `parent` has no live server, or `bound` seconds have passed: the servers still there."""
    deadline = time.monotonic() + bound
    while (left := servers_started_by(parent)) and time.monotonic() < deadline:
        time.sleep(POLL_S)
    return left


def ended(process: subprocess.Popen, signum: signal.Signals) -> int:
    """Its exit status once it has ended, which a handler stopping the servers first delays by at most
    STOP_GRACE; failing (not hanging) if it never does."""
    try:
        return process.wait(timeout=GONE_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung: still running {GONE_S:.0f} s after {signum.name}")


@contextlib.contextmanager
def reaped(process: subprocess.Popen):
    """Whatever the test found, end the process and anything of it still there (by pid), and reap it."""
    try:
        yield process
    finally:
        for pid in servers_started_by(process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
        process.wait()


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_killed_holder_leaves_no_server(tmp_path, signum):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(ROOT), str(tmp_path)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with reaped(holder):
        line = holder.stdout.readline()  # once both answer: Server.start waits for that (or fails, and this is "")
        assert line, f"the holder started no server: {holder.communicate()[1][-3000:]}"
        pids = sorted(map(int, line.split()))
        assert sorted(servers_started_by(holder.pid)) == pids  # how the servers are found, checked once

        holder.send_signal(signum)
        assert ended(holder, signum) != 0
        if signum != signal.SIGKILL:  # its handler stopped them before it ended, not their watch after
            assert not servers_started_by(holder.pid), f"the holder ended on {signum.name} before its servers"
        left = left_after_polling(holder.pid)
        assert not left, f"servers {left} outlived their parent killed by {signum.name}"


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: s.name)
def test_a_killed_bench_leaves_no_server(tmp_path, signum):
    log = open(tmp_path / "bench.log", "w+")
    bench = subprocess.Popen([sys.executable, "bench/run.py", "--smoke", "--out", str(tmp_path / "report.md")],
                             cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    hung = time.monotonic() + 3 * START_TIMEOUT  # its first part starts a server at once: only a hang stops here
    with log, reaped(bench):
        while not (running := servers_started_by(bench.pid)) and bench.poll() is None and time.monotonic() < hung:
            time.sleep(POLL_S)
        log.seek(0)
        assert running, f"the bench started no server (exit {bench.poll()}, or hung):\n{log.read()[-3000:]}"

        bench.send_signal(signum)
        ended(bench, signum)
        left = left_after_polling(bench.pid)
        log.seek(0)
        assert not left, f"servers {left} outlived the bench killed by {signum.name}:\n{log.read()[-3000:]}"
