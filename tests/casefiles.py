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


def case_paths() -> list[Path]:
    """Every case file, subfolders included."""
    return sorted(CASES.rglob("*.json"))


def case_params() -> list:
    """Cases as pytest params; those of a folder in NOT_YET are marked to skip, with the reason."""
    params = []
    for path in case_paths():
        folder = path.parent.name if path.parent != CASES else None
        marks = [pytest.mark.skip(reason=NOT_YET[folder])] if folder in NOT_YET else []
        params.append(pytest.param(path, id=path.relative_to(CASES).with_suffix("").as_posix(), marks=marks))
    return params


def playable_cases() -> list[Path]:
    """The cases the engine plays today (no NOT_YET folder)."""
    return [path for path in case_paths() if path.parent == CASES or path.parent.name not in NOT_YET]


def case(name: str) -> dict:
    """A case's match document, without its expected output."""
    doc = json.loads((CASES / f"{name}.json").read_text())
    doc.pop("expected")
    return doc
