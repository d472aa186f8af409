"""A saved hand and a match page, in process (Flask's test client), at 10 and 1,000 hands: CPU per
request, the median of many. Run it on two checkouts to compare them on one machine:

    python bench/saved_hand_ab.py [CHECKOUT ...]

Each checkout is imported in a subprocess of its own; the default is this one. Not a target: a
before/after table for BENCHMARKS.md (Post/Redirect/Get, the page script's one POST, a kept GET).
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r'''
import json, re, statistics, sys, tempfile, time
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + "/tests")
from app import create_app
from generate import long_match

def hidden(html, name):
    m = re.search(r'name="%s"[^>]*value="([^"]*)"' % name, html) or re.search(r'value="([^"]*)"[^>]*name="%s"' % name, html)
    return m.group(1)

out = {}
for hands in (10, 1000):
    folder = tempfile.mkdtemp()
    app = create_app({"TESTING": False, "DATABASE": folder + "/l.sqlite", "SECRET_KEY": "k"}, instance_path=folder)
    client = app.test_client()
    doc = long_match(hands, seed=3); doc["rules"]["target"] = 10 ** 6
    page = client.get("/").get_data(as_text=True)
    answer = client.post("/import", data={"csrf_token": hidden(page, "csrf_token"), "text": json.dumps(doc)})
    match = answer.headers["Location"].rsplit("/", 1)[1]
    path = "/matches/" + match
    client.get(path)
    prg, fetch, kept = [], [], []
    for i in range(60):
        page = client.get(path).get_data(as_text=True)
        fields = {"csrf_token": hidden(page, "csrf_token"), "form_id": hidden(page, "form_id"),
                  "number": hidden(page, "number"), "knocker": "Ana", "knocker_deadwood": "2", "opponent_deadwood": str(20 + i % 30)}
        start = time.process_time()
        if i % 2:
            client.post(path + "/hands", data=fields, headers={"X-Requested-With": "fetch"})
            fetch.append(time.process_time() - start)
        else:
            answer = client.post(path + "/hands", data=fields)
            client.get(answer.headers["Location"].split("#")[0])
            prg.append(time.process_time() - start)
        start = time.process_time()
        client.get(path)
        kept.append(time.process_time() - start)
    out[hands] = {"prg_ms": statistics.median(prg) * 1000, "fetch_ms": statistics.median(fetch) * 1000,
                  "kept_get_ms": statistics.median(kept) * 1000}
print(json.dumps(out))
'''


def measure(checkout: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, str(checkout)], capture_output=True, text=True, check=True,
                          cwd=tempfile.gettempdir())
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    checkouts = [Path(a).resolve() for a in argv] or [ROOT]
    print("| checkout | hands | saved hand, Post/Redirect/Get (ms CPU) | saved hand by the page script | page GET, kept |")
    print("|---|---:|---:|---:|---:|")
    for checkout in checkouts:
        for hands, row in measure(checkout).items():
            print(f"| {checkout.name} | {hands} | {row['prg_ms']:.2f} | {row['fetch_ms']:.2f} | {row['kept_get_ms']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
