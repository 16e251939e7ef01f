"""The partnership draw: who partners whom, where everyone sits, and who deals first.

Rule source (the rules sheet, "setup"; pagat.com): any player deals a shuffled deck face up, one card at a time, to each
player; a player who has received one of the four top cards (Monsieur, Madame, le Borgne, la Vache) gets no more
cards; it stops when all four are out. Monsieur's and Madame's holders are partners against le Borgne's and la
Vache's, partners sit opposite, and Madame's holder deals first.

* Decision of this project (the sources are silent) [draw-dealt-clockwise]: the cards are dealt clockwise, one at a
  time (the rules sheet says only that any player deals to each player).
* Decision of this project (the sources are silent) [draw-first-name-deals]: the first player named deals the
  face-up cards, starting with the player to their left (the second name) and going round the names in the order
  given.
* Decision of this project (the sources are silent) [seating-after-draw]: Madame's holder takes N, Monsieur's S,
  le Borgne's E (Madame's left) and la Vache's W. So the first dealer is always N.
* The shuffle is drawn as in :mod:`aluette.chance` (no cut: the cards are dealt face up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np

from .cards import DECK, TOP_FOUR, Card
from .chance import SeedLike, as_generator
from .errors import AluetteError
from .seats import Seat

__all__ = ["DrawResult", "partnership_draw"]

MONSIEUR, MADAME, BORGNE, VACHE = TOP_FOUR
_SEAT_OF_TOP = {MADAME: Seat.N, MONSIEUR: Seat.S, BORGNE: Seat.E, VACHE: Seat.W}


@dataclass(frozen=True)
class DrawResult:
    """What the partnership draw produced.

    Attributes:
        names: the four names, in the order given (the first dealt the face-up cards).
        steps: every face-up card in order, as ``(name, card)``.
        received: the cards each name saw, ``{name: (card, ...)}``, the last being their top card.
        top_card: the top card each name ended with, ``{name: card}``.
        pairs: ``((Monsieur's holder, Madame's holder), (le Borgne's holder, la Vache's holder))``.
        seating: ``{Seat.N: name, ...}`` (Madame N, Monsieur S, le Borgne E, la Vache W).
        first_dealer: the seat that deals first (Madame's holder, so ``Seat.N``).
    """

    names: tuple[str, str, str, str]
    steps: tuple[tuple[str, Card], ...]
    received: Mapping[str, tuple[Card, ...]]
    top_card: Mapping[str, Card]
    pairs: tuple[tuple[str, str], tuple[str, str]]
    seating: Mapping[Seat, str]
    first_dealer: Seat

    def seat_of(self, name: str) -> Seat:
        """The seat given to ``name``.

        Raises:
            AluetteError: ``name`` is not one of the four names.
        """
        for seat, holder in self.seating.items():
            if holder == name:
                return seat
        raise AluetteError(f"{name!r} is not one of the names in this draw: {', '.join(map(repr, self.names))}")


def partnership_draw(names: Sequence[str], seed: SeedLike) -> DrawResult:
    """Run the partnership draw for four players (see the module docstring for the rule and the
    decisions).

    Args:
        names: four distinct non-empty names, in clockwise order round the table; the first deals the face-up cards.
        seed: a non-negative integer or a numpy ``Generator``.

    Raises:
        AluetteError: not a list of four names, an empty name, or the same name twice (ignoring case and spaces
            around it).
        BadSeedError: no explicit seed, or not a seed.
    """
    if isinstance(names, str) or not isinstance(names, Iterable):  # "ABCD" is one name, not four
        raise AluetteError(f"the draw needs four names in a list, got {names!r}")
    names = tuple(names)
    if len(names) != 4 or any(not isinstance(n, str) or not n.strip() for n in names):
        raise AluetteError(f"the draw needs four non-empty names, got {list(names)!r}")
    if len({n.strip().casefold() for n in names}) != 4:  # "Ann" and "ann " read as one player
        raise AluetteError(f"the four names must differ (ignoring case and outer spaces), got {list(names)!r}")
    order = np.argsort(as_generator(seed).random(48), kind="stable")
    received: dict[str, list[Card]] = {n: [] for n in names}
    top: dict[str, Card] = {}
    steps = []
    player = 1  # the first card goes to the dealer's left: the second name
    for index in order:
        while names[player] in top:
            player = (player + 1) % 4
        card = DECK[index]
        received[names[player]].append(card)
        steps.append((names[player], card))
        if card in _SEAT_OF_TOP:
            top[names[player]] = card
            if len(top) == 4:
                break
        player = (player + 1) % 4
    holder = {card: name for name, card in top.items()}
    seating = {seat: holder[card] for card, seat in _SEAT_OF_TOP.items()}
    return DrawResult(
        names=names, steps=tuple(steps), received={n: tuple(c) for n, c in received.items()}, top_card=top,
        pairs=((holder[MONSIEUR], holder[MADAME]), (holder[BORGNE], holder[VACHE])),
        seating={s: seating[s] for s in Seat}, first_dealer=Seat.N)
