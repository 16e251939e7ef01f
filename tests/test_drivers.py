"""Drivers (aluette.drivers): the trivial stand-in for players (simple_move, play_out, play_out_match) and the bots
seated by kind (bots_for). Sources: "decision" = a decision of this project (the trivial rule, the quality bar on bad
input, seeded chance); "seeds" = the rules sheet in docs/sources ("setup", "gameplay").
"""

from __future__ import annotations

import pytest

from aluette import SEATS, AluetteError, BadSeedError, Deal, HeuristicBot, Match, Phase, RandomBot
from aluette.drivers import BOT_KINDS, bots_for, play_deal, play_out, play_out_match, simple_move


class TestSimpleRule:
    def test_highest_and_lowest_play_the_ends_of_the_hand(self):
        # decision: the notebook's trivial rule plays the highest (or lowest) card of the hand, as documented
        for rule, end in (("highest", 0), ("lowest", -1)):
            deal = Deal.from_seed(3)
            play_out(deal, rule, tricks=1)
            first = deal.tricks[0]
            for seat, card in first.plays:
                assert card == deal.dealt_hand(seat)[end]

    def test_the_chant_is_declined(self):
        # decision: the trivial rule declines the chant, so the stock is never used
        deal = Deal.from_seed(3)
        move = simple_move(deal)
        assert deal.phase is Phase.CHANT and move.agree is False

    def test_unknown_rule_is_refused(self):
        # decision: only the documented rules exist; a rule that is not text is refused the same way
        with pytest.raises(ValueError, match="unknown playing rule 'best'"):
            simple_move(Deal.from_seed(3), "best")
        for rule in (["highest"], None, "x" * 10_000):
            with pytest.raises(AluetteError, match="unknown playing rule"):
                simple_move(Deal.from_seed(3), rule)

    def test_a_bad_rule_changes_nothing(self):
        # decision (quality bar): a refused input leaves the deal and the match as they were
        deal, match = Deal.from_seed(4), Match(4)
        before = deal.to_json(), match.to_json()
        with pytest.raises(AluetteError, match="unknown playing rule"):
            play_out(deal, "best")
        with pytest.raises(AluetteError, match="unknown playing rule"):
            play_out_match(match, "best")
        assert (deal.to_json(), match.to_json()) == before

    def test_play_out_match_plays_every_deal_to_the_end(self):
        # seeds ("end of game"): a match ends when a side reaches its target or the deals run out
        match = play_out_match(Match(2))
        assert match.is_over and all(deal.is_over for deal in match.deals)


class TestBotsFor:
    def test_one_kind_at_every_seat(self):
        # decision: the scenario builder seats four bots of one kind
        assert set(BOT_KINDS) == {"heuristic", "random"}
        heuristic, random = bots_for("heuristic", 1), bots_for("random", 1)
        assert set(heuristic) == set(random) == set(SEATS)
        assert all(isinstance(bot, HeuristicBot) for bot in heuristic.values())
        assert all(isinstance(bot, RandomBot) for bot in random.values())

    def test_the_seed_replays_the_random_game_and_another_seed_differs(self):
        # decision: all chance from an explicit seed, so one seed replays one game
        def played(seed: int) -> list:
            return [d.move for d in play_deal(Deal.from_seed(6), bots_for("random", seed))]

        assert played(8) == played(8)
        assert played(8) != played(9)

    def test_bad_kind_or_seed_is_refused(self):
        # decision (quality bar): one error family, naming the problem
        for kind in ("best", ["random"], None):
            with pytest.raises(AluetteError, match="unknown players"):
                bots_for(kind, 1)
        for kind in BOT_KINDS:
            for seed in (-1, 1.5, None, "3"):
                with pytest.raises(BadSeedError):
                    bots_for(kind, seed)


def test_moved_drivers_still_import_from_the_play_widgets():
    # decision: notebooks saved before the drivers moved import play_out and play_out_match from the widgets
    from aluette.widgets import play

    assert play.play_out is play_out and play.play_out_match is play_out_match


def test_random_bots_are_seeded_one_way_for_every_driver():
    """A seed replays a game, its random players included: ``bots_for("random", s)`` and the match session's random
    opponents (E and W for a person at S) are ``random_bot_at(s, seat)``: the same seed and seat choose alike."""
    from aluette import Seat
    from aluette.drivers import random_bot_at
    from aluette.session import make_bots

    deal = Deal.from_seed(5)
    view, legal = deal.view(deal.to_move), deal.legal_moves()
    assert len(legal) > 1  # a real choice
    four, opponents = bots_for("random", 9), make_bots(9, "random")
    for seat in (Seat.E, Seat.W):
        assert isinstance(opponents[seat], RandomBot)
        expected = random_bot_at(9, seat).choose(view, legal)
        assert four[seat].choose(view, legal) == opponents[seat].choose(view, legal) == expected
    with pytest.raises(BadSeedError):
        random_bot_at(-1, "N")
    with pytest.raises(AluetteError):
        random_bot_at(1, "north-east")
