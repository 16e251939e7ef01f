"""The practice at the end of a lesson, as a widget: a thin view over :class:`aluette.practice.PracticeController`.

:func:`practice` is what a lesson's last cell calls (``practice("01")``). :class:`PracticeView` shows the task on
show (its prompt, the trick's cards as pictures), its answer buttons (card pictures that are buttons, as everywhere
in the app: click, tap, or Tab and Enter; a word's own button), an answer box (limited to
:data:`aluette.practice.MAX_ANSWER_TEXT` characters), *Check*, *Hint* (its cost said on the button), *Show the
answer*, *Next task* and *Practice again*. Everything it does is the controller's; an error of the project's
family is shown in the message line and changes nothing.

A student may give a first name (once per device: it is kept in the browser session's storage in the classroom app,
in the kernel in JupyterLab) and the practice is then kept in the store (:class:`aluette.store.progress.Progress`,
:class:`StoreKeeper`), for the class of the app (:func:`aluette.store.progress.class_from_environment`); without a
name it works and keeps nothing.
"""

from __future__ import annotations

import secrets
import threading
from html import escape
from typing import Callable, Optional

import ipywidgets as w

from ..errors import AluetteError
from ..i18n import _, ngettext
from ..practice import MAX_ANSWER_TEXT, LESSONS, PracticeController, student_seed
from ..practice.session import Attempt
from ..practice.tasks import Task
from ..store.names import skeleton
from ..store.progress import NAME_LIMIT, Progress, Student, class_from_environment
from .common import (CardButton, CardParts, LimitedText, MessageArea, card_face, card_style, class_label, limited_text,
                     live_region, no_null_tooltips, session_storage, styled)

__all__ = ["PracticeView", "StoreKeeper", "practice", "shared_progress", "NAME_KEY"]

#: Where the first name is kept in the browser session's storage (and in this kernel without one).
NAME_KEY = "aluette.practice.name"
_KERNEL: dict = {}
_SHARED: dict = {}
_SHARED_LOCK = threading.Lock()

_CSS = """
.aluette-practice { max-width: 100%; }
.aluette-practice .aluette-practice-cards { display: flex; flex-wrap: wrap; gap: 4px; }
.aluette-practice .aluette-practice-words { display: flex; flex-wrap: wrap; gap: 6px; }
.aluette-practice .aluette-practice-words button { width: auto; min-width: 4em; }
.aluette-practice .aluette-practice-trick { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0; }
.aluette-practice .aluette-practice-trick figure { margin: 0; text-align: center; font-size: 0.9em; }
.aluette-practice .aluette-practice-trick svg { display: block; width: var(--aluette-card-w, 72px);
  height: calc(var(--aluette-card-w, 72px) * 1.5); }
.aluette-practice .widget-text { width: 100%; max-width: 34em; }
.aluette-practice .aluette-practice-row { display: flex; flex-wrap: wrap; gap: 6px; }
.aluette-practice-feedback .aluette-right { color: #1b5e20; }
.aluette-practice-feedback .aluette-wrong { color: #8a4b00; }
"""


def shared_progress() -> Progress:
    """The process's :class:`~aluette.store.progress.Progress` on the default store (opened at first use; every page
    of the process shares it, as its store takes turns between threads)."""
    with _SHARED_LOCK:
        if "progress" not in _SHARED:
            from ..store.db import open_store
            _SHARED["progress"] = Progress(open_store())
        return _SHARED["progress"]


class StoreKeeper:
    """A :class:`~aluette.practice.Keeper` on the store: ``student``'s practice kept by ``progress``."""

    def __init__(self, progress: Progress, student: Student):
        self.progress, self.student = progress, student

    def load(self, lesson: str) -> Optional[dict]:
        return self.progress.saved(self.student, lesson)

    def keep(self, lesson: str, attempt: Attempt, task: Task, state: dict, done: bool) -> None:
        self.progress.record(self.student, lesson, attempt, task, state, done)

    def save(self, lesson: str, state: dict, done: bool) -> None:
        self.progress.save(self.student, lesson, state, done)


def _remembered() -> Optional[str]:
    storage = session_storage()
    return (_KERNEL if storage is None else storage).get(NAME_KEY)


def _remember(name: Optional[str]) -> None:
    storage = session_storage()
    target = _KERNEL if storage is None else storage
    if name is None:
        target.pop(NAME_KEY, None)
    else:
        target[NAME_KEY] = name


class PracticeView(w.VBox):
    """The practice of ``lesson`` (see the module). ``seed``: the tasks' seed (default: this page's own, drawn once,
    shown in the status); a student who gives a name gets their own (:func:`aluette.practice.student_seed`).
    ``progress``: where names keep their practice (default: :func:`shared_progress`, opened when a name is first
    given); ``class_code``: default :func:`aluette.store.progress.class_from_environment`.

    Controls (CSS classes, all ``aluette-practice-*``): ``name_box`` (``-name``), ``name_button`` (``-keep``),
    ``forget_button`` (``-forget``), ``answer_box`` (``-answer``), ``check_button`` (``-check``), ``hint_button``
    (``-hint``), ``reveal_button`` (``-reveal``), ``next_button`` (``-next``), ``again_button`` (``-again``),
    ``card_buttons`` (``-card``), ``word_buttons`` (``-word``). Views: ``prompt``, ``trick``, ``hints_view``,
    ``feedback``, ``status``, ``who``, ``message``. Read-only: ``controller``.
    """

    CARD_SLOTS = 6
    WORD_SLOTS = 5

    def __init__(self, lesson: str, seed: Optional[int] = None, *, progress: Optional[Progress] = None,
                 class_code: Optional[str] = None):
        if lesson not in LESSONS:
            raise AluetteError(_("no practice for lesson {lesson}; lessons with practice: {lessons}").format(
                lesson=repr(lesson)[:20], lessons=", ".join(LESSONS)))
        self._progress = progress
        self._class = class_code
        self._student: Optional[Student] = None
        self._page_seed = secrets.randbits(32) if seed is None else seed
        self.controller = PracticeController(lesson, self._page_seed)
        self.message = MessageArea()
        self.who = styled(w.HTML(), "aluette-practice-who")
        self.name_box = styled(LimitedText(limit=NAME_LIMIT, what=_("your first name"), message=lambda: self.message,
                                           placeholder=_("your first name"), description=_("First name")),
                               "aluette-practice-name")
        self.name_button = self._button(_("Keep my progress"), "keep", self._keep_name, icon="save")
        self.forget_button = self._button(_("Forget my progress"), "forget", self._forget, icon="trash")
        self.status = styled(w.HTML(), "aluette-practice-status")
        self.prompt = styled(w.HTML(), "aluette-practice-prompt")
        self.trick = styled(w.HTML(), "aluette-practice-trick-view")
        parts = CardParts()
        self._parts = parts
        self.card_buttons = [CardButton(self._card_clicked, "aluette-practice-card", parts)
                             for _ in range(self.CARD_SLOTS)]
        self.word_buttons = [styled(w.Button(), "aluette-practice-word") for _ in range(self.WORD_SLOTS)]
        self._word_texts: list[str] = [""] * self.WORD_SLOTS
        for index, button in enumerate(self.word_buttons):
            button.on_click(lambda _, i=index: self._run(lambda: self._answer(self._word_texts[i])))
        cards = styled(w.Box(self.card_buttons), "aluette-practice-cards")
        words = styled(w.Box(self.word_buttons), "aluette-practice-words")
        self.answer_box = styled(LimitedText(limit=MAX_ANSWER_TEXT, what=_("your answer"),
                                             message=lambda: self.message, description=_("Answer")), "aluette-practice-answer")
        self.check_button = self._button(_("Check"), "check", lambda: self._answer(self.answer_box.value),
                                          button_style="primary")
        self.hint_button = self._button(_("Hint"), "hint", self._hint, icon="lightbulb-o")
        self.reveal_button = self._button(_("Show the answer"), "reveal", self._reveal, icon="eye")
        self.next_button = self._button(_("Next task"), "next", self._next, icon="arrow-right")
        self.again_button = self._button(_("Practice again"), "again", self._again, icon="refresh")
        self.hints_view = styled(w.HTML(), "aluette-practice-hints")
        self.feedback = styled(w.HTML(), "aluette-practice-feedback")
        row = lambda *children: styled(w.Box(list(children)), "aluette-practice-row")  # noqa: E731
        super().__init__([card_style(_CSS), styled(w.HTML("<b>" + escape(_("Practice: lesson {lesson}").format(lesson=lesson)) + "</b>"),
                                                   "aluette-practice-title"),
                          self.who, row(self.name_box, self.name_button, self.forget_button), self.status,
                          self.prompt, self.trick, cards, words, row(self.answer_box, self.check_button),
                          row(self.hint_button, self.reveal_button, self.next_button, self.again_button),
                          self.message, self.hints_view, self.feedback])
        self.add_class("aluette-practice")
        name = _remembered()
        if name is not None:
            self._run(lambda: self._attach(name))
        self._show()
        no_null_tooltips(self)

    def _button(self, text: str, css: str, action: Callable[[], object], **kwargs) -> w.Button:
        button = styled(w.Button(description=text, **kwargs), f"aluette-practice-{css}")
        button.on_click(lambda _: self._run(action))
        return button

    def _run(self, action: Callable[[], object]) -> None:
        """Run a control's action; an error of the project's family is shown, and changes nothing."""
        try:
            action()
        except AluetteError as error:
            self.message.error(str(error))
            return
        self._show()

    # ------------------------------------------------------------------------------------------- actions
    def _answer(self, text) -> None:
        verdict = self.controller.answer(limited_text(text, MAX_ANSWER_TEXT, _("your answer")))
        self.message.clear()
        if verdict.right or verdict.over:
            self.answer_box.value = ""

    def _card_clicked(self, card) -> None:
        self._run(lambda: self._pick(card))

    def _pick(self, card) -> None:
        self.controller.open_task()  # the buttons of a task that is over stay on show: a click on one is refused
        if not self.controller.sequence:
            self._answer(card.code)
            return
        text = " ".join([*limited_text(self.answer_box.value, MAX_ANSWER_TEXT, _("your answer")).split(),
                         card.code])
        self.answer_box.value = limited_text(text, MAX_ANSWER_TEXT, _("your answer"))
        self.message.clear()

    def _hint(self) -> None:
        self.controller.hint()
        self.message.clear()

    def _reveal(self) -> None:
        self.controller.reveal()
        self.message.clear()

    def _next(self) -> None:
        self.controller.next()
        self.answer_box.value = ""
        self.message.clear()

    def _again(self) -> None:
        self.controller.again()
        self.answer_box.value = ""
        self.message.clear()

    def _attach(self, name: str) -> None:
        progress = self._progress if self._progress is not None else shared_progress()
        self._progress = progress
        class_code = self._class if self._class is not None else class_from_environment()
        student = progress.student(class_code, name)
        keeper = StoreKeeper(progress, student)
        lesson = self.controller.lesson
        if not self.controller.session.attempts and keeper.load(lesson) is None:
            # a name's own tasks, the same on every device (nothing was done on this page yet, so nothing is lost)
            self.controller = PracticeController(lesson, student_seed(lesson, f"{class_code}\n{skeleton(student.name)}"),
                                                 keeper)
        else:
            self.controller.attach(keeper)
        self._student = student
        _remember(student.name)

    def _keep_name(self) -> None:
        self._attach(limited_text(self.name_box.value, NAME_LIMIT, _("your first name")))
        self.name_box.value = ""
        self.message.ok(_("Your progress is kept for {name}.").format(name=self._student.name))

    def _forget(self) -> None:
        student = self._student
        if student is None:
            raise AluetteError(_("nothing is kept for you: give your first name first"))
        self._progress.reset_student(student)
        self.controller.detach()
        self._student = None
        _remember(None)
        self.message.ok(_("Everything kept for {name} is forgotten; the practice starts again.").format(
            name=student.name))

    # ------------------------------------------------------------------------------------------- showing
    def _show(self) -> None:
        c = self.controller
        student = self._student
        if c.unsaved:
            self.message.error(c.unsaved)
        task = c.task
        self._show_choices()  # before the prompt: once a new prompt shows, its answer buttons already do
        if task is None:
            self.status.value = live_region(escape(c.summary()))
            self.prompt.value = "<p>" + _("Press <b>Practice again</b> for new tasks.") + "</p>"
        else:
            self.status.value = live_region(escape(c.status()))
            self.prompt.value = f"<p>{escape(task.prompt)}</p>"
            self.answer_box.placeholder = task.form
        self.trick.value = self._trick_html()
        cost = c.next_hint_cost
        open_task = task is not None and not c.waiting
        with self.hint_button.hold_sync():  # one message for the two
            self.hint_button.description = (ngettext("Hint (costs {cost} point)", "Hint (costs {cost} points)",
                                                     cost).format(cost=cost) if cost is not None else
                                            _("No more hints"))
            self.hint_button.disabled = cost is None
        self.check_button.disabled = self.reveal_button.disabled = self.answer_box.disabled = not open_task
        self.next_button.disabled = not c.waiting
        self.hints_view.value = "".join("<div>" + escape(_("Hint {number}: {text}").format(number=i, text=h.text))
                                        + "</div>" for i, h in enumerate(c.hints, 1))
        self.feedback.value = live_region(self._feedback_html())
        # last: once the page says whose practice this is, the task it shows is theirs (a name just given draws the
        # name's own tasks; a browser test read the old task's prompt once this line had changed first)
        self.who.value = (_("Your progress is kept for <b>{name}</b> (class {code}).").format(
            name=escape(student.name), code=escape(class_label(student.class_code))) if student is not None else
            escape(_("Give your first name to keep your progress (nothing else is asked); without one the practice "
                     "works and keeps nothing.")))
        self.forget_button.disabled = student is None

    def _trick_html(self) -> str:
        pictures = self.controller.pictures()
        if not pictures:
            return ""
        figures = "".join(f"<figure><div aria-hidden='true'>{card_face(card)}</div><figcaption>{escape(caption)}"
                          f"</figcaption></figure>" for caption, card in pictures)
        return f"<div class='aluette-practice-trick' aria-hidden='true'>{figures}</div>"

    def _show_choices(self) -> None:
        """The answer buttons of the task on show. Once it is over they stay as they were (a click on one says the
        task is over): hiding them at each verdict and showing them at Next task was twelve of the twenty-one
        messages a Check sent the page, each a round trip through the server's event loop (make bench ARGS="class
        --practice")."""
        c = self.controller
        choices = c.choices() if c.task is not None else ()
        cards = [choice for choice in choices if choice.card is not None][:self.CARD_SLOTS]
        words = [choice for choice in choices if choice.card is None][:self.WORD_SLOTS]
        action = _("add it to your order") if c.sequence else _("answer with it")
        for button, choice in zip(self.card_buttons, cards + [None] * self.CARD_SLOTS):
            if choice is None:
                if button.card is not None:
                    button.hide()
            else:
                button.show(choice.card, action)
        for index, button in enumerate(self.word_buttons):
            if index < len(words):
                self._word_texts[index] = words[index].text
                with button.hold_sync():
                    button.description = button.tooltip = words[index].label
                button.layout.display = None
            else:
                self._word_texts[index] = ""
                with button.hold_sync():
                    button.description, button.tooltip = " ", ""
                button.layout.display = "none"

    def _feedback_html(self) -> str:
        verdict = self.controller.verdict
        if verdict is None:
            return ""
        mark = ("<b class='aluette-right'>" + escape(_("✔ Right")) + "</b>" if verdict.right else
                "<b class='aluette-wrong'>" + escape(_("✘ Not this time")) + "</b>" if verdict.over else
                "<b class='aluette-wrong'>" + escape(_("✘ Not quite: try again")) + "</b>")
        points = (" (" + ngettext("{count} point", "{count} points", verdict.points).format(count=verdict.points)
                  + ")" if verdict.right else "")
        answer = ("<div>" + escape(_("The answer: {answer}").format(answer=verdict.answer)) + "</div>"
                  if verdict.answer and not verdict.right else "")
        later = ("<div>" + escape(_("A task like this one comes back later.")) + "</div>"
                 if verdict.over and not verdict.right else "")
        return f"<div>{mark}{points}. {escape(verdict.explanation)}</div>{answer}{later}"

    def close(self) -> None:
        for button in self.card_buttons:
            button.close()
        self._parts.close()
        super().close()


def practice(lesson: str, seed: Optional[int] = None) -> PracticeView:
    """The practice of ``lesson``, for a lesson's last cell (see :class:`PracticeView`)."""
    return PracticeView(lesson, seed)
