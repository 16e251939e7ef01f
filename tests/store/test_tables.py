"""The shared-table service (:mod:`aluette.store.service`), on SQLite and on PostgreSQL (see ``conftest.py``)."""

from __future__ import annotations

import json
import multiprocessing
import re
import threading

import pytest

from aluette import Card, Match, Options, Play, Seat, Signal, Team
from aluette.deal import Phase
from aluette.errors import (AluetteError, BadSeatCodeError, DealOverError, IllegalMoveError, InputTooLongError,
                            MalformedSaveError, NoSuchTableError, NotYourTurnError, SeatTakenError, StaleStateError, StoreError,
                            TableClosedError, TableError, TableNotReadyError, WrongPhaseError)
from aluette.seats import SEATS
from aluette.secrecy import cards_named, hidden_cards, secrecy_problems
from aluette.store import TeacherDesk, clean_table_name
from aluette.store.service import SEAT_CODE_ALPHABET

from .players import BotPlayer

def seat_everyone(service, name="Table one", seed=7, **kwargs):
    service.create_table(name, seed=seed, **kwargs)
    return {seat: service.take_seat(name, seat, f"player {seat}") for seat in SEATS}


def play_to_end(players, on_state=None, limit=2000):
    """Round-robin over the players until the match is over; ``on_state(player, state)`` sees every state read."""
    for _ in range(limit):
        for player in players:
            state = player.state()
            if on_state is not None:
                on_state(player, state)
            if state.is_over:
                return state
            player.act(state)
    raise AssertionError("the match did not end")


class LogFollower:
    """The table's match followed from its log by the test itself (independently of the service's replay): the
    engine's moves applied, ``next_deal`` entries starting the next deal."""

    def __init__(self, store, seed, options):
        self.store, self.match, self.seq = store, Match(seed, options=options), 0

    def follow(self):
        with self.store.read() as tx:
            rows = tx.rows("SELECT seq, body FROM aluette_moves WHERE seq > ? ORDER BY seq", (self.seq,))
        for seq, body in rows:
            entry = json.loads(body)
            if entry[0] == "next_deal":
                self.match.next_deal()
            elif entry[0] != "bot_signals":
                self.match.apply(entry)
            self.seq = seq
        return self.match


class TestWholeMatch:
    def test_four_players_play_a_match_and_the_log_replays_to_the_same_state(self, backend):
        """Four players on four sessions (each its own connection) play a five-deal match through the service;
        a fifth session rebuilds it from the log alone: the same deals, moves and scores."""
        sessions = [backend.service() for _ in SEATS]
        tickets = seat_everyone(sessions[0])
        players = [BotPlayer(sessions[i], tickets[seat]) for i, seat in enumerate(SEATS)]
        final = play_to_end(players)
        assert final.is_over and final.deal_number == 5
        fresh = backend.service()
        replayed = fresh.replay("table ONE")
        for player in players:  # what each player's page last showed is what the log rebuilds
            last = player.state()
            assert last.view == replayed.view(player.ticket.seat)
            assert dict(last.scores) == replayed.scores and last.winner == replayed.winner
            assert [dict(p) for p in last.deal_points] == [dict(d.result.points) for d in replayed.deals]
        assert LogFollower(backend.store(), 7, Options()).follow().to_dict() == replayed.to_dict()
        moves = sum(len(d.moves) for d in replayed.deals)
        assert fresh.seq("Table one") == moves + 4  # and one "next_deal" entry for each of deals 2 to 5
        assert any(m.__class__.__name__ == "Signal" for d in replayed.deals for m in d.moves)
        for s in (*sessions, fresh):
            s.close()

    def test_a_host_fills_with_bots_and_the_bots_play_through_the_log(self, service, backend):
        """The first player fills the three empty seats with bots; the bots' moves are log entries like a
        person's, and the match replays from the log."""
        service.create_table("Bots", seed=11)
        ticket = service.take_seat("bots", "S", "Ann")
        assert service.fill_with_bots("bots", "S", ticket.code) == (Seat.N, Seat.E, Seat.W)
        me = BotPlayer(service, ticket)
        for _ in range(600):
            service.run_bots("bots")
            state = me.state()
            if state.is_over:
                break
            me.act(state)
        assert state.is_over
        replayed = backend.service().replay("bots")
        assert state.view == replayed.view("S") and dict(state.scores) == replayed.scores
        assert any(isinstance(m, Signal) and m.seat is not Seat.S for d in replayed.deals for m in d.moves)
        store = service.store
        with store.read() as tx:
            plays = dict(tx.rows("SELECT actor, COUNT(*) FROM aluette_moves WHERE body LIKE ? GROUP BY actor",
                                 ('["play"%',)))
        assert plays["bot"] == 3 * plays["person"] > 0  # each of the three bots plays as many cards as Ann

    def test_a_table_of_bots_only_starts_its_own_deals(self, service):
        service.create_table("Robots", seed=3)
        TeacherDesk(service).replace_with_bot("robots", "N")
        for seat in "ESW":
            TeacherDesk(service).replace_with_bot("robots", seat)
        service.run_bots("robots")
        match = service.replay("robots")
        assert match.is_over and match.deal_number == 5


class TestRaces:
    def test_two_sessions_submitting_for_one_seat_at_once_one_is_accepted(self, backend):
        """Two kernels hold the seat code of the seat to move and send a move chosen on the same state at the same
        instant, eight times (two whole tricks, so a seat that wins a trick and leads again is raced too): each time
        exactly one is written, the other is refused."""
        first = backend.service()
        tickets = seat_everyone(first, options=Options(chant=False))
        second = backend.service()
        for _ in range(8):
            to_move = first.replay("Table one").to_move
            state = first.seat_state("Table one", to_move, tickets[to_move].code)
            seat = state.view.to_move
            hand = list(state.view.hand)
            moves = [Play(seat, hand[0]), Play(seat, hand[-1])]
            results = [None, None]
            barrier = threading.Barrier(2)

            def send(i, svc):
                barrier.wait()
                try:
                    results[i] = svc.submit("Table one", seat, tickets[seat].code, moves[i], after=state.seq)
                except AluetteError as error:
                    results[i] = error
            threads = [threading.Thread(target=send, args=(i, svc)) for i, svc in enumerate((first, second))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            accepted = [r for r in results if isinstance(r, int)]
            refused = [r for r in results if isinstance(r, AluetteError)]
            assert len(accepted) == 1 and len(refused) == 1, results
            assert isinstance(refused[0], (NotYourTurnError, StaleStateError))
        assert first.seq("Table one") == second.seq("Table one") == 8
        assert len(backend.service().replay("Table one").current.moves) == 8
        first.close()
        second.close()

    def test_another_seats_signal_does_not_make_a_chosen_move_stale(self, service):
        tickets = seat_everyone(service, options=Options(chant=False))
        seat = service.replay("Table one").to_move
        state = service.seat_state("Table one", seat, tickets[seat].code)
        other, key = next((s, service.seat_state("Table one", s, tickets[s].code).legal_signals[0]) for s in SEATS
                          if s is not seat and service.seat_state("Table one", s, tickets[s].code).legal_signals)
        service.submit("Table one", other, tickets[other].code, Signal(other, key))
        hand = state.view.hand
        assert service.submit("Table one", seat, tickets[seat].code, Play(seat, hand[0]), after=state.seq) == 2
        nxt = seat.left
        with pytest.raises(StaleStateError, match=r"changed since your move was chosen \(entry 2: play by"):
            service.submit("Table one", nxt, tickets[nxt].code,
                           Play(nxt, service.seat_state("Table one", nxt, tickets[nxt].code).view.hand[0]), after=1)
        with pytest.raises(TableError, match="after is a log number"):
            service.submit("Table one", nxt, tickets[nxt].code, Play(nxt, hand[0]), after=-1)
        assert service.seq("Table one") == 2

    def test_two_processes_submitting_for_one_seat_at_once_one_is_accepted(self, backend):
        """The same race between two operating-system processes, each with its own connection."""
        service = backend.service()
        tickets = seat_everyone(service, options=Options(chant=False))
        seat = service.replay("Table one").to_move
        hand = list(service.seat_state("Table one", seat, tickets[seat].code).view.hand)
        context = multiprocessing.get_context("fork")
        barrier = context.Barrier(2)
        queue = context.Queue()
        processes = [context.Process(target=_race_child, args=(backend, seat, tickets[seat].code, str(card),
                                                                barrier, queue))
                     for card in (hand[0], hand[1])]
        for p in processes:
            p.start()
        outcomes = sorted(queue.get(timeout=60) for _ in processes)
        for p in processes:
            p.join(timeout=60)
        assert outcomes[0][0] == "accepted" and outcomes[1][0] == "refused", outcomes
        assert outcomes[1][1] in ("NotYourTurnError", "StaleStateError")
        assert service.seq("Table one") == 1
        service.close()

    def test_two_players_starting_the_next_deal_at_once_start_it_once(self, backend):
        service = backend.service()
        service.create_table("Quick", seed=5, options=Options(chant=False))
        ticket = service.take_seat("quick", "N", "Ann")
        other = service.take_seat("quick", "S", "Bob")
        service.fill_with_bots("quick", "N", ticket.code)
        players = [BotPlayer(service, ticket), BotPlayer(service, other)]
        while not service.seat_state("quick", "N", ticket.code).awaiting_next_deal:
            service.run_bots("quick")
            for p in players:
                state = p.state()
                if not state.awaiting_next_deal:
                    p.act(state)
        service.next_deal("quick", "N", ticket.code)
        with pytest.raises(WrongPhaseError, match="not over"):
            service.next_deal("quick", "S", other.code)
        assert service.replay("quick").deal_number == 2
        service.close()


def _race_child(backend, seat, code, card, barrier, queue):
    service = backend.service()
    barrier.wait()
    try:
        service.submit("Table one", seat, code, Play(seat, card), after=0)
        queue.put(("accepted", card))
    except AluetteError as error:
        queue.put(("refused", type(error).__name__))
    finally:
        service.close()


class TestSeats:
    def test_a_wrong_seat_code_is_refused_and_changes_nothing(self, service):
        tickets = seat_everyone(service, options=Options(chant=False))
        seat = service.replay("Table one").to_move
        other = next(s for s in SEATS if s is not seat)
        card = service.seat_state("Table one", seat, tickets[seat].code).view.hand[0]
        for code in (tickets[other].code, "AAAAA-AAAAA"):
            with pytest.raises(BadSeatCodeError, match="not the seat code"):
                service.submit("Table one", seat, code, Play(seat, card))
            with pytest.raises(BadSeatCodeError):
                service.seat_state("Table one", seat, code)
        for junk in ("", "12345", "x" * 500, None, 12345):
            with pytest.raises(BadSeatCodeError, match="seat code is 10 letters"):
                service.submit("Table one", seat, junk, Play(seat, card))
        with pytest.raises(IllegalMoveError, match=f"cannot make a move for {seat}"):
            service.submit("Table one", other, tickets[other].code, Play(seat, card))
        assert service.seq("Table one") == 0

    def test_a_student_comes_back_with_the_code_after_a_crash(self, backend):
        """A kernel dies in the middle of a trick; a new kernel comes back to the seat with the code (typed in any
        case, with or without the dash): the trick is as it was and play goes on."""
        first = backend.service()
        tickets = seat_everyone(first, options=Options(chant=False))
        players = {s: BotPlayer(first, t) for s, t in tickets.items()}
        while len(first.replay("Table one").current.current_trick) < 2:  # two cards of the first trick
            seat = first.replay("Table one").to_move
            players[seat].act()
        seat = first.replay("Table one").to_move
        before = first.seat_state("Table one", seat, tickets[seat].code)
        first.close()  # the crashed kernel
        second = backend.service()
        typed = tickets[seat].code.lower().replace("-", " ")
        ticket = second.rejoin("table one", typed)
        assert (ticket.seat, ticket.player, ticket.code) == (seat, f"player {seat}", tickets[seat].code)
        after = second.seat_state("Table one", ticket.seat, ticket.code)
        assert after.view == before.view and len(after.view.trick) == 2
        again = BotPlayer(second, ticket)
        for _ in range(2):  # its signals first, then its card
            if len(second.replay("Table one").current.current_trick) == 2:
                again.act()
        assert len(second.replay("Table one").current.current_trick) == 3
        with pytest.raises(BadSeatCodeError, match="not the code of a player's seat"):
            second.rejoin("table one", "ZZZZZ-ZZZZZ")
        second.close()

    def test_a_held_seat_cannot_be_taken(self, service):
        service.create_table("Held")
        service.take_seat("held", "E", "Ann")
        with pytest.raises(SeatTakenError, match="held by 'Ann'"):
            service.take_seat("HELD", "east", "Bob")
        assert service.table_info("held").seats[Seat.E].player == "Ann"

    def test_only_the_first_player_fills_seats_with_bots(self, service):
        service.create_table("Host")
        host = service.take_seat("host", "W", "Ann")
        guest = service.take_seat("host", "N", "Bob")
        with pytest.raises(TableNotReadyError):
            service.submit("host", "N", guest.code, ["chant", "N", True])
        with pytest.raises(TableError, match=r"only the table's first player \(W\)"):
            service.fill_with_bots("host", "N", guest.code)
        assert service.fill_with_bots("host", "W", host.code) == (Seat.E, Seat.S)
        info = service.table_info("host")
        assert info.ready and info.host is Seat.W and info.free_seats == ()
        assert [info.seats[s].kind for s in SEATS] == ["person", "bot", "bot", "person"]

    def test_the_teacher_replaces_an_absent_student_and_the_code_stops_working(self, service):
        tickets = seat_everyone(service)
        desk = TeacherDesk(service)
        desk.replace_with_bot("table one", "E")
        with pytest.raises(BadSeatCodeError, match="the teacher gave your seat E .* to a bot"):
            service.seat_state("table one", "E", tickets[Seat.E].code)
        with pytest.raises(BadSeatCodeError, match="ask the teacher to give it back"):
            service.rejoin("table one", tickets[Seat.E].code)
        with pytest.raises(BadSeatCodeError, match="played by a bot$"):  # another seat's code names no student
            service.seat_state("table one", "E", tickets[Seat.N].code)
        with pytest.raises(TableError, match="already played by a bot"):
            desk.replace_with_bot("table one", "E")

    def test_a_closed_table_takes_no_seat_and_no_move(self, service):
        tickets = seat_everyone(service)
        TeacherDesk(service).close_table("table one")
        seat = service.replay("table one").to_move
        with pytest.raises(TableClosedError):
            service.submit("table one", seat, tickets[seat].code, ["chant", str(seat), True])
        with pytest.raises(TableClosedError):
            TeacherDesk(service).close_table("table one")
        assert service.table_names() == []
        assert TeacherDesk(service).summary() == [] and len(TeacherDesk(service).summary(closed=True)) == 1

    def test_seat_codes_are_random_and_stored_only_as_a_hash(self, service, backend):
        tickets = seat_everyone(service)
        codes = {t.code for t in tickets.values()}
        assert len(codes) == 4
        assert all(re.fullmatch(f"[{SEAT_CODE_ALPHABET}]{{5}}-[{SEAT_CODE_ALPHABET}]{{5}}", c) for c in codes)
        assert "code=..." in repr(tickets[Seat.N])
        with service.store.read() as tx:
            stored = json.dumps(tx.rows("SELECT * FROM aluette_seats"))
        for code in codes:
            assert code not in stored and code.replace("-", "") not in stored


class TestNames:
    def test_names_are_normalised_and_case_insensitive(self, service):
        service.create_table("  Salle   B\u00a0 ")
        assert service.table_names() == ["Salle B"]
        assert service.table_info("salle b").name == "Salle B"
        with pytest.raises(TableError, match="already exists"):
            service.create_table("SALLE B")
        assert clean_table_name("Ｔable") == "Table"  # NFKC: full-width letters

    @pytest.mark.parametrize("bad, error, message", [
        ("x" * 41, InputTooLongError, r"at most 40 characters, got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… \(41"),
        ("x" * 100_000, InputTooLongError, r"\(100,000 characters\)"),
        ("   ", TableError, "empty"),
        ("<script>", TableError, "'<' in '<script>' is not allowed"),
        ("a\x00b", TableError, "not allowed"),
        (42, TableError, "must be text"),
    ])
    def test_bad_table_names_are_refused(self, service, bad, error, message):
        with pytest.raises(error, match=message):
            service.create_table(bad)
        assert service.table_names() == []

    def test_bad_player_names_are_refused(self, service):
        service.create_table("Names")
        with pytest.raises(InputTooLongError, match="at most 30"):
            service.take_seat("names", "N", "y" * 31)
        with pytest.raises(TableError, match="not allowed"):
            service.take_seat("names", "N", "Robert'); DROP TABLE")
        assert service.table_info("names").free_seats == tuple(SEATS)

    def test_an_unknown_table_is_named(self, service):
        with pytest.raises(NoSuchTableError, match="no table named 'Nowhere'"):
            service.take_seat("Nowhere", "N", "Ann")


class TestSecrecy:
    def test_a_seat_never_sees_another_seats_hidden_cards_nor_the_teacher_any(self, backend):
        """Through a whole match (with the chant and surrender, so stock cards and discards are hidden too) every
        state a seat reads holds its own hand (the positive control) and none of the cards hidden from it, in its
        view and in its events; and the teacher's summary, read along the way, holds no card at all."""
        sessions = [backend.service() for _ in SEATS]
        options = Options(surrender=True)
        tickets = seat_everyone(sessions[0], options=options)
        players = [BotPlayer(sessions[i], tickets[s]) for i, s in enumerate(SEATS)]
        omniscient = LogFollower(backend.store(), 7, options)
        desk = TeacherDesk(backend.service())
        summaries = []
        checked = {"states": 0, "own": 0}

        def check(player, state):  # play is sequential: the log is the state's
            if omniscient.seq != state.seq and (state.seq % 5 == 0 or state.is_over):
                summaries.append(desk.summary()[0])
            match = omniscient.follow()
            assert omniscient.seq == state.seq
            seat = player.ticket.seat
            assert not secrecy_problems(repr(state), match.current, seat, "the seat's state")
            assert not (state.view.visible_cards() & hidden_cards(match.current, seat))
            checked["states"] += 1
            checked["own"] += bool(state.view.hand)
        play_to_end(players, on_state=check)
        assert checked["states"] > 200 and checked["own"] > 100

        assert {s.phase for s in summaries} >= {"chant", "play", "over"}
        for summary in summaries:
            assert not cards_named(json.dumps(summary.to_dict())) and not cards_named(repr(summary))
            assert not any(isinstance(v, Card) for v in _walk(summary))
        last = summaries[-1]
        assert last.is_over and sum(last.scores.values()) > 0 and last.scores == sessions[0].replay("table one").scores
        assert all(i.connected for i in last.seats.values())
        # the control: the same audit finds the cards of a seat's view
        assert cards_named(repr(players[0].state().view)) == players[0].state().view.visible_cards()


def _walk(value):
    yield value
    if hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from _walk(getattr(value, name))
    elif isinstance(value, dict) or hasattr(value, "items"):
        for k, v in value.items():
            yield from _walk(k)
            yield from _walk(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _walk(v)


class TestLog:
    def test_an_edited_log_is_refused_on_replay(self, service, backend):
        tickets = seat_everyone(service, options=Options(chant=False))
        seat = service.replay("table one").to_move
        card = service.seat_state("table one", seat, tickets[seat].code).view.hand[0]
        service.submit("table one", seat, tickets[seat].code, Play(seat, card))
        stranger = next(c for c in service.replay("table one").current.hands[seat.left])
        with service.store.write() as tx:  # a card the seat does not hold
            tx.run("UPDATE aluette_moves SET body = ? WHERE seq = 1", (json.dumps(["play", str(seat),
                                                                                  str(stranger)]),))
        with pytest.raises(StoreError, match="log entry 1 does not replay"):
            backend.service().replay("table one")

    def test_junk_moves_are_refused_with_the_engines_errors(self, service):
        tickets = seat_everyone(service)
        seat = service.replay("table one").to_move
        code = tickets[seat].code
        with pytest.raises(MalformedSaveError):
            service.submit("table one", seat, code, ["fly", str(seat), 1])
        with pytest.raises(AluetteError, match="not a move"):
            service.submit("table one", seat, code, "chant yes")
        with pytest.raises(WrongPhaseError):
            service.submit("table one", seat, code, ["play", str(seat), "1O"])
        assert service.seq("table one") == 0

    def test_no_move_after_the_match(self, service):
        service.create_table("Done", seed=2)
        ticket = service.take_seat("done", "N", "Ann")
        service.fill_with_bots("done", "N", ticket.code)
        me = BotPlayer(service, ticket)
        while not me.state().is_over:
            service.run_bots("done")
            me.act()
        with pytest.raises(DealOverError):
            service.next_deal("done", "N", ticket.code)
        assert service.step_bots("done") == []
        state = me.state()
        assert state.winner in (Team.NS, Team.EW, None) and len(state.deal_points) == 5
        assert state.view.phase is Phase.OVER


class TestWaiting:
    def test_a_waiting_session_wakes_on_another_sessions_move(self, backend):
        """:meth:`TableService.wait` returns the new log number once another session has written (PostgreSQL: on
        its NOTIFY; SQLite: by polling)."""
        service = backend.service()
        tickets = seat_everyone(service)
        watcher = backend.service()
        seen = []
        thread = threading.Thread(target=lambda: seen.append(watcher.wait("table one", 0, timeout=60)))
        thread.start()
        seat = service.replay("table one").to_move
        service.submit("table one", seat, tickets[seat].code, ["chant", str(seat), True])
        thread.join(timeout=90)
        assert seen == [1]
        assert watcher.wait("table one", 1, timeout=0.05) == 1  # nothing new: back after the timeout
        service.close()
        watcher.close()
