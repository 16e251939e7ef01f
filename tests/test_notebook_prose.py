"""The notebooks' prose serves both audiences (quality bar: one source serves both audiences; the app shows no code
and no author-only text).

The classroom app (`make app`: Solara's server, or Voilà) hides code cells and drops every cell tagged
``remove-cell`` (``aluette/classroom/lessons.py``; on Voilà nbconvert's TagRemovePreprocessor, configured in
``voila.json``); JupyterLab shows everything. So:

* what the app shows never refers to what a student cannot see or do: no "Run All Cells", no ``assert``, no Python
  names, no sentence ending in a colon above a code cell that shows nothing;
* a ``remove-cell`` code cell still runs in JupyterLab and nbval, but not in the app: it must define nothing that a
  cell the app keeps uses;
* each notebook opens with ``# Title`` and a one-line description (the landing page is built from them);
* where seats and cards share a sentence, "E" must not be left to mean both East and swords.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from tools.notebooks import NOTEBOOKS

PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
TAG = "remove-cell"

#: Phrases that only make sense to a reader of the code.
AUTHOR_ONLY = ("Run All Cells", "Run ▸", "assert", "Shift+Enter", "NBVAL", "play_one_trick", "Options(",
               "HeuristicBot", "state_problems", "scenario_deal", "simulate(", "Deal.from", "import ", "shared/seeds")
#: Text in backticks that is Python: a call, a keyword argument or a dotted name such as `aluette.probability` (card
#: codes, seats, pagat notation and file paths in backticks stay allowed).
CODE_NAME = re.compile(r"\w\(|=|^[A-Za-z_]+\.[A-Za-z_]+")


def code_names(text: str) -> list[str]:
    return [quoted for quoted in re.findall(r"`([^`\n]+)`", text)
            if not re.fullmatch(r"[\w.-]*/[\w./-]*", quoted) and CODE_NAME.search(quoted)]


def cells(path: Path):
    return nbformat.read(path, as_version=4).cells


def shown(cell) -> bool:
    return TAG not in cell.metadata.get("tags", [])


def code_shows_something(source: str) -> bool:
    """Whether a code cell displays anything in the app: a checked print, or a last line that is an expression."""
    if "print(" in source or "display(" in source or "plt.subplots(" in source:  # inline plots show themselves
        return True
    body = ast.parse(source).body
    return bool(body) and isinstance(body[-1], ast.Expr) and not source.rstrip().endswith(";")


def prose(cell) -> str:
    """Markdown text without HTML style blocks and indented command lines (a teacher's shell command)."""
    text = re.sub(r"<style>.*?</style>", "", cell.source, flags=re.S)
    return "\n".join(line for line in text.splitlines() if not line.startswith("    "))


def removed_names_used(notebook_cells) -> list[tuple[str, str, str]]:
    """(cell id, name, id of the remove-cell cell defining it) for each name a kept code cell takes from a removed one."""
    defined, problems = {}, []
    for cell in notebook_cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith("%")))
        stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        # an import defines its names too (a kept cell that imports a name does not take it from before)
        stored |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                   for a in n.names}
        if shown(cell):
            used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            used -= stored  # defined again in the same cell (a loop or an assignment): not taken from before
            problems += [(cell.get("id"), name, defined[name]) for name in sorted(used & set(defined))]
            for name in stored:  # a name the app's cells define again is theirs from here on
                defined.pop(name, None)
        else:
            defined.update(dict.fromkeys(stored, cell.get("id")))
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    defined[node.name] = cell.get("id")
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    defined.update({(a.asname or a.name).split(".")[0]: cell.get("id") for a in node.names})
    return problems


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
class TestWhatTheAppShows:
    def test_no_author_only_words(self, path):
        found = [(cell.get("id"), phrase) for cell in cells(path) if cell.cell_type == "markdown" and shown(cell)
                 for phrase in AUTHOR_ONLY if phrase in prose(cell)]
        found += [(cell.get("id"), name) for cell in cells(path)
                  if cell.cell_type == "markdown" and shown(cell) for name in code_names(prose(cell))]
        assert found == []

    def test_no_colon_above_a_cell_that_shows_nothing(self, path):
        kept = [cell for cell in cells(path) if shown(cell)]
        dangling = [cell.get("id") for cell, after in zip(kept, kept[1:])
                    if cell.cell_type == "markdown" and cell.source.rstrip().endswith(":")
                    and (after.cell_type != "code" or not code_shows_something(after.source))]
        assert dangling == []

    def test_removed_code_defines_nothing_the_app_needs(self, path):
        assert removed_names_used(cells(path)) == []

    def test_opens_with_a_title_and_a_one_line_description(self, path):
        first = next(cell for cell in cells(path) if cell.cell_type == "markdown")
        lines = first.source.splitlines()
        assert lines[0].startswith("# ") and lines[1] == "" and lines[2].strip()
        assert len(lines) == 3 or lines[3] == "", "the description is one line, then a blank line"
        assert lines[2].endswith(".") and lines[2].count(". ") == 0, "one sentence"

    def test_students_pages_do_not_link_to_the_teachers_guide(self, path):
        # issue 9: the teacher's guide (exercise answers) is served to the teacher only, so a student's page that
        # linked to it would lead nowhere; JupyterLab readers get the link in a remove-cell cell
        links = [cell.get("id") for cell in cells(path) if cell.cell_type == "markdown" and shown(cell)
                 and "07_teachers_guide.ipynb" in cell.source]
        assert path.name == "07_teachers_guide.ipynb" or links == []

    def test_cards_beside_seats_carry_their_suit(self, path):
        # "E 12E": a seat letter next to a card code ending in E (swords) reads as two seats
        pattern = re.compile(r"\b[NESW]\b[ :]+`?\d{1,2}[OCBE]\b")
        found = [(cell.get("id"), m.group(0)) for cell in cells(path) if cell.cell_type == "markdown" and shown(cell)
                 for m in pattern.finditer(cell.source)]
        assert found == []


def test_the_colon_rule_sees_a_hidden_check():
    # the rule above must be able to fail: an assert-only cell shows nothing, a print or a last expression does
    assert not code_shows_something("x = 1\nassert x == 1")
    assert code_shows_something("print(1)") and code_shows_something("x = 1\nx")
    assert not code_shows_something("ax.legend();")
    assert code_names("type `3O 2C 12E`, score `SENWSEXNW`, open `notebooks/07.html`") == []
    assert code_names("`score_tricks(notation)`, `Options(chant=False)`, `aluette.probability`, `sqrt(p/n)`") == [
        "score_tricks(notation)", "Options(chant=False)", "aluette.probability", "sqrt(p/n)"]


def test_the_removed_cell_rule_sees_a_name_the_app_needs():
    from nbformat.v4 import new_code_cell
    removed = new_code_cell("from math import pi\nx = 2", metadata={"tags": [TAG]})
    removed["id"] = "removed"
    kept = new_code_cell("y = x * pi\nx = 3\nx")
    kept["id"] = "kept"
    assert removed_names_used([removed, kept]) == [("kept", "pi", "removed")]  # x is assigned again in "kept"
    kept.source = "print(x)"
    assert removed_names_used([removed, kept]) == [("kept", "x", "removed")]
    kept.source = "from math import pi\nprint(pi)"  # a kept cell that imports the name itself needs nothing
    assert removed_names_used([removed, kept]) == []


#: A shell command in a notebook: an indented line of markdown (how the teacher's guide writes its commands).
COMMAND = re.compile(r"^    (\S+)", re.MULTILINE)


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_commands_are_the_projects_own(path):
    # issue 23 §7: a teacher copies the commands as written, from the project folder: make targets or the project's
    # own virtual environment (.venv/bin/...), never a bare `jupyter` that may not be installed
    commands = [m.group(1) for cell in cells(path) if cell.cell_type == "markdown" for m in COMMAND.finditer(
        re.sub(r"<style>.*?</style>", "", cell.source, flags=re.S))]
    assert all(c == "make" or c.startswith(".venv/bin/") for c in commands), commands


def test_the_command_rule_can_fail():
    assert [m.group(1) for m in COMMAND.finditer("Print it:\n\n    jupyter nbconvert x\n    make app\n")] == [
        "jupyter", "make"]


#: "seeds" for the rules sheet (docs/sources/), in the forms the tests and docstrings used: "the seeds" quoted or before
#: a source's mark, the sheet's possessive ("seeds' signal table"), a section of the sheet after it ('seeds "setup"',
#: "Seeds, gameplay"), "seeds = the rules sheet", beside pagat ("pagat/seeds", "seeds and pagat.com"), "(seeds)", a
#: comment opening "# seeds:". Random seeds are left alone: "the seeds the puzzles are drawn from", "the seeds 0 and
#: 42", "over many seeds", "explicit seeds", "for seed in seeds:".
SECTION = r"(?:setup|gameplay|scoring|end of game|card rankings|cards|signals|materials|the deck|ranking|overview)"
SHEET_AS_SEEDS = re.compile(
    r"\"the seeds\"|\bthe seeds(?=[,:)]|\s+\()|\bseeds'|\bseeds\b,?\s+\"?" + SECTION + r"\b"
    r"|\bseeds\s*=\s*the rules sheet|\bseeds\s*(?:/|and\s+pagat|\((?:the rules sheet|``docs|\"))"
    r"|pagat(?:\.com)?\s*/\s*seeds\b|(?<!\w)\(seeds\)|#\s*seeds(?:\s+(?:fy|az|sq|cy|pa))?:", re.IGNORECASE)
#: What a reader of the lessons sees (the notebooks, the README) never says "the seeds" at all: it reads as either.
AMBIGUOUS = re.compile(r"\bthe seeds\b", re.IGNORECASE)
ROOT = NOTEBOOKS.parent
READ_BY_STUDENTS = sorted({*NOTEBOOKS.rglob("*.ipynb"), ROOT / "README.md"})
#: Every other text of the project that names its sources: the engine (its docstrings, and the catalogue of what
#: students read), the docs and the tests (this file holds the patterns themselves).
NAMING_THE_SOURCES = sorted({*(ROOT / "aluette").rglob("*.py"), *(ROOT / "aluette" / "locale").rglob("*.po*"),
                             *(ROOT / "docs").rglob("*.md"),
                             *(p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name)})


@pytest.mark.parametrize("path", READ_BY_STUDENTS + NAMING_THE_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_rules_sheet_is_called_the_rules_sheet(path):
    # the preamble's words: "the seeds" also means the random seeds, so the sources' sheet is "the rules sheet"
    # (issue 19 §2), in the notebooks and everywhere the project names its sources
    text = path.read_text(encoding="utf-8")
    assert [m.group(0) for m in SHEET_AS_SEEDS.finditer(text)] == []
    assert path not in READ_BY_STUDENTS or not AMBIGUOUS.search(text)


def test_the_seeds_check_tells_the_sheet_from_random_seeds():
    sheet = ['* Seeds, "end of game", and pagat.com', "GameRules.com's rules (\"the seeds\" in docstrings)",
             "# seeds' signal table: only the partner", '# seeds "setup": each recipient', "# seeds, scoring: partners",
             "(seeds = the rules sheet, pagat.com)", "# pagat/seeds: mordienne", "# seeds/pagat: nine cards",
             "Sources: seeds\n    and pagat.com", "keep the nine highest (seeds)", "# seeds: a tie spoils",
             '# seeds fy: "Stick out pinkie"', "Seeds (``docs/sources/``, \"cards\")", "# seeds gameplay: the",
             'the seeds ("cavalières")', 'the seeds\' "card rankings" section']
    random = ["#: The seeds the shipped puzzles are drawn from", "over many seeds; the same seed",
              "the seeds 0 and 4294967295 typed", "explicit seeds (``aluette.chance``)", "for seed in seeds:\n", "seeds = sorted(p.seed for p in SHIPPED)", "find_puzzles(seeds, per_deal=2)",
              "Seeds with a given property", "SEARCH = 300  # seeds tried", "it seeds the deals", "**Seeds.** Every",
              "assert len(seeds) == 4"]
    assert [t for t in sheet if not SHEET_AS_SEEDS.search(t)] == []
    assert [t for t in random if SHEET_AS_SEEDS.search(t)] == []
