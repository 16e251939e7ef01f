"""Widget callbacks of the ranking notebook (01), driven without a browser.

Rule sources: the rules sheet, "card rankings" (the order of the 19 classes) and "gameplay" (the highest card wins; a
tie for the highest spoils the trick); pagat.com agrees. Cards of one class are equal whatever their suit."""

import os
import re
import subprocess
import sys

import pytest

from aluette import DECK, Card, ranking_table
from aluette.widgets.common import card_label, card_words, reachable_widgets
from aluette.widgets.ranking import OrderingExercise, TrickComparer, ranking_html

C = Card.parse


class TestRankingHtml:
    def test_shows_every_card_once_in_ranking_order(self):
        # the rules sheet, "card rankings": 19 classes covering the 48 cards
        html = ranking_html()
        codes = [code for codes in ranking_table()["cards"] for code in codes.split()]
        assert len(codes) == 48
        positions = [html.index(f'data-card="{code}"') for code in codes]
        assert positions == sorted(positions)
        assert html.count("<tr>") == 20  # header + 19 classes


class TestTrickComparer:
    def test_labels_use_nicknames_and_english_names(self):
        picker = TrickComparer().pickers[0]
        labels = [label for label, _ in picker.options]
        assert "3O — Monsieur" in labels and "12E — king of swords" in labels
        assert len(labels) == 48

    def test_monsieur_beats_a_king(self):
        # the rules sheet, "card rankings": Monsieur (3 of coins) is the highest card
        widget = TrickComparer(["12E", "3O"])
        assert widget.winner == 1
        assert "3O (Monsieur)" in widget.explanation
        assert "wins" in widget._result.value and "won by card 2" in widget._result.value

    def test_two_aces_spoil_the_trick(self):
        # the rules sheet, "gameplay": a tie for the highest card spoils the trick; aces are one class whatever the suit
        widget = TrickComparer()
        widget.pickers[0].value = C("1O")
        widget.pickers[1].value = C("1E")
        widget.pickers[2].value = C("12B")
        assert widget.winner is None
        assert widget.explanation.startswith("Spoiled")
        assert "spoiled" in widget._result.value

    def test_a_lower_tie_does_not_spoil(self):
        # the rules sheet, "gameplay": only a tie for the *highest* card spoils; two fours under a king do not
        widget = TrickComparer(["4O", "4C", "12E"])
        assert widget.winner == 2

    def test_suits_do_not_matter(self):
        # the rules sheet, "gameplay": no duty to follow suit and no trump: a king of another suit still beats a jack
        for king in ("12O", "12C", "12B", "12E"):
            assert TrickComparer(["10O", king]).winner == 1

    def test_fourth_card_can_be_cleared(self):
        widget = TrickComparer(["1O", "2C", "5E", "6E"])
        widget.pickers[3].value = None
        assert widget.cards == (C("1O"), C("2C"), C("5E"))
        assert widget.winner == 1  # la Vache

    @pytest.mark.parametrize("hash_seed", ["0", "3", "5", "6"])
    def test_empty_slots_show_no_card_when_built(self, hash_seed):
        # Found in a real browser: ipywidgets may build a dropdown whose first option has the value None with no
        # option selected (a blank box), depending on the order it notifies its traits, hence on the string hash
        # seed (3 and 6 did it on CPython 3.11): the empty slots must show "— no card —" whatever the seed.
        code = ("from aluette.widgets.ranking import TrickComparer\n"
                "print([(p.index, p.label) for p in TrickComparer(['1O', '1E']).pickers[2:]])")
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == "[(0, '— no card —'), (0, '— no card —')]"

    def test_empty_slots_show_no_card_after_a_shorter_trick(self):
        # Found in a real browser: setting a dropdown's value to None selects no option (a blank box), not the
        # "— no card —" option whose value is None; the empty slots must show that option.
        widget = TrickComparer(["1O", "1E", "12B", "4C"])
        widget.text.value = "3O 1E"
        assert widget.cards == (C("3O"), C("1E"))
        assert [(p.index, p.label, p.value) for p in widget.pickers[2:]] == [(0, "— no card —", None)] * 2
        widget.pickers[2].value = C("5E")
        widget.pickers[2].value = None
        assert (widget.pickers[2].index, widget.pickers[2].label) == (0, "— no card —")
        assert widget.cards == (C("3O"), C("1E"))

    def test_typed_cards_in_any_form(self):
        widget = TrickComparer()
        widget.text.value = "la vache, ace of cups, king of swords"
        assert widget.cards == (C("2C"), C("1C"), C("12E"))
        assert widget.winner == 0
        assert [p.value for p in widget.pickers] == [C("2C"), C("1C"), C("12E"), None]

    def test_typed_codes_with_button(self):
        widget = TrickComparer()
        widget.text.value = "9C 9O"
        widget.text.value = "9O 9C"
        widget.compare_button.click()  # same text again through the button
        assert widget.cards == (C("9O"), C("9C")) and widget.winner == 1  # Grand-neuf beats Petit-neuf

    def test_unknown_card_typed_shows_message_and_keeps_cards(self):
        widget = TrickComparer(["3O", "12E"])
        widget.text.value = "3Q 1O"
        assert "unknown card '3Q'" in widget.message.last_error
        assert widget.cards == (C("3O"), C("12E")) and widget.winner == 0
        widget.text.value = "1O 1E"  # still works afterwards
        assert widget.winner is None and widget.message.last_error is None

    def test_wrong_number_of_typed_cards(self):
        widget = TrickComparer(["3O", "12E"])
        widget.text.value = "3O"
        assert "2 to 4 cards" in widget.message.last_error
        widget.text.value = "1O 2O 4O 5O 6O"
        assert "2 to 4 cards" in widget.message.last_error
        assert widget.cards == (C("3O"), C("12E"))

    def test_empty_text_with_button(self):
        widget = TrickComparer()
        widget.compare_button.click()
        assert "type two to four cards" in widget.message.last_error

    def test_same_card_twice_in_dropdowns(self):
        # a card exists once in the deck: a trick cannot hold it twice
        widget = TrickComparer(["3O", "12E"])
        widget.pickers[1].value = C("3O")
        assert "appears twice" in widget.message.last_error
        assert widget.cards == () and widget.winner is None
        widget.pickers[1].value = C("3C")
        assert widget.message.last_error is None and widget.winner == 0

    def test_key_controls_have_stable_css_classes(self):
        widget = TrickComparer()
        assert "aluette-compare-result" in widget._result._dom_classes
        assert "aluette-compare-text" in widget.text._dom_classes
        assert "aluette-compare-card-1" in widget.pickers[0]._dom_classes


class TestTrickComparerPalette:
    """Clicking a card picture chooses it for the trick (cards 1 to 4 in turn). Rule: the rules sheet, "gameplay"
    (the highest card wins; a tie for the highest spoils the trick)."""

    def test_clicks_fill_card_1_to_4_then_start_again(self):
        widget = TrickComparer()
        assert [b.card for b in widget.palette] == list(DECK)
        by_code = {b.card.code: b for b in widget.palette}
        by_code["1E"].click()
        by_code["1O"].click()
        assert widget.cards == (Card.parse("1E"), Card.parse("1O")) and widget.winner is None  # two aces spoil
        by_code["3O"].click()
        assert widget.cards[2] is Card.parse("3O") and widget.winner == 2  # Monsieur wins
        by_code["12E"].click()
        assert len(widget.cards) == 4 and "a new trick" in widget._next_note.value
        by_code["5C"].click()  # a new trick: card 1, cards 3 and 4 emptied
        assert widget.cards == (Card.parse("5C"), Card.parse("1O"))
        assert [p.value for p in widget.pickers[2:]] == [None, None]

    def test_a_card_already_in_the_trick_is_refused(self):
        widget = TrickComparer(cards=("3O", "12E"))
        before = widget.cards
        widget.palette[[b.card.code for b in widget.palette].index("12E")].click()  # would be card 1 and card 2
        assert "already in the trick" in widget.message.last_error and widget.cards == before


class TestOrderingExercise:
    def test_deals_five_distinct_cards_from_the_seed(self):
        # decision of this project: all chance comes from the visible seed; the same seed gives the same cards
        a, b = OrderingExercise(seed=5), OrderingExercise(seed=5)
        assert a.cards == b.cards and len(set(a.cards)) == 5
        assert [btn.card for btn in a.pick_buttons] == list(a.cards)
        # keyboard-only usable: the card pictures are the buttons, named in words
        assert all(btn.label == f"{card_words(btn.card)}: add it to your order" for btn in a.pick_buttons)
        assert all(f'data-card="{btn.card.code}"' in btn.picture.value for btn in a.pick_buttons)

    def test_clicking_in_strength_order_is_right(self):
        # the rules sheet, "card rankings": stronger classes first is the right order
        widget = OrderingExercise(seed=5)
        for i in sorted(range(5), key=lambda i: -widget.cards[i].strength):
            widget.pick_buttons[i].click()
        widget.check_button.click()
        assert widget.correct is True and widget.feedback.startswith("Right")

    def test_wrong_order_says_which_card_beats_which(self):
        widget = OrderingExercise(seed=1)
        weakest_first = sorted(widget.cards, key=lambda c: c.strength)
        widget.answer.value = " ".join(map(str, weakest_first))
        widget.check_button.click()
        assert widget.correct is False
        a, b = weakest_first[0], weakest_first[1]
        assert f"{b} ({b.class_name}, strength {b.strength}) beats {a}" in widget.feedback

    def test_ties_are_right_in_either_order(self):
        # the rules sheet, "card rankings": cards of one class are equal whatever their suit
        widget = OrderingExercise(seed=0)
        for seed in range(200):
            widget.seed.value = str(seed)
            if len({c.strength for c in widget.cards}) < 5:
                break
        else:
            pytest.fail("no seed below 200 deals two cards of one class")
        ordered = sorted(widget.cards, key=lambda c: -c.strength)
        i = next(i for i in range(4) if ordered[i].ties(ordered[i + 1]))
        swapped = ordered[:i] + [ordered[i + 1], ordered[i]] + ordered[i + 2:]
        for answer in (ordered, swapped):
            widget.answer.value = " ".join(map(str, answer))
            widget.check_button.click()
            assert widget.correct is True
            assert "either order is right" in widget.feedback

    def test_bad_answers_show_messages_and_widget_keeps_working(self):
        widget = OrderingExercise(seed=3)
        dealt = " ".join(map(str, widget.cards))
        widget.answer.value = dealt.replace(str(widget.cards[0]), "3Q")
        widget.check_button.click()
        assert "unknown card '3Q'" in widget.feedback and widget.correct is None
        widget.answer.value = " ".join(map(str, widget.cards[:4]))
        widget.check_button.click()
        assert f"missing: {widget.cards[4]}" in widget.feedback
        outsider = next(c for c in DECK if c not in widget.cards)
        widget.answer.value = " ".join(map(str, widget.cards[:4] + (outsider,)))
        widget.check_button.click()
        assert f"not dealt here: {outsider}" in widget.feedback
        widget.answer.value = " ".join(map(str, widget.cards[:4] + (widget.cards[0],)))
        widget.check_button.click()
        assert f"given twice: {widget.cards[0]}" in widget.feedback
        widget.show_button.click()
        widget.answer.value = " ".join(map(str, sorted(widget.cards, key=lambda c: -c.strength)))
        widget.check_button.click()
        assert widget.correct is True

    def test_new_cards_moves_the_seed_and_clears_the_answer(self):
        widget = OrderingExercise(seed=8)
        before = widget.cards
        widget.pick_buttons[0].click()
        widget.new_button.click()
        assert widget.seed.seed_value == 9 and widget.cards == OrderingExercise(seed=9).cards != before
        assert widget.answer.value == ""

    def test_new_cards_close_the_old_cards_and_leave_every_shown_widget_open(self):
        """The cards of every deal share one layout and style (CardParts): closing the old cards must not close
        them under the new ones."""
        widget = OrderingExercise(seed=8)
        old = widget.pick_buttons
        widget.new_button.click()
        assert all(b.comm is None and b.picture.comm is None and b.button.comm is None for b in old)
        assert [type(w).__name__ for w in reachable_widgets(widget) if w.comm is None] == []
        assert old[0].layout is widget.pick_buttons[0].layout  # shared indeed

    def test_clear_and_show(self):
        widget = OrderingExercise(seed=2)
        widget.pick_buttons[1].click()
        widget.pick_buttons[0].click()
        assert widget.answer.value == f"{widget.cards[1]} {widget.cards[0]}"
        widget.clear_button.click()
        assert widget.answer.value == ""
        widget.show_button.click()
        strongest = max(widget.cards, key=lambda c: c.strength)
        assert widget.feedback.startswith(f"Highest to lowest: {card_label(strongest)}")

    def test_css_classes(self):
        widget = OrderingExercise()
        assert "aluette-order-check" in widget.check_button._dom_classes
        assert "aluette-order-result" in widget.message._dom_classes
        assert all("aluette-order-pick" in b._dom_classes for b in widget.pick_buttons)


class TestFrenchPage:
    """Lesson 01 on a French page (the new teacher's class day): the ranking table, the trick's picture and the
    sentence under it in French, the English page as it was. French words: the table's (« pli pourri », « les
    valets »), the cards' names as :mod:`aluette.card_names` builds them (« roi d'épée »: the suit singular)."""

    ENGLISH_HEADERS = ["strength", "class", "nickname", "cards", "count"]

    def test_the_printed_table_is_in_the_page_language(self):
        from aluette.card_names import class_name
        from aluette.i18n import in_language
        english = ranking_table(shown=True)
        assert list(english.columns) == self.ENGLISH_HEADERS and english.index.name == "order"
        assert english.equals(ranking_table())  # the English page unchanged
        with in_language("fr"):
            french = ranking_table(shown=True)
            classes = [class_name(C(codes.split()[0])) for codes in ranking_table()["cards"]]
        assert not set(french.columns) & set(self.ENGLISH_HEADERS) and french.index.name != "order"
        assert list(french.iloc[:, 1]) == classes and "rois" in classes and "kings" not in classes
        assert list(ranking_table().columns) == self.ENGLISH_HEADERS  # a program's names whatever the language

    def test_the_pictured_table_is_in_the_page_language(self):
        from aluette.i18n import in_language
        with in_language("fr"):
            html = ranking_html()
        assert "<th>force</th>" in html and "<td>rois</td>" in html
        assert not any(f"<th>{word}</th>" in html for word in self.ENGLISH_HEADERS)
        assert "<th>strength</th>" in ranking_html() and "<td>kings</td>" in ranking_html()

    def test_a_spoiled_trick_is_le_pli_pourri_once(self):
        from aluette.i18n import in_language
        with in_language("fr"):
            comparer = TrickComparer(("10B", "10O"))
            text = re.sub(r"<[^>]+>", " ", comparer._result.value)
        words = " ".join(text.split())
        assert "Le pli pourri" in words and "pli pli" not in words

    def test_beats_takes_the_article_in_french(self):
        from aluette.i18n import in_language
        from aluette.tricks import explain_trick
        with in_language("fr"):
            assert "bat les quatre (force 2)" in explain_trick(["12E", "4O"])
            assert "bat les valets (force 8)" in explain_trick(["12E", "10O"])
            assert "bat Madame (force 18)" in explain_trick(["3O", "3C"])  # a nickname keeps its own article
        assert "beats fours (strength 2)" in explain_trick(["12E", "4O"])  # English unchanged

    def test_the_prose_names_the_buttons_and_the_cards_as_the_page_shows_them(self):
        import json
        from pathlib import Path
        from aluette.i18n import in_language
        from aluette.card_names import card_name
        notebook = Path(__file__).resolve().parents[2] / "notebooks" / "fr" / "01_ranking.ipynb"
        prose = " ".join("".join(c["source"]) for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
                         if c["cell_type"] == "markdown")
        with in_language("fr"):
            exercise = OrderingExercise()
            buttons = {b.description for b in reachable_widgets(exercise) if hasattr(b, "button_style")}
            swords = card_name(C("12E"))
        quoted = set(re.findall(r"\*([^*]+ la réponse)\*", prose))
        assert quoted and quoted <= buttons, (quoted, buttons)
        assert swords == "roi d'épée" and "d'épées" not in prose and "de bâtons" not in prose
