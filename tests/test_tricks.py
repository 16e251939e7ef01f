"""Who wins a trick. Source: the rules sheet, "gameplay" (highest-ranking card wins; a tie for the highest card spoils
the trick) and pagat.com (spoiled tricks)."""

import itertools

import pytest

from aluette import (DECK, AluetteError, Card, Deal, Options, Seat, UnknownCardError, explain_trick, parse_cards,
                     trick_winner)
from aluette.tricks import best_of, strongest


class TestTrickWinner:
    def test_monsieur_wins(self):
        assert trick_winner(["1O", "3O", "12E", "4C"]) == 1

    def test_equal_class_different_suits_spoil(self):
        # the rules sheet: a tie for the highest card spoils the trick; two aces are equal whatever their suit
        assert trick_winner(["1O", "1E", "12E"]) is None
        assert trick_winner(["9E", "9B"]) is None  # the two plain nines are one class

    def test_tie_below_the_best_does_not_spoil(self):
        assert trick_winner(["5O", "5C", "6B", "4E"]) == 2

    def test_nine_of_cups_beats_nine_of_coins_beats_plain_nines(self):
        # the rules sheet's ranking: Grand-neuf > Petit-neuf > ... > 9 of swords and batons
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


class TestBestOf:
    """tricks.best_of, the one trick-winner rule (the rules sheet, "gameplay"): the deal, the explanations and trick_winner
    call it; the numpy engines are checked against it in tests/test_vectorized*.py."""

    def test_seats_and_partial_tricks(self):
        # the best so far of a trick in progress: two cards, then a third that ties the best and spoils it
        plays = [(Seat.E, Card.parse("1O")), (Seat.S, Card.parse("12E"))]
        assert best_of(plays) is Seat.E
        assert best_of(plays + [(Seat.W, Card.parse("1C"))]) is None
        assert best_of(plays + [(Seat.W, Card.parse("1C")), (Seat.N, Card.parse("2C"))]) is Seat.N

    def test_strongest_keeps_play_order(self):
        # cards of one class are equal whatever their suit: every ace played, in play order
        plays = list(zip("NESW", parse_cards("1E 4O 1O 1B")))
        assert strongest(plays) == [("N", Card.parse("1E")), ("S", Card.parse("1O")), ("W", Card.parse("1B"))]

    def test_the_deal_records_best_of(self):
        # every trick of seeded deals is won by best_of of its four plays, and the next trick is led by its winner
        for seed in range(20):
            deal = Deal.from_seed(seed, options=Options(chant=False))
            while not deal.is_over:
                deal.play_index(seed % len(deal.legal_cards()))
            for record, following in zip(deal.tricks, deal.tricks[1:] + (None,)):
                assert record.winner is best_of(record.plays)
                if following is not None:
                    assert following.leader is (record.winner or record.leader)


def test_a_trick_sentence_names_each_card_beside_its_code():
    """The rules sheet (``docs/sources/``, "cards"): the suits are coins, cups, batons and swords; the code of swords is
    E (*espadas*), the letter of East too. Where a sentence puts seats and cards side by side, each card carries its
    name, so "E: 12E king of swords" is never read as two seats."""
    from aluette.players.drivers import play_out
    swords_seen = False
    for seed in range(6):
        deal = play_out(Deal.from_seed(seed, options=Options(chant=False)), "lowest", tricks=1)
        record = deal.tricks[0]
        sentence = record.explain()
        for seat, card in record.plays:
            assert f"{seat}: {card} {card.nickname or card.name}" in sentence
            swords_seen |= card.suit.value == "E"
        assert sentence in deal.events
    assert swords_seen
