"""Widgets for the "Teacher's guide" notebook: exercises whose answers are revealed on demand.

An :class:`Exercise` holds a question and a function that computes the answer with the engine when asked, so the
answer is never typed by hand and cannot drift from the rules. :class:`ExerciseSheet` shows one question per row with
a "Show answer" button; the answer text is put into the widget only when the button is pressed (so it is not sent to
the browser before), and the button then hides it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Callable, Sequence

import ipywidgets as w

from ..i18n import _
from .common import no_null_tooltips

__all__ = ["Exercise", "ExerciseSheet"]


def _shown(text: str) -> str:
    """``text`` in the page's language (``""`` stays empty: gettext's entry for it is the catalogue's header)."""
    return _(text) if text else text


@dataclass(frozen=True)
class Exercise:
    """One exercise.

    Attributes:
        question: the question, plain text (shown in the page's language when the catalogue has it: a question
            marked with ``N_``, as :data:`aluette.guide.QUESTIONS`).
        answer: a function of no arguments returning the answer as text, computed by the engine when called.
        source: where the rule behind the answer comes from (the rules sheet, pagat.com, or a decision of this project),
            translated as ``question``.
    """

    question: str
    answer: Callable[[], str]
    source: str = ""


class ExerciseSheet(w.VBox):
    """The exercises, each with a "Show answer" / "Hide answer" toggle.

    Per exercise ``i`` (0-based): ``questions[i]`` (``aluette-exercise-question``), ``buttons[i]``
    (``aluette-exercise-show``) and ``answers[i]`` (``aluette-exercise-answer``, empty until shown); each row has the
    class ``aluette-exercise``. Read-only: ``exercises``.
    """

    def __init__(self, exercises: Sequence[Exercise]):
        self.exercises = tuple(exercises)
        self.questions, self.buttons, self.answers = [], [], []
        rows = []
        for number, exercise in enumerate(self.exercises, start=1):
            question = w.HTML(f"<b>{number}.</b> {escape(_shown(exercise.question))}")
            question.add_class("aluette-exercise-question")
            button = w.Button(description=_("Show answer"), icon="eye")
            button.add_class("aluette-exercise-show")
            answer = w.HTML("")
            answer.add_class("aluette-exercise-answer")
            button.on_click(lambda _, i=number - 1: self.toggle(i))
            self.questions.append(question)
            self.buttons.append(button)
            self.answers.append(answer)
            row = w.VBox([question, button, answer])
            row.add_class("aluette-exercise")
            rows.append(row)
        super().__init__(rows)
        self.add_class("aluette-exercises")
        no_null_tooltips(self)

    def toggle(self, index: int) -> None:
        """Show the answer of exercise ``index`` (0-based), computed now, or hide it if shown."""
        button, answer = self.buttons[index], self.answers[index]
        if answer.value:
            answer.value = ""
            button.description, button.icon = _("Show answer"), "eye"
            return
        exercise = self.exercises[index]
        source = f" <i>({escape(_shown(exercise.source))})</i>" if exercise.source else ""
        answer.value = f"<div style='margin:2px 0 10px 1em'>{escape(exercise.answer())}{source}</div>"
        button.description, button.icon = _("Hide answer"), "eye-slash"
