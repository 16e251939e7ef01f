"""Bots: players that choose a move from what their own seat may see, each choice with a one-line reason.

What a bot is given (its own seat's :class:`~aluette.records.View`) and what it returns (:class:`Decision` s) is the
protocol of :mod:`aluette.players.protocol`; :mod:`aluette.players.drivers` asks bots for their moves and applies them
(:func:`~aluette.players.drivers.play_deal`, :func:`~aluette.players.drivers.play_match`).

* :class:`RandomBot`: a uniformly random legal move from its own seeded numpy ``Generator``.
* :class:`HeuristicBot`: the play pagat.com's Aluette page advises (low early in a trick; the third player plays
  high enough to stop the fourth winning cheaply; the fourth beats that card as cheaply as possible, or spoils the
  trick by tying the third player's card, keeping the advantage of playing last), with this project's order where
  pagat offers a choice (the fourth beats when it can and spoils only when it cannot) and rules of this project's
  own where pagat is silent (when to take a trick from one's partner), the nine highest kept in the chant, and, as
  an option, the signals its partner needs, read back from the view.
* :func:`player_factory`: a named kind of bot, for :func:`aluette.simulation.simulate`.
"""

from __future__ import annotations

from math import comb
from typing import Optional, Sequence

from .protocol import Bot, Decision, own_seat
from ..card_names import card_name, class_name
from ..cards import DECK, NICKNAMED, TOP_FOUR, Card
from ..chance import SeedLike, as_generator
from ..errors import AluetteError, quoted
from ..i18n import N_, _, ngettext
from ..moves import ChantAnswer, Discard, MordienneAnnouncement, Move, Play, Signal, SurrenderAnswer, SurrenderOffer
from ..options import chant_recipients
from ..records import Phase, View
from ..seats import Seat
from ..signals import may_go_for_mordienne, signal_for
from ..tricks import best_of, strongest

__all__ = ["Decision", "Bot", "RandomBot", "HeuristicBot", "hand_strength", "PLAYER_KINDS", "player_factory"]


def _label(card: Card) -> str:
    """``"3O (Monsieur)"``, ``"12E (king of swords)"`` (the name in the page's language: « roi d'épée »)."""
    return f"{card.code} ({card.nickname or card_name(card)})"


class RandomBot:
    """Plays a uniformly random legal move: chant answers, discards, surrender offers and answers, and cards.

    Args:
        seed: a non-negative ``int``, a ``SeedSequence`` or a numpy ``Generator``; the bot draws from its own
            generator, so the same seed and the same positions give the same moves.

    Each decision draws exactly one ``rng.integers(len(legal_moves))`` and takes that index in the order given
    (the engine's :meth:`Deal.legal_moves` order). It makes no signals. Reason: ``"random"``.

    Raises:
        BadSeedError: no explicit seed (chance comes from an explicit seed, as everywhere in :mod:`aluette`).
    """

    def __init__(self, seed: SeedLike):
        self.rng = as_generator(seed)

    def __repr__(self) -> str:
        return "RandomBot(...)"

    def choose(self, view: View, legal_moves: Sequence[Move]) -> Decision:
        """A uniformly random move among ``legal_moves``.

        Raises:
            AluetteError: ``legal_moves`` is empty (the deal is over), or ``view`` is not a seat's view.
        """
        own_seat(view)
        if not legal_moves:
            raise AluetteError(f"{view.seat} has no legal move: the deal is {view.phase.value}")
        return Decision(legal_moves[int(self.rng.integers(len(legal_moves)))], "random")

    def signals(self, view: View, legal_signals: Sequence[str]) -> list[Decision]:
        """None: a random player does not signal."""
        return []


def hand_strength(cards) -> int:
    """The sum of the cards' strengths (19 for Monsieur ... 1 for a 3 of swords or batons): a rough measure of a
    hand, used by :class:`HeuristicBot` for the chant and surrender. The 48 strengths sum to 372, so nine random cards
    average 69.75; about a quarter of hands are below 61 and a quarter at 78 or above."""
    return sum(c.strength for c in cards)


def _lowest(cards) -> Card:
    """The lowest card; among equals (same class), the first in deck order: the documented tie-break."""
    return min(cards, key=lambda c: (c.strength, c.index))


def _unseen_at_least(view: View) -> tuple[list[int], int]:
    """``(at_least, unseen)``: ``at_least[s]`` counts the cards of strength ``s`` or more that this seat has not
    seen (not in its hand, not among its own discards, not played); ``unseen`` counts all of them. Another seat's
    hand is some of these cards (the unused stock and the other recipient's discards are too)."""
    seen = set(view.hand)
    seen.update(view.discards.get(view.seat, ()))
    for record in view.tricks:
        seen.update(record.cards)
    seen.update(c for _, c in view.trick)
    counts = [0] * 21
    for card in DECK:
        if card not in seen:
            counts[card.strength] += 1
    at_least = [0] * 21
    for strength in range(19, 0, -1):
        at_least[strength] = at_least[strength + 1] + counts[strength]
    return at_least, 48 - len(seen)


def risk_at_most(at_least: list[int], unseen: int, hand_size: int, strength: int, risk: tuple[int, int]) -> bool:
    """True when a player holding ``hand_size`` of the unseen cards, every such hand being equally likely, holds a
    card that beats or ties ``strength`` with a chance of at most ``risk`` (a fraction ``(num, den)``). Computed in
    integers (``comb``), so any implementation decides exactly alike."""
    drawn = min(hand_size, unseen)
    avoid, total = comb(unseen - at_least[strength], drawn), comb(unseen, drawn)
    num, den = risk
    # chance of holding one = 1 - avoid / total <= num / den
    return (den - num) * total <= den * avoid


def _best_words(winner: Optional[Seat], best_card: Card) -> str:
    """The best card of a trick, in a reason: ``"N's 1O (ace of coins)"``, or ``"the tied aces"`` when spoiled."""
    if winner:
        return _("{seat}'s {card}").format(seat=winner, card=_label(best_card))
    return _("the tied {rank}").format(rank=class_name(best_card))


def _spoil_or_throw(view: View, position: str, best_card: Card, winner: Optional[Seat], cannot: str,
                    last: bool) -> Decision:
    """Third (``last`` false) or fourth player who cannot beat the best card: spoil the trick by matching an
    opponent's winning class if possible (pagat.com advises the spoil to the fourth player; the order, and the
    third's spoil, are this project's: :class:`HeuristicBot`, and the third's reason says so), else throw the lowest
    card; ``cannot`` says why it throws."""
    seat = view.seat
    if winner is not None:
        same = [c for c in view.hand if c.strength == best_card.strength]
        if same:
            card = _lowest(same)
            said = (N_("{position}: I cannot beat {seat}'s {best}, so I spoil the trick by matching its class with "
                       "{card}: nobody wins it and the same player leads again (pagat.com)") if last else
                    N_("{position}: I cannot beat {seat}'s {best}, so I spoil the trick by matching its class with "
                       "{card}: nobody wins it and the same player leads again (pagat.com advises it to the fourth "
                       "player; this bot does it third too)"))
            return Decision(Play(seat, card), _(said).format(
                position=position, seat=winner, best=_label(best_card), card=_label(card)))
    card = _lowest(view.hand)
    return Decision(Play(seat, card), _("{position}: {cannot}; I throw my lowest, {card}").format(
        position=position, cannot=cannot, card=_label(card)))


class HeuristicBot:
    """Plays as pagat.com's Aluette page advises, deciding from its own view only; deterministic (no chance).

    Args:
        signals: make honest signals to the partner and read the partner's (default ``False``).
        name: an optional label for tables and replays.

    The rules, in the order they are tried (``strength`` is the card's ranking, 19 Monsieur ... 1; "lowest" and
    "cheapest" break ties between cards of one class by deck order, ``card.index``):

    Decision of this project (the sources are silent) [heuristic-bot]: the rules below make pagat.com's advice
    exact; the thresholds were chosen by measurement (see the end of this docstring).

    * Chant (the rules sheet, "setup"): a stock recipient agrees unless its hand is among the
      strongest quarter (:func:`hand_strength` at least :attr:`chant_weak`, the upper quartile): six more cards,
      keeping the nine highest, improve a weak or middling hand more than they improve the other side's recipient,
      an average hand; a strong hand gains less than that. A seat that receives nothing agrees, leaving the decision
      to its side's recipient (there is always one recipient on each side).
    * Discard: the six lowest, keeping the nine highest (the rules sheet: "keeping the highest"; as
      :meth:`Deal.suggested_discard`, from the view).
    * Surrender (pagat.com; option): offer when the hand is hopeless (strength below :attr:`surrender_weak`, about
      the weakest 5% of hands), risking 1 point to win 2 if the other side refuses and misses mordienne. Answer: accept
      (a sure point) unless holding Monsieur, Madame, le Borgne and la Vache, which win the last four tricks in a row.
      Asked again between tricks (``Options(surrender_until="last_trick")``), the same rules, the threshold scaled to
      the cards left: offer when the hand's strength is below ``surrender_weak * cards / 9``.
    * Rebour announcement (option): announce mordienne when the hand holds at least three of the eight named cards
      (the same test as the "going for mordienne" signal, :func:`~aluette.signals.may_go_for_mordienne`).
    * Lead: the lowest card, "early in a trick play low" (pagat.com). Signals: when the partner's signals show it
      holds nothing above a king any more (:meth:`partner_high_cards` is 0), lead the highest card instead: nobody
      on this side could win the trick later.
    * Second to play: the cheapest card that beats the lead if it is a low card (a jack or lower, strength up to
      :attr:`second_cheap`), else the lowest: play low, and the partner, last to play, beats or spoils (pagat.com).
      Signals: when the partner holds nothing above a king any more, the cheapest card that beats the lead,
      whatever it is.
    * Third to play, "high enough to stop the fourth winning cheaply" (pagat.com), the fourth holding any of the
      cards this seat has not seen: with the partner winning, play the lowest card if the fourth beats or ties the
      partner's card with a chance of at most :attr:`third_risk` (but see "taking a trick from the partner"), else
      the cheapest card that keeps that chance at most :attr:`third_risk`, else the lowest. Otherwise (an opponent
      winning, or the trick spoiled so far) beat the best card as cheaply as possible; else, with an opponent
      winning, spoil the trick by matching its class (this project's rule: pagat advises spoiling to the fourth
      player, see below); else play the lowest.
    * Fourth to play: with the partner winning, the lowest card (this project's rule, pagat is silent: do not take
      a trick from one's partner, but see below); else the cheapest card that beats the best card (pagat.com: « le
      quatrième joueur tentera de battre cette carte le plus économiquement possible »); else, with an opponent
      winning, spoil the trick by matching its class; else the lowest. pagat offers the spoil beside the cheap win,
      not after it: it is « souvent une bonne idée » for the fourth player to spoil the trick by tying the third
      player's card, « gardant ainsi l'avantage de jouer en dernier » (the spoiled trick's leader leads again, so
      this seat plays last again); it may also throw a low card and give the trick away, putting its partner last
      in the next one. pagat ranks none of the three. The order is this project's (part of ``heuristic-bot``):
      beat when it can (a trick won counts, a spoiled one is nobody's), spoil only when it cannot beat and an
      opponent holds the trick (the best card's class, whoever of the two opponents played it; pagat names the
      third player's card, the usual case since the third plays high), never throw a low card on purpose.
    * Taking a trick from the partner (third or fourth to play, the partner winning): only when this seat has won
      more tricks than its partner, with the cheapest card that would do (for the third, one that keeps the chance
      at most :attr:`third_risk`) and is not a master (a card no unseen card beats or ties: it wins this seat a
      trick later anyway, so spending it here would only take a trick from the partner). Partners do not pool
      their tricks: the seat with the most tricks scores for its side, ties going to whoever reached the count
      first (the rules sheet, "scoring"), so a trick added to the leading partner raises the side's best count, and one added
      to the other partner may not.

    Signals (with ``signals=True``): only what the partner needs, as both sources advise; see :meth:`signals`.

    The three thresholds were chosen by measurement, playing variants against each other from both sides of the
    same seeded deals (the method of ``tests/benchmarks/bench_bots.py``): a second player that beats the lead with
    any card, or a third that plays "safe" cards (chance 1/2) to beat an opponent, lose clearly to this bot; the
    values kept are at or near the best of those tried (``second_cheap`` 5-11, ``third_risk`` 1/3-999/1000,
    ``chant_weak`` 60-200).
    """

    #: second player: beat the lead with a card up to this strength (8, the jacks); higher cards are kept
    second_cheap = 8
    #: third player: "high enough" means the fourth beats or ties it with a chance of at most this fraction
    third_risk = (9, 10)
    #: the chant: a stock recipient agrees when its hand's strength is below this (the upper quartile of hands)
    chant_weak = 78
    #: surrender: offer with a hand weaker than this (about the weakest 5% of nine-card hands)
    surrender_weak = 50
    #: signals: a hand at least this strong (the strongest quarter, as for the chant) signals nothing (pagat.com)
    signal_strong = 78

    def __init__(self, *, signals: bool = False, name: Optional[str] = None):
        self.use_signals = bool(signals)
        self.name = name or repr(self)

    def __repr__(self) -> str:
        return f"HeuristicBot(signals={self.use_signals})"

    # ------------------------------------------------------------------ protocol
    def choose(self, view: View, legal_moves: Sequence[Move] = ()) -> Decision:
        """The move for ``view.seat`` and its one-line reason, by the rules of the class docstring. ``legal_moves``
        is accepted for the :class:`Bot` protocol and not needed: the bot works out its move from the view.

        Raises:
            AluetteError: ``view`` is not a seat's view, or it is not that seat's turn.
        """
        seat = own_seat(view)
        if view.to_move is not seat:
            raise AluetteError(f"it is {view.to_move}'s turn, not {seat}'s ({view.phase.value} phase)")
        phase = view.phase
        if phase is Phase.PLAY:
            return self._play(view)
        if phase is Phase.CHANT:
            return self._chant(view)
        if phase is Phase.DISCARD:
            return self._discard(view)
        if phase is Phase.ANNOUNCE:
            return self._announce(view)
        return self._surrender(view)

    def signals(self, view: View, legal_signals: Sequence[str]) -> list[Decision]:
        """With ``signals=True``, the signals its partner needs, from ``legal_signals`` (the keys the engine allows);
        without signals, none. Asked once per deal, when the hands are final (:func:`aluette.players.drivers.signals_due`).

        Both sources advise signalling little. The rules sheet ("signals"): signal the important cards, and nothing
        unimportant, discreetly. pagat.com (French translation): « Les débutants ont tendance à signaler beaucoup
        trop. Il est inutile de signaler une carte à moins que votre partenaire ait réellement besoin des
        informations. En particulier, si un membre d'un partenariat a une main forte, il ne sert à rien de signaler
        des cartes au partenaire le plus faible – vous risqueriez simplement d'alerter vos adversaires sur votre
        force. D'autre part, il peut être utile pour le partenaire le plus faible de signaler une bonne carte
        pouvant compléter la participation du joueur le plus fort. » Made exact (``heuristic-bot``, see the class
        docstring):

        * a strong hand (:func:`hand_strength` at least :attr:`signal_strong`, the strongest quarter of hands, as
          for the chant) signals nothing: it will win its tricks itself, and a signal would only tell the opponents;
        * a weaker hand signals its cards above a king, the good cards that can complete its stronger partner's
          play: its named cards and its aces (how many), so that its partner knows exactly what help it has
          (:meth:`partner_high_cards`); nothing lower;
        * a hand with nothing above a king signals "a useless hand" (the rules sheet's shrug), so that its partner
          knows it must win the side's tricks alone.
        """
        if not self.use_signals:
            return []
        seat = own_seat(view)
        strength = hand_strength(view.hand)
        if strength >= self.signal_strong:
            return []
        made = []
        for key in legal_signals:
            kind = signal_for(key)
            if kind.card is not None:
                made.append(Decision(Signal(seat, key), _(
                    "tell my partner I hold {card}: my hand is the weaker (strength {strength} < {limit}), and this "
                    "card can complete theirs (pagat.com)").format(card=_label(kind.card), strength=strength,
                                                                   limit=self.signal_strong)))
            elif key == "aces":
                aces = sum(1 for c in view.hand if c.rank == 1)
                made.append(Decision(Signal(seat, key), ngettext(
                    "tell my partner I hold {count} ace: my hand is the weaker (strength {strength} < {limit}), and "
                    "my aces can complete theirs (pagat.com)",
                    "tell my partner I hold {count} aces: my hand is the weaker (strength {strength} < {limit}), and "
                    "my aces can complete theirs (pagat.com)", aces).format(count=aces, strength=strength,
                                                                            limit=self.signal_strong)))
            elif key == "useless" and all(c.strength <= 10 for c in view.hand):
                made.append(Decision(Signal(seat, key), _("tell my partner my hand is useless: nothing above a "
                                                          "king, so they must win our tricks alone")))
        return made

    def partner_known(self, view: View) -> Optional[tuple[tuple[Card, ...], int]]:
        """What the partner's signals in ``view`` say it still holds: ``(named cards, number of aces)``, minus what it
        has played since signalling; ``None`` when this bot does not read signals or the partner has made none."""
        if not self.use_signals:
            return None
        partner = view.seat.partner
        records = [r for r in view.signals if r.seat is partner]
        if not records:
            return None
        played = [(number, c) for number, record in enumerate(view.tricks) for s, c in record.plays if s is partner]
        played += [(len(view.tricks), c) for s, c in view.trick if s is partner]
        gone = {c for _, c in played}
        named, aces = [], 0
        for record in records:
            card = signal_for(record.key).card
            if card is not None and card not in gone:
                named.append(card)
            elif record.key == "aces":
                aces += max(0, record.count - sum(1 for n, c in played if n >= record.trick and c.rank == 1))
        return tuple(named), aces

    def partner_high_cards(self, view: View) -> Optional[int]:
        """How many cards above a king (named cards and aces) the partner still holds by its signals (see
        :meth:`partner_known`); ``None`` when unknown (no signal). Exact for a partner that signals as this bot does
        (a weaker hand signals every card above a king, a useless hand its shrug; a strong hand signals nothing)."""
        known = self.partner_known(view)
        return None if known is None else len(known[0]) + known[1]

    def _partner_note(self, view: View) -> str:
        """``"; by its signals my partner holds Monsieur and 1 ace"`` or ``""``, for reasons."""
        known = self.partner_known(view)
        if not known or not (known[0] or known[1]):
            return ""
        named, aces = known
        items = [c.nickname for c in named] + ([ngettext("{count} ace", "{count} aces", aces).format(count=aces)]
                                               if aces else [])
        listed = items[0] if len(items) == 1 else ", ".join(items[:-1]) + _(" and ") + items[-1]
        return _("; by its signals my partner holds {cards}").format(cards=listed)

    # ------------------------------------------------------------------ before play
    def _chant(self, view: View) -> Decision:
        seat = view.seat
        if seat not in chant_recipients(view.dealer, view.options):
            return Decision(ChantAnswer(seat, True), _("agree: I receive no stock cards; my side's recipient "
                                                       "decides"))
        strength = hand_strength(view.hand)
        if strength < self.chant_weak:
            return Decision(ChantAnswer(seat, True), _(
                "agree: I receive six stock cards and my hand is weak (strength {strength} < {limit}), so it gains "
                "more than the other side's").format(strength=strength, limit=self.chant_weak))
        return Decision(ChantAnswer(seat, False), _(
            "decline: my hand is not weak (strength {strength} >= {limit}), so the other side's recipient would gain "
            "more than I would").format(strength=strength, limit=self.chant_weak))

    def _discard(self, view: View) -> Decision:
        cards = tuple(view.hand[9:])
        return Decision(Discard(view.seat, cards), _("keep my nine highest: discard {cards} (the rules sheet: keep "
                                                     "the highest)").format(cards=" ".join(map(str, cards))))

    def _surrender(self, view: View) -> Decision:
        seat = view.seat
        if view.surrender_by is not None:
            if set(TOP_FOUR) <= set(view.hand):
                return Decision(SurrenderAnswer(seat, False), _("refuse: I hold Monsieur, Madame, le Borgne and la "
                                                                "Vache, enough to win the last four tricks for "
                                                                "mordienne"))
            return Decision(SurrenderAnswer(seat, True), _("accept: a sure point; refusing bets on making "
                                                           "mordienne"))
        strength, cards = hand_strength(view.hand), len(view.hand)
        weak = self.surrender_weak if cards == 9 else f"{self.surrender_weak} x {cards}/9"
        if strength * 9 < self.surrender_weak * cards:  # between tricks: the threshold scaled to the cards left
            return Decision(SurrenderOffer(seat, True), _(
                "offer to surrender: my hand is hopeless (strength {strength} < {limit}); refused, we score 2 unless "
                "they make mordienne").format(strength=strength, limit=weak))
        return Decision(SurrenderOffer(seat, False), _("play on: my hand (strength {strength}) is not "
                                                       "hopeless").format(strength=strength))

    def _announce(self, view: View) -> Decision:
        named = sum(1 for card in view.hand if card in NICKNAMED)
        if may_go_for_mordienne(view.hand):
            return Decision(MordienneAnnouncement(view.seat, True), _(
                "announce mordienne: I hold {count} of the eight named cards, enough to hope for the last tricks in a "
                "row").format(count=named))
        return Decision(MordienneAnnouncement(view.seat, False), _(
            "no announcement: I hold {count} of the eight named cards, too few to hope for mordienne").format(
            count=named))

    # ------------------------------------------------------------------ play
    def _play(self, view: View) -> Decision:
        seat, hand = view.seat, view.hand
        if len(hand) == 1:
            return Decision(Play(seat, hand[0]), _("{card} is my last card").format(card=_label(hand[0])))
        trick = view.trick
        if not trick:
            return self._lead(view)
        winner = best_of(trick)  # None: the trick is spoiled so far
        best_card = strongest(trick)[0][1]  # the winning card, or the first of the tied class
        best = best_card.strength
        beaters = [c for c in hand if c.strength > best]
        if len(trick) == 1:
            return self._second(view, best_card, beaters)
        if len(trick) == 2:
            return self._third(view, best_card, winner, beaters)
        return self._fourth(view, best_card, winner, beaters)

    def _lead(self, view: View) -> Decision:
        seat = view.seat
        if self.partner_high_cards(view) == 0:
            card = view.hand[0]
            return Decision(Play(seat, card), _(
                "lead my highest, {card}: by its signals my partner holds nothing above a king, so nobody on my side "
                "could win this trick later").format(card=_label(card)))
        card = _lowest(view.hand)
        return Decision(Play(seat, card), _("lead low with {card}: early in a trick play low (pagat.com)").format(
            card=_label(card)) + self._partner_note(view))

    def _second(self, view: View, best_card: Card, beaters: list) -> Decision:
        seat = view.seat
        if beaters and self.partner_high_cards(view) == 0:
            card = _lowest(beaters)
            return Decision(Play(seat, card), _(
                "2nd: by its signals my partner holds nothing above a king, so I beat {best} myself, as cheaply as I "
                "can, with {card}").format(best=_label(best_card), card=_label(card)))
        if beaters and _lowest(beaters).strength <= self.second_cheap:
            card = _lowest(beaters)
            return Decision(Play(seat, card), _("2nd: a low card, {card}, beats {best}: I play it").format(
                card=_label(card), best=_label(best_card)))
        card = _lowest(view.hand)
        return Decision(Play(seat, card), _("2nd: play low, {card}; my partner plays last and can beat or spoil "
                                            "(pagat.com)").format(card=_label(card)) + self._partner_note(view))

    def _third(self, view: View, best_card: Card, winner: Optional[Seat], beaters: list) -> Decision:
        seat = view.seat
        fourth = seat.left
        at_least, unseen = _unseen_at_least(view)
        size = view.hand_sizes[fourth]

        def holds(card: Card) -> bool:
            return risk_at_most(at_least, unseen, size, card.strength, self.third_risk)

        if winner is seat.partner:
            if holds(best_card):
                counts = view.trick_counts
                high_enough = [c for c in beaters if holds(c) and at_least[c.strength]]
                if high_enough and counts[seat] > counts[seat.partner]:
                    card = _lowest(high_enough)
                    return Decision(Play(seat, card), _(
                        "3rd: I take the trick from my partner with {card}: I have more tricks ({mine} to {theirs}), "
                        "so in my hands it raises our side's best count").format(
                        card=_label(card), mine=counts[seat], theirs=counts[seat.partner]))
                card = _lowest(view.hand)
                return Decision(Play(seat, card), _(
                    "3rd: my partner's {best} stands a fair chance against {seat}, so I play low, {card}, and leave "
                    "them the trick").format(best=_label(best_card), seat=fourth, card=_label(card)))
            high_enough = [c for c in beaters if holds(c)]
            if high_enough:
                card = _lowest(high_enough)
                return Decision(Play(seat, card), _(
                    "3rd: my partner's {best} is too low; {card} is high enough to stop {seat} winning cheaply "
                    "(pagat.com)").format(best=_label(best_card), card=_label(card), seat=fourth))
            card = _lowest(view.hand)
            return Decision(Play(seat, card), _("3rd: none of my cards would stop {seat}; I throw my lowest, "
                                                "{card}").format(seat=fourth, card=_label(card)))
        what = _best_words(winner, best_card)
        if beaters:
            card = _lowest(beaters)
            return Decision(Play(seat, card), _("3rd: beat {what} as cheaply as I can, with {card}").format(
                what=what, card=_label(card)))
        return _spoil_or_throw(view, _("3rd"), best_card, winner, _("I cannot beat {what}").format(what=what),
                               last=False)

    def _fourth(self, view: View, best_card: Card, winner: Optional[Seat], beaters: list) -> Decision:
        seat = view.seat
        if winner is seat.partner:
            counts = view.trick_counts
            if beaters and counts[seat] > counts[seat.partner]:
                at_least = _unseen_at_least(view)[0]
                spare = [c for c in beaters if at_least[c.strength]]  # masters win me a trick later anyway
            if beaters and counts[seat] > counts[seat.partner] and spare:
                card = _lowest(spare)
                return Decision(Play(seat, card), _(
                    "4th: I take the trick from my partner with {card}: I have more tricks ({mine} to {theirs}), so "
                    "in my hands it raises our side's best count").format(
                    card=_label(card), mine=counts[seat], theirs=counts[seat.partner]))
            card = _lowest(view.hand)
            return Decision(Play(seat, card), _(
                "4th: my partner wins with {best}; I do not take the trick from them and throw my lowest, "
                "{card}").format(best=_label(best_card), card=_label(card)))
        if beaters:
            card = _lowest(beaters)
            return Decision(Play(seat, card), _("4th: {card} is the cheapest card that beats {what} "
                                                "(pagat.com)").format(card=_label(card),
                                                                      what=_best_words(winner, best_card)))
        return _spoil_or_throw(view, _("4th"), best_card, winner, _("I cannot win this trick"), last=True)


class _Factory:
    """A picklable ``factory(seat, rng) -> bot`` for :func:`aluette.simulation.simulate` (process pools need it)."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, seat: Seat, rng) -> Bot:
        if self.name == "heuristic":
            return HeuristicBot(name=f"heuristic {seat}")
        if self.name == "signalling":
            return HeuristicBot(signals=True, name=f"signalling {seat}")
        return RandomBot(rng)

    def __repr__(self) -> str:
        return f"player_factory({self.name!r})"


#: Player kinds :func:`player_factory` knows.
PLAYER_KINDS = ("heuristic", "signalling", "random-bot")


def player_factory(name: str) -> _Factory:
    """A factory ``factory(seat, rng) -> bot`` for a named kind of player, used by
    :func:`aluette.simulation.simulate` (``players="heuristic"`` or ``{seat: name}``):

    * ``"heuristic"``: :class:`HeuristicBot` without signals;
    * ``"signalling"``: :class:`HeuristicBot` with signals;
    * ``"random-bot"``: :class:`RandomBot` drawing from the seat's generator (the simulation's own ``"random"``
      players are faster and follow its chance contract; this one plays the bot protocol).

    Raises:
        AluetteError: an unknown name (the message lists the known ones).
    """
    if name not in PLAYER_KINDS:
        raise AluetteError(f"unknown players {quoted(name)}; known: 'random', {', '.join(map(repr, PLAYER_KINDS))}")
    return _Factory(name)
