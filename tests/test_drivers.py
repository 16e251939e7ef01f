"""Drivers (aluette.players.drivers): the trivial stand-in for players (simple_move, play_out, play_out_match) and the bots
seated by kind (bots_for). Sources: "decision" = a decision of this project (the trivial rule, the quality bar on bad
input, seeded chance); "the rules sheet" = docs/sources ("setup", "gameplay").
"""

from __future__ import annotations

import pytest

from aluette import (SEATS, AluetteError, Seat, BadSeedError, Deal, DealOverError, HeuristicBot, Match, MordienneAnnouncement,
                     Options, Phase, RandomBot, Rebour)
from aluette.players.drivers import BOT_KINDS, bots_for, play_deal, play_match, play_out, play_out_match, simple_move


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
        # the rules sheet ("end of game"): a match ends when a side reaches its target or the deals run out
        match = play_out_match(Match(2))
        assert match.is_over and all(deal.is_over for deal in match.deals)


class TestBotsFor:
    def test_one_kind_at_every_seat(self):
        # decision: the scenario builder seats four bots of one kind
        assert set(BOT_KINDS) == {"heuristic", "random", "expert"}
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
    from aluette.players.drivers import random_bot_at
    from aluette.players.session import make_bots

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


# Every variant the engine plays (aluette.options), each with the source the option names.
VARIANTS = {
    "default": Options(),  # the rules sheet and pagat.com: five deals, the chant, mordienne
    "no-chant": Options(chant=False),
    "chant-to-partner": Options(chant_recipients="left_and_partner"),  # loisirs.savoir.fr
    "no-mordienne": Options(mordienne=False),  # mordienne is optional (rules sheet, pagat.com)
    "surrender": Options(surrender=True),  # pagat.com
    "surrender-later": Options(surrender=True, surrender_until="last_trick"),  # decision surrender-between-tricks
    "first-to-5": Options(target_points=5),  # trictrac.net, regles2jeux.fr
    "rebour-first-form": Options(rebour="announced"),  # Guy Rebour's account, as pagat.com reports it
    "rebour-second-form": Options(rebour="only_announced"),  # the variant pagat suggests Rebour describes
}


def drive_with_simple(match: Match, rule: str) -> Match:
    return play_out_match(match, rule)


def drive_with_bots(kind: str):
    def drive(match: Match) -> Match:
        play_match(match, bots_for(kind, 5, signals=kind == "heuristic"))
        return match
    return drive


def drive_with_experts(match: Match) -> Match:
    """The expert bots as every driver seats them (``bots_for("expert")``), made cheap for this test: two samples per
    move, the best fits of eight deals drawn (the inference), solving from trick 7 (the last three tricks; the first
    six are the heuristic bot's, as are the chant, the discards, the surrender and the announcements, decision
    expert-bot). Their defaults (24 samples of 96 drawn, from trick 3) cost seconds a deal; with two samples but the
    96 deals drawn that the constructor derived from the default samples, the nine variants took 50 s of a make
    test; these bounds take a few seconds for all nine, once the solver is compiled (numba's cache, shared with
    tests/test_solver.py and tests/test_expert.py)."""
    bots = bots_for("expert", 5, signals=True)
    for bot in bots.values():
        bot.samples, bot.candidates, bot.solve_from = 2, 8, 7
    play_match(match, bots)
    return match


def drive_with_session(match: Match) -> Match:
    from aluette.players.session import MatchSession
    session = MatchSession(match, bots_for("heuristic", 5, signals=True))
    while True:
        session.run_bots()
        if match.is_over:
            return match
        session.next_deal()


def drive_at_a_table(match: Match, tmp_path) -> Match:
    """A shared table (SQLite) with the match's seed and options: a person's page at N (tests/store/players.py)
    and the table's bots at E, S, W (``step_bots``); returns the match the log rebuilds."""
    from aluette.store import TableService
    from aluette.store.db import SQLiteStore

    from .store.players import play_with_table_bots
    service = TableService(SQLiteStore(tmp_path / "tables.sqlite3"))
    try:
        service.create_table("drivers", seed=match.seed, options=match.options)
        play_with_table_bots(service, "drivers")
        return service.replay("drivers")
    finally:
        service.close()


DRIVERS = {
    "table": drive_at_a_table,
    "simple-highest": lambda m: drive_with_simple(m, "highest"),
    "simple-lowest": lambda m: drive_with_simple(m, "lowest"),
    "heuristic-bots": drive_with_bots("heuristic"),
    "random-bots": drive_with_bots("random"),
    "expert-bots": drive_with_experts,
    "session": drive_with_session,
}


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_driver_plays_every_variant_to_the_end(driver, variant, tmp_path):
    # decision: every driver plays every option of the engine (issue 19: simple_move had no case for the Rebour
    # announcement and stopped every Rebour match with "the deal is over")
    options = VARIANTS[variant]
    drive = DRIVERS[driver]
    match = drive(Match(3, options=options), tmp_path) if driver == "table" else drive(Match(3, options=options))
    assert match.is_over and all(deal.is_over for deal in match.deals)
    if options.rebour is not Rebour.OFF:
        assert all(len(d.announcements) == 4 for d in match.deals if d.tricks)  # everyone was asked
    if match.target is None:
        assert len(match.deals) == options.match_deals
    else:
        assert max(match.scores.values()) >= match.target


def test_the_simple_player_never_announces():
    deal = Deal.from_seed(3, options=Options(rebour="announced", chant=False))
    assert deal.phase is Phase.ANNOUNCE and simple_move(deal) == MordienneAnnouncement(deal.to_move, False)
    play_out(deal)
    with pytest.raises(DealOverError, match="the deal is over"):
        simple_move(deal)


def test_one_registry_of_bot_kinds():
    # decision: the kinds of bots are registered once (drivers.BOT_KINDS); the match session's opponents and the
    # shared tables' bots are made from it
    from aluette.players import session
    from aluette.players.drivers import make_bot
    from aluette.store import service
    assert session.OPPONENTS is BOT_KINDS
    assert repr(service._bot({"signals": True}, Seat.E)) == repr(make_bot("heuristic", "E", signals=True))
    assert isinstance(make_bot("random", "W", 3), RandomBot)
    with pytest.raises(AluetteError, match="need a seed"):
        make_bot("random", "W")
    with pytest.raises(AluetteError, match="unknown players 'clever'"):
        make_bot("clever", "W", 3)
