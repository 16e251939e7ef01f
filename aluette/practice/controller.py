"""What a practice page does, as plain Python (the widget, :mod:`aluette.widgets.practice`, only wires controls).

A :class:`PracticeController` drives one :class:`~aluette.practice.PracticeSession` the way a page shows it: a task
stays on show after it is over, with its verdict, until the student moves on (:meth:`~PracticeController.next`);
the answer buttons a task offers (:meth:`~PracticeController.choices`: the cards of a trick, a hand, the seats, the
letters of a flash card, yes or no) answer with the same text a student could type; a ``keeper`` (the store's
progress, :class:`aluette.widgets.practice.StoreKeeper`) is told of every task that ends and of every change, so a
reload finds the practice where it was.

Bad input raises the error of its kind (:meth:`aluette.practice.Task.parse`) and changes nothing. A keeper that
fails (the database is down) never loses the answer on the page: the controller says what was not kept
(:attr:`~PracticeController.unsaved`) and goes on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Optional, Protocol

from ..card_names import card_name, seat_name
from ..cards import Card
from ..errors import AluetteError, MalformedSaveError
from ..i18n import _, ngettext
from ..seats import SEATS
from .kinds import OrderPosition, PlayPosition, PuzzlePosition, SetupPosition, SignalPosition, TrickPosition
from .session import Attempt, PracticeSession
from .tasks import Hint, Task, Verdict

__all__ = ["Choice", "Keeper", "PracticeController", "student_seed", "task_choices"]


def student_seed(lesson: str, who: str) -> int:
    """The seed of ``who``'s practice of ``lesson`` (``who``: a class and a first name, or a page's own key): the
    same on every machine and every reload, different for neighbours (SHA-256, not Python's salted ``hash``)."""
    digest = hashlib.sha256(f"aluette-practice\n{lesson}\n{who}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Choice:
    """An answer button: its ``label``, the ``text`` it answers with (what a student could type), and the ``card``
    it shows as a picture (``None`` for a word)."""

    label: str
    text: str
    card: Optional[Card] = None


class Keeper(Protocol):
    """Where a practice is kept (the store, :class:`aluette.widgets.practice.StoreKeeper`)."""

    def load(self, lesson: str) -> Optional[dict]: ...

    def keep(self, lesson: str, attempt: Attempt, task: Task, state: dict, done: bool) -> None: ...

    def save(self, lesson: str, state: dict, done: bool) -> None: ...


def _label(card: Card) -> str:
    """An answer button's label: ``"king of swords (12E)"``, in the page's language."""
    return f"{card_name(card)} ({card.code})"


def task_choices(task: Task) -> tuple[Choice, ...]:
    """The answer buttons of ``task`` (none for the answers only typed: a deal's score, the chant's counts)."""
    p = task.position
    if isinstance(p, TrickPosition):
        return tuple(Choice(_label(card), card.code, card) for _, card in p.plays) + (
            Choice(_("Spoiled: nobody wins it"), "spoiled"),)
    if isinstance(p, OrderPosition):
        return tuple(Choice(_label(card), card.code, card) for card in p.cards)
    if isinstance(p, PlayPosition):
        return tuple(Choice(_label(card), card.code, card) for card in p.hand)
    if isinstance(p, PuzzlePosition):
        return tuple(Choice(_label(card), card.code, card) for card in p.deal().legal_cards())
    if isinstance(p, SignalPosition):
        return tuple(Choice(letter, letter) for letter in "ABCD"[:len(p.choices)])
    if isinstance(p, SetupPosition):
        if p.names:
            return tuple(Choice(name, name) for name in p.names)
        return tuple(Choice(seat_name(seat), seat.value) for seat in SEATS)
    if task.kind == "still":
        return (Choice(_("Yes"), "yes"), Choice(_("No"), "no"))
    return ()


class PracticeController:
    """One student's practice of ``lesson`` from ``seed``; with a ``keeper``, started from what it kept (when it
    kept a practice of this lesson) and keeping every change.

    Read: :attr:`task` (on show), :attr:`verdict` (of the task on show, ``None`` before it is over), :attr:`hints`
    (taken on the task on show), :attr:`waiting` (over, waiting for :meth:`next`), :attr:`done`, :meth:`status`,
    :meth:`choices`, :meth:`pictures`, :attr:`unsaved`. Act: :meth:`answer`, :meth:`hint`, :meth:`reveal`,
    :meth:`next`, :meth:`again`.
    """

    def __init__(self, lesson: str, seed: int, keeper: Optional[Keeper] = None):
        self._keeper: Optional[Keeper] = None
        self.unsaved: Optional[str] = None
        self.restored = False
        self.session = PracticeSession(lesson, seed)
        self._shown: Optional[Task] = self.session.current
        self._verdict: Optional[Verdict] = None
        self._hints: list[Hint] = []
        self._wrong: list[Verdict] = []
        if keeper is not None:
            self.attach(keeper)

    def _call(self, method, *args):
        try:
            return method(*args)
        except AluetteError as error:
            self.unsaved = _("your progress was not kept: {error}").format(error=error)
            return None

    # ------------------------------------------------------------------------------------------- reading
    @property
    def lesson(self) -> str:
        return self.session.lesson

    @property
    def task(self) -> Optional[Task]:
        """The task on show: the current one, or the one just over while its verdict is shown."""
        return self._shown

    @property
    def verdict(self) -> Optional[Verdict]:
        """The last verdict on the task on show (a wrong answer's while tries are left, then the final one)."""
        return self._verdict

    @property
    def hints(self) -> tuple[Hint, ...]:
        return tuple(self._hints)

    @property
    def waiting(self) -> bool:
        return self._verdict is not None and self._verdict.over

    @property
    def done(self) -> bool:
        return self._shown is None

    @property
    def next_hint_cost(self) -> Optional[int]:
        """What the next hint costs, or ``None`` when there is none to take."""
        if self._shown is None or self.waiting or len(self._hints) >= len(self._shown.hints):
            return None
        return self._shown.hints[len(self._hints)].cost

    def status(self) -> str:
        """``"Task 2 of 5 · 3 of 6 points so far · 1 hint taken"``."""
        s = self.session
        hints = s.hints_used
        return _("Task {number} of {tasks} · {score} of {possible} points so far · {hints}").format(
            number=min(s.position + (0 if self.waiting else 1), len(s.tasks)), tasks=len(s.tasks), score=s.score,
            possible=s.possible, hints=ngettext("{n} hint taken", "{n} hints taken", hints).format(n=hints))

    def summary(self) -> str:
        """The end of the practice in words."""
        s = self.session
        solved = sum(a.right for a in s.attempts)
        return _("Practice of lesson {lesson} done: {solved} of {tasks} tasks solved, {score} of {possible} points, "
                 "{hints}.").format(lesson=s.lesson, solved=solved, tasks=len(s.attempts), score=s.score,
                                    possible=s.possible, hints=ngettext("{n} hint taken", "{n} hints taken",
                                                                        s.hints_used).format(n=s.hints_used))

    def pictures(self) -> tuple[tuple[str, Card], ...]:
        """The cards the task shows besides its answer buttons, each with a caption: the three cards played before
        the student's turn (``"North leads"``); none for the other kinds (a trick's winner is answered by its own
        cards' buttons, an order by the cards to order)."""
        task = self._shown
        position = None if task is None else task.position
        if isinstance(position, PlayPosition):
            return tuple(((_("{seat} leads") if i == 0 else _("{seat} plays")).format(seat=seat_name(seat)), card)
                         for i, (seat, card) in enumerate(position.plays))
        if isinstance(position, PuzzlePosition):  # the trick so far (the open hands: aluette.widgets.puzzles)
            return tuple(((_("{seat} leads") if i == 0 else _("{seat} plays")).format(seat=seat_name(seat)), card)
                         for i, (seat, card) in enumerate(position.deal().current_trick))
        return ()

    @property
    def sequence(self) -> bool:
        """Whether the choices build a list (put these cards in order) rather than answer at once."""
        return self._shown is not None and isinstance(self._shown.position, OrderPosition)

    def choices(self) -> tuple[Choice, ...]:
        """The answer buttons of the task on show (:func:`task_choices`)."""
        return () if self._shown is None else task_choices(self._shown)

    # ------------------------------------------------------------------------------------------- acting
    def open_task(self) -> Task:
        """The task on show, open for an answer (what a view checks before it acts on a pick of its own).

        Raises:
            AluetteError: the task is over (press Next task) or the practice is done.
        """
        if self._shown is None:
            raise AluetteError(_("this practice is over: {summary} Press Practice again for new tasks.").format(
                summary=self.summary()))
        if self.waiting:
            raise AluetteError(_("this task is over: press Next task"))
        return self._shown

    def answer(self, text: Any) -> Verdict:
        """Judge ``text`` as the answer to the task on show.

        Raises:
            the task's parse errors (nothing changed); AluetteError when the task is over (press Next task) or the
            practice is done.
        """
        task = self.open_task()
        verdict = self.session.answer(text)
        self._verdict = verdict
        if verdict.over:
            self._ended(task)
        else:
            self._wrong.append(verdict)
            self._saved()
        return verdict

    def hint(self) -> Hint:
        """The next hint of the task on show; its cost comes off the task's points.

        Raises:
            AluetteError: no hint left, or the task is over (nothing changed).
        """
        self.open_task()
        hint = self.session.hint()
        self._hints.append(hint)
        self._saved()
        return hint

    def reveal(self) -> Verdict:
        """The answer of the task on show, asked for: no points; the task comes back varied later."""
        task = self.open_task()
        self._verdict = self.session.reveal()
        self._ended(task)
        return self._verdict

    def next(self) -> Optional[Task]:
        """Move on from a task that is over to the next one (``None`` when the practice is done).

        Raises:
            AluetteError: the task on show is not over yet.
        """
        if self._shown is not None and not self.waiting:
            raise AluetteError("answer this task first (or ask for its answer)")
        self._shown = self.session.current
        self._verdict, self._hints, self._wrong = None, [], []
        return self._shown

    def again(self) -> Task:
        """A new practice of the lesson, with new tasks (:meth:`aluette.practice.PracticeSession.again`)."""
        self.session = self.session.again()
        self._shown, self._verdict, self._hints, self._wrong = self.session.current, None, [], []
        self._saved()
        return self._shown

    def attach(self, keeper: Keeper) -> bool:
        """Start keeping this practice with ``keeper`` (a name was just given): when it kept a practice of this
        lesson, that one goes on (returns True); otherwise this one is kept, with the tasks already over (False)."""
        self._keeper, self.unsaved = keeper, None
        state = self._call(keeper.load, self.lesson)
        if state is not None:
            try:
                session = PracticeSession.from_dict(state)
            except MalformedSaveError as error:
                self.unsaved = _("the practice kept for you could not be read ({error}); this one is kept "
                                 "instead").format(error=error)
            else:
                if session.lesson == self.lesson:
                    self.session, self.restored = session, True
                    self._shown, self._verdict, self._wrong = session.current, None, []
                    self._hints = list(self._shown.hints[:session.hints_taken]) if self._shown else []
                    return True
        for task, attempt in zip(self.session.tasks, self.session.attempts):
            self._call(keeper.keep, self.lesson, attempt, task, self.session.to_dict(), self.session.done)
        self._saved()
        return False

    def detach(self) -> None:
        """Stop keeping (the student forgot their progress, or gave no name): a new practice starts."""
        self._keeper, self.unsaved, self.restored = None, None, False
        self.again()

    def _ended(self, task: Task) -> None:
        if self._keeper is not None:
            self._call(self._keeper.keep, self.lesson, self.session.attempts[-1], task, self.session.to_dict(),
                       self.session.done)

    def _saved(self) -> None:
        if self._keeper is not None:
            self._call(self._keeper.save, self.lesson, self.session.to_dict(), self.session.done)
