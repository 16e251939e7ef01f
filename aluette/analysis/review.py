"""Review your deal (issue 18 §2): after a deal, each of one seat's own card plays set against best play with every
hand open, like lichess's "Learn from your mistakes".

A review is made from the seat's own :class:`~aluette.records.View` **once the deal is over**, and from nothing
else: by then every card that was in a hand during the play has been played, and the completed tricks (visible to
every seat, decision ``tricks-visible``) say who held which card at every moment of the play. :func:`played_deal`
rebuilds the play from them (the hands at the first lead are the cards each seat played; the public surrender
answers and Rebour's announcements are replayed as they were said), and :func:`review_deal` solves, with
:func:`aluette.solve`, the position before each of the seat's cards. The discards and the unused stock are never
played, so no review shows them: a :class:`MoveReview` holds the seat's own hand at that moment, the cards on the
table, and the value of each of its own cards. Before the deal is over, :func:`review_deal` refuses
(:class:`~aluette.errors.WrongPhaseError`); a deal ended by an accepted surrender is not reviewed (its unplayed
cards stay hidden, so no position of it is known whole).

For each move (:class:`MoveReview`): the best result the seat's side could still reach before it (:attr:`best`,
points of its side minus points of the other side, both sides playing their best with every hand open), the result
after the card played (:attr:`result`), the cards that were best, and a :class:`Verdict`: best, cost your side a
point (or two), lost the deal, mordienne missed, or not worked out. The search of the first trick can be very long;
it gets a budget (:data:`FIRST_TRICK_NODES`, card plays the solver may try), and a move whose search runs out of
its budget (or of the caller's deadline) is "not worked out", never a guess shown as exact. The moves from the
second trick on get the solver's own default budget, which they meet in practice
(``tests/benchmarks/bench_review.py`` measures how long a review takes).

Honest about what it is: best play with every hand open is hindsight (:data:`HINDSIGHT`): it knows every hand,
which nobody at the table could; a card it calls a mistake may have been a sound choice from what the player saw.
"""

from __future__ import annotations

import enum
import re
import time
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Callable, Mapping, Optional, Sequence, Union

from ..cards import Card, CardLike
from ..deal import Deal
from ..errors import AluetteError, SearchBudgetError, WrongPhaseError
from ..i18n import N_, _, pgettext
from ..moves import MordienneAnnouncement, Play, SurrenderAnswer, SurrenderOffer
from ..records import Hand, Phase, View
from ..scenario import rewound
from ..seats import SEATS, Seat, Team
from .solver import solve

__all__ = ["Verdict", "MoveReview", "DealReview", "Position", "review_deal", "played_deal", "positions",
           "work_out", "not_worked_out", "solve_job", "from_outcome", "result_words", "HINDSIGHT",
           "FIRST_TRICK_NODES"]

#: What the review is, said wherever it is shown (the page and notebook 08).
#: The catalogue's message id (English): shown as ``_(HINDSIGHT)``.
HINDSIGHT = N_("Best play with all hands open is hindsight: it knows every hand, which nobody at the table could. "
               "A card it calls a mistake may still have been a sound choice from what you could see.")

#: The first trick's budget: card plays the solver may try for one move of the first trick (about two seconds on a
#: loaded core); a search that needs more is "not worked out".
FIRST_TRICK_NODES = 1_000_000


class Verdict(enum.Enum):
    """What one card did to the best result its side could still reach (:attr:`MoveReview.verdict`)."""

    BEST = N_("best")  #: the card kept the best result
    #: the card gave away one point or two (the side's result falls, its sign stays)
    COST = N_("cost your side a point")
    LOST = N_("lost the deal")  #: the side could still win the deal, and after this card it cannot
    MORDIENNE_MISSED = N_("mordienne missed")  #: the side could still make mordienne, and after this card it cannot
    NOT_WORKED_OUT = N_("not worked out")  #: the search ran out of its budget: no verdict is given

    @property
    def words(self) -> str:
        """The verdict in the page's language (its value is the English message id; "best" has its own entry, as a
        count's label: "6 best")."""
        return pgettext("review verdict", "best") if self is Verdict.BEST else _(self.value)

    @property
    def mistake(self) -> bool:
        """A verdict that says the card was worse than the best."""
        return self in (Verdict.COST, Verdict.LOST, Verdict.MORDIENNE_MISSED)


def result_words(value: int, mordienne_is_two: bool = True) -> str:
    """A result from a side's point of view in words: ``2`` → ``"your side scores 2 (mordienne)"``, ``0`` →
    ``"nobody scores"``, ``-1`` → ``"the other side scores 1"``. ``mordienne_is_two``: a 2 is a mordienne (not
    after a refused surrender, where the offering side scores 2 when the refusers miss it)."""
    if value == 0:
        return _("nobody scores")
    points = abs(value)
    if abs(value) == 2 and mordienne_is_two:
        return (_("your side scores {points} (mordienne)") if value > 0 else
                _("the other side scores {points} (mordienne)")).format(points=points)
    return (_("your side scores {points}") if value > 0 else _("the other side scores {points}")).format(points=points)


@dataclass(frozen=True)
class Position:
    """One card play of the reviewed seat, in :func:`played_deal`'s deal: what is needed to work it out.

    Attributes:
        number: the seat's move number in the deal (1 for its first card).
        trick: the trick (1-9). place: the seat's place in it (1 leads, 4 plays last).
        seat: the reviewed seat. hand: its hand just before the card. table: the cards on the table before it.
        played: the card it played. moves: the moves of :func:`played_deal`'s deal made before it.
    """

    number: int
    trick: int
    place: int
    seat: Seat
    hand: Hand
    table: tuple[tuple[Seat, Card], ...]
    played: Card
    moves: int


@dataclass(frozen=True)
class MoveReview:
    """One of the seat's cards set against best play with every hand open (module docstring).

    Attributes:
        position: the :class:`Position` of the card (its trick, place, hand, the table, the card played; also
            read as ``move.trick``, ``move.hand``...).
        verdict: the :class:`Verdict`.
        best: the best result the seat's side could reach before this card (its points minus the other side's,
            -2 to 2), or ``None`` when not worked out.
        result: that result after the card played, or ``None``.
        by_card: each card of the hand mapped to its result (high to low); empty when not worked out.
        best_cards: the cards of the hand that kept :attr:`best`, high to low; empty when not worked out.
        why: for "not worked out", why (the search's budget or the deadline), as the search says it (English, plain
            data from the review's worker); :meth:`why_words` says it in the page's language.
        mordienne_is_two: a 2 is a mordienne (not after a refused surrender).
    """

    position: Position
    verdict: Verdict
    best: Optional[int] = None
    result: Optional[int] = None
    by_card: Mapping[Card, int] = field(default_factory=lambda: MappingProxyType({}))
    best_cards: tuple[Card, ...] = ()
    why: str = ""
    mordienne_is_two: bool = True

    def __getattr__(self, name: str):
        if name in _POSITION_FIELDS:  # number, trick, place, seat, hand, table, played: the position's
            return getattr(self.position, name)
        raise AttributeError(name)

    @property
    def worked_out(self) -> bool:
        return self.verdict is not Verdict.NOT_WORKED_OUT

    @property
    def cost(self) -> Optional[int]:
        """Points of the difference the card gave away (0 for a best card), or ``None`` when not worked out."""
        return None if self.best is None else self.best - self.result

    @property
    def forced(self) -> bool:
        """Every card of the hand was of one class (one choice only)."""
        return len({card.strength for card in self.hand}) == 1

    def verdict_text(self) -> str:
        """The verdict in a few words: ``"best"``, ``"cost your side 2 points"``, ``"not worked out"``..."""
        if self.verdict is Verdict.COST and self.cost == 2:
            return _("cost your side 2 points")
        if self.verdict is Verdict.BEST and self.forced:
            return _("best (your only choice)")
        return self.verdict.words

    def why_words(self) -> str:
        """:attr:`why` in the page's language."""
        return _why_words(self.why)

    def best_words(self) -> str:
        """:attr:`best` in words (:func:`result_words`)."""
        return _("not worked out") if self.best is None else result_words(self.best, self.mordienne_is_two)

    def result_words(self) -> str:
        """:attr:`result` in words."""
        return _("not worked out") if self.result is None else result_words(self.result, self.mordienne_is_two)

    def try_card(self, card: CardLike) -> tuple[bool, str]:
        """"Find a better card": ``(right, what it says)`` for ``card`` of the hand tried in place of the card
        played: right when it keeps :attr:`best`.

        Raises:
            UnknownCardError: not a card. AluetteError: not a card of the hand then, or the move not worked out.
        """
        card = Card.parse(card)
        if not self.worked_out:
            raise AluetteError(_("move {number} was not worked out, so no card can be checked").format(
                number=self.number))
        if card not in self.by_card:
            raise AluetteError(_("{card} was not in your hand at move {number}; it held {hand}").format(
                card=card, number=self.number, hand=" ".join(map(str, self.hand))))
        value = self.by_card[card]
        words = result_words(value, self.mordienne_is_two)
        if value == self.best:
            if card.strength == self.played.strength:
                return False, _("{card} is of the same class as the card you played: it does just as well, no "
                                "better.").format(card=card)
            return True, _("Yes: with {card}, best play still gives {result}.").format(card=card, result=words)
        if card.strength == self.played.strength:
            return False, _("{card} is of the same class as the card you played: {result}, as before.").format(
                card=card, result=words)
        return False, _("Not better: with {card}, best play gives {result}.").format(card=card, result=words)

    def text(self) -> str:
        """One line: ``"Trick 4, 2nd to play: you played 11E. Best play before it: your side scores 1; after it:
        nobody scores. Lost the deal (best: 1O)."``"""
        head = _("Trick {trick}, {place}: you played {card}").format(trick=self.trick, place=_place(self.place),
                                                                      card=self.played)
        if not self.worked_out:
            return _("{head}: not worked out ({why}).").format(head=head, why=self.why_words())
        verdict = self.verdict_text()
        line = _("{head}. Best play before it: {best}; after it: {result}. {verdict}").format(
            head=head, best=self.best_words(), result=self.result_words(), verdict=verdict[0].upper() + verdict[1:])
        if self.verdict.mistake:
            line += _(" (best: {cards})").format(cards=_(" or ").join(map(str, self.best_cards)))
        return line + "."


_POSITION_FIELDS = frozenset(Position.__dataclass_fields__)


def _place(place: int) -> str:
    return _({1: N_("you led"), 2: N_("2nd to play"), 3: N_("3rd to play"), 4: N_("last to play")}[place])


#: The search's reasons for "not worked out" (English, as :func:`solve_job` and :func:`review_deal` give them), read
#: back as a message id and its value, so that :meth:`MoveReview.why_words` says them in the page's language.
_WHYS = ((re.compile(r"the search ran out of its budget of ([\d,]+) card plays"),
          N_("the search ran out of its budget of {value} card plays")),
         (re.compile(r"the search ran out of its budget"), N_("the search ran out of its budget")),
         (re.compile(r"not solved within (\S+) s"), N_("not solved within {value} s")),
         (re.compile(r"the solver failed \((.*)\)", re.S), N_("the solver failed ({value})")))


def _why_words(why: str) -> str:
    for pattern, message in _WHYS:
        found = pattern.fullmatch(why)
        if found:
            return _(message).format(value=found.group(1) if found.groups() else "")
    return why


@dataclass(frozen=True)
class DealReview:
    """The review of one seat's cards in a finished deal (:func:`review_deal`).

    Attributes:
        seat: the reviewed seat. moves: a :class:`MoveReview` per card it played, in order.
        points: the deal's result from the seat's side (its points minus the other side's).
    """

    seat: Seat
    moves: tuple[MoveReview, ...]
    points: int

    @property
    def mistakes(self) -> tuple[MoveReview, ...]:
        """The moves whose verdict is a mistake, in order."""
        return tuple(m for m in self.moves if m.verdict.mistake)

    def summary(self) -> str:
        """``"9 cards: 6 best, 2 cost your side a point, 1 not worked out."``"""
        counts: dict[Verdict, int] = {}
        for move in self.moves:
            counts[move.verdict] = counts.get(move.verdict, 0) + 1
        parts = [f"{counts[v]} {v.words}" for v in Verdict if v in counts]
        return _("{n} cards: {parts}.").format(n=len(self.moves), parts=", ".join(parts))


# ---------------------------------------------------------------------------------------------------- the positions
def _final_view(position: Union[View, Deal], seat: Union[Seat, str, None]) -> View:
    if isinstance(position, Deal):
        if seat is None:
            raise AluetteError("review_deal(deal, seat): say whose cards to review")
        position = position.view(Seat.parse(seat), events=False)
    if not isinstance(position, View) or position.seat is None:
        raise AluetteError("a review is of one seat's cards: give that seat's view of the deal (deal.view(seat))")
    if position.phase is not Phase.OVER:
        raise WrongPhaseError(f"the review is shown once the deal is over (it is in its {position.phase.value} "
                              f"phase): before that, it would tell {position.seat} about cards still hidden")
    if len(position.tricks) < 9:
        raise WrongPhaseError("this deal ended by a surrender before its nine tricks: the cards not played stay "
                              "hidden, so its positions are not known whole and it is not reviewed")
    return position


def played_deal(view: View) -> Deal:
    """The play of a finished deal rebuilt from one seat's view of it (module docstring): a deal whose hands at
    the first lead are the cards each seat played, with the deal's options (no chant: its cards are already in the
    hands), the public surrender answers and Rebour's announcements replayed as they were said, and every card
    played as it was. Its result is the deal's (checked).

    Raises:
        WrongPhaseError: the deal is not over, or ended by a surrender before its nine tricks.
        AluetteError: not a seat's view; the rebuilt play does not end with the deal's result (a bug).
    """
    view = _final_view(view, None)
    hands = {seat: [card for record in view.tricks for s, card in record.plays if s is seat] for seat in SEATS}
    options = replace(view.options, chant=False)
    deal = Deal.from_hands(hands, dealer=view.dealer, options=options)
    spoken = list(view.surrender_spoken)
    announced = list(view.announcements)
    plays = [Play(seat, card) for record in view.tricks for seat, card in record.plays]
    while not deal.is_over:
        phase, seat = deal.phase, deal.to_move
        if phase is Phase.SURRENDER:
            if deal.view(None, events=False).surrender_by is None:
                if not spoken or spoken[0][0] is not seat:
                    raise AluetteError(f"the deal's surrender answers do not replay ({seat} to speak)")
                deal.apply(SurrenderOffer(seat, spoken.pop(0)[1]))
            else:
                deal.apply(SurrenderAnswer(seat, bool(view.surrender_accepted)))
        elif phase is Phase.ANNOUNCE:
            if not announced or announced[0][0] is not seat:
                raise AluetteError(f"the deal's announcements do not replay ({seat} to announce)")
            deal.apply(MordienneAnnouncement(seat, announced.pop(0)[1]))
        else:
            deal.apply(plays.pop(0))
    if dict(deal.result.points) != dict(view.result.points):  # pragma: no cover - a bug, never hidden
        raise AluetteError("the rebuilt play does not end with the deal's result")
    return deal


def positions(view: View) -> tuple[Deal, tuple[Position, ...]]:
    """(:func:`played_deal`, the :class:`Position` of each card ``view``'s seat played, in order).

    Raises:
        as :func:`played_deal`.
    """
    view = _final_view(view, None)
    deal = played_deal(view)
    seat = view.seat
    held = {s: [c for record in view.tricks for p, c in record.plays if p is s] for s in SEATS}
    found, plays_seen = [], 0
    for index, move in enumerate(deal.moves):
        if not isinstance(move, Play):
            continue
        trick, place = plays_seen // 4 + 1, plays_seen % 4 + 1
        plays_seen += 1
        if move.seat is seat:
            record = view.tricks[trick - 1]
            hand = Hand(held[seat][trick - 1:])
            found.append(Position(len(found) + 1, trick, place, seat, hand, record.plays[:place - 1], move.card,
                                  index))
    return deal, tuple(found)


# ---------------------------------------------------------------------------------------------------- working out
def _sign(seat: Seat) -> int:
    return 1 if seat.team is Team.NS else -1


def _refused(deal: Deal) -> bool:
    return deal.result is not None and deal.result.surrender_accepted is False


def from_outcome(position: Position, outcome: tuple, mordienne_is_two: bool = True) -> MoveReview:
    """The :class:`MoveReview` of ``position`` from :func:`solve_job`'s outcome: ``("solved", value, {code:
    value})`` (N-S minus E-W) or ``("not worked out", why)``."""
    if outcome[0] != "solved":
        return not_worked_out(position, outcome[1], mordienne_is_two)
    sign = _sign(position.seat)
    values = {Card.parse(code): sign * v for code, v in outcome[2].items()}
    by_card = MappingProxyType({card: values[card] for card in position.hand})
    best = sign * outcome[1]
    result = by_card[position.played]
    best_cards = tuple(card for card, v in by_card.items() if v == best)
    if result == best:
        verdict = Verdict.BEST
    elif best == 2 and (result == 1 or not mordienne_is_two):
        verdict = Verdict.MORDIENNE_MISSED  # a refused surrender: the refusers' 2 is their mordienne
    elif best > 0 >= result:
        verdict = Verdict.LOST
    else:
        verdict = Verdict.COST
    return MoveReview(position, verdict, best, result, by_card, best_cards, "", mordienne_is_two)


def not_worked_out(position: Position, why: str, mordienne_is_two: bool = True) -> MoveReview:
    """The :class:`MoveReview` of a move the search did not decide (``why`` says why)."""
    return MoveReview(position, Verdict.NOT_WORKED_OUT, why=why, mordienne_is_two=mordienne_is_two)


def solve_job(deal_data: dict, moves: int, max_nodes: Optional[int]) -> tuple:
    """Solve the position after the first ``moves`` moves of the deal saved as ``deal_data`` (:meth:`Deal.to_dict
    <aluette.deal.Deal.to_dict>` of :func:`played_deal`): ``("solved", value, {card code: value})`` or ``("not
    worked out", why)``. Plain data in and out, so that another process can run it (the review's worker,
    :mod:`aluette.widgets.review`)."""
    deal = rewound(Deal.from_dict(deal_data), moves)
    try:
        solution = solve(deal, max_nodes=max_nodes)
    except SearchBudgetError:
        return ("not worked out", f"the search ran out of its budget of {max_nodes:,} card plays"
                if max_nodes else "the search ran out of its budget")
    except AssertionError as error:  # the solver's own check failed: a bug of the solver, said, never hidden
        return ("not worked out", f"the solver failed ({error})")
    return ("solved", solution.value, {card.code: value for card, value in solution.by_card.items()})


def budget_for(position: Position, first_trick_nodes: int = FIRST_TRICK_NODES,
               max_nodes: Optional[int] = None) -> Optional[int]:
    """The search budget of ``position``: ``first_trick_nodes`` in the first trick, else ``max_nodes`` (``None``:
    the solver's default)."""
    return first_trick_nodes if position.trick == 1 else max_nodes


def work_out(deal: Deal, position: Position, *, max_nodes: Optional[int] = None) -> MoveReview:
    """The :class:`MoveReview` of ``position`` in ``deal`` (:func:`positions`), solved here."""
    outcome = solve_job(deal.to_dict(), position.moves, max_nodes)
    return from_outcome(position, outcome, not _refused(deal))


def order_of_work(found: Sequence[Position]) -> list[Position]:
    """The order to work the moves out in: the last tricks first (they are the quickest), the first trick last."""
    return sorted(found, key=lambda p: -p.trick)


def review_deal(position: Union[View, Deal], seat: Union[Seat, str, None] = None, *,
                first_trick_nodes: int = FIRST_TRICK_NODES, max_nodes: Optional[int] = None,
                deadline: Optional[float] = None,
                progress: Optional[Callable[[MoveReview], None]] = None) -> DealReview:
    """The review of a seat's cards in a finished deal (module docstring), worked out here and now.

    ``position``: the seat's :class:`~aluette.records.View` of the finished deal (or the deal and ``seat``: its
    view is taken, nothing else). ``first_trick_nodes``, ``max_nodes``: the search budgets of a move of the first
    trick and of the later ones (:func:`budget_for`). ``deadline``: seconds from now after which the moves not yet
    worked out are "not worked out" (checked between moves). ``progress``: called with each :class:`MoveReview`
    as it is done (the last tricks first).

    Raises:
        WrongPhaseError: the deal is not over (nothing is reviewed before its end), or ended by a surrender before
            its nine tricks. AluetteError: not a seat's view, or a deal without ``seat``.
    """
    view = _final_view(position, seat)
    deal, found = positions(view)
    two = not _refused(deal)
    data = deal.to_dict()
    started = time.perf_counter()
    done: dict[int, MoveReview] = {}
    for pos in order_of_work(found):
        if deadline is not None and time.perf_counter() - started > deadline:
            move = not_worked_out(pos, f"not solved within {deadline:g} s", two)
        else:
            move = from_outcome(pos, solve_job(data, pos.moves, budget_for(pos, first_trick_nodes, max_nodes)), two)
        done[pos.number] = move
        if progress is not None:
            progress(move)
    points = view.result.points
    mine = points[view.seat.team] - points[view.seat.team.other]
    return DealReview(view.seat, tuple(done[p.number] for p in found), mine)
