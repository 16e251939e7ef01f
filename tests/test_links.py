"""Every notebook a notebook links to, and every notebook the README's table names, exists (a newcomer following the
map must never land on a missing page)."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_links_exist(path):
    text = "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)
    linked = set(re.findall(r"\]\(([\w.-]+\.ipynb)\)", text))
    assert {name for name in linked if not (path.parent / name).exists()} == set()


def test_readme_names_existing_notebooks_and_every_notebook():
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"\| `(\d\d_\w+)` \|", readme))
    assert named == {p.stem for p in NOTEBOOKS}
