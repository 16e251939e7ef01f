"""One student's practice of one lesson, in memory: the lesson's tasks in order, the score, the hints taken, and a
small spaced repetition.

A task ends when it is answered right, when its tries are used up, or when its answer is asked for
(:meth:`PracticeSession.reveal`). A task that ends without a right answer comes back later in the session, varied:
a new task of the same kind, drawn from the session's seed, placed :attr:`PracticeSession.gap` tasks further on (or
last, when fewer are left), until one is answered right. At most :data:`MAX_TASKS` tasks are drawn in a session;
after that a failed task is not brought back, and :attr:`PracticeSession.repeats_left` says so.

Chance: the session's seed gives the ``n``-th task drawn the seed ``SeedSequence(seed, spawn_key=(n,))`` (a stream
of its own), so two students with different seeds get different tasks, the same seed gives the same session on
every machine, and each task can be made again from its kind and its seed (:func:`task_from_seed`).

The state is a JSON-ready dict (:meth:`PracticeSession.to_dict`), for the store; :meth:`PracticeSession.from_dict`
checks it whole before making a session: a malformed or foreign dict is a :class:`~aluette.errors.MalformedSaveError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..chance import check_seed
from ..errors import AluetteError, MalformedSaveError, quoted
from ..i18n import N_, _
from .kinds import KINDS
from .tasks import Hint, Task, Verdict

__all__ = ["LESSONS", "Attempt", "PracticeSession", "task_from_seed", "FORMAT", "MAX_TASKS"]

#: The tasks of each lesson, in order (kinds of :data:`aluette.practice.KINDS`). A kind may serve a later lesson as
#: a review: lesson 04 opens with a ``winner`` task, whose :attr:`~aluette.practice.Task.lesson` is 01, where its
#: rule is taught.
LESSONS: dict[str, tuple[str, ...]] = {
    "01": ("winner", "order", "winner", "order"),
    "02": ("setup", "setup", "setup", "setup"),
    "03": ("chant", "chant", "chant"),
    "04": ("winner", "play", "play", "play"),
    "05": ("score", "score", "score", "score"),
    "06": ("signal", "signal", "signal", "signal", "signal"),
    "09": ("still", "still", "still", "still"),
    "13": ("puzzle-spoiling", "puzzle-first", "puzzle-last", "puzzle-mordienne"),
}

#: The marker and version of a saved session.
FORMAT = "aluette-practice"
VERSION = 1
#: The most tasks one session draws (its lesson's and the ones brought back).
MAX_TASKS = 60


_MISSING = object()


def _task_seed(seed: int, n: int) -> int:
    """The seed of the ``n``-th task drawn in a session of seed ``seed``."""
    return int(np.random.SeedSequence(seed, spawn_key=(n,)).generate_state(1, np.uint64)[0])


def task_from_seed(kind: str, seed: int) -> Task:
    """The task of kind ``kind`` drawn from ``numpy.random.default_rng(seed)``: the same on every machine.

    Raises:
        AluetteError: an unknown kind. BadSeedError: not a seed.
    """
    if kind not in KINDS:
        raise AluetteError(f"unknown kind of task {quoted(kind)}; known: {', '.join(KINDS)}")
    return KINDS[kind].generate(np.random.default_rng(check_seed(seed, N_("a task's seed"))))


@dataclass(frozen=True)
class Attempt:
    """A task that is over, as the store will keep it.

    Attributes:
        task_id, kind: the task.
        right: answered right.
        points: points earned.
        hints: hints taken.
        wrong: wrong answers given.
        asked: the answer was asked for.
    """

    task_id: str
    kind: str
    right: bool
    points: int
    hints: int
    wrong: int
    asked: bool


class PracticeSession:
    """One student's practice of ``lesson`` from ``seed``.

    Read: :attr:`current` (the task on show, ``None`` when done), :attr:`done`, :attr:`score`, :attr:`possible`,
    :attr:`hints_used`, :attr:`attempts`, :attr:`position`, :attr:`tasks`. Act: :meth:`hint`, :meth:`answer`,
    :meth:`reveal`; :meth:`again` starts the lesson over with new tasks. A bad answer raises the error of its kind (:meth:`aluette.practice.Task.parse`) and changes
    nothing; so does any call on a finished session.

    Raises:
        AluetteError: an unknown lesson, or ``gap`` not a whole number from 0 to 10. BadSeedError: not a seed.
    """

    def __init__(self, lesson: str, seed: int, *, gap: int = 2):
        if lesson not in LESSONS:
            raise AluetteError(f"no practice for lesson {quoted(lesson)}; lessons with practice: "
                               f"{', '.join(LESSONS)}")
        if gap.__class__ is not int or not 0 <= gap <= 10:
            raise AluetteError(f"gap must be a whole number from 0 to 10, got {quoted(gap)}")
        self._lesson, self._seed, self._gap = lesson, check_seed(seed), gap
        self._queue: list[tuple[str, int, Task]] = []
        self._drawn = 0
        for kind in LESSONS[lesson]:
            self._queue.append(self._draw(kind))
        self._position = 0
        self._hints = 0
        self._wrong = 0
        self._attempts: list[Attempt] = []

    def _draw(self, kind: str) -> tuple[str, int, Task]:
        seed = _task_seed(self._seed, self._drawn)
        self._drawn += 1
        return kind, seed, task_from_seed(kind, seed)

    # ------------------------------------------------------------------------------------------- reading
    @property
    def lesson(self) -> str:
        return self._lesson

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def gap(self) -> int:
        """How many tasks come between a failed task and its varied return (when that many are left)."""
        return self._gap

    @property
    def tasks(self) -> tuple[Task, ...]:
        """Every task of the session so far, in order: those done, the current one, those to come."""
        return tuple(task for _, _, task in self._queue)

    @property
    def position(self) -> int:
        """The index of the current task in :attr:`tasks` (``len(tasks)`` when done)."""
        return self._position

    @property
    def current(self) -> Optional[Task]:
        return self._queue[self._position][2] if self._position < len(self._queue) else None

    @property
    def done(self) -> bool:
        return self._position >= len(self._queue)

    @property
    def hints_taken(self) -> int:
        """Hints taken on the current task."""
        return self._hints

    @property
    def wrong_tries(self) -> int:
        """Wrong answers given to the current task."""
        return self._wrong

    @property
    def attempts(self) -> tuple[Attempt, ...]:
        return tuple(self._attempts)

    @property
    def score(self) -> int:
        return sum(a.points for a in self._attempts)

    @property
    def possible(self) -> int:
        """The points of the tasks that are over."""
        return sum(task.points for _, _, task in self._queue[:self._position])

    @property
    def hints_used(self) -> int:
        """Hints taken in the whole session, the current task's included."""
        return sum(a.hints for a in self._attempts) + self._hints

    @property
    def repeats_left(self) -> int:
        """How many more tasks may still be brought back in this session."""
        return MAX_TASKS - self._drawn

    # ------------------------------------------------------------------------------------------- acting
    def _task(self) -> Task:
        task = self.current
        if task is None:
            raise AluetteError(_("this practice of lesson {lesson} is over: {score} of {possible} points; start a "
                                 "new one").format(lesson=self._lesson, score=self.score, possible=self.possible))
        return task

    def hint(self) -> Hint:
        """The next hint of the current task; its cost comes off the task's points.

        Raises:
            AluetteError: no hint left, or the session is over (nothing changed).
        """
        task = self._task()
        if self._hints >= len(task.hints):
            raise AluetteError(_("no more hints for this task: all {n} taken").format(n=len(task.hints)))
        hint = task.hints[self._hints]
        self._hints += 1
        return hint

    def answer(self, text: Any) -> Verdict:
        """Judge ``text`` as the answer to the current task; when the task is then over, move to the next.

        Raises:
            as :meth:`aluette.practice.Task.parse` for an answer that cannot be read (nothing changed), and
            AluetteError when the session is over.
        """
        task = self._task()
        verdict = task.check(text, hints_used=self._hints, wrong_tries=self._wrong)
        if not verdict.over:
            self._wrong += 1
        else:
            self._finish(task, verdict, asked=False)
        return verdict

    def reveal(self) -> Verdict:
        """Ask for the current task's answer: it is over, with no points, and comes back varied later.

        Raises:
            AluetteError: the session is over (nothing changed).
        """
        task = self._task()
        verdict = task.reveal()
        self._finish(task, verdict, asked=True)
        return verdict

    def _finish(self, task: Task, verdict: Verdict, *, asked: bool) -> None:
        wrong = self._wrong + (0 if verdict.right or asked else 1)
        self._attempts.append(Attempt(task.id, task.kind, verdict.right, verdict.points, self._hints, wrong, asked))
        if not verdict.right and self._drawn < MAX_TASKS:
            place = min(self._position + 1 + self._gap, len(self._queue))
            self._queue.insert(place, self._draw(task.kind))
        self._position += 1
        self._hints = self._wrong = 0

    def again(self) -> "PracticeSession":
        """A new practice of the same lesson, with new tasks: its seed is drawn from this session's (a stream no
        task of this session uses), so trying a lesson again gives the same new tasks on every machine."""
        return PracticeSession(self._lesson, _task_seed(self._seed, MAX_TASKS), gap=self._gap)

    # ------------------------------------------------------------------------------------------- saving
    def to_dict(self) -> dict:
        """The session's state as a JSON-ready dict (:meth:`from_dict` reads it back)."""
        return {"format": FORMAT, "version": VERSION, "lesson": self._lesson, "seed": self._seed, "gap": self._gap,
                "drawn": self._drawn,
                "tasks": [{"kind": kind, "seed": seed, "id": task.id} for kind, seed, task in self._queue],
                "position": self._position, "hints": self._hints, "wrong": self._wrong,
                "attempts": [{"id": a.task_id, "kind": a.kind, "right": a.right, "points": a.points,
                              "hints": a.hints, "wrong": a.wrong, "asked": a.asked} for a in self._attempts]}

    @classmethod
    def from_dict(cls, data: Any) -> "PracticeSession":
        """A session from :meth:`to_dict`'s dict, checked whole first.

        Raises:
            MalformedSaveError: not such a dict (another format, another version, a missing or unknown key, a value
                of the wrong type or out of range, a task that is not the one its seed draws, attempts that do not
                match the tasks done).
        """
        try:
            return cls._load(data)
        except MalformedSaveError:
            raise
        except AluetteError as error:
            raise MalformedSaveError(f"not a saved practice session: {error}") from None

    _KEYS = frozenset({"format", "version", "lesson", "seed", "gap", "drawn", "tasks", "position", "hints", "wrong",
                       "attempts"})

    @classmethod
    def _load(cls, data: Any) -> "PracticeSession":
        bad = MalformedSaveError
        if not isinstance(data, dict):
            raise bad(f"a saved practice session is a dict, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise bad(f"not a saved practice session (format {quoted(data.get('format'))}, expected {FORMAT!r})")
        if data.get("version") != VERSION:
            raise bad(f"a saved practice session of version {quoted(data.get('version'))}; this aluette reads "
                      f"version {VERSION}")
        if set(data) != cls._KEYS:
            odd = sorted(map(str, set(data) ^ cls._KEYS))[:5]
            raise bad(f"a saved practice session has exactly the keys {', '.join(sorted(cls._KEYS))}; "
                      f"missing or unknown: {', '.join(quoted(k, 20) for k in odd)}")

        def whole(key, low, high, value=_MISSING):
            value = data[key] if value is _MISSING else value
            if value.__class__ is not int or not low <= value <= high:
                expected = f"{low}" if low == high else f"a whole number from {low} to {high}"
                raise bad(f"{key} must be {expected}, got {quoted(value)}")
            return value

        session = cls(data["lesson"], data["seed"], gap=whole("gap", 0, 10))  # checks lesson and seed
        tasks, attempts = data["tasks"], data["attempts"]
        if not isinstance(tasks, list) or not isinstance(attempts, list):
            raise bad("tasks and attempts must be lists")
        drawn = whole("drawn", len(LESSONS[session.lesson]), MAX_TASKS)
        if len(tasks) != drawn:
            raise bad(f"{drawn} tasks drawn but {quoted(len(tasks))} listed")
        position = whole("position", 0, len(tasks))
        if len(attempts) != position:
            raise bad(f"{position} tasks over but {len(attempts)} attempts")
        seeds = {_task_seed(session.seed, n) for n in range(drawn)}
        queue, used = [], set()
        for item in tasks:
            if not isinstance(item, dict) or set(item) != {"kind", "seed", "id"}:
                raise bad(f"a task is {{kind, seed, id}}, got {quoted(item)}")
            if (item["seed"].__class__ is not int or item["seed"] not in seeds or item["seed"] in used
                    or item["kind"] not in LESSONS[session.lesson]):
                raise bad(f"task {quoted(item['id'])} is not one this session drew")
            used.add(item["seed"])
            task = task_from_seed(item["kind"], item["seed"])
            if task.id != item["id"]:
                raise bad(f"task {quoted(item['id'])} is not the task its seed draws ({task.id})")
            queue.append((item["kind"], item["seed"], task))
        done = []
        for (kind, _seed, task), item in zip(queue, attempts):
            if not isinstance(item, dict) or set(item) != {"id", "kind", "right", "points", "hints", "wrong",
                                                           "asked"}:
                raise bad(f"an attempt is {{id, kind, right, points, hints, wrong, asked}}, got {quoted(item)}")
            if item["id"] != task.id or item["kind"] != kind:
                raise bad(f"attempt {quoted(item['id'])} does not match task {task.id}")
            if item["right"] not in (True, False) or item["asked"] not in (True, False):
                raise bad("an attempt's right and asked are true or false")
            hints = whole("an attempt's hints", 0, len(task.hints), item["hints"])
            if item["asked"] and item["right"]:
                raise bad("an attempt whose answer was asked for is not right")
            # right or asked: fewer wrong answers than tries; otherwise the tries were used up
            ended = item["right"] or item["asked"]
            wrong = whole("an attempt's wrong", 0 if ended else task.tries, task.tries - 1 if ended else task.tries,
                          item["wrong"])
            earned = task.points_after(hints, wrong) if item["right"] else 0
            whole("an attempt's points", earned, earned, item["points"])
            done.append(Attempt(task.id, kind, item["right"], item["points"], hints, wrong, item["asked"]))
        current = queue[position][2] if position < len(queue) else None
        hints = whole("hints", 0, len(current.hints) if current else 0)
        wrong = whole("wrong", 0, current.tries - 1 if current else 0)
        session._queue, session._drawn, session._position = queue, drawn, position
        session._hints, session._wrong, session._attempts = hints, wrong, done
        return session
