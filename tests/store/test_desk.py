"""The teacher's desk (:class:`~aluette.store.TeacherDesk`): a bot for an absent student, and the seat given back
(issue 23 §1: the student's seat code works again, or the teacher reads out a new one); finished tables apart. On
SQLite and on PostgreSQL (see ``conftest.py``)."""

from __future__ import annotations

import pytest

from aluette import Seat
from aluette.errors import BadSeatCodeError, SeatTakenError, TableError, TableNotReadyError
from aluette.seats import SEATS
from aluette.store import TeacherDesk

from .test_tables import seat_everyone


def summary_of(desk: TeacherDesk, name: str):
    return next(s for s in desk.summary() if s.name == name)


class TestGivingBack:
    def test_a_seat_given_back_takes_its_students_code_again_and_the_bots_moves_stay(self, service):
        tickets = seat_everyone(service)
        desk = TeacherDesk(service)
        desk.replace_with_bot("table one", "E")
        e = summary_of(desk, "Table one").seats[Seat.E]
        assert (e.kind, e.player, e.stands_in_for) == ("bot", "bot East", "player E")
        service.run_bots("table one")  # the bot's turn, if it is due
        moved = service.seq("table one")
        assert desk.give_back("table one", "E") is None
        state = service.seat_state("table one", "E", tickets[Seat.E].code)  # the same code works again
        assert state.info.seats[Seat.E].kind == "person" and state.info.seats[Seat.E].player == "player E"
        assert state.seq == moved  # the match goes on from where it was
        assert service.rejoin("table one", tickets[Seat.E].code).seat is Seat.E
        with pytest.raises(TableError, match="'player E''s already"):
            desk.give_back("table one", "E")

    def test_a_bot_that_played_keeps_its_moves_when_the_student_comes_back(self, service):
        tickets = seat_everyone(service, seed=3)
        desk = TeacherDesk(service)
        first = service.replay("table one").to_move
        desk.replace_with_bot("table one", first)
        written = service.run_bots("table one")
        assert written > 0  # the bot made the move its student did not
        desk.give_back("table one", first)
        assert service.seq("table one") == written
        assert service.seat_state("table one", first, tickets[first].code).seq == written

    def test_a_new_code_replaces_a_lost_one(self, service):
        tickets = seat_everyone(service)
        desk = TeacherDesk(service)
        ticket = desk.give_back("table one", "S", new_code=True)  # a student's seat, no bot: the code was lost
        assert ticket.seat is Seat.S and ticket.player == "player S" and ticket.code != tickets[Seat.S].code
        assert ticket.code not in repr(ticket)  # the new code stays out of logs
        with pytest.raises(BadSeatCodeError):
            service.seat_state("table one", "S", tickets[Seat.S].code)
        assert service.rejoin("table one", ticket.code).seat is Seat.S
        desk.replace_with_bot("table one", "S")
        again = desk.give_back("table one", "S", new_code=True)  # given back from the bot with a new code
        assert summary_of(desk, "Table one").seats[Seat.S].kind == "person"
        with pytest.raises(BadSeatCodeError):
            service.rejoin("table one", ticket.code)
        assert service.rejoin("table one", again.code).seat is Seat.S

    def test_a_filling_bot_given_back_frees_its_seat_for_a_student(self, service):
        service.create_table("host", seed=1)
        host = service.take_seat("host", "N", "Ann")
        service.fill_with_bots("host", "N", host.code)
        desk = TeacherDesk(service)
        assert summary_of(desk, "host").seats[Seat.E].stands_in_for is None
        with pytest.raises(TableError, match="never a student's"):
            desk.give_back("host", "E", new_code=True)
        assert desk.give_back("host", "E") is None
        info = service.table_info("host")
        assert info.free_seats == (Seat.E,) and not info.ready
        with pytest.raises(TableNotReadyError):
            service.submit("host", "N", host.code, ["chant", "N", True])
        assert service.take_seat("host", "E", "Bob").seat is Seat.E

    def test_refusals_change_nothing(self, service):
        service.create_table("empty", seed=1)
        desk = TeacherDesk(service)
        before = desk.summary()
        with pytest.raises(TableError, match="is empty"):
            desk.give_back("empty", "W")
        with pytest.raises(TableError, match="new_code is True or False"):
            desk.give_back("empty", "W", new_code="yes")
        assert desk.summary() == before

    def test_a_seat_held_by_a_bot_names_no_student_to_a_newcomer(self, service):
        seat_everyone(service)
        TeacherDesk(service).replace_with_bot("table one", "W")
        with pytest.raises(SeatTakenError, match="held by a bot"):
            service.take_seat("table one", "W", "Eve")


class TestFinished:
    def test_finished_matches_are_apart_and_closed_tables_gone(self, service):
        service.create_table("done", seed=5)
        desk = TeacherDesk(service)
        for seat in SEATS:
            desk.replace_with_bot("done", seat)
        service.run_bots("done", limit=5000)
        assert service.replay("done").is_over
        seat_everyone(service, name="live")
        assert [s.name for s in desk.summary()] == ["done", "live"]
        assert [s.name for s in desk.summary(finished=False)] == ["live"]
        desk.close_table("live")
        assert [s.name for s in desk.summary(finished=False)] == []
