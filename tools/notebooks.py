"""Keep the committed notebooks clean and deterministic.

Policy (see README, "Notebooks in git"): notebooks are committed *without* outputs, execution counts or widget
state, except the text outputs of cells marked ``# NBVAL_CHECK_OUTPUT``, which nbval compares on every run. Those
marked cells also keep their execution count: nbval treats a cell without one as never run and refuses its stored
outputs ("Unrun reference cell has outputs"); ``refresh`` runs a fresh kernel, so the counts are deterministic. So a
diff shows only what an author changed, no widget model ids or timings leak in, and nbval still proves the stable
outputs. ``refresh`` executes each notebook in a fresh kernel (from the notebooks folder) and stores it that way.

    python -m tools.notebooks refresh [NOTEBOOK ...]   # execute and store clean (default: every notebook)
    python -m tools.notebooks check [NOTEBOOK ...]     # list what breaks the policy; exit 1 if anything does
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
MARK = "NBVAL_CHECK_OUTPUT"


def _checked(cell) -> bool:
    return cell.cell_type == "code" and MARK in cell.source


def clean(nb) -> None:
    """Strip outputs and execution counts (except marked cells' text outputs and count), and widget state, in place."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        if cell.cell_type != "code":
            continue
        if not _checked(cell):
            cell.execution_count = None
            cell.outputs = []
            continue
        kept = []
        for out in cell.outputs:
            if out.output_type == "stream":
                kept.append(out)
            elif out.output_type in ("execute_result", "display_data"):
                out.data = {k: v for k, v in out.data.items() if k == "text/plain"}
                out.metadata = {}
                if out.output_type == "execute_result":
                    out.execution_count = None
                if out.data:
                    kept.append(out)
        cell.outputs = kept


def problems(path: Path) -> list[str]:
    """What in ``path`` breaks the policy (empty list when clean)."""
    nb = nbformat.read(path, as_version=4)
    found = []
    if "widgets" in nb.metadata:
        found.append(f"{path.name}: notebook metadata holds widget state")
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code":
            continue
        if cell.execution_count is not None and not _checked(cell):
            found.append(f"{path.name} cell {number}: execution count stored")
        if cell.outputs and not _checked(cell):
            found.append(f"{path.name} cell {number}: output stored in a cell not marked {MARK}")
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
    paths = [Path(p) for p in argv[1:]] or sorted(NOTEBOOKS.glob("*.ipynb"))
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
