"""Best play with every hand open: the exact value of a position of the play, the value of each card, a line of best
play.

:func:`solve` (``aluette.solve``) takes a :class:`~aluette.deal.Deal` at any point of its play (or the omniscient
:class:`~aluette.records.View` of one, or a scenario recipe of notebook 09, :mod:`aluette.scenario`), searches every
card both partnerships could still play, and returns a :class:`Solution`: its :attr:`~Solution.value` (the points
N-S score minus the points E-W score, each side playing its best: partners cooperate, the two partnerships are the
two sides of a zero-sum game), the value of each legal card of the seat to move (:attr:`~Solution.by_card`) and one
line of best play (:attr:`~Solution.line`) that the deal accepts move by move. The deal is only read.

What is searched and what is not:

* The plays are searched, with every scoring rule of :func:`aluette.scoring.score_deal`: the most tricks by a single
  player (partners do not pool tricks), a tie decided by who reached the number first, spoiled tricks (nobody wins,
  the leader leads again), mordienne (on or off, :attr:`~aluette.options.Options.mordienne`; a spoiled trick breaks a
  run and counts as one before it), all nine spoiled (nobody scores, decision ``all-nine-spoiled``), a refused
  surrender (the refusing side must make mordienne) and Rebour's second form (a mordienne counts only when announced).
* The chant, the discards, the signals, the surrender question and Rebour's announcements are decided before the
  play (or between its tricks) and are **not** searched: the solver takes them as the deal has them. Under
  ``Options(surrender_until="last_trick")`` it assumes nobody offers to surrender in a later trick, and its
  :attr:`~Solution.line` answers those questions "no offer".
* Signals change nothing in the play with every hand open; suits matter for nothing (rules sheet, "gameplay").

How it is fast (the design of double-dummy solvers for bridge): a card counts only by its ranking class (19 classes;
cards of one class are equal), so the cards of one class in one hand are one choice; at each trick boundary the
remaining cards are renumbered by rank among the cards still out, and neighbouring classes that only one hand holds are
merged (nothing left between them can tell them apart); a transposition table keyed at trick boundaries (the hands as
class multisets, the leader, and what the score still depends on: each seat's tricks, the order in which seats won their
last trick, the seat whose run of tricks can still be mordienne) holds bounds from earlier searches; alpha-beta (null-
window tests, MTD(f), at the root) stops a search as soon as its result is decided, with static bounds from the tricks
nobody can still catch up on, from covers (when one opponent of a seat plays its cards strongest first and the other
weakest first, the seat takes few tricks: held so to no more than another seat already has, more than its own, it
cannot win the deal), from the ninth trick (a seat whose opponents hold a card as strong as its strongest cannot be
sure of winning it, so cannot count on mordienne), from two kept cards (a side that keeps its two strongest cards to
stop a run breaks any run whose leads are not all above them), from sure tricks (a side's cards of a class at least x,
each played to a trick of its own, win all but as many of those tricks as the opponents hold cards at least as strong:
they may win the deal before the rest is played) and from a sweep (a seat whose every card is above its opponents' wins
every trick left: its mordienne is sure if its run can be one) and from a later run (a seat with no trick yet whose
cards but one are above its opponents' is sure of a run of the tricks left but one, if no other seat can reach as
many: checked only where the table does not decide); with two tricks left, the at most 16 ways to play the
eighth trick are played out directly, without bounds or table; moves are ordered the table's best lead first, then the
strongest class and low to high; the second hand low first, then the cheapest card that wins; the partner's trick low.
The search itself is :mod:`aluette.analysis._kernel`, compiled by numba.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Optional, Union

from ..cards import Card
from ..deal import Deal
from ..errors import AluetteError, SearchBudgetError, WrongPhaseError, quoted
from ..moves import Move, Play, SurrenderOffer
from ..options import Rebour, SurrenderUntil
from ..records import Phase, View
from ..seats import SEATS, Seat, Team
from . import _kernel

__all__ = ["Solution", "solve", "can_make_mordienne", "DEFAULT_MAX_NODES"]

#: The search's default budget: the card plays it may try before giving up with :class:`SearchBudgetError`.
DEFAULT_MAX_NODES = 50_000_000

_SIGN = (1, -1, 1, -1)  # +1 for a seat of N-S (maximises the value), -1 for E-W; seats in SEATS order N, E, S, W
_INDEX = {seat: i for i, seat in enumerate(SEATS)}


@dataclass(frozen=True, repr=False)
class Solution:
    """The value of a position under best play by both partnerships, every hand open (:func:`solve`)."""

    value: int
    """The points N-S score minus the points E-W score when both sides play their best from here: from -2 (E-W
    score 2, mordienne or a failed refusal of a surrender) to 2."""

    by_card: Mapping[Card, int]
    """Every legal card of the seat to move (its whole hand, high to low), mapped to :attr:`value` after playing it
    and best play by both sides after that; cards of one class share their value. Empty once the deal is over."""

    line: tuple[Move, ...]
    """One line of best play from here to the end of the deal (a principal variation): :class:`~aluette.moves.Play`
    moves, and the "no offer" answers to the surrender question between tricks under
    ``Options(surrender_until="last_trick")``. Applied move by move to the deal, it ends with :attr:`value`."""

    to_move: Optional[Seat]
    """The seat whose cards :attr:`by_card` values, or ``None`` when the deal is over."""

    nodes: int
    """Card plays the search tried (a measure of its work)."""

    @property
    def best_cards(self) -> tuple[Card, ...]:
        """The cards of :attr:`by_card` that keep :attr:`value` (the seat to move's best choices), high to low."""
        return tuple(card for card, value in self.by_card.items() if value == self.value)

    def cost(self, card: Union[Card, str]) -> int:
        """How many points of the difference ``card`` gives away, from the side of the seat to move: 0 for a best
        card, 1 or more for a mistake.

        Raises:
            UnknownCardError: not a card. AluetteError: not a legal card of the seat to move.
        """
        card = Card.parse(card)
        if card not in self.by_card:
            raise AluetteError(f"{card} is not a card {self.to_move or 'anyone'} may play here; legal: "
                               f"{' '.join(map(str, self.by_card)) or 'none (the deal is over)'}")
        return _SIGN[_INDEX[self.to_move]] * (self.value - self.by_card[card])

    def __repr__(self) -> str:
        # <Solution value=+1, E to move: 3O +1, 1E 0; line E 3O, S 1O, ...>
        head = f"<Solution value={self.value:+d}"
        if self.to_move is None:
            return head + " (the deal is over)>"
        cards = ", ".join(f"{card} {value:+d}" for card, value in self.by_card.items())
        plays = ", ".join(f"{m.seat} {m.card}" for m in self.line[:4] if isinstance(m, Play))
        more = ", ..." if len([m for m in self.line if isinstance(m, Play)]) > 4 else ""
        return f"{head}, {self.to_move} to move: {cards}; line {plays}{more}>"


def _after(state, c):
    """The state after the seat to move in ``state`` plays class ``c`` (the trick completed when it is the
    fourth card)."""
    after, winner = _play(state, c)
    if winner is not None:
        seat = (state[1] + 3) & 3
        after = _after_trick(after, winner, 8 - len(after[0][seat]))
    return after


def _exact(search, state, guess: int = 0) -> int:
    """The exact value of ``state`` by null-window tests (MTD(f): each test "is the value at least b?" prunes far
    more than one search with the whole window; the values are whole numbers from -2 to 2)."""
    lower, upper, g = -2, 2, guess
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = search.value(state, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return lower


class _Search:
    """The search of one position (:mod:`aluette.analysis._kernel`, compiled by numba): ``value(state, alpha,
    beta)`` on the integer state of :func:`_root`, and the node count.

    ``payoff[w][m]`` is the value when seat ``w`` (0-3: N, E, S, W) wins the deal, with mordienne when ``m`` is 1;
    ``none`` when nobody won a trick; ``capable[w]`` whether a mordienne of ``w`` counts.
    """

    def __init__(self, payoff, none, capable, max_nodes, tricks_left: int):
        self.max_nodes = max_nodes
        self.kernel = _kernel.Kernel(payoff, none, capable, max_nodes, bits=table_bits(tricks_left, max_nodes))

    @property
    def nodes(self) -> int:
        return self.kernel.nodes

    def value(self, state, alpha=-99, beta=99) -> int:
        value = self.kernel.value(state, alpha, beta)
        if value is None:
            raise SearchBudgetError(f"the search tried {self.max_nodes:,} card plays without deciding the value; "
                                    f"give solve() a larger max_nodes, or solve a later position")
        return value


def table_bits(tricks_left: int, max_nodes: int = DEFAULT_MAX_NODES) -> int:
    """The transposition table of a search with ``tricks_left`` tricks to play and a budget of ``max_nodes`` card
    plays holds ``2 ** table_bits`` entries of 16 bytes: it grows with the work, from 2**16 (1 MB) for the last tricks
    to 2**21 (32 MB) from the first lead; from the first lead it doubles with each doubling of the budget above the
    default (:data:`DEFAULT_MAX_NODES`), up to 2**23 (128 MB). Measured with a budget of 200 million card plays: from
    the first lead of deals 28, 39 and 64, 2**22 entries take 5-12% less time than 2**21 and 2**23 a little less
    again; from the second trick 2**20 was the fastest (a larger table costs more than it saves there)."""
    bits = min(21, 12 + max(tricks_left, 4))
    if tricks_left >= 9:
        bits = min(23, bits + max(0, (max_nodes // DEFAULT_MAX_NODES).bit_length() - 1))
    return bits


def _searcher(view: View, budget: int, payoff=None, none=None) -> _Search:
    """The search for ``view``'s position, with the deal's scoring (or the ``payoff`` and ``none`` given)."""
    default_payoff, default_none, capable = _scoring(view)
    payoff = default_payoff if payoff is None else payoff
    none = default_none if none is None else none
    return _Search(payoff, none, capable, budget, 9 - len(view.tricks))


def _play(state, c):
    """(the state after the seat to move plays class ``c``, the trick's winner if the card completed it else None;
    -1 when it completed a spoiled trick). A completed trick's state is returned with the hands only updated: use
    :func:`_after_trick` on it (or :func:`_after` for both steps)."""
    hands, leader, pos, best_s, best_w, counts, last, alive = state
    seat = (leader + pos) & 3
    hand = hands[seat]
    i = hand.index(c)
    after = hands[:seat] + (hand[:i] + hand[i + 1:],) + hands[seat + 1:]
    bs, bw = (int(x) for x in _kernel.best_after(c, seat, best_s, best_w))
    if pos < 3:
        return (after, leader, pos + 1, bs, bw, counts, last, alive), None
    return (after, leader, pos, bs, bw, counts, last, alive), bw


def _after_trick(state, winner, t):
    """The boundary state after trick ``t`` was won by ``winner`` (-1 spoiled); ``state`` from :func:`_play`."""
    hands, leader, _, _, _, counts, last, alive = state
    if winner < 0:
        return (hands, leader, 0, 0, -1, counts, last, -1)
    if alive != winner:
        alive = winner if (counts[winner] == 0 and t > 0) else -1
    counts = counts[:winner] + (counts[winner] + 1,) + counts[winner + 1:]
    last = last[:winner] + (t,) + last[winner + 1:]
    return (hands, winner, 0, 0, -1, counts, last, alive)


def _order(hand, pos, best_s, best_w, seat, hint):
    """The distinct classes of ``hand`` in the order to try them: at a lead, the table's best move first, then
    high to low; after the partner's winning card, low to high; else the cheapest card that wins, a card that
    spoils, then low to high."""
    classes = sorted(set(hand))  # low to high
    if pos == 0:
        classes.reverse()
        if hint in classes and classes[0] != hint:
            classes.remove(hint)
            classes.insert(0, hint)
        return classes
    if best_w >= 0 and (best_w & 1) == (seat & 1):
        return classes
    first = [c for c in classes if c > best_s][:1]
    if best_s in classes and best_w >= 0:
        first.append(best_s)
    if not first:
        return classes
    return first + [c for c in classes if c not in first]


# ---------------------------------------------------------------------------------------------------- the API
def _position(position: Any) -> View:
    """The omniscient view of ``position`` (a Deal, an omniscient View, or a scenario recipe).

    Raises:
        AluetteError: a seat's view (hidden hands unknown), or not a position at all.
    """
    if isinstance(position, Deal):
        return position.view(None, events=False)
    if isinstance(position, View):
        if position.seat is not None:
            raise AluetteError(f"the solver needs every hand, but this is {position.seat}'s view: the other hands "
                               f"are hidden (solve the Deal, or sample the hidden hands first)")
        return position
    if isinstance(position, Mapping) and {"hands", "seed"} <= set(position):
        from ..scenario import scenario_deal
        extra = set(position) - {"hands", "seed", "leader", "options", "format"}
        if extra:
            raise AluetteError(f"a scenario recipe has hands, seed, leader and options; got also "
                               f"{quoted(sorted(map(str, extra)))}")
        deal = scenario_deal(position["hands"], position["seed"], leader=position.get("leader", Seat.E),
                             options=position.get("options"))
        return deal.view(None, events=False)
    raise AluetteError(f"solve() takes a Deal, an omniscient View or a scenario recipe ({{'hands': ..., 'seed': "
                       f"...}}, as aluette.scenario.scenario_from_json gives), got {type(position).__name__} "
                       f"{quoted(position)}")


def _root(view: View):
    """The integer state of the view's position: (hands, leader, pos, best_s, best_w, counts, last, alive)."""
    hands = tuple(tuple(card.strength for card in view.hands[seat]) for seat in SEATS)
    counts, last, alive = [0, 0, 0, 0], [-1, -1, -1, -1], -1
    for t, record in enumerate(view.tricks):
        if record.winner is None:
            alive = -1
            continue
        w = _INDEX[record.winner]
        if alive != w:
            alive = w if (counts[w] == 0 and t > 0) else -1
        counts[w] += 1
        last[w] = t
    leader = _INDEX[view.leader]
    best_s, best_w = 0, -1
    for seat, card in view.trick:
        if card.strength > best_s:
            best_s, best_w = card.strength, _INDEX[seat]
        elif card.strength == best_s:
            best_w = -1
    return (hands, leader, len(view.trick), best_s, best_w, tuple(counts), tuple(last), alive)


def _scoring(view: View):
    """(payoff, none, capable) of the deal's scoring rules (module docstring), for :class:`_Search`."""
    options = view.options
    announced = {seat for seat, said in view.announcements if said}
    capable = tuple(bool(options.mordienne and (options.rebour is not Rebour.ONLY_ANNOUNCED or seat in announced))
                    for seat in SEATS)
    if view.surrender_by is not None and view.surrender_accepted is False:
        by = 1 if view.surrender_by is Team.NS else -1  # refused: the refusing side must make mordienne
        payoff = tuple((2 * by, -2 * by if _SIGN[s] == -by else 2 * by) for s in range(4))
        return payoff, 2 * by, capable
    return tuple((_SIGN[s], 2 * _SIGN[s]) for s in range(4)), 0, capable


def _check_phase(view: View) -> None:
    if view.phase not in (Phase.PLAY, Phase.OVER):
        raise WrongPhaseError(f"the solver searches the play only; the deal is in the {view.phase.value} phase, "
                              f"{view.to_move} to move (the chant, the discards, the surrender question and "
                              f"Rebour's announcements are not searched: answer them first)")


def _check_budget(max_nodes: Any) -> int:
    if max_nodes is None:
        return DEFAULT_MAX_NODES
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise AluetteError(f"max_nodes must be a positive whole number of card plays, got {quoted(max_nodes)}")
    return max_nodes


def solve(position: Any, *, max_nodes: Optional[int] = None) -> Solution:
    """The exact value of ``position`` under best play by both partnerships, every hand open, the value of each
    legal card of the seat to move and one line of best play (module docstring; a :class:`Solution`).

    ``position``: a :class:`~aluette.deal.Deal` in its play (or over: the value is then its result), the omniscient
    :class:`~aluette.records.View` of one (``deal.view(None)``), or a scenario recipe of notebook 09 (the mapping
    :func:`aluette.scenario.scenario_from_json` returns: ``{"hands": ..., "seed": ..., "leader": ..., "options":
    ...}``), solved from its first lead. The chant, discards, signals, surrender and Rebour's announcements are not
    searched: they are taken as the deal has them. The deal is only read, never changed.

    ``max_nodes``: the card plays the search may try (default :data:`DEFAULT_MAX_NODES`). The search is compiled
    by numba on its first call on a machine, then loaded from numba's cache
    (:func:`aluette.analysis._kernel.warm_up` measures it).

    >>> from aluette import Deal, Options
    >>> deal = Deal.from_seed(3, options=Options(chant=False))
    >>> for _ in range(30):
    ...     _ = deal.play_index(0)      # everyone plays their highest card for seven and a half tricks
    >>> solution = solve(deal)
    >>> tuple(solution.by_card) == deal.legal_cards()   # every legal card of the seat to move, high to low
    True
    >>> end = deal.copy()
    >>> for move in solution.line:      # the line of best play, applied move by move, ends with the value
    ...     end.apply(move)
    >>> end.result.points[Team.NS] - end.result.points[Team.EW] == solution.value
    True

    Raises:
        AluetteError: a seat's view (the other hands are hidden), not a position, or a bad ``max_nodes``.
        WrongPhaseError: the deal is in its chant, discard, surrender or announcement phase.
        SearchBudgetError: the search tried ``max_nodes`` card plays without deciding the value.
    """
    view = _position(position)
    budget = _check_budget(max_nodes)
    _check_phase(view)
    if view.phase is Phase.OVER:
        points = view.result.points
        return Solution(points[Team.NS] - points[Team.EW], MappingProxyType({}), (), None, 0)
    search = _searcher(view, budget)
    state = _root(view)
    seat = view.to_move
    hand = view.hands[seat]
    values, guess = {}, 0
    same = _equivalent(state)
    for c in _order(state[0][_INDEX[seat]], state[2], state[3], state[4], _INDEX[seat], -1):
        if same[c] != c:
            continue  # valued with its group's strongest class
        values[c] = guess = _exact(search, _after(state, c), guess)
    values.update({c: values[head] for c, head in same.items()})
    value = (max if _SIGN[_INDEX[seat]] > 0 else min)(values.values())
    by_card = MappingProxyType({card: values[card.strength] for card in hand})
    line = _line(search, view, state, value)
    return Solution(value, by_card, line, seat, search.nodes)


def _equivalent(state) -> dict[int, int]:
    """``{class: the strongest class of its group}`` for the classes of the seat to move in ``state``: neighbouring
    classes of its hand that no other card still out separates (no card of another hand, nor the best card on the
    table, between them or of their class) are one choice, as the search's merged classes are at a trick boundary;
    :func:`solve` values each group once."""
    hands, leader, pos, best_s = state[:4]
    seat = (leader + pos) & 3
    breakers = {c for k in range(4) if k != seat for c in hands[k]}
    if pos > 0:
        breakers.add(best_s)
    same, head = {}, None
    for c in sorted(set(hands[seat]), reverse=True):
        if head is None or any(b in breakers for b in range(c, previous + 1)):
            head = c
        same[c] = head
        previous = c
    return same


def _line(search: _Search, view: View, state, value: int) -> tuple[Move, ...]:
    """A principal variation from ``state`` (value ``value``): at each turn the first card, in the search's order,
    whose value is ``value`` (a null-window test each)."""
    hands = {seat: list(view.hands[seat]) for seat in SEATS}  # the real cards, high to low
    options = view.options
    asks = (options.surrender and options.surrender_until is SurrenderUntil.LAST_TRICK
            and view.surrender_by is None)
    moves: list[Move] = []
    while state[0][state[1]] or state[2]:
        hands_i, leader, pos, best_s, best_w = state[:5]
        seat = (leader + pos) & 3
        maximise = _SIGN[seat] > 0
        for c in _order(hands_i[seat], pos, best_s, best_w, seat, -1):
            if maximise and search.value(_after(state, c), value - 1, value) >= value:
                break
            if not maximise and search.value(_after(state, c), value, value + 1) <= value:
                break
        else:  # pragma: no cover - a card of the value always exists
            raise AssertionError("no card keeps the value")
        real = hands[SEATS[seat]]
        card = next(card for card in real if card.strength == c)
        real.remove(card)
        moves.append(Play(SEATS[seat], card))
        state, winner = _play(state, c)
        if winner is not None:
            t = 8 - len(state[0][seat])
            state = _after_trick(state, winner, t)
            if asks and t < 8:
                speaker = SEATS[state[1]]
                moves += [SurrenderOffer(speaker, False), SurrenderOffer(speaker.right, False)]
    return tuple(moves)


def can_make_mordienne(position: Any, seat: Union[Seat, str], *, max_nodes: Optional[int] = None) -> bool:
    """Whether ``seat`` can make mordienne from ``position`` whatever the other partnership plays (its partner
    helping), every hand open: the question "can North make mordienne from here?". Always ``False`` when the
    mordienne option is off; under Rebour's second form only an announced mordienne counts. ``position`` as for
    :func:`solve`; a finished deal answers from its result.

    Raises:
        UnknownSeatError: not a seat; else as :func:`solve`.
    """
    seat = Seat.parse(seat)
    view = _position(position)
    budget = _check_budget(max_nodes)
    _check_phase(view)
    if view.phase is Phase.OVER:
        score = view.result.score
        return bool(score is not None and score.mordienne and score.winner is seat)
    target = _INDEX[seat]
    sign = _SIGN[target]
    payoff = tuple((0, sign if s == target else 0) for s in range(4))
    search = _searcher(view, budget, payoff, 0)
    return search.value(_root(view), -1, 1) * sign > 0
