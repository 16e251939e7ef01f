"""The order in which ``make test`` hands test files to its workers (tests/conftest.py): it may change how long the
run takes, never what runs, and a stale name would quietly stop counting."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tests import conftest

REPO = Path(__file__).resolve().parents[1]


def test_every_listed_file_exists_once():
    assert len(set(conftest.LONGEST_FIRST)) == len(conftest.LONGEST_FIRST)
    missing = [name for name in conftest.LONGEST_FIRST if not (REPO / name).is_file()]
    assert missing == []


def test_browser_files_come_last_and_each_files_tests_keep_their_order():
    names = ["tests/test_a.py::t1", "tests/browser/test_lab.py::t1", "notebooks/08_play_a_match.ipynb::Cell 0",
             "tests/test_a.py::t2", "tests/browser/test_accessibility.py::t1", "notebooks/08_play_a_match.ipynb::Cell 1",
             "tests/browser/test_lab.py::t2", "tests/server/test_classroom.py::t1"]
    items = [SimpleNamespace(nodeid=name) for name in names]
    conftest.pytest_collection_modifyitems(None, None, items)
    order = [item.nodeid for item in items]
    assert sorted(order) == sorted(names)  # nothing lost or added
    assert order == ["tests/server/test_classroom.py::t1", "notebooks/08_play_a_match.ipynb::Cell 0",
                     "notebooks/08_play_a_match.ipynb::Cell 1", "tests/test_a.py::t1", "tests/test_a.py::t2",
                     "tests/browser/test_lab.py::t1", "tests/browser/test_lab.py::t2",
                     "tests/browser/test_accessibility.py::t1"]  # test_lab is listed before test_accessibility


def test_a_file_is_one_group_but_test_pages_is_split_by_notebook():
    assert conftest.group_of("notebooks/08_play_a_match.ipynb::Cell 3") == "notebooks/08_play_a_match.ipynb"
    assert conftest.group_of("tests/browser/test_lab.py::test_x[a]") == "tests/browser/test_lab.py"
    pages = [f"tests/browser/test_pages.py::test_{check}[{name}]" for check in ("renders", "axe")
             for name in ("00.ipynb", "08.ipynb")]
    assert {conftest.group_of(p) for p in pages} == {"tests/browser/test_pages.py::00.ipynb",
                                                      "tests/browser/test_pages.py::08.ipynb"}
    assert all(file in conftest.LONGEST_FIRST for file in conftest.SPLIT_BY_PARAMETER)
