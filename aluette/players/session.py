"""A match session: one :class:`~aluette.match.Match` and, for each seat, who plays it.

A seat is played by a :class:`Person` (at this screen, or at another device) or by a bot (:mod:`aluette.players.bots`).
The session is plain Python: no widgets and no event loop. A view (the widget of notebook 08, or later a device of a
shared table) reads it and drives it:

* **People's moves** come in through one entry point, :meth:`MatchSession.submit` ``(seat, move)``, which checks
  that the seat is played by a person, that the move is that seat's, and then lets the engine check the move; a
  refusal raises an error of :mod:`aluette.errors` and leaves the session exactly as it was.
* **Bots' moves** are made one at a time by :meth:`MatchSession.step`; :attr:`MatchSession.next_bot` says which bot
  acts next and after what pause (:attr:`MatchSession.bot_delay`), so a driver can wait that long (a timer) or not
  at all (:meth:`MatchSession.run_bots`, tests). The bots' signals (one round per deal, once the hands are final:
  :func:`aluette.players.drivers.signals_due`, the policy every driver follows) are made as soon as the deal reaches that point.
* **What changed** is told to every observer (:meth:`MatchSession.observe`) as a :class:`SessionEvent`: who acted
  and what kind of thing happened, never a card. What a seat's screen shows comes from :meth:`MatchSession.view`,
  the engine's per-seat :class:`~aluette.deal.View`, never from the full deal.

A session with a bot at every seat plays the same match as :func:`aluette.players.drivers.play_match` with the same bots and
seed (a test checks it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Union

from .protocol import Decision
from .bots import HeuristicBot
from ..chance import check_seed
from ..deal import Deal, View
from .drivers import BOT_KINDS, make_bot, play_turn, signal_round, signals_due
from ..errors import (AluetteError, BadSignalError, DealOverError, NotYourSeatError, NotYourTurnError, quoted)
from ..i18n import N_
from ..match import Match
from ..moves import Move, Signal, checked_move, move_from_json
from ..options import Options
from ..seats import SEATS, Seat
from ..signals import seen_by

__all__ = ["Person", "BotTurn", "SessionEvent", "MatchSession", "OPPONENTS", "make_bots", "MAX_BOT_DELAY",
           "check_bot_delay"]

#: The opponents :func:`make_bots` knows: key → label (the one registry of bot kinds, :data:`aluette.players.drivers.BOT_KINDS`).
OPPONENTS = BOT_KINDS

#: The longest pause between two bot moves, in seconds.
MAX_BOT_DELAY = 60.0


@dataclass(frozen=True)
class Person:
    """A person playing a seat: their moves come through :meth:`MatchSession.submit`.

    Attributes:
        remote: ``False`` for a person at this screen, ``True`` for a person at another device (their moves
            arrive from outside, through the same :meth:`MatchSession.submit`).
        name: how to call them (optional).
    """

    remote: bool = False
    name: Optional[str] = None


@dataclass(frozen=True)
class BotTurn:
    """The next bot move: ``seat``'s bot acts after ``delay`` seconds (:attr:`MatchSession.bot_delay`)."""

    seat: Seat
    delay: float


@dataclass(frozen=True)
class SessionEvent:
    """Something that changed in a session, for its views. It names no card: a view reads what its seat may see
    from :meth:`MatchSession.view`.

    Attributes:
        kind: ``"move"`` (a turn move: ``move_kind`` says which), ``"signal"`` (a signal, seen by the signaller's
            partnership only: see :meth:`seen_by`), ``"deal"`` (a new deal started) or ``"player"`` (who plays a
            seat changed).
        seat: who acted (``None`` for a new deal).
        deal_number: the deal it happened in (1 for the first).
        move_kind: the move's kind name for ``"move"`` (``"play"``, ``"chant"``, ``"discard"``...; see
            :data:`aluette.moves.MOVE_KINDS`), else ``None``.
        by_bot: ``True`` when a bot made it.
    """

    kind: str
    seat: Optional[Seat]
    deal_number: int
    move_kind: Optional[str] = None
    by_bot: bool = False

    def seen_by(self, seat: Union[Seat, str]) -> bool:
        """Whether ``seat`` may be told of this event: a signal only within the signaller's partnership (decision
        ``signals-partner-only``, :func:`aluette.signals.seen_by`); everything else is public."""
        return self.kind != "signal" or seen_by(self.seat, Seat.parse(seat))


def make_bots(seed: int, opponents: str = "heuristic", signals: bool = True, *,
              partner_of: Union[Seat, str] = Seat.S) -> dict[Seat, object]:
    """The bots for a person at ``partner_of`` (default S): the partner is ``HeuristicBot(signals=signals)``, or an
    expert for ``opponents="expert"`` (a partner that plays as well as the opponents); the two opponents are the
    same or, for ``opponents="random"`` (``"expert"``), ``drivers.random_bot_at(seed, seat)``
    (``drivers.expert_bot_at``), so a match seed replays the whole match, random and expert bots included. With
    ``signals=False`` nobody signals (pagat advises learning the game without signals first).

    Raises:
        AluetteError: an unknown ``opponents`` (known: :data:`OPPONENTS`).
    """
    if opponents not in OPPONENTS:
        raise AluetteError(f"unknown opponents {quoted(opponents)}; known: {', '.join(OPPONENTS)}")
    you = Seat.parse(partner_of)
    partner = "expert" if opponents == "expert" else "heuristic"
    bots: dict[Seat, object] = {you.partner: make_bot(partner, you.partner, seed, signals=signals)}
    for seat in SEATS:
        if seat.team is not you.team:
            bots[seat] = make_bot(opponents, seat, seed, signals=signals)
    return bots


def _is_bot(player) -> bool:
    return callable(getattr(player, "choose", None)) and callable(getattr(player, "signals", None))


def _checked_players(players) -> dict[Seat, object]:
    table = Seat.parse_mapping(players, "player", all_four=True)  # "N" and "north" both given: refused
    for seat, player in table.items():
        if not isinstance(player, Person) and not _is_bot(player):
            raise AluetteError(f"the player of {seat} must be a Person or a bot (with choose(view, legal_moves) "
                               f"and signals(view, legal_signals)), got {quoted(player)}")
    return table


def check_bot_delay(delay) -> float:
    """``delay`` as a float if it is a pause the bots can take: a number of seconds from 0 to
    :data:`MAX_BOT_DELAY`.

    Raises:
        AluetteError: anything else (the message quotes it).
    """
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not math.isfinite(delay) \
            or not 0 <= delay <= MAX_BOT_DELAY:
        raise AluetteError(f"the bots' pause is a number of seconds from 0 to {MAX_BOT_DELAY:g}, got "
                           f"{quoted(delay)}")
    return float(delay)


class MatchSession:
    """A match and who plays each seat; see the module docstring.

    Args:
        match: the :class:`~aluette.match.Match` to play (the session plays it from where it is).
        players: ``{seat: Person or bot}`` for all four seats (any seat spelling, each seat once).
        bot_delay: the pause before each bot move, in seconds (0 to :data:`MAX_BOT_DELAY`); the session never
            sleeps: a driver reads :attr:`next_bot` and waits, or not.
        signals: whether signals are made in this match (``False``: nobody signals, and a person's signal is
            refused).

    Raises:
        AluetteError: a bad player mapping or pause; a bot's error or refused signal at the start (a bug of that bot).
    """

    def __init__(self, match: Match, players: Mapping[Union[Seat, str], object], *, bot_delay: float = 0.0,
                 signals: bool = True):
        if not isinstance(match, Match):
            raise AluetteError(f"a session plays an aluette.Match, got {quoted(match)}")
        self._players = _checked_players(players)
        self._bot_delay = check_bot_delay(bot_delay)
        self._match = match
        self._signals = bool(signals)
        self._signalled: set[int] = set()  # deal numbers whose bots' signal round was offered
        self._observers: list[Callable[[SessionEvent], None]] = []
        self._events: list[SessionEvent] = []
        self._settle()

    @classmethod
    def against_bots(cls, seed: int, *, opponents: str = "heuristic", options: Optional[Options] = None,
                     first_dealer: Union[Seat, str] = Seat.N, signals: bool = True, seat: Union[Seat, str] = Seat.S,
                     bot_delay: float = 0.0) -> "MatchSession":
        """A match from ``seed`` (a whole number: it seeds the deals and any random opponents) with a person at
        ``seat`` (this screen) and :func:`make_bots` at the three others.

        Raises:
            BadSeedError, AluetteError: a bad seed, options, opponents, seat or pause (nothing is made).
        """
        seed = check_seed(seed, N_("match seed"))
        you = Seat.parse(seat)
        match = Match(seed, options=Options.coerce(options), first_dealer=first_dealer)
        bots = make_bots(seed, opponents, signals, partner_of=you)
        return cls(match, {**bots, you: Person()}, bot_delay=bot_delay, signals=signals)

    # ----------------------------------------------------------------- state
    @property
    def match(self) -> Match:
        """The engine's match (omniscient: for the kernel side and tests; screens use :meth:`view`)."""
        return self._match

    @property
    def deal(self) -> Deal:
        """The current deal of :attr:`match` (omniscient, as :attr:`match`)."""
        return self._match.current

    @property
    def players(self) -> dict[Seat, object]:
        """``{seat: Person or bot}`` (a copy)."""
        return dict(self._players)

    @property
    def bots(self) -> dict[Seat, object]:
        """``{seat: bot}`` of the seats played by bots."""
        return {seat: p for seat, p in self._players.items() if not isinstance(p, Person)}

    @property
    def people(self) -> tuple[Seat, ...]:
        """The seats played by people, in N, E, S, W order."""
        return tuple(seat for seat in SEATS if isinstance(self._players[seat], Person))

    @property
    def signals(self) -> bool:
        """Whether signals are made in this match."""
        return self._signals

    @property
    def bot_delay(self) -> float:
        """The pause before each bot move, in seconds."""
        return self._bot_delay

    @bot_delay.setter
    def bot_delay(self, value: float) -> None:
        self._bot_delay = check_bot_delay(value)  # raises before anything changes

    @property
    def events(self) -> tuple[SessionEvent, ...]:
        """Every event of this session so far, in order."""
        return tuple(self._events)

    def view(self, seat: Union[Seat, str], *, events: bool = True) -> View:
        """What ``seat`` may see of the current deal (the engine's :meth:`Deal.view <aluette.deal.Deal.view>`;
        ``events=False`` leaves out the narrated history, faster): the only source of what a seat's screen shows."""
        return self._match.current.view(Seat.parse(seat), events=events)

    def chant_recipients(self) -> tuple[Seat, Seat]:
        """The two seats that receive the stock of the current deal if all four agree to the chant (public: from the
        dealer and the options; see :meth:`Deal.chant_recipients <aluette.deal.Deal.chant_recipients>`)."""
        return self._match.current.chant_recipients()

    def legal_signals(self, seat: Union[Seat, str]) -> list[str]:
        """The signal keys ``seat`` may make now (none in a match without signals); computed from ``seat``'s own
        hand and signals only."""
        return self._match.current.legal_signals(seat) if self._signals else []

    @property
    def next_bot(self) -> Optional[BotTurn]:
        """The bot to act next and the pause before it, or ``None`` when it is a person's turn or the deal is
        over (a new deal waits for :meth:`next_deal`)."""
        seat = self._match.current.to_move
        if seat is None or isinstance(self._players[seat], Person):
            return None
        return BotTurn(seat, self._bot_delay)

    def hint(self, seat: Union[Seat, str]) -> Optional[Decision]:
        """What :class:`~aluette.players.bots.HeuristicBot` (reading its partner's signals) would do at ``seat``, from
        ``seat``'s view only; ``None`` when it is not ``seat``'s turn."""
        view = self.view(seat)
        if view.to_move is not view.seat:
            return None
        return HeuristicBot(signals=True).choose(view)

    # ----------------------------------------------------------------- observers
    def observe(self, callback: Callable[[SessionEvent], None]) -> Callable[[], None]:
        """Call ``callback(event)`` after each change; returns a function that stops it."""
        if not callable(callback):
            raise AluetteError(f"an observer must be callable, got {quoted(callback)}")
        self._observers.append(callback)

        def stop() -> None:
            if callback in self._observers:
                self._observers.remove(callback)
        return stop

    def _tell(self, event: SessionEvent) -> None:
        self._events.append(event)
        for callback in list(self._observers):
            callback(event)

    # ----------------------------------------------------------------- people's moves
    def submit(self, seat: Union[Seat, str], move: Union[Move, list]) -> Move:
        """A person's move for ``seat``: the one entry point for people, here or at another device. Returns the
        move as the deal recorded it.

        ``move`` is a :class:`~aluette.moves.Move` or its JSON list (``["play", "S", "3O"]``). Checked in this
        order: ``seat`` is a seat played by a person; ``move`` is a move of ``seat``; a signal in a match with
        signals; then the engine's checks (turn, phase, card held...).

        Raises:
            UnknownSeatError: ``seat`` is not a seat. NotYourSeatError: a bot plays ``seat``, or ``move`` is another
            seat's. MalformedSaveError, AluetteError: not a move. BadSignalError: signals are off. The engine's
            errors (NotYourTurnError, WrongPhaseError, DealOverError, CardNotInHandError, BadDiscardError,
            BadSignalError). In every case the session is left exactly as it was.

        Once the engine accepted the move, the observers are told and the bots get their round of signals if the
        hands just became final; an error from an observer or a bot there is a bug, and propagates with the move
        applied.
        """
        seat = Seat.parse(seat)
        if not isinstance(self._players[seat], Person):
            raise NotYourSeatError(f"{seat} is played by a bot: no move is taken for it from outside", seat=seat)
        move = move_from_json(move) if isinstance(move, list) else checked_move(move)
        if move.seat is not seat:
            raise NotYourSeatError(f"a move for {move.seat} was sent for {seat}: each player moves for their own "
                                   f"seat only", seat=seat, move=move)
        if isinstance(move, Signal) and not self._signals:
            raise BadSignalError("signals are off in this match (a new match with signals turns them on)", seat=seat,
                                 move=move)
        deal = self._match.current
        deal.apply(move)  # the engine checks; raises and changes nothing
        recorded = deal.moves[-1] if not isinstance(move, Signal) else move
        self._after(seat, move, by_bot=False)
        return recorded

    def next_deal(self) -> Deal:
        """Start the next deal once the current one is over; returns it.

        Raises:
            WrongPhaseError: the current deal is not over. DealOverError: the match is over.
        """
        if self._match.is_over:
            raise DealOverError("the match is over: no further deal")
        deal = self._match.next_deal()
        self._tell(SessionEvent("deal", None, self._match.deal_number))
        self._settle()
        return deal

    def set_player(self, seat: Union[Seat, str], player) -> None:
        """Let ``player`` (a :class:`Person` or a bot) play ``seat`` from now on (a bot takes over from a person who
        left, or the other way round).

        Raises:
            UnknownSeatError, AluetteError: a bad seat or player (nothing changes).
        """
        seat = Seat.parse(seat)
        table = _checked_players({**self._players, seat: player})
        self._players = table
        self._tell(SessionEvent("player", seat, self._match.deal_number))
        self._settle()

    # ----------------------------------------------------------------- bots' moves
    def step(self) -> Decision:
        """Make the next bot move now (see :attr:`next_bot`); returns its decision.

        Raises:
            NotYourTurnError: no bot is to move (a person's turn, or the deal is over). IllegalMoveError,
            AluetteError: the bot's move is refused (a bug of that bot; the deal is left unchanged).
        """
        turn = self.next_bot
        if turn is None:
            deal = self._match.current
            who = "the deal is over" if deal.to_move is None else f"it is {deal.to_move}'s turn, a person"
            raise NotYourTurnError(f"no bot is to move: {who}")
        decision = play_turn(self._match.current, self._players[turn.seat])
        self._after(turn.seat, decision.move, by_bot=True)
        return decision

    def run_bots(self) -> list[Decision]:
        """Make every bot move due now, without pauses, until it is a person's turn or the deal is over."""
        made = []
        while self.next_bot is not None:
            made.append(self.step())
        return made

    # ----------------------------------------------------------------- after a change
    def _after(self, seat: Seat, move: Move, by_bot: bool) -> None:
        number = self._match.deal_number
        if isinstance(move, Signal):
            self._tell(SessionEvent("signal", seat, number, by_bot=by_bot))
        else:
            self._tell(SessionEvent("move", seat, number, move.kind.name, by_bot=by_bot))
        self._settle()

    def _settle(self) -> None:
        """Offer the bots their round of signals once the hands of the current deal are final."""
        deal = self._match.current
        number = self._match.deal_number
        if not self._signals or not signals_due(deal.phase, offered=number in self._signalled):
            return
        self._signalled.add(number)
        for decision in signal_round(deal, self.bots):  # all checked before any is applied
            self._tell(SessionEvent("signal", decision.seat, number, by_bot=True))

    # ----------------------------------------------------------------- a seat's port
    def seat_port(self, seat: Union[Seat, str], *, again: str = ""):
        """The :class:`~aluette.players.seat_port.SessionSeat` of ``seat`` (played by a person): what its screen reads and
        plays through (:class:`~aluette.players.seat_port.SeatPort`), driving the bots with their pauses; ``again``: what to
        do after the match, for the status line.

        Raises:
            UnknownSeatError: not a seat. NotYourSeatError: a bot plays ``seat``.
        """
        from .seat_port import SessionSeat  # the port module builds on this one
        seat = Seat.parse(seat)
        if not isinstance(self._players[seat], Person):
            raise NotYourSeatError(f"{seat} is played by a bot: it has no screen", seat=seat)
        return SessionSeat(self, seat, again=again)

    def __repr__(self) -> str:
        who = " ".join(f"{s}:{'person' if isinstance(p, Person) else 'bot'}" for s, p in self._players.items())
        return f"<MatchSession {who} deal {self._match.deal_number}>"
