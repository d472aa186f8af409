"""What one tap's live preview costs as a match grows: a measurement, not a test.

    python bench/preview_bench.py            # 10 and 1,000 hands
    python bench/preview_bench.py 10 2000    # other sizes (the ratio is the last's over the first's)

For each size it builds tests/generate.py's long match (every kind of hand; target
1,000,000, so that every hand is accepted) with that many hands stored, folds its
sheet once (the sheet the app's match cache holds), and times the preview of the
next hand, the engine directly, no web:

- step   preview_hand(sheet, entry): the entry read, the stored sheet stepped by
         one hand (ledger.sheet_after, as saving steps it)
- fold   the same entry read, and the whole match folded anew with it (what the
         preview did before it stepped), for contrast

Each is the best of 7 runs of a loop, per call, in wall time and in process CPU time
(steadier when the machine is busy). The step should cost about the same at every size.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.game.entry import read_entry  # noqa: E402
from models.game.ledger import score_sheet  # noqa: E402
from models.files.matchfile import read_document  # noqa: E402
from models.game.preview import preview_hand  # noqa: E402
from tests.generate import long_match  # noqa: E402

SIZES = (10, 1_000)
REPEATS = 7
BUDGET = 0.05  # seconds of calls a run aims for, so that a run is long enough to time


def per_call(fn, clock=time.perf_counter) -> float:
    """The best of REPEATS runs of a loop of calls, per call."""
    start = clock()
    fn()
    loops = max(1, min(2_000, int(BUDGET / max(clock() - start, 1e-6))))
    best = float("inf")
    for _ in range(REPEATS):
        start = clock()
        for _ in range(loops):
            fn()
        best = min(best, (clock() - start) / loops)
    return best


def measure(count: int) -> dict:
    doc = long_match(count + 1)
    match = read_document({**doc, "hands": doc["hands"][:count]})
    sheet, raw = score_sheet(match), doc["hands"][count]

    def fold():
        hand = read_entry(raw, match.players, match.rules)
        return score_sheet(match.with_hands(match.hands + (hand,))).lines[-1]

    assert preview_hand(sheet, raw).line == fold(), "the step must say what the fold says"
    return {
        "hands": count,
        "step": per_call(lambda: preview_hand(sheet, raw)),
        "fold": per_call(fold),
        "step_cpu": per_call(lambda: preview_hand(sheet, raw), time.process_time),
        "fold_cpu": per_call(fold, time.process_time),
    }


def main(argv: list[str]) -> None:
    sizes = [int(arg.replace("_", "").replace(",", "")) for arg in argv] or list(SIZES)
    print(f"Python {sys.version.split()[0]}, one preview of the next hand, best of {REPEATS} (us per call)")
    header = f"{'hands':>8} | {'step':>9} {'step cpu':>9} | {'fold':>10} {'fold cpu':>10}"
    print(header)
    print("-" * len(header))
    rows = [measure(count) for count in sizes]
    for r in rows:
        print(f"{r['hands']:>8,} | {r['step'] * 1e6:>9.1f} {r['step_cpu'] * 1e6:>9.1f} | "
              f"{r['fold'] * 1e6:>10.1f} {r['fold_cpu'] * 1e6:>10.1f}")
    first, last = rows[0], rows[-1]
    print(f"ratio {last['hands']:,} / {first['hands']:,} hands: "
          f"step {last['step'] / first['step']:.2f}x (cpu {last['step_cpu'] / first['step_cpu']:.2f}x), "
          f"fold {last['fold'] / first['fold']:.1f}x (cpu {last['fold_cpu'] / first['fold_cpu']:.1f}x)")


if __name__ == "__main__":
    main(sys.argv[1:])
