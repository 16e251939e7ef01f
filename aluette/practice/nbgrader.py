"""A lesson's practice as an nbgrader assignment (issue 20, §4): the source notebook nbgrader's
``generate_assignment`` turns into the students' notebook, generated from the same task data as the practice pages.

For each task of the lesson (:data:`aluette.practice.LESSONS`, drawn as :class:`~aluette.practice.PracticeSession`
draws them from the assignment's seed) the notebook has three cells, each with its nbgrader metadata and a cell id:

* ``practice-intro`` (markdown, locked), then
* ``task-N-prompt`` (markdown, locked): what is asked and how to write the answer;
* ``task-N-answer`` (code, a solution cell): ``answer_N = "..."`` between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION``, the right answer found by the engine (:func:`right_answer`), which ``generate_assignment``
  replaces with its stub;
* ``task-N-test`` (code, graded, locked, worth the task's points): a visible check that an answer was written, and
  between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS`` the call :func:`check_answer` that rebuilds the
  task from its kind and seed and judges the answer with the engine (:meth:`aluette.practice.Task.check`). The seed
  is only in the hidden part: the students' notebook does not say how to draw the task again.

What the pages have and an nbgrader assignment has not: hints (nothing counts what they cost) and the spaced
repetition (the notebook is the same for the whole class, and is graded once). Every student gets the same tasks;
draw another set with another seed.

The grading kernel imports :mod:`aluette` (installed on the hub, as for the lessons). Make an assignment with
``make nbgrader LESSON=01 SEED=2026 COURSE=path/to/course`` or ``python -m aluette.practice.nbgrader``
(:func:`main`), then ``nbgrader generate_assignment practice-01`` in the course directory.

>>> notebook = source_notebook("01", seed=7)
>>> [cell["id"] for cell in notebook["cells"][1:4]]
['task-1-prompt', 'task-1-answer', 'task-1-test']
>>> sum(cell["metadata"]["nbgrader"].get("points", 0) for cell in notebook["cells"]) == sum(
...     task.points for task in PracticeSession("01", 7).tasks)
True
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Optional, Sequence

from ..chance import check_seed
from ..errors import AluetteError, AnswerError, quoted
from ..i18n import N_
from ..records import Hand
from ..scoring import score_tricks
from .controller import task_choices
from .kinds import ChantPosition, OrderPosition, ScorePosition, _chant_counts
from .session import LESSONS, PracticeSession, task_from_seed
from .tasks import Task

__all__ = ["source_notebook", "write_assignment", "check_answer", "right_answer", "assignment_name", "main"]

#: nbgrader's version of its cell metadata this module writes.
SCHEMA_VERSION = 3


def assignment_name(lesson: str) -> str:
    """``"practice-01"``: the assignment's name (its folder under ``source/``, and its notebook's)."""
    return f"practice-{lesson}"


def right_answer(task: Task) -> str:
    """A right answer to ``task`` as a student could type it, found by the engine and checked by the task's judge.

    Raises:
        AluetteError: no answer of the task's forms is right (a kind this module does not know yet).
    """
    position = task.position
    if isinstance(position, OrderPosition):
        candidates = [" ".join(card.code for card in Hand(position.cards))]
    elif isinstance(position, ScorePosition):
        score = score_tricks(position.outcomes)
        candidates = ["nobody" if score.winner is None else f"{score.winner} {score.points}"]
    elif isinstance(position, ChantPosition):
        candidates = [", ".join(f"{seat} {count}" for seat, count in _chant_counts(position))]
    else:  # a choice among buttons: the one the judge accepts
        candidates = [choice.text for choice in task_choices(task)]
    for text in candidates:
        if task.judge(task.parse(text))[0]:
            return text
    raise AluetteError(f"no right answer found for task {task.id} of kind {quoted(task.kind)}")


def check_answer(kind: str, seed: int, task_id: str, answer: Any) -> None:
    """The hidden test of one task: rebuild it from ``kind`` and ``seed`` and judge ``answer``.

    Raises:
        AluetteError: the task drawn is not ``task_id`` (the notebook was made by another version of aluette).
        InputTooLongError / AnswerError / the card and seat errors: the answer cannot be read (the message says why).
        AssertionError: the answer is wrong; the message is the explanation a practice page shows, with the rule
            and where the lesson teaches it.
    """
    task = task_from_seed(kind, seed)
    if task.id != task_id:
        raise AluetteError(f"this notebook's task {quoted(task_id)} is not the one this aluette draws from its seed "
                           f"({task.id}); generate the assignment again with this version")
    if answer is None or answer == "":
        raise AnswerError("no answer: write it between the quotes of the cell above")
    verdict = task.check(answer)
    assert verdict.right, verdict.explanation


def _cell(kind: str, cell_id: str, source: str, *, solution: bool = False, points: Optional[int] = None) -> dict:
    nbgrader = {"grade": points is not None, "grade_id": cell_id, "locked": not solution,
                "schema_version": SCHEMA_VERSION, "solution": solution, "task": False}
    if points is not None:
        nbgrader["points"] = points
    cell = {"cell_type": kind, "id": cell_id, "metadata": {"nbgrader": nbgrader}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def source_notebook(lesson: str, seed: int) -> dict:
    """The nbgrader source notebook of ``lesson``'s practice, its tasks drawn from ``seed``, as nbformat 4.5 JSON.

    Raises:
        AluetteError: a lesson with no practice. BadSeedError: not a seed.
    """
    seed = check_seed(seed, N_("the assignment's seed"))
    session = PracticeSession(lesson, seed)
    tasks = list(zip(session.to_dict()["tasks"], session.tasks))
    total = sum(task.points for _, task in tasks)
    cells = [_cell("markdown", "practice-intro", (
        f"# Practice: lesson {lesson}\n\n{len(tasks)} tasks, {total} points. Under each task, replace the two lines "
        f"`# YOUR CODE HERE` and `raise NotImplementedError()` by your answer between quotes, "
        f'`answer_1 = "3O"` for instance. Each task is graded when you submit; the feedback explains a wrong '
        f"answer and names the rule and where the lesson teaches it."))]
    for n, (data, task) in enumerate(tasks, start=1):
        cells.append(_cell("markdown", f"task-{n}-prompt",
                           f"## Task {n} ({task.points} points)\n\n{task.prompt}\n\n*Write:* {task.form}."))
        cells.append(_cell("code", f"task-{n}-answer",
                           f"### BEGIN SOLUTION\nanswer_{n} = {json.dumps(right_answer(task))}\n### END SOLUTION",
                           solution=True))
        cells.append(_cell("code", f"task-{n}-test", (
            f'assert isinstance(answer_{n}, str) and answer_{n}.strip(), "write your answer between the quotes"\n'
            f"### BEGIN HIDDEN TESTS\nfrom aluette.practice.nbgrader import check_answer\n"
            f"check_answer({data['kind']!r}, {data['seed']}, {task.id!r}, answer_{n})\n### END HIDDEN TESTS"),
            points=task.points))
    return {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                        "name": "python3"},
                                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def write_assignment(course: Path | str, lesson: str, seed: int) -> Path:
    """Write ``lesson``'s source notebook into the nbgrader course directory ``course``, as
    ``source/practice-LL/practice-LL.ipynb`` (folders made as needed); returns its path.

    Raises:
        as :func:`source_notebook`; AluetteError: ``course`` exists and is not a folder.
    """
    course = Path(course)
    if course.exists() and not course.is_dir():
        raise AluetteError(f"the course directory {quoted(str(course))} is not a folder")
    notebook = source_notebook(lesson, seed)
    name = assignment_name(lesson)
    path = course / "source" / name / f"{name}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m aluette.practice.nbgrader --lesson 01 --seed 2026 --course DIR`` (every lesson without
    ``--lesson``): write the source notebooks and say what to run next."""
    parser = argparse.ArgumentParser(prog="python -m aluette.practice.nbgrader",
                                     description="Write a lesson's practice as an nbgrader source notebook.")
    parser.add_argument("--course", required=True, help="the nbgrader course directory (its root)")
    parser.add_argument("--seed", required=True, type=int, help="the seed the tasks are drawn from")
    parser.add_argument("--lesson", choices=sorted(LESSONS), action="append",
                        help="a lesson with practice (again for more; all when not given)")
    args = parser.parse_args(argv)
    try:
        for lesson in args.lesson or sorted(LESSONS):
            path = write_assignment(args.course, lesson, args.seed)
            print(f"wrote {path}; next, in {args.course}: nbgrader generate_assignment {assignment_name(lesson)}")
    except AluetteError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
