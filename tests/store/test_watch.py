"""One watcher per process per table (issue 17 §2, :mod:`aluette.store.watch`), on SQLite and PostgreSQL: it wakes
the table's pages (here fake pages: a ``wake`` that records what it is told) without their polling, drives the
table's bots once per move however many pages show it, and stops with the table's last page."""

from __future__ import annotations

import threading
import time

import pytest

from aluette.players.bots import HeuristicBot
from aluette.seats import Seat
from aluette.store import TableService
from aluette.store import watch as watching
from aluette.store.watch import TableChange, watch
from aluette.together import SeatController

from .test_tables import seat_everyone


class FakePage:
    """A page of this process: its own session (kernel), told of each change by the watcher."""

    def __init__(self, backend, name: str, seat=None):
        self.service = backend.service()
        self.changes: list[TableChange] = []
        self.event = threading.Event()
        self.stop = watch(self.service, name, self.wake, seat=lambda: seat)

    def wake(self, change) -> None:
        assert change is not None, "the watcher stopped on an error"
        self.changes.append(change)
        self.event.set()

    def wait_for(self, seq: int, timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(c.seq >= seq for c in self.changes):
                return True
            self.event.wait(0.05)
            self.event.clear()
        return False

    def close(self) -> None:
        self.stop()
        self.service.close()


def settle(service, watcher, timeout: float = 30.0) -> None:
    """Wait until the watcher has read the table's last state and its bots have nothing more to do (read by the
    test's own session)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        last = watcher._last
        if last is not None and last[0] == service.seq(watcher.name) and not service.bots_due(watcher.name):
            return
        time.sleep(0.05)
    raise AssertionError("the watcher did not settle")


@pytest.fixture(autouse=True)
def no_watcher_left():
    yield
    for watcher in watching.watchers():
        watcher.stop(5)
    for thread in threading.enumerate():  # the last page's close stops its watcher, which ends within a second
        if thread.name.startswith("aluette-watch-"):
            thread.join(5)
    assert not [t for t in threading.enumerate() if t.name.startswith("aluette-watch-")], "a watcher thread is left"


def test_a_move_reaches_the_other_pages_without_their_polling(backend):
    service = backend.service()
    tickets = seat_everyone(service)
    pages = [FakePage(backend, "table one", seat) for seat in (Seat.E, Seat.S, Seat.W)]
    watcher, = watching.watchers()  # one for the three pages
    assert all(p.wait_for(0) for p in pages)  # told at once where the table is
    seat = service.replay("table one").to_move
    service.submit("table one", seat, tickets[seat].code, ["chant", str(seat), True])
    assert all(p.wait_for(1) for p in pages), [p.changes for p in pages]
    # the pages never read the table: the watcher read it on its first look, for the change (a seat's "last seen"
    # written by the move's session may be one more) and on its heartbeats; no read every 100 ms
    assert watcher.reads - watcher.beats <= 3, (watcher.reads, watcher.beats)
    for p in pages:
        p.close()
    service.close()


def test_without_inotify_the_sqlite_watcher_reads_the_change_counter_every_few_milliseconds(tmp_path, monkeypatch):
    """Where Linux's inotify is missing, the SQLite watcher falls back to ``PRAGMA data_version`` every
    :data:`~aluette.store.watch.SQLITE_INTERVAL` seconds: the move still reaches the page."""
    from .conftest import Backend
    monkeypatch.setattr(watching._WalEvents, "open", classmethod(lambda cls, path: None))
    backend = Backend("sqlite", path=tmp_path / "tables.sqlite3")
    service = backend.service()
    tickets = seat_everyone(service)
    page = FakePage(backend, "table one", Seat.E)
    assert page.wait_for(0)
    seat = service.replay("table one").to_move
    service.submit("table one", seat, tickets[seat].code, ["chant", str(seat), True])
    assert page.wait_for(1)
    page.close()
    service.close()


def test_a_seat_taken_is_a_change_of_the_seats(backend):
    service = backend.service()
    service.create_table("Lobby", seed=3)
    page = FakePage(backend, "lobby")
    assert page.wait_for(0)
    page.changes.clear()
    service.take_seat("lobby", "N", "Ann")  # no log entry: PostgreSQL's NOTIFY is sent for the seats too
    deadline = time.monotonic() + 30
    while not page.changes and time.monotonic() < deadline:
        page.event.wait(0.05)
    assert page.changes and page.changes[-1] == TableChange(0, True)
    page.close()
    service.close()


def _bot_table(backend, name: str, pages: int, seed: int = 11):
    """A table of one person (N) and three bots, watched by ``pages`` pages of this process."""
    service = backend.service()
    service.create_table(name, seed=seed, signals=True)
    ticket = service.take_seat(name, "N", "Ann")
    shown = [FakePage(backend, name, Seat.N) for _ in range(pages)]
    service.fill_with_bots(name, "N", ticket.code)
    return service, ticket, shown


def _play_person(service, ticket, watcher, moves: int) -> int:
    """North plays ``moves`` moves (the heuristic bot's choice), each once the watcher has driven the bots to
    North's turn; returns the moves made."""
    made = 0
    for _ in range(moves):
        settle(service, watcher)
        state = service.seat_state(ticket.table, ticket.seat, ticket.code)
        if state.is_over or state.awaiting_next_deal or state.view.to_move is not Seat.N:
            break
        move = HeuristicBot(signals=False).choose(state.view).move
        service.submit(ticket.table, ticket.seat, ticket.code, move, after=state.seq)
        made += 1
    settle(service, watcher)
    return made


def count_bot_steps(monkeypatch) -> list[int]:
    """Every call of :meth:`TableService.step_bots` from now on, as the number of entries it wrote."""
    calls = []
    step_bots = TableService.step_bots

    def counted(self, name):
        written = step_bots(self, name)
        calls.append(len(written))
        return written
    monkeypatch.setattr(TableService, "step_bots", counted)
    return calls


@pytest.mark.parametrize("pages", [1, 3])
def test_the_bots_are_stepped_once_per_move_whatever_the_number_of_pages(backend, monkeypatch, pages):
    calls = count_bot_steps(monkeypatch)
    service, ticket, shown = _bot_table(backend, f"Bots {pages}", pages)
    watcher, = watching.watchers()
    made = _play_person(service, ticket, watcher, 8)
    assert made >= 4
    assert calls and all(calls), calls  # each step_bots call wrote: none made for nothing, none twice
    assert len(calls) == watcher.bot_steps
    entries = service.seq(ticket.table)
    # every log entry is North's, or a bot step (its moves or its table's signal entry): one call each
    assert sum(calls) == entries - made
    for p in shown:
        p.close()
    service.close()


def test_pages_that_drive_the_bots_themselves_step_them_once_per_page(backend, monkeypatch):
    """The positive control of the test above: three pages each driving the bots on their refresh (as before the
    watcher) call step_bots for nothing."""
    calls = count_bot_steps(monkeypatch)
    service = backend.service()
    service.create_table("Old", seed=11)
    ticket = service.take_seat("old", "N", "Ann")
    service.fill_with_bots("old", "N", ticket.code)
    controllers = []
    for _ in range(3):  # three devices of the seat in turn (the newest holds it: tests/store/test_seat_devices.py)
        c = SeatController(backend.service())
        c.rejoin(ticket.code, "old")
        c.refresh(force=True)
        controllers.append(c)
    assert calls.count(0) >= 3  # each page asked, most for nothing
    for c in controllers:
        c.service.close()
    service.close()


def test_a_watcher_stops_when_its_tables_last_page_closes(backend):
    service = backend.service()
    seat_everyone(service)
    first, second = FakePage(backend, "table one"), FakePage(backend, "table one")
    watcher, = watching.watchers()
    assert watcher.subscribers == 2 and watcher.thread.is_alive()
    first.close()
    time.sleep(0.1)
    assert watcher.thread.is_alive() and watching.watchers() == [watcher]
    second.close()
    watcher.thread.join(5)
    assert not watcher.thread.is_alive() and watching.watchers() == []
    third = FakePage(backend, "table one")  # a page after: a new watcher
    assert third.wait_for(0) and watching.watchers() != [watcher]
    third.close()
    service.close()
    assert watcher.errors == []


def test_the_watcher_marks_its_pages_seats_seen(backend, monkeypatch):
    monkeypatch.setattr(watching, "HEARTBEAT", 0.2)
    clock = [1000.0]
    service = backend.service(clock=lambda: clock[0])
    seat_everyone(service)
    clock[0] = 2000.0
    page = FakePage(backend, "table one", Seat.S)
    page.service._clock = lambda: clock[0]
    watcher, = watching.watchers()
    watcher.heartbeat = 0.2
    watcher.service._clock = lambda: clock[0]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        seen = {i.seat: i.last_seen for i in service.table_info("table one").seats.values()}
        if seen[Seat.S] == 2000.0:
            break
        time.sleep(0.05)
    assert seen[Seat.S] == 2000.0 and seen[Seat.N] == 1000.0  # only the page's seat
    page.close()
    service.close()


def test_a_woken_page_reads_no_log_number_and_no_table_name(tmp_path):
    """The pushed refresh of a seat's page (SQLite's statements traced): the watcher told it the log's number, so
    it neither reads ``last_seq`` nor looks the table's name up again; only the seats and the new entries."""
    from aluette.store import open_store
    path = tmp_path / "tables.sqlite3"
    service = TableService(open_store(path=path))
    tickets = seat_everyone(service)
    page = SeatController(TableService(open_store(path=path)))
    page.drive_bots = False
    page.rejoin(tickets[Seat.E].code, "table one")
    seat = service.replay("table one").to_move
    seq = service.submit("table one", seat, tickets[seat].code, ["chant", str(seat), True])
    statements = []
    page.service.store._conn.set_trace_callback(statements.append)
    assert page.refresh(seq=seq)
    assert page.state.seq == seq
    assert not [s for s in statements if "last_seq" in s or "name_key" in s], statements
    statements.clear()
    assert not page.refresh(seq=seq)  # told again what it holds: nothing read
    assert statements == []
    page.service.close()
    service.close()
