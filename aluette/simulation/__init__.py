"""Many seeded deals played out, as a pandas DataFrame with one row per deal, or added up without keeping rows.

* :func:`simulate` returns every row; :func:`simulate_chunks` yields them chunk by chunk; :func:`simulate_summary`
  adds them up into a :class:`Summary` and keeps no row, so memory stays flat for any number of deals.
* ``engine="step"`` drives :class:`aluette.Deal` move by move (every rule check, any players);
  ``engine="vectorized"`` plays a whole chunk at once with numpy: four random players (:mod:`aluette.simulation.numpy_random`), or
  any mix of random players and non-signalling heuristic bots, one kind per seat (``players="heuristic"``,
  ``{"N": "heuristic", "E": "random", ...}``; :mod:`aluette.simulation.numpy_heuristic`). Both engines give exactly the
  same rows (``tests/test_vectorized.py``, ``tests/test_vectorized_heuristic.py``).
* ``executor=`` runs the chunks on any :class:`concurrent.futures.Executor` (a process pool; a Dask or Ray cluster's
  executor); the rows do not depend on it, nor on ``chunk_size``.

The rows depend on the seed, the options, the players and the dealer only, by the chance contract written down in
:mod:`aluette.simulation.contract` (blocks of :data:`BLOCK_SIZE` deals, each from its own generator, :data:`DRAWS_PER_DEAL`
doubles per deal). This module is the public face; the work is done apart:

* :mod:`aluette.simulation.contract`: the chance contract (:func:`block_generator`);
* :mod:`aluette.simulation.step`: the step engine (:func:`step_deals`);
* :mod:`aluette.simulation.runner`: the arguments checked, the tasks cut in whole blocks and run, here or on an executor;
* :mod:`aluette.simulation.shared`: a server's pages sharing seeded simulations (:func:`share_results`, off unless a
  server turns it on);
* :mod:`aluette.simulation.frames`: the DataFrame (:data:`COLUMNS`), the :class:`Summary` (by the dealer's side and by
  seat too) and :func:`dealer_margin` (what a deal was worth to the dealer's side).

Players: ``"random"`` everywhere, or a mapping ``{seat: player}`` where a player is ``"random"``, the name of a
player kind that :mod:`aluette.players.bots` provides (such as ``"heuristic"``; :func:`aluette.players.bots.player_factory`), or a
factory ``factory(seat, rng) -> bot``, a bot following the protocol of :mod:`aluette.players.protocol`:
``choose(view, legal_moves) -> Decision`` from its own seat's view whenever it is to move, and
``signals(view, legal_signals)`` once the hands are final (as :func:`aluette.players.drivers.play_deal` does). Factories must
be picklable to run on a process pool.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from concurrent.futures import Executor
from typing import Optional, Union

import numpy as np
import pandas as pd

from ..options import Options
from ..seats import Seat
from .contract import BLOCK_SIZE, DRAWS_PER_DEAL, block_generator
from .frames import COLUMNS, Edge, Summary, dealer_margin, deals_frame
from .runner import DEFAULT_CHUNK_SIZE, ENGINES, make_spec, raw_chunks
from .shared import share_results, shared_results
from .step import step_deals

__all__ = ["simulate", "simulate_chunks", "simulate_summary", "Summary", "Edge", "dealer_margin", "block_generator",
           "step_deals", "BLOCK_SIZE", "DRAWS_PER_DEAL", "COLUMNS", "ENGINES", "share_results", "shared_results"]


def simulate_chunks(n_deals: int, *, seed: int, options: Optional[Options] = None,
                    players: Union[str, Mapping] = "random", engine: str = "step", dealer: Union[str, Seat] = "rotate",
                    chunk_size: int = DEFAULT_CHUNK_SIZE, executor: Optional[Executor] = None,
                    progress: bool = False, max_pending: int = 4) -> Iterator[pd.DataFrame]:
    """Like :func:`simulate`, but yields the rows as DataFrames of about ``chunk_size`` deals each (rounded up to
    whole blocks of 1,000), in deal order, so a run of any size keeps only a few chunks in memory. ``max_pending``
    bounds the chunks computed ahead on an executor."""
    spec = make_spec(n_deals, seed, options, players, engine, dealer)  # every argument checked before the first
    raws = raw_chunks(spec, chunk_size, executor, progress, max_pending)  # chunk is asked for
    return (deals_frame(raw, spec.options, spec.label) for raw in raws)


def simulate(n_deals: int, *, seed: int, options: Optional[Options] = None, players: Union[str, Mapping] = "random",
             engine: str = "step", dealer: Union[str, Seat] = "rotate", chunk_size: int = DEFAULT_CHUNK_SIZE,
             executor: Optional[Executor] = None, progress: bool = False, max_pending: int = 4) -> pd.DataFrame:
    """Play ``n_deals`` seeded deals to the end and return one row per deal (columns: :data:`COLUMNS`).

    >>> df = simulate(2000, seed=1, options=Options(chant=False))
    >>> len(df), bool(df.notation.str.fullmatch("[NESWX]{9}").all()), bool((df.points_ns + df.points_ew <= 2).all())
    (2000, True, True)

    Args:
        n_deals: how many deals (at least 1).
        seed: a non-negative int; the rows depend only on it, the options, the players and ``dealer`` (the chance
            contract, :mod:`aluette.simulation.contract`).
        options: the rule :class:`Options` (default ``Options()``: chant offered, mordienne, no surrender).
        players: ``"random"``, a player name from :mod:`aluette.players.bots` or a mapping ``{seat: player}`` (module
            docstring).
        engine: ``"step"`` (:class:`Deal` move by move) or ``"vectorized"`` (numpy; ``"random"`` or
            ``"heuristic"`` at each seat, in any mix); same rows.
        dealer: ``"rotate"`` (deal ``i`` dealt by ``SEATS[i % 4]``) or a seat.
        chunk_size: deals computed per task, rounded up to whole blocks of 1,000 (memory and progress granularity).
        executor: a :class:`concurrent.futures.Executor` to compute the chunks on (e.g. ``ProcessPoolExecutor(2)``).
        progress: show a :mod:`tqdm` progress bar (``tqdm.auto``: a widget in a notebook).
        max_pending: chunks computed ahead on the executor.

    Raises:
        AluetteError: ``n_deals`` or ``chunk_size`` below 1 or not whole, unknown players or engine, a player the
            vectorized engine cannot play, options that are not :class:`Options`, a bad dealer.
        BadSeedError: no explicit seed, or not a seed.
    """
    spec = make_spec(n_deals, seed, options, players, engine, dealer)
    chunks = raw_chunks(spec, chunk_size, executor, progress, max_pending)  # checked here, computed when read

    def compute() -> pd.DataFrame:
        raws = list(chunks)
        raw = {key: np.concatenate([r[key] for r in raws]) for key in raws[0]}
        del raws
        return deals_frame(raw, spec.options, spec.label)
    shared = shared_results()
    if shared is None or executor is not None or progress or not all(isinstance(p, str) for p in spec.players):
        return compute()
    return shared.get(spec, spec.n_deals, compute)  # a server's pages share it (aluette.simulation.shared)


def simulate_summary(n_deals: int, *, seed: int, options: Optional[Options] = None,
                     players: Union[str, Mapping] = "random", engine: str = "step",
                     dealer: Union[str, Seat] = "rotate", chunk_size: int = DEFAULT_CHUNK_SIZE,
                     executor: Optional[Executor] = None, progress: bool = False, max_pending: int = 4) -> Summary:
    """:func:`simulate` added up chunk by chunk into a :class:`Summary`: memory stays flat for any ``n_deals``.
    Arguments and errors as for :func:`simulate`."""
    summary = Summary()
    for frame in simulate_chunks(n_deals, seed=seed, options=options, players=players, engine=engine,
                                 dealer=dealer, chunk_size=chunk_size, executor=executor, progress=progress,
                                 max_pending=max_pending):
        summary.add(frame)
    return summary
