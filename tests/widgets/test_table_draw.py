"""The partnership draw on the "play together" page (issue 19 §1): four students open a table and sit; the draw
seats them (each page follows its student to the new seat), every page shows the same draw card by card as notebook
02 does, and a page shows its hand only once its student has seen the whole draw. A group may choose its partners
instead (a marked decision, [partners-chosen-option]).

Rule source: the rules sheet, "setup"; pagat.com (the draw decides partners, and Madame's holder deals first)."""

from __future__ import annotations

import html
import re
import zlib

from aluette.cards import TOP_FOUR
from aluette.decisions import BADGE
from aluette.secrecy import cards_named, secrecy_problems
from aluette.seats import SEATS
from aluette.widgets.common import state_text
from aluette.widgets.table_draw import TableDraw
from tests.widgets.test_together import act, kernels, page  # noqa: F401 (kernels is the fixture)

NAMES = ("Ann", "Bob", "Cat", "Dan")


def four_at_a_drawn_table(kernels, table="Green"):
    """Four pages open ``table`` and sit at N, E, S, W. The table is made as the page makes it (the draw, the tricks
    face down) but with a seed of its name, so that every run draws the same cards (a fresh secret seed once drew
    the four to the seats they had taken, and the test's positive control failed)."""
    kernels().create_table(table, seed=zlib.crc32(table.encode()), draw=True, face_down=True)
    pages = []
    for seat, name in zip(SEATS, NAMES):
        p = page(kernels)
        p.table_box.value, p.name_box.value = table, name
        p.open_button.click()
        p.seat_buttons[seat].click()
        assert p.controller.ticket is not None, p.message.value
        pages.append(p)
    for p in pages:
        p.refresh()
    return pages


def text_without_the_draw(p) -> str:
    """The page's whole widget state but the draw's view (whose cards are the draw's, face up for everyone)."""
    shown = p.draw_view.layout.display
    children = p.children
    try:
        p.children = [c for c in children if c is not p.draw_view]
        return state_text(p)
    finally:
        p.children = children
        assert shown == p.draw_view.layout.display


class TestTheDrawOnThePage:
    def test_the_draw_seats_the_four_and_every_page_shows_the_same_draw(self, kernels):
        pages = four_at_a_drawn_table(kernels)
        draw = pages[0].controller.info.draw
        assert draw is not None and draw.names == NAMES
        for p, name in zip(pages, NAMES):
            assert p.draw_view.draw == draw and p.draw_view.layout.display != "none"
            assert p.controller.seat is draw.seat_of(name)  # the page followed its student to the new seat
        holder = {card: name for name, card in draw.top_card.items()}
        madame = holder[TOP_FOUR[1]]
        assert pages[0].controller.state.view.dealer is draw.seat_of(madame) is SEATS[0]  # N, Madame's, deals

    def test_the_draw_is_stepped_card_by_card_and_the_hand_follows_it(self, kernels):
        pages = four_at_a_drawn_table(kernels)
        ann = pages[0]
        draw = ann.draw_view.draw
        assert ann._playing.layout.display == "none" and ann.draw_view.shown == 0
        assert cards_named(text_without_the_draw(ann)) == frozenset()  # no card of the deal before the draw is seen
        ann.draw_view.next_button.click()
        first_name, first_card = draw.steps[0]
        assert ann.draw_view.shown == 1 and first_name == "Bob"  # the dealer's left first
        status = html.unescape(ann.draw_view.status.value)
        assert re.search(rf"Card 1 of {len(draw.steps)}: .* to Bob", status), status
        ann.draw_view.all_button.click()
        assert ann.draw_view.finished and "The draw is over" in ann.draw_view.status.value
        assert ann.draw_view.children[1].layout.display == "none"  # the buttons fold away with the cards
        result = html.unescape(ann.draw_view.result.value)
        assert "Partners by the draw:" in result and f"You sit at <b>{draw.seat_of('Ann')}</b>" in result
        assert result.startswith("<details>") and all(f"<b>{n}" in result for n in NAMES)
        assert ann._playing.layout.display != "none"  # the hand, now
        assert set(ann.controller.state.view.hand) <= cards_named(text_without_the_draw(ann))
        assert pages[1]._playing.layout.display == "none"  # Bob has not looked yet

    def test_every_text_of_a_page_names_the_seat_the_draw_gave_its_student(self, kernels):
        # a page said "You sit at E" (its sitting message) under "you sit at S" once the draw had moved its student
        pages = four_at_a_drawn_table(kernels)
        draw = pages[0].draw_view.draw
        moved = [p for p, seat, name in zip(pages, SEATS, NAMES) if draw.seat_of(name) is not seat]
        assert moved  # the positive control: this table's draw moves someone

        def seats_named(p):
            text = html.unescape(" ".join((p.message.value, p.code_view.value, p.draw_view.result.value)))
            you = re.findall(r"<b>([NESW])</b> \(you\)", html.unescape(p.seats_view.value))
            return set(re.findall(r"[Yy]ou sit at (?:<b>)?([NESW])\b", text)) | set(you)
        for p in pages:  # before the draw is shown, then after
            assert seats_named(p) == {str(p.controller.seat)}, (p.message.value, p.code_view.value)
            assert "seated by the partnership draw" in p.seats_view.value
        for p in pages:
            p.draw_view.all_button.click()
            assert seats_named(p) == {str(p.controller.seat)}
        assert all("you had sat at" in moved_page.message.value for moved_page in moved)

    def test_a_student_back_once_the_deal_started_goes_straight_to_the_table(self, kernels):
        # README, "play together": back with the code, "the trick as it was" (it started the draw again)
        pages = four_at_a_drawn_table(kernels)
        ann = pages[0]
        code = ann.controller.ticket.code
        early = page(kernels)  # back before anyone moved: the draw from its first card, as for the others
        early.table_box.value, early.code_box.value = "Green", code
        early.rejoin_button.click()
        assert early.draw_view.shown == 0 and early._playing.layout.display == "none", early.message.value
        for p in (early, *pages[1:]):
            p.draw_view.all_button.click()
        assert any(act(p) for p in (early, *pages[1:]))  # someone moves: the deal has started
        before = early.controller.service.replay("Green").current.view(early.controller.seat)
        back = page(kernels)
        back.table_box.value, back.code_box.value = "Green", code
        back.rejoin_button.click()
        assert back.controller.seat is early.controller.seat, back.message.value
        assert back.draw_view.finished and back._playing.layout.display is None  # the table at once
        assert back.controller.state.view == before  # the trick as it was
        assert "Partners by the draw:" in back.draw_view.result.value  # the draw stays there, folded

    def test_a_reload_after_the_whole_draw_goes_straight_to_the_hand(self, kernels):
        # issue 23 (a class day): a reload once the draw was seen to its end, before anyone moved, showed the draw
        # from its first card again. The classroom app keeps the browser session's storage across a reload
        # (aluette.widgets.common.set_session_storage); a page of another browser session still sees the draw.
        from aluette.widgets import common
        pages = four_at_a_drawn_table(kernels)
        code = pages[0].controller.ticket.code
        browser, other = {}, {}

        def reopened(storage):
            common.set_session_storage(lambda: storage)
            p = page(kernels)
            p.table_box.value, p.code_box.value = "Green", code
            p.rejoin_button.click()
            assert p.controller.ticket is not None, p.message.value
            return p
        try:
            ann = reopened(browser)
            assert ann.draw_view.shown == 0 and ann._playing.layout.display == "none"
            ann.draw_view.all_button.click()
            assert ann._playing.layout.display is None and pages[0].controller.state.seq == 1  # no move yet
            again = reopened(browser)  # the reload
            assert again.draw_view.finished and again._playing.layout.display is None, again.message.value
            assert "Partners by the draw:" in again.draw_view.result.value  # the draw stays there, folded
            elsewhere = reopened(other)  # the control: another browser has not seen it
            assert elsewhere.draw_view.shown == 0 and elsewhere._playing.layout.display == "none"
        finally:
            common.set_session_storage(lambda: None)
        assert len(browser["aluette.seen_draws"]) == 1 and "aluette.seen_draws" not in other

    def test_no_page_holds_a_hidden_card_of_the_deal(self, kernels):
        pages = four_at_a_drawn_table(kernels)
        draw_cards = {card for _, card in pages[0].draw_view.draw.steps}
        for p in pages:
            p.draw_view.all_button.click()
            deal = p.controller.service.replay(p.controller.table).current
            problems = secrecy_problems(text_without_the_draw(p), deal, p.controller.seat,
                                        where=f"{p.controller.seat}'s page")
            assert problems == []
            assert cards_named(state_text(p.draw_view)) <= draw_cards  # the draw's view: the draw's cards only

    def test_a_group_that_chooses_its_partners_keeps_its_seats_with_the_mark(self, kernels):
        first = page(kernels)
        assert first.choose_note.value.startswith(f"<small>{BADGE} <!-- partners-chosen-option -->")
        first.table_box.value, first.name_box.value, first.choose_box.value = "Chosen", "Ann", True
        first.open_button.click()
        first.seat_buttons[SEATS[2]].click()
        others = []
        for seat, name in zip((SEATS[0], SEATS[1], SEATS[3]), NAMES[1:]):
            p = page(kernels)
            p.table_box.value, p.name_box.value = "Chosen", name
            p.seat_buttons[seat].click()
            others.append(p)
        first.refresh()
        assert first.controller.info.draw is None and first.draw_view.layout.display == "none"
        assert first.controller.seat is SEATS[2] and first._playing.layout.display != "none"


def test_the_view_alone_hides_without_a_draw_and_says_when_it_is_over():
    view = TableDraw()
    assert view.layout.display == "none" and view.draw is None
    view.step(None)  # nothing to step: nothing happens
    from aluette.draw import partnership_draw
    draw = partnership_draw(list(NAMES), 3)
    finished = []
    view = TableDraw(on_finished=lambda: finished.append(True))
    view.show(draw, "Cat")
    view.step(1)
    view.show(draw, "Cat")  # the same draw again keeps its place
    assert view.shown == 1 and finished == []
    view.step(None)
    assert finished == [True] and view.finished
    view.next_button.click()
    assert "The draw is over" in view.message.value
    view.show(None)
    assert view.layout.display == "none"
