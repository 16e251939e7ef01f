"""The fast play path of the engine (``Deal.play_index``), the block shuffle of :mod:`aluette.chance`, and
:func:`aluette.simulation.simulate`.

Rule sources are named per test; "decision of this project" marks API choices the rules sheet does not make.
"""

import numpy as np
import pytest

from aluette import (DECK, Card, Deal, DealOverError, IllegalMoveError, NotYourTurnError, Options, Play, Seat,
                     WrongPhaseError, score_tricks, shuffled_deck)
from aluette.chance import cut_deck, shuffles_from_uniforms


def _random_indices(seed, n=36):
    return np.random.default_rng(seed).integers(0, 1_000_000, n).tolist()


class TestPlayIndex:
    """``Deal.play_index(i)`` is ``play(to_move, legal_cards()[i])`` with the same checks (decision of this
    project: the fast path for simulations and bots)."""

    def test_same_history_and_result_as_play(self):
        # The same choices made through play() and through play_index() give the same saved deal, move for move.
        for seed in range(30):
            options = Options(chant=False, mordienne=seed % 2 == 0)
            by_card = Deal.from_seed(seed, dealer="NESW"[seed % 4], options=options)
            by_index = Deal.from_seed(seed, dealer="NESW"[seed % 4], options=options)
            for k in _random_indices(seed):
                legal = by_card.legal_cards()
                i = k % len(legal)
                record = by_card.play(by_card.to_move, legal[i])
                assert by_index.play_index(i) == record
            assert by_index.is_over and by_card.is_over
            assert by_index.to_json() == by_card.to_json()
            assert by_index.moves == by_card.moves

    def test_result_agrees_with_score_tricks(self):
        # Seeds, "scoring": the deal's points are those of its nine outcomes, scored by score_tricks.
        for seed in range(30):
            deal = Deal.from_seed(seed, options=Options(chant=False))
            for k in _random_indices(seed + 1000):
                deal.play_index(k % len(deal.legal_cards()))
            assert deal.result.score == score_tricks(deal.notation)
            assert len(deal.notation) == 9 and set(deal.notation) <= set("NESWX")

    def test_legal_cards_are_high_to_low_and_match_legal_moves(self):
        # Hand order: high to low by strength, then deck order (Hand's docstring); legal_moves lists the same plays.
        deal = Deal.from_seed(3, options=Options(chant=False))
        legal = deal.legal_cards()
        assert [(-c.strength, c.index) for c in legal] == sorted((-c.strength, c.index) for c in legal)
        assert deal.legal_moves() == [Play(deal.to_move, c) for c in legal]

    @pytest.mark.parametrize("bad", [-1, 9, True, 1.0, "0", None])
    def test_bad_index_is_refused_and_leaves_the_deal_unchanged(self, bad):
        # Engine guarantee (aluette.errors): a refused move raises a named error and changes nothing.
        deal = Deal.from_seed(5, options=Options(chant=False))
        deal.play_index(0)
        before, legal = deal.to_json(), deal.legal_cards()
        with pytest.raises(IllegalMoveError, match="cannot play card number"):
            deal.play_index(bad)
        assert deal.to_json() == before and deal.legal_cards() == legal

    def test_numpy_integer_index_is_accepted(self):
        deal = Deal.from_seed(5, options=Options(chant=False))
        first = deal.legal_cards()[2]
        deal.play_index(np.int64(2))
        assert deal.moves[-1].card is first

    def test_wrong_phase_and_over(self):
        # Seeds, "setup": the chant comes before play; once nine tricks are played no card can be played.
        deal = Deal.from_seed(5, options=Options(chant=True))
        with pytest.raises(WrongPhaseError, match="chant phase"):
            deal.play_index(0)
        assert deal.moves == ()
        deal = Deal.from_seed(5, options=Options(chant=False))
        for _ in range(36):
            deal.play_index(0)
        with pytest.raises(DealOverError):
            deal.play_index(0)

    def test_play_keeps_its_checks(self):
        # Seeds, "gameplay": each plays in turn, only cards they hold.
        deal = Deal.from_seed(8, options=Options(chant=False))
        other = deal.to_move.left
        with pytest.raises(NotYourTurnError):
            deal.play(other, deal.hand(other)[0])
        not_held = next(c for c in DECK if c not in deal.hand(deal.to_move))
        before = deal.to_json()
        with pytest.raises(IllegalMoveError, match="not in their hand"):
            deal.play(deal.to_move, not_held)
        assert deal.to_json() == before


class TestBlockShuffle:
    """:func:`aluette.chance.shuffles_from_uniforms` draws exactly the shuffles of :func:`shuffled_deck`
    (aluette.chance docstring: a block ``rng.random((n, 49))`` gives the same deals as ``n`` single draws)."""

    def test_block_equals_single_draws(self):
        orders, cuts = shuffles_from_uniforms(np.random.default_rng(11).random((50, 49)))
        rng = np.random.default_rng(11)
        for order, cut in zip(orders, cuts):
            single_order, single_cut = shuffled_deck(rng)
            assert tuple(DECK[i] for i in order) == single_order and int(cut) == single_cut
            assert 1 <= cut <= 47

    def test_from_seed_uses_that_shuffle(self):
        orders, cuts = shuffles_from_uniforms(np.random.default_rng(12).random((1, 49)))
        deal = Deal.from_seed(12)
        assert deal.deck == cut_deck([DECK[i] for i in orders[0]], int(cuts[0])) and deal.cut == cuts[0]
        assert isinstance(deal.deck[0], Card) and deal.dealer is Seat.N
