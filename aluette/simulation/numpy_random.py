"""Random play of many deals at once with numpy: the same deals, moves and scores as :class:`aluette.Deal` driven
move by move, for the chance contract of :mod:`aluette.simulation`.

:func:`random_deals` takes each deal's 94 uniform doubles (one row per deal, laid out as the contract says) and
returns the per-deal results that :mod:`aluette.simulation` turns into a DataFrame. Every rule option is supported:
the chant with random answers and random discards (either :class:`~aluette.options.ChantRecipients`), surrender with
random offers and answers, mordienne on or off, spoiled tricks and "first to reach". ``tests/test_vectorized.py``
checks, for each option combination, that every deal gives exactly the step-by-step engine's result. Its twin for
four non-signalling heuristic bots, :func:`aluette.simulation.numpy_heuristic.heuristic_deals`, shares the dealing
(:func:`deal_places`) and the scoring (:func:`deal_results`) below.

How (rules as in :mod:`aluette.deal`; all seats here are *relative*: 0 is the dealer's left, who leads first, then
clockwise 1 the dealer's partner, 2 the dealer's right, 3 the dealer). The tables are computed from the engine's
own (:data:`~aluette.cards.HAND_ORDER`, the cards' strengths, :func:`~aluette.options.chant_recipients`), and each
block names in a comment the engine function it mirrors; ``tests/test_vectorized.py`` checks each against that
function (:func:`aluette.tricks.best_of`, :func:`aluette.scoring.score_deal`):

* A card is numbered by its *place* in hand order (0 = Monsieur ... 47 = the last three), so a hand sorted by place
  is the engine's hand (high to low). Dealing is one integer sort per deal of ``owner * 64 + place`` over the
  shuffled deck: it gives the four sorted hands and the two halves of the stock (the cards the chant would give to
  the first and to the second recipient), from which the chant's random discards keep nine.
* Then only a card's ranking class matters, so a hand is packed in one 64-bit integer, five bits per card, highest
  first: play ``floor(u * k)`` takes out field ``floor(u * k)``.
* Random play does not look at the table, so the four cards of a trick are chosen at once; a table of the 19**4
  class combinations gives the winner: the unique strongest class, or nobody when it is tied (a spoiled trick, and
  the leader leads again; the rules sheet, "gameplay").
"""

from __future__ import annotations

import itertools
from typing import Optional

import numpy as np

from ..cards import DECK, HAND_ORDER, RANKING, hand_place
from ..chance import DEAL_POSITIONS, stable_orders
from ..options import Options, chant_recipients
from ..seats import SEATS, Seat

#: The deal, the checks and the scoring below are shared with the heuristic engine
#: (:mod:`aluette.simulation.numpy_heuristic`), which plays the same deals with other moves.
__all__ = ["random_deals", "DRAWS_PER_DEAL", "CLASS_OF_PLACE", "second_recipient", "check_draws", "deal_places",
           "deal_results"]

#: Uniform doubles per deal, and where each decision reads its double (see :mod:`aluette.simulation`).
DRAWS_PER_DEAL = 94
CHANT_SLOTS, DISCARD_SLOTS, SURRENDER_SLOTS, PLAY_SLOTS = 49, 53, 55, 58

#: Place (cards.hand_place) of each card index, and (CLASS_OF_PLACE) the ranking class (0 = strongest ... 18) of
#: each place.
_PLACE = np.array([hand_place(card) for card in DECK], dtype=np.int16)
CLASS_OF_PLACE = np.array([len(RANKING) - card.strength for card in HAND_ORDER], dtype=np.int64)

#: Owner of each position of the cut deck: relative seat 0-3, 4/5 for the stock cards the chant gives to the
#: first/second recipient (stock[0::2] and stock[1::2], as in Deal). Row c, times 64: the owners of the shuffled
#: positions q = 0..47 after a cut of c cards, OWNER[(q - c) % 48].
_OWNER = np.empty(48, dtype=np.int16)
for _p, _positions in enumerate(DEAL_POSITIONS):
    _OWNER[list(_positions)] = _p
_OWNER[36::2], _OWNER[37::2] = 4, 5
_OWNER_BY_CUT = np.array([np.roll(_OWNER, c) for c in range(48)], dtype=np.int16) * 64

#: For the i-th way (itertools.combinations order) to discard six of fifteen cards, the nine positions kept.
_KEEP = np.array([[p for p in range(15) if p not in combo] for combo in itertools.combinations(range(15), 6)],
                 dtype=np.intp)
#: A hand is packed in one integer: the ranking class of each card in five bits, highest card lowest.
_PACK = 32 ** np.arange(9, dtype=np.int64)
#: Cards in hand at each of the 36 plays (nine at trick 1 ... one at trick 9).
_IN_HAND = np.repeat(np.arange(9, 0, -1), 4).astype(np.float64)
_U64 = np.uint64
#: Right shift of a trick's doubled four bytes that gives seat s the byte of play position (s - leader) % 4.
_ROTATION = np.array([32, 24, 16, 8], dtype=_U64)


def _trick_winners() -> np.ndarray:
    """For the classes (c0, c1, c2, c3) the four seats played, at index ((c0 * 19 + c1) * 19 + c2) * 19 + c3: the
    seat (0-3) that wins, or -1 when the strongest class was played twice or more (a spoiled trick).
    Mirrors :func:`aluette.tricks.best_of` (the test compares every entry with it)."""
    classes = np.stack(np.unravel_index(np.arange(19 ** 4), (19,) * 4), axis=1)
    best = classes.min(axis=1)
    is_best = classes == best[:, None]
    return np.where(is_best.sum(axis=1) == 1, is_best.argmax(axis=1), -1).astype(np.int8)


_TRICK_WINNER = _trick_winners()


def second_recipient(options: Options) -> int:
    """The relative seat (1 or 3) of the second stock recipient, from :func:`aluette.options.chant_recipients` (the
    first is the dealer's left, relative seat 0)."""
    first, second = chant_recipients(Seat.N, options)
    return (SEATS.index(second) - SEATS.index(first)) % 4


def _discard_at_random(hands: np.ndarray, stock: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Nine sorted places kept from nine (``hands``) plus six (``stock``), discarding the ``floor(u * 5005)``-th
    combination of six of the fifteen sorted cards. Mirrors the random discard of
    :func:`aluette.simulation.step_deals` (``aluette.simulation.step._random_move``)."""
    fifteen = np.sort(np.concatenate([hands, stock], axis=1), axis=1)
    return np.take_along_axis(fifteen, _KEEP[(u * len(_KEEP)).astype(np.intp)], axis=1)


def check_draws(draws, dealers) -> tuple[np.ndarray, np.ndarray]:
    """``draws`` as ``(n, 94)`` doubles and ``dealers`` as ``(n,)`` int8; raises ValueError on wrong shapes."""
    draws = np.asarray(draws, dtype=np.float64)
    n = len(draws)
    if draws.ndim != 2 or draws.shape[1] != DRAWS_PER_DEAL:
        raise ValueError(f"draws must have shape (n, {DRAWS_PER_DEAL}), got {draws.shape}")
    dealers = np.asarray(dealers, dtype=np.int8)
    if dealers.shape != (n,):
        raise ValueError(f"dealers must have shape ({n},), got {dealers.shape}")
    return draws, dealers


def deal_places(draws: np.ndarray) -> np.ndarray:
    """Shuffle, cut and deal: ``(n, 48)`` places, the four hands (relative seats 0-3, nine each, high to low), then the
    six stock cards the chant gives the first recipient and the six for the second. Mirrors
    :func:`aluette.chance.shuffled_deck`, :func:`~aluette.chance.cut_deck`, :func:`~aluette.chance.deal_from_deck`
    and :func:`~aluette.chance.stock_steps`.
    Sorting owner * 64 + place over the shuffled deck groups the cards by owner, each group high to low."""
    keys = _OWNER_BY_CUT[1 + (draws[:, 48] * 47).astype(np.intp)] + _PLACE[stable_orders(draws[:, :48])]
    keys.sort(axis=1)
    keys &= 63
    return keys


def deal_results(outcomes: np.ndarray, counts: np.ndarray, reached: np.ndarray, chant: np.ndarray, by: np.ndarray,
             accepted: np.ndarray, dealers: np.ndarray, options: Options) -> dict:
    """Score played deals and return the per-deal arrays of :func:`random_deals` (absolute seats). Mirrors
    :func:`aluette.scoring.score_deal` (:func:`aluette.scoring.score_tricks`, then the surrender).

    ``outcomes`` ``(n, 9)``: the relative winner of each trick (0-3) or -1 when spoiled; ``counts`` ``(n, 5)``:
    tricks spoiled, then won by relative seats 0-3; ``reached`` ``(n, 5)``: the last trick each won; ``by``: the
    relative team that offered to surrender (-1 none), ``accepted``: whether the offer was accepted."""
    n = len(outcomes)
    # Mirrors scoring.score_tricks: most tricks; a tie goes to whoever reached that count first.
    # (Seat by seat over columns: numpy reduces a long axis faster than many axes of four.)
    top = np.maximum.reduce([counts[:, 1 + s] for s in range(4)])
    nobody = top == 0
    leaders = [counts[:, 1 + s] == top for s in range(4)]
    first_to_reach = ~nobody & (np.add.reduce(leaders, dtype=np.int8) > 1)
    # among the leaders, the first to reach: the least (last won trick * 4 + seat)
    first = np.minimum.reduce([np.where(leaders[s], reached[:, 1 + s].astype(np.int16) * 4 + s, 99 * 4)
                               for s in range(4)])
    winner = (first & 3).astype(np.int8)
    # Mirrors scoring._is_mordienne: the winner's unbroken run of tricks ending with the ninth, after a trick it
    # did not win.
    run = np.zeros(n, dtype=np.int8)
    alive = np.ones(n, dtype=bool)
    for trick in range(8, -1, -1):
        alive &= outcomes[:, trick] == winner
        run += alive
    mordienne = ~nobody & (run == top) & (top < 9) & options.mordienne
    points = np.where(nobody, 0, np.where(mordienne, 2, 1))
    team = np.where(nobody, -1, winner & 1)

    # Mirrors scoring.score_deal: surrender refused, the refusing side scores 2 with mordienne, else the offering side
    # scores 2; accepted, the accepting side scores 1 and the deal is not played.
    refused = (by >= 0) & ~accepted
    refusing = 1 - by
    made = mordienne & (team == refusing)
    team = np.where(refused, np.where(made, refusing, by), team)
    points = np.where(refused, 2, points)
    played = ~accepted
    team = np.where(accepted, 1 - by, team)
    points = np.where(accepted, 1, points)

    # Relative seats and teams to absolute ones: relative seat r is seat (dealer + 1 + r) % 4; team = seat % 2.
    base = dealers.astype(np.int16) + 1
    absolute_team = np.where(team >= 0, (base + team) % 2, -1).astype(np.int8)
    return {
        "outcomes": np.where(played[:, None], np.where(outcomes >= 0, (base[:, None] + outcomes) % 4, 4), -1)
        .astype(np.int8),
        "winner": np.where(played & ~nobody, (base + winner) % 4, -1).astype(np.int8),
        "team": absolute_team,
        "points_ns": np.where(absolute_team == 0, points, 0).astype(np.int8),
        "points_ew": np.where(absolute_team == 1, points, 0).astype(np.int8),
        "mordienne": mordienne & played,
        "first_to_reach": first_to_reach & played,
        "chant": chant,
        "surrendered_by": np.where(by >= 0, (base + by) % 2, -1).astype(np.int8),
        "surrender_accepted": np.where(by >= 0, accepted, -1).astype(np.int8),
    }


def random_deals(draws: np.ndarray, dealers: np.ndarray, options: Optional[Options] = None) -> dict:
    """Play deals to the end with four random players.

    Args:
        draws: ``(n, 94)`` uniform doubles in [0, 1), row ``j`` for deal ``j`` (layout: :mod:`aluette.simulation`),
            multiples of 2**-53 as ``Generator.random`` draws them.
        dealers: ``(n,)`` dealer of each deal as a seat index (0 N, 1 E, 2 S, 3 W).
        options: the rule :class:`~aluette.options.Options` (default ``Options()``).

    Returns:
        ``{name: array}`` of length ``n`` (absolute seats 0-3 = N, E, S, W; teams 0 = NS, 1 = EW; -1 = none):
        ``outcomes`` ``(n, 9)`` int8 (the trick winner, 4 for a spoiled trick, -1 when the deal was not played),
        ``winner``, ``team`` (the partnership that scores), ``points_ns``, ``points_ew``, ``mordienne``,
        ``first_to_reach``, ``chant`` (all four agreed), ``surrendered_by``, ``surrender_accepted`` (-1, 0, 1).

    Raises:
        ValueError: arrays of the wrong shape.
    """
    options = Options.coerce(options).check_simulable()
    draws, dealers = check_draws(draws, dealers)
    n = len(draws)

    keys = deal_places(draws)
    hands = keys[:, :36].reshape(n, 4, 9)

    # The chant (the rules sheet, "setup"; Deal._do_chant): only if all four agree; each recipient then discards six at random.
    chant = np.zeros(n, dtype=bool)
    if options.chant:
        chant = np.logical_and.reduce([draws[:, CHANT_SLOTS + k] < 0.5 for k in range(4)])
        c = np.flatnonzero(chant)
        second = second_recipient(options)
        for seat, stock, slot in ((0, keys[c, 36:42], DISCARD_SLOTS), (second, keys[c, 42:48], DISCARD_SLOTS + 1)):
            hands[c, seat] = _discard_at_random(hands[c, seat], stock, draws[c, slot])
    packed = (CLASS_OF_PLACE[hands] @ _PACK).astype(_U64)  # (n, 4)

    # Surrender (pagat.com; Deal._do_surrender): the dealer's left (team 0) speaks, then the dealer (team 1); an offer
    # is answered by the other speaker. by = the offering team (relative), accepted = whether the other side accepted.
    by = np.full(n, -1, dtype=np.int8)
    accepted = np.zeros(n, dtype=bool)
    if options.surrender:
        yes = draws[:, SURRENDER_SLOTS:SURRENDER_SLOTS + 3] < 0.5
        first_offers, second_offers = yes[:, 0], ~yes[:, 0] & yes[:, 1]
        by[first_offers], by[second_offers] = 0, 1
        accepted = np.where(first_offers, yes[:, 1], second_offers & yes[:, 2])

    # Nine tricks (Deal.play_index, the winner by tricks.best_of). Play p takes card floor(u * k) of the k in hand: byte p of `chosen`; the four bytes of a trick,
    # in play order, read as one little-endian integer and rotated by the leader, give each seat its own.
    chosen = np.ascontiguousarray((draws[:, PLAY_SLOTS:PLAY_SLOTS + 36] * _IN_HAND).astype(np.uint8))
    by_trick = chosen.view("<u4").astype(_U64)  # (n, 9)
    outcomes = np.empty((n, 9), dtype=np.int8)
    counts = np.zeros((n, 5), dtype=np.int8)  # tricks spoiled, then won by each seat
    reached = np.zeros((n, 5), dtype=np.int8)  # the last trick each seat won
    slot = np.arange(0, 5 * n, 5) + 1
    leader = np.zeros(n, dtype=np.int8)
    for trick in range(9):
        x = by_trick[:, trick]
        rotated = (((x << _U64(32)) | x) >> _ROTATION[leader]) & _U64(0xFFFFFFFF)
        shift = rotated.astype("<u4").view(np.uint8).reshape(n, 4).astype(_U64) * _U64(5)
        classes = (packed >> shift) & _U64(31)
        packed = (packed & ((_U64(1) << shift) - _U64(1))) | ((packed >> (shift + _U64(5))) << shift)  # play it
        winner = _TRICK_WINNER[((classes[:, 0] * _U64(19) + classes[:, 1]) * _U64(19) + classes[:, 2]) * _U64(19)
                               + classes[:, 3]]
        outcomes[:, trick] = winner
        at = slot + winner
        counts.ravel()[at] += 1
        reached.ravel()[at] = trick
        leader = np.where(winner >= 0, winner, leader)

    return deal_results(outcomes, counts, reached, chant, by, accepted, dealers, options)
