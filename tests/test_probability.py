"""Exact spoil chances (aluette.probability) against brute-force enumeration.

Rule source: a tie for the highest class spoils a trick (the rules sheet, "gameplay"; pagat.com). The brute-force counts below
do not use the module's formula: they enumerate every set of cards and ask the engine's own trick_winner (2 and 3
cards) or compare strengths (all C(48, 4) = 194,580 sets of four).
"""

from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from aluette import DECK, AluetteError, trick_winner
from aluette.probability import CLASS_SIZES, spoil_count, spoil_probability


class TestClassSizes:
    def test_nineteen_classes_of_the_48_cards(self):
        # the rules sheet, "card rankings": eight single top cards, then 4 aces, kings, cavalières, jacks, 2 nines, 4
        # eights to fours, 2 threes
        assert CLASS_SIZES == (1,) * 8 + (4, 4, 4, 4, 2, 4, 4, 4, 4, 4, 2)
        assert sum(CLASS_SIZES) == 48


class TestSpoilCount:
    def test_two_cards_by_hand(self):
        # two cards spoil only when they are of one class: C(4,2) pairs in each of the 9 classes of four, one pair
        # each among the two nines and the two threes
        assert spoil_count(2) == 9 * 6 + 2 * 1 == 56
        assert spoil_probability(2) == Fraction(56, 1128) == Fraction(7, 141)

    @pytest.mark.parametrize("n", [2, 3])
    def test_small_tricks_against_the_engines_trick_winner(self, n):
        # every set of n cards, played in deck order (order does not matter for spoiling): the engine decides
        spoiled = sum(1 for cards in combinations(DECK, n) if trick_winner(cards) is None)
        assert spoil_count(n) == spoiled
        assert spoil_probability(n) == Fraction(spoiled, comb(48, n))

    def test_four_cards_against_enumeration_of_all_194580_sets(self):
        strengths = [card.strength for card in DECK]
        spoiled = 0
        for combo in combinations(strengths, 4):
            best = max(combo)
            spoiled += combo.count(best) > 1
        assert comb(48, 4) == 194_580
        assert spoil_count(4) == spoiled
        assert spoil_probability(4) == Fraction(spoiled, 194_580)

    @pytest.mark.parametrize("n", [3, 4, 9])
    def test_union_bound(self, n):
        # a spoiled trick holds two cards of one class, so its chance is at most C(n, 2) times that of a given
        # pair of cards being of one class (the union bound), and more than zero
        assert 0 < spoil_probability(n) <= comb(n, 2) * spoil_probability(2)

    @pytest.mark.parametrize("bad", [0, 49, -1, 2.0, True, "4", None])
    def test_bad_number_of_cards_is_refused(self, bad):
        # decision of this project: a clear error naming the value
        with pytest.raises(AluetteError, match="n_cards"):
            spoil_probability(bad)
