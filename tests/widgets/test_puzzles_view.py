"""The puzzles' view (lesson 13, issue 18 §4) adds the open hands to the practice view and nothing else: every hand
of the puzzle's position is shown (in words and pictures, the seat to move marked), the card buttons are the mover's
cards, the right card (found here by the solver) earns the puzzle's points, and the French page is worded in French.
A callback that raises fails the test (tests/widgets/conftest.py)."""

from __future__ import annotations

from html import escape

from aluette import solve
from aluette.i18n import set_language
from aluette.seats import SEATS
from aluette.widgets.common import card_words
from aluette.widgets.puzzles import PuzzleView

from .test_practice_view import progress  # noqa: F401 - the fixture: a fresh device and store


def test_the_open_hands_the_mover_s_cards_and_the_right_card(progress):
    v = PuzzleView(7, progress=progress, class_code="7b")
    deal = v.controller.task.position.deal()
    for seat in SEATS:  # every hand open, as the puzzle is proved with every hand known
        for card in deal.hands[seat]:
            assert escape(card_words(card)) in v.hands.value
    assert "to play" in v.hands.value and v.hands in v.children
    shown = [b for b in v.card_buttons if b.card is not None and b.layout.display != "none"]
    assert [b.card for b in shown] == list(deal.legal_cards())
    right = solve(deal).best_cards[0]
    next(b for b in shown if b.card is right).button.click()
    assert "✔ Right" in v.feedback.value and f"({v.controller.task.points} points)" in v.feedback.value
    v.next_button.click()
    assert v.controller.task.position.deal().hands != deal.hands  # the next puzzle, its own hands
    v.close()


def test_the_french_page(progress):
    set_language("fr")
    try:
        v = PuzzleView(7, progress=progress, class_code="7b")
        assert "Vous êtes" in v.prompt.value and "à jouer" in v.hands.value
        v.hint_button.click()
        assert "L&#x27;idée\u00a0: le pli pourri" in v.hints_view.value
        v.close()
    finally:
        set_language("en")
