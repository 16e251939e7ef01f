"""The scenario builder's panel "Best play, all hands open" (aluette.widgets.edge.BestPlayPanel, issue 18 §3),
driven without a browser: the answers are :func:`aluette.analysis.best_play.best_play`'s (tested against plain
minimax in tests/test_best_play.py); here, that the panel shows them, says what it is, and copes with every state
of the deal.
"""

from html import escape

from aluette import Options
from aluette.analysis.best_play import best_play, result_text
from aluette.widgets.common import card_label
from aluette.widgets.edge import ScenarioBuilder


def builder_at_trick(trick: int, **kwargs) -> ScenarioBuilder:
    """Notebook 09's deal (seed 8, East leads, the chant off) stepped by the bots to the lead of ``trick``."""
    builder = ScenarioBuilder(seed=8, leader="E", options=Options(chant=False), **kwargs)
    while len(builder.deal.tricks) < trick - 1:
        builder.bot_step_button.click()
    return builder


class TestPanel:
    def test_shows_every_card_the_line_and_the_answers(self):
        builder = builder_at_trick(7)
        panel = builder.best_play
        assert "every hand is open in this builder by design" in panel.children[0].value.lower()
        panel.button.click()
        answer = best_play(builder.deal)
        html = panel.result.value
        assert panel.message.last_error is None and result_text(answer.value) in panel.message.value
        for card in builder.deal.legal_cards():
            assert escape(card_label(card)) in html
        assert escape(answer.line_text()) in html
        for sentence in answer.answers():
            assert escape(sentence) in html
        assert "Can North make mordienne from here?" in html and "won for N-S whatever E-W do?" in html

    def test_cleared_when_the_deal_changes(self):
        builder = builder_at_trick(8)
        builder.best_play.button.click()
        assert builder.best_play.result.value
        builder.bot_step_button.click()
        assert builder.best_play.result.value == ""

    def test_not_worked_out_within_the_budget(self):
        builder = builder_at_trick(1)
        builder.best_play.BUDGET = 50
        builder.best_play.button.click()
        assert "Not worked out" in builder.best_play.message.last_error and builder.best_play.result.value == ""

    def test_outside_the_play(self):
        chant = ScenarioBuilder(seed=8, leader="E")  # the chant is asked first
        chant.best_play.button.click()
        assert "chant question first" in chant.best_play.message.last_error
        over = builder_at_trick(1)
        over.bots_button.click()
        over.best_play.button.click()
        assert over.best_play.message.last_error is None and "The deal is over" in over.best_play.message.value
        assert over.deal.is_over and over.best_play.result.value == ""
