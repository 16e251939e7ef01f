"""The puzzles of lesson 13, as a widget: the practice view (:class:`aluette.widgets.practice.PracticeView`) of the
lesson's puzzle tasks, with the position shown whole: every hand open, the trick so far, the tricks so far.

Everything it does is the practice controller's (:class:`aluette.practice.PracticeController`: the verdict with the
rule that decided it, the hints and their cost, the score, the next puzzle, the progress kept for a named student);
this view only adds the open hands (:func:`hands_html`). The student plays a card with its picture's button (click,
tap, or Tab and Enter), as in the other lessons, or types it.
"""

from __future__ import annotations

from html import escape
from typing import Optional

import ipywidgets as w

from ..card_names import seat_name
from ..i18n import _
from ..practice.kinds import PuzzlePosition
from ..seats import SEATS
from .common import card_face, card_words, styled
from .practice import PracticeView

__all__ = ["PuzzleView", "puzzles", "hands_html", "LESSON"]

#: The lesson of the puzzles (:data:`aluette.practice.LESSONS`).
LESSON = "13"

_CSS = """
.aluette-puzzle-hands { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 4px 0; }
.aluette-puzzle-hands .aluette-puzzle-hand { min-width: 9em; }
.aluette-puzzle-hands .aluette-puzzle-cards { display: flex; flex-wrap: wrap; gap: 2px; }
.aluette-puzzle-hands svg { display: block; width: calc(var(--aluette-card-w, 72px) * 0.7);
  height: calc(var(--aluette-card-w, 72px) * 1.05); }
.aluette-puzzle-hands .aluette-puzzle-mover { font-weight: bold; }
"""


def hands_html(position: PuzzlePosition) -> str:
    """Every hand of the puzzle's position, open: each seat's name and cards in words (what a screen reader says)
    and as pictures (decoration), the seat to move marked."""
    deal = position.deal()
    blocks = []
    for seat in SEATS:
        cards = deal.hands[seat]
        words = ", ".join(f"{card_words(card)} ({card.code})" for card in cards) or _("no card left")
        name = seat_name(seat)
        title = _("{seat}, to play").format(seat=name) if seat is deal.to_move else name
        mover = " aluette-puzzle-mover" if seat is deal.to_move else ""
        pictures = "".join(card_face(card) for card in cards)
        blocks.append(f"<div class='aluette-puzzle-hand{mover}'><div>{escape(title)}: {escape(words)}</div>"
                      f"<div class='aluette-puzzle-cards' aria-hidden='true'>{pictures}</div></div>")
    label = escape(_("Every hand, open"))
    return f"<div class='aluette-puzzle-hands' role='group' aria-label='{label}'>{''.join(blocks)}</div>"


class PuzzleView(PracticeView):
    """The puzzles (see the module): a :class:`~aluette.widgets.practice.PracticeView` of lesson 13 with the open
    hands (``hands``, CSS class ``aluette-puzzle-hands-view``) shown above the trick."""

    def __init__(self, seed: Optional[int] = None, **kwargs):
        self.hands = styled(w.HTML(), "aluette-puzzle-hands-view")
        super().__init__(LESSON, seed, **kwargs)
        children = list(self.children)
        children.insert(children.index(self.trick), self.hands)
        children.insert(0, styled(w.HTML(f"<style>{_CSS}</style>"), "aluette-puzzle-style"))
        self.children = children
        self.add_class("aluette-puzzles")
        self._show()

    def _show(self) -> None:
        super()._show()
        task = self.controller.task
        position = None if task is None else task.position
        self.hands.value = hands_html(position) if isinstance(position, PuzzlePosition) else ""


def puzzles(seed: Optional[int] = None) -> PuzzleView:
    """The puzzles of lesson 13, for the lesson's cell (see :class:`PuzzleView`)."""
    return PuzzleView(seed)
