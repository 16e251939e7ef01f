"""The one bot policy (aluette/players/drivers.py: signals_due, next_bot_step), kept by every loop that drives bots.

Rule: the bots make their one round of signals of a deal as soon as the hands are final (after the chant and the
discards), before the surrender is asked and before the Rebour announcements. Source: a decision of this project
on *when* (pagat.com: signals may be made « à tout moment pendant le jeu »; the moment chosen is the first at which a
signal about a hand cannot go stale), written once in ``Phase.hands_final`` and ``drivers.signals_due``.

Each test drives a deal with signalling bots through one of the four loops (``drivers.play_deal``, the match
session, the shared table's ``step_bots``, the store's test players) under the options that ask a question before
the first trick, and checks that every signal comes before that question's first answer. A policy that forgot the
announcement or the surrender phase makes them fail.
"""

from __future__ import annotations

import pytest

from aluette import Match, Options, Phase
from aluette.players.drivers import bots_for, next_bot_step, play_deal, signals_due
from aluette.moves import MordienneAnnouncement, Signal, SurrenderOffer
from aluette.seats import SEATS, Seat
from aluette.players.session import MatchSession
from aluette.store import TableService
from aluette.store.db import SQLiteStore

from .store.players import BotPlayer, play_with_table_bots

#: the options whose deals ask a question before the first trick, and the move that answers it
ASKED_BEFORE_PLAY = {
    "rebour": (Options(rebour="announced", chant=False), MordienneAnnouncement),
    "rebour-only-announced": (Options(rebour="only_announced"), MordienneAnnouncement),
    "surrender": (Options(surrender=True, chant=False), SurrenderOffer),
}


def test_the_hands_are_final_from_the_surrender_to_the_last_trick():
    assert {phase for phase in Phase if phase.hands_final} == {Phase.SURRENDER, Phase.ANNOUNCE, Phase.PLAY}
    assert signals_due(Phase.ANNOUNCE, offered=False) and not signals_due(Phase.ANNOUNCE, offered=True)
    assert not signals_due(Phase.DISCARD, offered=False) and not signals_due(Phase.OVER, offered=False)


def first_signalling_seed(options: Options) -> int:
    """The first match seed whose first deal, played by signalling heuristic bots, has a signal."""
    for seed in range(60):
        deal = Match(seed, options=options).current
        if any(isinstance(d.move, Signal) for d in play_deal(deal, bots_for("heuristic", 0, signals=True))):
            return seed
    raise AssertionError("no seed below 60 has a signal")


def check_signals_first(moves, answer, bots=SEATS) -> None:
    """Every signal of a seat in ``bots`` comes before the first ``answer``."""
    signals = [i for i, m in enumerate(moves) if isinstance(m, Signal) and m.seat in bots]
    answers = [i for i, m in enumerate(moves) if isinstance(m, answer)]
    assert signals and answers, (signals, answers)
    assert max(signals) < min(answers), f"a signal after the first {answer.__name__}: {moves}"


def by_play_deal(seed: int, options: Options, tmp_path) -> list:
    deal = Match(seed, options=options).current
    play_deal(deal, bots_for("heuristic", 0, signals=True))
    return list(deal.moves)


def by_session(seed: int, options: Options, tmp_path) -> list:
    session = MatchSession(Match(seed, options=options), bots_for("heuristic", 0, signals=True))
    session.run_bots()
    assert session.deal.is_over
    return list(session.deal.moves)


def by_table_bots(seed: int, options: Options, tmp_path) -> list:
    """One person (driven like a page) at N, the table's bots at E, S, W, driven by ``step_bots``. The person
    signals when their page gets to act, so only the bots' signals are bound by the policy."""
    service = TableService(SQLiteStore(tmp_path / "tables.sqlite3"))
    try:
        service.create_table("policy", seed=seed, options=options)
        play_with_table_bots(service, "policy", until=lambda state: state.awaiting_next_deal or state.is_over)
        return list(service.replay("policy").deals[0].moves)
    finally:
        service.close()


def by_table_players(seed: int, options: Options, tmp_path) -> list:
    """Four players, each driven through its own seat's calls (tests/store/players.py)."""
    service = TableService(SQLiteStore(tmp_path / "tables.sqlite3"))
    try:
        service.create_table("policy", seed=seed, options=options)
        players = [BotPlayer(service, service.take_seat("policy", seat, f"p{seat}")) for seat in SEATS]
        for _ in range(200):
            states = [p.state() for p in players]
            if states[0].awaiting_next_deal or states[0].is_over:
                break
            for player, state in zip(players, states):
                player.act(state)
        return list(service.replay("policy").deals[0].moves)
    finally:
        service.close()


@pytest.mark.parametrize("loop", [by_play_deal, by_session, by_table_bots, by_table_players],
                         ids=["play_deal", "session", "table-step_bots", "table-players"])
@pytest.mark.parametrize("variant", sorted(ASKED_BEFORE_PLAY))
def test_every_loop_signals_before_the_first_question(loop, variant, tmp_path):
    options, answer = ASKED_BEFORE_PLAY[variant]
    seed = first_signalling_seed(options)
    moves = loop(seed, options, tmp_path)
    check_signals_first(moves, answer, (Seat.E, Seat.S, Seat.W) if loop is by_table_bots else SEATS)
    # the turn moves are the policy's, whichever loop drives it
    expected = [m for m in by_play_deal(seed, options, tmp_path) if not isinstance(m, Signal)]
    assert [m for m in moves if not isinstance(m, Signal)] == expected


def test_next_bot_step_applies_nothing_and_offers_the_round_once():
    options = ASKED_BEFORE_PLAY["rebour"][0]
    deal = Match(first_signalling_seed(options), options=options).current
    bots = bots_for("heuristic", 0, signals=True)
    before = deal.to_dict()
    step = next_bot_step(deal, bots, signals_offered=False)
    assert step.signals and step.decisions and deal.to_dict() == before
    turn = next_bot_step(deal, bots, signals_offered=True)
    assert not turn.signals and turn.decisions[0].seat is deal.to_move and deal.to_dict() == before
    assert not next_bot_step(deal, bots, signals_offered=False, signals=False).signals  # no signals in this match
    assert next_bot_step(deal, {Seat.N: bots[Seat.N]} if deal.to_move is not Seat.N else {Seat.E: bots[Seat.E]},
                         signals_offered=True) is None  # a person's turn: no bot step
