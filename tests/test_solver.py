"""The exact solver, all hands open (:func:`aluette.solve`, issue 18 §1).

The solver is checked against two deliberately naive references written here, on seeded random positions of every
combination of the scoring options:

* :func:`naive_deal_value`: plain minimax over every legal card (suits and all), each move applied through
  :class:`~aluette.deal.Deal` (a copy per move) and each leaf scored by the deal itself (``deal.result``): the rules
  as the engine plays them, with no idea of the solver's (classes, bounds, tables).
* :func:`naive_class_value`: plain minimax over the distinct ranking classes of each hand (cards of one class are
  equal: rules sheet, "card rankings"; pagat.com), each trick decided by the engine's :func:`~aluette.tricks.best_of`
  and each leaf scored by :func:`~aluette.scoring.score_deal`; no pruning, no table: fast enough to go one trick
  deeper than the first.

Rule sources (as in :mod:`aluette.scoring`): the rules sheet, "scoring" (most tricks by a single player scores;
a tie goes to whoever reached the number first; mordienne scores 2) and "gameplay" (a tie for the best class spoils
the trick, its leader leads again); pagat.com (mordienne, surrender: a refusing side must make mordienne, Rebour);
the project's decisions ``all-nine-spoiled``, ``mordienne-spoiled-breaks-run``, ``mordienne-spoiled-counts-before``,
``one-trick-run-mordienne``, ``all-nine-not-mordienne``, ``surrender-refused-all-spoiled``,
``surrender-between-tricks`` (:mod:`aluette.decisions`).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import aluette
from aluette import (AluetteError, Deal, Options, Phase, Play, SearchBudgetError, Seat, Team, UnknownSeatError,
                     WrongPhaseError, solve)
from aluette.analysis import _kernel, can_make_mordienne, solver
from aluette.scenario import scenario_deal, scenario_from_json, scenario_to_json
from aluette.scoring import score_deal, score_tricks
from aluette.tricks import best_of

# Every combination of the options that change the score of a played deal: mordienne on/off; a surrender refused
# before the first trick (or none); Rebour's second form (announced mordiennes only); the surrender question between
# tricks (decision surrender-between-tricks), declined in the random play.
OPTION_SETS = {
    "plain": (Options(chant=False), "none"),
    "no-mordienne": (Options(chant=False, mordienne=False), "none"),
    "chant": (Options(), "none"),
    "refused-NS": (Options(chant=False, surrender=True), "NS"),
    "refused-EW": (Options(chant=False, surrender=True), "EW"),
    "rebour-announced": (Options(chant=False, rebour="only_announced"), "none"),
    "between-tricks": (Options(chant=False, surrender=True, surrender_until="last_trick"), "none"),
}


def points(deal_or_result) -> int:
    """N-S points minus E-W points of a finished deal (or its result)."""
    result = deal_or_result.result if isinstance(deal_or_result, Deal) else deal_or_result
    return result.points[Team.NS] - result.points[Team.EW]


def answer_questions(deal: Deal, rng: np.random.Generator, refused_by: str) -> None:
    """Answer whatever the deal asks before a card: the chant (agreed half the time; the suggested discards), the
    surrender (offered by ``refused_by``'s speaker and refused, or not offered), Rebour's announcements (at random)."""
    while not deal.is_over and deal.phase is not Phase.PLAY:
        seat = deal.to_move
        if deal.phase is Phase.CHANT:
            deal.answer_chant(seat, bool(rng.integers(2)))
        elif deal.phase is Phase.DISCARD:
            deal.discard(seat, deal.suggested_discard(seat))
        elif deal.phase is Phase.SURRENDER:
            moves = deal.legal_moves()
            if type(moves[0]).__name__ == "SurrenderAnswer":
                deal.answer_surrender(seat, False)
            else:
                deal.offer_surrender(seat, refused_by != "none" and seat.team == refused_by and not deal.tricks)
        elif deal.phase is Phase.ANNOUNCE:
            deal.announce_mordienne(seat, bool(rng.integers(2)))


def random_position(seed: int, options: Options, refused_by: str, tricks_left: int, cards_in: int,
                    mixed: bool = False) -> Deal:
    """A deal of ``seed`` played at random (seeded) until ``tricks_left`` tricks are left and ``cards_in`` cards of
    the next trick are down; ``mixed``: each card the highest, the lowest or a random one (runs of tricks, so
    mordienne, come up more often than in uniform play)."""
    rng = np.random.default_rng(seed)
    deal = Deal.from_seed(seed, dealer=Seat("NESW"[seed % 4]), options=options)
    while True:
        answer_questions(deal, rng, refused_by)
        if len(deal.tricks) == 9 - tricks_left and len(deal.current_trick) == cards_in:
            return deal
        size = len(deal.legal_cards())
        if mixed and rng.random() < 0.7:
            deal.play_index(0 if rng.random() < 0.5 else size - 1)
        else:
            deal.play_index(int(rng.integers(size)))


def naive_deal_value(deal: Deal) -> int:
    """Plain minimax over every legal card, through Deal: N-S maximise, E-W minimise (the surrender question
    between tricks answered "no offer", as the solver assumes)."""
    rng = None
    if deal.phase is Phase.SURRENDER:
        deal = deal.copy()
        answer_questions(deal, rng, "none")
    if deal.is_over:
        return points(deal)
    values = []
    for card in deal.legal_cards():
        child = deal.copy()
        child.play(deal.to_move, card)
        values.append(naive_deal_value(child))
    return max(values) if deal.to_move.team is Team.NS else min(values)


def naive_class_value(deal: Deal) -> int:
    """Plain minimax over the distinct classes of each hand, tricks decided by best_of, leaves scored by
    score_deal with the deal's options, announcements and surrender."""
    view = deal.view(None, events=False)
    options = view.options
    announced = ({s for s, said in view.announcements if said} if options.rebour.value == "only_announced"
                 else None)
    surrender = dict(surrendered_by=view.surrender_by, surrender_accepted=view.surrender_accepted)
    hands = {seat: [card.strength for card in view.hands[seat]] for seat in Seat}
    outcomes = list(deal.outcomes)

    def value(leader, trick):
        if len(outcomes) == 9:
            return points(score_deal(tuple(outcomes), mordienne=options.mordienne, announced=announced, **surrender))
        seat = leader
        for _ in trick:
            seat = seat.left
        results = []
        for s in sorted(set(hands[seat])):
            hands[seat].remove(s)
            plays = trick + [(seat, s)]
            if len(plays) == 4:
                winner = best_of([(who, _Strength(x)) for who, x in plays])
                outcomes.append(winner)
                results.append(value(leader if winner is None else winner, []))
                outcomes.pop()
            else:
                results.append(value(leader, plays))
            hands[seat].append(s)
        return max(results) if seat.team is Team.NS else min(results)

    return value(deal.leader, [(seat, card.strength) for seat, card in deal.current_trick])


class _Strength:
    """A stand-in card for best_of, which reads only ``strength``."""

    __slots__ = ("strength",)

    def __init__(self, strength):
        self.strength = strength


def positions(count: int, tricks_left: int, cards_in_choices=(0, 1, 2, 3), base: int = 0, mixed: bool = False):
    """``count`` seeded positions per option set: (name, deal)."""
    for name, (options, refused_by) in OPTION_SETS.items():
        for k in range(count):
            seed = base + 1000 * tricks_left + k
            cards_in = cards_in_choices[k % len(cards_in_choices)]
            yield name, random_position(seed, options, refused_by, tricks_left, cards_in, mixed)


def replay(deal: Deal, line) -> Deal:
    """A copy of ``deal`` with the line applied move by move (each move checked by the deal)."""
    copy = deal.copy()
    for move in line:
        copy.apply(move)
    return copy


def snapshot(deal: Deal):
    """Everything observable of a deal, to prove the solver left it as it was."""
    return (deal.to_json(), str(deal), deal.phase, deal.to_move, deal.moves, deal.legal_cards(), deal.notation)


class TestAgainstNaiveMinimax:
    def test_every_card_through_deal(self):
        # 7 option sets x 36 positions with up to 2 tricks left (every card, through Deal), and 7 x 3 with three
        # tricks left and the trick under way: 273 positions, and the value of every card of by_card too
        checked = 0
        for tricks_left, count, cards_in in ((1, 12, (0, 1, 2, 3)), (2, 24, (0, 1, 2, 3)), (3, 3, (2, 3))):
            for name, deal in positions(count, tricks_left, cards_in):
                solution = solve(deal)
                assert solution.value == naive_deal_value(deal), (name, str(deal))
                for card, value in solution.by_card.items():
                    child = deal.copy()
                    child.play(deal.to_move, card)
                    assert value == naive_deal_value(child), (name, str(deal), card)
                checked += 1
        assert checked == len(OPTION_SETS) * (12 + 24 + 3)

    def test_classes_three_and_four_tricks_left(self):
        # the class-level reference one trick deeper: 7 option sets x 12 positions with three tricks left and
        # 7 x 2 with four tricks left (the trick under way): 98 positions
        checked = 0
        for tricks_left, count, cards_in in ((3, 12, (0, 1, 2, 3)), (4, 2, (3,))):
            for name, deal in positions(count, tricks_left, cards_in, base=7):
                assert solve(deal).value == naive_class_value(deal), (name, str(deal))
                checked += 1
        assert checked == len(OPTION_SETS) * (12 + 2)


class TestLine:
    def test_line_replays_to_its_value(self):
        # every principal variation is accepted move by move and ends with the stated score (score_deal's, through
        # the deal), from positions four tricks from the end, every option set
        for name, deal in positions(4, 4, (0, 2), base=99, mixed=True):
            solution = solve(deal)
            end = replay(deal, solution.line)
            assert end.is_over and points(end) == solution.value, (name, str(deal))
            assert solution.line[0] == Play(deal.to_move, solution.line[0].card)
            assert solution.by_card[solution.line[0].card] == solution.value

    def test_between_tricks_line_answers_no_offer(self):
        # decision surrender-between-tricks: the question is put before every trick; the line answers it "no offer"
        options, _ = OPTION_SETS["between-tricks"]
        deal = random_position(5, options, "none", 4, 0)
        line = solve(deal).line
        kinds = [type(m).__name__ for m in line]
        assert kinds.count("SurrenderOffer") == 2 * 3 and kinds.count("Play") == 16
        assert replay(deal, line).is_over


# Every variant of the options the engine has, for the lines: OPTION_SETS and the ones that change no score of the
# play (Rebour's first form, the chant to the dealer's left and partner), with the chant on and off.
LINE_OPTION_SETS = {
    **OPTION_SETS,
    "rebour-first-form": (Options(chant=False, rebour="announced"), "none"),
    "chant-left-and-partner": (Options(chant_recipients="left_and_partner"), "none"),
    "chant-refused-EW": (Options(surrender=True), "EW"),
    "chant-between-tricks": (Options(surrender=True, surrender_until="last_trick"), "none"),
}

#: bench_expert's deal 157 (dealer E), the sample on which the first compiled solver (b74719a) raised "no card keeps
#: the value": the hands at the first lead and the 15 cards played (S to move, the fourth card of trick 4).
DEAL_157 = ({"N": "3O 9C 2E 1E 8C 11E 12O 8B 8E", "E": "2O 2C 2B 12C 7C 1C 7E 10E 11O",
             "S": "3C 1O 12E 10C 10B 9E 7B 9B 11C", "W": "12B 7O 4O 4C 3B 10O 11B 1B 4E"},
            "S 7B, W 10O, N 11E, E 1C, E 7E, S 9B, W 11B, N 12O, N 8B, E 10E, S 11C, W 1B, W 4E, N 8E, E 11O")


def kernel_state(hands, leader=0, counts=(0, 0, 0, 0), last=(-1, -1, -1, -1), alive=-1):
    """The solver's integer state of a trick boundary: ``hands`` as four tuples of strengths (N, E, S, W)."""
    return (tuple(tuple(h) for h in hands), leader, 0, 0, -1, tuple(counts), tuple(last), alive)


class TestLinesEverywhere:
    def test_deal_157(self):
        # the position the "no card keeps the value" failure was seen on: its line replays to the value, and each
        # card's value is the value of the position after it
        hands, plays = DEAL_157
        deal = Deal.from_hands(hands, dealer="E", options=Options(chant=False))
        for play in plays.split(", "):
            deal.play(*play.split())
        solution = solve(deal)
        assert points(replay(deal, solution.line)) == solution.value
        for card, value in solution.by_card.items():
            child = deal.copy()
            child.play(deal.to_move, card)
            assert solve(child).value == value, card

    def test_signature_counts_every_card_of_a_merged_group(self):
        # the cause of that failure: the first compiled kernel summed a seat's cards of a merged group (neighbouring
        # classes only that seat holds) only down to the first class nobody holds, so positions that differ below
        # such a gap shared a table entry and its bounds. N's 19 17 with nobody holding 18 is one group of two.
        kernel = _kernel.Kernel(((1, 2), (-1, -2), (1, 2), (-1, -2)), 0, (True,) * 4, 1000, bits=8)
        rest = ((16, 10, 9), (8, 7, 6), (5, 4, 3))
        a = kernel.signature(kernel_state(((19, 17, 15),) + rest, counts=(2, 2, 1, 1), last=(0, 3, 4, 5)))
        b = kernel.signature(kernel_state(((19, 15, 13),) + rest, counts=(2, 2, 1, 1), last=(0, 3, 4, 5)))
        assert a != b  # N holds two cards above E's 16 in one, one in the other
        same = kernel.signature(kernel_state(((19, 18, 15),) + rest, counts=(2, 2, 1, 1), last=(0, 3, 4, 5)))
        assert same == a  # 19 18 and 19 17 (nobody holds 18) are the same choice
        shifted = kernel.signature(kernel_state(((18, 17, 14),) + ((15, 10, 9),) + rest[1:], counts=(2, 2, 1, 1),
                                                last=(0, 3, 4, 5)))
        assert shifted == a  # only the order of the cards still out counts

    def test_root_groups_share_a_value(self):
        # classes of the seat to move that nothing still out separates are one choice (valued once by solve); the
        # best card on the table separates too (playing above it, on it or below it differ)
        rest = ((16, 10, 9), (8, 7, 6), (5, 4, 3))
        assert solver._equivalent(kernel_state(((19, 17, 15),) + rest)) == {19: 19, 17: 19, 15: 15}
        table = ((19, 17, 15),) + rest
        assert solver._equivalent((table, 3, 1, 18, 3, (0,) * 4, (-1,) * 4, -1)) == {19: 19, 17: 17, 15: 15}
        merged = 0
        for name, deal in positions(3, 3, (0, 1), base=800, mixed=True):
            solution = solve(deal)
            state = solver._root(deal.view(None, events=False))
            same = solver._equivalent(state)
            merged += sum(1 for c, head in same.items() if c != head)
            for card, value in solution.by_card.items():  # each card's value is the position's after it
                child = deal.copy()
                child.play(deal.to_move, card)
                assert solve(child).value == value, (name, card)
        assert merged > 0

    def test_every_option_variant_many_positions(self):
        # the lines of 11 option variants x 12 seeded positions (dealers rotated, 3 to 5 tricks left, 0 to 3 cards
        # of the trick down, mixed play so that runs and spoiled tricks come up): each replays through Deal to its
        # value and starts with a best card
        checked = 0
        for name, (options, refused_by) in LINE_OPTION_SETS.items():
            for k in range(12):
                seed = 4000 + 17 * k
                deal = random_position(seed, options, refused_by, 3 + k % 3, k % 4, mixed=k % 2 == 0)
                solution = solve(deal)
                end = replay(deal, solution.line)
                assert end.is_over and points(end) == solution.value, (name, seed, str(deal))
                assert solution.by_card[solution.line[0].card] == solution.value
                checked += 1
        assert checked == 12 * len(LINE_OPTION_SETS)


STANDARD = (((1, 2), (-1, -2), (1, 2), (-1, -2)), 0, (True,) * 4)  # payoff, none, capable: the plain scoring
#: the scorings the random-boundary tests run under, as the kernel takes them (payoff, none, capable)
SCORINGS = {"plain": STANDARD, "no-mordienne": (STANDARD[0], 0, (False,) * 4),
            # N-S offered to surrender and E-W refused: E-W score 2 with a mordienne, else N-S score 2
            "refused-by-EW": (((2, 2), (2, -2), (2, 2), (2, -2)), 2, (True,) * 4)}


def state_after(prefix: str, hands, leader):
    """The kernel state of a trick boundary after the tricks ``prefix`` (pagat's notation, 'X' spoiled), worked out
    from the rules sheet here: each seat's tricks, the trick of its last win, and the seat whose run is still
    mordienne-capable (its wins one unbroken run up to now, that started after the first trick)."""
    counts, last = [0, 0, 0, 0], [-1, -1, -1, -1]
    for t, letter in enumerate(prefix):
        if letter != "X":
            k = "NESW".index(letter)
            counts[k] += 1
            last[k] = t
    alive = -1
    if prefix and prefix[-1] != "X":
        k = "NESW".index(prefix[-1])
        first = prefix.index(prefix[-1])
        if first > 0 and prefix[first:] == prefix[-1] * (len(prefix) - first):
            alive = k
    return kernel_state(hands, leader, counts, last, alive)


def naive_state_value(prefix: str, hands, leader: int, scoring=None) -> int:
    """Plain minimax over the classes of the four hands from a trick boundary, each trick decided by best_of and
    the nine tricks scored by score_tricks (the plain options; or, with ``scoring`` = (payoff, none, capable) as
    the kernel takes them, score_tricks's winner and mordienne looked up in that table): no bounds; each trick
    boundary's exact value is remembered (the same hands, tricks and leader reached twice are one value)."""
    hands = [list(h) for h in hands]
    outcomes = list(prefix)
    known = {}

    def value(leader, plays):
        if not plays:
            key = ("".join(outcomes), leader, tuple(tuple(sorted(h)) for h in hands))
            if key not in known:
                known[key] = play(leader, plays)
            return known[key]
        return play(leader, plays)

    def play(leader, plays):
        if len(outcomes) == 9:
            score = score_tricks("".join(outcomes))
            if scoring is not None:
                payoff, none, capable = scoring
                if score.winner is None:
                    return none
                w = "NESW".index(str(score.winner))
                return payoff[w][int(score.mordienne and capable[w])]
            return 0 if score.team is None else (score.points if score.team is Team.NS else -score.points)
        seat = (leader + len(plays)) & 3
        results = []
        for c in sorted(set(hands[seat])):
            hands[seat].remove(c)
            trick = plays + [(seat, c)]
            if len(trick) == 4:
                winner = best_of([(who, _Strength(x)) for who, x in trick])
                outcomes.append("X" if winner is None else "NESW"[winner])
                results.append(value(leader if winner is None else winner, []))
                outcomes.pop()
            else:
                results.append(value(leader, trick))
            hands[seat].append(c)
        return max(results) if seat % 2 == 0 else min(results)

    return value(leader, [])


def check_bounds(k: int, prefix: str, hands, leader: int):
    """Check the static bounds of a boundary (``hands``: any sequences of classes) against the naive minimax under
    the ``k``-th of SCORINGS (taken in turn); the kernel, its work array holding the boundary, and the state."""
    hands = tuple(tuple(sorted(map(int, h), reverse=True)) for h in hands)
    name = list(SCORINGS)[k % 3]
    payoff, none, capable = SCORINGS[name]
    kernel = _kernel.Kernel(payoff, none, capable, 1000, bits=8)
    state = state_after(prefix, hands, leader)
    lo, hi = kernel.bounds(state)
    value = naive_state_value(prefix, hands, leader, scoring=(payoff, none, capable))
    assert lo <= value <= hi, (name, k, prefix, hands, leader, lo, hi, value)
    return kernel, state


class TestBounds:
    def test_bounds_hold_the_value(self):
        # the static bounds of a boundary (tricks nobody can catch up on, the ninth trick, sure tricks) never
        # exclude the value: 7 option sets x 10 positions with two or three tricks left, against the naive minimax
        checked = 0
        for tricks_left in (2, 3):
            for name, deal in positions(10, tricks_left, (0,), base=500, mixed=True):
                view = deal.view(None, events=False)
                if view.phase is not Phase.PLAY or view.trick:
                    continue  # the surrender question between tricks: the position is the same after it
                payoff, none, capable = solver._scoring(view)
                kernel = _kernel.Kernel(payoff, none, capable, 1000, bits=8)
                lo, hi = kernel.bounds(solver._root(view))
                value = naive_class_value(deal)
                assert lo <= value <= hi, (name, str(deal), lo, hi, value)
                checked += 1
        assert checked >= 100

    def test_sure_tricks_decide_the_deal(self):
        # Three tricks left after EWENNE: E has 3 tricks, N 2, W 1. E could still win all three (6 > 2), so the
        # count of tricks left alone decides nothing. But N holds 19 18 17, each stronger than every card of E and
        # W (16, 15 at best): N wins a trick with each, whatever anyone plays, so N ends with 5 and E with 3 at
        # most: N-S win, the value is at least 1 before any search.
        prefix = "EWENNE"
        hands = ((19, 18, 17), (16, 5, 4), (3, 2, 1), (15, 7, 6))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        lo, hi = kernel.bounds(state_after(prefix, hands, 1))
        assert lo >= 1 and lo <= naive_state_value(prefix, hands, 1) <= hi
        # and the mirror: E-W hold the three strongest cards, E-W win (the value is at most -1)
        mirror = ((16, 5, 4), (19, 18, 17), (15, 7, 6), (3, 2, 1))
        lo, hi = kernel.bounds(state_after("NSNEEN", mirror, 0))
        assert hi <= -1 and lo <= naive_state_value("NSNEEN", mirror, 0) <= hi
        # with W holding the 17 instead, N has two sure tricks: 4 for N, and E may reach 4 too: nothing decided
        swapped = ((19, 18, 15), (16, 5, 4), (3, 2, 1), (17, 7, 6))
        lo, hi = kernel.bounds(state_after(prefix, swapped, 1))
        assert lo == -1 and lo <= naive_state_value(prefix, swapped, 1) <= hi

    def test_sure_tricks_count_the_opponents_cards_that_can_stop_them(self):
        # Three tricks left after NENEWS: N and E have 2 tricks, W and S 1. N holds 19 17 16; W's 18 is the only
        # card of E-W that beats or ties any of them. Each of N's three cards is played to a trick of its own; W's 18
        # can stop one of them (rules sheet, "gameplay": the strongest card wins, a tie spoils), so N wins at least
        # two and ends with 4 tricks, E with 3 at most: N-S win, the value is at least 1 before any search. Counting
        # only the cards stronger than all of E-W's (the 19 alone), N would have 3 and E could reach 4.
        prefix = "NENEWS"
        hands = ((19, 17, 16), (5, 4, 3), (8, 2, 1), (18, 7, 6))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        lo, hi = kernel.bounds(state_after(prefix, hands, 3))
        assert lo >= 1 and lo <= naive_state_value(prefix, hands, 3) <= hi
        # with E holding a 17 too, two cards can stop N's three: N is sure of one trick only (its 19), E or W may
        # still win the deal, though not with mordienne (both have a trick before any run)
        stopped = ((19, 17, 16), (17, 4, 3), (8, 2, 1), (18, 7, 6))
        lo, hi = kernel.bounds(state_after(prefix, stopped, 3))
        assert lo == -1 and lo <= naive_state_value(prefix, stopped, 3) <= hi

    def test_two_kept_cards_stop_a_run_that_needs_more_cards_above_them(self):
        # Three tricks left after XEXEEW: E has 3 tricks, W 1 and W's run is alive (it won the last trick, and a
        # trick came before: rules sheet, "scoring"; pagat.com). W beats E only by winning all three tricks left, a
        # mordienne. W holds the 19, stronger than every card of N-S, so keeping their strongest card for the ninth
        # trick does not stop it. But W would lead each of the three tricks, and only its 19 is above N's 18: when W
        # leads its 12 or its 6, N beats it with the 18 (the strongest card wins: rules sheet, "gameplay"), and W's
        # run is broken.
        # So E-W cannot make mordienne: the value is at least -1 before any search (E wins the deal with its three
        # tricks, -1, with best play).
        hands = ((18, 11, 9), (16, 10, 2), (7, 5, 4), (19, 12, 6))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        lo, hi = kernel.bounds(state_after("XEXEEW", hands, 3))
        assert lo == -1 and lo <= naive_state_value("XEXEEW", hands, 3) <= hi
        # with W holding 19 18 17, all above N-S's strongest (N's 16), W's three leads stay above every card N-S
        # keep: it may be mordienne, and it is
        strong = ((16, 11, 9), (15, 10, 2), (7, 5, 4), (19, 18, 17))
        lo, hi = kernel.bounds(state_after("XEXEEW", strong, 3))
        assert lo == -2 == naive_state_value("XEXEEW", strong, 3)

    def test_a_seat_that_ties_the_leader_late_does_not_win(self):
        # Three tricks left after WSENNN: N has 3 tricks, reached at the sixth; E, S and W 1 each. "If there is a
        # tie for the most tricks won, whoever got that number first wins the point" (rules sheet, "scoring"): E
        # winning two of the three would tie N at 3, reached later, so E needs all three, and would lead the last
        # two: with one card above N-S's 10s, a 9 it leads is beaten or tied by a 10. W and S can only tie N as
        # well. E's 18 beats N's strongest card, so N's run cannot be sure of the ninth trick: N wins without
        # mordienne, decided before any search.
        hands = ((10, 8, 6), (18, 9, 9), (10, 6, 6), (7, 6, 4))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        lo, hi = kernel.bounds(state_after("WSENNN", hands, 0))
        assert lo == hi == 1 == naive_state_value("WSENNN", hands, 0)

    def test_sure_tricks_and_a_tie_reached_last(self):
        # Three tricks left after SESSNE: S has 3 tricks, E 2, N 1, W none. N's 19 and 18 beat every card of E-W
        # (rules sheet, "gameplay": the strongest card wins), so N-S win two of the three tricks left and E-W one at
        # most: E can reach 3, as many as S, but S reached 3 first and a tie goes to whoever got that number first
        # (rules sheet, "scoring"). N-S win; S's and N's runs are broken, so no mordienne: the value is 1 before any
        # search.
        hands = ((19, 18, 3), (12, 8, 2), (15, 13, 7), (16, 14, 4))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        lo, hi = kernel.bounds(state_after("SESSNE", hands, 1))
        assert lo == hi == 1 == naive_state_value("SESSNE", hands, 1)

    def test_a_sweep_is_mordienne(self):
        # Two tricks left after WSEXNNN: N won the last three tricks after tricks it did not win, so its run is
        # alive. N's 19 and 17 are above every card of E-W (16 at best), and S can play its 18 under the 19 and its
        # 2 under the 17: N wins both tricks whatever anyone plays, a run of five that ends with the ninth trick,
        # mordienne (rules sheet, "scoring"; pagat.com): the value is 2 before any search.
        hands = ((19, 17), (9, 4), (18, 2), (16, 5))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        lo, hi = kernel.bounds(state_after("WSEXNNN", hands, 0))
        assert lo == hi == 2 == naive_state_value("WSEXNNN", hands, 0)
        # with S's 17 for its 2, S has no card to play under N's 17 but a 17, which ties it and spoils the trick (a
        # tie for the strongest card spoils it: rules sheet, "gameplay"): no sure sweep, and indeed no mordienne
        tied = ((19, 17), (9, 4), (18, 17), (16, 5))
        lo, hi = kernel.bounds(state_after("WSEXNNN", tied, 0))
        assert lo == 1 == naive_state_value("WSEXNNN", tied, 0)

    def test_a_later_run_of_every_trick_left_but_one(self):
        # Four tricks left after WWSXX: W has 2 tricks, S 1, N and E none. E holds 18 14 12, each above every card of
        # N-S (N's 11 at best), and an 8. E plays the 8 to the next trick and wins the last three with the others
        # whatever anyone plays (the strongest card wins, a tie spoils: rules sheet, "gameplay"), W playing under
        # them; W plays its 3 to the next trick, which cannot beat E's 8. Whoever takes that trick, E ends with a
        # run of three tricks or four that ends with the ninth; N and S end with 2 at most, W with 2: E wins with
        # mordienne (rules sheet, "scoring"; pagat.com), -2 before any search. Before this bound the static bounds
        # left -1 open.
        hands = ((11, 9, 8, 6), (18, 14, 12, 8), (7, 5, 4, 3), (8, 7, 5, 3))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        assert kernel.bounds(state_after("WWSXX", hands, 2)) == (-2, -2) == (naive_state_value("WWSXX", hands, 2),) * 2
        # W holding 10 10 9 9 has no card under E's 8: W may have to take the next trick and reach 3 tricks first,
        # so E's three would only tie it (a tie goes to whoever got that number first: rules sheet, "scoring"):
        # nothing sure, and indeed N-S can prevent the mordienne (W wins the deal)
        stuck = ((11, 9, 8, 6), (18, 14, 12, 8), (7, 5, 4, 3), (10, 10, 9, 9))
        lo, hi = kernel.bounds(state_after("WWSXX", stuck, 2))
        assert (lo, hi) == (-2, -1) and naive_state_value("WWSXX", stuck, 2) == -1
        # Four tricks left after XWXXX: W has 1 trick, nobody else any. E holds 15 13 10 above N-S's 9s and a 7, but
        # W's 19 and 16 are above every card of E: W can play only one of them to the next trick, and the other beats
        # E's card in a trick of E's run. No sure run (a review found that this case, the partner's placing at four
        # tricks left, was not tested); E-W win without mordienne.
        above = ((9, 9, 6, 4), (15, 13, 10, 7), (5, 3, 3, 2), (19, 16, 11, 4))
        lo, hi = kernel.bounds(state_after("XWXXX", above, 0))
        assert (lo, hi) == (-2, -1) and naive_state_value("XWXXX", above, 0) == -1

    def test_covers_hold_a_seat_below_the_tricks_another_seat_has(self):
        # Four tricks left after WWEES: W and E have 2 tricks each, S 1, N none; S leads. N holds two of the three
        # strongest cards (19, 18) and could still take four. But let E play 17 16 8 3 in that order and W 2 11
        # 13 19: each trick then holds a card of theirs of 13 or more (17, 16, 13, 19), so N takes at most the two
        # it plays 19 or 18 to (a tie with W's 19 spoils: rules sheet, "gameplay"), reaching two tricks after E and
        # W (a tie goes to whoever reached the number first: rules sheet, "scoring"); S's cards (13 at best) take
        # none. N-S cannot win the deal whatever they play: -1 before any search, where the other bounds left 1.
        hands = ((19, 18, 6, 4), (17, 16, 8, 3), (13, 13, 12, 10), (19, 13, 11, 2))
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        state = state_after("WWEES", hands, 2)
        assert kernel.bounds(state) == (-1, -1) == (naive_state_value("WWEES", hands, 2),) * 2
        # the cover counts: N at most 2 (its 19 and 18), S none
        assert [_kernel._cap(kernel.W, s, 4, 4) for s in (0, 2)] == [2, 0]
        # with N's 6 a 14, above W's 13 in the third trick, N takes three tricks against that play and wins: the
        # covers leave N-S's win open (E-W still win with better play, which only the search finds)
        stronger = ((19, 18, 14, 4), (17, 16, 8, 3), (13, 13, 12, 10), (19, 13, 11, 2))
        assert kernel.bounds(state_after("WWEES", stronger, 2)) == (-1, 1)
        assert _kernel._cap(kernel.W, 0, 4, 4) == 3 and naive_state_value("WWEES", stronger, 2) == -1
        # Held to no trick more is not held below: after NEXXXX, N and E have a trick each, N's first. E's 5s cover
        # N's 2s in every trick left, but S ties each 5 with its own, so all three are spoiled and N wins the deal
        # on the tie, which N reached first
        level = ((2, 2, 2), (5, 5, 5), (5, 5, 5), (1, 1, 1))
        lo, hi = kernel.bounds(state_after("NEXXXX", level, 0))
        assert _kernel._cap(kernel.W, 0, 3, 3) == 0 and lo <= naive_state_value("NEXXXX", level, 0) == 1 <= hi

    def test_the_cover_count_is_the_most_tricks_against_that_play(self):
        # _cap against a count by brute force: one opponent plays its cards strongest first, the other weakest
        # first, and the seat tries every order of its own cards (its partner aside: only the opponents' cards
        # can stop it); 300 random hands of four cards
        rng = np.random.default_rng(34)
        for _ in range(300):
            hands = tuple(tuple(sorted(map(int, rng.integers(1, 20, size=4)), reverse=True)) for _ in range(4))
            kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
            kernel.bounds(state_after("XXXXX", hands, 0))
            for s in range(4):
                first, second = hands[(s + 1) & 3], hands[(s + 3) & 3][::-1]
                stops = [max(a, b) for a, b in zip(first, second)]
                most = max(sum(c > x for c, x in zip(order, stops)) for order in itertools.permutations(hands[s]))
                assert _kernel._cap(kernel.W, s, 4, 4) == most, (hands, s)

    def test_covers_on_random_hands(self):
        # the bounds with covers against the naive minimax on 300 random boundaries with three tricks left, built so
        # that covers often apply (a seat with no trick or one, and weak cards; its opponents with tricks and
        # strong cards): they never exclude the value, under each of SCORINGS
        rng = np.random.default_rng(35)
        applied = 0
        for k in range(300):
            s = int(rng.integers(4))
            letters = ["NESW"[(s + 1) & 3], "NESW"[(s + 3) & 3], "X"] + (["NESW"[s]] if k % 3 == 0 else [])
            prefix = "".join(rng.choice(letters, size=6))
            hands = [None] * 4
            hands[s] = rng.integers(1, int(rng.integers(8, 20)), size=3)
            for q in ((s + 1) & 3, (s + 3) & 3):
                hands[q] = rng.integers(int(rng.integers(1, 12)), 20, size=3)
            hands[(s + 2) & 3] = rng.integers(1, 20, size=3)
            leader = int(rng.integers(4)) if prefix[-1] == "X" else "NESW".index(prefix[-1])
            kernel, state = check_bounds(k, prefix, hands, leader)
            counts = state[5]
            most = max(counts[(s + 1) & 3], counts[(s + 3) & 3])
            applied += counts[s] + _kernel._cap(kernel.W, s, 3, 3) < most
        assert applied >= 30, applied  # the shapes the bound is for are there

    def test_later_runs_on_random_hands(self):
        # the later-run bound against the naive minimax on 300 random boundaries with three tricks left, built so
        # that it often applies (a seat with no trick and two strong cards, opponents with few tricks): it never
        # excludes the value, under each of SCORINGS
        rng = np.random.default_rng(33)
        applied = 0
        for k in range(300):
            s = int(rng.integers(4))
            # half the time only the partner and spoiled tricks before: the opponents have no trick
            letters = ["NESW"[(s + 2) & 3]] + ["X"] * 4 if k % 4 < 2 else [c for c in "NESWX" if c != "NESW"[s]]
            prefix = "".join(rng.choice(letters, size=6))
            hands = [None] * 4
            hands[s] = [*rng.integers(10, 20, size=2), rng.integers(1, 6)]
            for q in ((s + 1) & 3, (s + 3) & 3):
                hands[q] = rng.integers(1, int(rng.integers(5, 16)), size=3)
            hands[(s + 2) & 3] = rng.integers(1, 20 if k % 2 else 12, size=3)
            leader = int(rng.integers(4)) if prefix[-1] == "X" else "NESW".index(prefix[-1])
            kernel, _ = check_bounds(k, prefix, hands, leader)
            applied += any(_kernel._later_run(kernel.W, q, 3) for q in range(4))
        assert applied >= 30, applied  # the shapes the bound is for are there

    def test_bounds_hold_on_random_hands(self):
        # the bounds against the naive minimax on 400 random boundaries with two or three tricks left: random
        # earlier tricks (pagat's notation, spoiled ones too), random classes (repeats allowed) and each scoring
        # (plain, mordienne off, a surrender refused by E-W): shapes real deals rarely reach
        rng = np.random.default_rng(18)
        for k in range(400):
            r = 2 + k % 2
            prefix = "".join(rng.choice(list("NESWX"), size=9 - r))
            cards = rng.integers(1, 20, size=4 * r)
            hands = [cards[r * i:r * i + r] for i in range(4)]
            leader = int(rng.integers(4)) if prefix[-1] == "X" else "NESW".index(prefix[-1])
            check_bounds(k, prefix, hands, leader)

    def test_two_tricks_left_are_played_out_exactly(self):
        # with two tricks left the search plays every choice out (_two_left, no bounds, no table): its value against
        # the naive minimax on 300 random boundaries, whole window and each null window (a test "at least b?"
        # answers yes exactly when the value is at least b), under SCORINGS; every
        # other boundary has a run that can still be mordienne (its seat's only wins, the last three tricks), which
        # a spoiled eighth trick breaks (decision mordienne-spoiled-breaks-run, aluette/decisions.py)
        rng = np.random.default_rng(29)
        for k in range(300):
            prefix = "".join(rng.choice(list("NESWX"), size=7))
            if k % 2:
                runner = str(rng.choice(list("NESW")))
                prefix = "".join(rng.choice([c for c in "NESWX" if c != runner], size=4)) + runner * 3
            cards = rng.integers(1, 20, size=8)
            hands = tuple(tuple(sorted(map(int, cards[2 * i:2 * i + 2]), reverse=True)) for i in range(4))
            leader = int(rng.integers(4)) if prefix[-1] == "X" else "NESW".index(prefix[-1])
            name = list(SCORINGS)[k % 3]
            payoff, none, capable = SCORINGS[name]
            kernel = _kernel.Kernel(payoff, none, capable, 1000, bits=8)
            state = state_after(prefix, hands, leader)
            value = naive_state_value(prefix, hands, leader, scoring=(payoff, none, capable))
            assert kernel.value(state, -99, 99) == value, (name, prefix, hands, leader)
            for b in range(-2, 3):
                assert (kernel.value(state, b - 1, b) >= b) == (value >= b), (name, prefix, hands, leader, b)

    def test_a_seat_out_of_the_running_is_keyed_as_out(self):
        # with three tricks left, a seat whose tricks plus three reach at most another seat's (reached first) can no
        # longer win: its own count, last win and run change nothing of the value, so those positions share a
        # table entry; a seat still in the running keeps its count in the key.
        kernel = _kernel.Kernel(*STANDARD, 1000, bits=8)
        hands = ((19, 10, 5), (18, 9, 4), (17, 8, 3), (16, 7, 2))
        def led_by_e(state):
            return state[:1] + (1,) + state[2:]

        a = led_by_e(state_after("NNNENS", hands, 2))  # N 4, E 1, S 1: E, S and W are out
        b = led_by_e(state_after("NNNSNW", hands, 3))  # N 4, S 1, W 1: the same seats out, other counts
        assert kernel.signature(a) == kernel.signature(b)
        assert naive_state_value("NNNENS", hands, 1) == naive_state_value("NNNSNW", hands, 1)
        c = led_by_e(state_after("NNNNEE", hands, 1))  # N 4, E 2: E can still reach 5
        assert kernel.signature(a) != kernel.signature(c)


class TestEndOfDeal:
    def test_finished_deal_is_its_result(self):
        # at the end of a deal the solver's value is score_deal's (the deal's own result), for every option set
        for name, deal in positions(5, 1, (3,), base=5):
            card = deal.legal_cards()[0]
            before = solve(deal).by_card[card]
            deal.play(deal.to_move, card)
            assert solve(deal).value == points(deal.result) == before, name
            assert solve(deal).by_card == {} and solve(deal).line == () and solve(deal).to_move is None

    def test_accepted_surrender(self):
        # pagat.com: an accepted surrender ends the deal, the accepting side scores 1
        deal = Deal.from_seed(4, options=Options(chant=False, surrender=True))
        deal.offer_surrender(deal.to_move, True)
        deal.answer_surrender(deal.to_move, True)
        assert solve(deal).value == points(deal) == (1 if deal.result.points[Team.NS] else -1)

    def all_spoiled_deal(self, options) -> Deal:
        # every seat holds one card of each of the nine four-card classes, so any trick where all play one class is
        # spoiled; eight such tricks leave one four of each seat: the ninth is spoiled whatever is played
        codes = ("1", "12", "11", "10", "8", "7", "6", "5", "4")
        hands = {seat: " ".join(c + suit for c in codes) for seat, suit in zip("NESW", "OCBE")}
        deal = Deal.from_hands(hands, dealer="W", options=options)
        answer_questions(deal, None, "EW" if options.surrender else "none")
        for code in codes[:8]:
            for _ in range(4):
                seat = deal.to_move
                deal.play(seat, next(c for c in deal.legal_cards() if str(c).startswith(code) and
                                     str(c)[len(code)].isalpha()))
        return deal

    def test_all_nine_spoiled(self):
        # decision all-nine-spoiled: nobody scores; surrender-refused-all-spoiled: the offering side scores 2
        deal = self.all_spoiled_deal(Options(chant=False))
        assert deal.notation == "XXXXXXXX" and solve(deal).value == 0
        refused = self.all_spoiled_deal(Options(chant=False, surrender=True))
        assert solve(refused).value == -2 == points(replay(refused, solve(refused).line))


class TestState:
    def test_deal_unchanged(self):
        # solve only reads: the deal's save, picture, turn, moves and legal cards are the same after it
        for name, deal in positions(2, 3, (0, 2), base=300):
            before = snapshot(deal)
            solve(deal)
            can_make_mordienne(deal, "N")
            assert snapshot(deal) == before, name

    def test_hidden_hands(self):
        deal = random_position(1, Options(chant=False), "none", 3, 0)
        before = snapshot(deal)
        with pytest.raises(AluetteError, match="hidden"):
            solve(deal.view(Seat.N))
        assert snapshot(deal) == before

    def test_not_in_play(self):
        deal = Deal.from_seed(2)  # the chant is asked first
        before = snapshot(deal)
        with pytest.raises(WrongPhaseError, match="chant phase"):
            solve(deal)
        assert snapshot(deal) == before

    def test_between_tricks_question_pending(self):
        options, _ = OPTION_SETS["between-tricks"]
        deal = Deal.from_seed(3, options=options)
        deal.offer_surrender(deal.to_move, False)
        deal.offer_surrender(deal.to_move, False)
        for _ in range(4):
            deal.play_index(0)
        assert deal.phase is Phase.SURRENDER
        with pytest.raises(WrongPhaseError, match="surrender phase"):
            solve(deal)

    def test_bad_inputs(self):
        deal = random_position(1, Options(chant=False), "none", 3, 0)
        with pytest.raises(AluetteError, match="takes a Deal"):
            solve("x" * 10_000)
        with pytest.raises(AluetteError, match="max_nodes"):
            solve(deal, max_nodes=0)
        with pytest.raises(UnknownSeatError):
            can_make_mordienne(deal, "Q")

    def test_budget(self):
        deal = Deal.from_seed(11, options=Options(chant=False))
        before = snapshot(deal)
        with pytest.raises(SearchBudgetError, match="100 card plays"):
            solve(deal, max_nodes=100)
        assert snapshot(deal) == before


class TestTable:
    def test_the_table_grows_with_the_budget_from_the_first_lead_only(self):
        # memory bounded: 2**16 entries (1 MB) for the last tricks to 2**21 (32 MB) from the first lead with the
        # default budget; from the first lead only, twice the entries for each doubling of the budget, 2**23 at most
        default = [solver.table_bits(t) for t in range(1, 10)]
        assert default == [16, 16, 16, 16, 17, 18, 19, 20, 21]
        assert [solver.table_bits(t, 4 * solver.DEFAULT_MAX_NODES) for t in range(1, 9)] == default[:8]
        assert [solver.table_bits(9, k * solver.DEFAULT_MAX_NODES) for k in (1, 2, 3, 4, 8, 1000)] == [
            21, 22, 22, 23, 23, 23]
        assert solver.table_bits(9, 1_000_000) == 21  # a small budget keeps the first lead's table


class TestApi:
    def test_exported_and_repr(self):
        assert aluette.solve is solve
        deal = random_position(8, Options(chant=False), "none", 2, 1)
        solution = solve(deal)
        assert repr(solution).startswith(f"<Solution value={solution.value:+d}, {deal.to_move} to move: ")
        assert tuple(solution.by_card) == deal.legal_cards()
        assert solution.best_cards and all(solution.cost(card) == 0 for card in solution.best_cards)
        assert all(solution.cost(card) >= 0 for card in solution.by_card)
        with pytest.raises(AluetteError, match="not a card"):
            solution.cost("3O" if "3O" not in map(str, deal.legal_cards()) else "3E")

    def test_the_uncompiled_search_gives_the_same_solution(self):
        # the kernel's functions also run as plain Python (numba absent, or NUMBA_DISABLE_JIT=1), with plain-Python
        # bit counts in place of the processor's: the same value, cards' values and line, in a process of its own
        code = ("import json, sys; from aluette.analysis import _kernel; from aluette import solve; "
                "from tests.test_solver import random_position; from aluette import Options; "
                "deal = random_position(13, Options(chant=False), 'none', 5, 1); s = solve(deal); "
                "print(json.dumps([_kernel.COMPILED, s.value, [str(c) for c in s.by_card], list(s.by_card.values()), "
                "[str(m) for m in s.line]]))")
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                              cwd=Path(__file__).resolve().parents[1])
        assert done.returncode == 0, done.stderr[-2000:]
        compiled, value, cards, values, line = json.loads(done.stdout)
        deal = random_position(13, Options(chant=False), "none", 5, 1)
        solution = solve(deal)
        assert len(set(solution.by_card.values())) > 1  # a position whose cards differ: the search decides them
        assert compiled is False and _kernel.COMPILED is True
        assert (value, cards, values, line) == (solution.value, [str(c) for c in solution.by_card],
                                                list(solution.by_card.values()), [str(m) for m in solution.line])

    def test_equal_cards_share_a_value(self):
        # cards of one class are equal (rules sheet, "card rankings"): the same value in by_card
        for _, deal in positions(3, 4, (0,), base=50):
            solution = solve(deal)
            for a, b in itertools.combinations(solution.by_card, 2):
                if a.strength == b.strength:
                    assert solution.by_card[a] == solution.by_card[b]

    def test_scenario_recipe(self):
        # a scenario of notebook 09 (aluette.scenario): solved from its first lead, the same as its deal
        recipe = scenario_from_json(scenario_to_json({"N": "3O 3C 2O 2C 9C 9O 2B 2E 1O"}, 7, leader="N",
                                                     options=Options(chant=False)))
        deal = scenario_deal(recipe["hands"], recipe["seed"], leader=recipe["leader"], options=recipe["options"])
        solution = solve(recipe)
        assert solution.value == solve(deal).value == points(replay(deal, solution.line))
        assert solution.to_move is Seat.N
        with pytest.raises(AluetteError, match="recipe"):
            solve({**recipe, "extra": 1})

    def test_can_make_mordienne(self):
        # the question "can this seat make mordienne from here?" agrees with the naive search over every card
        found = 0
        for name, deal in positions(8, 2, (0,), mixed=True):
            for seat in Seat:
                answer = can_make_mordienne(deal, seat)
                assert answer == naive_mordienne(deal, seat), (name, seat, str(deal))
                found += answer
        assert found > 0  # some positions have a mordienne to make


def naive_mordienne(deal: Deal, seat: Seat) -> bool:
    """Whether ``seat``'s side can force a deal that ``seat`` wins with mordienne (plain minimax through Deal)."""
    if deal.phase is Phase.SURRENDER:
        deal = deal.copy()
        answer_questions(deal, None, "none")
    if deal.is_over:
        score = deal.result.score
        return bool(score is not None and score.mordienne and score.winner is seat)
    results = []
    for card in deal.legal_cards():
        child = deal.copy()
        child.play(deal.to_move, card)
        results.append(naive_mordienne(child, seat))
    return any(results) if deal.to_move.team is seat.team else all(results)

