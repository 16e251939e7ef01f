"""Widgets for the "Signals" notebook: a seeded flash-card quiz on the partners' signals.

The table itself is :data:`aluette.SIGNALS` (the rules sheet's signal table, checked against pagat.com; see
:mod:`aluette.signals` for the two translation slips about Petit-neuf). Nothing here restates it: the cards are
drawn from that data.

* :func:`flash_cards`: the quiz as data, one :class:`FlashCard` per signal, in a seeded order with seeded wrong
  choices.
* :class:`SignalQuiz`: the quiz as a widget, in both directions (gesture → what is signalled, and back).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as w

from ..chance import as_generator
from ..errors import AluetteError
from ..i18n import N_, _
from ..signals import SIGNALS, SignalKind
from .common import MessageArea, check_choice, check_seed, no_null_tooltips, seed_box

__all__ = ["DIRECTIONS", "FlashCard", "flash_cards", "SignalQuiz"]

#: Quiz directions: ``"gesture"`` shows the gesture and asks what it signals; ``"what"`` shows what is signalled and
#: asks for the gesture.
DIRECTIONS = {"gesture": N_("gesture → what it signals"), "what": N_("what → its gesture")}


@dataclass(frozen=True)
class FlashCard:
    """One quiz question.

    Attributes:
        signal: the :class:`~aluette.signals.SignalKind` asked about.
        prompt: the text shown (the gesture, or what is signalled).
        answer: the right choice (what is signalled, or the gesture).
        choices: the answer and wrong choices from other signals, in a seeded order.
    """

    signal: SignalKind
    prompt: str
    answer: str
    choices: tuple[str, ...]


def flash_cards(seed: int, direction: str = "gesture", n_choices: int = 4) -> list[FlashCard]:
    """Every line of :data:`SIGNALS` as a flash card, shuffled by ``seed`` (numpy, through
    :func:`aluette.as_generator`), each with ``n_choices`` choices (the answer and others drawn from the other
    signals). The same seed and direction give the same quiz.

    Raises:
        AluetteError: an unknown direction (known: :data:`DIRECTIONS`) or ``n_choices`` outside 2 to the table size.
        BadSeedError: no explicit seed, or not a seed.
    """
    if direction not in DIRECTIONS:
        raise AluetteError(f"unknown quiz direction {direction!r}; known: {', '.join(DIRECTIONS)}")
    if not 2 <= n_choices <= len(SIGNALS):
        raise AluetteError(f"a flash card has 2 to {len(SIGNALS)} choices, got {n_choices}")
    rng = as_generator(seed)
    ask, give = ("gesture", "what") if direction == "gesture" else ("what", "gesture")
    cards = []
    for index in rng.permutation(len(SIGNALS)):
        signal = SIGNALS[int(index)]
        others = [s for s in SIGNALS if s is not signal]
        wrong = [getattr(others[int(i)], give) for i in rng.choice(len(others), n_choices - 1, replace=False)]
        choices = [getattr(signal, give), *wrong]
        order = rng.permutation(n_choices)
        cards.append(FlashCard(signal, getattr(signal, ask), getattr(signal, give),
                               tuple(choices[int(i)] for i in order)))
    return cards


class SignalQuiz(w.VBox):
    """A flash-card quiz on the signal table, in both directions, from a seed box.

    Controls (CSS classes): ``direction`` (``aluette-signals-direction``), ``seed`` (``aluette-signals-seed``),
    ``choices`` radio buttons (``aluette-signals-choices``), ``check_button`` (``aluette-signals-check``),
    ``next_button`` (``aluette-signals-next``). Views: ``question`` (``aluette-signals-question``), ``feedback``
    (``aluette-signals-feedback``), ``score`` (``aluette-signals-score``), ``message``.
    Changing the seed or the direction starts a new quiz. Read-only: ``cards``, ``position`` (0-based),
    ``current`` (the :class:`FlashCard` on show, or ``None`` when done), ``right`` and ``asked``.
    The right answer is put into no widget before it is checked.

    Raises:
        AluetteError: ``seed`` outside 0 to 2**32-1 or not a whole number; an unknown ``direction``.
    """

    def __init__(self, seed: int = 1, direction: str = "gesture"):
        check_seed(seed)
        check_choice(direction, DIRECTIONS, "quiz direction")
        self.direction = w.ToggleButtons(options=[(_(text), key) for key, text in DIRECTIONS.items()],
                                         value=direction, description=_("Quiz"),
                                         style={"button_width": "13em", "description_width": "initial"})
        self.direction.add_class("aluette-signals-direction")
        self.seed = seed_box(seed, "aluette-signals-seed", self._restart, lambda: self.message)
        self.question = w.HTML()
        self.question.add_class("aluette-signals-question")
        self.choices = w.RadioButtons(options=[], value=None, layout=w.Layout(width="max-content"))
        self.choices.add_class("aluette-signals-choices")
        self.check_button = w.Button(description=_("Check"), button_style="primary")
        self.check_button.add_class("aluette-signals-check")
        self.next_button = w.Button(description=_("Next card"), icon="arrow-right")
        self.next_button.add_class("aluette-signals-next")
        self.feedback = w.HTML()
        self.feedback.add_class("aluette-signals-feedback")
        self.score = w.HTML()
        self.score.add_class("aluette-signals-score")
        self.message = MessageArea()
        self.cards: list[FlashCard] = []
        self.position = 0
        self.right = 0
        self.asked = 0
        self._checked = False
        self.direction.observe(self._restart, names="value")
        self.check_button.on_click(self._check)
        self.next_button.on_click(self._next)
        super().__init__([w.HBox([self.direction, self.seed]), self.question, self.choices,
                          w.HBox([self.check_button, self.next_button]), self.message, self.feedback, self.score])
        self.add_class("aluette-signals-quiz")
        self._restart()
        no_null_tooltips(self)

    @property
    def current(self) -> FlashCard | None:
        return self.cards[self.position] if self.position < len(self.cards) else None

    def _restart(self, change=None) -> None:
        self.cards = flash_cards(self.seed.seed_value, self.direction.value)
        self.position, self.right, self.asked = 0, 0, 0
        self._show()

    def _show(self) -> None:
        self._checked = False
        self.feedback.value = ""
        self.message.clear()
        card = self.current
        if card is None:
            self.question.value = _("<b>That was every card.</b> Change the seed or the direction for another "
                                    "round.")
            self.choices.options = []
            self.choices.disabled = self.check_button.disabled = self.next_button.disabled = True
        else:
            ask = (_("What does this gesture signal?") if self.direction.value == "gesture"
                   else _("Which gesture signals this?"))
            where = _("Card {number} of {total}.").format(number=self.position + 1, total=len(self.cards))
            prompt = escape(_(card.prompt))
            self.question.value = (f"<div>{where} {ask}</div>"
                                   f"<div style='font-size:1.3em;margin:6px 0'><b>{prompt}</b></div>")
            self.choices.options = [_(choice) for choice in card.choices]  # in the page's language
            self.choices.value = None
            self.choices.disabled = self.check_button.disabled = False
            self.next_button.disabled = False
        self._show_score()

    def _show_score(self) -> None:
        self.score.value = _("Score: {right} right out of {asked}").format(right=self.right, asked=self.asked)

    def _check(self, button=None) -> None:
        card = self.current
        if card is None or self._checked:
            self.message.error(_("This card is already checked: press Next card."))
            return
        if self.choices.value is None:
            self.message.error(_("Pick an answer first, then press Check."))
            return
        self.message.clear()
        self._checked = True
        self.asked += 1
        line = escape(_("“{gesture}” signals “{what}”.").format(gesture=_(card.signal.gesture),
                                                                  what=_(card.signal.what)))
        if self.choices.value == _(card.answer):  # the choices are shown (and chosen) in the page's language
            self.right += 1
            self.feedback.value = "<div style='color:#2e7d32'>" + _("✔ Right! {line}").format(line=line) + "</div>"
        else:
            wrong = _("✘ Not quite: you chose “{choice}”. {line} Keep going!").format(
                choice=escape(self.choices.value), line=line)
            self.feedback.value = f"<div style='color:#b45309'>{wrong}</div>"
        self.choices.disabled = self.check_button.disabled = True
        self._show_score()

    def _next(self, button=None) -> None:
        if self.current is not None:
            self.position += 1
        self._show()
