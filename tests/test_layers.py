"""The package's layers, written once in ``pyproject.toml`` (``[tool.importlinter]``) and kept by import-linter
(issue 17, §4): the game imports nothing built on it; players, simulation and analysis never reach the store, the
widgets or the classroom; the store never reaches the widgets or the classroom; the widgets never reach the
classroom server. Each contract is checked on the package itself, and once on a copy with a forbidden import added,
so that a contract that could not fail would be seen."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint(folder: Path) -> subprocess.CompletedProcess:
    """import-linter on the package in ``folder`` (its ``aluette/`` and ``pyproject.toml``), without a cache."""
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                           "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))"],
                          cwd=folder, env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=120)


def test_every_layer_keeps_to_its_imports():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("module, probe, broken", [
    ("tricks.py", "import aluette.widgets.common", "The game imports nothing built on it BROKEN"),
    ("players/bots.py", "import aluette.store", "never reach the store"),
    ("simulation/step.py", "import aluette.widgets.common", "never reach the store, the widgets or the classroom"),
    ("deal.py", "import aluette.players.drivers", "The game imports nothing built on it BROKEN"),
    ("frames.py", "import aluette.simulation", "The game imports nothing built on it BROKEN"),
    ("store/names.py", "import aluette.widgets.common", "The store never reaches the widgets or the classroom BROKEN"),
    ("widgets/ranking.py", "import aluette.classroom.pages", "The widgets never reach the classroom server BROKEN"),
    ("practice/kinds.py", "import aluette.store", "Practice stands on the game only: it never reaches the players, "
     "the store, the widgets or the classroom BROKEN"),
    ("scoring.py", "import aluette.practice", "The game imports nothing built on it BROKEN"),
])
def test_a_forbidden_import_breaks_its_contract(tmp_path, module, probe, broken):
    shutil.copytree(ROOT / "aluette", tmp_path / "aluette", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with open(tmp_path / "aluette" / module, "a", encoding="utf-8") as file:
        file.write(f"\n{probe}  # a layer broken on purpose\n")
    result = lint(tmp_path)
    assert result.returncode != 0
    assert broken in " ".join(result.stdout.split()), result.stdout


def test_import_aluette_loads_neither_the_solver_nor_pandas():
    """`import aluette` is what every kernel of a page does first: the engine alone. The solver (numba, a fifth of a
    second to import) and pandas come with the first use of ``aluette.solve`` or ``aluette.simulate``, which
    are still the package's names for them."""
    probe = ("import sys, aluette; before = sorted(m for m in ('numba', 'pandas', 'aluette.analysis') if m in sys.modules);"
             " from aluette import solve, Solution; from aluette.analysis import solver;"
             " print(before, solve is solver.solve, Solution is solver.Solution, 'numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[]", "True", "True", "True"]
