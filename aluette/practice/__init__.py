"""Practice at the end of a lesson: small tasks written as data, checked by the engine (issue 20, §1).

* :class:`Task` (:mod:`aluette.practice.tasks`): what is asked, the position it starts from as engine values, its
  points, its ladder of hints (each with its cost) and the rule it tests with where the lesson teaches it;
  :meth:`Task.parse` reads an answer's text into an :class:`Answer`, :meth:`Task.check` gives a :class:`Verdict`.
* :data:`KINDS` (:mod:`aluette.practice.kinds`): the kinds of task, each a generator ``(rng) -> Task`` from an
  explicit numpy ``Generator``, judged by the engine's own functions.
* :class:`PracticeSession` (:mod:`aluette.practice.session`): one student's practice of a lesson, with a score,
  hints and a small spaced repetition, saved as a JSON-ready dict.

A widget shows :attr:`Task.prompt`, takes an answer string, calls :meth:`PracticeSession.answer`, shows the
verdict's explanation and offers :meth:`PracticeSession.hint`; the store saves :attr:`PracticeSession.attempts`.
* :class:`PracticeController` (:mod:`aluette.practice.controller`): what a page does with a session (a task on show
  with its verdict, its answer buttons, a keeper told of every change); the widget only wires controls to it.

The game never imports this package.

>>> session = PracticeSession("01", seed=7)
>>> task = session.current
>>> verdict = session.answer(task.solution().split(":")[0].split(",")[0])
>>> verdict.right, verdict.points == task.points
(True, True)
"""

from .controller import Choice, Keeper, PracticeController, student_seed
from .kinds import KINDS, Kind
from .rules import RULES
from .session import LESSONS, MAX_TASKS, Attempt, PracticeSession, task_from_seed
from .tasks import MAX_ANSWER_TEXT, RETRY_COST, Answer, Hint, Rule, Task, Verdict

__all__ = ["Choice", "Keeper", "PracticeController", "student_seed", "KINDS", "Kind", "RULES", "LESSONS", "MAX_TASKS", "Attempt", "PracticeSession", "task_from_seed",
           "MAX_ANSWER_TEXT", "RETRY_COST", "Answer", "Hint", "Rule", "Task", "Verdict"]
