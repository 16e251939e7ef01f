"""Puzzles: positions of seeded deals where one card is clearly right, proved by the solver (issue 18 §4).

A puzzle is data (:class:`Puzzle`): a seeded deal (``Deal.from_seed(seed, dealer=..., options=Options(chant=False))``),
the cards played to reach the position, the seat to move, the answer (the cards of the one ranking class that keeps
the best result: cards of one class are equal) and the result of every other card, all worse, and the rule that
decides it. :func:`aluette.analysis.puzzle_maker.find_puzzles` makes them from seeded deals played by four
heuristic bots (the positions from :data:`FROM_TRICK` on, where the solver is fast; it lives in a module of its own
so that this one, read by the puzzles lesson's practice, stands on the game and the solver only, never on the
players); :func:`verify` proves one again with :func:`aluette.solve`. :data:`SHIPPED` are the puzzles this package
ships, written by ``python -m aluette.analysis.puzzle_maker`` and re-verified by the tests.

The rule named (:attr:`Puzzle.reason`), the first that applies, read from the answer and the line of best play:

* ``"mordienne"``: the answer makes or stops a mordienne (best play ends in one for the mover's side, or some other
  card lets the other side make one);
* ``"spoiling"``: the answer ties the best card on the table, so nobody wins the trick (the rules sheet, "gameplay");
* ``"playing last"``: the mover plays the trick's fourth card and the answer wins it, knowing every other card of
  the trick (the rules sheet's advantage of playing last);
* ``"first to reach"``: best play ends in a tie for the most tricks decided by who reached the number first (the
  rules sheet, "scoring");

a position whose answer none of these explains is not made a puzzle. Puzzles are shown with every hand open (the
solver sees them all): the answer is right against best play by everyone, which a player at the table could not
know; a puzzle says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..deal import Deal
from ..options import Options
from .solver import Solution, solve

__all__ = ["Puzzle", "REASONS", "FROM_TRICK", "SHIPPED", "verify", "position", "puzzle_at"]

#: The rules a puzzle's answer may rest on, in the order they are tried.
REASONS = ("mordienne", "spoiling", "playing last", "first to reach")

#: The first trick whose positions may become puzzles (earlier ones are dear to solve).
FROM_TRICK = 6

_OPTIONS = Options(chant=False)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position of a seeded deal, its answer and why."""

    seed: int
    """The deal: ``Deal.from_seed(seed, dealer=dealer, options=Options(chant=False))``."""
    dealer: str
    plays: tuple[str, ...]
    """The cards played to reach the position, in order: ``"E 3O"`` (seat and card code)."""
    to_move: str
    """The seat to move."""
    answer: tuple[str, ...]
    """The cards of the one class that keeps the best result (any of them is right)."""
    value: int
    """N-S points minus E-W points after the answer, with best play by both sides."""
    others: tuple[tuple[str, int], ...]
    """Every other legal card and the value after it (each worse for the mover's side)."""
    reason: str
    """The rule that decides it: one of :data:`REASONS`."""


def position(puzzle: Puzzle) -> Deal:
    """The puzzle's position: its seeded deal with its cards played."""
    deal = Deal.from_seed(puzzle.seed, dealer=puzzle.dealer, options=_OPTIONS)
    for play in puzzle.plays:
        seat, card = play.split()
        deal.play(seat, card)
    return deal


def _reason(deal: Deal, solution: Solution) -> Optional[str]:
    seat = deal.to_move
    sign = 1 if seat.team.value == "NS" else -1
    best = solution.best_cards[0]
    end = deal.copy()
    for move in solution.line:
        end.apply(move)
    score = end.result.score
    if (score is not None and score.mordienne) or any(sign * v == -2 for v in solution.by_card.values()):
        return "mordienne"
    trick = deal.current_trick
    if trick and best.strength == max(card.strength for _, card in trick):
        return "spoiling"
    if len(trick) == 3 and best.strength > max(card.strength for _, card in trick):
        return "playing last"
    if score is not None and score.reached_first:
        return "first to reach"
    return None


def puzzle_at(deal: Deal, plays: tuple[str, ...]) -> Optional[Puzzle]:
    """The puzzle of ``deal``'s position, or ``None`` when no single class of card is clearly right there."""
    solution = solve(deal)
    best = solution.best_cards
    classes = {card.strength for card in best}
    others = tuple((str(card), value) for card, value in solution.by_card.items() if value != solution.value)
    if len(classes) != 1 or not others:
        return None
    reason = _reason(deal, solution)
    if reason is None:
        return None
    return Puzzle(deal.seed, str(deal.dealer), plays, str(deal.to_move), tuple(map(str, best)), solution.value,
                  others, reason)


def verify(puzzle: Puzzle) -> None:
    """Prove ``puzzle`` again with the solver: its answer is exactly the class of cards that keeps the best result,
    every other card is worse by the value it states, and its reason is the one the rules give.

    Raises:
        AssertionError: the puzzle does not hold (named in the message).
    """
    deal = position(puzzle)
    assert str(deal.to_move) == puzzle.to_move, f"{puzzle.seed}: {deal.to_move} is to move, not {puzzle.to_move}"
    again = puzzle_at(deal, puzzle.plays)
    assert again == puzzle, f"puzzle of seed {puzzle.seed} no longer holds: the solver finds {again}"


#: The shipped puzzles (written by ``python -m aluette.analysis.puzzle_maker``).
SHIPPED: tuple[Puzzle, ...] = ()

try:
    from ._puzzle_data import PUZZLES as _DATA
    SHIPPED = tuple(Puzzle(**{**row, "plays": tuple(row["plays"].split(", ")), "answer": tuple(row["answer"]),
                              "others": tuple(tuple(o) for o in row["others"])}) for row in _DATA)
except ImportError:  # pragma: no cover - before the first generation
    pass

