"""Every worked match in shared/cases replays to exactly its expected output."""
import json
from pathlib import Path

import pytest

from models.errors import MatchError
from models.matchfile import replay

CASES = sorted((Path(__file__).resolve().parents[2] / "shared" / "cases").glob("*.json"))


def case_id(path):
    return path.stem


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_case_replays_exactly(path):
    doc = json.loads(path.read_text())
    expected = doc.pop("expected")
    text = json.dumps(doc)
    if expected == {"error": True}:
        with pytest.raises(MatchError):
            replay(text)
    else:
        assert replay(text) == expected


def test_cases_are_there():
    assert len(CASES) >= 19
