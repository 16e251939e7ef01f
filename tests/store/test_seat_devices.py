"""Two devices of one seat (issue 22, held in part: "two devices of one seat moving at once are both accepted"): the
newest device to take the seat or come back to it with its seat code holds it (a student who moves from the phone to
the laptop, or whose tab was lost, plays on where they are); the older page is told so on its next read or move,
goes back to the lobby and makes no move, and takes the seat back the same way, with the seat code.

One student, one seat: a second seat taken under the same name (or one that only looks like it) is refused
(tests/store/test_names.py), and a seated page cannot take another (aluette.together.SeatController).

Both backends (tests/store/conftest.py): the seat's session lives in the database, so the two devices may be two
kernels of two workers.
"""

from __future__ import annotations

import html

import pytest

from aluette.players.bots import HeuristicBot
from aluette.errors import SeatElsewhereError, TableError
from aluette.together import SeatController
from aluette.widgets.together import PlayTogether


def ready_table(backend, name="two devices"):
    """A table whose North is a student (its host) and whose other seats are bots; the student's first device."""
    first = SeatController(backend.service())
    first.open_table(name, draw=False)
    first.take_seat("N", "Ann")
    first.fill_with_bots()
    assert first.state.info.ready
    return first


def legal(controller):
    """Let the bots play until North is to move; the move North's page would make then (the heuristic's)."""
    for _ in range(50):  # bounded
        controller.refresh(force=True)
        if controller.state.view.to_move is controller.seat:
            return HeuristicBot(signals=False).choose(controller.state.view).move
    raise AssertionError("North never came to move")


def test_the_newest_device_holds_the_seat_and_the_older_is_told(backend):
    first = ready_table(backend)
    code = first.ticket.code
    second = SeatController(backend.service())
    second.rejoin(code, "two devices")  # the same seat code typed on another device
    assert second.seat is first.seat
    move = legal(second)
    # the older page: refused on its next read, back in the lobby, no move
    with pytest.raises(SeatElsewhereError) as told:
        first.refresh(force=True)
    assert "opened on another device" in str(told.value) and "come back to your seat with its seat code" in str(
        told.value)
    assert first.seat is None and first.state is None
    with pytest.raises(TableError):
        first.submit(move)
    before = second.service.seq("two devices")
    second.submit(move)  # the newer plays on
    assert second.service.seq("two devices") > before
    # the older takes it back with the code: now the newer is told
    first.rejoin(code, "two devices")
    with pytest.raises(SeatElsewhereError):
        second.refresh(force=True)
    assert second.seat is None and first.seat is not None
    first.service.close()
    second.service.close()


def test_a_move_from_the_older_device_at_the_same_moment_is_refused(backend):
    """Both pages chose a move on the same state; the newer's is the seat's, the older's is refused with nothing
    written (its page had not read since the other came)."""
    first = ready_table(backend, "same moment")
    move = legal(first)
    second = SeatController(backend.service())
    second.rejoin(first.ticket.code, "same moment")
    seq = first.service.seq("same moment")
    with pytest.raises(SeatElsewhereError):
        first.submit(move)
    assert first.service.seq("same moment") == seq  # nothing written for the older device
    second.submit(move)
    assert second.service.seq("same moment") > seq
    first.service.close()
    second.service.close()


def test_the_older_page_says_so_and_shows_the_lobby(backend, monkeypatch):
    """The newer device's coming back is a change of the table's seats (its seat is seen anew), so the table's
    watcher (aluette.store.watch) wakes the older page, which says so at once and shows the lobby, with no move of
    its own; any move it tries before is refused (the tests above)."""
    import time

    from aluette.store import watch
    from aluette.widgets import together

    runs = []
    monkeypatch.setattr(together, "_page_runner", None)
    together.set_page_runner(lambda step, closed: (lambda: runs.append(step)))  # the server's runner, run below
    pages = [PlayTogether(SeatController(backend.service()), poll=True) for _ in range(2)]
    older, newer = pages
    try:
        older.table_box.value = "pages"
        older.choose_box.value = True
        older.open_button.click()
        older.name_box.value = "Bea"
        older.seat_buttons["N"].click()
        older.fill_button.click()
        code = older.controller.ticket.code
        assert older.seat_table is not None and older._table_box.layout.display is None
        newer.table_box.value = "pages"
        newer.code_box.value = code
        newer.rejoin_button.click()
        assert str(newer.controller.seat) == "N", newer.message.value
        deadline = time.monotonic() + 20  # bounded: the watcher reads the change within a second
        while older.controller.seat is not None and time.monotonic() < deadline:
            if runs:
                runs.pop(0)()  # the server runs the page's step in the page
            else:
                time.sleep(0.02)
        said = html.unescape(older.message.value)
        assert "opened on another device" in said and older.controller.seat is None, said
        assert older._lobby.layout.display is None and older._table_box.layout.display == "none"
        assert older.internal_errors == [] and newer.internal_errors == []
        assert all(w.errors == [] for w in watch.watchers())
    finally:
        for p in pages:
            p.close()
            p.controller.service.close()
