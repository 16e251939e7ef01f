"""The runner of a simulation: the arguments checked once, the deals cut into tasks of whole blocks (the chance
contract, :mod:`aluette.simulation.contract`), each task played by an engine (:mod:`aluette.simulation.step`, or numpy:
:mod:`aluette.simulation.numpy_random`, :mod:`aluette.simulation.numpy_heuristic`), on the caller's thread or on any
:class:`concurrent.futures.Executor`, and the raw per-deal arrays handed back lazily in deal order, a few tasks at a
time, so memory stays flat for any number of deals.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Optional, Union

import numpy as np

from ..players.bots import player_factory
from ..chance import check_seed
from ..errors import AluetteError, quoted
from ..i18n import N_
from ..options import Options
from ..seats import SEATS, Seat
from .contract import BLOCK_SIZE, DRAWS_PER_DEAL, block_dealers, block_generator, bot_generator
from .step import step_deals
from .numpy_random import random_deals
from .numpy_heuristic import mixed_deals

__all__ = ["ENGINES", "DEFAULT_CHUNK_SIZE", "Player", "SimulationSpec", "make_spec", "raw_chunks"]

#: Deals per chunk when ``chunk_size`` is not given.
DEFAULT_CHUNK_SIZE = 100_000
#: The deals the vectorized engine plays in one numpy pass (a memory bound; results do not depend on it).
_VECTOR_BATCH_BLOCKS = 16
ENGINES = ("step", "vectorized")
#: The players the vectorized engine plays, one kind per seat in any mix: random players and non-signalling
#: HeuristicBots (four random players take the faster :func:`~aluette.simulation.numpy_random.random_deals`).
_VECTORIZED = ("random", "heuristic")
_SEAT_LETTERS = ["N", "E", "S", "W"]


# ----------------------------------------------------------------------------------------------------- players
Player = Union[str, Callable[[Seat, np.random.Generator], Any]]


def _players_table(players: Union[str, Mapping]) -> tuple[tuple[Player, ...], str]:
    """Four player specs in SEATS order, and a label; raises on anything else."""
    if isinstance(players, str):
        specs = {seat: players for seat in SEATS}
    elif isinstance(players, Mapping):
        try:  # "N" and "north" both given: refused, as everywhere
            specs = Seat.parse_mapping(players, "player", all_four=True)
        except AluetteError as error:
            raise type(error)(f"players: {error}") from None
    else:
        raise AluetteError(f"players must be 'random', a player name, or a mapping seat -> player, got "
                           f"{quoted(players)}")
    table = tuple(specs[seat] for seat in SEATS)
    for seat, spec in zip(SEATS, table):
        if isinstance(spec, str):
            if spec != "random":
                player_factory(spec)  # raises a clear error now rather than in a worker
        elif not callable(spec):
            raise AluetteError(f"player for {seat} must be 'random', a player name or a factory(seat, rng), "
                               f"got {quoted(spec)}")
    names = [spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__) for spec in table]
    label = names[0] if len(set(names)) == 1 else " ".join(f"{s}:{n}" for s, n in zip(_SEAT_LETTERS, names))
    return table, label


# ----------------------------------------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class SimulationSpec:
    """Everything a task needs (picklable): the checked arguments of a simulation (:func:`make_spec`)."""

    n_deals: int
    seed: int
    options: Options
    players: tuple
    label: str
    engine: str
    dealer: Optional[int]  # seat index, or None to rotate

    @property
    def all_random(self) -> bool:
        return all(p == "random" for p in self.players)

    def dealers(self, start: int, m: int) -> np.ndarray:
        return block_dealers(self.dealer, start, m)


def _step_block(spec: SimulationSpec, block: int) -> dict:
    """Play one block deal by deal with :class:`~aluette.deal.Deal` (the step engine)."""
    start = block * BLOCK_SIZE
    m = min(BLOCK_SIZE, spec.n_deals - start)
    bots = None
    if not spec.all_random:
        bots = tuple(None if p == "random" else _made_player(p, seat, bot_generator(spec.seed, block, seat))
                     for seat, p in zip(SEATS, spec.players))
    draws = block_generator(spec.seed, block).random((m, DRAWS_PER_DEAL))
    return step_deals(draws, spec.dealers(start, m), spec.options, bots)


def _made_player(spec: Player, seat: Seat, rng: np.random.Generator) -> Any:
    """The bot a player spec makes for ``seat``.

    Raises:
        AluetteError: the factory made ``None`` (in a bot tuple ``None`` means the simulation's random player: a
            factory's ``None`` would silently become one).
    """
    bot = (player_factory(spec) if isinstance(spec, str) else spec)(seat, rng)
    if bot is None:
        raise AluetteError(f"the player factory for {seat} ({quoted(spec)}) returned None instead of a bot; use "
                           f"'random' for the simulation's random player")
    return bot


def _run_task(spec: SimulationSpec, first_block: int, stop_block: int) -> dict:
    """The raw columns (plus ``deal`` and ``dealer``) of blocks ``first_block .. stop_block - 1``."""
    parts = []
    if spec.engine == "step":
        parts = [_step_block(spec, block) for block in range(first_block, stop_block)]
    else:
        for batch in range(first_block, stop_block, _VECTOR_BATCH_BLOCKS):
            start = batch * BLOCK_SIZE
            stop = min(min(batch + _VECTOR_BATCH_BLOCKS, stop_block) * BLOCK_SIZE, spec.n_deals)
            draws = np.empty((stop - start, DRAWS_PER_DEAL))
            for row in range(0, stop - start, BLOCK_SIZE):  # each block's draws from its own generator
                block_generator(spec.seed, (start + row) // BLOCK_SIZE).random(out=draws[row:row + BLOCK_SIZE])
            dealers = spec.dealers(start, stop - start)
            parts.append(random_deals(draws, dealers, spec.options) if spec.all_random
                         else mixed_deals(draws, dealers, spec.options, spec.players))
    raw = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    start = first_block * BLOCK_SIZE
    raw["deal"] = np.arange(start, start + len(raw["winner"]), dtype=np.int64)
    raw["dealer"] = spec.dealers(start, len(raw["winner"]))
    return raw


# ----------------------------------------------------------------------------------------------------- chunks
def _whole(value: Any, name: str) -> int:
    """``value`` if it is a whole number of at least 1 (``int`` or numpy integer, not ``bool``)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise AluetteError(f"{name} must be a whole number of at least 1, got {quoted(value)}")
    return int(value)


def make_spec(n_deals: Any, seed: Any, options: Any, players: Any, engine: Any, dealer: Any) -> SimulationSpec:
    """The arguments of :func:`aluette.simulation.simulate`, checked, as one picklable spec.

    Raises:
        see :func:`aluette.simulation.simulate`.
    """
    n_deals = _whole(n_deals, "n_deals")
    seed = check_seed(seed, N_("a simulation's seed"))
    options = Options.coerce(options)
    if engine not in ENGINES:
        raise AluetteError(f"engine must be one of {ENGINES}, got {quoted(engine)}")
    options.check_simulable()
    table, label = _players_table(players)
    if engine == "vectorized" and not all(isinstance(p, str) and p in _VECTORIZED for p in table):
        raise AluetteError(f"the vectorized engine plays random players and non-signalling heuristic players only "
                           f"('random' or 'heuristic' at each seat, in any mix), not {label!r}: use engine='step'")
    dealer_index = None if isinstance(dealer, str) and dealer == "rotate" else SEATS.index(Seat.parse(dealer))
    return SimulationSpec(n_deals, seed, options, table, label, engine, dealer_index)


def raw_chunks(spec: SimulationSpec, chunk_size: Any, executor: Optional[Executor], progress: bool,
               max_pending: Any) -> Iterator[dict]:
    """The raw per-deal arrays (with ``deal`` and ``dealer``) of about ``chunk_size`` deals at a time, in deal order,
    computed on ``executor`` (``None``: here) with at most ``max_pending`` tasks ahead. The arguments are checked at
    once; the iterator it returns is lazy.

    Raises:
        AluetteError: ``chunk_size`` or ``max_pending`` not a whole number of at least 1; ``executor`` not an
            :class:`~concurrent.futures.Executor`.
    """
    chunk_size = _whole(chunk_size, "chunk_size")
    max_pending = _whole(max_pending, "max_pending")
    if executor is not None and not isinstance(executor, Executor):
        raise AluetteError(f"executor must be a concurrent.futures.Executor, got {type(executor).__name__}")
    return _raw_chunks_unchecked(spec, chunk_size, executor, progress, max_pending)


def _raw_chunks_unchecked(spec: SimulationSpec, chunk_size: int, executor: Optional[Executor], progress: bool,
                          max_pending: int) -> Iterator[dict]:
    n_blocks = math.ceil(spec.n_deals / BLOCK_SIZE)
    per_task = max(1, math.ceil(chunk_size / BLOCK_SIZE))
    # lazy: the tasks of 10**12 deals are never all in memory at once (the README promises flat memory for any n_deals)
    tasks = ((b, min(b + per_task, n_blocks)) for b in range(0, n_blocks, per_task))
    from tqdm.auto import tqdm
    with tqdm(total=spec.n_deals, unit="deal", unit_scale=True, disable=not progress) as bar:
        if executor is None:
            for first, stop in tasks:
                raw = _run_task(spec, first, stop)
                bar.update(len(raw["deal"]))
                yield raw
            return
        pending: list = []  # futures in deal order, at most max_pending at a time: memory stays flat
        queue = iter(tasks)
        try:
            for first, stop in itertools.islice(queue, max_pending):
                pending.append(executor.submit(_run_task, spec, first, stop))
            while pending:
                raw = pending.pop(0).result()
                following = next(queue, None)
                if following is not None:
                    pending.append(executor.submit(_run_task, spec, *following))
                bar.update(len(raw["deal"]))
                yield raw
        finally:  # the caller stopped early (or a task failed): drop the work not started
            for future in pending:
                future.cancel()
