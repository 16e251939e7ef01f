"""One student's seat at a shared table: the plain-Python controller behind the "play together" page (notebook 10).

A :class:`SeatController` talks to a :class:`~aluette.store.TableService` (the database every student's kernel
shares) for one seat: in the lobby it lists the tables, opens or creates one by name, takes a free seat (the
:class:`~aluette.store.SeatTicket` holds the seat code the student must keep) or comes back to a held seat with its
code; at the table it reads the seat's :class:`~aluette.store.SeatState` (the seat's own
:class:`~aluette.deal.View`, never another hand), submits the seat's moves through the table's log (each checked by
the engine, and refused if the table changed since the state it was chosen on), starts the next deal, and drives
the table's bots (any session of the table may: the log decides the order).

The controller never sleeps and has no event loop: a view calls :meth:`SeatController.refresh` when the process's
watcher of the table (:mod:`aluette.store.watch`) says the table changed (the widget of
:mod:`aluette.widgets.together`), or now and then without one, and redraws when it returns ``True``. The watcher
then drives the table's bots (:attr:`SeatController.drive_bots` is false); without one, the controller does.
Every refusal is an :class:`~aluette.errors.AluetteError` and leaves the controller as it was.
"""

from __future__ import annotations

import time
from typing import Callable, Optional, Union

from .players.bots import Decision, HeuristicBot
from .errors import (AluetteError, BadSeatCodeError, NoSuchTableError, SeatElsewhereError, SeatStoodInError,
                     TableError, quoted)
from .i18n import _
from .moves import Move
from .seats import SEATS, Seat, Team
from .players.seat_port import Observers, SeatFacts, seat_label
from .store import SeatState, SeatTicket, TableInfo, TableService, clean_table_name

__all__ = ["SeatController", "FULL_READ_EVERY"]

#: Seconds between two full reads of the seat's state when the log did not move (who sits where, who is connected,
#: and a seat the teacher gave to a bot, none of which writes to the log).
FULL_READ_EVERY = 2.0


class SeatController:
    """One seat at a shared table, for one student's page; see the module docstring.

    Args:
        service: the tables' database (default: a :class:`~aluette.store.TableService` on the default store, chosen
            by ``ALUETTE_DATABASE_URL`` or ``ALUETTE_DATA_DIR``).
        clock: seconds, for the full reads (tests may pass their own).
        student: what the page knows of its student (its browser session: see
            :meth:`TableService.take_seat <aluette.store.TableService.take_seat>`), so that one student holds one
            seat of a table; ``None`` (a script): no such check.

    Attributes (read-only): :attr:`ticket` (``None`` until seated), :attr:`state` (the seat's last state read),
    :attr:`info` (the table's seats in the lobby).
    """

    def __init__(self, service: Optional[TableService] = None, *, clock: Callable[[], float] = time.monotonic,
                 student: Optional[str] = None):
        self.service = service if service is not None else TableService()
        self._student = student
        self._clock = clock
        self._table: Optional[str] = None
        self._ticket: Optional[SeatTicket] = None
        self._state: Optional[SeatState] = None
        self._info: Optional[TableInfo] = None
        self._read_at = float("-inf")
        self._stood_in = False  # the teacher gave this seat to a bot: the seat's reads refused until it is given back
        self._observers = Observers()  # the seat's screen (SeatPort.observe), told after each change read
        #: make the bots' moves that are due on each refresh (true until a watcher of the table does it for the process)
        self.drive_bots = True

    # ------------------------------------------------------------------ read-only state
    @property
    def table(self) -> Optional[str]:
        """The name of the table opened, or ``None``."""
        return self._table

    @property
    def ticket(self) -> Optional[SeatTicket]:
        """The seat taken (with its code, to show to this student only), or ``None``."""
        return self._ticket

    @property
    def seat(self) -> Optional[Seat]:
        return None if self._ticket is None else self._ticket.seat

    @property
    def state(self) -> Optional[SeatState]:
        """The seat's state as last read (:meth:`refresh`), or ``None`` before a seat is taken."""
        return self._state

    @property
    def info(self) -> Optional[TableInfo]:
        """The opened table's seats as last read: who sits where, who is missing."""
        return self._state.info if self._state is not None else self._info

    @property
    def stood_in(self) -> bool:
        """The teacher gave this seat to a bot (:meth:`TeacherDesk.replace_with_bot
        <aluette.store.TeacherDesk.replace_with_bot>`): the seat's last read was refused, :attr:`state` is the one
        before; each :meth:`refresh` tries again, and the seat is back once the teacher gave it back (or
        :meth:`rejoin` with its code)."""
        return self._stood_in

    @property
    def is_host(self) -> bool:
        """This seat is the table's first player (who may fill the empty seats with bots)."""
        info = self.info
        return self._ticket is not None and info is not None and info.host is self._ticket.seat

    # ------------------------------------------------------------------ the lobby
    def table_names(self) -> list[str]:
        """The open tables' names, oldest first."""
        return self.service.table_names()

    def open_table(self, name: str, *, create: bool = True, draw: bool = True, face_down: bool = True) -> TableInfo:
        """Open table ``name`` (created, with a fresh secret seed and the default rules, if it does not exist and
        ``create``; ``draw``: a table created here seats four people by the partnership draw; ``face_down``: its
        pages stack the completed tricks face down, as at the sources' table). A seated student cannot open another
        table.

        Raises:
            TableError: a bad name, or already seated. NoSuchTableError: no such table and ``create`` is false.
        """
        self._check_not_seated()
        name = clean_table_name(name)
        try:
            info = self.service.table_info(name)
        except NoSuchTableError:
            if not create:
                raise
            try:
                info = self.service.create_table(name, draw=draw, face_down=face_down)
            except TableError:  # another student created it at the same moment
                info = self.service.table_info(name)
        self._table, self._info = info.name, info
        return info

    def take_seat(self, seat: Union[Seat, str], player: str) -> SeatTicket:
        """Take ``seat`` at the opened table as ``player``.

        Raises:
            TableError: no table opened, or already seated. SeatTakenError: the seat is held, or this student holds
            another seat of the table (the lobby is re-read).
        """
        self._check_not_seated()
        name = self._opened()
        try:
            ticket = self.service.take_seat(name, seat, player, student=self._student)
        except AluetteError:
            self._info = self.service.table_info(name)
            raise
        self._seated(ticket)
        return ticket

    def rejoin(self, code: str, name: Optional[str] = None) -> SeatTicket:
        """Come back to one's seat with its seat code (at table ``name``, default the opened one).

        Raises:
            BadSeatCodeError: not a code of that table's players. NoSuchTableError. TableError: already seated.
        """
        if not self._stood_in:  # a seat a bot stands in for: its student comes back to it with its code
            self._check_not_seated()
        name = clean_table_name(name) if name is not None else self._opened()
        ticket = self.service.rejoin(name, code, student=self._student)
        self._table = ticket.table
        self._stood_in = False
        self._seated(ticket)
        return ticket

    def fill_with_bots(self, kind: str = "heuristic") -> tuple[Seat, ...]:
        """The host fills every empty seat with a bot of ``kind`` (``"heuristic"`` or ``"expert"``,
        :meth:`TableService.fill_with_bots <aluette.store.TableService.fill_with_bots>`); returns the seats filled.

        Raises:
            TableError: not seated, not the host, or an unknown ``kind``.
        """
        ticket = self._seated_ticket()
        filled = self.service.fill_with_bots(ticket.table, ticket.seat, ticket.code, kind=kind,
                                             session=ticket.session)
        self.refresh(force=True)
        return filled

    # ------------------------------------------------------------------ the match
    def submit(self, move: Union[Move, list]) -> int:
        """Make this seat's ``move`` (checked against the state it was chosen on, :attr:`state`), then let the bots
        answer; returns the move's log number.

        Raises:
            TableError: not seated. StaleStateError: the table changed since (the state is re-read: look again).
            The engine's IllegalMoveError s.
        """
        ticket = self._seated_ticket()
        after = self._state.seq if self._state is not None else None
        try:
            seq = self.service.submit(ticket.table, ticket.seat, ticket.code, move, after=after, session=ticket.session)
        except AluetteError:
            self.refresh(force=True)
            raise
        self.refresh(force=True)
        return seq

    def next_deal(self) -> int:
        """Start the next deal once this one is over; returns the log number.

        Raises:
            WrongPhaseError: the deal is not over (or another player started the next one: the state is re-read).
            DealOverError: the match is over.
        """
        ticket = self._seated_ticket()
        try:
            seq = self.service.next_deal(ticket.table, ticket.seat, ticket.code, session=ticket.session)
        except AluetteError:
            self.refresh(force=True)
            raise
        self.refresh(force=True)
        return seq

    def hint(self) -> Optional[Decision]:
        """What :class:`~aluette.players.bots.HeuristicBot` (reading signals) would do at this seat, from its view only;
        ``None`` when it is not this seat's turn.

        Raises:
            TableError: not seated, or the table does not allow hints.
        """
        self._seated_ticket()
        state = self._state
        if not state.info.settings.get("hints", True):
            raise TableError(f"table {quoted(state.info.name)} does not allow hints")
        view = state.view
        if view.to_move is not view.seat:
            return None
        return HeuristicBot(signals=bool(state.info.settings.get("signals", True))).choose(view)

    def refresh(self, force: bool = False, *, seq: Optional[int] = None) -> bool:
        """Read what changed: in the lobby, the table's seats; when seated, the seat's state if the log moved (or
        while a seat is empty, every :data:`FULL_READ_EVERY` seconds, or with ``force``), and the bots' moves that
        are due (made here, through the table's log, when :attr:`drive_bots`). ``seq``: the table's last log number
        as the table's watcher just read it; then nothing is read unless it is past the state's (or ``force``).
        Returns ``True`` when something changed (the view redraws)."""
        if self._ticket is None:
            if self._table is None:
                return False
            info = self.service.table_info(self._table)
            changed = info != self._info
            self._info = info
            return changed
        ticket = self._ticket
        if self._stood_in:  # nothing else to read until the seat is given back: try each time
            force = True
        if seq is not None and not force and self._state is not None and seq <= self._state.seq:
            return False
        now = self._clock()
        if (seq is None and not force and self._state is not None and self._state.info.ready
                and now - self._read_at < FULL_READ_EVERY):
            if self.service.seq(ticket.table) == self._state.seq:
                return False
        before = self._state
        try:
            state = self._read(ticket, seq)
        except SeatStoodInError:
            if self._stood_in:
                return False
            self._stood_in = True
            self._observers.tell("seats")
            return True
        was_stood_in, self._stood_in = self._stood_in, False
        if self.drive_bots and state.info.ready and not state.info.closed and self._bot_due(state):
            if self.service.run_bots(ticket.table):
                state = self._read(ticket)
        self._state = state
        changed = before is None or state != before or was_stood_in
        if changed:
            self._tell(before, state)
        return changed

    # ------------------------------------------------------------------ the seat's port (aluette.players.seat_port.SeatPort)
    def view(self, *, events: bool = True):
        """The seat's :class:`~aluette.deal.View` as last read (the only source of what its screen shows).

        Raises:
            TableError: not seated.
        """
        self._seated_ticket()
        return self._state.view

    def facts(self) -> SeatFacts:
        """The match around the seat's deal, as last read (public: deal number, scores, who plays each seat)."""
        self._seated_ticket()
        state = self._state
        info, you = state.info, state.seat
        players = {}
        for seat in SEATS:
            held = info.seats[seat]
            players[seat] = seat_label(seat, you, _("a bot") if held.kind == "bot" else (held.player
                                                                                        or _("nobody yet")))
        return SeatFacts(seat=you, deal_number=state.deal_number, options=info.options, scores=dict(state.scores),
                         is_over=state.is_over, winner=state.winner, awaiting_next_deal=state.awaiting_next_deal,
                         players=players, signals=bool(info.settings.get("signals", True)),
                         hints=bool(info.settings.get("hints", True)),
                         next_deal_by=_("Any player presses Next deal."), target=state.target)

    def legal_signals(self) -> list[str]:
        """The signals this seat may make now (from its own hand and signals only), as last read."""
        self._seated_ticket()
        return list(self._state.legal_signals) if self.facts().signals else []

    def score_sheet(self):
        """The points of each finished deal and the running totals, as a pandas DataFrame (public)."""
        import pandas as pd  # only a screen asks for it
        self._seated_ticket()
        rows = [{"deal": n, "NS": p[Team.NS], "EW": p[Team.EW]}
                for n, p in enumerate(self._state.deal_points, start=1)]
        sheet = pd.DataFrame(rows, columns=["deal", "NS", "EW"]).set_index("deal")
        sheet["NS total"], sheet["EW total"] = sheet["NS"].cumsum(), sheet["EW"].cumsum()
        return sheet

    def observe(self, callback: Callable[[frozenset], None]) -> Callable[[], None]:
        """Call ``callback(kinds)`` after each change :meth:`refresh` read (``"move"``, ``"deal"`` or ``"seats"``);
        returns a function that stops it."""
        return self._observers.add(callback)

    def _tell(self, before: Optional[SeatState], state: SeatState) -> None:
        if before is not None and before.deal_number != state.deal_number:
            self._observers.tell("deal")
        elif before is None or before.seq != state.seq:
            self._observers.tell("move")
        else:
            self._observers.tell("seats")

    # ------------------------------------------------------------------ inside
    def _read(self, ticket: SeatTicket, seq: Optional[int] = None) -> SeatState:
        try:
            state = self.service.seat_state(ticket.table, ticket.seat, ticket.code, known_seq=seq,
                                            session=ticket.session)
        except SeatElsewhereError:  # the seat was opened on another device: this page leaves it (back to the lobby)
            self._ticket, self._state = None, None
            self._observers.tell("left")
            raise
        except SeatStoodInError:  # the teacher gave the seat to a bot: refresh says so
            raise
        except BadSeatCodeError:  # the partnership draw may have seated this player elsewhere: their code says where
            moved = self.service.rejoin(ticket.table, ticket.code)
            if moved.seat is ticket.seat:
                raise
            self._ticket = ticket = moved
            state = self.service.seat_state(ticket.table, ticket.seat, ticket.code, session=ticket.session)
        self._read_at = self._clock()
        return state

    @staticmethod
    def _bot_due(state: SeatState) -> bool:
        """A bot sits at the table, so it may have something to do (its signals of this deal, its turn, or at a table
        of bots a new deal): :meth:`TableService.step_bots <aluette.store.TableService.step_bots>` says."""
        return any(state.info.seats[s].kind == "bot" for s in SEATS)

    def _seated(self, ticket: SeatTicket) -> None:
        self._ticket = ticket
        self._state = None
        self.refresh(force=True)

    def _opened(self) -> str:
        if self._table is None:
            raise TableError("open a table first: type or pick its name")
        return self._table

    def _seated_ticket(self) -> SeatTicket:
        if self._ticket is None:
            raise TableError("take a seat first (or come back to yours with its seat code)")
        return self._ticket

    def _check_not_seated(self) -> None:
        if self._ticket is not None:
            raise TableError(f"you sit at {self._ticket.seat} at table {quoted(self._ticket.table)} already; "
                             f"reload the page to sit elsewhere")

    def __repr__(self) -> str:
        where = "no table" if self._table is None else f"table {self._table!r}"
        return f"<SeatController {where} seat {self.seat}>"
