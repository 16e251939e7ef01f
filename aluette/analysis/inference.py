"""What the other seats' cards say about their hands: the expert's inference from the play (issue 18 §5).

A card played says nothing certain about the rest of a hand (rules sheet, "gameplay": "there are no restrictions on
what can be played"), but it says something likely: a player who leads low holds nothing lower, as a rule, and one
who beats a trick as cheaply as they can holds nothing cheaper that beats it. Skat and bridge programs weigh their
sampled deals by such inferences. :class:`PastPlays` takes the model of a player the project already has, the
heuristic bot (:class:`~aluette.players.bots.HeuristicBot`, pagat.com's advice made exact), and counts, for a
sampled deal, the other seats' past cards that the heuristic bot would not have played with the sampled hands
(:meth:`PastPlays.misfits`).

The use made of it is the project's decision ``expert-bot`` (:mod:`aluette.decisions`, stated in
:mod:`aluette.analysis.expert`): the expert draws more deals than it solves
(:attr:`~aluette.analysis.expert.ExpertBot.candidates`, four times its samples by default) and solves those whose
misfits are fewest, in the order drawn among equals. It is a preference, never a rule: a seat that does not play
as the heuristic bot does (a person, the expert partner from its third trick) only makes every deal fit less, and
the deals solved are then the closest ones.

Only the seat's own view is read: the past views rebuilt for the other seats hold the cards played, the trick
counts and the hand sizes as they were, the sampled hand plus the cards the seat has played since, the signals of
the expert's own partnership for its partner (an opponent's signals are hidden from the expert, so none), and no
stock or discard (hidden too). The chant and the surrender offers are taken as they are now: the heuristic bot's
choice of a card does not read them.
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

from ..cards import Card, hand_place
from ..players.bots import HeuristicBot
from ..players.protocol import own_seat
from ..records import Hand, Phase, View
from ..seats import SEATS, Seat

__all__ = ["PastPlays"]


@dataclasses.dataclass(frozen=True)
class _Choice:
    """One past card of another seat: the view it had then (its hand left out), the cards it has played since
    (this one included) and the class it played."""

    seat: Seat
    view: View
    since: tuple[Card, ...]
    strength: int


class PastPlays:
    """The other seats' past cards in ``view`` (one seat's view, in the play), as choices the heuristic bot can be
    asked to make again with a sampled hand.

    Raises:
        AluetteError: ``view`` is not one seat's view.
    """

    def __init__(self, view: View, model: HeuristicBot | None = None):
        seat = own_seat(view)
        self.seat = seat
        self.model = model or HeuristicBot(signals=True)
        tricks = [list(record.plays) for record in view.tricks] + [list(view.trick)]
        leaders = [record.leader for record in view.tricks] + [view.trick[0][0] if view.trick else view.leader]
        sizes_now = dict(view.hand_sizes)
        choices = []
        for i, plays in enumerate(tricks):
            counts = {k: 0 for k in SEATS}
            for record in view.tricks[:i]:
                if record.winner is not None:
                    counts[record.winner] += 1
            for p, (s, card) in enumerate(plays):
                if s is seat:
                    continue
                later = [(k, c) for j in range(i, len(tricks)) for q, (k, c) in enumerate(tricks[j])
                         if j > i or q >= p]
                since = tuple(c for k, c in later if k is s)
                if sizes_now[s] + len(since) == 1:
                    continue  # a last card is no choice
                sizes = {k: sizes_now[k] + sum(1 for kk, _ in later if kk is k) for k in SEATS}
                signals = tuple(r for r in view.signals if r.trick <= i) if s is seat.partner else ()
                past = dataclasses.replace(view, seat=s, phase=Phase.PLAY, to_move=s, leader=leaders[i], hands={},
                                           hand_sizes=sizes,
                                           trick=tuple(plays[:p]), tricks=view.tricks[:i], trick_counts=counts,
                                           stock_received={}, discards={}, stock=None, signals=signals, events=())
                choices.append(_Choice(s, past, since, card.strength))
        self.choices = tuple(choices)

    def __len__(self) -> int:
        return len(self.choices)

    def misfits(self, hands: Mapping[Seat, Hand], limit: int | None = None) -> int:
        """How many of the other seats' past cards the heuristic bot would not have played (a card of another
        class) had they held ``hands`` (the sampled hands of the other seats, as they are now); counting stops
        once it exceeds ``limit``."""
        bound = len(self.choices) if limit is None else limit
        misses = 0
        for choice in self.choices:
            held = sorted((*hands[choice.seat], *choice.since), key=hand_place)
            past = dataclasses.replace(choice.view, hands={choice.seat: Hand._of_sorted(held)})
            if self.model.choose(past).move.card.strength != choice.strength:
                misses += 1
                if misses > bound:
                    break
        return misses
