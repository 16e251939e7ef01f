"""The decisions of this project stay in step everywhere (aluette/decisions.py, the README's table).

Source of the rule being tested: the project's own convention (``aluette/decisions.py``): where the sources are
silent the project decides, names the decision once in :data:`aluette.decisions.DECISIONS`, marks it in the
docstring that implements it with :data:`~aluette.decisions.MARKER`, lists it in the README's table, and shows the
badge :data:`~aluette.decisions.BADGE` wherever a notebook teaches it.
"""

import ast
import json
import re
from pathlib import Path

import pytest

from aluette import AluetteError
from aluette.decisions import BADGE, DECISIONS, MARKER, decision, decisions_markdown

ROOT = Path(__file__).resolve().parent.parent
ENGINE = sorted((ROOT / "aluette").glob("*.py"))
#: the marker, then the decision's name in brackets: "Decision of this project (the sources are silent) [name]:"
MARKED = re.compile(re.escape(MARKER) + r"(?: \[([a-z0-9-]+)\])?(:?)")
#: the name next to a badge in a notebook: the badge, optional spaces, then <!-- name -->
BADGED = re.compile(re.escape(BADGE) + r"\s*<!--\s*([a-z0-9-]+)\s*-->")


def docstrings(path: Path) -> list[str]:
    """Every docstring of a module (module, classes, functions), whitespace folded so a wrapped phrase is found."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef,
                                                                  ast.AsyncFunctionDef)))]
    return [" ".join(doc.split()) for doc in map(ast.get_docstring, nodes) if doc]


def marked_names(path: Path) -> list[str]:
    """The names of the decisions marked in ``path``'s docstrings (``None`` for a marker without a name)."""
    return [m.group(1) if m.group(2) else None for doc in docstrings(path) for m in MARKED.finditer(doc)]


def notebook_markdown(name: str) -> str:
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


class TestRegistry:
    def test_names_are_short_and_stable(self):
        for d in DECISIONS:
            assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", d.name), d.name
            assert d.statement.endswith(".") and "|" not in d.statement, d.name
            assert d.where and all((ROOT / w).is_file() for w in d.where), d.name
            assert all((ROOT / "notebooks" / f"{n}.ipynb").is_file() for n in d.taught_in), d.name

    def test_the_engine_shows_a_decision_with_the_badge_and_its_name(self):
        # a deal's reason, as the reader sees it, marks the decision as the notebooks do, with its registered name
        from aluette.decisions import badged
        from aluette.scoring import score_tricks
        reason = score_tricks("XXXXXXXXX").reason
        assert badged("all-nine-spoiled") in reason and BADGE.rstrip(":") in reason
        assert "decision of this project" not in reason.lower()
        with pytest.raises(AluetteError, match="no decision named"):
            badged("nine-spoiled")

    def test_lookup(self):
        assert decision("all-nine-spoiled").where == ("aluette/scoring.py",)
        with pytest.raises(AluetteError, match="no decision named 'nine-spoiled'; known: draw-dealt-clockwise"):
            decision("nine-spoiled")

    def test_issue_8_lists_these_decisions(self):
        # each of these must be in the one registry
        named = {"all-nine-spoiled", "mordienne-spoiled-breaks-run", "mordienne-spoiled-counts-before",
                 "drawn-match", "surrender-before-first-trick", "draw-dealt-clockwise", "signals-partner-only",
                 "tricks-visible", "one-trick-run-mordienne", "all-nine-not-mordienne", "chant-from-dealer-left"}
        assert named <= {d.name for d in DECISIONS}


class TestReadme:
    def test_readme_table_is_the_registry(self):
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        assert decisions_markdown() in readme, "README's decisions table differs: paste `python -m aluette.decisions`"

    def test_every_decision_is_a_row(self):
        table = decisions_markdown()
        for d in DECISIONS:
            assert f"| `{d.name}` |" in table


class TestDocstrings:
    @pytest.mark.parametrize("d", DECISIONS, ids=lambda d: d.name)
    def test_each_decision_is_marked_where_it_lives(self, d):
        for where in d.where:
            assert d.name in marked_names(ROOT / where), f"{where} has no '{MARKER} [{d.name}]:' in a docstring"

    @pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
    def test_no_marker_for_an_unknown_decision(self, path):
        known = {d.name for d in DECISIONS}
        for name in marked_names(path):
            assert name in known, f"{path.name}: the marker names {name!r}, missing from aluette/decisions.py"

    @pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
    def test_one_marker_only(self, path):
        # the engine's docstrings use no other wording for a decision ("*Decision:*", "(decision of this project)")
        for doc in docstrings(path):
            rest = MARKED.sub("", doc)
            assert not re.search(r"\*decisions?:?\*|decisions? of this project", rest, re.IGNORECASE), \
                f"{path.name}: a decision marked otherwise than '{MARKER} [name]:': {rest[:200]}"

    def test_the_check_finds_a_missing_name(self, tmp_path):
        # the checks above can fail: a marker without a name, and one with a name, are told apart
        module = tmp_path / "m.py"
        module.write_text(f'"""{MARKER} [all-nine-spoiled]: nobody scores.\n\n{MARKER}: unnamed."""\n')
        assert marked_names(module) == ["all-nine-spoiled", None]


class TestNotebooks:
    @pytest.mark.parametrize("d", [d for d in DECISIONS if d.taught_in], ids=lambda d: d.name)
    def test_badge_where_taught(self, d):
        for notebook in d.taught_in:
            names = BADGED.findall(notebook_markdown(notebook))
            assert d.name in names, f"{notebook}.ipynb teaches {d.name} without '{BADGE} <!-- {d.name} -->'"

    def test_no_badge_for_an_unknown_decision(self):
        known = {d.name: d for d in DECISIONS}
        for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
            for name in BADGED.findall(notebook_markdown(path.stem)):
                assert name in known, f"{path.name}: badge for {name!r}, missing from aluette/decisions.py"
                assert path.stem in known[name].taught_in, f"{path.name} teaches {name}: add it to taught_in"
