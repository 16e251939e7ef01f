"""A lesson's practice as an nbgrader assignment (issue 20, §4; aluette/practice/nbgrader.py), round trip through
nbgrader's own code: the source notebook is written into a temporary course directory, nbgrader's
``generate_assignment`` makes the students' notebook (no solution, no hidden test, no seed in it), two students'
submissions are made from it, and nbgrader's ``autograde`` runs them in a kernel and grades them.

The answers typed into the submissions are worked out here with the engine's own functions
(tests/test_practice.py's ``answers``), not by the module under test; the points expected are each task's own.
nbgrader's layout: ``source/<assignment>/``, ``release/<assignment>/``, ``submitted/<student>/<assignment>/``,
``autograded/<student>/<assignment>/`` and the gradebook ``gradebook.db`` in the course's root (nbgrader's docs,
"Philosophy: the directory structure").
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook
from nbgrader.apps import NbGraderAPI
from traitlets.config import Config

from aluette.errors import AluetteError, AnswerError
from aluette.practice import LESSONS, PracticeSession
from aluette.practice.nbgrader import assignment_name, check_answer, main, right_answer, source_notebook, write_assignment
from tests.test_practice import answers

REPO = Path(__file__).resolve().parents[1]
LESSON, SEED = "01", 2026
NAME = assignment_name(LESSON)
# nbgrader's own gradebook, on SQLAlchemy 2 (its warnings are nbgrader's, not aluette's)
pytestmark = pytest.mark.filterwarnings("ignore:Object of type:sqlalchemy.exc.SAWarning")
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"  # nbgrader's ClearSolutions.code_stub for Python


def tasks():
    return PracticeSession(LESSON, SEED).tasks


def submit(course: Path, student: str, typed: dict[int, str]) -> None:
    """The released notebook with ``answer_N = typed[N]`` in place of nbgrader's stub for each N given (the others
    left as released)."""
    notebook = json.loads((course / "release" / NAME / f"{NAME}.ipynb").read_text())
    for cell in notebook["cells"]:
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id", "")
        if grade_id.endswith("-answer"):
            n = int(grade_id.split("-")[1])
            if n in typed:
                assert "".join(cell["source"]) == STUB  # the solution was taken out
                cell["source"] = f"answer_{n} = {json.dumps(typed[n])}"
    folder = course / "submitted" / student / NAME
    folder.mkdir(parents=True)
    (folder / f"{NAME}.ipynb").write_text(json.dumps(notebook))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A course with the assignment generated, alice's submission all right and bob's with task 1 wrong, task 2
    left as released and task 3 not a card, both autograded by nbgrader: ``(course, api results)``."""
    with pytest.MonkeyPatch.context() as patch:
        # nbgrader runs its gradebook's migrations with the `alembic` command, installed beside this Python; and the
        # kernel it starts imports this checkout's aluette, as a hub's kernel imports the installed one
        patch.setenv("PATH", os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
        yield from _graded(tmp_path_factory.mktemp("course"))


def _graded(course: Path):
    write_assignment(course, LESSON, SEED)
    config = Config()
    config.CourseDirectory.root = str(course)
    config.Exchange.root = str(course / "exchange")  # nothing is exchanged here; only a writable folder
    config.Execute.timeout = 120  # a loaded machine: a cell's run, not the test's
    api = NbGraderAPI(config=config)
    results = {"generate": api.generate_assignment(NAME)}
    right = {n: answers(task)[0] for n, task in enumerate(tasks(), start=1)}
    submit(course, "alice", right)
    wrong = answers(tasks()[0])[1]
    assert wrong is not None  # a winner task always has a wrong card (tests/test_practice.py)
    submit(course, "bob", {1: wrong, 3: "the queen of nothing", **{n: right[n] for n in right if n > 3}})
    for student in ("alice", "bob"):
        results[student] = api.autograde(NAME, student)
    yield course, results


def test_generate_assignment_releases_no_solution_no_hidden_test_no_seed(graded):
    course, results = graded
    assert results["generate"]["success"], results["generate"].get("error")
    released = (course / "release" / NAME / f"{NAME}.ipynb").read_text()
    source = json.loads((course / "source" / NAME / f"{NAME}.ipynb").read_text())
    assert "BEGIN SOLUTION" not in released and "HIDDEN TESTS" not in released and "check_answer" not in released
    for seed_of_task in (item["seed"] for item in PracticeSession(LESSON, SEED).to_dict()["tasks"]):
        assert str(seed_of_task) not in released
    assert str(seed_of_task) in json.dumps(source)  # the hidden tests hold it
    shown = "\n".join("".join(cell["source"]) for cell in json.loads(released)["cells"])
    for task in tasks():
        assert task.prompt in shown  # each task is asked


def test_autograde_gives_every_point_to_the_right_answers_and_none_to_the_wrong(graded):
    course, results = graded
    for student in ("alice", "bob"):
        assert results[student]["success"], results[student].get("error")
    points = [task.points for task in tasks()]
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        def cell_scores(student):
            return [gradebook.find_grade(f"task-{n}-test", NAME, NAME, student).score
                    for n in range(1, len(points) + 1)]

        assert cell_scores("alice") == points
        assert cell_scores("bob") == [0, 0, 0] + points[3:]
        assert gradebook.find_submission(NAME, "alice").score == sum(points)
        assert gradebook.find_submission(NAME, "bob").score == sum(points[3:])
        assert gradebook.find_submission(NAME, "alice").max_score == sum(points)


def test_the_wrong_answers_feedback_names_the_rule_and_the_lesson(graded):
    course, _ = graded
    notebook = json.loads((course / "autograded" / "bob" / NAME / f"{NAME}.ipynb").read_text())
    outputs = {cell["metadata"]["nbgrader"]["grade_id"]: json.dumps(cell.get("outputs", []))
               for cell in notebook["cells"] if "nbgrader" in cell["metadata"]}
    first = tasks()[0]
    assert "AssertionError" in outputs["task-1-test"] and "lesson 01" in outputs["task-1-test"]
    assert "NotImplementedError" in outputs["task-2-answer"]
    assert "UnknownCardError" in outputs["task-3-test"] or "AnswerError" in outputs["task-3-test"]
    assert first.id in json.dumps(notebook)  # autograde put the hidden test back
    assert outputs["task-4-test"] == "[]"


# ------------------------------------------------------------------------------ the module alone (no nbgrader run)
@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_every_lessons_notebook_has_a_graded_cell_per_task_with_its_points(lesson):
    notebook = source_notebook(lesson, SEED)
    ids = [cell["id"] for cell in notebook["cells"]]
    assert len(ids) == len(set(ids))
    session_tasks = PracticeSession(lesson, SEED).tasks
    graded_cells = [c for c in notebook["cells"] if c["metadata"].get("nbgrader", {}).get("grade")]
    assert [c["metadata"]["nbgrader"]["points"] for c in graded_cells] == [t.points for t in session_tasks]
    for cell in notebook["cells"]:
        meta = cell["metadata"].get("nbgrader")
        if meta:  # nbgrader's rules: an id of its own, a graded cell locked, a solution cell not
            assert meta["grade_id"] == cell["id"] and meta["locked"] is not meta["solution"]


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_the_solution_written_is_right_by_the_engine(lesson):
    for seed in range(25):
        for task in PracticeSession(lesson, seed).tasks:
            assert task.check(right_answer(task)).right  # the judge, held to the engine in tests/test_practice.py


def test_check_answer_refuses_wrong_empty_and_foreign_tasks():
    task = tasks()[0]
    data = PracticeSession(LESSON, SEED).to_dict()["tasks"][0]
    right, wrong = answers(task)
    check_answer(data["kind"], data["seed"], task.id, right)
    with pytest.raises(AssertionError, match="lesson 01"):
        check_answer(data["kind"], data["seed"], task.id, wrong)
    with pytest.raises(AnswerError):
        check_answer(data["kind"], data["seed"], task.id, "")
    with pytest.raises(AluetteError, match="generate the assignment again"):
        check_answer(data["kind"], data["seed"] + 1, task.id, right)


def test_the_command_writes_each_lesson_and_refuses_a_file_as_course(tmp_path, capsys):
    assert main(["--course", str(tmp_path), "--seed", "5", "--lesson", "05", "--lesson", "01"]) == 0
    assert sorted(p.name for p in (tmp_path / "source").iterdir()) == ["practice-01", "practice-05"]
    assert "nbgrader generate_assignment practice-05" in capsys.readouterr().out
    (tmp_path / "file").write_text("")
    with pytest.raises(SystemExit):
        main(["--course", str(tmp_path / "file"), "--seed", "5"])
    assert "is not a folder" in capsys.readouterr().err
