"""The match formats and variants players use (issue 8, §3), each test with its source.

* First side to 5 points: trictrac.net ("L'équipe gagnante est celle qui marque la première cinq points") and
  regles2jeux.fr ("le but du jeu, c'est d'être la première équipe à marquer 5 points"); ``Options.target_points``.
* pagat.com's Rebour variant, in issue 8's words (pagat's own text could not be checked): "mordienne announced before
  the first trick, with the match played to 10 points; and its second form, where mordienne scores only when
  announced". What the account leaves open is a decision of this project: rebour-announce-order,
  rebour-announcement-no-score.
"""

import pytest

from aluette import (AluetteError, Deal, HeuristicBot, Match, MordienneAnnouncement, Options, Phase, Play, Rebour,
                     Seat, Team, WrongPhaseError, NotYourTurnError, play_match, score_tricks, simulate)
from aluette.options import REBOUR_TARGET

# Dealer W, so N leads. N wins tricks 1-2 with its aces; S then wins tricks 3-9 in a row with Deux de chêne and the
# named cards: NNSSSSSSS, a mordienne for S (seeds: the last tricks won in a row after tricks it did not win).
ORDER = {"N": "1O 1C 12O 12C 11O 8O 7O 10O 11C", "E": "4O 4C 4B 4E 5C 5B 5E 6C 6B",
         "S": "3E 5O 2B 9O 9C 2C 2O 3C 3O", "W": "6E 7C 2E 7B 7E 8C 8B 8E 6O"}
HANDS = ORDER


def rebour_deal(form: Rebour) -> Deal:
    return Deal.from_hands(HANDS, dealer="W", options=Options(chant=False, rebour=form))


def play_out(deal: Deal, order: dict) -> None:
    """Each seat plays its cards in the order given (codes), trick after trick."""
    queues = {Seat(s): list(cards.split()) for s, cards in order.items()}
    while not deal.is_over:
        seat = deal.to_move
        deal.apply(Play(seat, queues[seat].pop(0)))


class TestFirstToFivePoints:
    def test_match_ends_when_a_side_reaches_five(self):
        # trictrac.net, regles2jeux.fr: the first side to score 5 points wins
        match = Match(11, options=Options(target_points=5, chant=False))
        play_match(match, {s: HeuristicBot() for s in "NESW"})
        assert max(match.scores.values()) >= 5 and match.winner is max(match.scores, key=match.scores.get)
        before = [sum(d.result.points[t] for d in match.deals[:-1]) for t in Team]
        assert max(before) < 5  # the match did not go on past the deal that reached 5


class TestRebourOptions:
    def test_match_to_ten_points(self):
        # pagat (issue 8): "the match played to 10 points"
        assert REBOUR_TARGET == 10
        assert Options(rebour="announced").target_points == 10
        assert Options(rebour=Rebour.ONLY_ANNOUNCED, target_points=7).target_points == 7  # an explicit target stays
        assert Options().rebour is Rebour.OFF and Options().target_points is None

    @pytest.mark.parametrize("kwargs,match", [
        ({"rebour": "later"}, "option rebour must be one of"),
        ({"rebour": "announced", "mordienne": False}, "rebour needs mordienne"),
        ({"rebour": "announced", "surrender": True}, "cannot be combined"),
    ])
    def test_bad_combinations(self, kwargs, match):
        with pytest.raises(AluetteError, match=match):
            Options(**kwargs)

    def test_round_trip(self):
        options = Options(rebour="only_announced", chant=False)
        assert Options.from_dict(options.to_dict()) == options and options.to_dict()["rebour"] == "only_announced"


class TestAnnouncement:
    def test_asked_before_the_first_trick_from_the_dealers_left(self):
        # pagat (issue 8): announced before the first trick; decision rebour-announce-order: clockwise from the
        # dealer's left, one question each
        deal = rebour_deal(Rebour.ANNOUNCED)
        assert deal.phase is Phase.ANNOUNCE and deal.to_move is Seat.N  # dealer W: N is at the dealer's left
        with pytest.raises(WrongPhaseError):
            deal.play("N", "1O")
        with pytest.raises(NotYourTurnError):
            deal.announce_mordienne("E")
        for seat, said in zip("NESW", (False, False, True, False)):
            deal.announce_mordienne(seat, said)
        assert deal.phase is Phase.PLAY and deal.to_move is Seat.N
        assert deal.announcements == ((Seat.N, False), (Seat.E, False), (Seat.S, True), (Seat.W, False))
        assert deal.view("E").announcements == deal.announcements  # said aloud: every seat sees them
        assert "S announces mordienne." in deal.view("E").events

    def test_first_form_scores_mordienne_announced_or_not(self):
        # decision rebour-announcement-no-score: in the first form the announcement changes no score
        for said in (True, False):
            deal = rebour_deal(Rebour.ANNOUNCED)
            for seat in "NESW":
                deal.announce_mordienne(seat, said and seat == "S")
            play_out(deal, ORDER)
            assert deal.notation == "NNSSSSSSS"
            assert deal.result.points == {Team.NS: 2, Team.EW: 0} and deal.result.score.mordienne

    def test_second_form_mordienne_only_when_announced(self):
        # pagat (issue 8): "its second form, where mordienne scores only when announced"
        announced = rebour_deal(Rebour.ONLY_ANNOUNCED)
        for seat in "NESW":
            announced.announce_mordienne(seat, seat == "S")
        play_out(announced, ORDER)
        assert announced.result.points == {Team.NS: 2, Team.EW: 0}
        silent = rebour_deal(Rebour.ONLY_ANNOUNCED)
        for seat in "NESW":
            silent.announce_mordienne(seat, seat == "N")  # N announced, but S makes the run
        play_out(silent, ORDER)
        assert silent.result.points == {Team.NS: 1, Team.EW: 0} and not silent.result.score.mordienne
        assert "had not announced mordienne" in silent.result.reason

    def test_score_tricks_announced(self):
        # the same rule on the notation alone
        assert score_tricks("NNSSSSSSS", announced=["S"]).points == 2
        assert score_tricks("NNSSSSSSS", announced=[]).points == 1
        assert score_tricks("NNSSSSSSS").points == 2  # announced=None: no Rebour
        with pytest.raises(AluetteError, match="collection of seats"):
            score_tricks("NNSSSSSSS", announced="S")

    def test_saved_and_replayed(self):
        deal = rebour_deal(Rebour.ONLY_ANNOUNCED)
        for seat in "NESW":
            deal.announce_mordienne(seat, seat == "S")
        play_out(deal, ORDER)
        again = Deal.from_json(deal.to_json())
        assert again.to_dict() == deal.to_dict() and again.announcements == deal.announcements
        assert ["announce", "S", True] in deal.to_dict()["moves"]
        assert MordienneAnnouncement(Seat.S, True) in deal.moves

    def test_bots_play_a_rebour_match_to_ten(self):
        match = Match(4, options=Options(rebour="only_announced"))
        play_match(match, {s: HeuristicBot(signals=True) for s in "NESW"})
        assert match.is_over and max(match.scores.values()) >= 10
        assert all(len(d.announcements) == 4 for d in match.deals if d.result.score is not None)

    def test_simulations_refuse_rebour(self):
        with pytest.raises(AluetteError, match="do not play the Rebour announcement"):
            simulate(10, seed=1, options=Options(rebour="announced"))

    @pytest.mark.parametrize("engine", ["step", "vectorized"])
    def test_every_simulation_entry_refuses_rebour(self, engine):
        import numpy as np

        from aluette.simulation import step_deals
        from aluette.vectorized import random_deals
        from aluette.vectorized_heuristic import heuristic_deals
        options = Options(rebour="only_announced")
        with pytest.raises(AluetteError, match="do not play the Rebour announcement"):
            simulate(10, seed=1, options=options, engine=engine)
        draws, dealers = np.zeros((1, 94)), np.zeros(1, dtype=int)
        for run in (step_deals, random_deals, heuristic_deals):
            with pytest.raises(AluetteError, match="do not play the Rebour announcement"):
                run(draws, dealers, options)
