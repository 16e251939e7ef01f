"""The match session (:mod:`aluette.players.session`), driven without widgets: people's moves through ``submit``, the bots'
moves one ``step`` at a time, the pauses it announces, the events it tells, and whole matches.

Rule sources: the rules sheet (``docs/sources/``), "gameplay" (one card each in turn, clockwise), "setup"
(the chant), "signals" (only the partner sees a signal), "end of game" (five deals, the deal passing to the left).
Quality bar of this project: a refused input raises an error of :mod:`aluette.errors` and changes nothing; no seat's
screen is given another seat's hidden cards.
"""

import json

import numpy as np
import pytest

from aluette import (DECK, SEATS, AluetteError, BadSeedError, BadSignalError, CardNotInHandError, DuplicateSeatError,
                     HeuristicBot, MalformedSaveError, Match, NotYourTurnError, Options, Phase, RandomBot, Seat,
                     UnknownSeatError, WrongPhaseError, play_match)
from aluette.errors import NotYourSeatError
from aluette.moves import ChantAnswer, Discard, Play, Signal, SurrenderOffer
from aluette.secrecy import cards_named, hidden_cards
from aluette.players.session import BotTurn, MatchSession, Person, make_bots

S, N, E, W = Seat.S, Seat.N, Seat.E, Seat.W


def snapshot(session: MatchSession) -> tuple:
    """Everything a refusal must leave as it was: the match, the events told, the next bot, the pause."""
    return session.match.to_json(), session.events, session.next_bot, session.bot_delay, session.players


def to_play(session: MatchSession) -> MatchSession:
    """South declines the chant if asked and the bots move, so that South is to play."""
    session.run_bots()
    if session.deal.phase is Phase.CHANT:
        session.submit(S, ChantAnswer(S, False))
        session.run_bots()
    assert session.deal.phase is Phase.PLAY and session.deal.to_move is S
    return session


def advance(session: MatchSession) -> None:
    """One step of a match whose person at S follows the hints: the next deal, a bot's move, or South's."""
    if session.match.awaiting_next_deal:
        session.next_deal()
    elif session.next_bot is not None:
        session.step()
    else:
        session.submit(S, session.hint(S).move)


class Quiet(HeuristicBot):
    """A signalling heuristic player that never signals itself: what a person at S who only follows the hints
    does, for a comparison with :func:`aluette.play_match`."""

    def signals(self, view, legal_signals):
        return []


class TestPeopleMoves:
    def test_a_legal_move_is_applied_and_recorded(self):
        session = to_play(MatchSession.against_bots(2026))
        card = session.view(S).hand[0]
        recorded = session.submit(S, Play(S, card))
        assert recorded == Play(S, card) and dict(session.deal.current_trick)[S] is card
        assert session.events[-1].kind == "move" and session.events[-1].seat is S
        assert session.events[-1].move_kind == "play" and not session.events[-1].by_bot

    def test_an_illegal_move_of_a_person_is_refused_and_nothing_changes(self):
        # the rules sheet, "setup" and "gameplay": no card is played during the chant; a seat plays only cards it holds
        session = MatchSession.against_bots(2026)
        session.run_bots()
        assert session.deal.phase is Phase.CHANT and session.deal.to_move is S
        before = snapshot(session)
        with pytest.raises(WrongPhaseError, match="chant"):
            session.submit(S, Play(S, session.view(S).hand[0]))
        assert snapshot(session) == before
        session.submit(S, ChantAnswer(S, False))
        session.run_bots()
        not_held = next(c for c in DECK if c not in session.view(S).hand)
        before = snapshot(session)
        for bad, error in [(Play(S, not_held), CardNotInHandError), (SurrenderOffer(S, True), WrongPhaseError),
                           (Discard(S, session.view(S).hand[:6]), WrongPhaseError),
                           (["play", "S", "3Q"], MalformedSaveError), (["dance", "S", "3O"], MalformedSaveError),
                           ("S plays 3O", AluetteError), (Signal(S, "no such signal"), BadSignalError)]:
            with pytest.raises(error):
                session.submit(S, bad)
            assert snapshot(session) == before, bad

    def test_a_move_for_a_seat_that_is_not_theirs_is_refused(self):
        # a person moves only for their own seat: not for a bot's seat, not for another person's
        session = MatchSession.against_bots(2026)
        assert session.next_bot == BotTurn(E, 0.0)  # E answers the chant first (N deals)
        before = snapshot(session)
        with pytest.raises(NotYourSeatError, match="E is played by a bot"):
            session.submit(E, ChantAnswer(E, True))
        with pytest.raises(NotYourSeatError, match="a move for E was sent for S"):
            session.submit(S, ChantAnswer(E, True))
        with pytest.raises(UnknownSeatError):
            session.submit("Q", ChantAnswer(S, True))
        assert snapshot(session) == before

    def test_two_people_at_two_devices(self):
        # the next step: people at other devices send their moves as JSON, each for their own seat only
        def table(seed):
            bots = make_bots(seed, "heuristic")
            return MatchSession(Match(seed), {S: Person(), N: Person(remote=True, name="Ana"), E: bots[E], W: bots[W]})

        def asked_last(t):  # E and W (bots) agree and South agrees: the remote N is asked last (N deals)
            t.run_bots()
            if t.deal.phase is Phase.CHANT:
                t.submit(S, ["chant", "S", True])
                t.run_bots()
            return t.deal.phase is Phase.CHANT

        session = next(t for t in map(table, range(100)) if asked_last(t))  # the first seed from 0
        assert session.people == (N, S)
        assert session.deal.to_move is N and session.next_bot is None  # waits for the remote person
        before = snapshot(session)
        with pytest.raises(NotYourSeatError):
            session.submit(N, ["chant", "S", False])  # N's device sends a move for S
        with pytest.raises(NotYourTurnError):
            session.submit(S, ["chant", "S", False])  # S's own move, out of turn
        assert snapshot(session) == before
        told = len(session.events)
        session.submit(N, ["chant", "N", False])
        assert session.deal.chant_agreed is False
        assert session.events[told].seat is N and session.events[told].move_kind == "chant"
        assert all(e.kind == "signal" and e.by_bot for e in session.events[told + 1:])  # the bots' round follows

    def test_signals_off_refuses_a_persons_signal(self):
        session = to_play(MatchSession.against_bots(3, signals=False))
        assert session.legal_signals(S) == []
        before = snapshot(session)
        with pytest.raises(BadSignalError, match="signals are off"):
            session.submit(S, Signal(S, "useless"))
        assert snapshot(session) == before

    def test_a_persons_signal_is_told_to_their_partnership_only(self):
        # the rules sheet, "signals": only the partner sees a signal
        session = to_play(MatchSession.against_bots(2026))
        key = session.legal_signals(S)[0]
        session.submit(S, Signal(S, key))
        event = session.events[-1]
        assert event.kind == "signal" and event.seat is S
        assert [event.seen_by(seat) for seat in SEATS] == [True, False, True, False]
        assert any(r.seat is S and r.key == key for r in session.view(N).signals)
        assert not any(r.seat is S for r in session.view(E).signals)


class TestBotsPace:
    def test_the_session_names_the_next_bot_and_its_pause_and_step_makes_one_move(self):
        session = MatchSession.against_bots(2026, bot_delay=0.4)
        order = []
        while (turn := session.next_bot) is not None:
            assert turn.delay == 0.4 and turn.seat is session.deal.to_move and turn.seat is not S
            moves = len(session.deal.moves)
            decision = session.step()
            assert decision.seat is turn.seat and len(session.deal.moves) == moves + 1  # one move per step
            order.append(turn.seat)
        assert order == [E] and session.deal.to_move is S  # N deals: E is asked first, then South
        before = snapshot(session)
        with pytest.raises(NotYourTurnError, match="no bot is to move"):
            session.step()
        assert snapshot(session) == before

    def test_the_pause_can_change_and_a_bad_pause_is_refused(self):
        session = MatchSession.against_bots(2026, bot_delay=0)
        session.bot_delay = 1.5
        assert session.next_bot == BotTurn(E, 1.5)
        for bad in [-1, float("nan"), float("inf"), 61, "fast", True, None]:
            with pytest.raises(AluetteError, match="the bots' pause"):
                session.bot_delay = bad
            assert session.bot_delay == 1.5
        with pytest.raises(AluetteError, match="the bots' pause"):
            MatchSession.against_bots(2026, bot_delay=-0.1)

    def test_no_bot_moves_at_a_persons_turn_nor_after_the_deal(self):
        session = to_play(MatchSession.against_bots(7))
        assert session.next_bot is None and session.run_bots() == []
        while not session.deal.is_over:
            decision = session.hint(S)
            if decision is None:
                session.step()
            else:
                session.submit(S, decision.move)
        assert session.next_bot is None and session.hint(S) is None
        with pytest.raises(NotYourTurnError, match="the deal is over"):
            session.step()
        session.next_deal()
        assert session.match.deal_number == 2 and session.events[-1].kind == "deal"

    def test_a_bot_takes_over_a_persons_seat(self):
        session = to_play(MatchSession.against_bots(4))
        session.set_player(S, HeuristicBot(name="S"))
        assert session.people == () and session.next_bot == BotTurn(S, 0.0)
        session.run_bots()
        assert session.deal.is_over
        with pytest.raises(AluetteError, match="must be a Person or a bot"):
            session.set_player(N, "somebody")
        assert isinstance(session.players[N], HeuristicBot)


class TestWholeMatch:
    @pytest.mark.parametrize("seed, opponents, options", [
        (1, "heuristic", Options()), (2, "random", Options(surrender=True)), (3, "heuristic", Options(chant=False)),
        (11, "random", Options(target_points=5)),
        (4, "random", Options(surrender=True, surrender_until="last_trick")),
        (7, "heuristic", Options(surrender=True, surrender_until="last_trick"))])
    def test_bots_everywhere_play_the_match_the_engine_plays(self, seed, opponents, options):
        # the rules sheet, "end of game": the session plays the same match as aluette.play_match with the same bots and
        # seed
        def players():
            return {**make_bots(seed, opponents), S: HeuristicBot(signals=True, name="S")}

        engine = Match(seed, options=options)
        play_match(engine, players())
        session = MatchSession(Match(seed, options=options), players())
        while not session.match.is_over:
            session.run_bots()
            if session.match.awaiting_next_deal:
                session.next_deal()
        assert session.match.to_json() == engine.to_json()
        signals = sum(len(d.view(None, events=False).signals) for d in engine.deals)
        assert sum(e.kind == "signal" for e in session.events) == signals > 0

    @pytest.mark.parametrize("seed, opponents", [(5, "heuristic"), (6, "random")])
    def test_a_person_who_follows_the_hints_plays_the_engines_match(self, seed, opponents):
        # the person at S submits the heuristic bot's move from South's view, and never signals
        engine = Match(seed, options=Options(surrender=True))
        play_match(engine, {**make_bots(seed, opponents), S: Quiet(signals=True)})
        session = MatchSession.against_bots(seed, opponents=opponents, options=Options(surrender=True), bot_delay=1)
        told = []
        session.observe(told.append)
        while not session.match.is_over:
            advance(session)
        assert session.match.to_json() == engine.to_json()
        assert told == list(session.events)
        moves = [m for d in engine.deals for m in d.moves]  # signals included
        assert sum(e.kind == "move" for e in told) == sum(not isinstance(m, Signal) for m in moves)  # one per move
        assert sum(e.kind == "signal" for e in told) == sum(isinstance(m, Signal) for m in moves) > 0
        assert sum(e.kind == "deal" for e in told) == len(engine.deals) - 1

    def test_events_name_no_card(self):
        # an event says who acted and what kind of thing; what a seat may see comes from its view
        session = MatchSession.against_bots(8)
        seen_by_s, stopped = [], []
        session.observe(lambda e: seen_by_s.append(e) if e.seen_by(S) else None)
        stop = session.observe(stopped.append)
        advance(session)
        assert stopped
        stop()
        told = len(stopped)
        while not session.match.is_over:
            advance(session)
            assert not cards_named(repr(session.events[-1]))
            view = session.view(S)
            assert not view.visible_cards() & hidden_cards(session.deal, S)
        assert {e.seat for e in session.events if e.kind == "signal"} >= {N, E, W}  # E and W signal to each other
        assert all(e.seat in (N, S) for e in seen_by_s if e.kind == "signal")  # ...and South is never told
        assert len(stopped) == told  # an observer that stopped is told nothing more


class TestBadSetUp:
    def test_players_must_be_people_or_bots_for_all_four_seats(self):
        bots = make_bots(1, "heuristic")
        with pytest.raises(UnknownSeatError, match="missing: S"):
            MatchSession(Match(1), bots)
        with pytest.raises(DuplicateSeatError):
            MatchSession(Match(1), {**{str(s): b for s, b in bots.items()}, "S": Person(), "south": Person()})
        with pytest.raises(AluetteError, match="must be a Person or a bot"):
            MatchSession(Match(1), {**bots, S: "me"})
        with pytest.raises(AluetteError, match="plays an aluette.Match"):
            MatchSession(json.dumps({}), {**bots, S: Person()})

    def test_a_session_against_bots_needs_a_whole_number_seed(self):
        for bad in [None, -1, "7", 1.5, np.random.default_rng(1)]:
            with pytest.raises(BadSeedError, match="match seed"):
                MatchSession.against_bots(bad, opponents="random")

    def test_make_bots(self):
        bots = make_bots(3, "random")
        assert set(bots) == {N, E, W} and isinstance(bots[N], HeuristicBot) and isinstance(bots[E], RandomBot)
        assert set(make_bots(3, "heuristic", partner_of=E)) == {W, N, S}
        with pytest.raises(AluetteError, match="unknown opponents 'clever'"):
            make_bots(3, "clever")
