"""Widget callbacks of the "Play a match" notebook (08), driven without a browser.

Rule sources: the rules sheet, "gameplay" (one card each in turn, clockwise; any card may be played), "setup" (the
chant: all four must agree, asked from the dealer's left; the stock goes alternately to the dealer's left and the
dealer, who each discard six face down), "signals" (the partners' signal table; only the partner sees a signal), "end of
game" (a match is five deals, the deal passing to the left); pagat.com (surrender: accepted, the accepting side scores
1; refused, the refusing side must make mordienne). Decisions of this project: signals are honest; a click at the
wrong moment shows a message and changes nothing; no widget trait ever holds a card South may not see.

Seeds with a given property (all four agree to the chant, a bot offers to surrender...) are found by searching from
0 with the property stated, not copied from a run.
"""

import asyncio
import json
import re
from html import unescape

import ipywidgets as w
import numpy as np
import pytest

from aluette import DECK, SEATS, TOP_FOUR, AluetteError, Match, Options, Phase, Play, Seat, Team
from aluette.players.bots import HeuristicBot, RandomBot
from aluette.signals import signal_for
from aluette.widgets.common import card_label, card_words
from aluette.secrecy import hidden_cards
from aluette.players.session import make_bots
from aluette.widgets.common import reachable_widgets, state_text
from aluette.widgets.match import MatchTable, parse_seed, state_problems
from tests.coroutines import run as run_coroutine

S, N, E, W = Seat.S, Seat.N, Seat.E, Seat.W


def table(seed=2026, **kwargs) -> MatchTable:
    return MatchTable(seed=seed, bot_delay=0, **kwargs)


def first_seed(condition, **kwargs) -> MatchTable:
    """The table of the first seed from 0 whose fresh table satisfies ``condition(table)``."""
    for seed in range(200):
        candidate = table(seed, **kwargs)
        if condition(candidate):
            return candidate
        candidate.close()
    raise AssertionError("no seed below 200 has the property")


def to_play(t: MatchTable) -> MatchTable:
    """Decline the chant if asked, so that South is to play."""
    if t.deal.phase is Phase.CHANT and t.deal.to_move is S:
        t.answer_chant(False)
    assert t.deal.phase is Phase.PLAY and t.deal.to_move is S
    return t


def text(html_widget) -> str:
    return unescape(html_widget.value)


def assert_consistent(t: MatchTable):
    """The widget shows the engine's state as South sees it, the match replays legally, and no hidden card is in
    any widget trait (while all of South's are)."""
    match = t.match
    replayed = Match.from_json(match.to_json())  # every move is checked again by the engine
    assert replayed.to_json() == match.to_json()
    view = t.view
    deal = t.deal
    played = len(view.tricks)
    if deal.phase is not Phase.DISCARD:  # nine cards each, less one per card played
        for seat in SEATS:
            in_trick = sum(1 for s, _ in view.trick if s is seat)
            assert view.hand_sizes[seat] == 9 - played - in_trick
    assert [b.card for b in t.card_buttons] == list(view.hand)
    assert all(b.label.startswith(card_words(b.card) + ": ") for b in t.card_buttons)
    counts = text(t.counts)
    assert f"tricks played: {played} of 9" in counts
    assert all(f"{s} {view.trick_counts[s]}" in counts.split("tricks won:")[1] for s in SEATS)
    assert t.internal_errors == []
    assert state_problems(t) == []


class TestFewWidgets:
    def test_a_fresh_table_makes_only_what_it_shows(self):
        """Each widget a page opens costs the classroom server a message on its one core (notebook 08's page for 30
        students at once): a fresh table holds no hidden card slot, no empty signal button, neither the surrender's
        answers nor the discard row (made when first needed), and its widgets share one layout (widths by CSS class),
        but for the questions' box, shown and hidden by its own."""
        t = table()
        made = reachable_widgets(t)
        assert t.deal.phase is Phase.CHANT and t.deal.to_move is S  # the chant's answers are shown, so made
        assert len({id(x) for x in made if isinstance(x, w.Layout)}) == 2
        assert t._questions.layout is not t.layout and t.hand_box.layout is t.layout
        assert not [b for b in made if isinstance(b, w.Button) and not b.description.strip()]
        assert len(t._slots) == len(t.view.hand) and set(t.visible_signal_buttons) == set(t.deal.legal_signals(S))
        assert set(t._answer_buttons) == {"agree", "decline"} and t._discard_row is None
        assert len(made) <= 66  # 63 with this seed (142 when every control was made at start)

    def test_what_is_made_later_is_closed_with_the_table(self):
        # close() closes the widgets made and no longer shown too (the surrender's answers, a signal button out of
        # its row), so that a page's closed demo tables leave nothing open
        t = table(options=Options(surrender=True, chant=False), first_dealer=E)
        offer = t.surrender_buttons["offer"]
        while t.deal.phase is not Phase.PLAY:
            t.follow_hint()
        spare = [b for b in t.signal_buttons if b not in t._signal_row.children]
        assert offer not in t.question_buttons
        t.close()
        assert offer.comm is None and all(b.comm is None for b in spare)
        assert all(x.comm is None for x in reachable_widgets(t))


    def test_a_closed_table_leaves_no_open_widget_naming_its_widgets(self):
        """Voilà asks the state of every open widget as a page loads: an open box whose children include a closed
        widget (a demo table closed by the notebook's checks) fails that request, and the page shows "Loading
        widget" for ever. Nothing a table made stays open once it is closed, nor does a replaced card button."""
        from ipywidgets.widgets.widget import _instances  # every open widget of the kernel (Widget.widgets, deprecated)
        before = set(_instances)  # what other tests of this process left open is theirs, not this table's
        t = table()
        to_play(t)
        while not t.view.tricks:
            t.follow_hint()
        made = {id(x) for key, x in _instances.items() if key not in before}
        assert len(made) > 20  # the positive control: the table's own widgets are known
        t.close()

        def holds_closed(x):  # an open widget naming a closed widget that the table made
            for key in x.keys:
                value = getattr(x, key)
                for v in value if isinstance(value, (list, tuple)) else [value]:
                    if isinstance(v, w.Widget) and v.comm is None and id(v) in made:
                        return True
            return False
        assert [type(x).__name__ for x in list(_instances.values()) if x.comm is not None and holds_closed(x)] == []


class TestHand:
    def test_your_hand_as_card_pictures_and_buttons(self):
        t = table()
        hand = t.view.hand
        assert len(hand) == 9
        # quality bar, keyboard-only usable: the picture is the button; its accessible name says the card in words
        assert [b.card for b in t.card_buttons] == list(hand)
        assert all(f'data-card="{b.card.code}"' in b.picture.value for b in t.card_buttons)
        assert all(b.button.tooltip.startswith(card_words(b.card)) and b.button.description == b.button.tooltip
                   for b in t.card_buttons)
        assert len(t._slots) == 9  # none made before a hand needs it; each a button, then its picture
        assert t.hand_box.children == tuple(x for slot in t._slots for x in (slot.button, slot.picture))
        to_play(t).button_for(hand[0]).click()
        gone = t._slots[0]  # a played card's slot is hidden and names no card
        assert gone.layout.display == "none" and gone.picture.value == "" and gone.button.tooltip == ""
        assert gone.card is None and hand[0] not in [b.card for b in t.card_buttons]

    def test_the_accessible_name_says_the_card_and_what_a_click_does_now(self):
        # accessible names: "3 of coins, Monsieur"; the label follows the phase (chant, play, discard, deal over)
        t = table()
        assert all(b.label.endswith("no card is played before the first trick)") for b in t.card_buttons)
        to_play(t)
        assert all(b.label.endswith(": play it") for b in t.card_buttons)
        assert "click a card to play it" in t._hand_head.value
        while not t.deal.is_over:
            t.follow_hint()
        assert all(b.label.endswith("the deal is over") for b in t.card_buttons)
        assert "press Next deal" in t._hand_head.value

    def test_a_card_click_plays_it_and_the_bots_answer(self):
        # the rules sheet, "gameplay": each plays one card in turn, clockwise; the bots play until it is South's turn
        # again
        t = to_play(table())
        card = t.view.hand[-1]
        t.button_for(card).click()
        deal = t.deal
        assert t.message.last_error is None and card not in deal.hands[S]
        assert deal.tricks[0].card_of(S) is card
        assert f'data-card="{card.code}"' in t.table.value
        assert card not in [c for c in t.view.hand] and card not in [b.card for b in t.card_buttons]
        assert deal.to_move is S and len(deal.tricks) == 1  # W and N finished trick 1; S plays in trick 2
        assert_consistent(t)

    def test_the_trick_on_the_table_and_whose_turn(self):
        t = to_play(table())  # N deals, so E leads: E's card is on the table when South is asked to play
        view = t.view
        assert view.trick and view.trick[0][0] is E
        assert f'data-card="{view.trick[0][1].code}"' in t.table.value
        assert "Your turn:" in t.status.value and "click a card" in t.status.value
        assert "to move" in t.table.value


class TestRefusals:
    def test_double_click_plays_one_card(self):
        """Issue 22 §6: a click names the card it was drawn for; the second click of a double click finds that card
        gone and is ignored: no move, no error (the message of the first stays)."""
        t = to_play(table())
        card = t.view.hand[0]
        button = t.button_for(card)
        button.click()
        after, said = t.match.to_json(), t.message.value
        button.click()  # the same slot again: its card is gone
        assert t.message.last_error is None and t.message.value == said
        assert t.match.to_json() == after
        assert_consistent(t)

    def test_the_hand_pauses_its_buttons_again_before_its_cards_move(self):
        """Issue 22 §6 on a fast page: the second click of a double click must not land on another card that moved
        under the pointer. The hand's box switches its class ``aluette-hand-moved`` (its buttons then ignore the
        pointer for 0.4 s again: aluette-rearming, tests/browser/test_match.py) once per action of this page, and
        before anything else of the action is sent: a played card's slot hides and the cards after it close up,
        and a message above the hand can grow, or the question's row go, moving the whole hand (an answer, a hint:
        a double click on Hint, just below the hand). Choosing discards does not switch it (six quick clicks)."""
        t = table(first_dealer=E)  # South at the dealer's left: asked first, and receives stock cards if all agree
        order = []

        def watch():
            order.clear()
            t.hand_box.observe(lambda c: order.append("box"), "_dom_classes")
            t.message.observe(lambda c: order.append("message"), "value")
            t._questions.layout.observe(lambda c: order.append("questions"), "display")
            for slot in t._slots:
                slot.picture.observe(lambda c: order.append("slot"), ["value", "layout", "_dom_classes"])

        def switched() -> bool:
            return "aluette-hand-moved" in t.hand_box._dom_classes

        assert t.deal.phase is Phase.CHANT and t.deal.to_move is S
        watch()
        was = switched()
        t.chant_buttons[False].click()  # the question's row goes: the hand moves up
        assert order[0] == "box" and order.count("box") == 1 and "questions" in order and "message" in order
        assert switched() is not was
        t.hand_box.unobserve_all("_dom_classes")
        watch()
        was = switched()
        t.hint_button.click()  # the hint's message, and its mark on a card
        assert order[0] == "box" and order.count("box") == 1 and {"message", "slot"} <= set(order)
        assert switched() is not was
        for _ in range(2):  # two cards in turn: each switches once, back and forth
            t.hand_box.unobserve_all("_dom_classes")
            watch()
            was = switched()
            t.button_for(t.view.hand[0]).click()
            assert order[0] == "box" and order.count("box") == 1 and "slot" in order, order
            assert switched() is not was

    def test_the_focus_goes_to_the_card_in_the_place_of_yours(self, monkeypatch):
        """WCAG 2.4.3 (focus order): the button of the card you played hides, and the keyboard's focus with it; the
        focus goes to the card now in its place (the next one; for the last card of the row, the one before), not
        to the top of the page. Another seat's move moves no focus."""
        focused = []
        monkeypatch.setattr(w.Button, "focus", lambda self: focused.append(self))
        t = to_play(table(first_dealer=E))
        focused.clear()  # the answer to the chant sent the focus to the hand (the next test)
        hand = list(t.view.hand)
        t.button_for(hand[2]).click()
        assert focused == [t.button_for(hand[3]).button]
        focused.clear()
        t.button_for(t.view.hand[-1]).click()  # the last card of the row: the one before it
        assert focused == [t.button_for(t.view.hand[-1]).button]
        focused.clear()
        t.hint_button.click()  # nothing leaves the hand: the focus stays
        assert focused == []

    def test_after_your_answer_the_focus_goes_to_your_hand(self, monkeypatch):
        """WCAG 2.4.3 (focus order): the answer's button goes with its question, and the keyboard's focus with it;
        the focus goes to the first card of your hand, where your next action is. An answer refused (not your turn)
        moves no focus."""
        focused = []
        monkeypatch.setattr(w.Button, "focus", lambda self: focused.append(self))
        t = table(first_dealer=E)  # South at the dealer's left: asked first
        assert t.deal.phase is Phase.CHANT and t.deal.to_move is S
        t.chant_buttons[False].click()
        assert t.message.last_error is None and t.deal.phase is Phase.PLAY  # the bots declined too
        assert focused == [t.button_for(t.view.hand[0]).button]
        focused.clear()
        t.answer_chant(True)  # the chant is over: refused, with a message
        assert t.message.last_error and focused == []

    def test_after_your_last_card_next_deal_then_your_first_control_get_the_focus(self, monkeypatch):
        """WCAG 2.4.3: your last card leaves nothing in the hand, so the focus goes to Next deal once the deal is
        over; Next deal then turns disabled and the hand is drawn anew, so the focus goes to the control you need
        first in the new deal (the chant's first answer when you are asked, else your first card)."""
        focused = []
        monkeypatch.setattr(w.Button, "focus", lambda self: focused.append(self))
        t = to_play(table(first_dealer=E))
        while t.view.hand:
            focused.clear()
            t.button_for(t.view.hand[0]).click()
        assert t.view.phase is Phase.OVER and not t.next_button.disabled
        assert focused == [t.next_button]
        focused.clear()
        t.next_button.click()
        assert t.message.last_error is None and t.view.phase is not Phase.OVER
        if t.view.phase is Phase.CHANT and t.view.to_move is S:
            assert focused == [t.chant_buttons[True]]  # Agree comes first
        else:
            assert t.view.to_move is S and focused == [t.button_for(t.view.hand[0]).button]
        focused.clear()
        t.hint_button.click()  # an action of yours: nothing more moves the focus
        assert focused == []

    def test_choosing_discards_does_not_pause_the_hand_and_the_stock_does(self):
        """Choosing a card for the discard moves nothing: a person may choose six in quick succession, so the hand's
        buttons do not pause. The stock's six cards coming in move the hand: they pause, once."""
        seed = first_seed(lambda t: (t.answer_chant(True), t.deal.phase is Phase.DISCARD)[1], first_dealer=E).match.seed
        t = table(seed, first_dealer=E)  # the same deal before South's answer
        switches = []
        t.hand_box.observe(lambda c: switches.append(c["new"]), "_dom_classes")
        t.chant_buttons[True].click()  # all agree (the seed's condition): the hand of 15 is laid out
        assert t.picking and len(switches) == 1
        for button in t.card_buttons[:6]:
            button.click()
        assert len(t.picked) == 6 and len(switches) == 1

    def test_a_button_of_a_card_no_longer_in_its_slot_does_nothing(self):
        """A slot that shows another card (a new hand laid out) gets a new button: the old one, drawn for the old
        card, is closed, and a click that still reaches it makes no move."""
        t = to_play(table())
        old, card = t._slots[0].button, t._slots[0].card
        t.seed_box.value = "5"
        t.new_button.click()
        to_play(t)
        assert t._slots[0].card is not card and t._slots[0].button is not old and old.comm is None
        before = t.match.to_json()
        old.click()
        assert t.match.to_json() == before and t.message.last_error is None
        assert t.hand_box.children == tuple(x for slot in t._slots for x in (slot.button, slot.picture))

    def test_a_card_during_the_chant_is_refused(self):
        t = table()
        assert t.deal.phase is Phase.CHANT and t.deal.to_move is S
        before = t.match.to_json()
        t.card_buttons[0].click()
        assert "chant phase" in t.message.last_error and t.match.to_json() == before
        t.chant_buttons[False].click()
        assert t.message.last_error is None and t.deal.phase is Phase.PLAY

    def test_next_deal_too_early_and_after_the_match(self):
        t = to_play(table())
        before = t.match.to_json()
        t.next_button.click()
        assert "not over yet" in t.message.last_error and t.match.to_json() == before
        while not t.match.is_over:
            t.next_deal() if t.match.awaiting_next_deal else t.follow_hint()
        t.next_button.click()
        assert "match is over" in t.message.last_error and len(t.match.deals) == 5

    def test_stale_question_buttons_change_nothing(self):
        t = to_play(table())
        before = t.match.to_json()
        for b in [*t.chant_buttons.values(), *t.surrender_buttons.values(), t.discard_button]:
            b.click()
            assert t.message.last_error and t.match.to_json() == before
        assert_consistent(t)

    def test_new_match_mid_deal(self):
        t = to_play(table())
        t.button_for(t.view.hand[0]).click()
        t.seed_box.value = "5"
        assert "Press New match" in t.message.value and t.match.seed == 2026  # nothing changes until pressed
        t.new_button.click()
        assert t.match.seed == 5 and t.match.deal_number == 1 and not t.deal.tricks
        assert t.match.to_json() == table(5).match.to_json()  # the same as a fresh table of that seed
        assert_consistent(t)

    @pytest.mark.parametrize("bad, named", [("abc", "'abc'"), ("-1", "'-1'"), ("1.5", "'1.5'"), ("12.7", "'12.7'"),
                                            ("1e3", "'1e3'"), ("4294967296", "'4294967296', which is larger"),
                                            ("", "the box is empty"), ("3O", "'3O'")])
    def test_a_bad_seed_shows_a_message_and_changes_nothing(self, bad, named):
        t = to_play(table())
        before = t.match.to_json()
        t.seed_box.value = bad
        assert "the seed must be a whole number" in t.message.last_error and named in t.message.last_error
        assert t.message.last_error.endswith("The seed stays 2026.") and t.seed_box.value == "2026"
        assert t.match.to_json() == before
        t.new_button.click()  # New match takes the seed the box shows
        assert t.message.last_error is None and t.match.seed == 2026
        t.seed_box.value = "12"
        t.new_button.click()
        assert t.message.last_error is None and t.match.seed == 12

    def test_surrender_without_mordienne_is_refused(self):
        # Options: surrender needs mordienne (pagat.com: a refused surrender is answered by making mordienne)
        t = table()
        before = t.match.to_json()
        t.option_boxes["mordienne"].value = False
        t.option_boxes["surrender"].value = True
        t.new_button.click()
        assert "surrender needs mordienne" in t.message.last_error and t.match.to_json() == before

    @pytest.mark.parametrize("bad, problem", [({"seed": "abc"}, "whole number"), ({"opponents": "x"}, "unknown "
                                              "opponents"), ({"options": {"chant": False}}, "aluette.Options")])
    def test_bad_constructor_arguments_name_the_problem(self, bad, problem):
        with pytest.raises(ValueError, match=problem):
            MatchTable(**bad)

    def test_parse_seed(self):
        assert parse_seed(" 42 ") == 42 and parse_seed("4_294_967_295") == 2 ** 32 - 1
        with pytest.raises(ValueError, match="whole number"):
            parse_seed("twelve")

    def test_python_methods_report_like_the_buttons(self):
        t = to_play(table())
        t.play("3Q")
        assert "unknown card '3Q'" in t.message.last_error
        other = next(c for c in DECK if c not in t.view.visible_cards())
        before = t.match.to_json()
        t.play(other)
        assert "not in their hand" in t.message.last_error and t.match.to_json() == before


class TestBotPauses:
    """The bots move later, on the running asyncio loop, one move per call; the kernel keeps handling clicks."""

    def test_bots_move_after_the_pause_and_clicks_meanwhile_are_refused(self):
        async def scenario():
            t = MatchTable(seed=2026, bot_delay=0.02)
            assert t.waiting_for_bots and t.deal.to_move is E  # E answers the chant first
            before = t.match.to_json()
            t.hint_button.click()
            assert "No hint now" in t.message.value
            t.card_buttons[0].click()
            assert "it is E's turn" in t.message.last_error and "pause" in t.message.last_error
            assert t.match.to_json() == before
            while t.waiting_for_bots:
                await asyncio.sleep(0.01)
            assert t.deal.to_move is S
            assert t.message.last_error is None  # the "not your turn" note went when the turn came
            t.chant_buttons[False].click()  # E leads: the click returns before E has played
            assert t.deal.to_move is E and t.waiting_for_bots and not t.deal.current_trick
            while t.waiting_for_bots:
                await asyncio.sleep(0.01)
            assert t.deal.to_move is S and len(t.deal.current_trick) == 1
            return t

        t = run_coroutine(scenario())
        assert t.internal_errors == []
        same = table()
        same.answer_chant(False)
        assert same.match.to_json() == t.match.to_json()  # the pauses change nothing but the timing

    def test_after_your_answer_the_focus_waits_for_your_turn_too(self, monkeypatch):
        """WCAG 2.4.3: after your answer to the chant the focus goes to your hand at once, and again when your turn
        comes after the bots' pauses: the stock's cards, when they come to you, lay the hand out anew, and a card
        button whose place changed is drawn anew in the page (a focused one loses the focus)."""
        focused = []
        monkeypatch.setattr(w.Button, "focus", lambda self: focused.append(self))

        def receives(t) -> bool:  # South asked first, all agree, and South receives six stock cards
            if t.deal.to_move is not S:
                return False
            t.answer_chant(True)
            return t.deal.phase is Phase.DISCARD and t.deal.to_move is S

        seed = first_seed(receives, first_dealer=E).match.seed

        async def scenario():
            t = MatchTable(seed=seed, first_dealer=E, bot_delay=0.02)
            while t.waiting_for_bots:
                await asyncio.sleep(0.01)
            focused.clear()
            t.chant_buttons[True].click()
            assert t.waiting_for_bots and focused == [t.button_for(t.view.hand[0]).button]
            focused.clear()
            while t.waiting_for_bots:
                await asyncio.sleep(0.01)
            assert t.view.phase is Phase.DISCARD and t.view.to_move is S and len(t.view.hand) == 15
            assert focused == [t.button_for(t.view.hand[0]).button]  # the hand laid out with the stock's cards
            return t

        assert run_coroutine(scenario()).internal_errors == []

    def test_new_match_cancels_the_pending_bot_moves(self):
        async def scenario():
            t = MatchTable(seed=2026, bot_delay=0.02)
            assert t.waiting_for_bots
            t.seed_box.value = "9"
            t.new_button.click()
            while t.waiting_for_bots:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # a stale timer of the old match would have fired by now
            return t

        t = run_coroutine(scenario())
        assert t.match.to_json() == table(9).match.to_json() and t.internal_errors == []

    def test_a_bug_in_a_bot_move_is_reported_without_details(self):
        class Broken:
            def choose(self, view, legal_moves):
                raise RuntimeError(f"bug holding {' '.join(map(str, view.hand))}")

            def signals(self, view, legal_signals):
                return []

        async def scenario():
            t = MatchTable(seed=2026, bot_delay=0.01)
            t.session.set_player(E, Broken())
            while t.waiting_for_bots:
                await asyncio.sleep(0.01)
            return t

        t = run_coroutine(scenario())
        assert len(t.internal_errors) == 1 and "bug holding" in t.internal_errors[0]
        assert "Internal error" in t.message.last_error and "bug holding" not in t.message.value
        assert state_problems(t) == []  # E's cards, in the exception, stay in the kernel
        t.new_button.click()
        assert t.message.last_error is None and t.deal.to_move is S

    def test_run_bots_makes_the_pending_moves_at_once(self):
        async def scenario():
            t = MatchTable(seed=2026, bot_delay=5)
            assert t.waiting_for_bots and t.deal.to_move is E
            t.run_bots()
            assert not t.waiting_for_bots and t.deal.to_move is S
            t.close()
            return t

        run_coroutine(scenario())

    def test_without_an_event_loop_the_bots_move_at_once(self):
        t = MatchTable(seed=2026, bot_delay=0.4)  # pytest: no running loop
        assert not t.waiting_for_bots and t.deal.to_move is S

    def test_the_pause_choice_sets_the_pause(self):
        t = table()
        t.delay_choice.value = 1.5
        assert t.bot_delay == 1.5 and t.session.bot_delay == 1.5

    def test_the_pause_is_a_trait_linked_to_its_drop_down_and_the_session(self):
        t = table()
        t.bot_delay = 0.3  # a pause set from Python joins the drop-down's choices
        assert t.delay_choice.value == 0.3 and ("0.3 s", 0.3) in t.delay_choice.options
        assert t.session.bot_delay == 0.3 and t.session.next_bot is None  # South's turn
        with pytest.raises(AluetteError, match="the bots' pause"):
            t.bot_delay = -1
        assert t.bot_delay == 0.3 == t.delay_choice.value == t.session.bot_delay
        t.seed_box.value = "4"
        t.new_button.click()
        assert t.session.bot_delay == 0.3 and t.match.seed == 4


class TestSessionView:
    """The widget draws the session's events, whoever made the move: a move submitted to the session directly (as a
    person at another device will) is drawn as a click is."""

    def test_a_move_submitted_to_the_session_is_drawn(self):
        t = to_play(table())
        card = t.view.hand[0]
        t.session.submit(S, Play(S, card))
        assert card not in [b.card for b in t.card_buttons] and f'data-card="{card.code}"' in t.table.value
        assert "Waiting for W" in t.status.value  # the bots are the view's to drive: W is next
        t.run_bots()
        assert t.deal.to_move is S and "Your turn:" in t.status.value
        assert_consistent(t)

    def test_the_widget_submits_through_the_session(self):
        t = to_play(table())
        told = []
        t.session.observe(told.append)
        t.card_buttons[0].click()
        assert told[0].kind == "move" and told[0].seat is S and not told[0].by_bot
        assert all(e.by_bot for e in told[1:]) and len(told) >= 3  # W and N answered, E maybe led


class TestChantAndDiscard:
    def test_all_agree_then_you_discard_six(self):
        # the rules sheet, "setup": with E dealing, South sits at the dealer's left: asked first, and receives stock
        # cards
        t = first_seed(lambda t: (t.answer_chant(True), t.deal.phase is Phase.DISCARD)[1], first_dealer=E)
        deal = t.deal
        assert deal.chant_recipients() == (S, E) and deal.to_move is S
        assert t.picking and len(t.card_buttons) == 15 and t._discard_row.layout.display is None
        assert t._discard_row in t.children and len(t._slots) == 15  # both made when first needed
        assert all(b.label.endswith("choose it for your discard, or put it back") for b in t.card_buttons)
        assert set(t.view.stock_received[S]) <= set(t.view.hand)
        before = t.match.to_json()
        for button in t.card_buttons[:6]:  # a click on a card picture chooses it...
            button.click()
        t.card_buttons[5].click()  # ...and a second click puts it back
        assert "5 of 6 chosen" in t._pick_count.value and t.picked == tuple(t.view.hand[:5])
        assert all("aluette-card-selected" in b._dom_classes and b.label.endswith("(chosen)")
                   for b in t.card_buttons[:5])
        assert "aluette-card-selected" not in t.card_buttons[5]._dom_classes
        assert t.match.to_json() == before  # choosing is not discarding
        t.discard_button.click()
        assert "exactly six" in t.message.last_error and t.match.to_json() == before
        t.hint_button.click()  # the hint toggles the six lowest: keep the nine highest (the rules sheet)
        assert set(t.picked) == set(deal.suggested_discard(S))
        fifteen = deal.hands[S]
        t.discard_button.click()
        assert t.message.last_error is None and deal.hands[S] == fifteen[:9]
        assert deal.phase is Phase.PLAY and not t.picking and not t.picked
        assert len(t.view.hand) <= 9 and t.view.discards[S]
        assert_consistent(t)  # E's discards and the stock E received stay hidden

    def test_declining_keeps_the_stock_unused_and_unseen(self):
        t = table()
        t.chant_buttons[False].click()
        assert "no chant, the stock stays unused" in text(t.status)
        assert set(t.deal.stock) <= hidden_cards(t.deal)
        assert_consistent(t)

    def test_the_chant_question_says_who_receives(self):
        t = table()
        assert t._questions.layout.display is None
        assert "alternately to E and N" in t._question.value and "E agrees" in t._question.value
        assert t.question_buttons == (t.chant_buttons[True], t.chant_buttons[False])  # the surrender's not shown


class TestSurrender:
    OPTIONS = Options(surrender=True, chant=False)

    def test_you_offer_and_the_other_side_accepts(self):
        # pagat.com: an accepted surrender gives the accepting side 1 point and ends the deal
        t = table(options=self.OPTIONS, first_dealer=E)  # S speaks first for N-S; E answers for E-W
        assert t.deal.phase is Phase.SURRENDER and t.deal.to_move is S
        shown = [k for k, b in t.surrender_buttons.items() if b in t.question_buttons]
        assert shown == ["offer", "play on"]
        assert not set(TOP_FOUR) <= set(t.deal.hands[E])  # so E accepts (HeuristicBot's documented answer)
        t.surrender_buttons["offer"].click()
        result = t.deal.result
        assert result.points == {Team.EW: 1, Team.NS: 0} and result.surrender_accepted
        assert not t.next_button.disabled and "Deal over" in t.status.value
        assert_consistent(t)

    def test_they_offer_and_you_refuse(self):
        # pagat.com: refused, the refusing side must make mordienne
        t = first_seed(lambda t: t.deal.phase is Phase.SURRENDER and t.view.surrender_by is Team.EW
                       and t.deal.to_move is S, options=self.OPTIONS, first_dealer=S, opponents="random")
        assert "W offers to surrender" in unescape(t._question.value)
        shown = [k for k, b in t.surrender_buttons.items() if b in t.question_buttons]
        assert shown == ["accept", "refuse"]
        t.surrender_buttons["refuse"].click()
        assert "must make mordienne" in t.message.value and t.deal.phase is Phase.PLAY
        assert_consistent(t)

    def test_surrender_later_asks_again_between_tricks(self):
        # decision surrender-between-tricks (pagat gives no time): the question comes back before later tricks,
        # and New match takes the box
        t = table(options=Options(surrender=True, surrender_until="last_trick", chant=False), first_dealer=E)
        assert t.surrender_late_box.value is True
        while not (t.deal.phase is Phase.SURRENDER and t.deal.tricks and t.deal.to_move is S):
            assert not t.deal.is_over, "S was never asked between tricks"
            t.follow_hint()
        shown = [k for k, b in t.surrender_buttons.items() if b in t.question_buttons]
        assert shown == ["offer", "play on"] and "Surrender?" in t._question.value
        played = len(t.deal.tricks)
        t.surrender_buttons["offer"].click()
        result = t.deal.result
        assert t.deal.is_over and len(t.deal.tricks) == played and result.surrender_accepted  # E accepts
        assert f"surrendered after trick {played}" in result.reason
        assert_consistent(t)

    def test_surrender_later_box_goes_to_new_match_and_needs_surrender(self):
        t = table()
        before = t.match.to_json()
        t.surrender_late_box.value = True
        t.new_button.click()  # surrender is off: refused with a message, the match goes on
        assert "needs surrender=True" in t.message.last_error and t.match.to_json() == before
        t.option_boxes["surrender"].value = True
        t.new_button.click()
        assert t.message.last_error is None and t.match.options.surrender_until.value == "last_trick"


class TestSignals:
    def test_partner_signals_as_words_and_gesture_and_opponents_never(self):
        # the rules sheet's signal table: only the partner sees a signal
        t = to_play(table())
        deal = t.deal
        partner = [r for r in t.view.signals if r.seat is N]
        assert partner, "the heuristic partner signals what it holds"
        shown = text(t.signals_view)
        for record in partner:  # "N signals <what>: <gesture>"
            assert record.describe() in shown
            assert signal_for(record.key).gesture.split(" once")[0] in shown
        opponents = [r for r in deal.view(None).signals if r.seat in (E, W)]
        assert opponents  # E and W signal to each other...
        assert not any(r.describe() in state_text(t) for r in opponents)  # ...and South never sees it

    def test_signal_buttons_are_the_honest_ones_and_work(self):
        t = to_play(table())
        legal = t.deal.legal_signals(S)
        buttons = t.visible_signal_buttons
        assert list(buttons) == legal
        assert [b.description for b in buttons.values()] == [signal_for(k).what for k in legal]
        key = legal[0]
        buttons[key].click()
        assert any(r.seat is S and r.key == key for r in t.deal.view(N).signals)
        assert key not in t.visible_signal_buttons and "Your signals" in t.signals_view.value
        assert signal_for(key).what.split(" (")[0] in text(t.signals_view)
        assert_consistent(t)

    def test_a_dishonest_or_stale_signal_is_refused(self):
        t = to_play(table())
        missing = next(s.key for s in map(signal_for, ["monsieur", "madame", "borgne", "vache"])
                       if s.card not in t.view.hand)
        before = t.match.to_json()
        t.signal(missing)
        assert "signals are honest" in t.message.last_error and t.match.to_json() == before
        legal = t.visible_signal_buttons
        t.signal(next(iter(legal)))  # one signal fewer to make: the last button leaves the row, emptied
        hidden = t.signal_buttons[len(legal) - 1]
        assert hidden not in t._signal_row.children and hidden.description == ""
        before = t.match.to_json()
        hidden.click()  # a late click on it
        assert "no longer available" in t.message.last_error and t.match.to_json() == before


class TestHint:
    def test_the_hint_is_the_heuristic_bots_move_from_your_view(self):
        t = to_play(table())
        expected = HeuristicBot(signals=True).choose(t.deal.view(S))
        t.hint_button.click()
        message = unescape(t.message.value)
        assert expected.reason in message and str(expected.move) in message
        highlighted = [b for b in t.card_buttons if "aluette-card-hint" in b._dom_classes]
        assert [b.card for b in highlighted] == [expected.move.card]
        t.button_for(expected.move.card).click()
        assert not [b for b in t.card_buttons if "aluette-card-hint" in b._dom_classes]

    def test_no_hint_when_the_deal_is_over(self):
        t = table(options=Options(surrender=True, chant=False), first_dealer=E)
        t.surrender_buttons["offer"].click()  # E accepts (see TestSurrender): the deal is over
        assert t.deal.is_over
        assert t.hint() is None and "press Next deal" in t.message.value


class TestScoreSheet:
    @pytest.mark.parametrize("opponents", ["heuristic", "random"])
    def test_a_match_of_five_deals_and_a_sheet_that_adds_up(self, opponents):
        # the rules sheet, "end of game": five deals, the deal passing to the left; the higher score wins
        t = table(7, opponents=opponents)
        while not t.match.is_over:
            assert_consistent(t)
            t.next_deal() if t.match.awaiting_next_deal else t.follow_hint()
        sheet = t.match.score_sheet()
        assert list(sheet["dealer"]) == ["N", "E", "S", "W", "N"]
        shown = unescape(t.score_view.value)
        s = t.match.scores
        assert f"NS (you and N) {s[Team.NS]} – EW {s[Team.EW]}" in shown
        assert shown.count("<tr") == 1 + 1 + 5  # two header rows (pandas) and a row per deal
        assert t.next_button.disabled and "Match over" in t.status.value
        assert ("drawn" in t.status.value) == (s[Team.NS] == s[Team.EW])
        assert_consistent(t)

    def test_random_opponents_are_seeded_from_the_match(self):
        bots = make_bots(3, "random")
        assert isinstance(bots[N], HeuristicBot) and isinstance(bots[E], RandomBot)
        a, b = table(3, opponents="random"), table(3, opponents="random")
        for t in (a, b):
            to_play(t)
            t.follow_hint()
        assert a.match.to_json() == b.match.to_json()


class TestSecrecy:
    def test_hidden_cards_are_what_the_view_does_not_show(self):
        # View: a seat sees its hand, its stock cards and discards, and the played cards; the partner's honest
        # signals name cards it also knows
        for seed in range(6):
            t = table(seed, first_dealer=SEATS[seed % 4])
            while not t.match.is_over and t.match.deal_number == 1:
                view = t.view
                signalled = {signal_for(r.key).card for r in view.signals if r.seat is N} - {None}
                assert hidden_cards(t.deal) == frozenset(DECK) - view.visible_cards() - signalled
                t.follow_hint() if not t.match.awaiting_next_deal else t.next_deal()

    def test_the_walk_finds_a_card_in_any_trait_of_any_widget(self):
        # negative control: a hidden card put in a hidden widget's tooltip, or in a layout, is found
        t = to_play(table())
        t.card_buttons[0].click()  # its slot is now hidden and empty
        secret = next(iter(hidden_cards(t.deal)))
        empty = next(i for i, b in enumerate(t._slots) if b.card is None)
        t._slots[empty].button.tooltip = card_label(secret)
        assert state_problems(t) == [f"hidden card {secret} ({secret.nickname or secret.name}) is in the widget "
                                     f"state"]
        t._slots[empty].button.tooltip = ""
        t._slots[empty].layout.grid_area = secret.code
        assert len(state_problems(t)) == 1
        t._slots[empty].layout.grid_area = None
        assert state_problems(t) == []

    @pytest.mark.parametrize("seed, opponents, options", [
        (1, "heuristic", Options()), (2, "random", Options(surrender=True)), (3, "heuristic", Options(chant=False)),
        (4, "heuristic", Options(surrender=True)), (11, "random", Options())])
    def test_nothing_hidden_in_any_trait_after_every_action(self, seed, opponents, options):
        rng = np.random.default_rng(seed)
        t = table(seed, opponents=opponents, options=options, first_dealer=SEATS[seed % 4])
        actions = 0
        while not t.match.is_over:
            if t.match.awaiting_next_deal:
                t.next_button.click()
            elif rng.random() < 0.2 and t.visible_signal_buttons:
                list(t.visible_signal_buttons.values())[0].click()
            elif rng.random() < 0.3 and t.deal.phase is Phase.PLAY:
                buttons = t.card_buttons
                buttons[int(rng.integers(len(buttons)))].click()
            else:
                t.follow_hint()
            actions += 1
            assert state_problems(t) == [], actions
        assert actions >= 5


class TestRapidClicks:
    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_200_random_clicks(self, seed):
        """Robustness (quality bar: a click at the wrong moment changes nothing): 200 seeded random clicks on every
        button and toggle, visible or not (a late click
        can reach the kernel after a button was hidden): no exception, and the match stays legal."""
        rng = np.random.default_rng(seed)
        t = table(seed, options=Options(surrender=seed == 2), first_dealer=SEATS[seed % 4])
        yours = 0  # South's moves, over every match the clicks started

        def moves_of_south():
            return sum(1 for d in t.match.deals for m in d.moves if m.seat is S)
        for step in range(200):
            # a kind of control, then one of its kind (the card slots and signal buttons are made as a hand needs
            # them, so their number varies): a hidden one's click is a late click
            kinds = [t._slots, [t.discard_button], list(t.chant_buttons.values()), list(t.surrender_buttons.values()),
                     [t.hint_button], [t.next_button], t.signal_buttons]
            if step % 50 == 49:
                kinds.append([t.new_button])
            controls = [kind for kind in kinds if kind][int(rng.integers(sum(1 for kind in kinds if kind)))]
            control = controls[int(rng.integers(len(controls)))]
            if control is t.new_button:
                yours += moves_of_south()
            if hasattr(control, "click"):
                control.click()
            else:
                control.value = not control.value
            assert t.internal_errors == []
            assert t.deal.to_move in (S, None) or t.deal.phase is Phase.OVER  # the bots never stall
            if step % 10 == 0:
                assert_consistent(t)
        assert_consistent(t)
        assert yours + moves_of_south() >= 10, "the clicks played the game"
        json.loads(t.match.to_json())
        assert re.search(r"Your turn|Deal over|Match over", t.status.value)
        # a widget that keeps working: after the clicks the table still answers a valid click: a new match, then
        # South's move
        t.new_button.click()
        assert t.internal_errors == [] and t.deal.to_move is S and t.deal.moves == t.match.deals[-1].moves
        before = len(t.deal.moves)
        if t.deal.phase is Phase.CHANT:
            t.chant_buttons[False].click()
        elif t.deal.phase is Phase.SURRENDER:
            t.surrender_buttons["refuse" if t.deal.view(S).surrender_by else "play on"].click()
        else:
            t.card_buttons[0].click()
        assert t.message.last_error is None and t.deal.moves[before].seat is S
        assert_consistent(t)


class TestMatchStatus:
    """The match score beside the table, who received the chant cards, why a deal was
    or was not mordienne, no-signals and first-to-5 matches, and who reached 2 and 3 tricks first."""

    def test_the_match_score_is_beside_the_table(self):
        t = table()
        assert "Match score: NS (you and N) 0 – EW 0" in text(t.match_score)
        while not t.deal.is_over:
            t.follow_hint() if t.deal.to_move is S else t.run_bots()
        s = t.match.scores
        assert f"NS (you and N) {s['NS']} – EW {s['EW']}" in text(t.match_score) and sum(s.values()) > 0

    def test_the_status_names_who_receives_the_stock(self):
        # the rules sheet, "setup": all four agree, the stock goes to the dealer's left and the dealer
        t = first_seed(lambda t: (t.answer_chant(True), t.view.chant_agreed is True)[1])
        first, second = t.deal.chant_recipients()
        assert f"all agree, so {first} (the dealer's left) and {second} receive six stock cards" in text(t.status)

    def test_the_status_is_a_live_region(self):
        assert 'role="status" aria-live="polite"' in table().status.value

    @pytest.mark.parametrize("notation, expected", [
        # pagat's examples and the rule of score_tricks: the run comes after a trick the winner did not win
        ("NEWNXSSSS", ""),  # mordienne: the engine's reason says why
        ("SSSSSNEWN", "Mordienne: no. S won tricks 1, 2, 3, 4 and 5. S won trick 1, so"),
        ("SENWSEXNW", "S won trick 1, so no trick S did not win comes before a run"),
        ("XSENXWSSS", "trick 3 went to E"),
        ("NEWNSSSSX", "After S's first trick (trick 5), trick 9 went to nobody (spoiled)"),
    ])
    def test_why_a_deal_was_not_mordienne(self, notation, expected):
        from aluette.scoring import explain_mordienne, score_tricks
        from aluette.widgets.match import mordienne_note
        score = score_tricks(notation)
        note = mordienne_note(score, True)
        assert (note == "") if not expected else expected in note
        assert score.mordienne == (note == "")
        assert mordienne_note(score_tricks(notation, mordienne=False), False).startswith("Mordienne is off:")
        # one explanation of the rule: the widget's note is the engine's
        assert note in ("", explain_mordienne(score))

    def test_an_unannounced_run_is_explained_once(self):
        # pagat's Rebour, second form: a run not announced scores 1; the engine's reason already says so
        from aluette.scoring import score_tricks
        from aluette.widgets.match import mordienne_note
        score = score_tricks("NEWNXSSSS", announced=["N"])
        assert not score.mordienne and "had not announced mordienne" in score.reason
        assert mordienne_note(score, True) == ""

    def test_a_finished_deal_says_why_it_was_or_was_not_mordienne(self):
        for seed in range(4):
            t = table(seed)
            while not t.deal.is_over:
                t.follow_hint()
            score = t.deal.result.score
            status = text(t.status)
            assert ("Mordienne: no." in status) == (not score.mordienne and score.winner is not None)

    @pytest.mark.parametrize("notation, n, seat", [
        # pagat: the first to win a second trick turns one card face up, the first to a third turns two
        ("SENWSEXNW", 2, "S"), ("SENWSEXNW", 3, None), ("EENNNXWWW", 2, "E"), ("EENNNXWWW", 3, "N"),
        ("XXXXXXXXX", 2, None)])
    def test_first_to_reach(self, notation, n, seat):
        from aluette.scoring import parse_outcomes
        from aluette.scoring import first_to_reach
        assert first_to_reach(parse_outcomes(notation), n) == (None if seat is None else Seat.parse(seat))

    def test_first_to_reach_is_shown(self):
        t = table(5)
        while not t.deal.is_over:
            t.follow_hint()
        from aluette.scoring import first_to_reach
        outcomes = [tr.winner for tr in t.deal.tricks]
        two = first_to_reach(outcomes, 2)
        assert two is not None and f"first to 2 tricks: {two}, who turns one of their tricks face up" in text(t.reached)

    def test_no_signals(self):
        # pagat advises learning without signals first: nobody signals, and South has no signal buttons
        t = table(3, signals=False)
        while not t.match.is_over:
            assert not t.visible_signal_buttons
            t.next_deal() if t.match.awaiting_next_deal else t.follow_hint()
        assert all(not d.view(None, events=False).signals for d in t.match.deals)
        t.signal("useless")
        assert "signals are off" in t.message.last_error

    def test_no_signals_and_first_to_5_from_the_controls(self):
        t = table()
        t.signals_box.value = False
        t.format.value = "points"
        t.new_button.click()
        assert t.match.options.target_points == 5 and not t.session.signals
        assert "(to 5 points)" in text(t.status)
        while not t.match.is_over:
            t.next_deal() if t.match.awaiting_next_deal else t.follow_hint()
        assert max(t.match.scores.values()) >= 5


class TestSignalsAndOptions:
    """Moved from notebook 08. The rules sheet, "signals": only the partner sees a signal; the signals are
    honest (a decision of this project); pagat.com: surrender needs mordienne (a refused surrender must be answered by
    making mordienne)."""

    def test_signals_seen_by_the_partner_only_and_honest(self):
        from aluette import SIGNALS
        card_of = {s.key: s.card for s in SIGNALS}
        t = first_seed(lambda t: any(card_of[k] for k in t.visible_signal_buttons), options=Options(chant=False))
        partner = t.deal.view(N)
        assert [r for r in t.view.signals if r.seat is N] == [r for r in partner.signals if r.seat is N]
        assert not [r for r in t.deal.view(E).signals if r.seat in (N, S)]
        assert sorted(t.visible_signal_buttons) == sorted(t.deal.legal_signals(S))
        key = next(k for k in t.visible_signal_buttons if card_of[k])  # a named card you hold
        t.visible_signal_buttons[key].click()
        named, aces = HeuristicBot(signals=True).partner_known(t.deal.view(N))
        assert card_of[key] in named and key not in t.visible_signal_buttons
        t.close()

    def test_surrender_without_mordienne_is_refused_and_the_match_goes_on(self):
        t = MatchTable(seed=2, options=Options(chant=False), bot_delay=0)
        before = t.match.to_json()
        t.option_boxes["mordienne"].value = False
        t.option_boxes["surrender"].value = True
        t.new_button.click()
        assert "surrender needs mordienne" in t.message.last_error and t.match.options.mordienne
        assert t.match.to_json() == before
        t.close()


class TestWording:
    """The score sheet says "yes" for mordienne (not "True"/"False"), and "1 card", not "1 cards"."""

    def test_the_score_sheet_says_yes_or_nothing(self):
        t = table(3)
        while not t.deal.is_over:
            t.follow_hint()
        assert ">False<" not in t.score_view.value and ">True<" not in t.score_view.value
        made = t.deal.result.score.mordienne
        assert (">yes<" in t.score_view.value) == made

    def test_plural(self):
        from aluette.widgets.common import plural
        assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
        t = to_play(table())
        while len(t.view.hand) > 1:
            t.follow_hint()
        assert "1 card in your hand" in t.table.value and "1 cards" not in t.table.value


class TestReload:
    """Issue 23 §5: on the classroom app (a browser session's storage, aluette.widgets.common.set_session_storage)
    notebook 08's table kept under a name resumes its match after a reload: the same match, at the same move, with
    its set-up boxes, and it goes on as it would have."""

    @pytest.fixture(params=["dict", "app"])
    def storage(self, request, tmp_path):
        """A plain dict, and the app's own storage (a file its workers share: aluette.classroom.sessions)."""
        from aluette.classroom.sessions import SessionStore
        from aluette.widgets import common
        kept = {} if request.param == "dict" else SessionStore(tmp_path / "sessions.sqlite").session("cookie")
        common.set_session_storage(lambda: kept)
        yield kept
        common.set_session_storage(lambda: None)

    def test_a_reloaded_page_goes_on_with_its_match(self, storage):
        t = MatchTable(seed=7, bot_delay=0, keep="08", opponents="random", options=Options(target_points=5))
        while t.match.deal_number < 2 or len(t.deal.moves) < 12:
            t.next_deal() if t.match.awaiting_next_deal else t.follow_hint()
        before = t.match.to_json()
        again = MatchTable(seed=2026, bot_delay=0, keep="08")  # the page's cell, run again after the reload
        assert again.match.to_json() == before and again.match.deal_number == 2
        assert again.seed_box.value == "7" and again.opponents.value == "random" and again.format.value == "points"
        assert "Welcome back" in again.message.value and again.message.last_error is None
        assert state_problems(again) == []
        for _ in range(4):  # the two go on alike (a random opponent's generator is the seed's)
            again.follow_hint(), t.follow_hint()
        assert again.match.to_json() == t.match.to_json()
        fresh = MatchTable(seed=2026, bot_delay=0)  # no name: nothing kept, nothing resumed
        assert fresh.match.seed == 2026 and fresh.match.deal_number == 1

    def test_new_match_replaces_the_kept_one_and_a_damaged_save_is_forgotten(self, storage):
        t = MatchTable(seed=7, bot_delay=0, keep="08")
        t.seed_box.value = "9"
        t.new_button.click()
        assert MatchTable(seed=1, bot_delay=0, keep="08").match.seed == 9
        saved = storage["aluette.match.08"]
        saved["match"]["deals"][0]["moves"] = [["play", "S", "1O"]]  # edited: illegal
        storage["aluette.match.08"] = saved
        again = MatchTable(seed=3, bot_delay=0, keep="08")
        assert again.match.seed == 3 and again.match.deal_number == 1 and again.message.last_error is None

    def test_without_a_session_storage_nothing_is_kept(self):
        t = MatchTable(seed=7, bot_delay=0, keep="08")
        t.follow_hint()
        assert MatchTable(seed=8, bot_delay=0, keep="08").match.seed == 8


class TestTrickReason:
    """Issue 23 §6: as a trick completes, a one-line reason beside it, from the engine's narration
    (aluette.narration.trick_reason); the deal's verdict is short, the mordienne detail in a disclosure."""

    def test_the_last_trick_says_who_won_it_with_what_or_why_it_was_spoiled(self):
        from aluette.narration import trick_reason
        t = to_play(table())
        t.follow_hint()
        while not t.view.tricks:
            t.follow_hint()
        last = t.view.tricks[-1]
        reason = trick_reason(last)
        assert reason in unescape(t.table.value)
        if last.spoiled:
            assert reason.startswith("spoiled: ") and reason.endswith(" tie")
        else:
            card = last.card_of(last.winner)
            assert reason.startswith(f"{last.winner.full_name} wins with ")
            assert (card.nickname or card.name) in reason

    def test_reasons_for_a_spoiled_and_a_won_trick(self):
        from aluette import Card
        from aluette.narration import trick_reason
        from aluette.records import TrickRecord
        c = Card.parse
        # the seed sheet, "spoiled tricks": two cards of the best class tie (two aces, no higher card played)
        spoiled = TrickRecord(3, E, ((E, c("1O")), (S, c("4E")), (W, c("1C")), (N, c("5B"))), None)
        assert trick_reason(spoiled) == "spoiled: two aces tie"
        won = TrickRecord(4, W, ((W, c("2C")), (N, c("1O")), (E, c("4E")), (S, c("5B"))), W)
        assert trick_reason(won) == f"West wins with {c('2C').nickname}"
        plain = TrickRecord(5, N, ((N, c("5O")), (E, c("4O")), (S, c("3E")), (W, c("4B"))), N)
        assert trick_reason(plain) == "North wins with the 5 of coins"

    def test_the_verdict_is_one_short_line_with_the_whole_reason_on_demand(self):
        # issue 23 §6: the deal's verdict short (aluette.scoring.result_verdict), the engine's whole reason and why
        # not mordienne (aluette.scoring.explain_mordienne) in a disclosure
        from aluette.decisions import BADGE
        from aluette.widgets.seat_table import mordienne_note
        for seed in range(40):
            t = table(seed)
            while not t.deal.is_over:
                t.follow_hint()
            result = t.deal.result
            why = mordienne_note(result.score, t.match.options.mordienne)
            if why:
                line, detail = unescape(t.status.value).split("<details", 1)
                assert result.verdict in line and result.reason not in line and BADGE not in line
                assert "<summary>Why not mordienne?</summary>" in detail and result.reason in detail and why in detail
                return
            t.close()
        raise AssertionError("no deal below seed 40 needs a mordienne note")

    def test_a_verdict_resting_on_two_decisions_stays_one_short_line(self):
        # the deal XXXXXXXXS (tests/test_decisions.py): a run of one and spoiled tricks before it, two decisions of
        # this project. The line marks them once with the short badge; the reason's two badges are in the detail.
        # The seed sheet, "gameplay": four cards of one class tie and spoil the trick, its leader leads again; each
        # seat holds one suit of eight classes, South Monsieur (3O) for the ninth trick instead of its 4.
        from aluette import Card
        from aluette.decisions import BADGE, SHORT_BADGE
        from aluette.scenario import scenario_deal
        suits = {"N": "O", "E": "C", "S": "B", "W": "E"}
        ranks = (1, 12, 11, 10, 8, 7, 6, 5, 4)
        hands = {seat: " ".join(f"{r}{suit}" for r in ranks) for seat, suit in suits.items()}
        hands["S"] = hands["S"].replace("4B", "3O")
        deal = scenario_deal(hands, 0, leader="N", options=Options(chant=False))
        for rank in ranks:
            for seat in deal.leader.clockwise_from():
                deal.play(seat, Card.parse("3O") if (seat is S and rank == 4) else Card(rank, suits[seat.value]))
        assert deal.notation == "XXXXXXXXS" and deal.result.reason.count(BADGE) == 2
        t = table()
        t._render_status(deal.view(S), t._port.facts())
        line, detail = unescape(t.status.value).split("<details", 1)
        assert deal.result.verdict in line and line.count(SHORT_BADGE) == 1 and BADGE not in line
        assert len(deal.result.verdict) < 60 and deal.result.reason in detail and "<summary>Why?</summary>" in detail


class TestFaceDown:
    """Issue 19 §3 (pagat: won tricks are stacked face down, and remembering them is the skill): with "tricks face
    down" the page shows the last trick and each seat's count, and the deal's history leaves out the cards played
    until the deal is over."""

    def test_the_history_hides_the_cards_played_until_the_deal_is_over(self):
        t = to_play(table(3))
        t.face_down_box.value = True
        while len(t.view.tricks) < 3:
            t.follow_hint()
        earlier = {card for trick in t.view.tricks[:-1] for _, card in trick.plays}
        last = t.view.tricks[-1]
        shown = unescape(t.events_view.value)
        assert "Tricks face down" in shown and "3 tricks stacked" in shown
        assert not {c for c in earlier if f'data-card="{c.code}"' in t.table.value or c.code in shown}
        assert all(f'data-card="{card.code}"' in t.table.value for _, card in last.plays)  # the last trick shows
        while not t.deal.is_over:
            t.follow_hint()
        assert all(c.code in unescape(t.events_view.value) for c in earlier)  # the whole deal, once it is over
        t.next_deal()
        while not t.view.tricks:
            t.follow_hint()
        assert "Tricks face down" in t.events_view.value
        t.face_down_box.value = False  # at once, mid-deal
        assert "What happened" in t.events_view.value and "Tricks face down" not in t.events_view.value


def test_a_match_played_again_from_its_seed_by_hints_gives_the_same_score_sheet():
    """The same seed and the same moves give the same match (notebook 08, "A whole match"): two tables of one seed,
    each played through by the hint and the *Next deal* button, end with equal score sheets."""
    sheets = []
    for _ in range(2):
        t = table(1)
        while not t.match.is_over:
            t.next_button.click() if t.match.awaiting_next_deal else t.follow_hint()
            assert t.message.last_error is None
        sheets.append(t.match.score_sheet())
        t.close()
    assert len(sheets[0]) == 5 and sheets[0].equals(sheets[1])
