"""The committed notebooks follow the repository policy of tools/notebooks.py: no widget state, no execution
counts, no stored outputs except the text of cells tagged nbval-check-output (which nbval compares), and no
NBVAL_* comment marker in a cell's code (the tag, not a comment, tells nbval)."""

from pathlib import Path

import pytest

from tools.notebooks import NOTEBOOKS, problems

PATHS = sorted(NOTEBOOKS.glob("*.ipynb")) + sorted((NOTEBOOKS / "fr").glob("*.ipynb"))  # English, then French


@pytest.mark.parametrize("path", PATHS, ids=[str(p.relative_to(NOTEBOOKS)) for p in PATHS])
def test_notebook_is_committed_clean(path: Path):
    assert problems(path) == []


@pytest.mark.parametrize("path", PATHS, ids=[str(p.relative_to(NOTEBOOKS)) for p in PATHS])
def test_nbval_is_told_by_tags_not_by_comments(path: Path):
    import nbformat
    marked = [number for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1)
              if cell.cell_type == "code" and "# NBVAL_" in cell.source]
    assert marked == [], f"{path.name}: cells {marked} use an NBVAL_ comment; tag them (nbval-check-output) instead"


@pytest.mark.parametrize("path", PATHS, ids=[str(p.relative_to(NOTEBOOKS)) for p in PATHS])
def test_notebook_is_valid_nbformat(path: Path):
    # nbconvert (the teacher's printed summary) and Voilà refuse an invalid notebook, e.g. a cell with a tag twice
    import nbformat
    nbformat.validate(nbformat.read(path, as_version=4))


def test_clean_tags_a_cell_marked_the_old_way_once():
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    from tools.notebooks import OLD_MARK, TAG, clean
    nb = new_notebook(cells=[new_code_cell(OLD_MARK + "1 + 1", metadata={"tags": [TAG]}),
                             new_code_cell(OLD_MARK + "2 + 2")])
    clean(nb)
    assert [cell.metadata["tags"] for cell in nb.cells] == [[TAG], [TAG]]
    assert [cell.source for cell in nb.cells] == ["1 + 1", "2 + 2"]
    nbformat.validate(nb)


def test_clean_keeps_what_nbval_needs_in_checked_cells():
    # nbval refuses a checked cell with outputs but no execution count ("Unrun reference cell has outputs")
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    from tools.notebooks import clean

    checked = new_code_cell("print(1)", execution_count=1, metadata={"tags": ["nbval-check-output"]},
                            outputs=[new_output("stream", name="stdout", text="1\n")])
    plain = new_code_cell("x = 2\nx", execution_count=2,
                          outputs=[new_output("execute_result", data={"text/plain": "2"}, execution_count=2)])
    old_way = new_code_cell("# NBVAL_CHECK_OUTPUT\nprint(3)", execution_count=3, metadata={"tags": ["remove-cell"]},
                            outputs=[new_output("stream", name="stdout", text="3\n")])
    nb = new_notebook(cells=[checked, plain, old_way], metadata={"widgets": {"state": {}}})
    clean(nb)
    assert checked.execution_count == 1 and checked.outputs[0].text == "1\n"
    # a cell marked the old way gets the tag, and keeps its output as a tagged cell does
    assert old_way.source == "print(3)" and old_way.metadata["tags"] == ["remove-cell", "nbval-check-output"]
    assert old_way.execution_count == 3 and old_way.outputs[0].text == "3\n"
    assert plain.execution_count is None and plain.outputs == []
    assert "widgets" not in nb.metadata
    nbformat.validate(nb)
