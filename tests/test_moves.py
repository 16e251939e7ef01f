"""Moves as values: a move normalises its fields when made, one registry of move kinds serves JSON,
checking and dispatch, and ``Deal.is_legal`` answers without changing the deal.

Rules used: the rules sheet, "setup" (the chant: the stock's two recipients discard six cards each face down) and
"gameplay" (any card of the hand may be played, in turn); pagat.com (surrender).
"""

import itertools

import pytest

from aluette import (AluetteError, BadDiscardError, Card, ChantAnswer, Deal, Discard, MalformedSaveError, Options,
                     Play, Seat, Signal, SurrenderAnswer, SurrenderOffer, UnknownCardError, UnknownSeatError)
from aluette.moves import MOVE_KINDS, MordienneAnnouncement, Move, MoveKind, move_from_json, register_move_kind

from .test_breaking import HANDS, NO_CHANT, SURRENDER, snapshot

EXAMPLES = [ChantAnswer(Seat.N, True), Discard(Seat.E, "3O 2C 1E 4O 5O 6O"), SurrenderOffer(Seat.W, False),
            SurrenderAnswer(Seat.S, True), MordienneAnnouncement(Seat.W, True), Play(Seat.E, Card.parse("3O")),
            Signal(Seat.N, "useless")]


def chant_all(deal: Deal) -> Deal:
    for _ in range(4):
        deal.answer_chant(deal.to_move, True)
    return deal


class TestMovesNormaliseWhenMade:
    def test_a_play_written_by_hand_is_the_engines_move(self):
        # was: Play("E", "3O") != Play(Seat.E, Card.parse("3O")) and was not found in legal_moves() though legal
        move = Play("E", "3O")
        assert move == Play(Seat.E, Card.parse("3O")) and hash(move) == hash(Play(Seat.E, Card.parse("3O")))
        assert move.seat is Seat.E and move.card is Card.parse("3O")
        deal = Deal.from_hands(HANDS, dealer="N", options=NO_CHANT)  # E, at the dealer's left, leads
        assert move in deal.legal_moves()
        assert Play("east", "Monsieur") == move

    def test_a_discard_is_a_set_of_cards_in_deck_order(self):
        deal = chant_all(Deal.from_seed(1))
        seat = deal.to_move
        six = deal.suggested_discard(seat)
        by_hand = Discard(seat, " ".join(c.code for c in reversed(six)))
        assert by_hand.cards == tuple(sorted(six, key=lambda c: c.index))
        assert by_hand in deal.legal_moves()

    def test_text_answers_are_still_refused(self):
        # pagat.com: an offer is made or not; "no" is not False (it is truthy)
        with pytest.raises(AluetteError, match="True or False"):
            SurrenderOffer(Seat.E, "no")

    @pytest.mark.parametrize("make,error", [(lambda: Play("X", "3O"), UnknownSeatError),
                                            (lambda: Play("E", "3Q"), UnknownCardError),
                                            (lambda: Discard("E", None), UnknownCardError),
                                            (lambda: Signal("N", 5), AluetteError),
                                            (lambda: Move(Seat.N), AluetteError)])
    def test_a_field_that_is_not_one_is_refused_when_made(self, make, error):
        with pytest.raises(error):
            make()

    def test_a_long_bad_field_is_quoted_short(self):
        # quality bar: an error message quotes at most a short prefix of the input
        with pytest.raises(AluetteError) as caught:
            Play("N" * 1_000_000, "3O")
        assert len(str(caught.value)) < 300


class TestDiscardSaysWhatItIs:
    @pytest.mark.parametrize("cards,text", [("3O 2C", "E discards 2 cards"), ("3O", "E discards 1 card"),
                                            ("3O 2C 1E 4O 5O 6O", "E discards six cards"), ("", "E discards 0 cards")])
    def test_the_sentence_counts_the_cards(self, cards, text):
        # was: Discard("E", "3O 2C") printed "E discards six cards"
        assert str(Discard("E", cards)) == text

    def test_two_cards_are_refused_by_the_deal(self):
        # the rules sheet, "setup": each recipient discards six
        deal = chant_all(Deal.from_seed(1))
        before = snapshot(deal)
        with pytest.raises(BadDiscardError, match="exactly six"):
            deal.apply(Discard(deal.to_move, deal.hands[deal.to_move][:2]))
        assert snapshot(deal) == before


class TestRegistry:
    def test_every_move_class_is_registered_once(self):
        assert {type(m) for m in EXAMPLES} == set(MOVE_KINDS)
        assert len({k.name for k in MOVE_KINDS.values()}) == len(MOVE_KINDS)

    @pytest.mark.parametrize("move", EXAMPLES, ids=lambda m: type(m).__name__)
    def test_json_round_trip(self, move):
        data = move.to_json()
        assert data[0] == MOVE_KINDS[type(move)].name and move_from_json(data) == move

    def test_unknown_kind_names_the_registered_ones(self):
        with pytest.raises(MalformedSaveError) as caught:
            move_from_json(["fly", "S", "3O"])
        assert all(kind.name in str(caught.value) for kind in MOVE_KINDS.values())

    def test_a_kind_is_registered_only_once(self):
        with pytest.raises(AluetteError, match="already registered"):
            register_move_kind(MoveKind("play", Play, "card", Card.parse, str, lambda v: v))

    def test_a_new_kind_is_served_by_json_and_dispatch(self):
        # the registry is the one place a kind is declared: JSON reads it, and Deal.apply finds _check_/_do_<name>
        from dataclasses import dataclass

        @dataclass(frozen=True)
        class Knock(Move):
            loud: bool

        kind = register_move_kind(MoveKind("knock", Knock, "loud", bool, lambda v: v, lambda v: v))
        calls = []
        try:
            Deal._check_knock = lambda deal, move: calls.append(("check", move))
            Deal._do_knock = lambda deal, move: calls.append(("do", move))
            assert move_from_json(["knock", "S", True]) == Knock(Seat.S, True)
            Deal.from_seed(1).apply(["knock", "south", 1])
            assert calls == [("check", Knock(Seat.S, True)), ("do", Knock(Seat.S, True))]
        finally:
            import aluette.deal as deal_module
            import aluette.moves as moves_module
            del MOVE_KINDS[Knock], moves_module._BY_NAME[kind.name], Deal._check_knock, Deal._do_knock
            deal_module._HANDLERS.pop(Knock, None)


class TestIsLegal:
    @pytest.mark.parametrize("seed", range(5))
    def test_is_legal_agrees_with_apply_through_whole_deals(self, seed):
        deal = Deal.from_seed(seed, options=SURRENDER.replace(chant=True))
        candidates = [ChantAnswer(s, a) for s in Seat for a in (True, False)] + \
                     [SurrenderOffer(s, a) for s in Seat for a in (True, False)] + \
                     [SurrenderAnswer(s, a) for s in Seat for a in (True, False)]
        while not deal.is_over:
            legal = deal.legal_moves()
            plays = [Play(s, c) for s in Seat for c in itertools.islice(deal.hands[s], 3)]
            for move in candidates + plays + legal[:3]:
                before = snapshot(deal)
                assert deal.is_legal(move) == (move in legal), move
                assert snapshot(deal) == before
            deal.apply(legal[-1])
        assert not deal.is_legal(Signal(Seat.N, "useless"))  # the deal is over

    def test_signals_follow_the_honest_signal_rule(self):
        # decision of this project: signals are honest (only a held card) and made once per deal
        deal = Deal.from_hands(HANDS, dealer="N", options=NO_CHANT)
        assert deal.is_legal(Signal("E", "monsieur")) and not deal.is_legal(Signal("S", "monsieur"))
        deal.signal("E", "monsieur")
        assert not deal.is_legal(Signal("E", "monsieur"))

    def test_json_moves_and_non_moves(self):
        deal = Deal.from_hands(HANDS, dealer="N", options=NO_CHANT)
        assert deal.is_legal(["play", "E", "3O"]) and not deal.is_legal(["play", "S", "1C"])
        with pytest.raises(AluetteError, match="not a move"):
            deal.is_legal("E plays 3O")
        with pytest.raises(MalformedSaveError):
            deal.is_legal(["fly", "E", "3O"])

    def test_options_of_the_deal_are_used(self):
        assert not Deal.from_seed(1, options=Options(chant=False)).is_legal(ChantAnswer(Seat.E, True))
