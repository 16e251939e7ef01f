"""The committed notebooks follow the repository policy of tools/notebooks.py: no widget state, no execution
counts, no stored outputs except the text of cells marked NBVAL_CHECK_OUTPUT (which nbval compares)."""

from pathlib import Path

import pytest

from tools.notebooks import NOTEBOOKS, problems

PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_notebook_is_committed_clean(path: Path):
    assert problems(path) == []
