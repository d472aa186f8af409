"""One base for everything Gin Ledger refuses, and types that say which refusal it is."""
import inspect
import json

import pytest

import models
from models import errors
from models.errors import LedgerError, MatchError, MatchOver
from models.files.matchfile import load_match, replay
from models.game.ledger import score_sheet

from casefiles import case
from models.errors import NoSuchMatch, StaleMatch


def every_exception_class():
    """Every exception class defined anywhere in models/."""
    import pkgutil
    import importlib

    for info in pkgutil.walk_packages(models.__path__, "models."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.__name__:
                yield value


def test_every_engine_and_storage_error_shares_the_one_base():
    found = list(every_exception_class())
    assert len(found) >= 10
    for kind in found:
        assert issubclass(kind, LedgerError), kind


def test_a_hand_after_the_last_game_closed_is_a_match_over_not_a_string():
    doc = case("error-hand-after-finish")
    with pytest.raises(MatchOver) as raised:
        score_sheet(load_match(json.dumps(doc).encode()))
    assert raised.value.hand == len(doc["hands"])
    assert str(raised.value) == f"hand {raised.value.hand}, hand: the match was already over after hand {raised.value.hand - 1}"


def test_other_refusals_are_not_match_over():
    with pytest.raises(MatchError) as raised:
        replay(json.dumps(case("error-knock-over-limit")))
    assert not isinstance(raised.value, MatchOver)


def test_storage_names_its_errors_by_type():
    assert issubclass(NoSuchMatch, errors.NotFound)
    assert issubclass(StaleMatch, LedgerError) and not issubclass(StaleMatch, MatchError)
