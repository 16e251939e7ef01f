"""The match formats and variants players use (issue 8, §3), each test with its source.

* First side to 5 points: trictrac.net ("L'équipe gagnante est celle qui marque la première cinq points") and
  regles2jeux.fr ("le but du jeu, c'est d'être la première équipe à marquer 5 points"); ``Options.target_points``.
* Surrender timing (``Options.surrender_until``): pagat gives no timing; project decisions
  surrender-before-first-trick and surrender-between-tricks (class ``TestSurrenderUntil``).
* Guy Rebour's account as pagat.com reports it (French translation of pagat's page, read for this test): « mordienne
  peut être annoncé avant le début du premier tour. Rebour déclare que si cela se produit, le match est prolongé: il
  continue autant de fois que nécessaire jusqu'à ce qu'une équipe gagne en obtenant un score d'au moins 10 points »
  (the first form, ``Rebour.ANNOUNCED``); pagat doubts it (« C'est un peu difficile à comprendre ») and suggests a
  distinct variant, « dans laquelle mordienne ne marque que s'il est annoncé et que la cible est toujours de 10
  points » (``Rebour.ONLY_ANNOUNCED``). What the text leaves open is a decision of this project:
  rebour-announce-order, rebour-partner-announcement, rebour-announcement-no-score, rebour-extended-target.
"""

import pytest

from aluette import (AluetteError, Deal, HeuristicBot, Match, MordienneAnnouncement, Options, Phase, Play, Rebour,
                     Seat, SurrenderAnswer, SurrenderOffer, Team, WrongPhaseError, NotYourTurnError, play_match,
                     score_tricks, simulate)
from aluette.players.drivers import simple_move
from aluette.scoring import score_deal
from aluette.options import REBOUR_TARGET

# Dealer W, so N leads. N wins tricks 1-2 with its aces; S then wins tricks 3-9 in a row with Deux de chêne and the
# named cards: NNSSSSSSS, a mordienne for S (the rules sheet: the last tricks won in a row after tricks it did not win).
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
    from aluette.simulation.numpy_random import random_deals
    from aluette.simulation.numpy_heuristic import heuristic_deals
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


def announce_in(match: Match, numbers: set, seat: str = "S") -> Match:
    """Play ``match`` out with the trivial player (who never announces), except that ``seat`` announces mordienne in
    the deals numbered in ``numbers``; returns it."""
    while not match.is_over:
        if match.awaiting_next_deal:
            match.next_deal()
        deal = match.current
        if deal.phase is Phase.ANNOUNCE and deal.to_move == seat and match.deal_number in numbers:
            deal.announce_mordienne(seat, True)
        else:
            deal.apply(simple_move(deal))
    return match


class TestRebourOptions:
    def test_targets_of_the_two_forms(self):
        # pagat: the second form's « cible est toujours de 10 points »; the first form's match is as set until an
        # announcement extends it (TestRebourFirstForm)
        assert REBOUR_TARGET == 10
        assert Options(rebour="only_announced").target_points == 10
        assert Options(rebour="announced").target_points is None
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


class TestRebourFirstForm:
    """pagat, on Guy Rebour's account: « si cela se produit, le match est prolongé: il continue autant de fois que
    nécessaire jusqu'à ce qu'une équipe gagne en obtenant un score d'au moins 10 points »."""

    def test_without_an_announcement_the_match_is_five_deals(self):
        match = announce_in(Match(8, options=Options(rebour="announced")), set())
        assert len(match.deals) == 5 and not match.extended and match.target is None
        assert all(len(d.announcements) == 4 for d in match.deals)  # everyone was asked, nobody announced

    def test_an_announcement_extends_the_match_to_ten_points(self):
        match = Match(8, options=Options(rebour="announced"))
        while match.current.phase is not Phase.ANNOUNCE:  # the chant declined, the announcements not yet asked
            match.apply(simple_move(match.current))
        assert not match.extended
        announce_in(match, {1, 2})  # S announces in deals 1 and 2 (the second changes nothing more)
        assert match.extended and match.target == REBOUR_TARGET
        assert match.is_over and max(match.scores.values()) >= 10 and len(match.deals) > 5
        before = [sum(d.result.points[t] for d in match.deals[:-1]) for t in Team]
        assert max(before) < 10  # decision rebour-extended-target: it ends on the first deal that reaches 10

    def test_an_announcement_in_a_later_deal_extends_it_too(self):
        # decision rebour-partner-announcement: any player's announcement extends the match (here W's, deal 4)
        match = announce_in(Match(8, options=Options(rebour="announced")), {4}, seat="W")
        assert match.extended and max(match.scores.values()) >= 10
        assert [any(said for _, said in d.announcements) for d in match.deals[:5]] == [False] * 3 + [True, False]

    def test_a_higher_target_of_the_match_stays(self):
        # decision rebour-extended-target: « au moins 10 points », so a match to 12 stays a match to 12
        match = announce_in(Match(8, options=Options(rebour="announced", target_points=12)), {1})
        assert match.target == 12 and max(match.scores.values()) >= 12
        low = Match(8, options=Options(rebour="announced", target_points=3))
        assert low.target == 3
        announce_in(low, {1})
        assert low.target == 10 and max(low.scores.values()) >= 10

    def test_saved_and_loaded_extended(self):
        match = announce_in(Match(8, options=Options(rebour="announced")), {2})
        again = Match.from_json(match.to_json())
        assert again.extended and again.is_over and again.scores == match.scores


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
        # decision rebour-partner-announcement: the partner's announcement does not count for the maker
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

    def test_bots_play_a_second_form_match_to_ten(self):
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
    ``docs/sources/`` and could not be read offline, and the rules sheet (``docs/sources/``) has no surrender at all. So
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
        from aluette.players.drivers import play_out as simple_play_out
        simple_play_out(deal, "lowest", tricks=1)
        assert len(deal.tricks) == 1 and deal.phase is Phase.PLAY
        with pytest.raises(WrongPhaseError):
            deal.offer_surrender(deal.to_move, True)

    def test_asked_between_tricks_leader_first_then_the_leaders_right(self):
        # decision surrender-between-tricks: before each trick up to the ninth, never within a trick
        from aluette.players.drivers import play_out as simple_play_out
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
        from aluette.players.drivers import play_out as simple_play_out
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
        from aluette.players.drivers import play_out as simple_play_out
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
        from aluette.players.drivers import play_out as simple_play_out
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
        # the heuristic bot's surrender rule, its threshold scaled to the cards left (aluette/players/bots.py)
        from aluette.players.drivers import play_out as simple_play_out
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
        # the simulations' chance contract has three surrender slots (aluette/simulation/contract.py): refused, not ignored
        assert_simulations_refuse(Options(surrender=True, surrender_until="last_trick"), engine,
                                  "only before the first trick")


def test_the_seat_screen_counts_an_extended_match_to_its_new_target():
    """pagat, on Guy Rebour's account: an announcement of mordienne extends the match « jusqu'à ce qu'une équipe
    gagne en obtenant un score d'au moins 10 points »: the seat's facts and its status line say "to 10 points", not
    "of 5" (the status line once read the options' target only)."""
    from aluette.players.seat_port import SessionSeat
    from aluette.players.session import MatchSession, Person
    from aluette.widgets.seat_table import SeatTable

    match = Match(8, options=Options(rebour="announced"))
    while match.current.phase is not Phase.ANNOUNCE:
        match.apply(simple_move(match.current))
    while match.current.phase is Phase.ANNOUNCE:  # S announces in the first deal, the others do not
        deal = match.current
        deal.announce_mordienne(deal.to_move, deal.to_move == "S")
    assert match.extended and match.options.target_points is None
    port = SessionSeat(MatchSession(match, {s: Person(s) for s in "NESW"}), "S")
    assert port.facts().target == REBOUR_TARGET
    table = SeatTable(port)
    try:
        assert f"(to {REBOUR_TARGET} points)" in table.status.value and " of 5" not in table.status.value
    finally:
        table.close()
