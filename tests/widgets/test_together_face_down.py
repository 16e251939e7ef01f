"""A table of people stacks its tricks face down (issue 19 §3: at a table won tricks lie face down and remembering them
is the skill; rules sheet, "gameplay", and pagat: « l'empile face cachée »): a table opened on the play-together page
is face down by default, for every seat alike; a group learning may untick it when it opens the table."""

from __future__ import annotations

from aluette.seats import SEATS
from aluette.together import SeatController
from aluette.widgets.together import PlayTogether

from .test_together import act, kernels  # noqa: F401 (the fixture)


def open_and_sit(kernels, table, face_down=None):
    pages = []
    for seat, name in zip(SEATS, ("Ann", "Bea", "Cat", "Dan")):
        p = PlayTogether(SeatController(kernels()), poll=False)
        p.choose_box.value = True  # partners by the seats taken: this test is about the tricks, not the draw
        if face_down is not None:
            p.face_down_box.value = face_down
        p.table_box.value = table
        p.open_button.click()
        p.name_box.value = name
        p.seat_buttons[seat].click()
        assert p.controller.seat is seat, p.message.value
        pages.append(p)
    return pages


def play_two_tricks(pages):
    for _ in range(400):  # bounded
        if any(len(p.controller.state.view.tricks) >= 2 for p in pages):
            return
        for p in pages:
            p.refresh()
            act(p)
    raise AssertionError("two tricks were not played")


def test_a_table_opened_on_the_page_stacks_its_tricks_face_down_on_every_page(kernels):  # noqa: F811
    pages = open_and_sit(kernels, "Face down")
    play_two_tricks(pages)
    for p in pages:
        p.refresh()
        assert p.controller.state.info.settings["face_down"] is True
        events = p.seat_table.events_view.value
        assert "Tricks face down" in events and "What happened in this deal" not in events
    for p in pages:
        p.close()


def test_a_group_may_keep_the_tricks_in_view(kernels):  # noqa: F811
    pages = open_and_sit(kernels, "Face up", face_down=False)
    play_two_tricks(pages)
    for p in pages:
        p.refresh()
        assert p.controller.state.info.settings["face_down"] is False
        assert "What happened in this deal" in p.seat_table.events_view.value
    for p in pages:
        p.close()
