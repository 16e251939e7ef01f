"""Widget callbacks of the setup notebook (02), driven without a browser.

Rule sources: the rules sheet, "setup", and pagat.com (the face-up partnership draw; Monsieur's and Madame's holders
partner against le Borgne's and la Vache's; partners sit opposite; Madame's holder deals first; the dealer's right cuts;
nine cards each in threes from the dealer's left, clockwise; twelve left over). Decisions of this project: the first
name deals the face-up cards starting with the second; Madame's holder sits at N."""

import pytest

from aluette import TOP_FOUR, Deal, Hand, Seat, partnership_draw
from aluette.widgets.setup import DealingStepper, PartnershipDraw, seating_html

MONSIEUR, MADAME, BORGNE, VACHE = TOP_FOUR


class TestPartnershipDraw:
    def test_next_shows_one_face_up_card_at_a_time(self):
        # decision of this project: the first name deals, starting with the second name
        widget = PartnershipDraw(names=("Ann", "Bob", "Cy", "Dee"), seed=4)
        assert widget.shown == 0 and "Ann shuffles" in widget.status.value
        widget.next_button.click()
        name, card = widget.draw.steps[0]
        assert widget.shown == 1 and name == "Bob"
        assert f"Card 1 of {len(widget.draw.steps)}" in widget.status.value and "to Bob" in widget.status.value
        assert f'data-card="{card}"' in widget._cards.value
        assert widget.result.value == ""

    @pytest.mark.parametrize("seed", [0, 1, 2, 3, 99])
    def test_run_to_end_shows_partners_seating_and_dealer(self, seed):
        # the rules sheet, "setup": Madame's holder deals first; Monsieur + Madame partner against le Borgne + la Vache;
        # decision of this project: Madame's holder sits at N (so N deals first)
        widget = PartnershipDraw(seed=seed)
        widget.run_button.click()
        assert widget.finished
        draw = widget.draw
        holder = {card: name for name, card in draw.top_card.items()}
        assert draw.seating[Seat.N] == holder[MADAME] and draw.seating[Seat.S] == holder[MONSIEUR]
        assert {draw.seating[Seat.E], draw.seating[Seat.W]} == {holder[BORGNE], holder[VACHE]}
        html = widget.result.value
        assert f"Madame's holder {holder[MADAME]} takes N and deals first" in html
        n_cell = html[html.index("aluette-seat-N"):]
        assert n_cell.index(holder[MADAME]) < n_cell.index("(deals)") < n_cell.index("aluette-seat-E")
        assert html.count("(deals)") == 1

    def test_every_player_stops_at_a_top_card(self):
        # the rules sheet, "setup": a player who receives one of the four top cards gets no more cards
        widget = PartnershipDraw(seed=7)
        widget.run_button.click()
        for name, cards in widget.draw.received.items():
            assert cards[-1] in TOP_FOUR and not set(cards[:-1]) & set(TOP_FOUR)
            assert f"{name}</b> — holds {cards[-1].code}" in widget._cards.value

    def test_next_after_the_end_says_so_and_new_shuffle_restarts(self):
        widget = PartnershipDraw(seed=5)
        widget.run_button.click()
        widget.next_button.click()
        assert "the draw is over" in widget.message.last_error
        widget.new_button.click()
        assert widget.seed.seed_value == 6 and widget.shown == 0 and not widget.finished
        assert widget.draw == partnership_draw(widget.draw.names, 6)
        widget.next_button.click()
        assert widget.shown == 1 and widget.message.last_error is None

    def test_same_seed_same_draw(self):
        # quality bar: all chance through a visible seed; the same seed gives the same draw
        a, b = PartnershipDraw(seed=12), PartnershipDraw(seed=12)
        assert a.draw.steps == b.draw.steps

    def test_bad_names_show_a_message_and_keep_the_draw(self):
        widget = PartnershipDraw(names=("Ann", "Bob", "Cy", "Dee"), seed=2)
        widget.next_button.click()
        widget.next_button.click()
        before = widget.draw
        widget.name_boxes[2].value = "ann "
        # said in words, naming the boxes, not as a Python list
        assert widget.message.last_error == ('the 1st and 3rd names are both "ann": the four players need different '
                                             'names')
        assert widget.draw is before and widget.shown == 2
        widget.name_boxes[2].value = "   "
        assert widget.message.last_error == "the 3rd name is empty: type a name for each of the four players"
        assert widget.draw is before and "[" not in widget.message.last_error
        widget.name_boxes[2].value = "Zoé"  # fixed: the draw starts again with the new name
        assert widget.message.last_error is None and widget.shown == 0
        assert widget.draw.names == ("Ann", "Bob", "Zoé", "Dee")
        widget.run_button.click()
        assert "Zoé" in widget._cards.value and widget.finished

    def test_css_classes(self):
        widget = PartnershipDraw()
        assert "aluette-draw-next" in widget.next_button._dom_classes
        assert "aluette-draw-run" in widget.run_button._dom_classes
        assert "aluette-draw-new" in widget.new_button._dom_classes
        assert "aluette-draw-result" in widget.result._dom_classes


def test_seating_picture_puts_partners_opposite():
    # the rules sheet, "setup": partners sit opposite; N top, E right, S bottom, W left (clockwise N→E→S→W on the
    # screen)
    html = seating_html({Seat.N: "Ann", Seat.E: "Bob", Seat.S: "Cy", Seat.W: "Dee"}, Seat.N)
    assert 'aluette-seat-N" style="grid-row:1;grid-column:2' in html
    assert 'aluette-seat-S" style="grid-row:3;grid-column:2' in html
    assert 'aluette-seat-E" style="grid-row:2;grid-column:3' in html
    assert 'aluette-seat-W" style="grid-row:2;grid-column:1' in html
    assert "N → E → S → W" in html


class TestDealingStepper:
    @pytest.mark.parametrize("dealer", list(Seat))
    def test_run_to_end_gives_the_engines_deal(self, dealer):
        # the rules sheet, "setup": nine cards each, twelve left over; the hands are the engine's for this seed and
        # dealer
        widget = DealingStepper(seed=21, dealer=dealer)
        widget.run_button.click()
        deal = Deal.from_seed(21, dealer=dealer)
        assert widget.finished
        for seat in Seat:
            assert len(widget.hands[seat]) == 9 and Hand(widget.hands[seat]) == deal.dealt_hand(seat)
        assert len(widget.stock) == 12 and widget.stock == deal.stock
        assert "twelve left over are the stock" in widget.status.value

    def test_steps_shuffle_cut_then_threes_from_the_dealers_left(self):
        # the rules sheet, "setup": the dealer's right cuts; the deal starts at the dealer's left, three cards at a time
        widget = DealingStepper(seed=8, dealer=Seat.W)
        assert widget.step == 0 and "W (the dealer) shuffles" in widget.status.value
        widget.next_button.click()
        assert f"S, at the dealer's right, cuts: lifts the top {widget.cut} cards" in widget.status.value
        assert all(len(cards) == 0 for cards in widget.hands.values())
        widget.next_button.click()
        assert {s: len(c) for s, c in widget.hands.items()} == {Seat.N: 3, Seat.E: 0, Seat.S: 0, Seat.W: 0}
        assert "N (the dealer's left: the deal starts here)" in widget.status.value
        for _ in range(3):
            widget.next_button.click()
        assert {s: len(c) for s, c in widget.hands.items()} == {s: 3 for s in Seat}
        widget.next_button.click()
        assert "round 2 of 3, N receives" in widget.status.value and len(widget.hands[Seat.N]) == 6

    def test_next_after_the_end_and_new_shuffle(self):
        widget = DealingStepper(seed=1)
        widget.run_button.click()
        widget.next_button.click()
        assert "the deal is done" in widget.message.last_error
        widget.new_button.click()
        assert widget.seed.seed_value == 2 and widget.step == 0 and widget.message.last_error is None

    def test_changing_the_dealer_restarts(self):
        widget = DealingStepper(seed=3, dealer=Seat.N)
        widget.run_button.click()
        widget.dealer.value = Seat.S
        assert widget.step == 0
        widget.run_button.click()
        assert Hand(widget.hands[Seat.W]) == Deal.from_seed(3, dealer=Seat.S).dealt_hand(Seat.W)

    def test_css_classes(self):
        widget = DealingStepper()
        assert "aluette-deal-next" in widget.next_button._dom_classes
        assert "aluette-deal-table" in widget.table._dom_classes
        assert "aluette-deal-seed" in widget.seed._dom_classes


class TestCardSize:
    """Issue 23, point 10: on "Large" the cards of 02 stayed small (their pictures were 26-34 px wide, zoomed by
    84/72 only). Each view draws its pictures at the widths of PICTURE_WIDTHS for the page's card size, at once."""

    @staticmethod
    def widths(html):
        import re
        return {int(w) for w in re.findall(r'<svg[^>]*class="aluette-card"[^>]*width="(\d+)"', html)}

    @pytest.fixture(autouse=True)
    def normal_size(self):
        from aluette.widgets.common import page_card_size
        page_card_size().size = "normal"
        yield
        page_card_size().size = "normal"

    def test_the_draw_and_the_deal_follow_the_card_size_control(self):
        from aluette.widgets.common import CARD_SIZES
        from aluette.widgets.setup import PICTURE_WIDTHS
        draw, deal = PartnershipDraw(seed=3), DealingStepper(seed=3)
        draw.run_button.click()
        deal.run_button.click()
        control = next(c for c in deal.children if "aluette-card-size" in c._dom_classes)
        assert self.widths(draw._cards.value) == {PICTURE_WIDTHS["normal"][0]}
        assert self.widths(deal.table.value) == set(PICTURE_WIDTHS["normal"][1:])
        for size in CARD_SIZES:
            control.value = size  # a click on the toggle button: every view of the page follows
            draw_w, hand_w, pile_w = PICTURE_WIDTHS[size]
            assert self.widths(draw._cards.value) == {draw_w} and self.widths(deal.table.value) == {hand_w, pile_w}
            assert deal.finished and draw.finished  # the views keep their step
        assert PICTURE_WIDTHS["large"][1] >= 1.5 * PICTURE_WIDTHS["normal"][1]  # large is large, for a projector
        assert "aluette-sized" not in {*draw._dom_classes, *deal._dom_classes}  # no zoom on top of it

    def test_a_closed_view_stops_following(self):
        from aluette.widgets.common import page_card_size
        deal = DealingStepper(seed=3)
        before = deal.table.value
        deal.close()
        page_card_size().size = "large"
        assert deal.table.value == before
