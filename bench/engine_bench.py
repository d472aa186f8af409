"""How long the engine takes over long matches: a measurement, not a test.

    python bench/engine_bench.py            # 1,000 / 10,000 / 100,000 hands
    python bench/engine_bench.py 5000 20000 # other sizes

For each size it builds tests/generate.py's long match, the one the property
tests replay (every kind of hand; target 1,000,000 so that no game closes and
every hand is accepted), and prints the best of 5 runs of:

- score_sheet(match)           the fold alone, on an already validated Match
- load_match(text)             parse + validate every hand (+ the fold it runs to
                               refuse hands after the end)
- replay(text)                 what `flask --app app replay` does: load_match,
                               score_sheet, to_dict

and the cost per hand, which should stay flat if the growth is linear. The
same runs are also timed in process CPU time (steadier when the machine is busy).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.errors import MatchError  # noqa: E402
from models.game.ledger import score_sheet  # noqa: E402
from models.files.matchfile import load_match, replay  # noqa: E402
from tests.generate import long_match  # noqa: E402

SIZES = (1_000, 10_000, 100_000)
REPEATS = 5


def best_of(repeats: int, fn, clock=time.perf_counter) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def measure(count: int) -> dict:
    doc = long_match(count)
    text = json.dumps(doc)
    match = load_match(text)
    out = replay(text)
    assert len(out["hands"]) == count and out["finished"] is False, "the match must stay open"
    return {
        "hands": count,
        "bytes": len(text),
        "score_sheet": best_of(REPEATS, lambda: score_sheet(match)),
        "load_match": best_of(REPEATS, lambda: load_match(text)),
        "replay": best_of(REPEATS, lambda: replay(text)),
        # CPU time of this process only: steadier than wall time on a busy machine
        "replay_cpu": best_of(REPEATS, lambda: replay(text), time.process_time),
    }


def main(argv: list[str]) -> None:
    sizes = [int(arg.replace("_", "").replace(",", "")) for arg in argv] or list(SIZES)
    print(f"Python {sys.version.split()[0]}, best of {REPEATS}")
    print("wall time (best of 5); replay cpu = process CPU time (best of 5)")
    header = (f"{'hands':>8} {'file KB':>8} | {'score_sheet':>12} {'load_match':>12} {'replay':>12} "
              f"{'replay cpu':>12} | {'us/hand (sheet / replay)':>24}")
    print(header)
    print("-" * len(header))
    for count in sizes:
        try:
            r = measure(count)
        except MatchError as error:
            print(f"{count:>8,}  not measured: {error}")
            continue
        per_sheet = r["score_sheet"] / count * 1e6
        per_replay = r["replay"] / count * 1e6
        print(f"{count:>8,} {r['bytes'] / 1024:>8.0f} | {r['score_sheet'] * 1e3:>9.1f} ms {r['load_match'] * 1e3:>9.1f} ms "
              f"{r['replay'] * 1e3:>9.1f} ms {r['replay_cpu'] * 1e3:>9.1f} ms | {per_sheet:>10.2f} / {per_replay:>6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
