"""bench/lighthouse.py's reading of Lighthouse reports and its section of BENCHMARKS.md, on made-up reports.

Lighthouse itself is never run here (it is not installed in CI and takes a minute a page)."""
from bench.lighthouse import AFTER, SECTION, median_of, meets, summarize, write_section


def report(score: float, cls: float, lcp: float, tbt: float = 0, blocking: bool = False) -> dict:
    """The parts of a Lighthouse JSON report that the bench reads."""
    audits = {
        "first-contentful-paint": {"score": 1, "numericValue": 700},
        "largest-contentful-paint": {"score": 1 if lcp < 2500 else 0.5, "numericValue": lcp},
        "total-blocking-time": {"score": 1, "numericValue": tbt},
        "cumulative-layout-shift": {"score": 1 if cls < 0.1 else 0.4, "numericValue": cls},
        "speed-index": {"score": 1, "numericValue": 800},
        "total-byte-weight": {"score": 1, "numericValue": 22_000},
        "render-blocking-resources": {"score": 0 if blocking else 1,
                                      "details": {"type": "opportunity", "overallSavingsMs": 150 if blocking else 0}},
        "network-requests": {"details": {"items": [{}, {}, {}]}},
    }
    refs = [{"id": "first-contentful-paint", "weight": 10}, {"id": "largest-contentful-paint", "weight": 25},
            {"id": "total-blocking-time", "weight": 30}, {"id": "cumulative-layout-shift", "weight": 25},
            {"id": "speed-index", "weight": 10}, {"id": "render-blocking-resources", "weight": 0}]
    return {"audits": audits, "categories": {"performance": {"score": score, "auditRefs": refs}}}


def test_a_report_is_read_into_its_score_metrics_and_costly_audits():
    run = summarize(report(0.874, 0.15, 3000, blocking=True))
    assert run["score"] == 87
    assert (run["cls"], run["lcp_ms"], run["tbt_ms"], run["bytes"], run["requests"]) == (0.15, 3000, 0, 22_000, 3)
    assert run["costly"] == ["cumulative-layout-shift", "largest-contentful-paint"]  # weighed and below 1
    assert run["advice"] == ["render-blocking-resources"]  # an opportunity, not in the score


def test_the_median_is_taken_of_each_number_on_its_own():
    runs = [summarize(r) for r in (report(0.99, 0.0, 900), report(0.61, 0.2, 4000, tbt=600), report(0.97, 0.03, 1000))]
    middle = median_of(runs)
    assert (middle["score"], middle["cls"], middle["lcp_ms"], middle["tbt_ms"]) == (97, 0.03, 1000, 0)
    assert middle["scores"] == [99, 61, 97] and middle["runs"] == 3
    assert middle["costly"] == {"cumulative-layout-shift": 1, "largest-contentful-paint": 1}
    assert not meets(middle)  # 97 but a layout shift of 0.03, over 0.02
    assert meets(median_of([summarize(report(0.95, 0.02, 900))]))


def test_the_section_goes_after_what_a_host_pays_and_is_replaced_in_place(tmp_path):
    path = tmp_path / "BENCHMARKS.md"
    path.write_text(f"# Benchmarks\n\n{AFTER}\n\nhost numbers\n\n## Targets\n\ntable\n", encoding="utf-8")
    write_section(f"{SECTION}\n\nfirst run\n", path)
    write_section(f"{SECTION}\n\nsecond run\n", path)
    text = path.read_text(encoding="utf-8")
    assert text.count(SECTION) == 1 and "first run" not in text
    assert text.index(AFTER) < text.index("second run") < text.index("## Targets")
    assert "host numbers" in text and text.endswith("table\n")
