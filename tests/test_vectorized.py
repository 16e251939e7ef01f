"""Differential tests: the vectorized engine (aluette.simulation.numpy_random) gives exactly the step-by-step engine's result
(aluette.Deal driven move by move) for every deal, for every option combination random players support.

The rules themselves are the engine's (the rules sheet and pagat.com, see aluette.deal and aluette.scoring); what is asserted
here is the decision of this project that both engines agree deal by deal under the chance contract of
aluette.simulation, plus a few positions built by hand where the rule outcome is known.
"""

import itertools

import numpy as np
import pytest

from aluette import SEATS, Deal, Options, Seat, Team, score_tricks
from aluette.scoring import score_deal
from aluette.chance import deck_from_hands
from aluette.simulation import DRAWS_PER_DEAL, simulate, step_deals
from aluette.simulation.numpy_random import random_deals

MORDIENNE_AND_SURRENDER = [dict(mordienne=True), dict(mordienne=False), dict(mordienne=True, surrender=True)]
COMBINATIONS = ([Options(chant=False, **o) for o in MORDIENNE_AND_SURRENDER]
                + [Options(chant=True, chant_recipients=r, **o) for r in ("left_and_dealer", "left_and_partner")
                   for o in MORDIENNE_AND_SURRENDER])
N_DEALS = 2000


def _ids(options):
    return (f"{'chant-' + options.chant_recipients.value if options.chant else 'nochant'}-"
            f"{'mordienne' if options.mordienne else 'nomordienne'}{'-surrender' if options.surrender else ''}")


def assert_same(step, vectorized):
    assert step.keys() == vectorized.keys()
    for key in step:
        mismatched = np.flatnonzero(np.any((step[key] != vectorized[key]).reshape(len(step[key]), -1), axis=1))
        assert len(mismatched) == 0, f"{key} differs at deals {mismatched[:10]}"


@pytest.mark.parametrize("options", COMBINATIONS, ids=_ids)
def test_seeded_deals_are_identical(options):
    step = simulate(N_DEALS, seed=2024, options=options, engine="step")
    vectorized = simulate(N_DEALS, seed=2024, options=options, engine="vectorized")
    assert step.equals(vectorized)
    # the comparison covers the rules that matter for these options, not just easy deals
    assert step.spoiled.gt(0).any() and step.first_to_reach.any() and step.team.notna().all()
    assert step.mordienne.any() == options.mordienne
    if options.chant:
        assert step.chant.sum() > 50  # 1 in 16 deals: all four agree at random
    if options.surrender:
        offered = step.surrendered_by.notna()
        assert step.surrender_accepted.sum() > 100 and (offered & ~step.surrender_accepted).sum() > 100


def _draws(seed, n=N_DEALS):
    return np.random.default_rng(seed).random((n, DRAWS_PER_DEAL))


@pytest.mark.parametrize("options", [o for o in COMBINATIONS if o.chant], ids=_ids)
def test_every_deal_chanted(options):
    # All four agree (u < 0.5 answers yes): every deal has the chant, the two random discards and then play.
    draws = _draws(7)
    draws[:, 49:53] = 0.25
    dealers = np.arange(N_DEALS) % 4
    step = step_deals(draws, dealers, options)
    assert step["chant"].all()
    assert_same(step, random_deals(draws, dealers, options))


@pytest.mark.parametrize("decisions, offered, accepted", [
    ((0.1, 0.1, 0.9), "first", True), ((0.1, 0.9, 0.9), "first", False),
    ((0.9, 0.1, 0.1), "second", True), ((0.9, 0.1, 0.9), "second", False), ((0.9, 0.9, 0.1), None, None)])
def test_every_surrender_path(decisions, offered, accepted):
    # pagat.com: the dealer's left speaks first, then the dealer; an offer is answered by the other speaker.
    draws = _draws(8)
    draws[:, 55:58] = decisions
    dealers = np.arange(N_DEALS) % 4
    options = Options(surrender=True)
    step = step_deals(draws, dealers, options)
    assert_same(step, random_deals(draws, dealers, options))
    first_team = (dealers + 1) % 2  # team of the dealer's left (0 NS, 1 EW)
    if offered is None:
        assert (step["surrendered_by"] == -1).all()
        return
    by = first_team if offered == "first" else 1 - first_team
    assert (step["surrendered_by"] == by).all() and (step["surrender_accepted"] == int(accepted)).all()
    if accepted:  # the accepting side scores 1 and the deal is not played
        assert (step["team"] == 1 - by).all() and (step["outcomes"] == -1).all()
        assert (step["points_ns"] + step["points_ew"] == 1).all()
    else:  # 2 points: to the refusing side if one of its players made mordienne, else to the offering side
        assert (step["points_ns"] + step["points_ew"] == 2).all()
        refusing_made_it = step["mordienne"] & (step["winner"] >= 0) & (step["winner"] % 2 == 1 - by)
        assert ((step["team"] == 1 - by) == refusing_made_it).all()
        assert refusing_made_it.any() and not refusing_made_it.all()


def _uniforms_for(deck, cut):
    """Shuffle doubles (49, multiples of 2**-53) that aluette.chance turns into this cut deck."""
    order = list(deck[-cut:]) + list(deck[:-cut])  # the deck before the cut: the cut lifts `cut` cards
    u = np.empty(49)
    for position, card in enumerate(order):
        u[card.index] = (position + 1) / 64
    u[48] = (cut - 0.5) / 47
    return u


def test_all_nine_spoiled():
    # Every seat holds one ace, king, cavalière, jack, 8, 7, 6, 5 and 4 (one suit each) and always plays its highest
    # card (u = 0): each trick is four cards of one class, spoiled (the rules sheet, "gameplay"), so nobody wins a trick and
    # nobody scores (aluette.scoring: decision of this project).
    ranks = "1 12 11 10 8 7 6 5 4".split()
    hands = {seat: [f"{r}{suit}" for r in ranks] for seat, suit in zip("NESW", "OCBE")}
    deck = deck_from_hands(hands, Seat.W)
    draws = np.zeros((4, DRAWS_PER_DEAL))
    draws[:, :49] = _uniforms_for(deck, 17)
    draws[:, 49:] = 0.0
    draws[1:, 49:53] = 0.9  # rows 1-3: the chant is refused; row 0 keeps u = 0: all agree (used below)
    dealers = np.full(4, 3)
    for options in (Options(chant=False), Options(chant=False, mordienne=False)):
        step = step_deals(draws[1:], dealers[1:], options)
        assert (step["outcomes"] == 4).all() and (step["team"] == -1).all()
        assert (step["points_ns"] == 0).all() and (step["points_ew"] == 0).all()
        assert_same(step, random_deals(draws[1:], dealers[1:], options))
    deal = Deal.from_deck(deck, dealer="W", options=Options(chant=False))
    while not deal.is_over:
        deal.play_index(0)
    assert deal.notation == "XXXXXXXXX" and score_tricks(deal.notation).team is None
    # with the chant on and all agreeing (u = 0 everywhere), both engines still agree
    options = Options()
    assert_same(step_deals(draws[:1], dealers[:1], options), random_deals(draws[:1], dealers[:1], options))


def test_unit_doubles_never_pick_past_the_hand():
    # The largest double Generator.random can return, 1 - 2**-53, still picks the last card: floor(u * k) < k.
    draws = _draws(9, 200)
    draws[:, 49:] = 1 - 2.0 ** -53
    dealers = np.arange(200) % 4
    for options in (Options(), Options(surrender=True)):
        assert_same(step_deals(draws, dealers, options), random_deals(draws, dealers, options))


# ------------------------------------------------------------------ the numpy blocks and the rule functions they mirror
def test_trick_table_is_best_of():
    # The rules sheet, "gameplay": the only card of the strongest class wins; a tie for the strongest class spoils the
    # trick. Every entry of the numpy table (19**4 class combinations) is what tricks.best_of says for one card per
    # class.
    from aluette.cards import RANKING, Card
    from aluette.tricks import best_of
    from aluette.simulation.numpy_random import _TRICK_WINNER
    one_per_class = [Card.parse(codes[0]) for _, _, codes in RANKING]
    expected = [best_of(list(enumerate(one_per_class[c] for c in combo)))
                for combo in itertools.product(range(19), repeat=4)]
    assert _TRICK_WINNER.tolist() == [-1 if seat is None else seat for seat in expected]
    assert (_TRICK_WINNER == -1).any() and (_TRICK_WINNER == 3).any()


def results_by_score_deal(result, options):
    """The per-deal arrays of the numpy engines recomputed deal by deal by scoring.score_deal from their own trick
    outcomes and surrender answers (absolute seats 0-3 = N, E, S, W; teams 0 = NS, 1 = EW)."""
    points, mordienne, first, winner = [], [], [], []
    for j, outcomes in enumerate(result["outcomes"]):
        by = int(result["surrendered_by"][j])
        accepted = None if by < 0 else bool(result["surrender_accepted"][j])
        played = None if accepted else [None if o == 4 else SEATS[o] for o in outcomes]
        deal = score_deal(played, mordienne=options.mordienne, surrendered_by=None if by < 0 else list(Team)[by],
                          surrender_accepted=accepted)
        points.append((deal.points[Team.NS], deal.points[Team.EW]))
        score = deal.score
        mordienne.append(bool(score and score.mordienne))
        first.append(bool(score and score.reached_first))
        winner.append(-1 if score is None or score.winner is None else SEATS.index(score.winner))
    return np.array(points), np.array(mordienne), np.array(first), np.array(winner)


def assert_scored_as_score_deal(result, options):
    points, mordienne, first, winner = results_by_score_deal(result, options)
    assert (points[:, 0] == result["points_ns"]).all() and (points[:, 1] == result["points_ew"]).all()
    assert (mordienne == result["mordienne"]).all() and (first == result["first_to_reach"]).all()
    assert (winner == result["winner"]).all()


@pytest.mark.parametrize("options", COMBINATIONS, ids=_ids)
def test_scores_are_score_deal(options):
    # The rules sheet and pagat.com (aluette.scoring): the numpy scoring block gives, deal by deal, the points,
    # mordienne, first-to-reach and winner that scoring.score_deal gives for the same tricks and surrender answers.
    draws, dealers = _draws(31, 1000), np.arange(1000) % 4
    result = random_deals(draws, dealers, options)
    assert_scored_as_score_deal(result, options)
    assert result["mordienne"].any() == options.mordienne and result["first_to_reach"].any()
