"""Differential tests: the vectorized heuristic (aluette.simulation.numpy_heuristic) gives exactly the step-by-step engine's
result with four non-signalling HeuristicBots (aluette.Deal driven by aluette.players.bots), and with any mix of them and
random players (one kind per seat), deal by deal and play by play, for every option combination.

The rules are the engine's (the rules sheet and pagat.com, see aluette.deal and aluette.scoring) and the bot's (its docstring);
what is asserted here is the decision of this project (aluette.simulation's chance contract) that both engines agree
deal by deal under the chance
contract of aluette.simulation, each option combination over 2,000 deals.
"""

import numpy as np
import pytest

from aluette import DECK, SEATS, Deal, Options
from aluette.players.bots import HeuristicBot
from aluette.cards import HAND_ORDER as ENGINE_HAND_ORDER
from aluette.players.drivers import play_deal
from aluette.chance import cut_deck, shuffles_from_uniforms
from aluette.errors import AluetteError
from aluette.moves import Play
from aluette.simulation import DRAWS_PER_DEAL, simulate, step_deals
from aluette.simulation.numpy_random import random_deals
from aluette.simulation.numpy_heuristic import heuristic_deals, mixed_deals
from tests.test_vectorized import assert_same, assert_scored_as_score_deal  # one comparison for both engines

MORDIENNE_AND_SURRENDER = [dict(mordienne=True), dict(mordienne=False), dict(mordienne=True, surrender=True)]
COMBINATIONS = ([Options(chant=False, **o) for o in MORDIENNE_AND_SURRENDER]
                + [Options(chant=True, chant_recipients=r, **o) for r in ("left_and_dealer", "left_and_partner")
                   for o in MORDIENNE_AND_SURRENDER])
#: Deals per combination, each combination from a seed of its own (6,300 different deals in all).
N_DEALS = 700
#: The vectorized engine names a card by its place in hand order (high to low, then deck order), written out here
#: independently of aluette.cards.HAND_ORDER, which is checked against it.
HAND_ORDER = sorted(DECK, key=lambda c: (-c.strength, c.index))


def test_hand_order_is_the_engines():
    # The places the numpy engines use are the engine's hand order (one definition: aluette.cards.HAND_ORDER).
    assert list(ENGINE_HAND_ORDER) == HAND_ORDER


def _ids(options):
    return (f"{'chant-' + options.chant_recipients.value if options.chant else 'nochant'}-"
            f"{'mordienne' if options.mordienne else 'nomordienne'}{'-surrender' if options.surrender else ''}")


def _bots():
    return tuple(HeuristicBot() for _ in SEATS)


@pytest.mark.parametrize("options", COMBINATIONS, ids=_ids)
def test_seeded_deals_are_identical(options):
    seed = 2024 + COMBINATIONS.index(options)
    step = simulate(N_DEALS, seed=seed, options=options, players="heuristic", engine="step")
    vectorized = simulate(N_DEALS, seed=seed, options=options, players="heuristic", engine="vectorized")
    assert step.equals(vectorized)  # every column, every row
    # the comparison covers the rules that matter for these options, not just easy deals
    assert step.spoiled.gt(0).sum() > N_DEALS // 20 and step.first_to_reach.sum() > N_DEALS // 20
    assert step.mordienne.any() == options.mordienne
    if options.chant:  # the bot agrees with a weak hand: both recipients weak in about half the deals
        assert N_DEALS // 4 < step.chant.sum() < N_DEALS - N_DEALS // 4
    else:
        assert not step.chant.any()
    if options.surrender:
        assert step.surrender_accepted.sum() > N_DEALS // 40
    else:
        assert step.surrendered_by.isna().all()


def _draws(seed, n):
    return np.random.default_rng(seed).random((n, DRAWS_PER_DEAL))


def _rare(options, condition, want, seed=11, n=200_000):
    """Rows of seeded draws whose vectorized result meets ``condition`` (rare deals, found fast by the vectorized
    engine and then checked against the step engine)."""
    draws = _draws(seed, n)
    dealers = np.arange(n) % 4
    rows = np.flatnonzero(condition(heuristic_deals(draws, dealers, options)))[:want]
    return draws[rows], dealers[rows]


def test_refused_surrenders():
    # pagat.com: a refused surrender is played out; the refusing side scores 2 with mordienne, else the offering
    # side scores 2. The bot refuses only holding Monsieur, Madame, le Borgne and la Vache: rare, so selected.
    options = Options(surrender=True)
    draws, dealers = _rare(options, lambda r: r["surrender_accepted"] == 0, 40)
    step = step_deals(draws, dealers, options, _bots())
    assert len(dealers) >= 10 and (step["surrender_accepted"] == 0).all()
    assert (step["points_ns"] + step["points_ew"] == 2).all()
    assert_same(step, heuristic_deals(draws, dealers, options))


@pytest.mark.parametrize("chant", [False, True], ids=["nochant", "chant"])
def test_mordienne_deals(chant):
    # Deals won with mordienne (rare with these bots: about 1 in 200) or with four spoiled tricks or more, compared with
    # the step engine with the mordienne option on and off. The bots ignore the option, so the tricks are the same,
    # and a mordienne deal scores 2 with the option and 1 without (aluette.options, aluette.scoring).
    on, off = Options(chant=chant), Options(chant=chant, mordienne=False)
    draws, dealers = _rare(on, lambda r: r["mordienne"] | ((r["outcomes"] == 4).sum(axis=1) >= 4), 60, seed=12,
                           n=100_000)
    step_on, step_off = step_deals(draws, dealers, on, _bots()), step_deals(draws, dealers, off, _bots())
    assert step_on["mordienne"].sum() >= 20
    assert_same(step_on, heuristic_deals(draws, dealers, on))
    assert_same(step_off, heuristic_deals(draws, dealers, off))
    made = step_on["mordienne"]
    assert (step_on["outcomes"] == step_off["outcomes"]).all() and not step_off["mordienne"].any()
    assert ((step_on["points_ns"] + step_on["points_ew"])[made] == 2).all()
    assert ((step_off["points_ns"] + step_off["points_ew"])[made] == 1).all()


@pytest.mark.parametrize("options", [Options(chant=False), Options(surrender=True),
                                     Options(chant_recipients="left_and_partner", mordienne=False)],
                         ids=["nochant", "chant-dealer-surrender", "chant-partner-nomordienne"])
def test_play_by_play(options):
    # Not only the results: every card played is the one HeuristicBot plays (including its tie-break among the
    # cards of one class, first in deck order), on the deals of the chance contract.
    n = 150
    draws, dealers = _draws(13, n), np.arange(n) % 4
    record = np.full((n, 36), -1)
    heuristic_deals(draws, dealers, options, record=record)
    orders, cuts = shuffles_from_uniforms(draws[:, :49])
    bots = dict(zip(SEATS, _bots()))
    played = 0
    for j in range(n):
        deck = cut_deck([DECK[i] for i in orders[j]], int(cuts[j]))
        deal = Deal.from_deck(deck, dealer=SEATS[dealers[j]], options=options)
        play_deal(deal, bots)
        cards = [m.card for m in deal.moves if isinstance(m, Play)]
        if cards:
            played += 1
            assert cards == [HAND_ORDER[p] for p in record[j]], f"deal {j}"
    assert played > n // 2


def test_only_slots_of_the_shuffle_are_read():
    # The bot draws no chance: changing the decision slots (49-93) of the chance contract changes nothing.
    draws, dealers = _draws(14, 500), np.arange(500) % 4
    other = draws.copy()
    other[:, 49:] = _draws(15, 500)[:, 49:]
    options = Options(surrender=True)
    assert_same(heuristic_deals(draws, dealers, options), heuristic_deals(other, dealers, options))


def test_vectorized_refuses_other_players():
    # Never inexact results: players the vectorized engine does not play are refused with a clear message.
    for players in ("signalling", {"N": "heuristic", "E": "random", "S": "signalling", "W": "random"},
                    {"N": "heuristic", "E": "random", "S": "heuristic", "W": lambda seat, rng: HeuristicBot()}):
        with pytest.raises(AluetteError, match="vectorized engine plays random players and non-signalling heuristic"):
            simulate(10, seed=1, players=players, engine="vectorized")
    with pytest.raises(ValueError, match="draws must have shape"):
        heuristic_deals(np.zeros((3, 5)), np.zeros(3))
    with pytest.raises(ValueError, match="players must be four of 'random' and 'heuristic'"):
        mixed_deals(_draws(1, 3), np.zeros(3), None, ("heuristic", "random", "heuristic"))
    with pytest.raises(ValueError, match="players must be four of 'random' and 'heuristic'"):
        mixed_deals(_draws(1, 3), np.zeros(3), None, ("heuristic", "random", "heuristic", "signalling"))


# ------------------------------------------------------------------------------------------------ mixed players
#: Mixes of random players and heuristic bots, one kind per seat (N, E, S, W): a side each, one bot alone, one random
#: player alone, partners of different kinds on both sides.
MIXES = [("heuristic", "random", "heuristic", "random"), ("random", "heuristic", "random", "random"),
         ("heuristic", "heuristic", "random", "heuristic"), ("random", "heuristic", "heuristic", "random")]
#: Deals per option combination with mixed players, each combination with its own seed and, in turn, each mix.
N_MIXED = 400


@pytest.mark.parametrize("options", COMBINATIONS, ids=_ids)
def test_mixed_players_give_the_step_engines_deals(options):
    # The chance contract's point 4 (aluette.simulation.contract): the k-th decision of a phase reads the phase's k-th slot
    # whoever made the decisions before, so a random player next to bots reads the same doubles in both engines.
    index = COMBINATIONS.index(options)
    mix = MIXES[index % len(MIXES)]
    players = dict(zip("NESW", mix))
    step = simulate(N_MIXED, seed=3030 + index, options=options, players=players, engine="step")
    vectorized = simulate(N_MIXED, seed=3030 + index, options=options, players=players, engine="vectorized")
    assert step.equals(vectorized)  # every column, every row
    assert step.players.iloc[0] == " ".join(f"{s}:{kind}" for s, kind in players.items())
    assert step.spoiled.gt(0).sum() > N_MIXED // 20 and step.first_to_reach.sum() > N_MIXED // 20
    if options.chant:  # random seats agree half the time, so the chant is rarer than with four bots but happens
        assert 0 < step.chant.sum() < N_MIXED // 2
    if options.surrender:  # a random speaker offers half the time, and accepts or refuses half the time
        assert step.surrender_accepted.sum() > N_MIXED // 20
        assert (step.surrendered_by.notna() & ~step.surrender_accepted).sum() > 0  # refused, then played out


@pytest.mark.parametrize("mix", MIXES, ids=["-".join(k[0] for k in m) for m in MIXES])
def test_mixed_players_play_by_play(mix):
    # Every card is the one the step engine plays: a bot's, or the random player's legal_cards()[floor(u * k)].
    n = 120
    options = Options(surrender=True)
    draws, dealers = _draws(16, n), np.arange(n) % 4
    record = np.full((n, 36), -1)
    mixed_deals(draws, dealers, options, mix, record=record)
    played = 0
    for j in range(n):
        orders, cuts = shuffles_from_uniforms(draws[j:j + 1, :49])
        deal = Deal.from_deck(cut_deck([DECK[i] for i in orders[0]], int(cuts[0])), dealer=SEATS[dealers[j]],
                              options=options)
        _replay_as_step_engine(deal, draws[j], mix)
        cards = [m.card for m in deal.moves if isinstance(m, Play)]
        if cards:
            played += 1
            assert cards == [HAND_ORDER[p] for p in record[j]], f"deal {j}"
    assert played > n // 3  # a random speaker offers and accepts a surrender one time in four or more


def _replay_as_step_engine(deal, row, mix):
    """Play ``deal`` as the step engine does (aluette.simulation.step._play_out): bots where ``mix`` says, random players
    reading ``row``'s slots."""
    from aluette.simulation.step import _play_out
    _play_out(deal, row[49:].tolist(), tuple(HeuristicBot() if kind == "heuristic" else None for kind in mix))


def test_four_random_players_in_the_mixed_engine_are_the_random_engines():
    # The same players through both numpy engines: the same arrays, for every option combination.
    draws, dealers = _draws(17, 2000), np.arange(2000) % 4
    for options in COMBINATIONS:
        assert_same(random_deals(draws, dealers, options), mixed_deals(draws, dealers, options, ("random",) * 4))


@pytest.mark.parametrize("options", [Options(chant=False), Options(surrender=True),
                                     Options(chant_recipients="left_and_partner")],
                         ids=["nochant", "chant-dealer-surrender", "chant-partner"])
def test_tricks_and_scores_are_the_rule_functions(options):
    # The rules sheet, "gameplay" and "scoring"; pagat.com (surrender): on seeded deals, each trick's outcome is what
    # tricks.best_of says of the four cards the numpy engine recorded, and the points are scoring.score_deal's.
    from aluette.tricks import best_of
    n = 400
    draws, dealers = _draws(21, n), np.arange(n) % 4
    record = np.full((n, 36), -1)
    result = heuristic_deals(draws, dealers, options, record=record)
    tricks = 0
    for j in range(n):
        if result["outcomes"][j, 0] < 0:
            continue  # a surrender accepted: not played
        leader = (dealers[j] + 1) % 4  # the dealer's left leads the first trick
        for trick in range(9):
            plays = [(SEATS[(leader + k) % 4], HAND_ORDER[record[j, trick * 4 + k]]) for k in range(4)]
            winner = best_of(plays)
            assert result["outcomes"][j, trick] == (4 if winner is None else SEATS.index(winner)), f"deal {j}"
            leader = leader if winner is None else SEATS.index(winner)
            tricks += 1
    assert tricks > 9 * n // 2 and (result["outcomes"] == 4).any()
    assert_scored_as_score_deal(result, options)
