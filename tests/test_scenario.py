"""Scenarios (aluette.scenario): hands given in part, completed from a seeded shuffle.

Sources: the rules sheet, "setup" (48 cards, nine to each of four players, twelve left over: the stock) and "gameplay"
(the player at the dealer's left leads the first trick); the way gaps are filled and the recipe format are decisions of
this project (module docstring of aluette.scenario).
"""

import json

import pytest

from aluette import (DECK, AluetteError, Card, Deal, MalformedSaveError, Options, Phase, Seat, UnknownCardError,
                     UnknownSeatError, parse_cards)
from aluette.errors import BadSeedError
from aluette.scenario import (complete_deck, complete_hands, parse_partial_hands, scenario_deal, scenario_from_json,
                              scenario_to_json)

ALL_NINE_CLASSES = {"N": "1O 12O 11O 10O 8O 7O 6O 5O 4O", "E": "1C 12C 11C 10C 8C 7C 6C 5C 4C",
                    "S": "1B 12B 11B 10B 8B 7B 6B 5B 4B", "W": "1E 12E 11E 10E 8E 7E 6E 5E 4E"}


class TestCompleteHands:
    def test_given_cards_are_kept_and_the_rest_fills_nine_each(self):
        # the rules sheet, "setup": four hands of nine, the 48 cards once each
        hands = complete_hands({"N": "3O 3C", "S": "la vache"}, seed=5)
        assert all(len(hand) == 9 for hand in hands.values())
        assert {Card.parse("3O"), Card.parse("3C")} <= set(hands[Seat.N])
        assert Card.parse("2C") in hands[Seat.S]
        held = [card for hand in hands.values() for card in hand]
        assert len(set(held)) == 36

    def test_same_seed_same_completion_other_seed_other(self):
        # quality bar: all chance through an explicit seed
        assert complete_hands({"E": "1O"}, seed=3) == complete_hands({"E": "1O"}, seed=3)
        assert complete_hands({"E": "1O"}, seed=3) != complete_hands({"E": "1O"}, seed=4)

    def test_all_blank_is_the_seeded_deal(self):
        # decision of this project: a recipe with no card given is Deal.from_seed itself
        for dealer in "NESW":
            deck = complete_deck({}, 11, dealer=dealer)
            assert deck == Deal.from_seed(11, dealer=dealer).deck

    def test_full_hands_leave_only_the_stock_to_the_seed(self):
        hands = complete_hands(ALL_NINE_CLASSES, seed=1)
        assert {s: set(h) for s, h in hands.items()} == {Seat(s): set(parse_cards(c))
                                                         for s, c in ALL_NINE_CLASSES.items()}
        deck = complete_deck(ALL_NINE_CLASSES, seed=1)
        assert sorted(c.index for c in deck) == list(range(48))

    def test_cards_nobody_was_given_keep_the_seeds_relative_order(self):
        # decision of this project: the free places take the seed's deck in order, skipping the given cards
        seeded = Deal.from_seed(9).deck
        given = parse_cards("3O 1E 7B")
        deck = complete_deck({"W": given}, 9, dealer="N")
        free = [c for c in deck if c not in given]
        assert free == [c for c in seeded if c not in given]

    def test_bad_card_names_the_seat(self):
        with pytest.raises(UnknownCardError, match="East's hand.*'3Q'"):
            complete_hands({"E": "1O 3Q"}, seed=1)

    def test_card_given_to_two_seats(self):
        with pytest.raises(AluetteError, match="3O .*given to North and South"):
            complete_hands({"N": "3O", "S": "Monsieur"}, seed=1)

    def test_card_given_twice_to_one_seat(self):
        with pytest.raises(AluetteError, match="twice in West's hand"):
            complete_hands({"W": "4C 4c"}, seed=1)

    def test_ten_cards(self):
        # the rules sheet, "setup": a hand is nine cards
        with pytest.raises(AluetteError, match="North is given 10 cards"):
            complete_hands({"N": " ".join(c.code for c in DECK[:10])}, seed=1)

    def test_bad_seat_and_seat_twice(self):
        with pytest.raises(UnknownSeatError):
            parse_partial_hands({"Q": "1O"})
        with pytest.raises(AluetteError, match="given twice"):
            parse_partial_hands({"N": "1O", "north": "1C"})

    def test_no_seed(self):
        with pytest.raises(BadSeedError, match="explicit seed"):  # one error family for a missing seed (was TypeError)
            complete_hands({}, seed=None)


class TestScenarioDeal:
    def test_leader_sits_at_the_dealers_left(self):
        # the rules sheet, "gameplay": the player at the dealer's left leads; so the dealer is the leader's right
        deal = scenario_deal({"S": "3O"}, 2, leader="S", options=Options(chant=False))
        assert deal.dealer is Seat.E and deal.to_move is Seat.S and deal.phase is Phase.PLAY
        assert Card.parse("3O") in deal.hands["S"]

    def test_all_nine_spoiled_tricks(self):
        # the rules sheet, "gameplay": a tie for the best class spoils the trick and the leader leads again; decision of
        # this project: nobody wins a trick, nobody scores. Each seat holds one suit of the nine classes of four.
        deal = scenario_deal(ALL_NINE_CLASSES, 0, leader="N", options=Options(chant=False))
        for rank in (1, 12, 11, 10, 8, 7, 6, 5, 4):
            for seat in deal.leader.clockwise_from():
                deal.play(seat, Card(rank, {"N": "O", "E": "C", "S": "B", "W": "E"}[seat.value]))
        assert deal.notation == "XXXXXXXXX"
        assert deal.result.points == {"NS": 0, "EW": 0} and deal.result.score.winner is None

    def test_recipe_round_trip(self):
        text = scenario_to_json({"N": "3O 2C", "E": ""}, 42, leader="W", options=Options(mordienne=False))
        data = json.loads(text)
        assert data["hands"] == {"N": "3O 2C"} and data["seed"] == 42 and data["leader"] == "W"
        recipe = scenario_from_json(text)
        again = scenario_deal(recipe["hands"], recipe["seed"], leader=recipe["leader"], options=recipe["options"])
        assert again.deck == scenario_deal({"N": "3O 2C"}, 42, leader="W").deck
        assert again.options.mordienne is False

    @pytest.mark.parametrize("text, match", [
        ("{", "must be JSON"),
        ('{"format": "aluette-deal"}', "not an Aluette scenario"),
        ('{"format": "aluette-scenario", "seed": -1, "leader": "N"}', "seed"),
        ('{"format": "aluette-scenario", "seed": 1, "leader": "Q"}', "unknown seat"),
        ('{"format": "aluette-scenario", "seed": 1, "leader": "N", "hands": {"N": "3O", "S": "3O"}}', "3O"),
        ('{"format": "aluette-scenario", "seed": 1, "leader": "N", "extra": 1}', "unknown field"),
        ('{"format": "aluette-scenario", "seed": 1, "leader": "N", "options": {"surrender": true, '
         '"mordienne": false}}', "surrender needs mordienne"),
    ])
    def test_bad_recipe(self, text, match):
        with pytest.raises(MalformedSaveError, match=match):
            scenario_from_json(text)

    def test_recipe_needs_an_int_seed(self):
        with pytest.raises(AluetteError, match="seed"):
            scenario_to_json({}, -3)


class TestUndoAndReplay:
    """aluette.scenario's rewound, undone and replayed_from_trick: a deal taken back, the original unchanged. The rules
    sheet, "gameplay": the winner of a trick leads the next; a spoiled trick's leader leads again."""

    @staticmethod
    def _played(tricks, seed=3):
        deal = Deal.from_seed(seed, options=Options(chant=False))
        for _ in range(4 * tricks):
            deal.play_index(0)
        return deal

    def test_undo_takes_back_the_last_moves_and_leaves_the_original(self):
        from aluette.scenario import undone
        deal = self._played(2)
        before = deal.to_json()
        back = undone(deal)
        assert back.moves == deal.moves[:-1] and len(back.tricks) == 1 and len(back.current_trick) == 3
        assert back.to_move == deal.moves[-1].seat and back.legal_cards() != ()
        assert undone(deal, 8).moves == () and undone(deal, 8).deck == deal.deck
        assert deal.to_json() == before  # the original is as it was
        back.play(deal.moves[-1].seat, deal.moves[-1].card)
        assert back.to_json() == before  # the same card again: the same deal

    def test_undo_refuses_what_is_not_there(self):
        from aluette.scenario import undone
        with pytest.raises(AluetteError, match="nothing to undo"):
            undone(Deal.from_seed(1, options=Options(chant=False)))
        deal = self._played(1)
        for bad in (0, 5, -1, 1.5, True, "1"):
            with pytest.raises(AluetteError, match="undo takes back 1 to 4 moves"):
                undone(deal, bad)

    def test_replay_from_a_trick_is_the_deal_before_its_first_card(self):
        from aluette.scenario import replayed_from_trick, tricks_to_replay
        deal = self._played(9)
        assert deal.is_over and tricks_to_replay(deal) == tuple(range(1, 10))
        for trick in range(1, 10):
            again = replayed_from_trick(deal, trick)
            assert again.tricks == deal.tricks[:trick - 1] and again.current_trick == ()
            assert again.to_move == deal.tricks[trick - 1].leader and not again.is_over
            for seat, hand in deal.hands.items():  # each hand holds again the cards it played from that trick on
                later = {card for t in deal.tricks[trick - 1:] for s, card in t.plays if s is seat}
                assert set(again.hands[seat]) == set(hand) | later and len(again.hands[seat]) == 10 - trick
        assert deal.is_over and len(deal.tricks) == 9  # unchanged

    def test_a_trick_being_played_may_be_replayed_not_one_to_come(self):
        from aluette.scenario import replayed_from_trick, tricks_to_replay
        deal = self._played(2)
        deal.play_index(0)  # the first card of trick 3
        assert tricks_to_replay(deal) == (1, 2, 3)
        assert replayed_from_trick(deal, 3).moves == deal.moves[:8]
        for bad in (0, 4, 10, "2", None):
            with pytest.raises(AluetteError, match="replayed from tricks 1 to 3, not from trick"):
                replayed_from_trick(deal, bad)
        with pytest.raises(AluetteError, match="from no trick"):
            replayed_from_trick(Deal.from_seed(1), 1)  # the chant is being asked: no card played yet

    def test_replay_keeps_the_chant_and_the_discards(self):
        # the rules sheet, "setup": with the chant agreed, the recipients' discards stand when a trick is replayed
        from aluette.players.drivers import bots_for, play_deal
        from aluette.scenario import replayed_from_trick
        for seed in range(40):
            deal = Deal.from_seed(seed)
            play_deal(deal, bots_for("heuristic", seed))
            if deal.chant_agreed:
                break
        assert deal.chant_agreed and deal.tricks
        again = replayed_from_trick(deal, 1)
        assert again.chant_agreed and again.stock_received == deal.stock_received and again.tricks == ()
