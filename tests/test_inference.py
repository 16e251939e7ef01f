"""The expert's inference from the other seats' cards (:mod:`aluette.analysis.inference`, decision ``expert-bot``).

Rule sources: the rules sheet (``docs/sources/``), "gameplay": any card may be played, so a card says nothing
certain about a hand, and the inference is a preference among sampled deals, never a filter; the model of a player
is the heuristic bot (:class:`~aluette.players.bots.HeuristicBot`, pagat.com's advice made exact, decision
``heuristic-bot``): "early in a trick play low" makes a low lead say that nothing lower is held. What the expert may
read is its own seat's view only (decisions ``tricks-visible``, ``signals-partner-only``). Whether the inference
makes the expert stronger is measured in ``tests/benchmarks/bench_expert.py``, never here.
"""

from __future__ import annotations

import numpy as np
import pytest

from aluette import AluetteError, Deal, Options, Phase, Play, SEATS, Seat
from aluette.analysis.expert import ExpertBot, HiddenCards
from aluette.analysis.inference import PastPlays
from aluette.players.bots import HeuristicBot
from aluette.players.drivers import next_bot_step

NO_CHANT = Options(chant=False)  # no stock: every hidden card is in a hand, none in a discard the seat cannot see


def heuristic_positions(seeds, options=NO_CHANT, signals=False):
    """(deal copy, seat to move) at every card of seeded deals played by four heuristic bots."""
    bots = {seat: HeuristicBot(signals=signals) for seat in SEATS}
    for seed in seeds:
        deal = Deal.from_seed(seed, dealer=SEATS[seed % 4], options=options)
        offered = False
        while not deal.is_over:
            step = next_bot_step(deal, bots, signals_offered=offered)
            if step.signals:
                offered = True
            elif deal.phase is Phase.PLAY:
                yield deal.copy(), deal.to_move
            for decision in step.decisions:
                deal.apply(decision.move)


def others(deal: Deal, seat: Seat) -> dict:
    return {other: deal.hands[other] for other in SEATS if other is not seat}


def test_the_true_hands_fit_every_past_card_of_heuristic_players():
    # the past views rebuilt from one seat's view give the heuristic bot back the very choices it made
    checked = 0
    for deal, seat in heuristic_positions(range(6)):
        view = deal.view(seat, events=False)
        past = PastPlays(view)
        plays = [(s, c) for record in view.tricks for s, c in record.plays] + list(view.trick)
        last_cards = sum(1 for s, _ in view.trick if s is not seat) if len(view.tricks) == 8 else 0  # no choice
        assert len(past) == sum(1 for s, _ in plays if s is not seat) - last_cards
        assert past.misfits(others(deal, seat)) == 0
        checked += len(past)
    assert checked > 1000


def test_a_card_the_heuristic_bot_would_not_play_is_counted():
    deal = Deal.from_seed(4, dealer=Seat.N, options=NO_CHANT)
    hand = deal.hands[Seat.E]
    lead = next(c for c in reversed(hand) if c.strength > hand[-1].strength)  # not E's lowest class
    assert HeuristicBot().choose(deal.view(Seat.E)).move.card.strength == hand[-1].strength  # "lead low"
    deal.apply(Play(Seat.E, lead))
    view = deal.view(Seat.S, events=False)
    assert PastPlays(view).misfits(others(deal, Seat.S)) == 1
    # a sampled E hand that holds nothing lower would have led that card: no misfit
    unseen = HiddenCards(view).unseen
    higher = [c for c in unseen if c.strength > lead.strength]
    assert len(higher) >= 8
    rest = [c for c in unseen if c not in higher[:8]]
    hands = {Seat.E: higher[:8], Seat.W: rest[:9], Seat.N: rest[9:18]}
    assert PastPlays(view).misfits(hands) == 0


def test_the_count_stops_past_its_limit():
    rng = np.random.default_rng(5)
    for deal, seat in list(heuristic_positions([2]))[20:32]:
        view = deal.view(seat, events=False)
        hidden, past = HiddenCards(view), PastPlays(view)
        for _ in range(5):
            hands = hidden.sample(rng)
            full = past.misfits(hands)
            for limit in range(4):
                assert past.misfits(hands, limit=limit) == min(full, limit + 1)


def test_the_past_views_hold_nothing_the_seat_cannot_see(monkeypatch):
    # every view the heuristic bot is asked to choose from holds the cards the expert's seat has seen, the sampled
    # hand of the seat it stands for and the cards that seat has played since: no other card, no stock, no discard;
    # the partner's past views carry the partnership's signals, an opponent's none (its signals are hidden)
    asked = []
    real = HeuristicBot.choose
    monkeypatch.setattr(HeuristicBot, "choose", lambda self, v, legal_moves=(): asked.append(v) or real(self, v))
    rng = np.random.default_rng(1)
    partner_signals = 0
    for deal, seat in list(heuristic_positions([3], options=Options(), signals=True))[10::7]:
        view = deal.view(seat, events=False)
        past, hands = PastPlays(view), HiddenCards(view).sample(rng)
        asked.clear()
        past.misfits(hands)
        assert len(asked) == len(past)
        seen = set(view.visible_cards())
        for choice, shown in zip(past.choices, asked):
            assert shown.seat is choice.seat and shown.phase is Phase.PLAY and shown.to_move is choice.seat
            assert set(shown.hand) == set(hands[choice.seat]) | set(choice.since)
            assert set(shown.visible_cards()) <= seen | set(shown.hand)
            assert shown.stock is None and not shown.discards and not shown.stock_received
            assert len(shown.hands) == 1
            if choice.seat is seat.partner:
                assert shown.signals == tuple(r for r in view.signals if r.trick <= len(shown.tricks))
                partner_signals += len(shown.signals)
            else:
                assert shown.signals == ()
    assert partner_signals > 0  # the partnership did signal, and its signals were passed on
    with pytest.raises(AluetteError):
        PastPlays(Deal.from_seed(1).view(None))  # the omniscient view is not a seat's


def test_the_expert_goes_through_the_inference_and_nothing_is_drawn_for_nothing(monkeypatch):
    calls = []
    real = PastPlays.misfits
    monkeypatch.setattr(PastPlays, "misfits", lambda self, hands, limit=None: calls.append(1) or real(self, hands, limit))
    deal, seat = list(heuristic_positions([5]))[14]
    assert ExpertBot(1, samples=3).choose(deal.view(seat, events=False)).reason.startswith("expert: ")
    assert 3 <= len(calls) <= 12  # each drawn deal is measured, at most the candidates (four times the samples)
    # at the first lead no other seat has chosen a card: only the samples are drawn, as without inference
    first = Deal.from_seed(2, options=NO_CHANT)
    view = first.view(first.to_move, events=False)
    rng = np.random.default_rng(4)
    assert ExpertBot(4, samples=5).draw(view) == [dict(HiddenCards(view).sample(rng)) for _ in range(5)]


def test_a_view_between_tricks_is_measured_as_the_play_it_followed():
    # the surrender question between tricks (Options(surrender_until="last_trick")): the past cards were chosen in
    # the play, so the heuristic bot is asked for a card, not for a surrender answer
    options = Options(surrender=True, surrender_until="last_trick")
    deal = Deal.from_seed(0, options=options)
    bots = {s: HeuristicBot() for s in SEATS}
    while deal.phase is not Phase.SURRENDER or not deal.tricks:
        step = next_bot_step(deal, bots, signals_offered=True)
        for decision in step.decisions:
            deal.apply(decision.move)
    view = deal.view(deal.to_move, events=False)
    assert PastPlays(view).misfits(others(deal, deal.to_move)) == 0
    assert len(ExpertBot(0, samples=2).draw(view)) == 2


def test_the_expert_solves_the_drawn_deals_that_fit_best():
    for n, (deal, seat) in enumerate(list(heuristic_positions([7, 8], options=Options(), signals=True))[12::4]):
        view = deal.view(seat, events=False)
        hidden, past = HiddenCards(view), PastPlays(view)
        drawn = ExpertBot(n, samples=4, candidates=16).draw(view)
        rng = np.random.default_rng(n)  # the bot's generator: every candidate is drawn from it in turn
        candidates = [dict(hidden.sample(rng)) for _ in range(16)]
        ranked = sorted(range(16), key=lambda i: (past.misfits(candidates[i]), i))
        fits = [past.misfits(hands) for hands in drawn]
        if fits == [0] * 4:  # four perfect fits: the bot stops drawing, so they are the first four perfect ones
            assert drawn == [candidates[i] for i in range(16) if past.misfits(candidates[i]) == 0][:4]
        else:
            assert drawn == [candidates[i] for i in ranked[:4]]


def test_with_as_many_candidates_as_samples_it_draws_uniformly():
    deal, seat = list(heuristic_positions([1]))[13]
    view = deal.view(seat, events=False)
    rng = np.random.default_rng(3)
    assert ExpertBot(3, samples=5, candidates=5).draw(view) == [dict(HiddenCards(view).sample(rng)) for _ in range(5)]
    assert ExpertBot(0, samples=6).candidates == 24  # four times the samples by default


@pytest.mark.parametrize("bad", [3, True, 40_001, "8", 2.5])
def test_a_bad_number_of_candidates_is_refused(bad):
    with pytest.raises(AluetteError, match="candidates"):
        ExpertBot(0, samples=4, candidates=bad)


def test_a_deadline_stops_the_drawing_but_the_first_deal_is_kept():
    # ExpertBot(time_limit=...) bounds the drawing too (the weighing of 96 deals is a few tens of milliseconds): a
    # deadline already past keeps the first deal drawn only, and no deadline draws them all
    import time

    deal, seat = list(heuristic_positions([5]))[14]
    view = deal.view(seat, events=False)
    rng = np.random.default_rng(6)
    first = dict(HiddenCards(view).sample(rng))
    assert ExpertBot(6, samples=3).draw(view, deadline=time.perf_counter() - 1) == [first]
    assert len(ExpertBot(6, samples=3).draw(view, deadline=time.perf_counter() + 3600)) == 3
    opening = Deal.from_seed(2, options=NO_CHANT)  # no past card: the samples are drawn without weighing
    view = opening.view(opening.to_move, events=False)
    assert len(ExpertBot(4, samples=5).draw(view, deadline=time.perf_counter() - 1)) == 1
    hurried = ExpertBot(6, samples=3, time_limit=1e-9).choose(deal.view(seat, events=False))
    assert " over 1 sampled deal " in hurried.reason
