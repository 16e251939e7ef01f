"""Many deals played at once with numpy by four :class:`~aluette.players.bots.HeuristicBot` s without signals: the same
deals, decisions and scores as the step-by-step engine with ``players="heuristic"``.

:func:`heuristic_deals` is the twin of :func:`aluette.simulation.numpy_random.random_deals` (same arguments, same result arrays)
for four non-signalling heuristic players; :func:`aluette.simulation.simulate` uses it for
``players="heuristic", engine="vectorized"``. The heuristic bot draws no chance, so only each deal's shuffle and cut
(row slots 0-48 of the chance contract) are read. Every option is supported (mordienne, the chant with either
:class:`~aluette.options.ChantRecipients`, surrender); ``tests/test_vectorized_heuristic.py`` checks, for each
combination, that every deal gives exactly the step-by-step engine's result. The signalling bot is not vectorized.

How (seats are *relative*, as in :mod:`aluette.simulation.numpy_random`: 0 the dealer's left, who leads first, ... 3 the dealer):

* A card is its *place* in hand order (0 = Monsieur ... 47), and a set of cards one 48-bit integer with bit
  ``place`` set: a hand, the cards played so far, a seat's own discards. The cards of one ranking class are
  consecutive places, so "the cards stronger than class ``c``" is the mask of the places below the class's first.
* The bot's "lowest card" of a set (its ``_lowest``: weakest class, then first in deck order) is the weakest class of
  the highest set bit, then the lowest set bit within that class (places in a class follow deck order).
* Each of the 36 plays is decided for all deals at once: each rule of the bot gives a *set of candidate cards* (the
  hand, the beaters, the spare beaters...), the rules' conditions choose one set per deal, and the lowest card of
  that set is played (every play rule of the bot ends in "the lowest of ...").
* The third player's risk (``risk_at_most``, whole numbers): the chance that the fourth holds a card beating or
  tying strength ``s`` is at most ``third_risk`` exactly when the count of unseen cards of strength ``s`` or more is at
  most a bound that depends only on the number of unseen cards and the fourth's hand size; that bound is tabulated
  once by calling the bot's own ``risk_at_most``. So the classes "high enough" are the strongest ``K``, ``K`` the
  number of classes whose unseen-at-least count is within the bound.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ..players.bots import HeuristicBot, risk_at_most
from ..cards import TOP_FOUR, hand_place
from ..options import Options
from .numpy_random import (CHANT_SLOTS, CLASS_OF_PLACE, DISCARD_SLOTS, PLAY_SLOTS, SURRENDER_SLOTS, _discard_at_random,
                         check_draws, deal_places, deal_results, second_recipient)

__all__ = ["heuristic_deals", "mixed_deals"]

_U64 = np.uint64
_BOT = HeuristicBot  # the thresholds are read from the class, so a change there changes both engines alike
#: Bit of each place, and all 48.
_BIT = _U64(1) << np.arange(48, dtype=_U64)
_FULL = _U64((1 << 48) - 1)
#: _ABOVE[c]: the places of the classes stronger than class c (c = 0..19; _ABOVE[19] is every card).
_FIRST_PLACE = np.searchsorted(CLASS_OF_PLACE, np.arange(20))
_ABOVE = np.array([(1 << int(p)) - 1 for p in _FIRST_PLACE], dtype=_U64)
#: _CLASS_MASK[c]: the places of class c.
_CLASS_MASK = _ABOVE[1:] & ~_ABOVE[:-1]
#: _NOT_ABOVE[m]: the cards that are not masters (some unseen card beats or ties them) when the strongest unseen card
#: is of class m: class m and weaker. Index 19: nothing unseen, every card is a master.
_NOT_ABOVE = np.append(_FULL & ~_ABOVE[:19], _U64(0))
_STRENGTH_OF_PLACE = 19 - CLASS_OF_PLACE
#: Monsieur, Madame, le Borgne, la Vache (cards.TOP_FOUR): places 0-3.
_TOP_FOUR = _U64(sum(1 << hand_place(card) for card in TOP_FOUR))


def _risk_bounds() -> np.ndarray:
    """``bound[unseen, hand_size]``: the largest count ``a`` of unseen cards beating or tying a strength for which
    :func:`aluette.players.bots.risk_at_most` still holds with risk :attr:`HeuristicBot.third_risk` (it holds for every
    smaller count: fewer dangerous cards, less risk). Computed by calling the bot's function itself."""
    bound = np.zeros((49, 10), dtype=np.int64)
    for unseen in range(49):
        for size in range(10):
            at_least = [0] * 21
            a = 0
            while a < unseen:
                at_least[1] = a + 1
                if not risk_at_most(at_least, unseen, size, 1, _BOT.third_risk):
                    break
                a += 1
            bound[unseen, size] = a
    return bound


_RISK_BOUND = _risk_bounds()


# ------------------------------------------------------------------------------------------------ bit helpers
def _highest_bit(x: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of each 48-bit ``x`` (-1 for 0): exact, as integers below 2**53 are floats."""
    return np.frexp(x.astype(np.float64))[1] - 1


def _lowest_bit(x: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit of each ``x`` (-1 for 0)."""
    return _highest_bit(x & (~x + _U64(1)))


def _lowest(cards: np.ndarray) -> np.ndarray:
    """The place of the lowest card of each non-empty set: ``bots._lowest`` (weakest class; among its cards, the
    first in deck order, which is the lowest place of the class)."""
    weakest = CLASS_OF_PLACE[_highest_bit(cards)]
    return _lowest_bit(cards & _CLASS_MASK[weakest])


def _count(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x)


# ------------------------------------------------------------------------------------------------ before play
def _chant_answers(strength: np.ndarray, second: int) -> np.ndarray:
    """HeuristicBot's chant answers (``_chant``) of the two stock recipients (relative seats 0 and ``second``: 3, the
    dealer, or 1, his partner), ``(n, 2)``: a recipient agrees when its hand's strength is below ``chant_weak``. A
    seat receiving nothing agrees, so four bots chant when both recipients' hands are weak."""
    return strength[:, [0, second]] < _BOT.chant_weak


def _discard(hand: np.ndarray, stock: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """HeuristicBot's discard (``_discard``, the rules sheet, "keep the highest"): of the fifteen cards, keep the nine highest
    and discard the six lowest. Returns ``(kept, discarded)`` places, high to low."""
    fifteen = np.sort(np.concatenate([hand, stock], axis=1), axis=1)
    return fifteen[:, :9], fifteen[:, 9:]


def _surrender(strength: np.ndarray, hands: np.ndarray, chance: Optional[np.ndarray] = None,
               yes: Optional[np.ndarray] = None) -> tuple[np.ndarray, np.ndarray]:
    """HeuristicBot's surrender (``_surrender``): the dealer's left, then the dealer, offers when its hand's strength
    is below ``surrender_weak``; the other speaker accepts unless it holds Monsieur, Madame, le Borgne and la Vache.
    A seat in ``chance`` (``(n, 4)``, relative) decides at random instead: its ``k``-th decision of the surrender,
    whoever made the ones before, is ``yes[:, k]`` (the slots' doubles below 0.5: the dealer's left's offer; then
    the dealer's answer to it, or the dealer's own offer and the dealer's left's answer to that).
    Returns the relative offering team (-1 none) and whether the offer was accepted."""
    offers = strength < _BOT.surrender_weak
    holds_top = (hands & _TOP_FOUR) == _TOP_FOUR
    left_offers, dealer_offers = offers[:, 0], offers[:, 3]
    dealer_accepts, left_accepts = ~holds_top[:, 3], ~holds_top[:, 0]
    if chance is not None:
        left, dealer = chance[:, 0], chance[:, 3]
        left_offers = np.where(left, yes[:, 0], left_offers)
        dealer_accepts = np.where(dealer, yes[:, 1], dealer_accepts)
        dealer_offers = np.where(dealer, yes[:, 1], dealer_offers)
        left_accepts = np.where(left, yes[:, 2], left_accepts)
    first_offers = left_offers
    second_offers = ~first_offers & dealer_offers
    by = np.where(first_offers, 0, np.where(second_offers, 1, -1)).astype(np.int8)
    accepted = np.where(first_offers, dealer_accepts, second_offers & left_accepts)
    return by, accepted


# ------------------------------------------------------------------------------------------------ play rules
def _lead(hand: np.ndarray) -> np.ndarray:
    """``_lead`` (no signals): the lowest card, "early in a trick play low" (pagat.com). Returns candidate sets."""
    return hand


def _second(hand: np.ndarray, beaters: np.ndarray) -> np.ndarray:
    """``_second`` (no signals): the cheapest beater if it is a low card (strength up to ``second_cheap``), else the
    lowest card."""
    cheap = (beaters != 0) & (CLASS_OF_PLACE[_highest_bit(beaters)] >= 19 - _BOT.second_cheap)
    return np.where(cheap, beaters, hand)


def _beat_spoil_or_throw(hand: np.ndarray, beaters: np.ndarray, best: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """The third's and fourth's play when the partner is not winning (``_third``, ``_fourth``): beat the best card as
    cheaply as possible; else, with an opponent winning (not a tie), spoil by matching its class; else the lowest."""
    same = hand & _CLASS_MASK[best]
    return np.where(beaters != 0, beaters, np.where((winner >= 0) & (same != 0), same, hand))


def _third_over_partner(hand: np.ndarray, beaters: np.ndarray, best: np.ndarray, unseen: np.ndarray,
                        fourth_size: int, more_tricks: np.ndarray) -> np.ndarray:
    """``_third`` with the partner winning. "Holds" (``risk_at_most``): the fourth, holding ``fourth_size`` of the
    unseen cards, beats or ties a class with a chance of at most ``third_risk``. If the partner's card holds: take the
    trick from the partner only with more tricks than the partner, with the lowest beater that holds and is not a
    master; else the lowest card. If it does not hold: the lowest beater that holds, else the lowest card."""
    n_unseen = _count(unseen)
    bound = _RISK_BOUND[n_unseen, fourth_size]
    # unseen cards of each class or stronger (the bot's at_least), then the classes that hold: the strongest K
    at_least = _count(unseen[:, None] & _ABOVE[None, 1:])
    holding = _ABOVE[(at_least <= bound[:, None]).sum(axis=1)]
    partner_holds = (at_least[np.arange(len(best)), best] <= bound)
    not_master = _NOT_ABOVE[_strongest_class(unseen)]
    take = beaters & holding & not_master
    high_enough = beaters & holding
    return np.where(partner_holds, np.where(more_tricks & (take != 0), take, hand),
                    np.where(high_enough != 0, high_enough, hand))


def _fourth_over_partner(hand: np.ndarray, beaters: np.ndarray, unseen: np.ndarray,
                         more_tricks: np.ndarray) -> np.ndarray:
    """``_fourth`` with the partner winning: the lowest card, unless this seat has more tricks than its partner and a
    beater that is not a master (some unseen card beats or ties it): then the lowest such beater."""
    spare = beaters & _NOT_ABOVE[_strongest_class(unseen)]
    return np.where(more_tricks & (spare != 0), spare, hand)


def _strongest_class(cards: np.ndarray) -> np.ndarray:
    """Class of the strongest card of each set (19 for an empty set)."""
    return np.where(cards != 0, CLASS_OF_PLACE[_lowest_bit(cards)], 19)


# ------------------------------------------------------------------------------------------------ the deal
def _random_card(hand: np.ndarray, u: np.ndarray, in_hand: int) -> np.ndarray:
    """The random player's card (contract point 4; :func:`aluette.simulation.step._random_move`): ``legal_cards()[floor(u *
    k)]`` of the ``k`` cards in hand, high to low, which is the ``floor(u * k)``-th lowest place of the set."""
    index = (u * in_hand).astype(np.int64)
    for j in range(in_hand - 1):  # take out the lowest card `index` times
        hand = np.where(index > j, hand & (hand - _U64(1)), hand)
    return _lowest_bit(hand)


def _play(hands: np.ndarray, discards: np.ndarray, record: Optional[np.ndarray] = None,
          random_seats: Optional[np.ndarray] = None, u: Optional[np.ndarray] = None) -> tuple:
    """Play nine tricks. ``hands``, ``discards``: ``(n, 4)`` card sets by relative seat (``hands`` is changed).
    Returns ``(outcomes, counts, reached)`` as :func:`aluette.simulation.numpy_random.deal_results` takes them; ``record``, if given,
    an ``(n, 36)`` array, receives the place of each play in order (for tests). ``random_seats``, if given, an
    ``(n, 4)`` bool array by relative seat: those seats play at random, play ``p`` reading ``u[:, p]`` (the 36 play
    slots of the chance contract)."""
    n = len(hands)
    flat_random = None if random_seats is None else random_seats.reshape(-1)
    flat_hands = hands.reshape(-1)
    flat_discards = discards.reshape(-1)
    rows4 = np.arange(n, dtype=np.int64) * 4
    played = np.zeros(n, dtype=_U64)
    outcomes = np.empty((n, 9), dtype=np.int8)
    counts = np.zeros((n, 5), dtype=np.int8)  # tricks spoiled, then won by each seat
    flat_counts = counts.reshape(-1)
    reached = np.zeros((n, 5), dtype=np.int8)  # the last trick each seat won
    flat_reached = reached.reshape(-1)
    slot = np.arange(0, 5 * n, 5) + 1
    leader = np.zeros(n, dtype=np.int64)
    for trick in range(9):
        best = np.full(n, 19, dtype=np.int64)  # the best class so far (19: none)
        winner = np.full(n, -1, dtype=np.int64)  # who plays it (-1: tied, or nobody yet)
        for position in range(4):
            seat = (leader + position) & 3
            at = rows4 + seat
            hand = flat_hands[at]
            beaters = hand & _ABOVE[best]
            if position == 0:
                candidates = _lead(hand)
            elif position == 1:
                candidates = _second(hand, beaters)
            else:
                partner = (seat + 2) & 3
                partner_wins = winner == partner
                unseen = _FULL & ~(played | hand | flat_discards[at])
                more_tricks = flat_counts[slot + seat] > flat_counts[slot + partner]
                if position == 2:
                    over = _third_over_partner(hand, beaters, best, unseen, 9 - trick, more_tricks)
                else:
                    over = _fourth_over_partner(hand, beaters, unseen, more_tricks)
                candidates = np.where(partner_wins, over, _beat_spoil_or_throw(hand, beaters, best, winner))
            place = _lowest(candidates)
            if flat_random is not None:
                chance = flat_random[at]
                if chance.any():
                    place = np.where(chance, _random_card(hand, u[:, trick * 4 + position], 9 - trick), place)
            if record is not None:
                record[:, trick * 4 + position] = place
            bit = _BIT[place]
            flat_hands[at] = hand & ~bit
            played |= bit
            cls = CLASS_OF_PLACE[place]  # the best so far and who played it: tricks.best_of, card by card
            winner = np.where(cls < best, seat, np.where(cls == best, -1, winner))
            best = np.minimum(best, cls)
        outcomes[:, trick] = winner
        won = slot + winner
        flat_counts[won] += 1
        flat_reached[won] = trick
        leader = np.where(winner >= 0, winner, leader)
    return outcomes, counts, reached


def heuristic_deals(draws: np.ndarray, dealers: np.ndarray, options: Optional[Options] = None, *,
                    record: Optional[np.ndarray] = None) -> dict:
    """Play deals to the end with four :class:`~aluette.players.bots.HeuristicBot` s without signals.

    Args:
        draws: ``(n, 94)`` uniform doubles, one row per deal (layout: :mod:`aluette.simulation`); only the shuffle
            and cut (slots 0-48) are read: the bots decide without chance.
        dealers: ``(n,)`` dealer of each deal as a seat index (0 N, 1 E, 2 S, 3 W).
        options: the rule :class:`~aluette.options.Options` (default ``Options()``); every combination is supported.
        record: optional ``(n, 36)`` integer array that receives each deal's 36 plays in order, as places in hand
            order (0 = Monsieur; see :mod:`aluette.simulation.numpy_random`), for tests that compare play by play.

    Returns:
        The per-deal arrays of :func:`aluette.simulation.numpy_random.random_deals`, exactly as
        :func:`aluette.simulation.step_deals` returns them with four ``HeuristicBot()``.

    Raises:
        ValueError: arrays of the wrong shape.
    """
    return mixed_deals(draws, dealers, options, ("heuristic",) * 4, record=record)


def mixed_deals(draws: np.ndarray, dealers: np.ndarray, options: Optional[Options] = None,
                players: Sequence[str] = ("heuristic",) * 4, *, record: Optional[np.ndarray] = None) -> dict:
    """Play deals to the end with any mix of random players and non-signalling
    :class:`~aluette.players.bots.HeuristicBot` s, one kind per seat: the twin of the step-by-step engine with ``players``
    ``{seat: kind}``. A random player reads its decision's double of the chance contract (:mod:`aluette.simulation.contract`,
    point 4: the ``k``-th decision of a phase reads that phase's ``k``-th slot, whoever made the decisions before),
    a bot decides without chance.

    Args:
        draws, dealers, options, record: as for :func:`heuristic_deals`.
        players: four kinds, ``"random"`` or ``"heuristic"``, for N, E, S and W (:data:`~aluette.seats.SEATS`).

    Returns:
        The per-deal arrays of :func:`aluette.simulation.numpy_random.random_deals`, exactly as
        :func:`aluette.simulation.step_deals` returns them with those players.

    Raises:
        ValueError: arrays of the wrong shape, or ``players`` not four of ``"random"`` and ``"heuristic"``.
    """
    options = Options.coerce(options).check_simulable()
    draws, dealers = check_draws(draws, dealers)
    players = tuple(players)
    if len(players) != 4 or not set(players) <= {"random", "heuristic"}:
        raise ValueError(f"players must be four of 'random' and 'heuristic' (N, E, S, W), got {players!r}")
    n = len(draws)
    # relative seat r (0 = the dealer's left) is the absolute seat (dealer + 1 + r) % 4
    absolute = (dealers.astype(np.int64)[:, None] + 1 + np.arange(4)) % 4
    chance = np.array([p == "random" for p in players])[absolute]  # (n, 4): the seats that play at random
    keys = deal_places(draws)
    hands = keys[:, :36].reshape(n, 4, 9).copy()
    second = second_recipient(options)
    chant = np.zeros(n, dtype=bool)
    if options.chant:  # a random seat answers "yes" when its slot's double is below 0.5 (asked from the dealer's left)
        yes = draws[:, CHANT_SLOTS:CHANT_SLOTS + 4] < 0.5
        bot_yes = np.ones((n, 4), dtype=bool)
        bot_yes[:, [0, second]] = _chant_answers(_STRENGTH_OF_PLACE[hands].sum(axis=2), second)
        chant = np.where(chance, yes, bot_yes).all(axis=1)  # all four agree
    discards = np.zeros((n, 4), dtype=_U64)
    c = np.flatnonzero(chant)
    for seat, stock, slot in ((0, keys[c, 36:42], DISCARD_SLOTS), (second, keys[c, 42:48], DISCARD_SLOTS + 1)):
        kept, thrown = _discard(hands[c, seat], stock)
        by_chance = chance[c, seat]
        if by_chance.any():
            kept = np.where(by_chance[:, None], _discard_at_random(hands[c, seat], stock, draws[c, slot]), kept)
        hands[c, seat] = kept
        discards[c, seat] = np.bitwise_or.reduce(_BIT[thrown], axis=1)  # only a bot reads its own discards
    masks = np.bitwise_or.reduce(_BIT[hands], axis=2)  # (n, 4)
    by = np.full(n, -1, dtype=np.int8)
    accepted = np.zeros(n, dtype=bool)
    if options.surrender:
        by, accepted = _surrender(_STRENGTH_OF_PLACE[hands].sum(axis=2), masks, chance,
                                  draws[:, SURRENDER_SLOTS:SURRENDER_SLOTS + 3] < 0.5)
    random_seats = chance if chance.any() else None
    outcomes, counts, reached = _play(masks, discards, record, random_seats, draws[:, PLAY_SLOTS:PLAY_SLOTS + 36])
    return deal_results(outcomes, counts, reached, chant, by, accepted, dealers, options)  # scoring.score_deal
