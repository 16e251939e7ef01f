"""What a bot is: what it is given and what it returns. The bots are in :mod:`aluette.players.bots`, the code that asks
them for moves and applies those moves in :mod:`aluette.players.drivers`.

A bot is given a :class:`~aluette.records.View` of its own seat (``deal.view(seat)``), never the
:class:`~aluette.deal.Deal`: it cannot see another seat's hidden cards because it is never given them. It answers
with :class:`Decision` s, each a move and a one-line ``reason`` a notebook can show:

* ``bot.choose(view, legal_moves)``, when its seat is to move: one :class:`Decision` whose move is one of
  ``legal_moves`` (the seat's legal moves, signals aside, in the order of :meth:`Deal.legal_moves`);
* ``bot.signals(view, legal_signals)``, once the hands are final: the :class:`Decision` s of the
  :class:`~aluette.moves.Signal` s it makes now, chosen among ``legal_signals`` (the keys of
  :meth:`Deal.legal_signals`), an empty list for none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

from ..errors import AluetteError
from ..moves import Move
from ..records import View
from ..seats import Seat

__all__ = ["Decision", "Bot", "own_seat"]


@dataclass(frozen=True)
class Decision:
    """A bot's choice: the move and why, in one line.

    Attributes:
        move: the :class:`~aluette.moves.Move` (a :class:`~aluette.moves.Signal` for a signal).
        reason: one line for people (``"4th: 2E (Deux d'écrit) is the cheapest card that beats N's 1O (ace of coins)
            (pagat.com)"``).
    """

    move: Move
    reason: str

    @property
    def seat(self) -> Seat:
        """The seat that made the move."""
        return self.move.seat

    def __str__(self) -> str:
        return f"{self.move}: {self.reason}"


@runtime_checkable
class Bot(Protocol):
    """What :func:`aluette.players.drivers.play_deal` needs of a player.

    ``choose(view, legal_moves)`` gets the view of the seat to move (``view.seat``) and the legal moves (signals
    aside), and returns a :class:`Decision` whose move is one of them. ``signals(view, legal_signals)`` gets the
    keys of the signals the seat may make now (:meth:`Deal.legal_signals`) and returns the signals it makes, as
    :class:`Decision` s of :class:`~aluette.moves.Signal` moves (an empty list for none).
    """

    def choose(self, view: View, legal_moves: Sequence[Move]) -> Decision: ...

    def signals(self, view: View, legal_signals: Sequence[str]) -> list[Decision]: ...


def own_seat(view: View) -> Seat:
    """The seat whose view ``view`` is: what a bot decides for.

    Raises:
        AluetteError: ``view`` is not one seat's view (the omniscient view, a deal, anything else).
    """
    if not isinstance(view, View) or view.seat is None:
        raise AluetteError("a bot decides from the view of its own seat: pass deal.view(seat), not the omniscient "
                           "view or the deal")
    return view.seat
