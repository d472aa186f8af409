"""The ladder of a club (issue 40): 200 players, 5,000 finished matches, in a real server.

    python bench/ladder_bench.py            # the full club (about a minute to build)
    python bench/ladder_bench.py --smoke    # 20 players, 200 matches

Measured against a match page GET of the same server:
- the ladder drawn first from a fresh start (a new server process: nothing folded, nothing kept), then warm
  (the ratings kept by the table's version, the matches folded);
- tonight's page, warm;
- a hand saved in the match still being played: the next ladder and tonight's page GETs (nothing re-rated);
- an edit of an early hand (the 10th match's last hand, made the other player's win), written by another
  connection as another process would: the next ladder GET re-rates all 5,000 matches, folding only that one
  again;
- in-process, the parts: the ratings fold alone over the 5,000 results, and the results read with the
  matches already folded.

Times are wall-clock medians over the repeats (http.client on 127.0.0.1, keep-alive off: urllib).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.storage.hand_writes import add_hand, replace_hand  # noqa: E402

from models.storage.ledger_file import open_ledger  # noqa: E402

from models.storage.matches import create_match, get_match  # noqa: E402

from models.storage.connection import connect  # noqa: E402
from models.storage.club import finished_results  # noqa: E402
from models.storage.connection import immediate  # noqa: E402
from models.game.hand import KNOCK, Hand  # noqa: E402
from models.game.match import Match  # noqa: E402
from models.storage.match_cache import MatchCache  # noqa: E402
from models.game.ratings import rate  # noqa: E402
from tests.server import Client, Server  # noqa: E402

HOME = 1
PER_NIGHT = 10


def knock(winner: str, rng: random.Random) -> Hand:
    return Hand(KNOCK, knocker=winner, knocker_deadwood=rng.choice((0, 2, 5, 8)), opponent_deadwood=rng.randint(15, 60))


def played(one: str, two: str, rng: random.Random, skill: dict) -> Match:
    """A single game to 100 played out, each hand won by the stronger player more often."""
    from models.game.ledger import score_sheet

    hands: list[Hand] = []
    while True:
        edge = 0.5 + (skill[one] - skill[two]) / 2
        hands.append(knock(one if rng.random() < edge else two, rng))
        match = Match((one, two), "single", one, hands=tuple(hands))
        if score_sheet(match).finished:
            return match


def build(path: Path, players: int, matches: int, seed: int = 40) -> list[int]:
    """The club: matches between random pairs, PER_NIGHT a night, the last night's being tonight."""
    rng = random.Random(seed)
    names = [f"Player {n:03d}" for n in range(players)]
    skill = {name: rng.random() for name in names}
    conn = open_ledger(str(path))
    ids = [create_match(conn, played(*rng.sample(names, 2), rng, skill), table=HOME) for _ in range(matches)]
    now = datetime.now(timezone.utc)
    nights = (matches + PER_NIGHT - 1) // PER_NIGHT
    with immediate(conn):  # spread over the club's nights, one a week: created, finished and hands
        for index, match_id in enumerate(ids):
            night, slot = divmod(index, PER_NIGHT)
            at = now - timedelta(days=7 * (nights - 1 - night), minutes=10 * (PER_NIGHT - slot))
            stamp = at.isoformat(timespec="seconds")
            conn.execute("UPDATE match SET created = ?, finished = ? WHERE id = ?", (stamp, stamp, match_id))
            conn.execute("UPDATE hand SET created = ? WHERE match_id = ?", (stamp, match_id))
    create_match(conn, Match(("Player 000", "Player 001"), "single", "Player 000"), table=HOME)  # being played
    conn.close()
    return ids


def hand_in_open_match(path: Path) -> None:
    """A hand saved in the match still being played: the ratings do not move (models/storage/club.results_version)."""
    conn = connect(str(path))
    [open_match] = [row["id"] for row in conn.execute("SELECT id FROM match WHERE finished IS NULL")]
    add_hand(conn, open_match, Hand(KNOCK, knocker="Player 001", knocker_deadwood=5, opponent_deadwood=9),
                     table=HOME)
    conn.close()


def timed(client: Client, path: str, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        response = client.get(path)
        out.append(time.perf_counter() - start)
        assert response.status == 200, (path, response.status)
    return out


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms"


def flip_early_hand(path: Path, match_id: int) -> None:
    """The match's last hand, won by the other player: a result may change, so every rating after it moves.
    Written through a plain connection, as another app process would (open_ledger is a start: a new epoch)."""
    conn = connect(str(path))
    stored = get_match(conn, match_id, table=HOME)
    last = stored.match.hands[-1]
    loser = stored.match.players[1] if last.knocker == stored.match.players[0] else stored.match.players[0]
    flipped = Hand(KNOCK, knocker=loser, knocker_deadwood=0, opponent_deadwood=last.opponent_deadwood)
    replace_hand(conn, match_id, len(stored.match.hands), flipped, stored.version, table=HOME)
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    players, matches, repeats = (20, 200, 3) if args.smoke else (200, 5000, 20)
    folder = Path(tempfile.mkdtemp(prefix="gin-ladder-bench-"))
    path = folder / "club.sqlite"
    start = time.perf_counter()
    ids = build(path, players, matches)
    print(f"club: {players} players, {matches} finished matches, built in {time.perf_counter() - start:.0f} s")

    conn = open_ledger(str(path))
    cache = MatchCache(256 * 1024 * 1024)
    cold = timed_call(lambda: finished_results(conn, cache, table=HOME))
    warm = [timed_call(lambda: finished_results(conn, cache, table=HOME)) for _ in range(5)]
    results, _, _ = finished_results(conn, cache, table=HOME)
    fold = [timed_call(lambda: rate(results)) for _ in range(5)]
    conn.close()
    print(f"in-process: results read and folded {cold * 1000:.0f} ms cold, {statistics.median(warm) * 1000:.0f} ms "
          f"with the matches folded; the ratings fold alone {statistics.median(fold) * 1000:.0f} ms")

    match_page = f"/matches/{ids[-1]}"
    with Server(path, threads=4) as server:
        client = Client(server.base)
        first_ladder = timed(client, "/ladder", 1)
        warm_ladder = timed(client, "/ladder", repeats)
        night = timed(client, "/tonight", repeats)
        page = timed(client, match_page, repeats)
        csv = timed(client, "/ladder.csv", repeats)
        during = []
        for _ in range(3):
            hand_in_open_match(path)
            during += timed(client, "/ladder", 1) + timed(client, "/tonight", 1)
        edits = []
        for number in range(5 if not args.smoke else 2):
            flip_early_hand(path, ids[10 + number])
            edits += timed(client, "/ladder", 1)
        after = timed(client, "/ladder", repeats)
    with Server(path, threads=4) as server:
        first_page = timed(Client(server.base), match_page, 1)
    print(f"ladder, fresh start: {ms(first_ladder)} (a match page, fresh start: {ms(first_page)})")
    print(f"ladder, warm: {ms(warm_ladder)}; its CSV {ms(csv)}; tonight's page {ms(night)}")
    print(f"match page GET, warm: {ms(page)}")
    print(f"ladder and tonight's page after a hand of a match still being played: {ms(during)}")
    print(f"ladder after an edit of an early hand (re-rates {matches}): {ms(edits)}; warm again {ms(after)}")


def timed_call(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
