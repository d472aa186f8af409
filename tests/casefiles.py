"""Where the project's own documents and worked cases live, so a clone alone tests itself.

`tests/cases/` holds the worked matches of `docs/RULES.md`; every subfolder is
played (`names/`: issue 14, `variants/`: issue 15). A folder named in NOT_YET
would be collected but skipped until the engine knows its settings.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CASES = ROOT / "tests" / "cases"
NOT_YET: dict[str, str] = {}
# Folders the engine plays and the app stores, but whose hands the app's hand preview cannot enter yet: the
# tests that enter them hand by hand through the preview skip them.
NOT_STORED_YET: dict[str, str] = {
    "tables": "a table's deal has no live preview yet (issue 46): tests/test_table_web.py enters its deals"}


def case_paths() -> list[Path]:
    """Every case file, subfolders included."""
    return sorted(CASES.rglob("*.json"))


def case_params(stored: bool = False) -> list:
    """Cases as pytest params; those of a folder in NOT_YET (with `stored`, NOT_STORED_YET too: the tests
    that import them into the app) are marked to skip, with the reason."""
    params = []
    skipped = {**NOT_YET, **(NOT_STORED_YET if stored else {})}
    for path in case_paths():
        folder = path.parent.name if path.parent != CASES else None
        marks = [pytest.mark.skip(reason=skipped[folder])] if folder in skipped else []
        params.append(pytest.param(path, id=path.relative_to(CASES).with_suffix("").as_posix(), marks=marks))
    return params


def playable_cases(stored: bool = False) -> list[Path]:
    """The cases the engine plays today (no NOT_YET folder); with `stored`, those the app can also store
    and enter hand by hand (no NOT_STORED_YET folder)."""
    skipped = {**NOT_YET, **(NOT_STORED_YET if stored else {})}
    return [path for path in case_paths() if path.parent == CASES or path.parent.name not in skipped]


def case(name: str) -> dict:
    """A case's match document, without its expected output."""
    doc = json.loads((CASES / f"{name}.json").read_text())
    doc.pop("expected")
    return doc
