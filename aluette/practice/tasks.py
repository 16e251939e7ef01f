"""The values of practice: a :class:`Task` written as data, the :class:`Rule` it tests, its ladder of :class:`Hint` s,
a parsed :class:`Answer` and the :class:`Verdict` on it.

A task is a frozen value, like python-chess's ``Move``: what is asked (:attr:`Task.prompt`), the position it starts
from as engine values (:attr:`Task.position`: cards, seats, trick outcomes, options), its points, its hints and the
rule it tests with where the lesson teaches it. It holds no answer: its kind (:mod:`aluette.practice.kinds`) works
the answer out with the engine's own functions whenever one is judged (:meth:`Task.check`) or shown
(:meth:`Task.solution`). Parsing lives on the task, as ``Board.parse_san`` lives on the board, because the task
decides what may be answered (a card of this trick, a seat and points...): :meth:`Task.parse`.

Points: a task is worth :attr:`Task.points`; each hint taken costs its :attr:`Hint.cost`, each wrong try before a
right answer costs :data:`RETRY_COST`; what is earned never goes below zero (:meth:`Task.points_after`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..errors import AluetteError, AnswerError, InputTooLongError
from ..i18n import _, number

__all__ = ["Rule", "Hint", "Task", "Answer", "Verdict", "Text", "ClassOf", "Joined", "text", "MAX_ANSWER_TEXT",
           "RETRY_COST", "answer_text"]

#: The longest answer read, in characters: the longest right answer (six cards in words) is far shorter; a longer
#: text is refused before it is read.
MAX_ANSWER_TEXT = 200

#: What each wrong try costs of a task's points when a later try is right.
RETRY_COST = 1


def answer_text(text: Any) -> str:
    """``text`` stripped, when it is an answer at all: text of at most :data:`MAX_ANSWER_TEXT` characters with
    something in it. Every kind's parser reads its text through here first.

    Raises:
        InputTooLongError: longer than :data:`MAX_ANSWER_TEXT` (nothing of it is read or quoted).
        AnswerError: not text, or empty.
    """
    if not isinstance(text, str):
        raise AnswerError(_("an answer is text, got {kind}").format(kind=type(text).__name__))
    if len(text) > MAX_ANSWER_TEXT:
        raise InputTooLongError(_("the answer is {count} characters long; an answer takes at most {most}. Nothing "
                                  "was read.").format(count=number(len(text)), most=MAX_ANSWER_TEXT))
    text = text.strip()
    if not text:
        raise AnswerError(_("the answer is empty: type your answer first"))
    return text


@dataclass(frozen=True)
class ClassOf:
    """A card's ranking class, named when shown (:func:`aluette.card_names.class_name`): a :class:`Text`'s value."""

    card: Any


@dataclass(frozen=True)
class Joined:
    """Values shown one after the other with ``between`` (``" "`` for sentences; looked up in the catalogue, so
    ``" or "`` is translated): a :class:`Text`'s value."""

    items: tuple
    between: str = ", "


@dataclass(frozen=True)
class Text:
    """Words worded when shown, in the page's language: a catalogue message id and its values, as facts (cards,
    seats, numbers, names, other texts). A task is drawn once and may be shown in either language, so it keeps its
    words as this, never as a translated string.

    Values: a :class:`~aluette.Card` is named as ``"Monsieur (3O)"`` / ``"the ace of coins (1O)"``, a
    :class:`~aluette.Seat` by its full name, a :class:`ClassOf` by its class, a tuple by its items joined with
    ``", "``, a :class:`Joined` by its items joined as it says, a :class:`Text` by its words; anything else by
    ``str``.
    """

    message: str
    values: tuple = ()

    def __str__(self) -> str:
        words = _(self.message)
        return words.format(**{name: _shown(value) for name, value in self.values}) if self.values else words


def text(message: str, **values) -> Text:
    """``Text(message, values)``: ``message`` (marked for the catalogue where it is written, with ``N_``) and its
    values by name."""
    return Text(message, tuple(values.items()))


def _shown(value: Any) -> str:
    from ..card_names import class_name, seat_name
    from ..cards import Card
    from ..seats import Seat
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, Card):
        from .kinds import _card_label
        return _card_label(value)
    if isinstance(value, Seat):
        return seat_name(value)
    if isinstance(value, ClassOf):
        return class_name(value.card)
    if isinstance(value, Joined):
        return _(value.between).join(_shown(item) for item in value.items)
    if isinstance(value, tuple):
        return ", ".join(_shown(item) for item in value)
    return str(value)


@dataclass(frozen=True)
class Rule:
    """A rule a task tests, and where the lessons teach it.

    Attributes:
        key: a short identifier (``"equal-classes-spoil"``).
        said: the rule in one or two sentences, in the game's terms: the catalogue's message id (English), shown
            as :attr:`statement`.
        notebook: the lesson's notebook file (``"01_ranking.ipynb"``).
        section: the heading of the section that teaches it, as written in the English notebook (its French
            twin's heading is its catalogue entry).
        source: where the rule comes from (the rules sheet, pagat.com, or a decision of this project).
    """

    key: str
    said: str
    notebook: str
    section: str
    source: str

    @property
    def statement(self) -> str:
        """The rule in the page's language."""
        return _(self.said)

    @property
    def lesson(self) -> str:
        """The lesson's number, ``"01"``."""
        return self.notebook[:2]

    @property
    def where(self) -> str:
        """``'lesson 01, section "Cards of one class are equal, whatever their suit"'``, in the page's language."""
        return _('lesson {lesson}, section "{section}"').format(lesson=self.lesson, section=_(self.section))


@dataclass(frozen=True)
class Hint:
    """One rung of a task's ladder of hints.

    Attributes:
        words: the hint, as :class:`Text` (shown as :attr:`text`).
        cost: the points it takes off the task's points when taken.
    """

    words: Text
    cost: int

    @property
    def text(self) -> str:
        """The hint in the page's language."""
        return str(self.words)


@dataclass(frozen=True)
class Answer:
    """An answer read from text by :meth:`Task.parse`.

    Attributes:
        task_id: the task it answers.
        value: the answer as engine values: a :class:`~aluette.Card` or ``None`` (spoiled) for a trick's winner, a
            tuple of cards for an order, ``(seat or None, points)`` for a deal's score, ``((seat, count), ...)`` for
            the chant, the index of a choice for a signal, a card for a play.
        text: the text it was read from, stripped.
    """

    task_id: str
    value: Any
    text: str


@dataclass(frozen=True)
class Verdict:
    """The judgement of one answer.

    Attributes:
        task_id: the task judged.
        right: whether the answer is right.
        points: the points earned: the task's points after hints and wrong tries when right, else 0.
        explanation: for a right answer, why it is right; for a wrong one, what is wrong with it, then the rule and
            where the lesson teaches it.
        rule: the rule a wrong answer broke (``None`` when right).
        over: whether the task is over (answered right, out of tries, or its answer asked for).
        answer: the right answer in words, only when the task is over; ``None`` before.
    """

    task_id: str
    right: bool
    points: int
    explanation: str
    rule: Optional[Rule]
    over: bool
    answer: Optional[str]


@dataclass(frozen=True)
class Task:
    """One practice task, written as data.

    Attributes:
        id: a short identifier, drawn with the task (``"winner-3f9a0c1b22e4"``).
        kind: the key of its kind in :data:`aluette.practice.KINDS` (``"winner"``, ``"order"``...).
        lesson: the lesson it belongs to (``"01"``).
        asked: what is asked, as :class:`Text` (shown as :attr:`prompt`).
        written: how to write the answer, as :class:`Text` (shown as :attr:`form`, the answer box's placeholder).
        position: where it starts, as engine values: a frozen position of its kind (:mod:`aluette.practice.kinds`).
        points: what a right answer with no hint at the first try earns.
        hints: the ladder of hints, first to last, each with its cost.
        rule: the rule it tests, with where the lesson teaches it.
        tries: how many answers it takes before it is over.
    """

    id: str
    kind: str
    lesson: str
    asked: Text
    written: Text
    position: Any
    points: int
    hints: tuple[Hint, ...]
    rule: Rule
    tries: int = 2

    @property
    def prompt(self) -> str:
        """What is asked, in the page's language."""
        return str(self.asked)

    @property
    def form(self) -> str:
        """How to write the answer, in the page's language."""
        return str(self.written)

    def _kind(self):
        from .kinds import KINDS
        return KINDS[self.kind]

    def parse(self, text: Any) -> Answer:
        """Read ``text`` (what a student typed or a widget sent) as an answer to this task.

        Raises:
            InputTooLongError: longer than :data:`MAX_ANSWER_TEXT`.
            AnswerError: empty, not text, or not of this task's form (the message says what is expected).
            UnknownCardError / UnknownSeatError / DuplicateSeatError / DuplicateCardError: a card or seat that is
                none, or given twice.
        """
        text = answer_text(text)
        return Answer(self.id, self._kind().parse(self.position, text), text)

    def judge(self, answer: Answer) -> tuple[bool, str, Optional[Rule]]:
        """``(right, explanation, rule broken or None)`` for a parsed answer, worked out by the engine."""
        if not isinstance(answer, Answer) or answer.task_id != self.id:
            raise AnswerError(f"this answer was read for another task ({getattr(answer, 'task_id', None)!r}), "
                              f"not {self.id!r}")
        return self._kind().judge(self.position, answer.value)

    def solution(self) -> str:
        """The right answer in words, worked out by the engine, with why."""
        return self._kind().solution(self.position)

    def hint(self, number: int) -> Hint:
        """Hint ``number`` (0 for the first).

        Raises:
            AluetteError: no such hint (the message says how many there are).
        """
        if number.__class__ is not int or not 0 <= number < len(self.hints):
            raise AluetteError(f"this task has {len(self.hints)} hints (0 to {len(self.hints) - 1}), no hint "
                               f"{number!r}")
        return self.hints[number]

    def points_after(self, hints_used: int, wrong_tries: int = 0) -> int:
        """The points a right answer earns after the first ``hints_used`` hints and ``wrong_tries`` wrong answers."""
        if hints_used.__class__ is not int or not 0 <= hints_used <= len(self.hints):
            raise AluetteError(f"hints used must be 0 to {len(self.hints)}, got {hints_used!r}")
        if wrong_tries.__class__ is not int or not 0 <= wrong_tries < self.tries:
            raise AluetteError(f"wrong tries must be 0 to {self.tries - 1}, got {wrong_tries!r}")
        cost = sum(hint.cost for hint in self.hints[:hints_used]) + RETRY_COST * wrong_tries
        return max(0, self.points - cost)

    def check(self, text: Any, *, hints_used: int = 0, wrong_tries: int = 0) -> Verdict:
        """Read and judge ``text`` as this task's ``wrong_tries + 1``-th answer after ``hints_used`` hints.

        The right answer is in the verdict only when the task is then over (answered right, or the last try): a
        wrong answer with tries left is told what is wrong with it (its kind's nudge) and the rule, not the answer.

        Raises:
            as :meth:`parse` (nothing is judged), and AluetteError for counts out of range.
        """
        earned = self.points_after(hints_used, wrong_tries)  # checks the counts before anything is read
        answer = self.parse(text)
        right, explanation, rule = self.judge(answer)
        over = right or wrong_tries + 1 >= self.tries
        nudge = self._kind().nudge
        if not right and not over and nudge is not None:
            explanation = nudge(self.position, answer.value)  # what is wrong, not the answer: a try is left
        if not right:
            explanation = _("{explanation} The rule: {rule} See {where}.").format(
                explanation=explanation, rule=rule.statement, where=rule.where)
        return Verdict(self.id, right, earned if right else 0, explanation, None if right else rule, over,
                       self.solution() if over else None)

    def reveal(self) -> Verdict:
        """The verdict when the student asks for the answer before getting it right: over, no points, the answer
        and the rule shown."""
        return Verdict(self.id, False, 0, _("The answer was asked for. The rule: {rule} See {where}.").format(
            rule=self.rule.statement, where=self.rule.where), self.rule, True, self.solution())
