"""Chance: shuffling, cutting and dealing, always from an explicit seed or generator.

The state never owns a hidden random generator (OpenSpiel's rule): a shuffle is an outcome drawn by whoever drives
the game and passed in, so any position can be replayed from its seed or from the recorded deck order.

Decision of this project (the sources are silent) [shuffle-from-pcg64]: how a shuffle is drawn (fixed, so the same
seed gives the same deal on every machine): from a numpy
``Generator`` (PCG64, ``numpy.random.default_rng(seed)``), draw 49 uniform doubles; the deck order is the stable
argsort of the first 48 (a uniformly random permutation of :data:`~aluette.cards.DECK`), and the cut position is
``1 + floor(47 * u[48])`` (1 to 47 cards lifted from the top and put below). Drawing a block of deals at once with
``rng.random((n, 49))`` gives exactly the same deals as ``n`` single draws, which the simulation relies on.

Rule source for the deal (the rules sheet, "setup"; pagat.com: « Le croupier mélange et le joueur à sa droite coupe.
Ensuite, le donneur distribue neuf cartes à chaque joueur par lots de trois »): the dealer shuffles, the player to the
dealer's right cuts, the dealer deals nine cards to each player, three at a time; twelve remain (the stock).

Decision of this project (the sources are silent) [deal-from-dealer-left]: neither source says where the deal starts;
the dealer deals the three rounds of three starting with the player at the dealer's left and going clockwise, the
direction of play (:func:`deal_steps`, :func:`deal_from_deck`).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Mapping, Optional, Sequence, Union

import numpy as np

from .cards import DECK, Card, CardLike, parse_cards
from .errors import AluetteError, BadSeedError, DuplicateCardError, quoted
from .i18n import N_, _
from .seats import Seat

__all__ = ["check_seed", "seed_number", "MAX_SEED", "as_generator", "match_generator", "match_deal_seed", "shuffled_deck",
           "shuffles_from_uniforms", "stable_orders", "cut_deck", "deal_from_deck", "deal_unchecked", "deal_steps",
           "stock_steps", "deck_from_hands", "DEAL_POSITIONS", "SeedLike"]

SeedLike = Union[int, np.random.Generator, np.random.SeedSequence]

#: The largest integer seed: numpy's ``default_rng`` takes larger ones, but a seed is something a person types,
#: saves and shares; 2**64 - 1 is more deals than anyone can look at.
MAX_SEED = 2 ** 64 - 1


def check_seed(seed, what: str = N_("seed"), maximum: int = MAX_SEED) -> int:
    """``seed`` as an ``int`` if it is a seed: a whole number (``int`` or numpy integer, not ``bool``, not a float
    such as 12.7 or 12.0, not text) from 0 to ``maximum``. The one check of every seed in :mod:`aluette` (deals,
    matches, bots, simulations, scenarios, saved games, the widgets' seed boxes with their own ``maximum``).

    Raises:
        BadSeedError: anything else, ``None`` included (chance comes from an explicit seed); the message names
            ``what`` and quotes at most a short prefix of the value.
    """
    if isinstance(seed, np.integer):
        seed = int(seed)
    if seed is None:
        raise BadSeedError(_("{what} missing: pass an explicit seed, a whole number from 0 to {maximum} (all chance "
                             "in aluette comes from an explicit seed)").format(what=_(what), maximum=maximum))
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= maximum:
        raise BadSeedError(_("{what} must be a whole number from 0 to {maximum}, got {value}").format(
            what=_(what), maximum=maximum, value=quoted(seed)))
    return int(seed)


def seed_number(seed: SeedLike) -> Optional[int]:
    """The integer seed to record (in a save, on a deal or a match), or ``None`` when chance comes from a numpy
    ``Generator`` or ``SeedSequence``.

    Raises:
        BadSeedError: neither (see :func:`check_seed`).
    """
    if isinstance(seed, (np.random.Generator, np.random.SeedSequence)):
        return None
    return check_seed(seed)


def as_generator(seed: SeedLike) -> np.random.Generator:
    """A numpy ``Generator`` from a seed (see :func:`check_seed`), a ``SeedSequence``, or a ``Generator`` (returned
    as is).

    Raises:
        BadSeedError: ``None``, or not a seed (see :func:`check_seed`).
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    return np.random.default_rng(check_seed(seed, N_("a seed (or a numpy Generator)")))


def match_deal_seed(seed: Union[int, np.random.SeedSequence], number: int) -> np.random.SeedSequence:
    """Where deal ``number`` (1-based) of a :class:`~aluette.Match` draws its shuffle from: a pure function of the
    match's seed and the deal's number, so the match holds no generator (this module's rule) and any deal of it can
    be dealt again alone. For an integer seed, the match's stream ``SeedSequence(seed, spawn_key=(1,))`` for the first
    deal (as before deals had their own streams, so a match's first deal, the one the lessons show, is unchanged),
    and its child ``SeedSequence(seed, spawn_key=(1, number))`` for deal ``number`` >= 2: streams independent of
    ``default_rng(seed)`` that :meth:`Deal.from_seed <aluette.Deal.from_seed>` and the single-deal demos use (so the
    seed a match shows cannot be typed into a demo that shows every hand to reveal the match's hands) and of each
    other. For a ``SeedSequence``, itself for the first deal and its child of spawn key ``number`` after (the same
    numbers: a match of seed ``s`` deals as one of ``SeedSequence(s, spawn_key=(1,))``).

    Raises:
        BadSeedError: ``seed`` is neither (see :func:`check_seed`). AluetteError: ``number`` is not a whole number
            of at least 1.
    """
    if type(number) is not int or number < 1:
        raise AluetteError(_("deals are numbered from 1, got {number}").format(number=quoted(number)))
    if not isinstance(seed, np.random.SeedSequence):
        seed = np.random.SeedSequence(check_seed(seed), spawn_key=(1,))
    if number == 1:
        return seed
    return np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key) + (number,), pool_size=seed.pool_size)


def match_generator(seed: SeedLike) -> np.random.Generator:
    """The one generator that a :class:`~aluette.Match` saved at version 1 (before deal ``k`` came from
    :func:`match_deal_seed`) drew its deals from in turn: for an integer seed,
    ``default_rng(SeedSequence(seed, spawn_key=(1,)))``; a ``Generator`` or ``SeedSequence`` as given
    (:func:`as_generator`). Kept so that such saves still replay (``Match(..., version=1)``).

    Raises:
        BadSeedError: as :func:`as_generator`.
    """
    number = seed_number(seed)  # the one seed check
    if number is None:
        return as_generator(seed)
    return np.random.default_rng(np.random.SeedSequence(number, spawn_key=(1,)))


def shuffles_from_uniforms(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Many shuffles at once from their uniform doubles: ``u`` of shape ``(n, 49)`` gives ``(orders, cuts)``, the
    card indices (into :data:`~aluette.cards.DECK`) of each shuffled deck before the cut, shape ``(n, 48)``, top
    first, and the cuts (1-47), shape ``(n,)``: the draw of the module docstring for each row.

    ``orders`` is ``np.argsort(u[:, :48], axis=1, kind="stable")``, computed three times faster when every double is
    a multiple of 2**-53 (as ``Generator.random`` draws them): then the integer keys ``u * 2**53``, with the card
    index in the low six bits, sort exactly as a stable sort of ``u`` does, ties broken by card index.

    Raises:
        ValueError: ``u`` is not of shape ``(n, 49)`` with values in [0, 1).
    """
    u = np.asarray(u, dtype=np.float64)
    if u.ndim != 2 or u.shape[1] != 49 or (u.size and not (0 <= u.min() and u.max() < 1)):
        raise ValueError(f"expected uniform doubles in [0, 1) of shape (n, 49), got shape {u.shape}")
    return stable_orders(u[:, :48]), 1 + (u[:, 48] * 47).astype(np.int64)


def stable_orders(u: np.ndarray) -> np.ndarray:
    """``np.argsort(u, axis=1, kind="stable")`` for doubles in [0, 1), three times faster when they are multiples of
    2**-53 (see :func:`shuffles_from_uniforms`); no check of ``u``. Shared with the numpy engine
    (:mod:`aluette.simulation.numpy_random`), which sorts the same doubles."""
    scaled = u * 2.0 ** 53
    keys = scaled.astype(np.int64)
    if not np.array_equal(keys, scaled):  # finer doubles than Generator.random draws: sort them directly
        return np.argsort(u, axis=1, kind="stable")
    keys <<= 6
    keys |= np.arange(48, dtype=np.int64)
    keys.sort(axis=1)
    keys &= 63
    return keys


def shuffled_deck(rng: SeedLike) -> tuple[tuple[Card, ...], int]:
    """Shuffle and cut: returns ``(order, cut)``, the shuffled 48 cards *before* the cut, top card first, and the
    number of cards (1-47) the cutter lifts. See the module docstring for the exact draw."""
    u = as_generator(rng).random(49).tolist()  # one row of shuffles_from_uniforms (a test checks they agree)
    order = sorted(range(48), key=u.__getitem__)  # Python's sort is stable, like argsort(kind="stable")
    return tuple(map(DECK.__getitem__, order)), 1 + int(u[48] * 47)


def cut_deck(order: Sequence[Card], cut: int) -> tuple[Card, ...]:
    """The deck after lifting ``cut`` cards from the top and putting them at the bottom.

    Raises:
        AluetteError: ``cut`` outside 0-47 (0 means no cut, used for positions built from given hands).
    """
    if isinstance(cut, bool) or not isinstance(cut, int) or not 0 <= cut < 48:
        raise AluetteError(_("a cut lifts 0 to 47 cards, got {cut}").format(cut=quoted(cut)))
    return tuple(order[cut:]) + tuple(order[:cut])


def _deal_position(round_: int, position: int, card: int) -> int:
    # deck index of the `card`-th card (0-2) of round `round_` (0-2) given to the `position`-th seat from the left
    return round_ * 12 + position * 3 + card


#: Deck positions of the nine cards of the seat ``p`` places from the dealer's left (0-3), in the order received.
DEAL_POSITIONS: tuple[tuple[int, ...], ...] = tuple(tuple(_deal_position(r, p, c) for r in range(3) for c in range(3))
                                                    for p in range(4))
_TAKE_HAND = tuple(itemgetter(*positions) for positions in DEAL_POSITIONS)
_DECK_IDS = frozenset(map(id, DECK))  # cards are canonical objects: same identities = same cards
_FROM_LEFT = {dealer: dealer.left.clockwise_from() for dealer in Seat}


def deal_from_deck(deck: Sequence[Card], dealer: Seat) -> tuple[dict[Seat, tuple[Card, ...]], tuple[Card, ...]]:
    """Deal a cut deck: three rounds of three cards, starting at the dealer's left, clockwise.

    Returns ``(hands, stock)``: nine cards per seat in the order received, and the twelve cards left, top first.

    Raises:
        AluetteError: the deck is not the 48 distinct cards.
    """
    deck = tuple(deck)
    if len(deck) != 48 or set(map(id, deck)) != _DECK_IDS:
        raise AluetteError(_("a deck must hold each of the 48 cards exactly once"))
    return deal_unchecked(deck, Seat.parse(dealer))


def deal_unchecked(deck: tuple[Card, ...], dealer: Seat) -> tuple[dict[Seat, tuple[Card, ...]], tuple[Card, ...]]:
    """:func:`deal_from_deck` without its check, for a deck known to hold the 48 cards once each (a shuffle of
    :data:`~aluette.cards.DECK`; :class:`~aluette.deal.Deal` deals every deck this way after checking it once)."""
    return {seat: take(deck) for seat, take in zip(_FROM_LEFT[dealer], _TAKE_HAND)}, deck[36:]


def deal_steps(deck: Sequence[Card], dealer: Seat) -> tuple[tuple[Seat, tuple[Card, Card, Card]], ...]:
    """The deal of :func:`deal_from_deck` step by step, for showing it: the twelve packets of three cards in the order
    they leave the cut deck, as ``(seat, (card, card, card))``. Three rounds, each going clockwise from the dealer's
    left; the 37th to 48th cards are the stock (``deck[36:]``), not part of any step.

    Joining the packets of one seat gives that seat's hand from :func:`deal_from_deck`, in the same order.

    Raises:
        AluetteError: the deck is not the 48 distinct cards.
    """
    deck = tuple(deck)
    if len(deck) != 48 or set(deck) != set(DECK):
        raise AluetteError(_("a deck must hold each of the 48 cards exactly once"))
    seats = Seat.parse(dealer).left.clockwise_from()
    return tuple((seat, tuple(deck[_deal_position(r, p, c)] for c in range(3)))
                 for r in range(3) for p, seat in enumerate(seats))


def stock_steps(stock: Sequence[Card], first: Seat, second: Seat) -> tuple[tuple[Seat, Card], ...]:
    """The chant's deal of the stock, card by card: ``((seat, card), ...)`` in stock order, alternately to ``first``
    (the dealer's left) and ``second`` (the dealer, or the dealer's partner in the variant), starting with ``first``;
    so each receives six of the twelve. Source: the rules sheet, "setup" (the twelve cards go alternately to the
    player at the dealer's left and the dealer until all are dealt); pagat.com (« distribuées une à la fois,
    alternativement au joueur à sa gauche »).

    Decision of this project (the sources are silent) [chant-variant-alternate]: the variant's source
    (loisirs.savoir.fr, as the project's source list reports it) gives six cards to the dealer's left and six to the
    dealer's partner, not the order they are dealt in; they are dealt as in the main rule, one at a time, alternately,
    starting with the dealer's left.

    Raises:
        AluetteError: ``stock`` is not twelve distinct cards, or ``first`` is ``second``.
    """
    stock = tuple(stock)
    if len(stock) != 12 or len(set(stock)) != 12:
        raise AluetteError(_("the stock is twelve distinct cards, got {count}").format(count=len(stock)))
    first, second = Seat.parse(first), Seat.parse(second)
    if first is second:
        raise AluetteError(_("the stock goes to two different seats, got {seat} twice").format(seat=first))
    return tuple(((first, second)[i % 2], card) for i, card in enumerate(stock))


def deck_from_hands(hands: Mapping[Union[Seat, str], Union[str, Sequence[CardLike]]], dealer: Seat,
                    stock: Union[str, Sequence[CardLike], None] = None) -> tuple[Card, ...]:
    """The cut deck that :func:`deal_from_deck` turns into these hands (the inverse of dealing).

    ``hands`` maps each of the four seats to nine cards (codes, text or :class:`Card`). ``stock`` gives the twelve
    left-over cards in the order the chant would deal them; by default the cards nobody holds, in deck order.

    Raises:
        UnknownSeatError / UnknownCardError: a key or card that is not one.
        AluetteError: ``hands`` not a mapping, a seat missing, given twice or with other than nine cards, a card held
            twice, or a stock that is not exactly the twelve cards nobody holds.
    """
    # "N" and "north" both given: refused, else one hand would be silently lost
    parsed = {seat: parse_cards(cards) for seat, cards in Seat.parse_mapping(hands, "hand", all_four=True).items()}
    seen: dict[Card, Seat] = {}
    for seat, cards in parsed.items():
        if len(cards) != 9:
            raise AluetteError(_("{seat} must hold nine cards, got {count}").format(seat=seat, count=len(cards)))
        for card in cards:
            if card in seen:
                raise DuplicateCardError(_("{card} is given twice (in {first}'s hand and {second}'s)").format(
                    card=card, first=seen[card], second=seat))
            seen[card] = seat
    rest = tuple(c for c in DECK if c not in seen)
    if stock is None:
        stock_cards = rest
    else:
        stock_cards = parse_cards(stock)
        if sorted(stock_cards, key=lambda c: c.index) != list(rest):
            raise AluetteError(_("the stock must be exactly the twelve cards nobody holds: {cards}").format(
                cards=" ".join(map(str, rest))))
    deck: list = [None] * 48
    for p, seat in enumerate(Seat.parse(dealer).left.clockwise_from()):
        for i, card in enumerate(parsed[seat]):
            deck[_deal_position(i // 3, p, i % 3)] = card
    deck[36:] = stock_cards
    return tuple(deck)
