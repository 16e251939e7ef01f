"""One page cannot fill the class's list of tables (issue 22, §3: one page created 956 tables a minute, real tables
fell out of the lobby's list and the teacher's page took 102 s to open), a name is not lost forever once its table
is over, and a seat left for long is free again (issue 22, "held in part"). On SQLite and PostgreSQL
(``conftest.py``)."""

from __future__ import annotations

import pytest

from aluette.errors import BadSeatCodeError, SeatTakenError, TableClosedError, TableError
from aluette.seats import SEATS
from aluette.store import TeacherDesk
from aluette.store.service import MAX_OPEN_TABLES, SEAT_IDLE, TABLE_IDLE, TABLES_PER_MINUTE

from .players import BotPlayer
from tests.server.test_admission import Clock
from .test_tables import play_to_end, seat_everyone


def test_a_page_creates_a_bounded_number_of_tables_a_minute(backend):
    clock = Clock()
    service = backend.service(clock=clock)
    for i in range(TABLES_PER_MINUTE):
        service.create_table(f"Table {i}")
    with pytest.raises(TableError, match=f"this page opened {TABLES_PER_MINUTE} tables in the last minute"):
        service.create_table("One more")
    assert service.table_names() == [f"Table {i}" for i in range(TABLES_PER_MINUTE)]  # nothing changed
    clock.now += 61
    service.create_table("One more")  # a minute later


def test_the_class_keeps_a_bounded_number_of_open_tables(backend):
    clock = Clock()
    services = [backend.service(clock=clock) for _ in range(MAX_OPEN_TABLES // TABLES_PER_MINUTE)]
    for k, service in enumerate(services):  # many pages, each within its own bound
        for i in range(TABLES_PER_MINUTE):
            service.create_table(f"T{k}-{i}")
    with pytest.raises(TableError, match=f"already has {MAX_OPEN_TABLES} open tables"):
        backend.service(clock=clock).create_table("Too many")
    TeacherDesk(services[0]).close_table("T0-0")
    backend.service(clock=clock).create_table("Now fits")


def test_an_idle_table_closes_itself_and_a_played_one_does_not(backend):
    clock = Clock()
    service = backend.service(clock=clock)
    service.create_table("Forgotten")
    tickets = seat_everyone(service, name="Played", seed=3)
    clock.now += TABLE_IDLE - 60
    BotPlayer(service, tickets[SEATS[0]]).state()  # a player's page is seen
    clock.now += 120
    service.create_table("New")
    assert service.table_names() == ["Played", "New"]
    with pytest.raises(TableClosedError):
        service.take_seat("Forgotten", "N", "Ann")


def test_a_name_is_free_again_once_its_table_is_over_or_closed(backend):
    service = backend.service()
    tickets = seat_everyone(service, name="Salle B", seed=9)
    with pytest.raises(TableError, match="already exists"):
        service.create_table("salle b")  # being played
    old = service.replay("Salle B")
    play_to_end([BotPlayer(service, tickets[seat]) for seat in SEATS])
    finished = service.replay("Salle B").to_dict()
    assert finished != old.to_dict()

    service.create_table("Salle B", seed=10)  # the match is over: the name serves a new table
    info = service.table_info("salle b")
    assert info.free_seats == tuple(SEATS)
    assert service.replay("Salle B").to_dict() != finished
    ticket = service.take_seat("Salle B", "N", "Ann")
    assert ticket.table == "Salle B"

    TeacherDesk(service).close_table("Salle B")  # closed: free again
    service.create_table("Salle B", seed=11)
    assert service.table_names().count("Salle B") == 1


def test_a_seat_left_for_long_is_free_again_and_its_old_code_stops(backend):
    clock = Clock()
    service = backend.service(clock=clock)
    service.create_table("Left")
    gone = service.take_seat("Left", "N", "Ann")
    here = service.take_seat("Left", "E", "Bea")
    clock.now += SEAT_IDLE - 10
    service.seat_state("Left", "E", here.code)  # Bea's page is seen; Ann's is not
    with pytest.raises(SeatTakenError, match="held by 'Ann'"):
        service.take_seat("Left", "N", "Cleo")  # not long enough yet
    clock.now += 20
    with pytest.raises(SeatTakenError, match="held by 'Bea'"):
        service.take_seat("Left", "E", "Cleo")  # a seat seen lately stays its player's
    ticket = service.take_seat("Left", "N", "Cleo")
    assert service.table_info("Left").seats[SEATS[0]].player == "Cleo"
    with pytest.raises(BadSeatCodeError):
        service.seat_state("Left", "N", gone.code)
    assert service.seat_state("Left", "N", ticket.code).seat is SEATS[0]
