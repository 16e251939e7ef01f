"""Values that cannot change and read well: read-only mappings in results and views, one kind of thing
per name on Deal and View, plain-text ``str(deal)`` and short reprs."""

from collections.abc import Mapping

import pytest

from aluette import (ChantRecipients, Deal, DealScore, Match, Options, Seat, Team, TrickRecord, View,
                     score_tricks)
from aluette.players.bots import RandomBot
from aluette.players.drivers import play_match


def finished(seed=4, **options) -> Deal:
    deal = Deal.from_seed(seed, options=Options(**options))
    while not deal.is_over:
        deal.apply(deal.legal_moves()[-1])
    return deal


class TestReadOnly:
    def test_result_points_cannot_be_rewritten(self):
        # was: deal.result.points[Team.NS] = 99 rewrote the deal's save, and the match's save was then refused
        match = Match(3)
        play_match(match, {seat: RandomBot(i) for i, seat in enumerate(Seat)})
        result = match.deals[0].result
        with pytest.raises(TypeError):
            result.points[Team.NS] = 99
        assert Match.from_json(match.to_json()).to_json() == match.to_json()

    @pytest.mark.parametrize("name", ["hands", "hand_sizes", "trick_counts", "stock_received", "discards"])
    def test_view_mappings_cannot_be_changed(self, name):
        deal = Deal.from_seed(1)
        for _ in range(4):
            deal.answer_chant(deal.to_move, True)  # E and N receive the stock (the rules sheet, "setup")
        view = deal.view(Seat.E)
        with pytest.raises(TypeError):
            getattr(view, name)[Seat.S] = ()
        assert Deal.from_json(deal.to_json()).to_json() == deal.to_json()

    def test_deal_mappings_cannot_change_the_deal(self):
        deal = Deal.from_seed(2)
        with pytest.raises(TypeError):
            deal.hands[Seat.N] = ()
        with pytest.raises(TypeError):
            deal.trick_counts[Seat.N] = 9


class TestSameNamesSameThings:
    @pytest.mark.parametrize("seed", [1, 5])
    def test_deal_and_omniscient_view_agree(self, seed):
        deal = finished(seed)
        view = deal.view(None)
        for name in ("hands", "trick_counts", "events"):
            assert getattr(deal, name) == getattr(view, name), name
        assert isinstance(deal.trick_counts, Mapping) and isinstance(deal.hands, Mapping)
        assert isinstance(deal.events, tuple) and isinstance(view.events, tuple)

    def test_a_seats_hand_is_view_hand_and_hands_entry(self):
        deal = Deal.from_seed(7)
        assert deal.view(Seat.S).hand == deal.hands[Seat.S] == deal.view(Seat.S).hands[Seat.S]

    def test_a_seats_events_hide_other_hands(self):
        # a player's view never holds another seat's hidden cards
        deal = Deal.from_seed(7)
        assert [line for line in deal.view("S").events if "is dealt" in line] == \
            [f"S is dealt {deal.dealt_hand(Seat.S)}."]


class TestText:
    def test_str_of_a_deal_shows_hands_trick_and_notation(self):
        deal = Deal.from_seed(3, options=Options(chant=False))
        for _ in range(6):
            deal.play_index(0)
        text = str(deal)
        assert text.splitlines()[0] == f"Deal, dealer N, play phase, {deal.to_move} to move"
        for seat in Seat:
            assert f"  {seat}: {deal.hands[seat]}" in text
        assert f"  trick 2: {', '.join(f'{s} {c}' for s, c in deal.current_trick)}" in text
        assert f"  tricks: {deal.notation}" in text

    def test_str_of_a_finished_deal_gives_the_result(self):
        deal = finished(4)
        assert deal.result.reason in str(deal) and "over" in str(deal).splitlines()[0]

    def test_short_reprs(self):
        score = score_tricks("NEWXSSSSS")  # pagat and the rules sheet: mordienne scores 2 (option on by default)
        assert repr(score) == "<DealScore NEWXSSSSS: S wins, NS scores 2 (mordienne)>"
        assert repr(score_tricks("XXXXXXXXX")) == "<DealScore XXXXXXXXX: nobody scores>"
        record = finished(4).tricks[0]
        assert repr(record).startswith("<TrickRecord 1: ") and len(repr(record)) < 80
        assert isinstance(score, DealScore) and isinstance(record, TrickRecord)

    @pytest.mark.parametrize("options,text", [
        (Options(), "Options()"), (Options(surrender=True), "Options(surrender=True)"),
        (Options(chant_recipients="left_and_partner", target_points=5),
         "Options(chant_recipients=ChantRecipients.LEFT_AND_PARTNER, target_points=5)")])
    def test_options_repr_names_only_what_differs_and_reads_back(self, options, text):
        assert repr(options) == text
        assert eval(text, {"Options": Options, "ChantRecipients": ChantRecipients}) == options

    def test_every_enum_option_reads_back(self):
        from aluette.options import Rebour
        for rebour in Rebour:
            options = Options(rebour=rebour)
            assert eval(repr(options), {"Options": Options, "Rebour": Rebour}) == options


def test_view_is_still_a_frozen_dataclass():
    view = Deal.from_seed(1).view("N")
    with pytest.raises(AttributeError):
        view.hands = {}
    assert isinstance(view, View)
