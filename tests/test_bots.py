"""Bots: the protocol, RandomBot, HeuristicBot (pagat.com's advice, in built positions), signals, hidden cards, and
play_deal/play_match over many seeds.

Positions are built with ``Deal.from_hands`` and the dealer at W, so N leads and plays go N, E, S, W; the chant is
off unless a test is about it. Sources are named next to each test: "pagat" is pagat.com's Aluette page (its
advice on play, as quoted in aluette/players/bots.py), "the rules sheet" docs/sources, "decision" a decision
of this project documented in aluette/players/bots.py.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aluette import (SEATS, SIGNALS, AluetteError, Card, ChantAnswer, ChantRecipients, Deal, Discard, Match,
                     NotYourTurnError, Options, Phase, Play, Seat, Signal, SurrenderAnswer, SurrenderOffer, Team,
                     parse_cards)
from aluette.errors import BadSeedError
from aluette.players.bots import Bot, Decision, HeuristicBot, RandomBot, hand_strength
from aluette.players.drivers import play_deal, play_match, play_turn, signal_round

NO_CHANT = Options(chant=False)


def position(hands: dict, plays: str = "", *, options: Options = NO_CHANT, dealer: str = "W") -> Deal:
    """A deal from given hands (dealer W: N leads), then the given cards played in turn."""
    deal = Deal.from_hands(hands, dealer=dealer, options=options)
    for code in plays.split():
        deal.play(deal.to_move, code)
    return deal


def choose(bot, deal: Deal) -> Decision:
    """The bot's decision for the seat to move, from that seat's view only."""
    seat = deal.to_move
    return bot.choose(deal.view(seat), deal.legal_moves())


def played_card(decision: Decision) -> Card:
    assert isinstance(decision.move, Play)
    return decision.move.card


# Suits kept apart so that positions are easy to read: N coins, E cups, S batons, W swords (plus a few swaps).
COINS = "1O 4O 5O 6O 7O 8O 10O 11O 12O"
CUPS = "1C 4C 5C 6C 7C 8C 10C 11C 12C"
BATONS = "1B 4B 5B 6B 7B 8B 10B 11B 12B"
SWORDS = "1E 4E 5E 6E 7E 8E 10E 11E 12E"


class TestProtocol:
    def test_both_bots_follow_the_protocol(self):
        assert isinstance(RandomBot(0), Bot)
        assert isinstance(HeuristicBot(), Bot)

    def test_a_decision_names_its_seat_move_and_reason(self):
        decision = Decision(Play(Seat.N, Card.parse("3O")), "Monsieur always wins")
        assert decision.seat is Seat.N
        assert str(decision) == "N plays 3O: Monsieur always wins"

    @pytest.mark.parametrize("bot", [RandomBot(0), HeuristicBot()], ids=["random", "heuristic"])
    def test_a_bot_refuses_the_omniscient_view_and_the_deal(self, bot):
        # decision of this project: a bot decides from its own seat's view, never from everything
        deal = Deal.from_seed(1, options=NO_CHANT)
        with pytest.raises(AluetteError, match="view of its own seat"):
            bot.choose(deal.view(None), deal.legal_moves())
        with pytest.raises(AluetteError, match="view of its own seat"):
            bot.choose(deal, deal.legal_moves())

    def test_the_heuristic_bot_refuses_to_move_out_of_turn(self):
        deal = Deal.from_seed(1, options=NO_CHANT)
        with pytest.raises(AluetteError, match="turn"):
            HeuristicBot().choose(deal.view(deal.to_move.left))


class TestRandomBot:
    def test_same_seed_same_moves_other_seed_other_moves(self):
        # decision of this project: all chance comes from an explicit seed
        def moves(seed):
            deal = Deal.from_seed(3)
            play_deal(deal, {s: RandomBot(seed + i) for i, s in enumerate(SEATS)})
            return deal.moves
        assert moves(10) == moves(10)
        assert moves(10) != moves(20)

    def test_needs_an_explicit_seed(self):
        # all chance through an explicit seed; one error family for a missing seed (was TypeError)
        with pytest.raises(BadSeedError, match="explicit seed"):
            RandomBot(None)

    def test_only_legal_moves_in_every_phase(self):
        options = Options(surrender=True)
        phases = set()
        for seed in range(60):
            deal = Deal.from_seed(seed, dealer=SEATS[seed % 4], options=options)
            bots = {s: RandomBot(np.random.SeedSequence([seed, i])) for i, s in enumerate(SEATS)}
            while not deal.is_over:
                legal = deal.legal_moves()
                decision = bots[deal.to_move].choose(deal.view(deal.to_move), legal)
                assert decision.move in legal and decision.reason == "random"
                phases.add(deal.phase)
                deal.apply(decision.move)
        assert phases == {Phase.CHANT, Phase.DISCARD, Phase.SURRENDER, Phase.PLAY}

    def test_uniform_over_the_legal_moves(self):
        # nine legal cards: each is drawn about 1/9 of the time (bounds at about 5 standard deviations)
        deal = Deal.from_seed(4, options=NO_CHANT)
        view, legal = deal.view(deal.to_move), deal.legal_moves()
        bot = RandomBot(99)
        counts = {m: 0 for m in legal}
        for _ in range(9000):
            counts[bot.choose(view, legal).move] += 1
        assert all(850 <= n <= 1150 for n in counts.values()), counts

    def test_makes_no_signals(self):
        deal = Deal.from_seed(5, options=NO_CHANT)
        seat = deal.to_move
        assert RandomBot(0).signals(deal.view(seat), deal.legal_signals(seat)) == []

    def test_no_legal_move_is_an_error(self):
        deal = Deal.from_seed(5, options=NO_CHANT)
        with pytest.raises(AluetteError, match="no legal move"):
            RandomBot(0).choose(deal.view(deal.to_move), [])


class TestFourthPlayer:
    """pagat: the fourth player beats the third player's card as cheaply as possible, or spoils the trick by tying
    it, « souvent une bonne idée », keeping the advantage of playing last; pagat ranks neither. Decision
    (heuristic-bot, aluette/players/bots.py): the bot beats when it can, spoils an opponent's trick only when it
    cannot beat it, else throws its lowest; it does not take a trick from its partner."""

    def test_beats_as_cheaply_as_possible(self):
        # N leads the ace of coins; W holds three cards that beat an ace and takes the cheapest, Deux d'écrit
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": "3O 9C 2E 4E 5E 6E 7E 8E 10E"}, "1O 4C 5B")
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("2E")
        deal.apply(decision.move)
        assert deal.tricks[-1].winner is Seat.W

    def test_beats_rather_than_spoils_when_it_can(self):
        # decision (heuristic-bot): S, third, plays the ace of batons; W could tie it with the ace of swords (pagat's
        # spoil) but beats it, as cheaply as it can, with the Deux d'écrit
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": "1E 2E 4E 5E 6E 7E 8E 10E 12E"}, "4O 4C 1B")
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("2E") and "spoil" not in decision.reason
        deal.apply(decision.move)
        assert deal.tricks[-1].winner is Seat.W

    def test_spoils_by_matching_when_it_cannot_beat(self):
        # nothing of W's beats an ace, but W holds an ace: matching the class spoils N's trick
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": SWORDS}, "1O 4C 5B")
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("1E")
        assert "spoil" in decision.reason and decision.reason.endswith("(pagat.com)")  # pagat's advice to the fourth
        deal.apply(decision.move)
        assert deal.tricks[-1].spoiled

    def test_throws_its_lowest_when_it_can_neither_beat_nor_match(self):
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": "9E 4E 5E 6E 7E 8E 10E 11E 12E"}, "1O 4C 5B")
        assert played_card(choose(HeuristicBot(), deal)) == Card.parse("4E")

    def test_does_not_take_the_trick_from_its_partner(self):
        # E, W's partner, wins with the ace of cups; W holds Monsieur but throws its lowest
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": "3O 9C 2E 4E 5E 6E 7E 8E 10E"}, "4O 1C 5B")
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("4E")
        assert "partner" in decision.reason

    def test_takes_the_trick_from_its_partner_when_that_raises_the_sides_best_count(self):
        # the rules sheet, "scoring": partners do not pool tricks, the one with the most scores for the side. W won
        # trick 1, N trick 2; in trick 3 E (W's partner) wins with a jack, and W, one trick ahead of E, takes it itself
        hands = {"N": COINS, "E": CUPS, "S": BATONS, "W": "3O 9C 2E 4E 5E 6E 7E 8E 12E"}
        deal = position(hands, "4O 4C 4B 12E  4E 12O 5C 5B  5O 10C 6B")
        assert deal.trick_counts == {Seat.N: 1, Seat.E: 0, Seat.S: 0, Seat.W: 1}
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("2E")
        assert "more tricks (1 to 0)" in decision.reason
        # the same trick with W no further ahead than E: W leaves it to E
        deal = position(hands, "12O 4C 4B 8E  5O 10C 6B")
        assert deal.trick_counts[Seat.W] == deal.trick_counts[Seat.E] == 0
        assert played_card(choose(HeuristicBot(), deal)) == Card.parse("4E")

    def test_does_not_spend_a_master_to_take_its_partners_trick(self):
        # decision: Monsieur wins W a trick whenever W plays it; spending it on E's trick would only cost E a trick
        hands = {"N": COINS, "E": CUPS, "S": BATONS, "W": "3O 4E 5E 6E 7E 8E 12E 10E 9E"}
        deal = position(hands, "4O 4C 4B 12E  4E 12O 5C 5B  5O 10C 6B")
        assert deal.trick_counts[Seat.W] == 1 and deal.trick_counts[Seat.E] == 0
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("5E") and "do not take" in decision.reason

    def test_beats_a_spoiled_trick_cheaply(self):
        # N and S tie with aces (spoiled so far): W wins the trick with the cheapest card above an ace
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": "3O 9C 2E 4E 5E 6E 7E 8E 10E"}, "1O 4C 1B")
        assert played_card(choose(HeuristicBot(), deal)) == Card.parse("2E")


class TestThirdPlayer:
    """pagat: the third player plays high enough to stop the fourth winning cheaply."""

    def test_plays_high_enough_rather_than_a_card_the_fourth_beats_cheaply(self):
        # N (S's partner) leads a 6, E plays a 4. S's 7 would beat the 6, but W holds nine of the 37 cards S has not
        # seen, and 10 of those beat or tie even S's ace: W holds one with a chance of 96%. Monsieur cannot lose.
        deal = position({"N": COINS, "E": CUPS, "S": "3O 7B 1B 4B 5B 6B 8B 11B 12B", "W": SWORDS}, "6O 4C")
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("3O")
        assert "high enough" in decision.reason

    def test_leaves_the_trick_to_a_partner_who_cannot_be_beaten(self):
        # N leads Monsieur: no card beats or ties it, so S plays low
        hands = {"N": "3O 4O 5O 6O 7O 8O 10O 11O 12O", "E": CUPS, "S": "1O 7B 1B 4B 5B 6B 8B 11B 12B",
                 "W": SWORDS}
        deal = position(hands, "3O 4C")
        assert played_card(choose(HeuristicBot(), deal)) == Card.parse("4B")

    def test_beats_an_opponent_as_cheaply_as_possible(self):
        # decision (measured): with an opponent winning, the third beats its card with the cheapest card that does
        deal = position({"N": COINS, "E": CUPS, "S": "3O 7B 1B 4B 5B 6B 8B 11B 12B", "W": SWORDS}, "4O 6C")
        assert played_card(choose(HeuristicBot(), deal)) == Card.parse("7B")

    def test_spoils_an_opponents_trick_it_cannot_beat(self):
        # pagat advises the spoil to the fourth player; the third's spoil is this bot's (its reason says so, and does
        # not credit pagat with it); E's ace can only be matched by S's ace
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": SWORDS}, "4O 1C")
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("1B")
        assert "spoil" in decision.reason and decision.reason.endswith(
            "(pagat.com advises it to the fourth player; this bot does it third too)")


class TestEarlyInTheTrick:
    """pagat: early in a trick play low."""

    def test_the_leader_leads_its_lowest(self):
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": SWORDS})
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("4O")
        assert "low" in decision.reason

    def test_lowest_among_equals_is_the_first_in_deck_order(self):
        # decision: ties between cards of one class are broken by deck order (coins, cups, batons, swords)
        hands = {"N": "4E 4C 1O 5O 6O 7O 8O 10O 11O", "E": "4O 12O 1C 5C 6C 7C 8C 10C 11C", "S": BATONS,
                 "W": "12C 1E 5E 6E 7E 8E 10E 11E 12E"}
        assert played_card(choose(HeuristicBot(), position(hands))) == Card.parse("4C")

    def test_the_second_player_plays_low_under_a_high_lead(self):
        # N leads an ace; E could win with Monsieur but plays low: its partner W plays last
        deal = position({"N": COINS, "E": "3O 4C 5C 6C 7C 8C 10C 11C 12C", "S": BATONS, "W": SWORDS}, "1O")
        decision = choose(HeuristicBot(), deal)
        assert played_card(decision) == Card.parse("4C")
        assert "partner plays last" in decision.reason

    def test_the_second_player_takes_a_low_lead_with_a_low_card(self):
        # decision (measured): a low card (a jack or lower) that beats the lead is still playing low
        deal = position({"N": COINS, "E": "3O 4C 5C 6C 7C 8C 10C 11C 12C", "S": BATONS, "W": SWORDS}, "4O")
        assert played_card(choose(HeuristicBot(), deal)) == Card.parse("5C")


def agree_all(deal: Deal) -> None:
    while deal.phase is Phase.CHANT:
        deal.answer_chant(deal.to_move, True)


class TestChantDiscardSurrender:
    CHANT = Options()

    def test_keeps_its_nine_highest(self):
        # the rules sheet: the recipients discard back down to nine cards, "keeping the highest"
        for seed in range(20):
            deal = Deal.from_seed(seed, dealer=SEATS[seed % 4])
            agree_all(deal)
            while deal.phase is Phase.DISCARD:
                seat = deal.to_move
                fifteen = deal.view(seat).hand
                decision = choose(HeuristicBot(), deal)
                assert isinstance(decision.move, Discard)
                discarded = set(decision.move.cards)
                kept = [c for c in fifteen if c not in discarded]
                assert len(discarded) == 6 and len(kept) == 9
                assert min(c.strength for c in kept) >= max(c.strength for c in discarded)
                assert set(decision.move.cards) == set(deal.suggested_discard(seat))
                deal.apply(decision.move)

    def test_a_recipient_with_a_weak_hand_agrees_and_with_a_strong_one_declines(self):
        # decision: recipients (N, the dealer's left, and W, the dealer) agree unless their hand is strong
        weak = {"N": COINS, "E": CUPS, "S": BATONS, "W": SWORDS}
        assert hand_strength(parse_cards(COINS)) < HeuristicBot.chant_weak
        deal = position(weak, options=self.CHANT)
        decision = choose(HeuristicBot(), deal)
        assert decision.move == ChantAnswer(Seat.N, True)
        strong = {"N": "3O 3C 2O 2C 9C 9O 1O 1C 12O", "E": "4O 4C 5C 6C 7C 8C 10C 11C 12C",
                  "S": BATONS, "W": "5O 6O 1E 4E 5E 6E 7E 8E 10E"}
        assert hand_strength(parse_cards(strong["N"])) >= HeuristicBot.chant_weak
        assert choose(HeuristicBot(), position(strong, options=self.CHANT)).move == ChantAnswer(Seat.N, False)

    def test_a_seat_that_receives_nothing_agrees(self):
        deal = position({"N": COINS, "E": "3O 3C 2O 2C 9C 9O 1C 12C 11C", "S": BATONS,
                         "W": "4C 5C 1E 4E 5E 6E 7E 8E 10E"}, options=self.CHANT)
        deal.answer_chant(Seat.N, True)
        assert choose(HeuristicBot(), deal).move == ChantAnswer(Seat.E, True)

    def test_recipients_under_the_dealers_partner_variant(self):
        # ChantRecipients.LEFT_AND_PARTNER: N (dealer's left) and E (dealer W's partner) receive; S does not
        options = Options(chant_recipients=ChantRecipients.LEFT_AND_PARTNER)
        strong = {"N": COINS, "E": CUPS, "S": "3O 3C 2O 2C 9C 9O 1B 12B 11B", "W": "4B 5B 1E 4E 5E 6E 7E 8E 10E"}
        deal = position(strong, options=options)
        deal.answer_chant(Seat.N, True)
        deal.answer_chant(Seat.E, True)
        assert choose(HeuristicBot(), deal).move == ChantAnswer(Seat.S, True)

    def test_surrender_offer_and_answer(self):
        # pagat: the dealer's left speaks first for its side; decision: offer only with a hopeless hand, accept
        # an offer unless holding the four top cards
        options = Options(chant=False, surrender=True)
        hopeless = "3E 3B 4O 4C 4B 4E 5O 5C 5B"
        assert hand_strength(parse_cards(hopeless)) < HeuristicBot.surrender_weak
        hands = {"N": hopeless, "E": "1O 1C 1B 1E 12O 12C 12B 12E 11O", "S": "6O 6C 6B 6E 7O 7C 7B 7E 8O",
                 "W": "3O 3C 2O 2C 9C 9O 2B 2E 11C"}
        deal = position(hands, options=options)
        offer = choose(HeuristicBot(), deal)
        assert offer.move == SurrenderOffer(Seat.N, True)
        deal.apply(offer.move)
        answer = choose(HeuristicBot(), deal)
        assert answer.move == SurrenderAnswer(Seat.W, False) and "mordienne" in answer.reason
        hands["W"], hands["E"] = hands["E"], hands["W"]
        deal = position(hands, options=options)
        deal.apply(choose(HeuristicBot(), deal).move)
        assert choose(HeuristicBot(), deal).move == SurrenderAnswer(Seat.W, True)

    def test_no_offer_with_a_playable_hand(self):
        options = Options(chant=False, surrender=True)
        deal = position({"N": COINS, "E": CUPS, "S": BATONS, "W": SWORDS}, options=options)
        assert choose(HeuristicBot(), deal).move == SurrenderOffer(Seat.N, False)


class TestSignals:
    """What the bot signals: only what its partner needs. The rules sheet ("signals"): signal the important cards and
    nothing unimportant; pagat.com: « Les débutants ont tendance à signaler beaucoup trop … si un membre d'un
    partenariat a une main forte, il ne sert à rien de signaler des cartes au partenaire le plus faible … il peut être
    utile pour le partenaire le plus faible de signaler une bonne carte pouvant compléter la participation du joueur
    le plus fort ». Made exact by decision heuristic-bot (aluette/players/bots.py)."""

    def test_a_weaker_hand_signals_its_cards_above_a_king(self):
        deal = position({"N": "3O 2C 1O 1C 4O 5O 6O 7O 8O", "E": "4C 5C 6C 7C 8C 10C 11C 12C 10O",
                         "S": BATONS, "W": "11O 12O 1E 4E 5E 6E 7E 8E 10E"})
        seat = Seat.N
        assert hand_strength(deal.hands[seat]) < HeuristicBot.signal_strong
        made = HeuristicBot(signals=True).signals(deal.view(seat), deal.legal_signals(seat))
        assert [d.move.key for d in made] == ["monsieur", "vache", "aces"]
        assert all(isinstance(d.move, Signal) and d.seat is seat and "pagat" in d.reason for d in made)
        assert HeuristicBot(signals=False).signals(deal.view(seat), deal.legal_signals(seat)) == []

    def test_a_strong_hand_signals_nothing(self):
        # pagat: a strong hand gains nothing by signalling to the weaker partner and would alert the opponents
        deal = position({"N": "3O 3C 2O 2C 9C 9O 1O 1C 12O", "E": "4C 5C 6C 7C 8C 10C 11C 12C 10O",
                         "S": BATONS, "W": "11O 4O 1E 4E 5E 6E 7E 8E 10E"})
        assert hand_strength(deal.hands[Seat.N]) >= HeuristicBot.signal_strong
        assert len(deal.legal_signals(Seat.N)) >= 7  # six named cards and the aces could be signalled
        assert HeuristicBot(signals=True).signals(deal.view(Seat.N), deal.legal_signals(Seat.N)) == []

    def test_nothing_below_an_ace_is_signalled(self):
        # a weaker hand with one ace and low cards: the ace, not the "going for mordienne" or anything else
        deal = position({"N": COINS, "E": CUPS, "S": "1B 5B 6B 7B 8B 10B 11B 12B 3B", "W": SWORDS})
        made = HeuristicBot(signals=True).signals(deal.view(Seat.S), deal.legal_signals(Seat.S))
        assert [d.move.key for d in made] == ["aces"]

    def test_signals_a_useless_hand(self):
        deal = position({"N": COINS, "E": CUPS, "S": "4B 5B 6B 7B 8B 10B 11B 12B 3B", "W": SWORDS})
        made = HeuristicBot(signals=True).signals(deal.view(Seat.S), deal.legal_signals(Seat.S))
        assert [d.move.key for d in made] == ["useless"]

    def test_reads_what_its_partner_still_holds(self):
        # decision: counted from the partner's signals (here a person's, who signals its aces too) and the cards it
        # played since
        deal = position({"N": "3O 2C 1O 1C 4O 5O 6O 7O 8O", "E": "4C 5C 6C 7C 8C 10C 11C 12C 10O",
                         "S": BATONS, "W": "11O 12O 1E 4E 5E 6E 7E 8E 10E"})
        bots = {s: HeuristicBot(signals=True) for s in SEATS}
        for key in ("monsieur", "vache", "aces"):
            deal.signal(Seat.N, key)
        deal.signal(Seat.W, "aces")
        reader = bots[Seat.S]
        assert reader.partner_high_cards(deal.view(Seat.S)) == 4  # Monsieur, la Vache and two aces
        assert bots[Seat.E].partner_high_cards(deal.view(Seat.E)) == 1  # W signalled its one ace
        deal.play(Seat.N, "3O")
        deal.play(Seat.E, "4C")
        deal.play(Seat.S, "4B")
        deal.play(Seat.W, "4E")
        deal.play(Seat.N, "1O")
        assert reader.partner_high_cards(deal.view(Seat.S)) == 2
        assert reader.partner_known(deal.view(Seat.S)) == ((Card.parse("2C"),), 1)
        decision = choose(bots[Seat.E], deal)  # E, second under N's ace, plays low and says what W holds
        assert decision.reason.endswith("by its signals my partner holds 1 ace")
        assert HeuristicBot(signals=False).partner_high_cards(deal.view(Seat.S)) is None

    def test_with_a_partner_holding_nothing_high_it_leads_high(self):
        # decision (measured): when its partner can win nothing later, the leader leads its highest card
        hands = {"N": "3O 4O 5O 6O 7O 8O 10O 11O 12O", "E": CUPS, "S": "4B 5B 6B 7B 8B 10B 11B 12B 3B",
                 "W": SWORDS}
        deal = position(hands)
        bots = {s: HeuristicBot(signals=True) for s in SEATS}
        made = signal_round(deal, bots)
        assert Signal(Seat.S, "useless") in [d.move for d in made]
        decision = choose(bots[Seat.N], deal)
        assert played_card(decision) == Card.parse("3O") and "partner" in decision.reason
        assert played_card(choose(HeuristicBot(), deal)) == Card.parse("4O")  # without signals: lead low

    def test_signals_reach_the_partner_only(self):
        made = 0
        for seed in range(30):
            deal = Deal.from_seed(seed, dealer=SEATS[seed % 4])
            decisions = play_deal(deal, {s: HeuristicBot(signals=True) for s in SEATS})
            signals = [d for d in decisions if isinstance(d.move, Signal)]
            made += len(signals)
            for signal in signals:  # the strongest hands keep quiet (pagat)
                assert hand_strength(deal.dealt_hand(signal.seat)) < HeuristicBot.signal_strong or deal.stock_received
            for seat in SEATS:
                assert all(r.seat.team is seat.team for r in deal.view(seat).signals)
            first_play = next(i for i, d in enumerate(decisions) if isinstance(d.move, Play))
            assert all(i < first_play for i, d in enumerate(decisions) if isinstance(d.move, Signal))
        assert made > 0


def rehide(deal: Deal, seat: Seat, rng: np.random.Generator) -> Deal:
    """The same deal, move for move, as far as ``seat`` can tell: the cards ``seat`` has not seen (the other hands'
    unplayed cards and the stock) are dealt again at random among the same places, keeping true what the partner's
    signals say (signalled named cards and aces stay with the partner; a partner that signalled aces gets no other
    ace, one that signalled a useless hand nothing above a king). The opponents' signals, which ``seat`` never sees,
    are left out of the replay. Chant off."""
    partner = seat.partner
    said = {r.key for r in deal.view(partner, events=False).signals if r.seat is partner}
    signalled = {k.card for k in SIGNALS if k.key in said and k.card is not None}
    held = {s: list(deal.hands[s]) for s in SEATS}
    fixed = [c for c in held[partner] if c in signalled or ("aces" in said and c.rank == 1)]

    def allowed(card: Card) -> bool:
        return not ("aces" in said and card.rank == 1) and not ("useless" in said and card.strength > 10)

    hidden = [c for s in SEATS if s is not seat for c in held[s] if c not in fixed] + list(deal.stock)
    hidden = [hidden[i] for i in rng.permutation(len(hidden))]
    slots = len(held[partner]) - len(fixed)
    mine = [c for c in hidden if allowed(c)][:slots]
    assert len(mine) == slots
    rest = [c for c in hidden if c not in mine]
    new = {seat: held[seat], partner: fixed + mine}
    for s in (seat.left, seat.right):
        new[s], rest = rest[:len(held[s])], rest[len(held[s]):]
    hands = {s: new[s] + [card for record in deal.tricks for p, card in record.plays if p is s]
             + [card for p, card in deal.current_trick if p is s] for s in SEATS}
    copy = Deal.from_hands(hands, dealer=deal.dealer, stock=rest, options=deal.options)
    for move in deal.moves:
        if not (isinstance(move, Signal) and move.seat.team is not seat.team):
            copy.apply(move)
    return copy


class TestHiddenCards:
    """A player's view never contains another player's hidden cards (project quality bar); the bots decide from it."""

    def test_a_bot_works_from_a_view_alone(self):
        deal = Deal.from_seed(8, options=NO_CHANT)
        view = deal.view(deal.to_move)
        assert view.visible_cards() == frozenset(view.hand)
        for bot in (HeuristicBot(), HeuristicBot(signals=True), RandomBot(1)):
            assert isinstance(bot.choose(view, deal.legal_moves()).move, Play)

    @settings(max_examples=60, deadline=None)
    @given(seed=st.integers(0, 10**6), moves=st.integers(0, 35), shuffle=st.integers(0, 10**6),
           signals=st.booleans())
    def test_the_decision_is_the_same_whatever_the_hidden_cards(self, seed, moves, shuffle, signals):
        deal = Deal.from_seed(seed, dealer=SEATS[seed % 4], options=NO_CHANT)
        bots = {s: HeuristicBot(signals=signals) for s in SEATS}
        signal_round(deal, bots)
        for _ in range(moves):
            play_turn(deal, bots[deal.to_move])
        seat = deal.to_move
        other = rehide(deal, seat, np.random.default_rng(shuffle))
        assert other.view(seat, events=False) == deal.view(seat, events=False)
        assert bots[seat].choose(other.view(seat), other.legal_moves()) == \
            bots[seat].choose(deal.view(seat), deal.legal_moves())

    def test_the_re_deal_really_moves_hidden_cards(self):
        deal = Deal.from_seed(21, options=NO_CHANT)
        seat = deal.to_move
        other = rehide(deal, seat, np.random.default_rng(0))
        assert other.hands[seat] == deal.hands[seat]
        assert [other.hands[s] for s in SEATS if s is not seat] != [deal.hands[s] for s in SEATS if s is not seat]


def invariants(deal: Deal, decisions: list) -> None:
    """What every finished deal played by bots satisfies."""
    assert deal.is_over and deal.result is not None
    assert [d.move for d in decisions] == list(deal.moves)
    for d in decisions:
        assert isinstance(d, Decision) and d.reason and "\n" not in d.reason
    points = deal.result.points
    assert min(points.values()) == 0 and max(points.values()) <= 2
    if deal.result.score is not None:
        assert len(deal.tricks) == 9
        assert sum(len(r.plays) for r in deal.tricks) == 36


class TestPlayDeal:
    @pytest.mark.parametrize("options", [Options(), NO_CHANT, Options(surrender=True),
                                         Options(chant_recipients=ChantRecipients.LEFT_AND_PARTNER),
                                         Options(mordienne=False)],
                             ids=["default", "no-chant", "surrender", "partner-recipient", "no-mordienne"])
    def test_many_seeds_run_to_completion(self, options):
        for seed in range(40):
            lineup = [HeuristicBot(signals=True), RandomBot(seed), HeuristicBot(), RandomBot(seed + 1)]
            bots = dict(zip(SEATS[seed % 4:] + SEATS[:seed % 4], lineup))
            deal = Deal.from_seed(seed, dealer=SEATS[(seed // 4) % 4], options=options)
            invariants(deal, play_deal(deal, bots))

    def test_heuristic_play_is_deterministic(self):
        # decision: the heuristic bot has no hidden chance; ties are broken by a documented order
        def moves():
            deal = Deal.from_seed(12)
            play_deal(deal, {s: HeuristicBot(signals=s in (Seat.N, Seat.S)) for s in SEATS})
            return deal.moves
        assert moves() == moves()

    def test_a_deal_already_under_way(self):
        deal = Deal.from_seed(13, options=NO_CHANT)
        for code in ("N", "E", "S"):
            play_turn(deal, HeuristicBot())
        decisions = play_deal(deal, {s: HeuristicBot() for s in SEATS})
        assert deal.is_over and len(decisions) == 33

    def test_a_missing_seat_is_an_error(self):
        with pytest.raises(AluetteError, match="missing: W"):
            play_deal(Deal.from_seed(1), {s: HeuristicBot() for s in "NES"})

    def test_something_that_is_not_a_bot_is_an_error(self):
        with pytest.raises(AluetteError, match="lacks choose"):
            play_deal(Deal.from_seed(1), {s: object() for s in SEATS})

    def test_an_illegal_move_leaves_the_deal_unchanged(self):
        class Cheat:
            def choose(self, view, legal_moves):
                return Decision(Play(view.seat.left, view.hand[0]), "play out of turn")

            def signals(self, view, legal_signals):
                return []

        deal = Deal.from_seed(2, options=NO_CHANT)
        before = deal.to_json()
        with pytest.raises(NotYourTurnError):
            play_deal(deal, {s: Cheat() for s in SEATS})
        assert deal.to_json() == before

    def test_a_signal_is_not_a_turn_move(self):
        class Signaller:
            def choose(self, view, legal_moves):
                return Decision(Signal(view.seat, "useless"), "not a turn move")

            def signals(self, view, legal_signals):
                return []

        deal = Deal.from_seed(2, options=NO_CHANT)
        with pytest.raises(AluetteError, match="turn move"):
            play_turn(deal, Signaller())
        assert deal.moves == ()

    def test_signals_must_be_the_bots_own(self):
        class Impostor:
            def choose(self, view, legal_moves):
                return HeuristicBot().choose(view)

            def signals(self, view, legal_signals):
                return [Decision(Signal(view.seat.partner, "aces"), "speaks for its partner")]

        with pytest.raises(AluetteError, match="its own Signal"):
            play_deal(Deal.from_seed(2, options=NO_CHANT), {s: Impostor() for s in SEATS})

    def test_play_turn_after_the_end_is_an_error(self):
        deal = Deal.from_seed(3, options=NO_CHANT)
        play_deal(deal, {s: HeuristicBot() for s in SEATS})
        with pytest.raises(AluetteError, match="over"):
            play_turn(deal, HeuristicBot())


class TestPlayMatch:
    def test_a_match_of_five_deals(self):
        # the rules sheet and pagat: a match is five deals, the deal passing to the left
        for seed in range(6):
            match = Match(seed)
            per_deal = play_match(match, {"N": HeuristicBot(), "S": HeuristicBot(), "E": RandomBot(seed),
                                          "W": RandomBot(seed + 100)})
            assert match.is_over and len(per_deal) == len(match.deals) == 5
            assert [d.dealer for d in match.deals] == [Seat.N, Seat.E, Seat.S, Seat.W, Seat.N]
            for deal, decisions in zip(match.deals, per_deal):
                invariants(deal, decisions)
            totals = {t: sum(d.result.points[t] for d in match.deals) for t in Team}
            assert match.scores == totals

    def test_a_match_to_a_target(self):
        match = Match(4, options=Options(target_points=3))
        play_match(match, {s: HeuristicBot(signals=True) for s in SEATS})
        assert match.is_over and max(match.scores.values()) >= 3

    def test_a_finished_match_plays_nothing(self):
        match = Match(5)
        bots = {s: HeuristicBot() for s in SEATS}
        play_match(match, bots)
        assert play_match(match, bots) == []


class TestWhatTheBotsAreGiven:
    """The engine additions the bots rely on (decision of this project, aluette/deal.py) and what play_turn hands a
    bot: its own view and the legal moves, nothing that reaches the deal."""

    def test_a_view_without_events_is_the_same_view_without_the_sentences(self):
        deal = Deal.from_seed(6)
        agree_all(deal)
        for seat in SEATS:
            full, lean = deal.view(seat), deal.view(seat, events=False)
            assert lean.events == () and full.events
            assert lean == dataclasses.replace(full, events=())

    def test_the_view_tells_the_surrender_offers(self):
        # pagat: the dealer's left speaks first; an offer is answered by the other side's speaker
        deal = Deal.from_seed(6, dealer="W", options=Options(chant=False, surrender=True))
        assert deal.view("E").surrender_spoken == () and deal.view("E").surrender_by is None
        deal.offer_surrender("N", True)
        for seat in SEATS:
            view = deal.view(seat)
            assert view.surrender_spoken == ((Seat.N, True),) and view.surrender_by is Team.NS
        deal.answer_surrender("W", False)
        assert deal.view("S").surrender_accepted is False

    @pytest.mark.parametrize("chant", [False, True])
    def test_the_legal_moves_handed_to_a_bot_are_the_engines(self, chant):
        seen = []

        class Recorder:
            def choose(self, view, legal_moves):
                assert list(legal_moves) == deal.legal_moves()
                assert not any(isinstance(v, Deal) for v in vars(legal_moves).values())
                seen.append(view.phase)
                return HeuristicBot().choose(view)

            def signals(self, view, legal_signals):
                return []

        for seed in range(3):
            deal = Deal.from_seed(seed, options=Options(chant=chant))
            if chant:
                agree_all(deal)
            play_deal(deal, {s: Recorder() for s in SEATS})
        assert (Phase.DISCARD in seen) == chant
