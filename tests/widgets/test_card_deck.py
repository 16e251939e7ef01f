"""The card pictures as a page control (issue 19 §3, "An ordinary deck"): Spanish-suited pictures (the default) or
French-suited ones for a table that plays with an ordinary 52-card deck without its 10s (coins = diamonds, cups =
hearts, batons = clubs, swords = spades: catsatcards, loisirs.savoir.fr, jeuxloisirs « Monsieur : Trois de
Carreau »; README's table of variants). Offered beside the card size (02, 08, 10), kept per page; it changes the
pictures and the cards' names shown, never the game."""

from __future__ import annotations

import re

import pytest

from aluette.cards import Card
from aluette.errors import AluetteError
from aluette.widgets import common
from aluette.widgets.common import CardButton, card_deck_control, card_face, card_words, page_card_deck
from aluette.widgets.match import MatchTable

FRENCH_SUIT_SHAPE = '<path d="M0,-9 L7,0 L0,9 L-7,0 Z"'  # the diamond of aluette.pictures._FRENCH_SYMBOLS


def titles(html: str) -> list[str]:
    return re.findall(r"<title>([^<]*)</title>", html)


class TestTheControl:
    def test_spanish_is_the_default_and_french_is_offered(self):
        control = card_deck_control()
        assert control.value == "spanish" == page_card_deck().deck
        assert [key for _label, key in control.options] == ["spanish", "french"]
        assert "aluette-card-deck" in control._dom_classes
        control.value = "french"
        assert page_card_deck().deck == "french"  # linked to the page's setting
        control.close()

    def test_an_unknown_deck_is_refused_and_the_setting_kept(self):
        page_card_deck().deck = "french"
        with pytest.raises(AluetteError, match="card pictures"):
            page_card_deck().deck = "tarot" * 100
        assert page_card_deck().deck == "french"

    def test_a_card_button_and_its_name_follow_the_deck(self):
        three = Card.parse("3O")
        button = CardButton(lambda card: None, card=three, action="play it")
        assert "3 of coins, Monsieur: play it" == button.label
        page_card_deck().deck = "french"
        button.show(three, "play it")
        assert button.label == "3 of diamonds, Monsieur: play it"
        assert FRENCH_SUIT_SHAPE in button.picture.value
        assert titles(button.picture.value) == ["3 of coins (Monsieur): 3 of diamonds"]
        button.close()

    def test_faces_are_drawn_once_per_card_and_deck(self):
        king = Card.parse("12E")
        assert card_face(king, "spanish") is card_face(king, "spanish")
        assert card_face(king, "french") != card_face(king, "spanish")
        assert card_words(king, "french") == "king of spades" and card_words(king, "spanish") == "king of swords"


class TestTheSeatTable:
    def test_the_table_redraws_its_cards_and_the_game_is_unchanged(self):
        table = MatchTable(seed=11, bot_delay=0)
        try:
            before = (table.view.hand, table.view.phase, table.view.to_move, len(table.deal.moves))
            labels = [b.label for b in table.card_buttons]
            assert all(" of " in label and "diamonds" not in label for label in labels)
            table.deck_control.value = "french"  # the control 08 shows beside the card size
            after = (table.view.hand, table.view.phase, table.view.to_move, len(table.deal.moves))
            assert after == before  # the same cards, the same turn, no move: only the pictures changed
            french = [b.label for b in table.card_buttons]
            assert french != labels
            assert all(re.search(r"of (diamonds|hearts|clubs|spades)", label) for label in french)
            assert all('class="aluette-card"' in b.picture.value for b in table.card_buttons)
            table.deck_control.value = "spanish"
            assert [b.label for b in table.card_buttons] == labels
        finally:
            table.close()

    def test_each_page_keeps_its_own_pictures(self, monkeypatch):
        # two pages of one server (Solara's virtual kernels): one student's choice is not another's
        stores = {"A": {}, "B": {}}
        current = {"page": "A"}
        monkeypatch.setattr(common, "_page_storage", lambda: stores[current["page"]])
        page_card_deck().deck = "french"
        current["page"] = "B"
        assert page_card_deck().deck == "spanish"
        current["page"] = "A"
        assert page_card_deck().deck == "french"


class TestNotebook02:
    def test_the_dealing_stepper_offers_the_pictures_and_redraws_them(self):
        from aluette.widgets.setup import DealingStepper
        stepper = DealingStepper(seed=3)
        try:
            controls = [c for c in stepper.children if "aluette-card-deck" in getattr(c, "_dom_classes", ())]
            assert len(controls) == 1  # beside the card size, as the size is offered
            stepper.run_button.click()
            table = stepper._table.value
            assert FRENCH_SUIT_SHAPE not in table and "data-card" in table
            controls[0].value = "french"
            assert FRENCH_SUIT_SHAPE in stepper._table.value  # redrawn at once, from the ordinary deck
            assert re.findall(r'data-card="(\w+)"', stepper._table.value) == re.findall(r'data-card="(\w+)"', table)
        finally:
            stepper.close()
