"""The match formats and variants players use (issue 8, §3), each test with its source.

* First side to 5 points: trictrac.net ("L'équipe gagnante est celle qui marque la première cinq points") and
  regles2jeux.fr ("le but du jeu, c'est d'être la première équipe à marquer 5 points"); ``Options.target_points``.
* Surrender timing (``Options.surrender_until``): pagat gives no timing; project decisions
  surrender-before-first-trick and surrender-between-tricks (class ``TestSurrenderUntil``).
* pagat.com's Rebour variant, in issue 8's words (pagat's own text could not be checked): "mordienne announced before
  the first trick, with the match played to 10 points; and its second form, where mordienne scores only when
  announced". What the account leaves open is a decision of this project: rebour-announce-order,
  rebour-announcement-no-score.
"""

import pytest

from aluette import (AluetteError, Deal, HeuristicBot, Match, MordienneAnnouncement, Options, Phase, Play, Rebour,
                     Seat, SurrenderAnswer, SurrenderOffer, Team, WrongPhaseError, NotYourTurnError, play_match,
                     score_tricks, simulate)
from aluette.scoring import score_deal
from aluette.options import REBOUR_TARGET

# Dealer W, so N leads. N wins tricks 1-2 with its aces; S then wins tricks 3-9 in a row with Deux de chêne and the
# named cards: NNSSSSSSS, a mordienne for S (seeds: the last tricks won in a row after tricks it did not win).
ORDER = {"N": "1O 1C 12O 12C 11O 8O 7O 10O 11C", "E": "4O 4C 4B 4E 5C 5B 5E 6C 6B",
         "S": "3E 5O 2B 9O 9C 2C 2O 3C 3O", "W": "6E 7C 2E 7B 7E 8C 8B 8E 6O"}
HANDS = ORDER
#: A hand for the heuristic bot's surrender between tricks: E (the dealer's left) holds the lowest cards.
SURRENDER_WEAK = {"E": "4O 4C 4B 4E 5C 5B 5E 6C 6B", "S": "3E 5O 2B 9O 9C 2C 2O 3C 3O",
                  "W": "6E 7C 2E 7B 7E 8C 8B 8E 6O", "N": "1O 1C 12O 12C 11O 8O 7O 10O 11C"}


def rebour_deal(form: Rebour) -> Deal:
    return Deal.from_hands(HANDS, dealer="W", options=Options(chant=False, rebour=form))


def assert_simulations_refuse(options: Options, engine: str, message: str) -> None:
    """Every simulation entry (simulate, the step engine, both numpy engines) refuses ``options`` with ``message``."""
    import numpy as np

    from aluette.simulation import step_deals
    from aluette.vectorized import random_deals
    from aluette.vectorized_heuristic import heuristic_deals
    with pytest.raises(AluetteError, match=message):
        simulate(10, seed=1, options=options, engine=engine)
    draws, dealers = np.zeros((1, 94)), np.zeros(1, dtype=int)
    for run in (step_deals, random_deals, heuristic_deals):
        with pytest.raises(AluetteError, match=message):
            run(draws, dealers, options)


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
        assert_simulations_refuse(Options(rebour="only_announced"), engine, "do not play the Rebour announcement")


class TestSurrenderUntil:
    """Until when a surrender may be offered: ``Options.surrender_until``.

    Source: pagat.com gives the surrender (accepted, the accepting side scores 1; refused, the refusing side must make
    mordienne, scoring 2, or the offering side scores 2) but gives no time for the offer; its page is not in
    ``docs/sources/`` and could not be read offline, and the seeds (``docs/sources/``) have no surrender at all. So
    the timing is a project decision: ``surrender-before-first-trick`` (the default) and ``surrender-between-tricks``
    (``"last_trick"``: before any trick up to the ninth). The points follow ``scoring.score_deal`` whenever the
    offer was made.

    The position is ``surrender_position``'s hands (dealer N, so E leads): played lowest card first, S wins tricks
    1-5 and E tricks 6-9; played highest card first, E wins tricks 1-4 and S tricks 5-9.
    """

    @staticmethod
    def deal(until: str = "last_trick") -> Deal:
        from aluette.widgets.scoring import SURRENDER_HANDS
        return Deal.from_hands(SURRENDER_HANDS, dealer="N",
                               options=Options(surrender=True, surrender_until=until, chant=False))

    def test_options(self):
        from aluette import SurrenderUntil
        assert Options().surrender_until is SurrenderUntil.FIRST_TRICK
        options = Options(surrender=True, surrender_until="last_trick")
        assert options.surrender_until is SurrenderUntil.LAST_TRICK
        assert Options.from_dict(options.to_dict()) == options and options.to_dict()["surrender_until"] == "last_trick"
        assert eval(repr(options), {"Options": Options, "SurrenderUntil": SurrenderUntil}) == options
        assert Options.from_dict({"surrender": True}).surrender_until is SurrenderUntil.FIRST_TRICK  # older saves
        with pytest.raises(AluetteError, match="surrender_until must be one of"):
            Options(surrender=True, surrender_until="any time")
        with pytest.raises(AluetteError, match="needs surrender=True"):  # it would change nothing: refused
            Options(surrender_until="last_trick")

    def test_default_asks_only_before_the_first_trick(self):
        # decision surrender-before-first-trick
        deal = self.deal("first_trick")
        assert deal.phase is Phase.SURRENDER and deal.to_move is Seat.E
        deal.offer_surrender("E", False)
        deal.offer_surrender("N", False)
        from aluette.drivers import play_out as simple_play_out
        simple_play_out(deal, "lowest", tricks=1)
        assert len(deal.tricks) == 1 and deal.phase is Phase.PLAY
        with pytest.raises(WrongPhaseError):
            deal.offer_surrender(deal.to_move, True)

    def test_asked_between_tricks_leader_first_then_the_leaders_right(self):
        # decision surrender-between-tricks: before each trick up to the ninth, never within a trick
        from aluette.drivers import play_out as simple_play_out
        deal = self.deal()
        simple_play_out(deal, "lowest", tricks=1)  # nobody offers before trick 1; S wins it
        assert deal.notation == "S" and deal.phase is Phase.SURRENDER and deal.to_move is Seat.S
        before = deal.to_dict()
        with pytest.raises(WrongPhaseError):
            deal.play("S", deal.hands[Seat.S][-1])
        assert deal.to_dict() == before  # refused: nothing changed
        assert deal.legal_moves() == [SurrenderOffer(Seat.S, True), SurrenderOffer(Seat.S, False)]
        deal.offer_surrender("S", False)
        assert deal.to_move is Seat.E  # the leader's right, for the other side
        deal.offer_surrender("E", False)
        assert deal.phase is Phase.PLAY and deal.to_move is Seat.S  # the leader leads
        deal.play("S", deal.legal_cards()[-1])
        assert deal.phase is Phase.PLAY  # within a trick: no question
        simple_play_out(deal)
        assert deal.is_over and deal.result.surrendered_by is None
        spoken = [m for m in deal.moves if isinstance(m, SurrenderOffer)]
        assert len(spoken) == 2 * 9  # two questions before each of the nine tricks, none after the last

    def test_worked_example_offered_after_trick_4_refused_refusers_fail(self):
        # pagat.com: refused, the refusing side must make mordienne, else the offering side scores 2; the offer
        # after trick 4 is decision surrender-between-tricks
        from aluette.drivers import play_out as simple_play_out
        deal = self.deal()
        simple_play_out(deal, "lowest", tricks=4)
        assert deal.notation == "SSSS" and deal.to_move is Seat.S  # S leads trick 5 and speaks first
        deal.offer_surrender("S", False)  # N–S plays on
        deal.offer_surrender("E", True)  # E offers for E–W
        assert deal.to_move is Seat.S and deal.legal_moves()[0] == SurrenderAnswer(Seat.S, True)
        deal.answer_surrender("S", False)  # S refuses for N–S: N–S must make mordienne
        assert deal.phase is Phase.PLAY and deal.to_move is Seat.S
        simple_play_out(deal, "lowest")
        assert deal.notation == "SSSSSEEEE"
        # S won the most tricks (5), but from trick 1: no mordienne, so the refusing side failed
        assert deal.result.score.winner is Seat.S and not deal.result.score.mordienne
        assert deal.result.points == {Team.EW: 2, Team.NS: 0}
        assert "refused the surrender after trick 4 and did not make mordienne: EW scores 2" in deal.result.reason
        assert not any(isinstance(m, SurrenderOffer) for m in deal.moves[-20:])  # no question after the answer
        assert deal.result == score_deal("SSSSSEEEE", surrendered_by="EW", surrender_accepted=False,
                                         offered_after=4)

    def test_refused_between_tricks_and_the_refusers_make_mordienne(self):
        # pagat.com: the refusing side scores 2 when it makes mordienne; S wins tricks 5-9 after losing 1-4
        from aluette.drivers import play_out as simple_play_out
        deal = self.deal()
        simple_play_out(deal, "highest", tricks=5)
        assert deal.notation == "EEEES" and deal.to_move is Seat.S
        deal.offer_surrender("S", False)
        deal.offer_surrender("E", True)
        deal.answer_surrender("S", False)
        simple_play_out(deal, "highest")
        assert deal.notation == "EEEESSSSS" and deal.result.points == {Team.NS: 2, Team.EW: 0}

    def test_accepted_between_tricks_ends_the_deal(self):
        # pagat.com: accepted, the accepting side scores 1 and the deal is not played on
        from aluette.drivers import play_out as simple_play_out
        deal = self.deal()
        simple_play_out(deal, "lowest", tricks=4)
        deal.offer_surrender("S", False)
        deal.offer_surrender("E", True)
        deal.answer_surrender("S", True)
        assert deal.is_over and len(deal.tricks) == 4 and deal.result.score is None
        assert deal.result.points == {Team.NS: 1, Team.EW: 0}
        assert deal.result.reason == ("EW surrendered after trick 4 and NS accepted: NS scores 1 and the rest of the "
                                      "deal is not played (pagat.com).")
        again = Deal.from_json(deal.to_json())
        assert again.to_dict() == deal.to_dict() and again.result == deal.result

    def test_score_deal_checks_offered_after(self):
        for bad in (9, -1, True, "4"):
            with pytest.raises(AluetteError, match="offered_after"):
                score_deal("SSSSSEEEE", surrendered_by="EW", surrender_accepted=False, offered_after=bad)
        with pytest.raises(AluetteError, match="offered_after"):
            score_deal("SSSSSEEEE", offered_after=4)  # no offer

    @pytest.mark.parametrize("seed", range(6))
    def test_bots_play_it(self, seed):
        # every bot and driver plays the option to the end; results are score_deal's; the saved deal replays
        from aluette import RandomBot, play_deal
        options = Options(surrender=True, surrender_until="last_trick")
        bots = ({s: HeuristicBot(signals=True) for s in "NESW"} if seed % 2 else
                {s: RandomBot(seed * 4 + i) for i, s in enumerate("NESW")})
        deal = Deal.from_seed(seed, dealer="NESW"[seed % 4], options=options)
        play_deal(deal, bots)
        result = deal.result
        assert deal.is_over and Deal.from_json(deal.to_json()).result == result
        offers = [m for m in deal.moves if isinstance(m, SurrenderOffer) and m.offer]
        assert len(offers) <= 1 and (result.surrendered_by is not None) == bool(offers)

    def test_heuristic_bot_offers_between_tricks_with_a_hopeless_hand(self):
        # the heuristic bot's surrender rule, its threshold scaled to the cards left (aluette/bots.py)
        from aluette.drivers import play_out as simple_play_out
        deal = self.deal()
        simple_play_out(deal, "lowest", tricks=4)  # S leads trick 5
        deal.offer_surrender("S", False)
        view = deal.view("E")  # E holds its top four and a 4: strength well above 50 x 5/9
        decision = HeuristicBot().choose(view)
        assert decision.move == SurrenderOffer(Seat.E, False)
        weak = Deal.from_hands(SURRENDER_WEAK, dealer="N", options=Options(surrender=True, surrender_until="last_trick",
                                                                            chant=False))
        simple_play_out(weak, "highest", tricks=2)  # S wins both and leads trick 3: S speaks, then E
        assert weak.notation == "SS" and HeuristicBot().choose(weak.view("S")).move == SurrenderOffer(Seat.S, False)
        weak.offer_surrender("S", False)
        strength = sum(c.strength for c in weak.hands[Seat.E])  # seven low cards: below 50 x 7/9
        decision = HeuristicBot().choose(weak.view("E"))
        assert strength * 9 < HeuristicBot.surrender_weak * 7 and decision.move == SurrenderOffer(Seat.E, True)
        assert f"strength {strength} < 50 x 7/9" in decision.reason

    @pytest.mark.parametrize("engine", ["step", "vectorized"])
    def test_simulations_refuse_it(self, engine):
        # the simulations' chance contract has three surrender slots (aluette/sim_chance.py): refused, not ignored
        assert_simulations_refuse(Options(surrender=True, surrender_until="last_trick"), engine,
                                  "only before the first trick")
