"""The chance contract of a simulation: every random number a simulated deal uses, where it comes from, and what it
decides. :func:`aluette.simulation.simulate` and both its engines (:mod:`aluette.simulation.step`, :mod:`aluette.simulation.numpy_random`)
follow it; it is written down here only.

Decision of this project (the sources are silent) [simulation-blocks]: the chance contract (what the results depend
on, and all they depend on):

1. Deals are numbered ``0 .. n_deals - 1`` and grouped in blocks of :data:`BLOCK_SIZE` (1,000) consecutive deals.
2. Block ``k`` draws from its own generator, :func:`block_generator`: ``Generator(PCG64(SeedSequence(seed,
   spawn_key=(k,))))``, which is ``SeedSequence(seed).spawn(k + 1)[k]``. A task always computes whole blocks, so
   no result depends on the chunk size, the executor or its number of workers.
3. Each deal of a block, in order, takes the next :data:`DRAWS_PER_DEAL` (94) doubles of ``rng.random()`` (the
   block's draws are ``rng.random((m, 94))``, row ``j`` for its ``j``-th deal). Row layout:

   ====== ============================================================================================
   0-48   the shuffle and cut, drawn as :func:`aluette.chance.shuffled_deck` draws them
   49-52  the chant answers, in asking order (from the dealer's left)
   53-54  the discards of the first and the second stock recipient
   55-57  the surrender decisions in order (offers and answers)
   58-93  the 36 plays in order
   ====== ============================================================================================

   A slot whose decision does not arise (chant off, asking stopped by a refusal...) is drawn and left unused, so a
   deal's cards and plays do not depend on the options: runs with different options on one seed compare the options
   on the same deals.
4. A random player facing the legal moves ``L`` (:meth:`Deal.legal_moves`, in its order) takes
   ``L[floor(u * len(L))]``, ``u`` its slot's double (``u < 1`` is a multiple of 2**-53, so the index is always
   valid). So a chant answer, a surrender offer and a surrender answer are "yes" when ``u < 0.5`` (``True`` is
   listed first); a play is ``legal_cards()[floor(u * k)]``, ``k`` cards in hand, high to low; a discard is the
   ``floor(u * 5005)``-th way to choose six of the fifteen cards, in :func:`itertools.combinations` order over the
   hand sorted high to low.
5. Deal ``i`` is dealt by ``SEATS[i % 4]`` (N, E, S, W in turn) with ``dealer="rotate"``, else by the given seat.
6. A bot gets one generator per block and seat, :func:`bot_generator`: ``Generator(PCG64(SeedSequence(seed,
   spawn_key=(k, 1 + s))))`` with ``s`` the seat's index in :data:`~aluette.seats.SEATS`.

The slot numbers are :data:`CHANT_SLOTS`, :data:`DISCARD_SLOTS`, :data:`SURRENDER_SLOTS` and :data:`PLAY_SLOTS`, the
first slot of each kind (the numpy engine :mod:`aluette.simulation.numpy_random` holds them, as it reads them on its hot path).
"""

from __future__ import annotations

import numpy as np

from ..chance import check_seed
from ..seats import SEATS, Seat
from .numpy_random import CHANT_SLOTS, DISCARD_SLOTS, DRAWS_PER_DEAL, PLAY_SLOTS, SURRENDER_SLOTS

__all__ = ["BLOCK_SIZE", "DRAWS_PER_DEAL", "CHANT_SLOTS", "DISCARD_SLOTS", "SURRENDER_SLOTS", "PLAY_SLOTS",
           "block_generator", "bot_generator", "block_dealers"]

#: Deals per seeding block (changing it changes every result).
BLOCK_SIZE = 1000


def block_generator(seed: int, block: int, stream: int = 0) -> np.random.Generator:
    """The generator of block ``block`` (``stream`` 0: the deals' draws; ``1 + s``: the bot at ``SEATS[s]``).

    >>> block_generator(7, 2).random() == np.random.default_rng(np.random.SeedSequence(7).spawn(3)[2]).random()
    True

    Raises:
        BadSeedError: ``seed`` is not a seed (see :func:`aluette.chance.check_seed`).
    """
    key = (block,) if stream == 0 else (block, stream)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(check_seed(seed), spawn_key=key)))


def bot_generator(seed: int, block: int, seat: Seat) -> np.random.Generator:
    """The generator the bot at ``seat`` draws from in block ``block`` (contract point 6)."""
    return block_generator(seed, block, 1 + SEATS.index(seat))


def block_dealers(dealer: int | None, start: int, m: int) -> np.ndarray:
    """The dealers of deals ``start .. start + m - 1`` as seat indices (contract point 5): ``SEATS[i % 4]`` for deal
    ``i`` when ``dealer`` is ``None`` (rotating), else ``dealer`` (a seat index) for every deal."""
    if dealer is None:
        return (np.arange(start, start + m) % 4).astype(np.int8)
    return np.full(m, dealer, dtype=np.int8)
