"""Drivers: the code that plays a deal or a match on, asking players for moves and applying them to the engine.

* The bot policy, in one place for every loop that drives bots (:func:`play_deal` here, the match session of
  notebook 08, the shared tables' :meth:`~aluette.store.TableService.step_bots`): :func:`signals_due` says when the
  bots make their one round of signals of a deal (the hands are final), :func:`next_bot_step` gives the bots' next
  step (that round, :func:`signal_decisions`, or the turn move of the bot to move, :func:`choose_turn`) without
  applying it: a session applies it, a shared table writes it to its log.
* Bots (:mod:`aluette.players.bots`, protocol in :mod:`aluette.players.protocol`): :func:`play_turn` and :func:`signal_round`
  make a turn move or the round of signals and apply it; :func:`play_deal` and :func:`play_match` play to the end and
  return every :class:`~aluette.players.protocol.Decision` made. The kinds of bots are registered once,
  :data:`BOT_KINDS`, made by :func:`make_bot` (:func:`bots_for` seats four of one kind). Each bot is handed its own
  seat's view (``deal.view(seat)``), never the deal.
* A trivial stand-in for players: :func:`simple_move` (decline the chant, never surrender, play the highest card or
  the lowest), with :func:`play_out` and :func:`play_out_match` to finish a deal or a match with it. Not good play:
  a documented, reproducible way to reach a position in a notebook or a test.
"""

from __future__ import annotations

from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass
from itertools import combinations
from typing import Mapping, Optional, Union

import numpy as np

from .protocol import Bot, Decision
from .bots import HeuristicBot, RandomBot
from ..chance import check_seed
from ..deal import Deal, Phase
from ..errors import AluetteError, DealOverError, quoted
from ..i18n import N_
from ..match import Match
from ..moves import ChantAnswer, Discard, MordienneAnnouncement, Move, Play, Signal, SurrenderAnswer, SurrenderOffer
from ..seats import SEATS, Seat

__all__ = ["signals_due", "BotStep", "next_bot_step", "choose_turn", "play_turn", "signal_decisions", "signal_round",
           "play_deal", "play_match", "BOT_KINDS", "make_bot", "bots_for", "random_bot_at", "expert_bot_at", "SIMPLE_RULES",
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


# ---------------------------------------------------------------------- the bot policy: one home
def signals_due(phase: Phase, offered: bool) -> bool:
    """Whether the bots' one round of signals of a deal is due: the hands are final (:attr:`Phase.hands_final
    <aluette.records.Phase.hands_final>`: after any chant and discards, before the surrender and the Rebour
    announcements are asked) and the round has not been ``offered`` in this deal yet. The one rule of *when* bots
    signal, for every loop that drives them (:func:`play_deal`, :class:`aluette.players.session.MatchSession`,
    :meth:`aluette.store.TableService.step_bots`, the players of the store's tests); what each bot signals is its
    own (:meth:`aluette.players.bots.HeuristicBot.signals`).

    >>> signals_due(Phase.ANNOUNCE, offered=False), signals_due(Phase.CHANT, offered=False)
    (True, False)
    """
    return not offered and phase.hands_final


@dataclass(frozen=True)
class BotStep:
    """What the bots do next in a deal (:func:`next_bot_step`), not yet applied: the loop that drives them applies
    the decisions (a session), or writes them to its log (a shared table).

    Attributes:
        signals: ``True`` for the deal's round of signals (its decisions may be none: the round was offered, and
            is not offered again in that deal); ``False`` for one turn move.
        decisions: the bots' decisions, in the order they are to be applied.
    """

    signals: bool
    decisions: tuple[Decision, ...]


def choose_turn(deal: Deal, bot: Bot) -> Decision:
    """Ask ``bot`` for the move of the seat to move, from that seat's view and legal moves only; nothing is applied.

    Raises:
        DealOverError: the deal is over.
        AluetteError: the bot returned something other than a :class:`Decision` of a turn move.
    """
    seat = deal.to_move
    if seat is None:
        raise DealOverError("the deal is over; no bot has a move to make")
    decision = bot.choose(deal.view(seat, events=False), _LegalMoves(deal))
    if not isinstance(decision, Decision) or isinstance(decision.move, Signal):
        raise AluetteError(f"the bot for {seat} must return a Decision of a turn move, got {quoted(decision)}")
    return decision


def play_turn(deal: Deal, bot: Bot) -> Decision:
    """Ask ``bot`` for the move of the seat to move (:func:`choose_turn`) and apply it; returns the decision, its
    move as the deal recorded it (so the decisions of a deal list exactly :attr:`Deal.moves`).

    Raises:
        DealOverError: the deal is over.
        AluetteError: the bot returned something other than a :class:`Decision` of a turn move.
        IllegalMoveError: the bot's move is illegal (the deal is left unchanged).
    """
    decision = choose_turn(deal, bot)
    deal.apply(decision.move)
    recorded = deal.moves[-1]  # the engine stores a discard's cards in deck order
    return decision if recorded == decision.move else Decision(recorded, decision.reason)


def signal_decisions(deal: Deal, bots: Mapping[Union[Seat, str], Bot]) -> list[Decision]:
    """The bots' round of signals in ``deal`` now, checked but not applied: every seat that has a bot in ``bots``,
    from the dealer's left clockwise, is offered the chance to signal (``bot.signals``); seats without a bot make
    none. Each bot decides from its own view with the signals of the seats before it in the round (the round is
    played on a copy of the deal; ``deal`` itself is not changed).

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
    return made


def signal_round(deal: Deal, bots: Mapping[Union[Seat, str], Bot]) -> list[Decision]:
    """Make the bots' round of signals (:func:`signal_decisions`) and apply it to ``deal``; returns the decisions.
    Every signal of the round is checked before any is applied: on a refusal ``deal`` is left exactly as it was
    (quality bar: a refused input changes nothing).

    Raises:
        see :func:`signal_decisions`.
    """
    made = signal_decisions(deal, bots)
    for decision in made:
        deal.apply(decision.move)  # each was accepted in the same position on the copy
    return made


def next_bot_step(deal: Deal, bots: Mapping[Union[Seat, str], Bot], *, signals_offered: bool,
                  signals: bool = True) -> Optional[BotStep]:
    """The bots' next step in ``deal``, by the one policy every driver follows; nothing is applied.

    1. The round of signals (:func:`signal_decisions`) when :func:`signals_due` (``signals_offered``: the round
       was already offered in this deal; ``signals=False``: nobody signals in this match, never due);
    2. else, when a seat in ``bots`` is to move, its turn move (:func:`choose_turn`);
    3. else ``None`` (a person's turn, or the deal is over).

    Raises:
        AluetteError, BadSignalError: a bot's bad decision (see :func:`signal_decisions`, :func:`choose_turn`).
    """
    table = _bots_by_seat(bots, partial=True)
    if signals and signals_due(deal.phase, signals_offered):
        return BotStep(True, tuple(signal_decisions(deal, table)))
    seat = deal.to_move
    if seat is not None and seat in table:
        return BotStep(False, (choose_turn(deal, table[seat]),))
    return None


def play_deal(deal: Deal, bots: Mapping[Union[Seat, str], Bot]) -> list[Decision]:
    """Play ``deal`` to its end with a bot at each seat; returns every decision in the order made (signals
    included), for replays and teaching. The deal may already be under way.

    The bots follow :func:`next_bot_step`: one round of signals when the hands are final (:func:`signals_due`, the
    first time the deal is found in the surrender, announce or play phase), then each turn the bot of the seat to
    move chooses from its own view.

    Raises:
        AluetteError: ``bots`` lacks a seat, or a bot returned a bad decision.
        IllegalMoveError: a bot's move is illegal (the deal stays as it was before that move).
    """
    table = _bots_by_seat(bots)
    decisions: list[Decision] = []
    offered = False
    while deal.phase is not Phase.OVER:
        step = next_bot_step(deal, table, signals_offered=offered)
        if step.signals:
            if offered:  # a policy that offers the round twice would loop here for ever
                raise AluetteError("the bots' round of signals was offered twice in one deal")
            offered = True
            for decision in step.decisions:
                deal.apply(decision.move)  # checked together on a copy by signal_decisions
            decisions.extend(step.decisions)
            continue
        (decision,) = step.decisions
        deal.apply(decision.move)
        recorded = deal.moves[-1]  # the engine stores a discard's cards in deck order
        decisions.append(decision if recorded == decision.move else Decision(recorded, decision.reason))
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


#: The kinds of bots, with their labels: the one registry every driver reads (:func:`make_bot`, :func:`bots_for`,
#: the match session's opponents, the shared tables' bots).
BOT_KINDS = {"heuristic": N_("heuristic bots"), "random": N_("random bots"), "expert": N_("expert bots")}


def make_bot(kind: str, seat: Union[Seat, str], seed: Optional[int] = None, *, signals: bool = False) -> Bot:
    """The bot of ``kind`` (:data:`BOT_KINDS`) at ``seat``: a :class:`~aluette.players.bots.HeuristicBot` (deterministic;
    ``signals``: it signals to its partner and reads the partner's signals), the seeded random player
    :func:`random_bot_at` ``(seed, seat)`` (it never signals), or the expert :func:`expert_bot_at` ``(seed, seat)``
    (:class:`~aluette.analysis.expert.ExpertBot`: perfect-information Monte Carlo over the solver from the fourth
    trick, the heuristic bot's play in the first three; it signals as the heuristic bot does, with ``signals``).

    Raises:
        AluetteError: an unknown kind, or no seed for a random or an expert player. BadSeedError: ``seed`` is not a
            seed. UnknownSeatError: ``seat`` is not a seat.
    """
    if not isinstance(kind, str) or kind not in BOT_KINDS:
        raise AluetteError(f"unknown players {quoted(kind)}; known: {', '.join(BOT_KINDS)}")
    seat = Seat.parse(seat)
    if kind == "heuristic":
        return HeuristicBot(signals=signals, name=str(seat))
    if seed is None:
        raise AluetteError(f"{kind} players need a seed: make_bot({kind!r}, seat, seed)")
    if kind == "expert":
        return expert_bot_at(seed, seat, signals=signals)
    return random_bot_at(seed, seat)


def bots_for(kind: str, seed: int, *, signals: bool = False) -> dict[Seat, Bot]:
    """Four bots of one kind (:func:`make_bot`): :class:`~aluette.players.bots.HeuristicBot` (deterministic) or
    :class:`~aluette.players.bots.RandomBot` seeded from ``seed`` and the seat (``SeedSequence([seed, seat index])``), so the
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
    seed = check_seed(seed, N_("the bots' seed"))  # checked for every kind: the heuristic bots do not draw from it
    return {seat: make_bot(kind, seat, seed, signals=signals) for seat in SEATS}


def random_bot_at(seed: int, seat: Union[Seat, str]) -> RandomBot:
    """The random player at ``seat`` in a game seeded with ``seed``: ``RandomBot(SeedSequence([seed, k]))``, ``k``
    the seat's index in N, E, S, W. The one seeding of random players for every driver (:func:`bots_for`, the match
    session's random opponents), so a seed replays a game, its random players included.

    Raises:
        BadSeedError: ``seed`` is not a seed. AluetteError: ``seat`` is not a seat.
    """
    return RandomBot(np.random.SeedSequence([check_seed(seed, N_("the bots' seed")), SEATS.index(Seat.parse(seat))]))


def expert_bot_at(seed: int, seat: Union[Seat, str], *, signals: bool = True) -> Bot:
    """The expert player at ``seat`` in a game seeded with ``seed``: an :class:`~aluette.analysis.expert.ExpertBot`
    with its default bounds drawing from ``SeedSequence([seed, k, 1])`` (``k`` the seat's index in N, E, S, W; the
    1 keeps its draws apart from a random player's), so a seed replays a game, its experts' choices included. The
    analysis package is imported only when an expert is made (it compiles the solver on its first search).

    Raises:
        BadSeedError: ``seed`` is not a seed. AluetteError: ``seat`` is not a seat.
    """
    from ..analysis.expert import ExpertBot  # the analyses stand beside the engine: imported on demand

    index = SEATS.index(Seat.parse(seat))
    return ExpertBot(np.random.SeedSequence([check_seed(seed, N_("the bots' seed")), index, 1]), signals=signals,
                     name=str(SEATS[index]))


# ---------------------------------------------------------------------- a trivial stand-in for players
#: The trivial playing rules of :func:`simple_move`: each seat plays the first (highest) or last (lowest) card of
#: its hand as :meth:`Deal.legal_cards` lists it, high to low.
SIMPLE_RULES = {"highest": N_("each seat plays its highest card"), "lowest": N_("each seat plays its lowest card")}


def _check_rule(rule: str) -> None:
    if not isinstance(rule, str) or rule not in SIMPLE_RULES:
        raise AluetteError(f"unknown playing rule {quoted(rule)}; known: {', '.join(SIMPLE_RULES)}")


def simple_move(deal: Deal, rule: str = "highest") -> Move:
    """The move a trivial player makes in ``deal`` now: declines the chant, discards the engine's suggested six (only
    reached if a chant was agreed before), never offers or accepts a surrender, never announces mordienne (Guy
    Rebour's account, :class:`~aluette.options.Rebour`), and plays its highest card (``rule="highest"``) or its
    lowest (``rule="lowest"``). Not good play; a documented, reproducible stand-in, for every variant.

    Raises:
        AluetteError: an unknown ``rule`` (known: :data:`SIMPLE_RULES`). DealOverError: the deal is over.
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
    if phase is Phase.ANNOUNCE:
        return MordienneAnnouncement(seat, False)
    if phase is Phase.PLAY:
        cards = deal.legal_cards()
        return Play(seat, cards[0] if rule == "highest" else cards[-1])
    raise DealOverError("the deal is over: there is no move to make")


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
