"""Signals: each gesture's source, and the honest signals the engine allows.

Sources: the rules sheet's signal table (docs/sources/, fy/az/sq/pa sheets; every line, the useless hand and mordienne
included); trictrac.net's Aluette page (the eight named cards and the aces: Petit-neuf "montrer le petit doigt");
Jeux & Stratégie n° 2 (1980) (mordienne: "se mordant légèrement la lèvre inférieure"). The definitions of "a useless
hand" and "going for mordienne" are decisions of this project (useless-hand, going-for-mordienne).
"""

import pytest

from aluette import SIGNALS, BadSignalError, Card, Deal, Options, Seat, parse_cards
from aluette.signals import honest_signals, is_useless_hand, may_go_for_mordienne, signal_count, signal_problem

# E holds le Borgne, Grand-neuf, Deux de chêne (three named cards) and an ace; W holds nothing above a king.
HANDS = {"N": "3O 3C 2C 1O 12O 11O 10O 8O 7O", "E": "2O 9C 2B 1C 12C 11C 10C 8C 7C",
         "S": "9O 2E 1B 12B 11B 10B 8B 7B 6B", "W": "12E 11E 10E 9E 8E 7E 6E 5E 4E"}


def deal():
    return Deal.from_hands(HANDS, options=Options(chant=False))


class TestSources:
    def test_every_gesture_names_its_source(self):
        for kind in SIGNALS:
            assert "rules sheet's signal table" in kind.source, kind.key
            assert "pagat" not in kind.source, kind.key  # pagat's French copy has no table of gestures

    def test_deux_de_chene_index_finger(self):
        # trictrac.net (as the project's source list gives it): « l'index (ou l'index et le majeur) », never the
        # middle finger alone; the rules sheet (fy): "wiisfinger of middelfinger" (index or middle finger)
        kind = next(k for k in SIGNALS if k.key == "deux_de_chene")
        assert kind.gesture == "stick out the index finger (or the index and middle fingers)"
        assert "trictrac.net" in kind.source and "index or middle finger" in kind.source

    def test_monsieur_raised_eyebrows_at_trictrac(self):
        # the rules sheet (fy): "Sjoch omheech sûnder jo holle te ferpleatsen"; trictrac.net: « sourcils levés »
        kind = next(k for k in SIGNALS if k.key == "monsieur")
        assert kind.gesture == "look upwards without moving the head" and "raised eyebrows" in kind.source

    def test_petit_neuf_little_finger(self):
        # trictrac.net: "Petit Neuf : montrer le petit doigt"; the rules sheet (fy): "Stick out pinkie"
        kind = next(k for k in SIGNALS if k.key == "petit_neuf")
        assert "little finger" in kind.gesture and "trictrac.net" in kind.source

    def test_mordienne_bite_the_lip(self):
        # the rules sheet (fy): "Byt jo lip"; Jeux & Stratégie n° 2: "en se mordant légèrement la lèvre inférieure"
        kind = next(k for k in SIGNALS if k.key == "mordienne")
        assert "bite the lip" in kind.gesture and "Jeux & Stratégie" in kind.source


class TestDefinitions:
    def test_useless_hand_is_nothing_above_a_king(self):
        # decision useless-hand: no named card and no ace
        assert is_useless_hand(parse_cards(HANDS["W"]))
        assert not is_useless_hand(parse_cards("12E 1B"))       # an ace
        assert not is_useless_hand(parse_cards("12E 2E"))       # Deux d'écrit, the lowest named card
        assert is_useless_hand(parse_cards("12E 12O 12C 12B"))  # four kings are still "nothing above a king"

    def test_mordienne_needs_three_named_cards(self):
        # decision going-for-mordienne: at least three of the eight named cards
        assert may_go_for_mordienne(parse_cards(HANDS["E"]))
        assert not may_go_for_mordienne(parse_cards("2O 9C 1C 1O 1B 1E"))  # two named cards and four aces

    def test_problem_names_the_reason(self):
        assert signal_problem("useless", parse_cards("1B 4E")) == \
            "holds a card above a king (a named card or an ace), so the hand is not useless"
        assert "fewer than 3 of the eight named cards" in signal_problem("mordienne", parse_cards("3O 4E"))
        assert signal_problem("useless", parse_cards("4E")) is None


class TestEngineChecks:
    def test_legal_signals_follow_the_definitions(self):
        d = deal()
        assert "useless" in d.legal_signals("W") and "mordienne" not in d.legal_signals("W")
        assert "mordienne" in d.legal_signals("E") and "useless" not in d.legal_signals("E")

    @pytest.mark.parametrize("seat,key,reason", [("E", "useless", "E holds a card above a king"),
                                                 ("W", "mordienne", "W holds fewer than 3")])
    def test_dishonest_signal_refused_and_state_kept(self, seat, key, reason):
        d = deal()
        before = d.to_dict()
        with pytest.raises(BadSignalError, match=reason):
            d.signal(seat, key)
        assert d.to_dict() == before

    def test_honest_mordienne_signal_recorded(self):
        # E holds le Borgne, Grand-neuf and Deux de chêne: three named cards
        d = deal()
        record = d.signal("E", "mordienne")
        assert record.key == "mordienne" and record.seat is Seat.E
        assert Card.parse("2O") in d.hands[Seat.E]


class TestHonestSignalsRule:
    """signals.signal_problem, honest_signals and signal_count: the rule the deal asks (decisions signals-honest
    and signals-once-per-deal)."""

    def test_once_per_deal(self):
        hand = parse_cards(HANDS["E"])
        assert signal_problem("borgne", hand) is None
        assert signal_problem("borgne", hand, made=["borgne"]) == "has already signalled \"le Borgne (2 of coins)\" this deal"
        assert "borgne" in honest_signals(hand) and "borgne" not in honest_signals(hand, ["borgne"])

    def test_the_deal_offers_exactly_honest_signals(self):
        d = deal()
        for seat in Seat:
            assert d.legal_signals(seat) == honest_signals(d.hands[seat])
        d.signal("E", "aces")
        assert d.legal_signals("E") == honest_signals(d.hands[Seat.E], ["aces"])

    def test_the_aces_count_is_taken_from_the_hand(self):
        # the rules sheet: the aces signal tells how many aces are held ("open the mouth once for each ace held")
        d = deal()
        assert d.signal("N", "aces").count == signal_count("aces", d.hands[Seat.N]) == 1
        assert signal_count("aces", parse_cards("1O 1C 1B 4E")) == 3 and signal_count("monsieur", []) is None
