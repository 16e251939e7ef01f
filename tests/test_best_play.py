"""Best play, all hands open, in words (:mod:`aluette.analysis.best_play`, issue 18 §3): the answers to "can North
make mordienne from here?" and "is this deal won for N-S whatever E-W do?", checked against plain minimax over every
card through :class:`~aluette.Deal` (the references of tests/test_solver.py).

Rule sources as in tests/test_solver.py: the rules sheet, "scoring" (most tricks by a single player scores, a tie to
whoever reached the number first, mordienne 2) and "gameplay" (a tie for the best class spoils the trick); pagat.com
(mordienne, the surrender); the project's decisions listed there.
"""

from __future__ import annotations

import pytest

from aluette import AluetteError, Options, Play, Seat, Team
from aluette.analysis.best_play import best_play, result_text
from tests.test_solver import (OPTION_SETS, naive_deal_value, naive_mordienne, points, positions, random_position,
                               replay, snapshot)


class TestAnswers:
    def test_against_naive_minimax(self):
        # 7 option sets x 4 positions two tricks from the end (the trick under way): the value, who wins whatever the others do, and
        # who can make mordienne, each as plain minimax through Deal says
        checked = makers = 0
        for name, deal in positions(4, 2, (2, 3), base=500, mixed=True):
            answer = best_play(deal)
            value = naive_deal_value(deal)
            assert answer.value == value, (name, str(deal))
            assert answer.won_for(Team.NS) is (value > 0) and answer.won_for("EW") is (value < 0)
            for seat in Seat:
                assert answer.mordienne[seat] == naive_mordienne(deal, seat), (name, seat, str(deal))
            makers += sum(answer.mordienne.values())
            checked += 1
        assert checked == 4 * len(OPTION_SETS) and makers > 0

    def test_mordienne_off(self):
        deal = random_position(3, Options(chant=False, mordienne=False), "none", 3, 0, mixed=True)
        assert not any(best_play(deal).mordienne.values())

    def test_cards_line_and_sentences(self):
        deal = random_position(21, Options(chant=False), "none", 3, 2)
        answer = best_play(deal)
        assert [card for card, _, _ in answer.cards] == list(deal.legal_cards())
        assert all(cost == answer.solution.cost(card) >= 0 for card, _, cost in answer.cards)
        assert min(cost for _, _, cost in answer.cards) == 0
        # the line, trick by trick: the two cards that end the trick under way, then two whole tricks
        tricks = answer.line_text().split(" / ")
        assert [len(t.split(", ")) for t in tricks] == [2, 4, 4]
        plays = [m for m in answer.solution.line if isinstance(m, Play)]
        assert ", ".join(f"{m.seat} {m.card}" for m in plays) == answer.line_text().replace(" / ", ", ")
        assert points(replay(deal, answer.solution.line)) == answer.value
        sentences = answer.answers()
        assert sentences[0] == f"With best play by both sides: {result_text(answer.value)}."
        assert sentences[1].endswith("Yes." if answer.value > 0 else "No.")
        assert sentences[2].endswith("Yes." if answer.value < 0 else "No.")
        for seat, sentence in zip(Seat, sentences[3:]):
            assert sentence == f"Can {seat.full_name} make mordienne from here? " \
                               f"{'Yes' if answer.mordienne[seat] else 'No'}."

    def test_result_text(self):
        assert [result_text(v) for v in (2, 1, 0, -1, -2)] == ["N-S score 2", "N-S score 1", "nobody scores",
                                                               "E-W score 1", "E-W score 2"]

    def test_reads_only_and_refuses_a_seat_view(self):
        deal = random_position(4, Options(chant=False), "none", 3, 1)
        before = snapshot(deal)
        best_play(deal)
        assert snapshot(deal) == before
        with pytest.raises(AluetteError, match="hidden"):
            best_play(deal.view(Seat.N))
        with pytest.raises(AluetteError, match="max_nodes"):
            best_play(deal, max_nodes=-1)
        assert snapshot(deal) == before
