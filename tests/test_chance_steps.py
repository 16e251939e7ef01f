"""The step-by-step forms of the deal and of the chant's stock deal agree with the engine's deal.

Rule sources: the rules sheet, "setup", and pagat.com (the dealer's right cuts; nine cards each, three at a time,
starting at the dealer's left, clockwise; twelve left over; in the chant the stock goes alternately to the dealer's left
and the dealer, starting with the dealer's left)."""

import pytest

from aluette import Deal, Options, Seat
from aluette.chance import cut_deck, deal_from_deck, deal_steps, shuffled_deck, stock_steps
from aluette.errors import AluetteError
from aluette.options import ChantRecipients


@pytest.mark.parametrize("dealer", list(Seat))
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_packets_rebuild_the_hands(seed, dealer):
    # the rules sheet, "setup": 3-3-3 from the dealer's left; the packets joined per seat are the dealt hands
    deck = cut_deck(*shuffled_deck(seed))
    steps = deal_steps(deck, dealer)
    hands, stock = deal_from_deck(deck, dealer)
    assert len(steps) == 12 and all(len(cards) == 3 for _, cards in steps)
    for seat in Seat:
        assert tuple(c for s, cards in steps if s is seat for c in cards) == hands[seat]
    dealt = [c for _, cards in steps for c in cards]
    assert tuple(dealt) == deck[:36] and stock == deck[36:]


def test_packets_go_clockwise_from_the_dealers_left():
    # the rules sheet, "setup" / pagat: the deal starts at the dealer's left and goes clockwise, three rounds
    steps = deal_steps(cut_deck(*shuffled_deck(3)), Seat.S)
    assert [s for s, _ in steps] == [Seat.W, Seat.N, Seat.E, Seat.S] * 3


def test_deal_steps_refuses_a_short_deck():
    with pytest.raises(AluetteError, match="48 cards"):
        deal_steps(cut_deck(*shuffled_deck(0))[:47], Seat.N)


@pytest.mark.parametrize("recipients", list(ChantRecipients))
def test_stock_steps_alternate_and_match_the_deal(recipients):
    # the rules sheet, "setup": the stock goes alternately to the dealer's left and the dealer (variant: dealer's
    # partner)
    deal = Deal.from_seed(11, dealer=Seat.E, options=Options(chant_recipients=recipients))
    first, second = deal.chant_recipients()
    steps = stock_steps(deal.stock, first, second)
    assert [s for s, _ in steps] == [first, second] * 6
    assert tuple(c for _, c in steps) == deal.stock
    for _ in range(4):
        deal.answer_chant(deal.to_move, True)
    received = deal.view(None).stock_received
    for seat in (first, second):
        assert received[seat] == tuple(c for s, c in steps if s is seat)


def test_stock_steps_refuse_bad_input():
    stock = Deal.from_seed(0).stock
    with pytest.raises(AluetteError, match="twelve"):
        stock_steps(stock[:11], Seat.E, Seat.N)
    with pytest.raises(AluetteError, match="two different seats"):
        stock_steps(stock, Seat.E, Seat.E)
