"""The error families (issue 17 §4, aluette/errors.py's docstring; python-chess keeps ``ValueError`` for input and
rules, ``RuntimeError`` for operational failures): ``except ValueError`` means bad input or an illegal move, never
"the database is gone"."""

from __future__ import annotations

import inspect

import pytest

from aluette import errors
from aluette.errors import (AluetteError, IllegalMoveError, InvalidInputError, SearchBudgetError, StoreError,
                            TableError)
from aluette.store import open_store

CLASSES = [c for _, c in inspect.getmembers(errors, inspect.isclass) if issubclass(c, AluetteError)]
OPERATIONAL = (StoreError, SearchBudgetError)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_error_is_in_exactly_one_family(cls):
    if cls is AluetteError:
        return
    families = [f for f in (InvalidInputError, IllegalMoveError, *OPERATIONAL) if issubclass(cls, f)]
    assert len(families) == 1, (cls, families)
    assert issubclass(cls, ValueError) is (families[0] in (InvalidInputError, IllegalMoveError))
    assert issubclass(cls, RuntimeError) is (families[0] in OPERATIONAL)


def test_the_store_family_is_not_bad_input():
    assert not issubclass(StoreError, ValueError) and issubclass(StoreError, RuntimeError)
    assert issubclass(TableError, InvalidInputError)  # a table's refusal is the request's problem


def test_a_bare_aluette_error_is_an_input_error():
    """The package's older ``raise AluetteError(...)`` call sites raise input errors."""
    error = AluetteError("options must be a mapping")
    assert type(error) is InvalidInputError and isinstance(error, ValueError) and str(error) == \
        "options must be a mapping"
    with pytest.raises(ValueError):
        raise AluetteError("bad")


def test_a_closed_store_is_not_caught_as_bad_input(tmp_path):
    store = open_store(path=tmp_path / "tables.sqlite3")
    store.close()
    with pytest.raises(StoreError, match="closed"):
        try:
            with store.read():
                pass
        except ValueError:  # pragma: no cover - the bug this test keeps away
            pytest.fail("a StoreError was caught as a ValueError")
