"""Who wins a trick. Source: seeds "gameplay" (highest-ranking card wins; a tie for the highest card spoils the
trick) and pagat.com (spoiled tricks)."""

import itertools

import pytest

from aluette import DECK, AluetteError, UnknownCardError, explain_trick, trick_winner


class TestTrickWinner:
    def test_monsieur_wins(self):
        assert trick_winner(["1O", "3O", "12E", "4C"]) == 1

    def test_equal_class_different_suits_spoil(self):
        # seeds: a tie for the highest card spoils the trick; two aces are equal whatever their suit
        assert trick_winner(["1O", "1E", "12E"]) is None
        assert trick_winner(["9E", "9B"]) is None  # the two plain nines are one class

    def test_tie_below_the_best_does_not_spoil(self):
        assert trick_winner(["5O", "5C", "6B", "4E"]) == 2

    def test_nine_of_cups_beats_nine_of_coins_beats_plain_nines(self):
        # seeds ranking: Grand-neuf > Petit-neuf > ... > 9 of swords and batons
        assert trick_winner(["9O", "9C"]) == 1
        assert trick_winner(["9E", "9O"]) == 1

    def test_all_pairs_agree_with_strength(self):
        for a, b in itertools.permutations(DECK[:20], 2):
            expected = None if a.strength == b.strength else (0 if a.strength > b.strength else 1)
            assert trick_winner([a, b]) == expected

    @pytest.mark.parametrize("cards", [[], ["3O"], ["3O", "3C", "2O", "2C", "1O"]])
    def test_wrong_count(self, cards):
        with pytest.raises(AluetteError, match="2 to 4 cards"):
            trick_winner(cards)

    def test_duplicate(self):
        with pytest.raises(AluetteError, match="twice in the trick: 3O"):
            trick_winner(["3O", "3O"])

    def test_unknown(self):
        with pytest.raises(UnknownCardError):
            trick_winner(["3O", "3Q"])

    def test_explanations(self):
        assert "spoiled" in explain_trick(["1O", "1E"]).lower()
        assert "Monsieur" in explain_trick(["3O", "1E"])
