"""A player at a shared table driven by :class:`~aluette.players.bots.HeuristicBot` through the same calls a person's page
makes (:meth:`TableService.seat_state`, :meth:`~TableService.submit`, :meth:`~TableService.next_deal`), for the
tests and the load benchmark."""

from __future__ import annotations

from typing import Optional

from aluette.players.bots import HeuristicBot
from aluette.players.drivers import signals_due
from aluette.errors import IllegalMoveError
from aluette.store import SeatState, SeatTicket, TableService


class BotPlayer:
    """One seat's player: reads its own seat's state only, and acts when it is its turn.

    Like notebook 08's partner, it makes its signals once per deal, the first time it sees the hands final: the one
    policy of every bot driver, :func:`aluette.players.drivers.signals_due`.
    """

    def __init__(self, service: TableService, ticket: SeatTicket, signals: bool = True):
        self.service, self.ticket = service, ticket
        self.bot = HeuristicBot(signals=signals, name=str(ticket.seat))
        self._signalled: set[int] = set()

    def state(self) -> SeatState:
        t = self.ticket
        return self.service.seat_state(t.table, t.seat, t.code)

    def act(self, state: Optional[SeatState] = None) -> list[int]:
        """The moves this seat makes now (none when it is not its turn); returns their log numbers. A move refused
        because another player's page started the next deal first is not an error."""
        t, svc = self.ticket, self.service
        state = self.state() if state is None else state
        view = state.view
        made = []
        if state.is_over:
            return made
        if state.awaiting_next_deal:
            try:
                made.append(svc.next_deal(t.table, t.seat, t.code))
            except IllegalMoveError:
                pass  # another player started it
            return made
        if signals_due(view.phase, offered=state.deal_number in self._signalled):
            self._signalled.add(state.deal_number)
            for decision in self.bot.signals(view, state.legal_signals):
                made.append(svc.submit(t.table, t.seat, t.code, decision.move))
            if made:
                return made
        if view.to_move is t.seat:
            decision = self.bot.choose(view)
            made.append(svc.submit(t.table, t.seat, t.code, decision.move, after=state.seq))
        return made



def play_with_table_bots(service: TableService, name: str, seat: str = "N", *, until=None,
                         limit: int = 3000) -> SeatState:
    """Seat a person at ``seat`` of table ``name`` (a :class:`BotPlayer`, driven as a page is), fill the other
    seats with the table's bots (``step_bots``), and play until ``until(state)`` holds (default: the match is over)
    or ``limit`` rounds; returns the person's last state."""
    ticket = service.take_seat(name, seat, "Ann")
    service.fill_with_bots(name, seat, ticket.code)
    me = BotPlayer(service, ticket)
    until = until or (lambda s: s.is_over)
    for _ in range(limit):
        service.run_bots(name)
        state = me.state()
        if until(state):
            return state
        me.act(state)
    raise AssertionError(f"table {name!r} did not get there in {limit} rounds")
