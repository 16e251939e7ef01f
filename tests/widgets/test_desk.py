"""The teacher's tables page (notebook 11, :class:`~aluette.widgets.desk.TablesDesk`), driven without a browser: the
students are :class:`PlayTogether` pages, each on its own :class:`TableService` (its own "kernel"), over one SQLite
file that the teacher's desk reads too. Notebook 11's lesson (scores and never a card, a bot for an absent student
and the seat given back, a table closed) is checked here, not by a hidden cell of the notebook (issue 17, §5)."""

from __future__ import annotations

import html
import re

from aluette.secrecy import cards_named
from aluette.seats import Seat, Team
import ipywidgets as w

from aluette.store import TeacherDesk
from aluette.widgets.common import state_text
from aluette.widgets.desk import TablesDesk
from tests.widgets.test_together import kernels, page, seated  # noqa: F401 (kernels is the fixture)


def rows(desk: TablesDesk) -> dict:
    """Each table's box on the desk, by the name in its heading."""
    out = {}
    for row in desk.tables_view.children:
        head = next(c for c in row.children if "aluette-desk-name" in c._dom_classes)
        out[html.unescape(re.sub("<[^>]+>", "", head.value)).removeprefix("Table ")] = row
    return out


def seat_button(desk: TablesDesk, table: str, css: str, seat: str):
    """The button of class ``css`` on ``seat``'s line in ``table``'s box."""
    line = next(c for c in rows(desk)[table].children if f"aluette-desk-seat-{seat}" in c._dom_classes)
    return next(b for b in line.children if css in b._dom_classes)


def shown(button) -> bool:
    return button.layout.display != "none"


class TestTeachersDesk:
    def test_every_table_with_scores_and_never_a_card(self, kernels):
        empty = TablesDesk(TeacherDesk(kernels()), poll=False)
        assert "No table in play" in empty.message.value
        ann = seated(kernels, "Blue", "N", "Ann")
        ann.fill_button.click()
        seated(kernels, "Red", "S", "Bob")
        empty.refresh()
        assert empty.message.value == ""  # the tables are listed: no "no table yet" left over
        desk = TablesDesk(TeacherDesk(kernels()), poll=False)
        assert [s.name for s in desk.summaries] == ["Blue", "Red"]
        service = ann.controller.service
        TeacherDesk(service).replace_with_bot("Blue", "N")  # Ann's seat to a bot: the bots play the first deal
        for _ in range(400):
            service.step_bots("Blue")
            if service.replay("Blue").deals[0].result is not None:
                break
        desk.refresh()
        text = state_text(desk)
        blue = service.replay("Blue")
        assert f"NS {blue.scores[Team.NS]} – EW {blue.scores[Team.EW]}" in text
        assert cards_named(text) == frozenset()  # no card at all, not even a played one
        assert "Red" in text and "waiting for players" in text

    def test_the_count_is_of_moves_only(self, kernels):
        # page 11 said "1 move logged" before anyone moved: the partnership draw is the log's first entry
        from tests.widgets.test_table_draw import four_at_a_drawn_table
        from tests.widgets.test_together import act
        pages = four_at_a_drawn_table(kernels)
        desk = TablesDesk(TeacherDesk(kernels()), poll=False)
        [summary] = desk.summaries
        assert summary.seq == 1 and summary.moves == 0  # the draw is logged, and is no move
        assert "0 moves made" in state_text(desk) and "logged" not in state_text(desk)
        for p in pages:
            p.draw_view.all_button.click()
        assert any(act(p) for p in pages)
        desk.refresh()
        [summary] = desk.summaries
        assert summary.moves == 1 == summary.seq - 1 and "1 move made" in state_text(desk)

    def test_a_bot_for_an_absent_student_and_closing_a_table(self, kernels):
        ann = seated(kernels, "Blue", "N", "Ann")
        seated(kernels, "Blue", "E", "Bob")
        desk = TablesDesk(TeacherDesk(kernels()), poll=False)
        bot_e = seat_button(desk, "Blue", "aluette-desk-bot", "E")
        bot_e.click()
        assert "A bot plays E" in desk.message.value
        ann.refresh()
        assert "<b>E</b>: a bot" in ann.seats_view.value
        assert seat_button(desk, "Blue", "aluette-desk-bot", "E").layout.display == "none"
        desk.close_table("Blue")
        assert desk.summaries == [] and "No table in play" in desk.message.value
        late = page(kernels)
        late.table_box.value, late.name_box.value = "Blue", "Eve"
        late.seat_buttons[Seat.S].click()
        assert late.controller.seat is None and late.message.last_error is not None

    def test_each_table_has_its_heading_and_every_button_names_its_table(self, kernels):
        seated(kernels, "Blue", "N", "Ann")
        seated(kernels, "Red", "N", "Bob")
        desk = TablesDesk(TeacherDesk(kernels()), poll=False)
        assert list(rows(desk)) == ["Blue", "Red"]
        for name, row in rows(desk).items():
            buttons = [b for line in row.children for b in getattr(line, "children", ()) if isinstance(b, w.Button)]
            assert buttons and all(f"({name})" in b.description or f"table {name}" in b.description
                                   for b in buttons), [b.description for b in buttons]
            other = "Red" if name == "Blue" else "Blue"
            assert not any(other in b.description for b in buttons)

    def test_the_teacher_gives_a_seat_back_and_the_students_code_works_again(self, kernels):
        ann = seated(kernels, "Blue", "N", "Ann")
        bob = seated(kernels, "Blue", "E", "Bob")
        code = bob.controller.ticket.code
        desk = TablesDesk(TeacherDesk(kernels()), poll=False)
        back = seat_button(desk, "Blue", "aluette-desk-back", "E")
        assert not shown(back)  # nothing to give back yet
        seat_button(desk, "Blue", "aluette-desk-bot", "E").click()
        back = seat_button(desk, "Blue", "aluette-desk-back", "E")
        assert shown(back) and back.description == "Give E back to Bob (Blue)"
        assert "a bot (for Bob)" in state_text(desk)
        again = page(kernels)  # Bob reloads: his code is refused with what to do, not "a wrong code"
        again.table_box.value, again.code_box.value = "Blue", code
        again.rejoin_button.click()
        assert again.controller.seat is None and "ask the teacher to give it back" in again.message.value
        back.click()
        assert "Seat E at table Blue is Bob's again" in html.unescape(desk.message.value)
        assert not shown(seat_button(desk, "Blue", "aluette-desk-back", "E"))
        again.rejoin_button.click()
        assert again.controller.seat is Seat.E, again.message.value
        ann.refresh()
        assert "Bob" in ann.seats_view.value

    def test_a_new_code_for_a_student_who_lost_theirs_is_shown_to_the_teacher(self, kernels):
        seated(kernels, "Blue", "N", "Ann")
        old = seated(kernels, "Blue", "E", "Bob").controller.ticket.code
        desk = TablesDesk(TeacherDesk(kernels()), poll=False)
        seat_button(desk, "Blue", "aluette-desk-code", "E").click()
        new = re.search(r"([A-Z2-9]{5}-[A-Z2-9]{5})", desk.message.value).group(1)
        assert new != old and "Give it to Bob only" in html.unescape(desk.message.value)
        again = page(kernels)
        again.table_box.value, again.code_box.value = "Blue", new
        again.rejoin_button.click()
        assert again.controller.seat is Seat.E

    def test_finished_tables_leave_the_list_for_one_line_and_can_be_closed(self, kernels):
        ann = seated(kernels, "Blue", "N", "Ann")
        ann.fill_button.click()
        seated(kernels, "Red", "S", "Bob")
        service = ann.controller.service
        TeacherDesk(service).replace_with_bot("Blue", "N")
        service.run_bots("Blue", limit=5000)
        assert service.replay("Blue").is_over
        desk = TablesDesk(TeacherDesk(kernels()), poll=False)
        assert list(rows(desk)) == ["Red"]
        assert "Blue" in desk.finished_view.value and "match over" in desk.finished_view.value
        assert shown(desk.close_finished_button)
        desk.close_finished_button.click()
        assert "Closed 1 finished table" in desk.message.value
        assert desk.finished == [] and not shown(desk.close_finished_button) and list(rows(desk)) == ["Red"]
