"""Best play, all hands open, in words: the questions a curious player asks of a position (issue 18 §3).

:func:`best_play` solves a position with every hand open (:func:`aluette.solve`) and answers, beside the value of
each playable card and a line of best play:

* "can North make mordienne from here?": :attr:`BestPlay.mordienne` (each seat, its partner helping, whatever the
  other partnership plays; :func:`aluette.analysis.can_make_mordienne`);
* "is this deal won for N-S whatever E-W do?": :meth:`BestPlay.won_for` (the partnership scores under best play by
  both sides, so whatever the other side plays).

This is hindsight, not advice a player could follow: it sees every card. Show it only where every hand is open
anyway (notebook 09's scenario builder, a deal that is over), never for a live deal of one seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Optional, Union

from ..card_names import seat_name
from ..cards import Card
from ..i18n import _
from ..moves import Play
from ..seats import SEATS, Seat, Team
from .solver import Solution, _check_budget, _check_phase, _position, can_make_mordienne, solve

__all__ = ["BestPlay", "best_play", "result_text"]


def result_text(value: int) -> str:
    """The result a value stands for, in words: ``"N-S score 2"``, ``"E-W score 1"``, ``"nobody scores"``."""
    if value == 0:
        return _("nobody scores")
    return (_("N-S score {points}") if value > 0 else _("E-W score {points}")).format(points=abs(value))


@dataclass(frozen=True, repr=False)
class BestPlay:
    """A position solved with every hand open, and the answers to a curious player's questions (:func:`best_play`)."""

    solution: Solution
    """The solver's answer: the value, each legal card's value, a line of best play."""

    mordienne: Mapping[Seat, bool]
    """For each seat, whether it can make mordienne from here whatever the other partnership plays, its partner
    helping (all ``False`` when mordienne is off)."""

    cards_down: int = 0
    """Cards of the trick under way already on the table (0 at a lead): where :meth:`line_text` ends a trick."""

    @property
    def value(self) -> int:
        """N-S points minus E-W points under best play by both sides."""
        return self.solution.value

    def won_for(self, team: Union[Team, str]) -> bool:
        """Whether ``team`` scores whatever the other partnership plays (its own players playing their best): the
        question "is this deal won for N-S whatever E-W do?"."""
        team = Team(team)
        return self.value > 0 if team is Team.NS else self.value < 0

    @property
    def cards(self) -> tuple[tuple[Card, int, int], ...]:
        """``(card, value, cost)`` for each playable card of the seat to move, high to low: the value after playing
        it (best play after), and the points of the difference it gives away (0: a best card)."""
        solution = self.solution
        return tuple((card, value, solution.cost(card)) for card, value in solution.by_card.items())

    def line_text(self) -> str:
        """The line of best play, trick by trick: ``"S 12E, W 3B, N 8C, E 7C / S 1O, ..."`` (the "no offer"
        answers of the surrender question between tricks left out)."""
        plays = [move for move in self.solution.line if isinstance(move, Play)]
        first = self.cards_down
        tricks, current = [], []
        for k, move in enumerate(plays):
            current.append(f"{move.seat} {move.card}")
            if (first + k + 1) % 4 == 0:
                tricks.append(", ".join(current))
                current = []
        if current:
            tricks.append(", ".join(current))
        return " / ".join(tricks)

    def answers(self) -> list[str]:
        """The answers in sentences: the result with best play, each partnership's "won whatever the others do",
        and each seat's "can make mordienne from here"."""
        out = [_("With best play by both sides: {result}.").format(result=result_text(self.value))]
        for team, question in ((Team.NS, _("Is this deal won for N-S whatever E-W do?")),
                               (Team.EW, _("Is this deal won for E-W whatever N-S do?"))):
            out.append(question + " " + (_("Yes") if self.won_for(team) else _("No")) + ".")
        for seat in SEATS:
            out.append(_("Can {seat} make mordienne from here?").format(seat=seat_name(seat)) + " "
                       + (_("Yes") if self.mordienne[seat] else _("No")) + ".")
        return out

    def __repr__(self) -> str:
        makers = "".join(str(s) for s in SEATS if self.mordienne[s]) or "nobody"
        return f"<BestPlay {result_text(self.value)}; mordienne possible for {makers}; {self.solution!r}>"


def best_play(position: Any, *, max_nodes: Optional[int] = None) -> BestPlay:
    """Solve ``position`` with every hand open and answer the questions of the module docstring (a
    :class:`BestPlay`). ``position`` and ``max_nodes`` as for :func:`aluette.solve` (``max_nodes`` bounds each of
    the five searches: the value and one per seat's mordienne). The deal is only read.

    Raises:
        as :func:`aluette.solve` (SearchBudgetError when a search is not decided within ``max_nodes``).
    """
    view = _position(position)
    budget = _check_budget(max_nodes)
    _check_phase(view)
    solution = solve(view, max_nodes=budget)
    mordienne = {seat: can_make_mordienne(view, seat, max_nodes=budget) for seat in SEATS}
    return BestPlay(solution, MappingProxyType(mordienne), len(view.trick))
