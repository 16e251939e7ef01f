"""One student cannot hold a table's four seats (issue 22, held in part: "one student can hold all four seats of any
table name"), and a seat left for long is freed with its old player told why when they come back.

The rules (decisions of this project, the sources, which know no devices, being silent: the docstring of
:meth:`aluette.store.TableService.take_seat`, docs/classroom.md's table of bounds):

* one seat per student at a table, a student being what the page knows of them: its browser session, the
  ``student`` a page passes (:func:`aluette.widgets.together.page_student`); the table's first player fills the empty
  seats with bots;
* a person's seat not seen for :data:`~aluette.store.service.SEAT_IDLE` seconds (20 minutes) may be taken by another
  student; the old code then says that the seat was freed, and why.

Both backends (tests/store/conftest.py).
"""

from __future__ import annotations

import pytest

from aluette.errors import BadSeatCodeError, SeatTakenError, TableError
from aluette.i18n import set_language
from aluette.seats import SEATS
from aluette.store.service import SEAT_IDLE
from aluette.together import SeatController
from tests.server.test_admission import Clock

ANN, BEA = "browser-session-of-ann", "browser-session-of-bea"


def test_one_student_holds_one_seat_of_a_table(backend):
    service = backend.service()
    service.create_table("Salle A")
    service.take_seat("Salle A", "N", "Ann", student=ANN)
    for seat, name in (("E", "Anna"), ("S", "Zoe"), ("W", "Ann B.")):  # any name: the student is the page's
        with pytest.raises(SeatTakenError, match="you already sit at N at table 'Salle A' as 'Ann': one seat per "
                                                 "student"):
            service.take_seat("Salle A", seat, name, student=ANN)
    assert service.table_info("Salle A").free_seats == SEATS[1:]  # nothing changed
    bea = service.take_seat("Salle A", "E", "Bea", student=BEA)  # another student sits
    service.create_table("Salle B")
    service.take_seat("Salle B", "N", "Ann", student=ANN)  # one seat at each table
    with pytest.raises(SeatTakenError, match="one seat per student"):
        service.rejoin("Salle A", bea.code, student=ANN)  # Bea's code typed on Ann's device: still one seat
    assert service.rejoin("Salle A", bea.code, student=BEA).seat is bea.seat


def test_the_host_fills_the_other_seats_with_bots(backend):
    service = backend.service()
    service.create_table("Alone")
    ann = service.take_seat("Alone", "N", "Ann", student=ANN)
    assert service.fill_with_bots("Alone", "N", ann.code, session=ann.session) == SEATS[1:]
    assert service.table_info("Alone").ready


def test_a_student_comes_back_to_their_own_seat(backend):
    service = backend.service()
    service.create_table("Back")
    ann = service.take_seat("Back", "N", "Ann", student=ANN)
    again = service.rejoin("Back", ann.code, student=ANN)  # a reload: the same seat, the same student
    assert again.seat is ann.seat
    moved = service.rejoin("Back", ann.code, student="ann-on-her-phone")  # another device of Ann's: hers now
    with pytest.raises(SeatTakenError, match="one seat per student"):
        service.take_seat("Back", "E", "Ann 2", student="ann-on-her-phone")
    assert moved.seat is ann.seat


def test_two_pages_of_one_browser_are_one_student(backend):
    first = SeatController(backend.service(), student=ANN)
    first.open_table("Tabs")
    first.take_seat("N", "Ann")
    second = SeatController(backend.service(), student=ANN)  # a second tab (or a reload) of the same browser
    second.open_table("Tabs")
    with pytest.raises(SeatTakenError, match="one seat per student"):
        second.take_seat("E", "Bob")
    assert second.seat is None and second.info.free_seats == SEATS[1:]


@pytest.mark.parametrize("student", ["short", 5, "x" * 129])
def test_a_bad_student_identity_is_refused(service, student):
    service.create_table("Odd")
    with pytest.raises(TableError, match="a student's identity is text of 8 to 128 characters"):
        service.take_seat("Odd", "N", "Ann", student=student)
    assert service.table_info("Odd").free_seats == SEATS


def test_a_freed_seats_player_is_told_why_and_may_sit_again(backend):
    clock = Clock()
    service = backend.service(clock=clock)
    service.create_table("Left")
    gone = service.take_seat("Left", "N", "Ann", student=ANN)
    here = service.take_seat("Left", "E", "Bea", student=BEA)
    clock.now += SEAT_IDLE + 10
    service.seat_state("Left", "E", here.code)
    cleo = service.take_seat("Left", "N", "Cleo", student="browser-session-of-cleo")
    told = "your seat N at table 'Left' was freed: nobody saw your page there for 20 minutes, and another student " \
           "took it"
    assert int(SEAT_IDLE // 60) == 20  # the minutes the message names
    with pytest.raises(BadSeatCodeError, match=told):
        service.seat_state("Left", "N", gone.code)  # Ann's page reads again
    with pytest.raises(BadSeatCodeError, match=told):
        service.rejoin("Left", gone.code)  # Ann types her code again
    with pytest.raises(BadSeatCodeError, match="that is not the seat code of N"):
        service.seat_state("Left", "N", here.code)  # another code is still just a wrong one
    assert service.seat_state("Left", "N", cleo.code).seat is SEATS[0]
    assert service.take_seat("Left", "S", "Ann", student=ANN).seat is SEATS[2]  # her freed seat is no longer hers


def test_the_freed_seats_message_is_in_the_pages_language(backend):
    clock = Clock()
    service = backend.service(clock=clock)
    service.create_table("Parti")
    gone = service.take_seat("Parti", "N", "Ann")
    clock.now += SEAT_IDLE + 10
    service.take_seat("Parti", "N", "Cleo")
    set_language("fr")
    try:
        with pytest.raises(BadSeatCodeError) as error:
            service.rejoin("Parti", gone.code)
        service.take_seat("Parti", "E", "Ann", student=ANN)
        with pytest.raises(SeatTakenError) as second:
            service.take_seat("Parti", "S", "Bo", student=ANN)
    finally:
        set_language("en")
    assert "20 minutes" in str(error.value) and "libérée" in str(error.value)
    assert "une seule place par élève" in str(second.value)


def test_a_pages_student_is_its_browser_session():
    """What the page passes as ``student``: kept in the browser session (the same after a reload, for every tab),
    one per browser session; a kernel's own where the server keeps no session."""
    from aluette.widgets.common import set_session_storage
    from aluette.widgets.together import page_student

    kernel = page_student()
    sessions = {"a": {}, "b": {}}
    current = ["a"]
    set_session_storage(lambda: sessions[current[0]])
    try:
        first = page_student()
        assert page_student() == first and sessions["a"] == {"aluette.student": first}  # a reload: the same
        current[0] = "b"
        assert page_student() != first  # another browser
    finally:
        set_session_storage(lambda: None)
    assert page_student() == kernel != first
