"""Widget tests for the "Play" notebook (aluette.widgets.play), driven without a browser.

Each test names the rule it checks: the rules sheet = docs/sources ("gameplay"); pagat = pagat.com's
Aluette page; decision = a decision of this project (the trivial playing rule, the quality bar on bad input).
"""

from html import escape

from aluette import Card, Deal, Phase, Seat
from aluette.players.drivers import play_out
from aluette.widgets.play import TrickStepper, TrickPicker, play_one_trick


def set_cards(picker, **cards):
    for seat, text in cards.items():
        picker.card_boxes[Seat(seat)].value = text


class TestPlayOneTrick:
    def test_highest_class_wins_and_leads_next(self):
        # the rules sheet, "gameplay": the highest-ranking card wins; its player leads the next trick
        record, next_leader = play_one_trick("N", {"N": "1O", "E": "12E", "S": "3C", "W": "1B"})
        assert record.winner is Seat.S and next_leader is Seat.S

    def test_tie_for_best_spoils_and_leader_leads_again(self):
        # the rules sheet, "gameplay": a tie for the highest card spoils the trick; the original leader leads again
        record, next_leader = play_one_trick("W", {"W": "4C", "N": "12O", "E": "12E", "S": "5B"})
        assert record.spoiled and next_leader is Seat.W

    def test_tie_below_the_best_does_not_spoil(self):
        # the rules sheet, "gameplay": only a tie for the *highest* card spoils
        record, _ = play_one_trick("N", {"N": "1O", "E": "1E", "S": "2C", "W": "4B"})
        assert record.winner is Seat.S

    def test_play_order_is_clockwise_from_the_leader(self):
        # the rules sheet, "gameplay" and pagat: play goes clockwise (N, E, S, W) from the leader
        record, _ = play_one_trick("S", {"N": "4O", "E": "5O", "S": "6O", "W": "7O"})
        assert [seat for seat, _ in record.plays] == [Seat.S, Seat.W, Seat.N, Seat.E]


class TestTrickPicker:
    def test_default_trick_shows_the_winner_and_next_leader(self):
        # the rules sheet, "gameplay": Madame (3 of cups) outranks aces and kings; the winner leads next
        picker = TrickPicker()
        assert picker.record.winner is Seat.S and picker.next_leader is Seat.S
        assert "South wins the trick and leads next" in picker.result.value
        assert picker.message.last_error is None

    def test_two_best_aces_spoil_and_the_leader_leads_again(self):
        # the rules sheet, "gameplay": equal classes tie whatever their suit; a spoiled trick is led again by its leader
        picker = TrickPicker(leader="E")
        set_cards(picker, N="4C", E="1O", S="12E", W="1E")
        assert picker.record.spoiled
        assert picker.next_leader is Seat.E
        assert "spoiled" in picker.result.value and "East led it and leads again" in picker.result.value

    def test_changing_the_leader_changes_who_leads_again(self):
        # the rules sheet, "gameplay": after a spoiled trick "the original leader" leads again
        picker = TrickPicker()
        set_cards(picker, N="4C", E="1O", S="12E", W="1E")
        picker.leader.value = "S"
        assert picker.record.spoiled and picker.next_leader is Seat.S
        assert "South → West → North → East" in picker.order.value

    def test_card_names_are_accepted(self):
        # decision (Card.parse): codes, English names and the traditional nicknames are all accepted
        picker = TrickPicker()
        set_cards(picker, N="la vache", E="king of swords", S="Monsieur", W="4 of cups")
        assert picker.record.winner is Seat.S and picker.record.card_of("S") == Card.parse("3O")
        assert picker.message.last_error is None

    def test_wrong_card_code_shows_a_message_and_keeps_working(self):
        # decision (quality bar): bad input gets a message naming it; the last valid trick stays; the widget works on
        picker = TrickPicker()
        before = picker.record
        set_cards(picker, W="ZZ")
        assert "'ZZ'" in picker.message.last_error and "West" in picker.message.last_error
        assert picker.record is before
        set_cards(picker, W="3O")
        assert picker.message.last_error is None
        assert picker.record.winner is Seat.W and picker.next_leader is Seat.W

    def test_a_card_chosen_twice_is_refused(self):
        # the rules sheet, "materials": one 48-card deck, so a card exists once
        picker = TrickPicker()
        set_cards(picker, E="1O")
        assert "1O is chosen twice" in picker.message.last_error
        set_cards(picker, E="12E")
        assert picker.message.last_error is None

    def test_an_empty_box_asks_for_a_card(self):
        # decision (quality bar): a missing input is named, not a traceback
        picker = TrickPicker()
        set_cards(picker, S="")
        assert "choose a card for South" in picker.message.last_error


class TestTrickStepper:
    def test_starts_from_the_seed_with_the_chant_declined(self):
        # decision (quality bar): the seed box decides the deal; the same seed gives the same deal
        stepper = TrickStepper(seed=11)
        assert stepper.deal.deck == Deal.from_seed(11).deck
        assert stepper.deal.phase is Phase.PLAY and stepper.deal.tricks == ()
        assert "declines the chant" in stepper.events.value

    def test_next_trick_plays_one_trick_and_shows_the_counts(self):
        # the rules sheet, "gameplay": the dealer's left leads the first trick; each seat plays one card
        stepper = TrickStepper(seed=11, dealer="E")
        stepper.next_button.click()
        deal = stepper.deal
        assert len(deal.tricks) == 1 and deal.tricks[0].leader is Seat.S
        assert escape(deal.tricks[0].explain()) in stepper.message.value  # names with apostrophes are escaped
        assert "After 1 of 9 tricks" in stepper.counts.value
        for seat, count in deal.trick_counts.items():
            assert f"<b>{seat}</b> {count}<" in stepper.counts.value

    def test_run_to_end_finishes_and_leaders_follow_the_rules(self):
        # the rules sheet, "gameplay": the winner leads next; after a spoiled trick the same leader leads again
        stepper = TrickStepper(seed=11)
        stepper.run_button.click()
        deal = stepper.deal
        assert deal.is_over and len(deal.tricks) == 9
        for before, after in zip(deal.tricks, deal.tricks[1:]):
            assert after.leader is (before.leader if before.spoiled else before.winner)
        assert deal.result.reason in stepper.message.value
        assert stepper.next_button.disabled and stepper.run_button.disabled
        assert deal.tricks[-1].explain().replace("'", "&#x27;") in stepper.events.value

    def test_next_after_the_end_is_refused_and_changes_nothing(self):
        # decision (quality bar): a refused action leaves the state as it was, with a message
        stepper = TrickStepper(seed=11)
        stepper.run_button.click()
        moves = stepper.deal.moves
        stepper.next_button.click()
        assert "The deal is over" in stepper.message.last_error
        assert stepper.deal.moves == moves

    def test_new_deal_deals_the_next_seed(self):
        # decision (quality bar): all chance goes through the visible seed box
        stepper = TrickStepper(seed=11)
        stepper.run_button.click()
        stepper.new_button.click()
        assert stepper.seed.seed_value == 12
        assert stepper.deal.deck == Deal.from_seed(12).deck and stepper.deal.tricks == ()
        assert not stepper.next_button.disabled

    def test_typing_a_seed_restarts_that_deal(self):
        # decision (quality bar): the same seed gives the same deal everywhere
        stepper = TrickStepper(seed=11)
        stepper.next_button.click()
        stepper.seed.value = "5"
        expected = play_out(Deal.from_seed(5), "highest")
        stepper.run_button.click()
        assert stepper.deal.notation == expected.notation

    def test_the_rule_dropdown_changes_the_play(self):
        # decision: "lowest" makes each seat play its lowest card
        stepper = TrickStepper(seed=11)
        stepper.rule.value = "lowest"
        stepper.next_button.click()
        for seat, card in stepper.deal.tricks[0].plays:
            assert card == stepper.deal.dealt_hand(seat)[-1]
