"""The committed notebooks follow the repository policy of tools/notebooks.py: no widget state, no execution
counts, no stored outputs except the text of cells marked NBVAL_CHECK_OUTPUT (which nbval compares)."""

from pathlib import Path

import pytest

from tools.notebooks import NOTEBOOKS, problems

PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_notebook_is_committed_clean(path: Path):
    assert problems(path) == []


def test_clean_keeps_what_nbval_needs_in_checked_cells():
    # nbval refuses a checked cell with outputs but no execution count ("Unrun reference cell has outputs")
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    from tools.notebooks import clean

    checked = new_code_cell("# NBVAL_CHECK_OUTPUT\nprint(1)", execution_count=1,
                            outputs=[new_output("stream", name="stdout", text="1\n")])
    plain = new_code_cell("x = 2\nx", execution_count=2,
                          outputs=[new_output("execute_result", data={"text/plain": "2"}, execution_count=2)])
    nb = new_notebook(cells=[checked, plain], metadata={"widgets": {"state": {}}})
    clean(nb)
    assert checked.execution_count == 1 and checked.outputs[0].text == "1\n"
    assert plain.execution_count is None and plain.outputs == []
    assert "widgets" not in nb.metadata
    nbformat.validate(nb)
