"""One deal of Aluette as a state machine.

A :class:`Deal` starts from a seed, a given deck order or given hands; you ask whose turn it is
(:attr:`Deal.to_move`) and what they may do (:meth:`Deal.legal_moves`), apply moves, read each seat's
:meth:`Deal.view` or the omniscient one, the history (:attr:`Deal.moves`, :attr:`Deal.events`) and the
:attr:`Deal.result`. A move the rules refuse raises an :class:`~aluette.errors.IllegalMoveError` subclass and leaves
the deal exactly as it was (every check runs before anything changes).

Rules implemented here, with their sources; where the sources are silent the decision is marked and named (see
:mod:`aluette.decisions`):

* Deal: see :mod:`aluette.chance` (dealer shuffles, dealer's right cuts, 3-3-3 from the dealer's left; 12 stock).
* The chant (the rules sheet, "setup": "all players may agree to the chant"; pagat.com), when :attr:`Options.chant` is
  on: the chant happens only if all four agree. If all agree, the stock goes one card at a time alternately to the
  player at the dealer's left and to the dealer (or the dealer's partner, :func:`~aluette.options.chant_recipients`),
  six each, starting with the dealer's left; each discards six face down, keeping nine. If anyone declines, the stock
  stays unused and unseen.
* Decision of this project (the sources are silent) [chant-from-dealer-left]: the players are asked in turn,
  clockwise, starting at the dealer's left.
* Decision of this project (the sources are silent) [chant-stops-at-first-refusal]: asking stops at the first
  refusal, since the answer is then settled.
* Decision of this project (the sources are silent) [dealer-left-discards-first]: the dealer's left discards first,
  then the other recipient.
* Surrender (pagat.com; :attr:`Options.surrender`): a partnership may offer to surrender. Accepted: the accepting
  side scores 1 and the deal is not played. Refused: the refusing side must make mordienne: it scores 2 if one of its
  players wins the deal with mordienne, otherwise (it fails) the offering side scores 2 (scored by
  :func:`aluette.scoring.score_deal`, with the decision ``surrender-refused-all-spoiled``).
* Decision of this project (the sources are silent) [surrender-before-first-trick]: by default the offer is made only
  before the first trick, after the chant and the discards (pagat gives no time).
* Decision of this project (the sources are silent) [surrender-speaking-order]: the dealer's left speaks first for
  their partnership (offer or not), then the dealer for theirs: one question each, so both sides may offer. An offer
  is answered at once by the other side's speaker (the dealer answers the dealer's left, and the dealer's left
  answers the dealer); once an offer is answered nobody else is asked, so at most one offer is put per deal.
* Decision of this project (the sources are silent) [surrender-between-tricks]: with
  ``Options(surrender_until="last_trick")`` (:class:`~aluette.options.SurrenderUntil`) the question is put again
  between tricks, before each trick up to the ninth, never within a trick, as long as nobody has offered: the leader
  of the next trick speaks first for their side, then the player at the leader's right (the last to play to it) for
  theirs, and an offer is answered at once by the other side's speaker, as before the first trick (where the leader
  is the dealer's left and the leader's right the dealer). Accepted, the rest of the deal is not played; refused,
  play goes on with the same leader, and the refusing side must make mordienne over the whole deal (the tricks
  already played count). The simulations do not play it (:meth:`Options.check_simulable`).
* Play (the rules sheet, "gameplay"): the player at the dealer's left leads the first trick; each plays one card in
  turn, clockwise; any card may be played; the highest class wins and its player leads next; the highest class played
  twice or more spoils the trick: nobody wins it and its leader leads again (:func:`aluette.tricks.best_of`). The
  the rules sheet: "the trick won is stacked face down in front of them".
* Guy Rebour's account, as pagat.com reports it and doubts it (:class:`~aluette.options.Rebour`): mordienne may be
  announced before the first trick; the announcements are public. In the first form an announcement extends the
  match (:attr:`aluette.match.Match.extended`); in the second a mordienne scores 2 only when its maker announced it.
* Decision of this project (the sources are silent) [rebour-announce-order]: every player may announce; each is
  asked once, clockwise from the dealer's left, after the chant and the discards, before the first trick.
* Decision of this project (the sources are silent) [tricks-visible]: every completed trick stays visible in every
  seat's :class:`View` (at a real table it is stacked face down), so a reader can follow a deal.
* Scoring: :func:`aluette.scoring.score_deal` (the tricks, mordienne and surrender).
* Signals (the rules sheet's signal table; see :mod:`aluette.signals`): a seat may signal at any time before the deal ends.
* Decision of this project (the sources are silent) [signals-partner-only]: only the signaller's partner sees a
  signal. A simplification: at a real table signals are gestures the opponents may catch, which is why the sources
  tell partners to be discreet.
* Which signals a seat may make (decisions ``signals-honest`` and ``signals-once-per-deal``):
  :func:`aluette.signals.signal_problem`.
"""

from __future__ import annotations

import itertools
import json
import operator
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from .card_names import phase_name
from .cards import DECK, Card, CardLike, hand_place, parse_cards
from .chance import (SeedLike, as_generator, cut_deck, deal_from_deck, deal_unchecked, deck_from_hands, seed_number,
                     shuffled_deck, stock_steps)
from .errors import (AluetteError, BadDiscardError, BadSignalError, CardNotInHandError, DealOverError, IllegalMoveError,
                     NotYourTurnError, WrongPhaseError, quoted)
from .i18n import N_, _
from .moves import (ChantAnswer, Discard, MordienneAnnouncement, Move, Play, Signal, SurrenderAnswer, SurrenderOffer,
                    move_from_json, move_kind, move_sentence)
from .narration import deal_events
from .options import Options, Rebour, SurrenderUntil, chant_recipients
from .records import DealResult, Hand, Phase, SignalRecord, TrickRecord, View
from .savefile import DEAL_FORMAT as SAVE_FORMAT
from .savefile import deal_from_dict, deal_to_dict, load_json
from .scoring import outcomes_notation, score_deal
from .seats import SEATS, Seat, Team, may_see
from .signals import honest_signals, seen_by, signal_count, signal_problem
from .tricks import best_of

__all__ = ["Deal", "Phase", "Hand", "TrickRecord", "DealResult", "SignalRecord", "View", "SAVE_FORMAT"]

# Hot-path constants: reading an enum member or a property costs more than a module global.
_PLAY = Phase.PLAY
_NEXT_SEAT = {seat: seat.left for seat in SEATS}


def _is_card_tuple(cards: Any) -> bool:
    """True for a tuple holding only :class:`Card` objects (already parsed: no need to parse again)."""
    return cards.__class__ is tuple and all(c.__class__ is Card for c in cards)


#: One shared :class:`Play` per seat and card (moves are immutable values), so a play creates no new object:
#: ``_PLAYS[seat][card.index]``.
_DECK_SET = frozenset(DECK)
_PLAYS: dict[Seat, tuple[Play, ...]] = {seat: tuple(Play(seat, card) for card in DECK) for seat in SEATS}


class Deal:
    """One deal: chant, optional surrender, nine tricks, score. See the module docstring for the rules.

    Build it with :meth:`from_seed`, :meth:`from_deck` or :meth:`from_hands`, or load it with :meth:`from_json`.

    Attributes (read-only properties): ``options``, ``dealer``, ``phase``, ``to_move``, ``leader``, ``moves``,
    ``tricks``, ``result``, ``seed`` and ``cut`` (when known), ``deck`` (the cut deck the hands were dealt from), and
    the omniscient ``hands``, ``trick_counts`` and ``events``: the same kinds of thing, under the same names, as on
    :class:`View` (``deal.hands == deal.view(None).hands``). ``str(deal)`` is a plain-text picture of the deal;
    :meth:`is_legal` asks whether a move would be accepted, without changing anything.
    """

    def __init__(self, deck: Sequence[CardLike], *, dealer: Union[Seat, str] = Seat.N,
                 options: Optional[Options] = None):
        """Deal from a cut deck (top card first). Prefer the ``from_*`` constructors.

        Raises:
            UnknownCardError / UnknownSeatError: a card or the dealer is not one.
            AluetteError: the deck is not the 48 distinct cards; ``options`` is not an :class:`Options`.
        """
        options, dealer = Options.coerce(options), Seat.parse(dealer)
        deck = deck if _is_card_tuple(deck) else parse_cards(deck)
        deal_from_deck(deck, dealer)  # raises unless the deck is the 48 cards
        self._setup(deck, dealer, options, None, None)  # seed and cut are recorded only by from_seed

    def _setup(self, deck: tuple[Card, ...], dealer: Seat, options: Options, seed: Optional[int],
               cut: Optional[int]) -> None:
        # the state at the start of a deal, from a checked deck
        self._options = options
        self._dealer = dealer
        self._deck = deck
        self._seed = seed
        self._cut = cut
        dealt, self._stock = deal_unchecked(deck, dealer)
        # each hand is a list kept sorted high to low, so legal_cards() never sorts
        self._hands: dict[Seat, list[Card]] = {seat: sorted(cards, key=hand_place) for seat, cards in dealt.items()}
        self._dealt = dealt  # the nine cards each seat was dealt, in the order received (see dealt_hand)
        self._moves: list[Move] = []
        self._chant_answers: list[tuple[Seat, bool]] = []
        self._received: dict[Seat, tuple[Card, ...]] = {}
        self._discards: dict[Seat, tuple[Card, ...]] = {}
        self._pending_discards: list[Seat] = []
        self._surrender_spoken: list[tuple[Seat, bool]] = []
        self._surrender_by: Optional[Team] = None
        self._surrender_accepted: Optional[bool] = None
        self._surrender_after = 0  # tricks played when the offer was made
        # surrender_until="last_trick": the surrender question is put again between tricks (surrender-between-tricks)
        self._ask_between = options.surrender and options.surrender_until is SurrenderUntil.LAST_TRICK
        self._announcements: list[tuple[Seat, bool]] = []
        self._signals: list[SignalRecord] = []
        self._tricks: list[TrickRecord] = []
        self._trick: list[tuple[Seat, Card]] = []
        self._leader = self._dealer.left
        self._result: Optional[DealResult] = None
        if options.chant:
            self._phase, self._to_move = Phase.CHANT, self._dealer.left
        else:
            self._begin_surrender_or_play()

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_seed(cls, seed: SeedLike, *, dealer: Union[Seat, str] = Seat.N,
                  options: Optional[Options] = None) -> "Deal":
        """Shuffle, cut and deal from a seed (an ``int``, reproducible on every machine) or a numpy ``Generator``
        (the deal draws one shuffle from it; see :mod:`aluette.chance`).

        Raises:
            BadSeedError: no explicit seed, or not a seed (see :func:`aluette.chance.check_seed`).
        """
        order, cut = shuffled_deck(as_generator(seed))
        int_seed = seed_number(seed)
        return cls.from_shuffle(order, cut, dealer=dealer, options=options, seed=int_seed)

    @classmethod
    def from_shuffle(cls, order: Sequence[Card], cut: int, *, dealer: Union[Seat, str] = Seat.N,
                     options: Optional[Options] = None, seed: Optional[int] = None) -> "Deal":
        """Deal a shuffle as :mod:`aluette.chance` draws it: ``order`` a permutation of ``DECK`` (top first, before
        the cut) and the ``cut``; ``seed`` the seed it was drawn from, if any, to record. :meth:`from_seed` deals
        through here, and so does the simulation's step engine, which draws a block of shuffles at once.

        Raises:
            AluetteError: ``order`` is not a permutation of the 48 cards of ``DECK`` (checked in one linear pass),
                or ``cut`` is outside 0-47.
        """
        order = tuple(order)
        if len(order) != len(DECK) or not all(isinstance(card, Card) for card in order) or set(order) != _DECK_SET:
            raise AluetteError(_("a shuffle is the 48 cards of the deck, each once; got {count} items").format(
                count=len(order)))
        deal = cls.__new__(cls)  # a permutation of DECK needs none of __init__'s checks on the cards
        deal._setup(cut_deck(order, cut), Seat.parse(dealer), Options.coerce(options), seed, cut)
        return deal

    @classmethod
    def from_deck(cls, deck: Union[str, Sequence[CardLike]], *, dealer: Union[Seat, str] = Seat.N,
                  options: Optional[Options] = None) -> "Deal":
        """Deal a given cut deck (48 card codes, top first, as a string or a sequence)."""
        return cls(parse_cards(deck), dealer=dealer, options=options)

    @classmethod
    def from_hands(cls, hands: Mapping, *, dealer: Union[Seat, str] = Seat.N,
                   stock: Union[str, Sequence[CardLike], None] = None,
                   options: Optional[Options] = None) -> "Deal":
        """A deal with given hands: ``{"N": "3O 2C ...", "E": [...], ...}`` (nine cards each), and optionally the
        twelve stock cards in chant order (default: the rest in deck order). The player at the dealer's left leads.

        Raises:
            AluetteError: see :func:`aluette.chance.deck_from_hands`.
        """
        dealer = Seat.parse(dealer)
        return cls(deck_from_hands(hands, dealer, stock), dealer=dealer, options=options)

    # ----------------------------------------------------------------- read-only state
    @property
    def options(self) -> Options:
        return self._options

    @property
    def dealer(self) -> Seat:
        return self._dealer

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_move(self) -> Optional[Seat]:
        """The seat whose turn it is, or ``None`` when the deal is over."""
        return self._to_move

    @property
    def leader(self) -> Optional[Seat]:
        """The seat that leads (or led) the current trick; ``None`` once the deal is over."""
        return self._leader if self._phase is not Phase.OVER else None

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move applied, in order (signals included): with the deck, enough to replay the deal."""
        return tuple(self._moves)

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        """The completed tricks."""
        return tuple(self._tricks)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The cards played so far to the trick in progress."""
        return tuple(self._trick)

    @property
    def result(self) -> Optional[DealResult]:
        """The :class:`DealResult` once the deal is over, else ``None``."""
        return self._result

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cut deck the hands were dealt from, top first."""
        return self._deck

    @property
    def seed(self) -> Optional[int]:
        return self._seed

    @property
    def cut(self) -> Optional[int]:
        return self._cut

    @property
    def chant_agreed(self) -> Optional[bool]:
        """``True`` once all four agreed to the chant, ``False`` once one declined, ``None`` while undecided or when
        :attr:`Options.chant` is off."""
        return self._chant_agreed()

    @property
    def outcomes(self) -> tuple[Optional[Seat], ...]:
        """Winners of the completed tricks (``None`` = spoiled)."""
        return tuple(t.winner for t in self._tricks)

    @property
    def notation(self) -> str:
        """Completed tricks in pagat notation (``"SENWSEXNW"``)."""
        return outcomes_notation(self.outcomes)

    @property
    def trick_counts(self) -> Mapping[Seat, int]:
        """Tricks won so far per seat (read-only), as :attr:`View.trick_counts`."""
        counts = {s: 0 for s in SEATS}
        for t in self._tricks:
            if t.winner is not None:
                counts[t.winner] += 1
        return MappingProxyType(counts)

    @property
    def hands(self) -> Mapping[Seat, Hand]:
        """``{seat: Hand}``: the cards each seat holds now (read-only; an omniscient look, as ``view(None).hands``;
        a player's own hand is ``view(seat).hand``)."""
        return MappingProxyType({s: Hand._of_sorted(self._hands[s]) for s in SEATS})

    def _hand(self, seat: Seat) -> Hand:
        return Hand._of_sorted(self._hands[seat])

    def dealt_hand(self, seat: Union[Seat, str]) -> Hand:
        """The nine cards ``seat`` was dealt, before any chant."""
        return Hand(self._dealt[Seat.parse(seat)])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The twelve stock cards in chant order (an omniscient look)."""
        return self._stock

    @property
    def stock_received(self) -> Mapping[Seat, tuple[Card, ...]]:
        """``{seat: cards}``: the stock cards each recipient received in the chant (an omniscient look, as
        ``view(None).stock_received``); empty when there was no chant."""
        return MappingProxyType(dict(self._received))

    @property
    def signals(self) -> tuple[SignalRecord, ...]:
        """Every signal made so far (an omniscient look: a seat's :class:`View` shows its own partnership's only)."""
        return tuple(self._signals)

    def chant_recipients(self) -> tuple[Seat, Seat]:
        """The two seats that receive the stock if all agree: :func:`aluette.options.chant_recipients` for this
        deal's dealer and options."""
        return chant_recipients(self._dealer, self._options)

    # ----------------------------------------------------------------- moves
    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make (signals aside: see :meth:`legal_signals`). Empty when over.

        In the discard phase this lists all 5005 ways to discard six of fifteen cards."""
        seat, phase = self._to_move, self._phase
        if phase is Phase.CHANT:
            return [ChantAnswer(seat, True), ChantAnswer(seat, False)]
        if phase is Phase.DISCARD:
            return [Discard(seat, combo) for combo in itertools.combinations(self._hand(seat), 6)]
        if phase is Phase.SURRENDER:
            if self._surrender_by is None:
                return [SurrenderOffer(seat, True), SurrenderOffer(seat, False)]
            return [SurrenderAnswer(seat, True), SurrenderAnswer(seat, False)]
        if phase is Phase.ANNOUNCE:
            return [MordienneAnnouncement(seat, True), MordienneAnnouncement(seat, False)]
        if phase is Phase.PLAY:
            return [_PLAYS[seat][card.index] for card in self._hands[seat]]
        return []

    def legal_cards(self) -> tuple[Card, ...]:
        """In the play phase, the cards the seat to move may play (its whole hand, high to low, a :class:`Hand`);
        else empty. The same order as the :class:`~aluette.moves.Play` moves of :meth:`legal_moves`."""
        return Hand._of_sorted(self._hands[self._to_move]) if self._phase is _PLAY else ()

    def legal_signals(self, seat: Union[Seat, str]) -> list[str]:
        """Keys of the signals ``seat`` may make now (honest, not yet made, deal not over)."""
        seat = Seat.parse(seat)
        if self._phase is Phase.OVER:
            return []
        return honest_signals(self._hands[seat], (r.key for r in self._signals if r.seat is seat))

    def apply(self, move: Union[Move, list]) -> None:
        """Apply a move (a :class:`~aluette.moves.Move`, or its JSON list form).

        Raises:
            DealOverError: the deal is over.
            WrongPhaseError: a move of another phase.
            NotYourTurnError: not that seat's turn (signals excepted).
            CardNotInHandError, BadDiscardError, BadSignalError: see the move.
            MalformedSaveError: a JSON list that is not a move.
            AluetteError: not a move (see :func:`~aluette.moves.move_kind`); a move's seat and card given as text
                were read when the move was made (:mod:`aluette.moves`).
        In every case the deal is left unchanged.
        """
        if isinstance(move, list):
            move = move_from_json(move)
        check, do = _handlers(move)
        check(self, move)  # raises, changes nothing
        do(self, move)

    def is_legal(self, move: Union[Move, list]) -> bool:
        """Whether :meth:`apply` would accept ``move`` now (signals included); the deal is not changed.

        Raises:
            AluetteError: ``move`` is not a move at all (see :func:`~aluette.moves.move_kind`).
            MalformedSaveError: a JSON list that is not a move.
        """
        if isinstance(move, list):
            move = move_from_json(move)
        check, _ = _handlers(move)
        try:
            check(self, move)
        except IllegalMoveError:
            return False
        return True

    def play(self, seat: Union[Seat, str], card: CardLike) -> TrickRecord | None:
        """``seat`` plays ``card``. Returns the :class:`TrickRecord` if this card completed a trick, else ``None``.

        Raises:
            UnknownSeatError / UnknownCardError: not a seat / not a card.
            DealOverError, WrongPhaseError, NotYourTurnError, CardNotInHandError: see :meth:`apply`.
        """
        if seat.__class__ is not Seat:
            seat = Seat.parse(seat)
        if card.__class__ is not Card:
            card = Card.parse(card)
        move = _PLAYS[seat][card.index]
        self._check_play(move)
        return self._do_play(move)

    def play_index(self, i: int) -> TrickRecord | None:
        """The seat to move plays ``legal_cards()[i]``: the fast path for bots and simulations, with the same checks
        (phase, turn, a card of the hand) and the same :class:`~aluette.moves.Play` recorded as :meth:`play`.
        Returns the :class:`TrickRecord` if this card completed a trick, else ``None``.

        Raises:
            DealOverError, WrongPhaseError: not in the play phase.
            IllegalMoveError: ``i`` is not a whole number from 0 to ``len(legal_cards()) - 1``.
        """
        if self._phase is not _PLAY:
            if self._phase is Phase.OVER:
                raise DealOverError(_("the deal is over; no card can be played"))
            raise WrongPhaseError(_("no card can be played: the deal is in the {phase} phase, {seat} to move").format(
                phase=phase_name(self._phase), seat=self._to_move), seat=self._to_move)
        seat = self._to_move
        hand = self._hands[seat]
        if i.__class__ is not int or not 0 <= i < len(hand):
            i = self._checked_index(i, len(hand))
        # Every check passed: the card leaves the hand and the move is recorded; the fourth card completes the
        # trick, won by the only card of the strongest class or spoiled (tricks.best_of).
        card = hand.pop(i)
        self._moves.append(_PLAYS[seat][card.index])
        trick = self._trick
        trick.append((seat, card))
        if len(trick) < 4:
            self._to_move = _NEXT_SEAT[seat]
            return None
        winner = best_of(trick)
        record = TrickRecord._new(len(self._tricks) + 1, self._leader, tuple(trick), winner)
        self._tricks.append(record)
        self._trick = []
        if winner is not None:
            self._leader = winner
        self._to_move = self._leader
        if len(self._tricks) == 9:
            self._finish(self._score())
        elif self._ask_between and self._surrender_by is None:  # surrender-between-tricks
            self._phase = Phase.SURRENDER
        return record

    def _checked_index(self, i: Any, size: int) -> int:
        try:
            index = operator.index(i) if not isinstance(i, bool) else None
        except TypeError:
            index = None
        if index is None or not 0 <= index < size:
            raise IllegalMoveError(_("{seat} cannot play card number {number}: choose 0 to {last} in legal_cards() "
                                     "({hand})").format(seat=self._to_move, number=quoted(i), last=size - 1,
                                                         hand=Hand._of_sorted(self._hands[self._to_move])),
                                   seat=self._to_move)
        return index

    def answer_chant(self, seat: Union[Seat, str], agree: bool) -> None:
        """``seat`` agrees to or declines the chant."""
        self.apply(ChantAnswer(seat, agree))

    def discard(self, seat: Union[Seat, str], cards: Union[str, Iterable[CardLike]]) -> None:
        """``seat`` discards six cards (codes or cards) after the chant."""
        self.apply(Discard(seat, cards))

    def offer_surrender(self, seat: Union[Seat, str], offer: bool = True) -> None:
        """``seat`` offers (or declines to offer) its partnership's surrender."""
        self.apply(SurrenderOffer(seat, offer))

    def answer_surrender(self, seat: Union[Seat, str], accept: bool) -> None:
        """``seat`` accepts or refuses the other side's surrender."""
        self.apply(SurrenderAnswer(seat, accept))

    def announce_mordienne(self, seat: Union[Seat, str], announce: bool = True) -> None:
        """``seat`` announces (or does not announce) mordienne, under the Rebour option."""
        self.apply(MordienneAnnouncement(seat, announce))

    def signal(self, seat: Union[Seat, str], key: str) -> SignalRecord:
        """``seat`` makes signal ``key`` (see :data:`~aluette.signals.SIGNALS`); returns the record."""
        self.apply(Signal(seat, key))
        return self._signals[-1]

    def suggested_discard(self, seat: Union[Seat, str]) -> tuple[Card, ...]:
        """The six lowest cards of ``seat``'s fifteen: discarding them keeps the nine highest (the rules sheet,
        "setup": keep the highest). Only in the discard phase, for a seat that still has to discard.

        Raises:
            WrongPhaseError: no discard is pending for ``seat``.
        """
        seat = Seat.parse(seat)
        if self._phase is not Phase.DISCARD or seat not in self._pending_discards:
            raise WrongPhaseError(_("{seat} has no discard to make now (phase {phase})").format(
                seat=seat, phase=phase_name(self._phase)), seat=seat)
        return tuple(self._hand(seat)[9:])

    # ----------------------------------------------------------------- move handlers (check first, then change)
    def _check_turn(self, move: Move, phase: Phase) -> None:
        if self._phase is Phase.OVER:
            raise DealOverError(_("the deal is over; {move} is refused").format(move=move_sentence(move)),
                                seat=move.seat, move=move)
        if self._phase is not phase:
            raise WrongPhaseError(_("{move} is refused: the deal is in the {phase} phase, {seat} to move").format(
                move=move_sentence(move), phase=phase_name(self._phase), seat=self._to_move),
                seat=move.seat, move=move)
        if move.seat is not self._to_move:
            raise NotYourTurnError(_("{move} is refused: it is {seat}'s turn, not {mover}'s").format(
                move=move_sentence(move), seat=self._to_move, mover=move.seat), seat=move.seat, move=move)

    def _check_chant(self, move: ChantAnswer) -> None:
        self._check_turn(move, Phase.CHANT)  # move.agree is True or False: read when the move was made

    def _do_chant(self, move: ChantAnswer) -> None:
        self._moves.append(move)
        self._chant_answers.append((move.seat, move.agree))
        if not move.agree:
            self._begin_surrender_or_play()
        elif len(self._chant_answers) < 4:
            self._to_move = move.seat.left
        else:
            first, second = self.chant_recipients()
            steps = stock_steps(self._stock, first, second)
            self._received = {seat: tuple(c for s, c in steps if s is seat) for seat in (first, second)}
            for seat, cards in self._received.items():
                self._hands[seat] = sorted(self._hands[seat] + list(cards), key=hand_place)
            self._pending_discards = [first, second]
            self._phase, self._to_move = Phase.DISCARD, first

    def _check_discard(self, move: Discard) -> None:
        self._check_turn(move, Phase.DISCARD)
        cards = move.cards
        if len(cards) != 6 or len(set(cards)) != 6:
            shown = " ".join(map(str, cards[:12])) + (" …" if len(cards) > 12 else "")
            said = (_("{seat} must discard exactly six different cards, got {count} with a repeat: {cards}")
                    if len(set(cards)) != len(cards) else
                    _("{seat} must discard exactly six different cards, got {count}: {cards}"))
            raise BadDiscardError(said.format(seat=move.seat, count=len(cards), cards=shown), seat=move.seat,
                                  move=move)
        missing = [c for c in cards if c not in self._hands[move.seat]]
        if missing:
            raise BadDiscardError(_("{seat} cannot discard {cards}: not in their hand ({hand})").format(
                seat=move.seat, cards=" ".join(map(str, missing)), hand=self._hand(move.seat)), seat=move.seat,
                move=move)

    def _do_discard(self, move: Discard) -> None:
        cards = move.cards  # in deck order (aluette.moves)
        self._moves.append(move)
        self._hands[move.seat] = [c for c in self._hands[move.seat] if c not in cards]
        self._discards[move.seat] = tuple(Hand(cards))
        self._pending_discards.remove(move.seat)
        if self._pending_discards:
            self._to_move = self._pending_discards[0]
        else:
            self._begin_surrender_or_play()

    def _speakers(self) -> tuple[Seat, Seat]:
        # the leader of the next trick, then the leader's right: the dealer's left and the dealer before trick 1
        return (self._leader, self._leader.right)

    def _begin_surrender_or_play(self) -> None:
        if self._options.surrender:
            self._phase, self._to_move = Phase.SURRENDER, self._leader
        else:
            self._begin_announce_or_play()

    def _begin_announce_or_play(self) -> None:
        if self._options.rebour is not Rebour.OFF and not self._tricks:
            self._phase, self._to_move = Phase.ANNOUNCE, self._dealer.left
        else:
            self._phase, self._to_move = Phase.PLAY, self._leader

    def _check_announce(self, move: MordienneAnnouncement) -> None:
        self._check_turn(move, Phase.ANNOUNCE)

    def _do_announce(self, move: MordienneAnnouncement) -> None:
        self._moves.append(move)
        self._announcements.append((move.seat, move.announce))
        if len(self._announcements) < 4:
            self._to_move = move.seat.left
        else:
            self._phase, self._to_move = Phase.PLAY, self._leader

    @property
    def announcements(self) -> tuple[tuple[Seat, bool], ...]:
        """The Rebour announcements of mordienne so far, ``((seat, announced), ...)``, in the order asked."""
        return tuple(self._announcements)

    def _check_surrender(self, move: SurrenderOffer) -> None:
        self._check_turn(move, Phase.SURRENDER)
        if self._surrender_by is not None:
            raise WrongPhaseError(_("{move} is refused: {seat} must answer the offer to surrender").format(
                move=move_sentence(move), seat=self._to_move), seat=move.seat, move=move)

    def _do_surrender(self, move: SurrenderOffer) -> None:
        self._moves.append(move)
        self._surrender_spoken.append((move.seat, move.offer))
        first, second = self._speakers()
        if move.offer:
            self._surrender_by = move.seat.team
            self._surrender_after = len(self._tricks)
            self._to_move = second if move.seat is first else first
        elif move.seat is first:
            self._to_move = second
        else:
            self._begin_announce_or_play()

    def _check_answer(self, move: SurrenderAnswer) -> None:
        self._check_turn(move, Phase.SURRENDER)
        if self._surrender_by is None:
            raise WrongPhaseError(_("{move} is refused: nobody has offered to surrender").format(
                move=move_sentence(move)), seat=move.seat, move=move)

    def _do_answer(self, move: SurrenderAnswer) -> None:
        self._moves.append(move)
        self._surrender_accepted = move.accept
        if move.accept:
            self._finish(score_deal(None, surrendered_by=self._surrender_by, surrender_accepted=True,
                                    offered_after=self._surrender_after))
        else:
            self._begin_announce_or_play()

    def _check_play(self, move: Play) -> None:
        if self._phase is not _PLAY or move.seat is not self._to_move:
            self._check_turn(move, Phase.PLAY)
        if move.card not in self._hands[move.seat]:
            raise CardNotInHandError(_("{seat} cannot play {card}: not in their hand ({hand})").format(
                seat=move.seat, card=move.card, hand=Hand._of_sorted(self._hands[move.seat])), seat=move.seat,
                move=move)

    def _do_play(self, move: Play) -> TrickRecord | None:
        return self.play_index(self._hands[move.seat].index(move.card))  # records the canonical Play equal to move

    def _score(self) -> DealResult:
        announced = ({seat for seat, said in self._announcements if said}
                     if self._options.rebour is Rebour.ONLY_ANNOUNCED else None)
        return score_deal(self.outcomes, mordienne=self._options.mordienne, announced=announced,
                          surrendered_by=self._surrender_by, surrender_accepted=self._surrender_accepted,
                          offered_after=self._surrender_after)

    def _finish(self, result: DealResult) -> None:
        self._result = result
        self._phase, self._to_move = Phase.OVER, None

    def _check_signal(self, move: Signal) -> None:
        if self._phase is Phase.OVER:
            raise DealOverError(_("the deal is over; {move} is refused").format(move=move_sentence(move)),
                                seat=move.seat, move=move)
        made = [r.key for r in self._signals if r.seat is move.seat]
        problem = signal_problem(move.key, self._hands[move.seat], made)  # BadSignalError on an unknown key
        if problem:
            raise BadSignalError(_("{seat} {problem}").format(seat=move.seat, problem=problem), seat=move.seat,
                                 move=move)

    def _do_signal(self, move: Signal) -> None:
        count = signal_count(move.key, self._hands[move.seat])
        self._moves.append(move)
        self._signals.append(SignalRecord(move.seat, move.key, count, len(self._tricks)))

    # ----------------------------------------------------------------- views and history
    def view(self, seat: Union[Seat, str, None], *, events: bool = True) -> View:
        """What ``seat`` may see (see :class:`View`); ``None`` gives the omniscient view for teaching.

        ``events=False`` leaves :attr:`View.events` empty: the sentences are written for people and cost most of
        the time of a view, so programs that decide from the other fields (the bots of :mod:`aluette.players.bots`) skip
        them.
        """
        seat = None if seat is None else Seat.parse(seat)
        seen = tuple(s for s in SEATS if may_see(seat, s))
        return View(
            seat=seat, dealer=self._dealer, phase=self._phase, to_move=self._to_move, leader=self.leader,
            options=self._options,
            hands={s: Hand._of_sorted(self._hands[s]) for s in seen},
            hand_sizes={s: len(self._hands[s]) for s in SEATS},
            trick=tuple(self._trick), tricks=tuple(self._tricks), trick_counts=self.trick_counts,
            chant_answers=tuple(self._chant_answers), chant_agreed=self._chant_agreed(),
            stock_received={s: c for s, c in self._received.items() if may_see(seat, s)},
            discards={s: c for s, c in self._discards.items() if may_see(seat, s)},
            stock=self._stock if seat is None and not self._received else None,
            signals=tuple(r for r in self._signals if seen_by(r.seat, seat)),
            result=self._result, events=deal_events(self, seat) if events else (),
            surrender_spoken=tuple(self._surrender_spoken), surrender_by=self._surrender_by,
            surrender_accepted=self._surrender_accepted, announcements=tuple(self._announcements))

    def omniscient_view(self) -> View:
        """Everything, for teaching: ``view(None)``."""
        return self.view(None)

    def _chant_agreed(self) -> Optional[bool]:
        if any(not agree for _, agree in self._chant_answers):
            return False
        return True if len(self._chant_answers) == 4 else None

    @property
    def events(self) -> tuple[str, ...]:
        """The whole history as sentences (an omniscient look, as ``view(None).events``; what a seat may see of it
        is ``view(seat).events``). Built from the moves on demand (:func:`aluette.narration.deal_events`)."""
        return deal_events(self, None)

    def tricks_table(self):
        """The completed tricks as a pandas DataFrame: one row per trick with the leader, each seat's card, the
        winner (``"X"`` when spoiled) and the running counts."""
        from .frames import tricks_table
        return tricks_table(self)

    def _repr_html_(self) -> str:
        from .pictures import view_html
        return view_html(self.view(None))

    def __str__(self) -> str:
        """Plain text for terminals and pytest: the dealer and whose turn, each hand, the trick on the table, the
        tricks so far in pagat notation, and the result once over. Omniscient (every hand), like :meth:`view(None)
        <view>`."""
        state = f"{self._phase.value} phase, {self._to_move} to move" if self._to_move else "over"
        lines = [f"Deal, dealer {self._dealer}, {state}"]
        lines += [f"  {s}: {Hand._of_sorted(self._hands[s]) or '-'}" for s in SEATS]
        if self._trick:
            lines.append(f"  trick {len(self._tricks) + 1}: {', '.join(f'{s} {c}' for s, c in self._trick)}")
        lines.append(f"  tricks: {self.notation or '-'}")
        if self._result is not None:
            lines.append(f"  result: {self._result.reason}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<Deal dealer={self._dealer} phase={self._phase.value} tricks={self.notation or '-'}"
                f"{' to_move=' + str(self._to_move) if self._to_move else ''}>")

    # ----------------------------------------------------------------- replay and persistence
    def copy(self) -> "Deal":
        """An independent copy, rebuilt by replaying the moves."""
        return self._replayed(self._moves)

    def _fresh(self) -> "Deal":
        deal = Deal(self._deck, dealer=self._dealer, options=self._options)
        deal._seed, deal._cut = self._seed, self._cut
        return deal

    def _replayed(self, moves: Iterable[Move]) -> "Deal":
        deal = self._fresh()
        for move in moves:
            deal.apply(move)
        return deal

    def to_dict(self) -> dict:
        """A JSON-ready description: format, version, options, dealer, the cut deck, seed and cut when known, the
        moves, and the result (checked again on load). See :func:`aluette.savefile.deal_to_dict`."""
        return deal_to_dict(self)

    def to_json(self, **kwargs) -> str:
        """:meth:`to_dict` as JSON text (``kwargs`` go to :func:`json.dumps`, e.g. ``indent=2``)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: Any) -> "Deal":
        """Rebuild a deal from :meth:`to_dict` output by replaying every move (:func:`aluette.savefile.deal_from_dict`).

        Raises:
            MalformedSaveError: wrong format or version, a missing or unknown field, a deck that is not the 48 cards
                or does not match its seed, an illegal move (named by its number), or a result that differs from
                the replay.
        """
        return deal_from_dict(cls, data)

    @classmethod
    def from_json(cls, text: str) -> "Deal":
        """Load a deal saved by :meth:`to_json`.

        Raises:
            MalformedSaveError: not JSON, a key twice in one object (see :func:`aluette.savefile.load_json`), or see
                :meth:`from_dict`.
        """
        return cls.from_dict(load_json(text, N_("a saved deal")))


_HANDLERS: dict[type, tuple] = {}


def _handlers(move: Any) -> tuple:
    """The deal's ``(_check_<name>, _do_<name>)`` for the kind of ``move`` (the registry of :mod:`aluette.moves`
    names it), looked up once per kind.

    Raises:
        AluetteError: ``move`` is not a move.
    """
    handlers = _HANDLERS.get(move.__class__)
    if handlers is None:
        name = move_kind(move).name
        handlers = _HANDLERS[move.__class__] = (getattr(Deal, "_check_" + name), getattr(Deal, "_do_" + name))
    return handlers
