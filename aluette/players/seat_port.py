"""A seat at a table, as a screen sees it: the :class:`SeatPort` protocol, and the local match's port.

One view draws a seat at a table (:class:`aluette.widgets.seat_table.SeatTable`), whoever plays the other seats and
wherever the match lives. It asks its port, and nothing else:

* :meth:`SeatPort.view`: the seat's :class:`~aluette.deal.View` (its own hand, the cards played, the public answers,
  its partnership's signals; never another seat's hidden card), and :meth:`SeatPort.facts`: the match around the
  deal (:class:`SeatFacts`: deal number, scores, who plays each seat, what the table allows), also public;
* :meth:`SeatPort.legal_signals`: the signals the seat may make now (the legal moves are the engine's, in the view);
* :meth:`SeatPort.submit` ``(move)``, :meth:`SeatPort.next_deal`: the seat's moves, checked by the engine (a refusal
  raises an :class:`~aluette.errors.AluetteError` and changes nothing);
* :meth:`SeatPort.hint`: what the heuristic bot would do in the seat's place, from its view only;
* :meth:`SeatPort.observe` ``(callback)``: ``callback(kinds)`` after each change (a set of words: ``"move"``,
  ``"signal"``, ``"deal"``, ``"player"``, ``"seats"``, ``"error"``), never a card.

Two ports: :class:`SessionSeat`, one seat of a local :class:`~aluette.players.session.MatchSession` (notebook 08), which also
drives the session's bots with their pauses on the running asyncio loop (one timer at a time; at once without a
loop or pause, so the state never depends on a timer), and :class:`aluette.together.SeatController`, a seat at a
shared table (notebook 10), whose other seats' moves arrive when its page polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import traceback
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Protocol, runtime_checkable

from .protocol import Decision
from ..deal import View
from ..errors import AluetteError, quoted
from ..i18n import _
from ..options import Options
from ..seats import SEATS, Seat, Team

__all__ = ["SeatPort", "SeatFacts", "SessionSeat", "player_label"]


@dataclass(frozen=True)
class SeatFacts:
    """The match around a seat's deal, all public (what a screen shows beside the view).

    Attributes:
        seat: whose seat. deal_number: 1 for the first deal. options: the rules.
        scores: ``{Team: points}`` so far. is_over: the match is over. winner: the winning partnership (``None``
            while playing or when drawn). awaiting_next_deal: the deal is over and the match is not.
        players: ``{seat: who plays it}`` in words (``"you"``, ``"a bot"``, a name).
        signals: whether signals are made. hints: whether hints are allowed.
        bots_pending: a bot's move is scheduled (after its pause).
        next_deal_by: who starts the next deal, in words for the status line.
        again: what to do after the match (``""`` when the page has nothing to offer).
        target: the points that end the match now (:attr:`aluette.match.Match.target`: a five-deal match extended by
            an announcement of mordienne plays to 10), ``None`` for a match of ``options.match_deals`` deals.
    """

    seat: Seat
    deal_number: int
    options: Options
    scores: Mapping[Team, int]
    is_over: bool
    winner: Optional[Team]
    awaiting_next_deal: bool
    players: Mapping[Seat, str]
    signals: bool = True
    hints: bool = True
    bots_pending: bool = False
    next_deal_by: str = "Press Next deal."
    again: str = ""
    target: Optional[int] = None


@runtime_checkable
class SeatPort(Protocol):
    """What a seat's screen needs of its table; see the module docstring."""

    @property
    def seat(self) -> Optional[Seat]: ...

    def view(self, *, events: bool = True) -> View: ...

    def facts(self) -> SeatFacts: ...

    def legal_signals(self) -> list[str]: ...

    def submit(self, move) -> object: ...

    def next_deal(self) -> object: ...

    def hint(self) -> Optional[Decision]: ...

    def score_sheet(self): ...

    def observe(self, callback: Callable[[frozenset], None]) -> Callable[[], None]: ...


def seat_label(seat: Seat, you: Seat, who: str) -> str:
    """``seat`` as seen from ``you``'s seat, played by ``who`` (words: ``"a heuristic bot"``, a name): ``"you"``,
    ``"your partner, <who>"`` or ``"an opponent, <who>"``, in the page's language."""
    if seat is you:
        return _("you")
    return (_("your partner, {who}") if seat is you.partner else _("an opponent, {who}")).format(who=who)


def player_label(seat: Seat, you: Seat, player) -> str:
    """Who plays ``seat`` as seen from ``you``'s seat, in words: ``"you"``, ``"your partner, a heuristic bot"``,
    ``"an opponent, a random bot"``, or a person's name (:func:`seat_label`)."""
    if hasattr(player, "choose"):
        kind = type(player).__name__
        what = (_("a random bot") if kind == "RandomBot" else _("an expert bot") if kind == "ExpertBot"
                else _("a heuristic bot"))
    else:
        what = getattr(player, "name", None) or _("a person")
    return seat_label(seat, you, what)


class Observers:
    """The observers of a port, told once per change however many events it made (``batch``)."""

    def __init__(self):
        self._callbacks: list[Callable[[frozenset], None]] = []
        self._depth = 0
        self._kinds: set[str] = set()

    def add(self, callback: Callable[[frozenset], None]) -> Callable[[], None]:
        if not callable(callback):
            raise AluetteError(f"an observer must be callable, got {quoted(callback)}")
        self._callbacks.append(callback)

        def stop() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)
        return stop

    def tell(self, *kinds: str) -> None:
        self._kinds.update(kinds)
        if not self._depth:
            self._flush()

    @contextlib.contextmanager
    def batch(self):
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                self._flush()

    def _flush(self) -> None:
        if not self._kinds:
            return
        kinds, self._kinds = frozenset(self._kinds), set()
        for callback in list(self._callbacks):
            callback(kinds)


def _running_loop() -> Optional[asyncio.AbstractEventLoop]:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class SessionSeat:
    """One seat of a local :class:`~aluette.players.session.MatchSession`, as a :class:`SeatPort`; made by
    :meth:`MatchSession.seat_port <aluette.players.session.MatchSession.seat_port>`.

    It also drives the session's bots: after each move of the seat (and at :meth:`start`), the bot moves the session
    says are due (:attr:`~aluette.players.session.MatchSession.next_bot`) are made at once when there is no pause or no
    running asyncio loop, else one per ``loop.call_later(pause)``, so the kernel keeps handling clicks between bot
    moves. :meth:`close` cancels the pending timer (a replaced match's timer then does nothing). An exception in a
    timer's move (a bug) is kept in :attr:`internal_errors` (kernel side only: it may name hidden cards) and told as
    ``"error"``.

    Args:
        session: the match session. seat: the person's seat. again: what to do after the match (status line).
    """

    def __init__(self, session, seat: Seat, *, again: str = ""):
        self.session = session
        self._seat = Seat.parse(seat)
        self._again = again
        self._observers = Observers()
        self._timer: Optional[asyncio.TimerHandle] = None
        self._closed = False
        self.internal_errors: list[str] = []
        self._stop = session.observe(self._on_event)

    @property
    def seat(self) -> Seat:
        return self._seat

    # ------------------------------------------------------------------ what the seat may see
    def view(self, *, events: bool = True) -> View:
        return self.session.view(self._seat, events=events)

    def facts(self) -> SeatFacts:
        match = self.session.match
        players = self.session.players
        return SeatFacts(seat=self._seat, deal_number=match.deal_number, options=match.options,
                         scores=dict(match.scores), is_over=match.is_over, winner=match.winner,
                         awaiting_next_deal=match.awaiting_next_deal,
                         players={s: player_label(s, self._seat, players[s]) for s in SEATS},
                         signals=self.session.signals, hints=True, bots_pending=self._timer is not None,
                         next_deal_by=_("Press Next deal."), again=self._again, target=match.target)

    def legal_signals(self) -> list[str]:
        return self.session.legal_signals(self._seat)

    def hint(self) -> Optional[Decision]:
        return self.session.hint(self._seat)

    def score_sheet(self):
        return self.session.match.score_sheet()

    def observe(self, callback: Callable[[frozenset], None]) -> Callable[[], None]:
        return self._observers.add(callback)

    # ------------------------------------------------------------------ the seat's moves, then the bots
    def submit(self, move):
        with self._observers.batch():
            recorded = self.session.submit(self._seat, move)  # raises and changes nothing when refused
            self._drive()
        return recorded

    def next_deal(self):
        with self._observers.batch():
            deal = self.session.next_deal()
            self._drive()
        return deal

    def start(self) -> None:
        """Make (or schedule) the bot moves due now: at the start of a match, or after a player changed."""
        with self._observers.batch():
            self._drive()

    def run_bots(self) -> None:
        """Make every bot move due now, without the pauses."""
        self._cancel_timer()
        with self._observers.batch():
            self._drive(delay=0.0)

    @property
    def waiting_for_bots(self) -> bool:
        """A bot's move is scheduled."""
        return self._timer is not None

    def close(self) -> None:
        """Cancel the pending bot move and stop observing the session."""
        self._closed = True
        self._cancel_timer()
        self._stop()

    # ------------------------------------------------------------------ inside
    def _on_event(self, event) -> None:
        if event.seen_by(self._seat):
            self._observers.tell(event.kind)

    def _drive(self, delay: Optional[float] = None) -> None:
        session = self.session
        while not self._closed and (turn := session.next_bot) is not None:
            pause = turn.delay if delay is None else delay
            loop = _running_loop() if pause > 0 else None
            if loop is not None:
                self._cancel_timer()
                self._timer = loop.call_later(pause, self._bot_step)
                self._observers.tell("seats")  # the status says the bots are thinking
                return
            session.step()

    def _bot_step(self) -> None:
        self._timer = None
        if self._closed:
            return
        try:
            with self._observers.batch():
                if self.session.next_bot is not None:
                    self.session.step()
                self._drive()
                self._observers.tell("seats")
        except Exception:  # a bug: say so rather than lose it in the event loop's log
            self.internal_errors.append(traceback.format_exc())
            self._observers.tell("error")

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def __repr__(self) -> str:
        return f"<SessionSeat {self._seat} of {self.session!r}>"
