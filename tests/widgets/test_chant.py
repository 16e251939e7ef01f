"""Widget callbacks of the chant notebook (03), driven without a browser.

Rule sources: the rules sheet, "setup", and pagat.com (all four must agree to the chant, asked from the dealer's left;
the twelve stock cards go alternately to the dealer's left and the dealer, six each; each discards six, keeping nine;
if anyone declines the stock is not used). Decisions of this project: asking stops at the first refusal; the
dealer's left discards first. Variant (some French descriptions): the dealer's partner receives instead of the
dealer. Quality bar of this project: a seat's view, and what a widget sends to the browser, never holds another
seat's hidden cards."""

import json
import re


from aluette import DECK, Card, Deal, Options, Phase, Seat
from aluette.options import ChantRecipients
from aluette.widgets.chant import ChantDemo
from aluette.widgets.common import card_label, card_words


def agree_all(widget):
    for toggle in widget.answer_toggles:
        toggle.value = True


def browser_text(widget) -> str:
    """Every trait value the widget tree would send to the browser, as one text."""
    parts, stack = [], [widget]
    while stack:
        node = stack.pop()
        parts.append(json.dumps(node.get_state(), default=str))
        stack.extend(getattr(node, "children", ()))
    return "\n".join(parts)


def shows(text: str, card) -> bool:
    return bool(re.search(rf"(?<![0-9A-Za-z#]){card.code}(?![0-9A-Za-z])", text)) or card_label(card) in text


def assert_private(widget):
    """The browser-side state shows every card ``you`` may see somewhere, and no other card."""
    text = browser_text(widget)
    visible = widget.deal.view(widget.you).visible_cards()
    hidden = [c for c in DECK if c not in visible]
    assert all(shows(text, c) for c in visible)
    assert not [c for c in hidden if shows(text, c)]


class TestAsking:
    def test_asked_from_the_dealers_left(self):
        # the rules sheet, "setup" / pagat: every player is asked, starting at the dealer's left
        widget = ChantDemo(seed=2, dealer=Seat.S)
        assert widget.asking_order == (Seat.W, Seat.N, Seat.E, Seat.S)
        assert [t.disabled for t in widget.answer_toggles] == [False, True, True, True]
        widget.answer_toggles[0].value = True
        assert [t.disabled for t in widget.answer_toggles] == [True, False, True, True]
        assert widget.deal.to_move is Seat.N

    def test_answer_out_of_turn_is_refused_and_widget_keeps_working(self):
        widget = ChantDemo(seed=2)
        widget.answer_toggles[2].value = True
        assert "it is E's turn" in widget.message.last_error
        assert widget.answer_toggles[2].value is None and widget.deal.view(None).chant_answers == ()
        widget.answer_toggles[0].value = True
        assert widget.message.last_error is None and widget.deal.to_move is Seat.S

    def test_a_refusal_ends_the_asking_and_the_stock_stays_unseen(self):
        # the rules sheet, "setup": if a player does not want the chant, it is not done; decision: asking stops there
        widget = ChantDemo(seed=4)
        dealt = {s: widget.deal.dealt_hand(s) for s in Seat}
        widget.answer_toggles[0].value = True
        widget.answer_toggles[1].value = False
        assert all(t.disabled for t in widget.answer_toggles)
        assert widget.answer_toggles[2].value is None and widget.answer_toggles[3].value is None
        assert "not asked: the chant is already off" in widget._answer_labels[2].value
        assert "unused and unseen" in widget.result.value
        assert widget.deal.phase is Phase.PLAY
        assert all(widget.deal.hands[s] == dealt[s] for s in Seat)
        for seat in Seat:
            assert not set(widget.deal.stock) & widget.deal.view(seat).visible_cards()
        assert widget.picker.layout.display == "none"
        assert_private(widget)

    def test_answer_after_the_chant_is_off_is_refused(self):
        widget = ChantDemo(seed=4)
        widget.answer_toggles[0].value = False
        widget.answer_toggles[3].value = True
        assert "play phase" in widget.message.last_error
        assert widget.answer_toggles[3].value is None


class TestStockAndDiscard:
    def test_all_agree_gives_you_fifteen_cards_and_a_suggestion(self):
        # the rules sheet, "setup": the stock goes alternately to the dealer's left and the dealer, six each
        widget = ChantDemo(seed=6, dealer=Seat.N)  # you sit at E, the dealer's left
        agree_all(widget)
        deal = widget.deal
        assert deal.phase is Phase.DISCARD and deal.to_move is Seat.E
        assert len(widget.pick_buttons) == 15 and widget.picker.layout.display is None
        # keyboard-only usable: the card pictures are the buttons, named in words
        assert [b.card for b in widget.pick_buttons] == list(deal.hands[Seat.E])
        assert all(b.label.startswith(card_words(b.card)) for b in widget.pick_buttons)
        # you choose first; the suggested discard shows only when asked for
        suggestion = deal.suggested_discard(Seat.E)
        assert widget._suggestion.value == ""
        widget.suggest_button.click()
        assert all(f'data-card="{c}"' in widget._suggestion.value for c in suggestion)
        text = widget.table.value
        assert "1→E" in text and "2→N" in text and "12→N" in text
        assert_private(widget)

    def test_discard_six_by_toggling_and_hands_go_back_to_nine(self):
        # the rules sheet, "setup": recipients discard back down to nine
        widget = ChantDemo(seed=6)
        agree_all(widget)
        for button in widget.pick_buttons[:7]:  # the six highest: allowed, if unwise
            button.click()
        widget.pick_buttons[6].click()  # a second click puts a card back
        assert "6 of 6 chosen" in widget._count.value
        assert ["aluette-card-selected" in b._dom_classes for b in widget.pick_buttons] == [True] * 6 + [False] * 9
        chosen = widget.chosen
        widget.discard_button.click()
        deal = widget.deal
        assert widget.message.last_error is None
        assert deal.phase is Phase.PLAY and deal.to_move is Seat.E
        assert {s: len(deal.hands[s]) for s in Seat} == {s: 9 for s in Seat}
        assert not set(chosen) & set(deal.hands[Seat.E])
        assert widget.pick_buttons == () and widget.picker.layout.display == "none"
        assert "Each holds nine again" in widget.result.value
        assert "Keeping the highest nine would have discarded" in widget.message.value
        assert_private(widget)

    def test_throwing_away_monsieur_gets_a_remark(self):
        # the rules sheet: Monsieur (3 of coins) is the highest card; the demo says so when you discard it
        for seed in range(200):
            widget = ChantDemo(seed=seed)
            agree_all(widget)
            if widget.deal.phase is Phase.DISCARD and Card.parse("3O") in widget.deal.hands[widget.you]:
                break
        else:
            raise AssertionError("no seed below 200 gives you Monsieur with a discard to make")
        hand = widget.deal.hands[widget.you]
        widget.typed.value = " ".join(map(str, [Card.parse("3O"), *[c for c in hand if c.code != "3O"][-5:]]))
        widget.typed_button.click()
        assert widget.message.last_error is None and "You threw away Monsieur" in widget.message.value
        other = ChantDemo(seed=seed)
        agree_all(other)
        other.suggest_button.click()
        other.discard_button.click()
        assert "Monsieur" not in other.message.value and "you kept your highest nine" in other.message.value

    def test_suggestion_button_keeps_the_highest_nine(self):
        # the rules sheet, "setup": "keep the highest for their hand"
        widget = ChantDemo(seed=10)
        agree_all(widget)
        fifteen = widget.deal.hands[Seat.E]
        widget.suggest_button.click()
        assert set(widget.chosen) == set(widget.deal.suggested_discard(Seat.E))
        widget.discard_button.click()
        assert widget.deal.hands[Seat.E] == fifteen[:9]

    def test_bad_discards_show_messages_and_change_nothing(self):
        widget = ChantDemo(seed=6)
        agree_all(widget)
        hand = widget.deal.hands[Seat.E]
        for button in widget.pick_buttons[:5]:
            button.click()
        widget.discard_button.click()
        assert "exactly six" in widget.message.last_error
        not_held = [c for c in DECK if c not in hand][:6]
        widget.typed.value = " ".join(map(str, not_held))
        widget.typed_button.click()
        assert "not in their hand" in widget.message.last_error
        widget.typed.value = "4O 5O 6O 7O 8O 3Q"
        widget.typed_button.click()
        assert "unknown card '3Q'" in widget.message.last_error
        assert widget.deal.hands[Seat.E] == hand and widget.deal.phase is Phase.DISCARD
        assert len(widget.pick_buttons) == 15
        widget.typed.value = " ".join(map(str, hand[9:]))  # still works afterwards
        widget.typed_button.click()
        assert widget.message.last_error is None and len(widget.deal.hands[Seat.E]) == 9

    def test_you_as_dealer_discard_after_the_dealers_left(self):
        # decision of this project: the dealer's left discards first; here another player does it for them
        widget = ChantDemo(seed=3, dealer=Seat.W, you=Seat.W)
        agree_all(widget)
        deal = widget.deal
        assert len(deal.hands[Seat.N]) == 9 and deal.to_move is Seat.W
        assert len(widget.pick_buttons) == 15
        widget.suggest_button.click()
        widget.discard_button.click()
        assert deal.phase is Phase.PLAY and len(deal.hands[Seat.W]) == 9
        assert_private(widget)

    def test_variant_the_dealers_partner_receives(self):
        # variant (ChantRecipients.LEFT_AND_PARTNER): the dealer's left and the dealer's partner receive
        widget = ChantDemo(seed=5, dealer=Seat.N, you=Seat.S)
        widget.recipients.value = ChantRecipients.LEFT_AND_PARTNER
        assert widget.deal.chant_recipients() == (Seat.E, Seat.S)
        assert "alternately to E and S" in widget.result.value
        dealer_hand = widget.deal.hands[Seat.N]
        agree_all(widget)
        assert widget.deal.to_move is Seat.S and len(widget.pick_buttons) == 15  # E discarded first
        widget.suggest_button.click()
        widget.discard_button.click()
        assert widget.deal.hands[Seat.N] == dealer_hand
        assert {s: len(widget.deal.hands[s]) for s in Seat} == {s: 9 for s in Seat}

    def test_not_a_recipient(self):
        widget = ChantDemo(seed=9, dealer=Seat.N, you=Seat.S)
        agree_all(widget)
        assert widget.deal.phase is Phase.PLAY
        assert widget.picker.layout.display == "none"
        assert "took six from the stock" in widget.table.value
        assert_private(widget)


class TestControls:
    def test_same_seed_same_deal_and_new_deal(self):
        # quality bar: the same seed gives the same deal everywhere
        widget = ChantDemo(seed=14, dealer=Seat.E)
        expected = Deal.from_seed(14, dealer=Seat.E, options=Options())
        assert all(widget.deal.hands[s] == expected.hands[s] for s in Seat)
        widget.answer_toggles[0].value = True
        widget.new_button.click()
        assert widget.seed.seed_value == 15 and widget.deal.view(None).chant_answers == ()
        assert all(t.value is None for t in widget.answer_toggles)

    def test_changing_your_seat_only_shows_that_seat(self):
        widget = ChantDemo(seed=1)
        for seat in Seat:
            widget.seat.value = seat
            assert_private(widget)

    def test_css_classes(self):
        widget = ChantDemo()
        assert all("aluette-chant-answer" in t._dom_classes for t in widget.answer_toggles)
        assert "aluette-chant-answer-1" in widget.answer_toggles[0]._dom_classes
        assert "aluette-chant-discard" in widget.discard_button._dom_classes
        assert "aluette-chant-result" in widget.result._dom_classes
