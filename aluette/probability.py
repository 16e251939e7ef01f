"""Exact chances, by counting, for the figures the "Edge cases" notebook also simulates.

Rule source: a trick is spoiled when the highest ranking class in it was played more than once (the rules sheet,
"gameplay"; pagat.com). Only the classes matter, and :data:`~aluette.cards.RANKING` gives how many cards each class has
(1 for each of the top eight, 4 for aces ... fours except 2 nines and 2 threes).

Why a uniformly random set of cards is the right model for a trick under random play: every seat plays a uniformly
random card of what it holds, whoever leads, so each seat's nine cards come out in a uniformly random order; and a
uniformly random deal looks the same after any relabelling of the 48 cards. The four cards of any trick (the first,
the fifth...) are then a set whose chance does not change when the cards are relabelled, and the only such chance on
the 4-card sets is the uniform one (the relabellings reach every 4-set from any other). So every trick of a deal
played at random is spoiled with :func:`spoil_probability` ``(4)``; the notebook checks that against simulation.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from .cards import RANKING
from .errors import AluetteError

__all__ = ["CLASS_SIZES", "spoil_count", "spoil_probability"]

#: Cards in each ranking class, strongest class first (19 classes, 48 cards): ``(1, 1, 1, 1, 1, 1, 1, 1, 4, ...)``.
CLASS_SIZES: tuple[int, ...] = tuple(len(codes) for _, _, codes in RANKING)


def _checked(n_cards) -> int:
    if isinstance(n_cards, bool) or not isinstance(n_cards, int) or not 1 <= n_cards <= 48:
        raise AluetteError(f"n_cards is a whole number of distinct cards from 1 to 48, got {n_cards!r}")
    return n_cards


def spoil_count(n_cards: int = 4) -> int:
    """How many of the ``C(48, n_cards)`` sets of ``n_cards`` distinct cards have their best class more than once.

    Counted class by class: a set whose best class is ``c`` and holds ``k >= 2`` of its ``m`` cards takes the other
    ``n_cards - k`` cards from the ``L`` cards of weaker classes, so the count is
    ``sum over c, k>=2 of C(m, k) * C(L, n_cards - k)``.

    >>> spoil_count(2)   # two cards of one class: 9 classes of four give C(4,2) pairs each, the nines and threes one
    56

    Raises:
        AluetteError: ``n_cards`` is not a whole number from 1 to 48.
    """
    n = _checked(n_cards)
    total, weaker = 0, 48
    for size in CLASS_SIZES:
        weaker -= size
        total += sum(comb(size, k) * comb(weaker, n - k) for k in range(2, min(size, n) + 1))
    return total


def spoil_probability(n_cards: int = 4) -> Fraction:
    """The exact chance that ``n_cards`` distinct cards drawn at random (every set equally likely) tie for the best
    class, i.e. would spoil a trick: :func:`spoil_count` over ``C(48, n_cards)``, as a :class:`fractions.Fraction`.

    >>> spoil_probability(2)
    Fraction(7, 141)

    Raises:
        AluetteError: ``n_cards`` is not a whole number from 1 to 48.
    """
    n = _checked(n_cards)
    return Fraction(spoil_count(n), comb(48, n))
