"""Drivers: the code that plays a deal or a match on, asking players for moves and applying them to the engine.

* Bots (:mod:`aluette.bots`, protocol in :mod:`aluette.bot_protocol`): :func:`play_turn` asks the bot of the seat to
  move, :func:`signal_round` offers every bot the chance to signal, :func:`play_deal` and :func:`play_match` play to
  the end and return every :class:`~aluette.bot_protocol.Decision` made; :func:`bots_for` seats four bots of one kind.
  Each bot is handed its own seat's view (``deal.view(seat)``), never the deal.
* A trivial stand-in for players: :func:`simple_move` (decline the chant, never surrender, play the highest card or
  the lowest), with :func:`play_out` and :func:`play_out_match` to finish a deal or a match with it. Not good play:
  a documented, reproducible way to reach a position in a notebook or a test.
"""

from __future__ import annotations

from collections.abc import Sequence as SequenceABC
from itertools import combinations
from typing import Mapping, Optional, Union

import numpy as np

from .bot_protocol import Bot, Decision
from .bots import HeuristicBot, RandomBot
from .chance import check_seed
from .deal import Deal, Phase
from .errors import AluetteError, DealOverError, quoted
from .match import Match
from .moves import ChantAnswer, Discard, Move, Play, Signal, SurrenderAnswer, SurrenderOffer
from .seats import SEATS, Seat

__all__ = ["play_turn", "signal_round", "play_deal", "play_match", "BOT_KINDS", "bots_for", "SIMPLE_RULES",
           "simple_move", "play_out", "play_out_match"]


# ---------------------------------------------------------------------- bots
class _LegalMoves(SequenceABC):
    """The legal moves of the seat to move, holding no reference to the deal (a bot is given its view and this).
    In the discard phase the 5005 discards are listed only when a bot asks, from the seat's own fifteen cards in
    the order of :meth:`Deal.legal_moves` (a test checks they are the same); otherwise the engine's list."""

    def __init__(self, deal: Deal):
        if deal.phase is Phase.DISCARD:
            self._seat, self._hand, self._moves = deal.to_move, deal.hands[deal.to_move], None
        else:
            self._moves = deal.legal_moves()

    def _list(self) -> list:
        if self._moves is None:
            self._moves = [Discard(self._seat, combo) for combo in combinations(self._hand, 6)]
        return self._moves

    def __len__(self) -> int:
        return len(self._list())

    def __getitem__(self, index):
        return self._list()[index]


def _bots_by_seat(bots: Mapping[Union[Seat, str], Bot], partial: bool = False) -> dict[Seat, Bot]:
    table = Seat.parse_mapping(bots, "bot", all_four=not partial)  # "N" and "north" both given: refused
    for seat, bot in table.items():
        if not callable(getattr(bot, "choose", None)) or not callable(getattr(bot, "signals", None)):
            raise AluetteError(f"the bot for {seat} ({quoted(bot)}) lacks choose(view, legal_moves) and "
                               f"signals(view, legal_signals)")
    return table


def play_turn(deal: Deal, bot: Bot) -> Decision:
    """Ask ``bot`` for the move of the seat to move (from that seat's view) and apply it; returns the decision, its
    move as the deal recorded it (so the decisions of a deal list exactly :attr:`Deal.moves`).

    Raises:
        DealOverError: the deal is over.
        AluetteError: the bot returned something other than a :class:`Decision` of a turn move.
        IllegalMoveError: the bot's move is illegal (the deal is left unchanged).
    """
    seat = deal.to_move
    if seat is None:
        raise DealOverError("the deal is over; no bot has a move to make")
    decision = bot.choose(deal.view(seat, events=False), _LegalMoves(deal))
    if not isinstance(decision, Decision) or isinstance(decision.move, Signal):
        raise AluetteError(f"the bot for {seat} must return a Decision of a turn move, got {quoted(decision)}")
    deal.apply(decision.move)
    recorded = deal.moves[-1]  # the engine stores a discard's cards in deck order
    return decision if recorded == decision.move else Decision(recorded, decision.reason)


def signal_round(deal: Deal, bots: Mapping[Union[Seat, str], Bot]) -> list[Decision]:
    """Offer every seat that has a bot in ``bots``, from the dealer's left clockwise, the chance to signal
    (``bot.signals``) and apply what each makes; returns those decisions. Seats without a bot make no signal. Each
    bot decides from its view with the signals of the seats before it in the round.

    Every signal of the round is checked before any is applied to ``deal``: the round is played on a copy of the
    deal, and only if the engine accepts every signal are they applied to ``deal``. On a refusal ``deal`` is left
    exactly as it was (quality bar: a refused input changes nothing).

    Raises:
        AluetteError: a bot returned something other than its own seat's :class:`~aluette.moves.Signal` s.
        BadSignalError: a signal the engine refuses (dishonest or repeated).
    """
    table = _bots_by_seat(bots, partial=True)
    made: list[Decision] = []
    work = deal  # replaced by a copy before the first signal is applied
    for seat in deal.dealer.left.clockwise_from():
        if seat not in table:
            continue
        legal = work.legal_signals(seat)
        if not legal:
            continue
        decisions = list(table[seat].signals(work.view(seat, events=False), legal))
        for decision in decisions:
            if not isinstance(decision, Decision) or not isinstance(decision.move, Signal) \
                    or decision.seat is not seat:
                raise AluetteError(f"the bot for {seat} must return Decisions of its own Signal moves, got "
                                   f"{quoted(decision)}")
        if decisions and work is deal:
            work = deal.copy()
        for decision in decisions:
            work.apply(decision.move)  # raises on a refused signal: deal itself is untouched
        made.extend(decisions)
    for decision in made:
        deal.apply(decision.move)  # each was accepted in the same position on the copy
    return made


def play_deal(deal: Deal, bots: Mapping[Union[Seat, str], Bot]) -> list[Decision]:
    """Play ``deal`` to its end with a bot at each seat; returns every decision in the order made (signals
    included), for replays and teaching. The deal may already be under way.

    When the hands are final (the first time the deal is found in the surrender, announce or play phase: after any
    chant and discards) the bots are offered one :func:`signal_round`; then each turn the bot of the seat to move
    chooses from its own view (:func:`play_turn`).

    Raises:
        AluetteError: ``bots`` lacks a seat, or a bot returned a bad decision.
        IllegalMoveError: a bot's move is illegal (the deal stays as it was before that move).
    """
    table = _bots_by_seat(bots)
    decisions: list[Decision] = []
    signalled = False
    while deal.phase is not Phase.OVER:
        if not signalled and deal.phase in (Phase.SURRENDER, Phase.ANNOUNCE, Phase.PLAY):
            signalled = True
            decisions.extend(signal_round(deal, table))
        decisions.append(play_turn(deal, table[deal.to_move]))
    return decisions


def play_match(match: Match, bots: Mapping[Union[Seat, str], Bot]) -> list[list[Decision]]:
    """Play ``match`` to its end with a bot at each seat (:func:`play_deal` for each deal, starting the next deal
    when one ends); returns the decisions of each deal played, in order.

    Raises:
        see :func:`play_deal`.
    """
    table = _bots_by_seat(bots)
    played = []
    while True:
        if match.awaiting_next_deal:
            match.next_deal()
        if match.current.is_over:
            return played
        played.append(play_deal(match.current, table))


#: The kinds of bots :func:`bots_for` seats, with their labels.
BOT_KINDS = {"heuristic": "heuristic bots (pagat.com's advice)", "random": "random bots (seeded)"}


def bots_for(kind: str, seed: int) -> dict[Seat, Bot]:
    """Four bots of one kind: :class:`~aluette.bots.HeuristicBot` (deterministic) or
    :class:`~aluette.bots.RandomBot` seeded from ``seed`` and the seat (``SeedSequence([seed, seat index])``), so the
    same seed replays the same random game.

    >>> from aluette import Deal
    >>> a, b = Deal.from_seed(3), Deal.from_seed(3)
    >>> play_deal(a, bots_for("random", 8)) == play_deal(b, bots_for("random", 8))
    True

    Raises:
        AluetteError: an unknown kind (known: :data:`BOT_KINDS`).
        BadSeedError: ``seed`` is not a seed.
    """
    if not isinstance(kind, str) or kind not in BOT_KINDS:
        raise AluetteError(f"unknown players {quoted(kind)}; known: {', '.join(BOT_KINDS)}")
    seed = check_seed(seed, "the bots' seed")  # checked for every kind: the heuristic bots do not draw from it
    if kind == "heuristic":
        return {seat: HeuristicBot() for seat in SEATS}
    return {seat: random_bot_at(seed, seat) for seat in SEATS}


def random_bot_at(seed: int, seat: Union[Seat, str]) -> RandomBot:
    """The random player at ``seat`` in a game seeded with ``seed``: ``RandomBot(SeedSequence([seed, k]))``, ``k``
    the seat's index in N, E, S, W. The one seeding of random players for every driver (:func:`bots_for`, the match
    session's random opponents), so a seed replays a game, its random players included.

    Raises:
        BadSeedError: ``seed`` is not a seed. AluetteError: ``seat`` is not a seat.
    """
    return RandomBot(np.random.SeedSequence([check_seed(seed, "the bots' seed"), SEATS.index(Seat.parse(seat))]))


# ---------------------------------------------------------------------- a trivial stand-in for players
#: The trivial playing rules of :func:`simple_move`: each seat plays the first (highest) or last (lowest) card of
#: its hand as :meth:`Deal.legal_cards` lists it, high to low.
SIMPLE_RULES = {"highest": "each seat plays its highest card", "lowest": "each seat plays its lowest card"}


def _check_rule(rule: str) -> None:
    if not isinstance(rule, str) or rule not in SIMPLE_RULES:
        raise AluetteError(f"unknown playing rule {quoted(rule)}; known: {', '.join(SIMPLE_RULES)}")


def simple_move(deal: Deal, rule: str = "highest") -> Move:
    """The move a trivial player makes in ``deal`` now: declines the chant, discards the engine's suggested six (only
    reached if a chant was agreed before), never offers or accepts a surrender, and plays its highest card
    (``rule="highest"``) or its lowest (``rule="lowest"``). Not good play; a documented, reproducible stand-in.

    Raises:
        AluetteError: an unknown ``rule`` (known: :data:`SIMPLE_RULES`); the deal is over.
    """
    _check_rule(rule)
    seat, phase = deal.to_move, deal.phase
    if phase is Phase.CHANT:
        return ChantAnswer(seat, False)
    if phase is Phase.DISCARD:
        return Discard(seat, deal.suggested_discard(seat))
    if phase is Phase.SURRENDER:
        offering = isinstance(deal.legal_moves()[0], SurrenderOffer)
        return SurrenderOffer(seat, False) if offering else SurrenderAnswer(seat, False)
    if phase is Phase.PLAY:
        cards = deal.legal_cards()
        return Play(seat, cards[0] if rule == "highest" else cards[-1])
    raise AluetteError("the deal is over: there is no move to make")


def play_out(deal: Deal, rule: str = "highest", *, tricks: Optional[int] = None) -> Deal:
    """Apply :func:`simple_move` to ``deal`` until ``tricks`` more tricks are complete (all remaining ones when
    ``None``) or the deal is over; returns the same deal, changed in place.

    >>> play_out(Deal.from_seed(7), "lowest").is_over
    True

    Raises:
        AluetteError: an unknown ``rule`` (before any move is made).
    """
    _check_rule(rule)
    target = 9 if tricks is None else min(9, len(deal.tricks) + tricks)
    while not deal.is_over and len(deal.tricks) < target:
        deal.apply(simple_move(deal, rule))
    return deal


def play_out_match(match: Match, rule: str = "highest") -> Match:
    """Finish ``match`` with :func:`simple_move`, starting each next deal when the previous one is over; returns the
    same match, changed in place. A trivial, reproducible stand-in for players (see :data:`SIMPLE_RULES`).

    Raises:
        AluetteError: an unknown ``rule``.
    """
    _check_rule(rule)
    while not match.is_over:
        if match.awaiting_next_deal:
            match.next_deal()
        else:
            match.apply(simple_move(match.current, rule))
    return match
