"""Every worked match in tests/cases replays to exactly its expected output."""
import json
import pytest

from models.errors import MatchError
from models.matchfile import replay

from casefiles import case_params, playable_cases


@pytest.mark.parametrize("path", case_params())
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
    assert len(playable_cases()) >= 19
