"""Keep the committed notebooks clean and deterministic.

Policy (see README, "Notebooks in git"): notebooks are committed *without* outputs, execution counts or widget
state, except the text outputs of cells tagged ``nbval-check-output`` (:data:`TAG`, nbval's cell tag: the code shows
no marker), which nbval compares on every run. Those
cells also keep their execution count, because nbval refuses a cell that has outputs but no count ("Unrun reference
cell has outputs"); the count is deterministic, since ``refresh`` runs a fresh kernel top to bottom. So a
diff shows only what an author changed, no widget model ids or timings leak in, and nbval still proves the stable
outputs. ``refresh`` executes each notebook in a fresh kernel (from the notebooks folder) and stores it that way.

    python -m tools.notebooks refresh [NOTEBOOK ...]   # execute and store clean (default: every notebook, English
                                                       # then French, notebooks/fr/)
    python -m tools.notebooks check [NOTEBOOK ...]     # list what breaks the policy; exit 1 if anything does
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: nbval's tag of a cell whose outputs it compares (``--nbval-lax`` checks only those)
TAG = "nbval-check-output"


def _checked(cell) -> bool:
    return cell.cell_type == "code" and TAG in cell.metadata.get("tags", ())


#: The comment that marked a checked cell before the tag; ``clean`` turns it into the tag (a cell written the old way)
OLD_MARK = "# NBVAL_CHECK_OUTPUT\n"


def clean(nb) -> None:
    """Strip outputs (except tagged cells' text), execution counts (except tagged cells' with outputs) and widget
    state, in place; a cell still marked by the old comment (:data:`OLD_MARK`) gets the tag instead."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        if cell.cell_type != "code":
            continue
        if cell.source.startswith(OLD_MARK):
            cell.source = cell.source[len(OLD_MARK):]
            tags = cell.metadata.get("tags", [])
            cell.metadata["tags"] = tags if TAG in tags else [*tags, TAG]  # once: nbformat refuses a repeated tag
        if _checked(cell):
            kept = []
            for out in cell.outputs:
                if out.output_type == "stream":
                    kept.append(out)
                elif out.output_type in ("execute_result", "display_data"):
                    out.data = {k: v for k, v in out.data.items() if k == "text/plain"}
                    out.metadata = {}
                    if out.data:
                        kept.append(out)
            cell.outputs = kept
            if not kept:
                cell.execution_count = None
        else:
            cell.execution_count = None
            cell.outputs = []


def problems(path: Path) -> list[str]:
    """What in ``path`` breaks the policy (empty list when clean)."""
    nb = nbformat.read(path, as_version=4)
    found = []
    if "widgets" in nb.metadata:
        found.append(f"{path.name}: notebook metadata holds widget state")
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code":
            continue
        if cell.execution_count is not None and not (_checked(cell) and cell.outputs):
            found.append(f"{path.name} cell {number}: execution count stored")
        if cell.outputs and not _checked(cell):
            found.append(f"{path.name} cell {number}: output stored in a cell not tagged {TAG}")
        for out in cell.outputs:
            if out.output_type == "error":
                found.append(f"{path.name} cell {number}: an error output is stored")
            if out.output_type in ("execute_result", "display_data") and set(out.data) - {"text/plain"}:
                found.append(f"{path.name} cell {number}: rich (non-text) output stored")
    return found


def refresh(path: Path) -> None:
    """Execute ``path`` in a fresh kernel from the notebooks folder, then store it cleaned."""
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    clean(nb)
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("refresh", "check"):
        print(__doc__)
        return 2
    paths = [Path(p) for p in argv[1:]] or sorted(NOTEBOOKS.glob("*.ipynb")) + sorted((NOTEBOOKS / "fr").glob("*.ipynb"))
    if argv[0] == "refresh":
        for path in paths:
            print(f"refreshing {path}")
            refresh(path)
        return 0
    found = [p for path in paths for p in problems(path)]
    print("\n".join(found) or "notebooks are clean")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
