"""A player at a shared table driven by :class:`~aluette.bots.HeuristicBot` through the same calls a person's page
makes (:meth:`TableService.seat_state`, :meth:`~TableService.submit`, :meth:`~TableService.next_deal`), for the
tests and the load benchmark."""

from __future__ import annotations

from typing import Optional

from aluette.bots import HeuristicBot
from aluette.deal import Phase
from aluette.errors import IllegalMoveError
from aluette.store import SeatState, SeatTicket, TableService

_HANDS_FINAL = (Phase.SURRENDER, Phase.ANNOUNCE, Phase.PLAY)


class BotPlayer:
    """One seat's player: reads its own seat's state only, and acts when it is its turn.

    Like notebook 08's partner, it makes its signals once per deal, the first time it sees the hands final.
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
        if view.phase in _HANDS_FINAL and state.deal_number not in self._signalled:
            self._signalled.add(state.deal_number)
            for decision in self.bot.signals(view, state.legal_signals):
                made.append(svc.submit(t.table, t.seat, t.code, decision.move))
            if made:
                return made
        if view.to_move is t.seat:
            decision = self.bot.choose(view)
            made.append(svc.submit(t.table, t.seat, t.code, decision.move, after=state.seq))
        return made

