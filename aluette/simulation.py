"""Many seeded deals played out, as a pandas DataFrame with one row per deal, or added up without keeping rows.

* :func:`simulate` returns every row; :func:`simulate_chunks` yields them chunk by chunk; :func:`simulate_summary`
  adds them up into a :class:`Summary` and keeps no row, so memory stays flat for any number of deals.
* ``engine="step"`` drives :class:`aluette.Deal` move by move (every rule check, any players);
  ``engine="vectorized"`` plays a whole chunk at once with numpy: four random players (:mod:`aluette.vectorized`) or
  four non-signalling heuristic bots, ``players="heuristic"`` (:mod:`aluette.vectorized_heuristic`). Both engines
  give exactly the same rows (``tests/test_vectorized.py``, ``tests/test_vectorized_heuristic.py``).
* ``executor=`` runs the chunks on any :class:`concurrent.futures.Executor` (a process pool; a Dask or Ray cluster's
  executor); the rows do not depend on it, nor on ``chunk_size``.

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
6. A bot gets one generator per block and seat, ``Generator(PCG64(SeedSequence(seed, spawn_key=(k, 1 + s))))``
   with ``s`` the seat's index in :data:`~aluette.seats.SEATS`.

Players: ``"random"`` everywhere, or a mapping ``{seat: player}`` where a player is ``"random"``, the name of a
player kind that :mod:`aluette.bots` provides (such as ``"heuristic"``; looked up as
``aluette.bots.player_factory(name)``), or a factory ``factory(seat, rng) -> bot``, a bot following the protocol of
:mod:`aluette.bots`: ``choose(view, legal_moves) -> Decision`` from its own seat's view whenever it is to move, and
``signals(view, legal_signals)`` once the hands are final (as :func:`aluette.bots.play_deal` does). Factories must be
picklable to run on a process pool.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import numpy as np
import pandas as pd

from .cards import DECK
from .chance import check_seed, shuffles_from_uniforms
from .deal import Deal, Phase
from .errors import AluetteError, quoted
from .options import Options
from .seats import SEATS, Seat, Team
from .bots import play_turn, signal_round
from .vectorized import (CHANT_SLOTS, DISCARD_SLOTS, DRAWS_PER_DEAL, PLAY_SLOTS, SURRENDER_SLOTS,
                         random_deals)
from .vectorized_heuristic import heuristic_deals

__all__ = ["simulate", "simulate_chunks", "simulate_summary", "Summary", "block_generator", "step_deals",
           "BLOCK_SIZE", "DRAWS_PER_DEAL", "COLUMNS", "ENGINES"]

#: Deals per seeding block (part of the chance contract: changing it changes every result).
BLOCK_SIZE = 1000
#: Deals per chunk when ``chunk_size`` is not given.
DEFAULT_CHUNK_SIZE = 100_000
#: The deals the vectorized engine plays in one numpy pass (a memory bound; results do not depend on it).
_VECTOR_BATCH_BLOCKS = 16
ENGINES = ("step", "vectorized")
#: What the vectorized engine plays: all four seats random, or all four non-signalling HeuristicBots.
_VECTORIZED = {"random": random_deals, "heuristic": heuristic_deals}

#: The columns of a simulation DataFrame, with their meaning.
COLUMNS = {
    "deal": "deal number, 0 to n_deals - 1 (int64)",
    "dealer": "the dealer's seat (category N, E, S, W)",
    "notation": "the nine trick winners in pagat notation (X = spoiled); empty when a surrender was accepted",
    "winner": "the seat that won the deal on tricks (most tricks, first to reach); missing if nobody won a trick "
              "or the deal was not played",
    "team": "the partnership that scores (category NS, EW); missing when nobody scores",
    "points_ns": "points scored by N-S (0, 1 or 2)",
    "points_ew": "points scored by E-W (0, 1 or 2)",
    "mordienne": "the winner made mordienne (always False when the mordienne option is off)",
    "spoiled": "number of spoiled tricks (0-9)",
    "first_to_reach": "several seats tied for most tricks, so the deal was decided by who reached it first",
    "chant": "all four agreed to the chant",
    "surrendered_by": "the partnership that offered to surrender (category NS, EW), else missing",
    "surrender_accepted": "an offer to surrender was accepted (so the tricks were not played)",
    "opt_mordienne": "option: mordienne scores 2",
    "opt_chant": "option: the chant is offered",
    "opt_chant_recipients": "option: who receives the stock in the chant",
    "opt_surrender": "option: surrender may be offered",
    "players": "the players, e.g. 'random' or 'N:heuristic E:random S:heuristic W:random'",
}

_SEAT_LETTERS = ["N", "E", "S", "W"]
_TEAM_LETTERS = ["NS", "EW"]
_LETTER = {Seat.N: "N", Seat.E: "E", Seat.S: "S", Seat.W: "W", None: "X"}
_SEAT_CODE = {Seat.N: 0, Seat.E: 1, Seat.S: 2, Seat.W: 3, None: -1}
_TEAM_CODE = {Team.NS: 0, Team.EW: 1, None: -1}
_UNPLAYED = "........."  # notation placeholder inside a chunk for a deal ended by an accepted surrender
_CODE_OF_ASCII = np.full(128, -1, dtype=np.int8)
for _code, _letter in enumerate("NESWX"):
    _CODE_OF_ASCII[ord(_letter)] = _code
_NOTATION_BYTES = np.frombuffer(b"NESWX.", dtype=np.uint8)  # code -> letter; -1 reads the last, "."
_OVER = Phase.OVER
_NS, _EW = Team.NS, Team.EW
_DISCARD_COMBOS: Optional[tuple] = None


def block_generator(seed: int, block: int, stream: int = 0) -> np.random.Generator:
    """The generator of block ``block`` (``stream`` 0: the deals' draws; ``1 + s``: the bot at ``SEATS[s]``).

    Raises:
        BadSeedError: ``seed`` is not a seed (see :func:`aluette.chance.check_seed`).
    """
    key = (block,) if stream == 0 else (block, stream)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(check_seed(seed), spawn_key=key)))


# ----------------------------------------------------------------------------------------------------- players
Player = Union[str, Callable[[Seat, np.random.Generator], Any]]


def _player_factory(name: str) -> Callable:
    """The factory of a named player kind from :mod:`aluette.bots` (imported only when a name is asked for)."""
    try:
        from . import bots
    except ImportError:
        raise AluetteError(f"unknown players {name!r}: this installation has only 'random' players (named bots "
                           f"such as 'heuristic' come from aluette.bots, which is not available); or give a "
                           f"factory(seat, rng), see aluette.simulation") from None
    lookup = getattr(bots, "player_factory", None)
    if lookup is None:
        raise AluetteError(f"players {name!r}: aluette.bots has no player_factory(name) to build them")
    try:
        return lookup(name)
    except (KeyError, ValueError) as error:
        raise AluetteError(f"unknown players {name!r}: {error}") from None


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
                _player_factory(spec)  # raises a clear error now rather than in a worker
        elif not callable(spec):
            raise AluetteError(f"player for {seat} must be 'random', a player name or a factory(seat, rng), "
                               f"got {quoted(spec)}")
    names = [spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__) for spec in table]
    label = names[0] if len(set(names)) == 1 else " ".join(f"{s}:{n}" for s, n in zip(_SEAT_LETTERS, names))
    return table, label


def _discard_combos() -> tuple:
    global _DISCARD_COMBOS
    if _DISCARD_COMBOS is None:
        _DISCARD_COMBOS = tuple(itertools.combinations(range(15), 6))
    return _DISCARD_COMBOS


def _random_move(deal: Deal, u: float) -> None:
    """The random player's move for the seat to move: ``legal_moves()[floor(u * len(legal_moves()))]`` (contract
    point 4), made without listing the moves where they are known: a chant answer or a surrender offer or answer is
    yes when ``u < 0.5`` (``True`` is listed first), a play and a discard take their index in the hand."""
    phase, seat = deal.phase, deal.to_move
    if phase is _PLAY:
        deal.play_index(int(u * len(deal.legal_cards())))
    elif phase is _CHANT:
        deal.answer_chant(seat, u < 0.5)
    elif phase is _DISCARD:
        hand = deal.hands[seat]  # fifteen cards, high to low: legal_moves() lists the combinations of it
        deal.discard(seat, [hand[i] for i in _discard_combos()[int(u * 5005)]])
    else:
        moves = deal.legal_moves()
        deal.apply(moves[int(u * len(moves))])


_CARDS_IN_HAND = [9 - p // 4 for p in range(36)]  # when making play p (0-35) of a deal
_PHASES = (_CHANT, _DISCARD, _SURRENDER, _PLAY) = (Phase.CHANT, Phase.DISCARD, Phase.SURRENDER, Phase.PLAY)
_FIRST_SLOTS = (CHANT_SLOTS - 49, DISCARD_SLOTS - 49, SURRENDER_SLOTS - 49, PLAY_SLOTS - 49)  # in a row's u[49:]


def _play_out(deal: Deal, u: list, bots: Optional[tuple]) -> None:
    """Play ``deal`` to the end; ``u`` holds the deal's 45 decision doubles (row slots 49-93); ``bots`` is ``None``
    for four random players, else a bot or ``None`` (random) per seat, in SEATS order."""
    made = [0, 0, 0, 0]  # decisions made so far in each phase of _PHASES: the next slot of that phase
    signalled = bots is None
    while deal.phase is not _OVER:
        phase = deal.phase
        if not signalled and (phase is _SURRENDER or phase is _PLAY):
            signalled = True  # the hands are final: the bots may signal, as in aluette.bots.play_deal
            signal_round(deal, {seat: bot for seat, bot in zip(SEATS, bots) if bot is not None})
        if phase is _PLAY and bots is None:  # the hot path: 36 random plays, legal_cards()[floor(u * k)]
            for x, k in zip(u[PLAY_SLOTS - 49:], _CARDS_IN_HAND):
                deal.play_index(int(x * k))
            return
        which = 0 if phase is _CHANT else 1 if phase is _DISCARD else 2 if phase is _SURRENDER else 3
        bot = bots[SEATS.index(deal.to_move)] if bots is not None else None
        if bot is None:
            _random_move(deal, u[_FIRST_SLOTS[which] + made[which]])
        else:
            play_turn(deal, bot)
        made[which] += 1


# ----------------------------------------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class _Spec:
    """Everything a task needs (picklable)."""

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
        if self.dealer is None:
            return (np.arange(start, start + m) % 4).astype(np.int8)
        return np.full(m, self.dealer, dtype=np.int8)


def _step_block(spec: _Spec, block: int) -> dict:
    """Play one block deal by deal with :class:`Deal`."""
    start = block * BLOCK_SIZE
    m = min(BLOCK_SIZE, spec.n_deals - start)
    bots = None
    if not spec.all_random:
        bots = tuple(None if p == "random" else _made_player(p, seat, block_generator(spec.seed, block, 1 + i))
                     for i, (seat, p) in enumerate(zip(SEATS, spec.players)))
    draws = block_generator(spec.seed, block).random((m, DRAWS_PER_DEAL))
    return step_deals(draws, spec.dealers(start, m), spec.options, bots)


def _made_player(spec: Player, seat: Seat, rng: np.random.Generator) -> Any:
    """The bot a player spec makes for ``seat``.

    Raises:
        AluetteError: the factory made ``None`` (in a bot tuple ``None`` means the simulation's random player: a
            factory's ``None`` would silently become one).
    """
    bot = (_player_factory(spec) if isinstance(spec, str) else spec)(seat, rng)
    if bot is None:
        raise AluetteError(f"the player factory for {seat} ({quoted(spec)}) returned None instead of a bot; use "
                           f"'random' for the simulation's random player")
    return bot


def step_deals(draws: np.ndarray, dealers: np.ndarray, options: Optional[Options] = None,
               bots: Optional[tuple] = None) -> dict:
    """Play deals to the end with :class:`Deal`, move by move: the step-by-step twin of
    :func:`aluette.vectorized.random_deals`, with the same arguments and the same result for random players.

    Args:
        draws: ``(n, 94)`` uniform doubles, one row per deal (layout: module docstring).
        dealers: ``(n,)`` dealer of each deal as a seat index (0 N, 1 E, 2 S, 3 W).
        options: the rule :class:`Options` (default ``Options()``).
        bots: ``None`` for four random players, else one bot (with ``choose(deal)``) or ``None`` (random) per seat,
            in SEATS order.

    Returns:
        The per-deal arrays described by :func:`aluette.vectorized.random_deals`.

    Raises:
        AluetteError: a bot's illegal move (the engine's error).
    """
    options = Options.coerce(options).check_simulable()
    draws = np.asarray(draws, dtype=np.float64)
    m = len(draws)
    orders, cuts = shuffles_from_uniforms(draws[:, :49])
    rows = []
    for order, cut, u, dealer in zip(orders.tolist(), cuts.tolist(), draws[:, 49:].tolist(),
                                     np.asarray(dealers).tolist()):
        deal = Deal._from_shuffle(tuple(map(DECK.__getitem__, order)), cut, dealer=SEATS[dealer], options=options)
        _play_out(deal, u, bots)
        result = deal.result
        score = result.score
        ns, ew = result.points[_NS], result.points[_EW]
        rows.append((_UNPLAYED if score is None else "".join(map(_LETTER.__getitem__, score.outcomes)),
                     -1 if score is None else _SEAT_CODE[score.winner],
                     0 if ns else 1 if ew else -1, ns, ew,
                     score is not None and score.mordienne, score is not None and score.reached_first,
                     options.chant and deal.chant_agreed is True, _TEAM_CODE[result.surrendered_by],
                     -1 if result.surrender_accepted is None else int(result.surrender_accepted)))
    notation, winner, team, ns, ew, mordienne, first, chant, by, accepted = list(zip(*rows)) or [()] * 10
    letters = np.frombuffer("".join(notation).encode("ascii"), dtype=np.uint8).reshape(m, 9)
    return {"outcomes": _CODE_OF_ASCII[letters], "winner": np.array(winner, dtype=np.int8),
            "team": np.array(team, dtype=np.int8), "points_ns": np.array(ns, dtype=np.int8),
            "points_ew": np.array(ew, dtype=np.int8), "mordienne": np.array(mordienne, dtype=bool),
            "first_to_reach": np.array(first, dtype=bool), "chant": np.array(chant, dtype=bool),
            "surrendered_by": np.array(by, dtype=np.int8), "surrender_accepted": np.array(accepted, dtype=np.int8)}


def _run_task(spec: _Spec, first_block: int, stop_block: int) -> dict:
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
            parts.append(_VECTORIZED[spec.players[0]](draws, spec.dealers(start, stop - start), spec.options))
    raw = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    start = first_block * BLOCK_SIZE
    raw["deal"] = np.arange(start, start + len(raw["winner"]), dtype=np.int64)
    raw["dealer"] = spec.dealers(start, len(raw["winner"]))
    return raw


def _frame(raw: dict, spec: _Spec) -> pd.DataFrame:
    """The DataFrame of :data:`COLUMNS` from raw columns (the same code for both engines)."""
    outcomes = raw["outcomes"]
    m = len(outcomes)
    notation = np.empty(m, dtype=object)
    for start in range(0, m, 65536):  # letters -> str, a slice at a time: a fixed-width copy of all rows is large
        part = outcomes[start:start + 65536]
        text = _NOTATION_BYTES[part].view("S9").ravel().astype(str)
        text[part[:, 0] < 0] = ""  # not played: a surrender was accepted
        notation[start:start + 65536] = text
    options = spec.options
    return pd.DataFrame({
        "deal": raw["deal"],
        "dealer": pd.Categorical.from_codes(raw["dealer"], categories=_SEAT_LETTERS),
        "notation": pd.array(notation, dtype="str"),
        "winner": pd.Categorical.from_codes(raw["winner"], categories=_SEAT_LETTERS),
        "team": pd.Categorical.from_codes(raw["team"], categories=_TEAM_LETTERS),
        "points_ns": raw["points_ns"],
        "points_ew": raw["points_ew"],
        "mordienne": raw["mordienne"],
        "spoiled": (outcomes == 4).sum(axis=1).astype(np.int8),
        "first_to_reach": raw["first_to_reach"],
        "chant": raw["chant"],
        "surrendered_by": pd.Categorical.from_codes(raw["surrendered_by"], categories=_TEAM_LETTERS),
        "surrender_accepted": raw["surrender_accepted"] == 1,
        "opt_mordienne": np.full(m, options.mordienne),
        "opt_chant": np.full(m, options.chant),
        "opt_chant_recipients": pd.Categorical.from_codes(np.zeros(m, dtype=np.int8),
                                                          categories=[options.chant_recipients.value]),
        "opt_surrender": np.full(m, options.surrender),
        "players": pd.Categorical.from_codes(np.zeros(m, dtype=np.int8), categories=[spec.label]),
    })


# ----------------------------------------------------------------------------------------------------- public API
def _make_spec(n_deals: Any, seed: Any, options: Any, players: Any, engine: Any, dealer: Any) -> _Spec:
    if isinstance(n_deals, bool) or not isinstance(n_deals, (int, np.integer)) or n_deals < 1:
        raise AluetteError(f"n_deals must be a whole number of at least 1, got {quoted(n_deals)}")
    seed = check_seed(seed, "a simulation's seed")
    options = Options.coerce(options)
    if engine not in ENGINES:
        raise AluetteError(f"engine must be one of {ENGINES}, got {quoted(engine)}")
    options.check_simulable()
    table, label = _players_table(players)
    if engine == "vectorized" and not (isinstance(table[0], str) and table[0] in _VECTORIZED
                                       and all(p == table[0] for p in table)):
        raise AluetteError(f"the vectorized engine plays four random players or four non-signalling heuristic "
                           f"players only (players='random' or 'heuristic'), not {label!r}: use engine='step'")
    dealer_index = None if isinstance(dealer, str) and dealer == "rotate" else SEATS.index(Seat.parse(dealer))
    return _Spec(int(n_deals), seed, options, table, label, engine, dealer_index)


def _whole(value: Any, name: str) -> int:
    """``value`` if it is a whole number of at least 1 (``int`` or numpy integer, not ``bool``)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise AluetteError(f"{name} must be a whole number of at least 1, got {quoted(value)}")
    return int(value)


def _raw_chunks(spec: _Spec, chunk_size: Any, executor: Optional[Executor], progress: bool,
                max_pending: Any) -> Iterator[dict]:
    """Checks the arguments at once, then returns the lazy iterator of raw chunks."""
    chunk_size = _whole(chunk_size, "chunk_size")
    max_pending = _whole(max_pending, "max_pending")
    if executor is not None and not isinstance(executor, Executor):
        raise AluetteError(f"executor must be a concurrent.futures.Executor, got {type(executor).__name__}")
    return _raw_chunks_unchecked(spec, chunk_size, executor, progress, max_pending)


def _raw_chunks_unchecked(spec: _Spec, chunk_size: int, executor: Optional[Executor], progress: bool,
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


def simulate_chunks(n_deals: int, *, seed: int, options: Optional[Options] = None,
                    players: Union[str, Mapping] = "random", engine: str = "step", dealer: Union[str, Seat] = "rotate",
                    chunk_size: int = DEFAULT_CHUNK_SIZE, executor: Optional[Executor] = None,
                    progress: bool = False, max_pending: int = 4) -> Iterator[pd.DataFrame]:
    """Like :func:`simulate`, but yields the rows as DataFrames of about ``chunk_size`` deals each (rounded up to
    whole blocks of 1,000), in deal order, so a run of any size keeps only a few chunks in memory. ``max_pending``
    bounds the chunks computed ahead on an executor."""
    spec = _make_spec(n_deals, seed, options, players, engine, dealer)  # every argument checked before the first
    raws = _raw_chunks(spec, chunk_size, executor, progress, max_pending)  # chunk is asked for
    return (_frame(raw, spec) for raw in raws)


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
            contract in the module docstring).
        options: the rule :class:`Options` (default ``Options()``: chant offered, mordienne, no surrender).
        players: ``"random"``, a player name from :mod:`aluette.bots` or a mapping ``{seat: player}`` (module
            docstring).
        engine: ``"step"`` (:class:`Deal` move by move) or ``"vectorized"`` (numpy; ``players`` ``"random"`` or
            ``"heuristic"`` at all four seats); same rows.
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
    spec = _make_spec(n_deals, seed, options, players, engine, dealer)
    raws = list(_raw_chunks(spec, chunk_size, executor, progress, max_pending))
    raw = {key: np.concatenate([r[key] for r in raws]) for key in raws[0]}
    del raws
    return _frame(raw, spec)


# ----------------------------------------------------------------------------------------------------- summary
_POSITIONS = ("dealer's left", "dealer's partner", "dealer's right", "dealer")


@dataclass(eq=False)
class Summary:
    """Counts added up over simulated deals (:func:`simulate_summary`, or :meth:`add` on DataFrames of
    :func:`simulate`), without keeping rows. Add two with ``+``.

    Attributes:
        deals: deals counted.
        played: deals whose tricks were played (not ended by an accepted surrender).
        points: ``{"NS": p, "EW": q}`` points scored.
        dealer_side_points, other_side_points: points of the dealer's partnership and of the other one.
        wins_by_position: deals won on tricks by the seat at each position from the dealer (dealer's left,
            dealer's partner, dealer's right, dealer).
        spoiled_by_trick: spoiled tricks at each trick number 1-9 (among played deals).
        spoiled_histogram: played deals with 0, 1, ... 9 spoiled tricks.
        first_to_reach, all_spoiled, mordienne, chant, surrender_offered, surrender_accepted: deals counted so.
    """

    deals: int = 0
    played: int = 0
    points: dict = field(default_factory=lambda: {"NS": 0, "EW": 0})
    dealer_side_points: int = 0
    other_side_points: int = 0
    wins_by_position: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    spoiled_by_trick: np.ndarray = field(default_factory=lambda: np.zeros(9, dtype=np.int64))
    spoiled_histogram: np.ndarray = field(default_factory=lambda: np.zeros(10, dtype=np.int64))
    first_to_reach: int = 0
    all_spoiled: int = 0
    mordienne: int = 0
    chant: int = 0
    surrender_offered: int = 0
    surrender_accepted: int = 0

    def add(self, frame: pd.DataFrame) -> "Summary":
        """Count the rows of a :func:`simulate` DataFrame in; returns ``self``."""
        played = frame["notation"].str.len().to_numpy() == 9
        letters = np.frombuffer("".join(frame["notation"][played]).encode("ascii"), dtype=np.uint8).reshape(-1, 9)
        spoiled = letters == ord("X")
        dealer = frame["dealer"].cat.codes.to_numpy().astype(np.int64)
        winner = frame["winner"].cat.codes.to_numpy().astype(np.int64)
        won = winner >= 0
        ns, ew = frame["points_ns"].to_numpy(np.int64), frame["points_ew"].to_numpy(np.int64)
        dealer_ns = dealer % 2 == 0
        self.deals += len(frame)
        self.played += int(played.sum())
        self.points["NS"] += int(ns.sum())
        self.points["EW"] += int(ew.sum())
        self.dealer_side_points += int(np.where(dealer_ns, ns, ew).sum())
        self.other_side_points += int(np.where(dealer_ns, ew, ns).sum())
        self.wins_by_position += np.bincount((winner[won] - dealer[won] - 1) % 4, minlength=4)
        self.spoiled_by_trick += spoiled.sum(axis=0)
        self.spoiled_histogram += np.bincount(spoiled.sum(axis=1), minlength=10)
        self.first_to_reach += int(frame["first_to_reach"].sum())
        self.all_spoiled += int(spoiled.all(axis=1).sum())
        self.mordienne += int(frame["mordienne"].sum())
        self.chant += int(frame["chant"].sum())
        self.surrender_offered += int(frame["surrendered_by"].notna().sum())
        self.surrender_accepted += int(frame["surrender_accepted"].sum())
        return self

    def to_dict(self) -> dict:
        """Every count as plain Python numbers and lists (JSON-ready)."""
        return {name: (value.tolist() if isinstance(value, np.ndarray) else dict(value) if isinstance(value, dict)
                       else int(value)) for name, value in vars(self).items()}

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Summary) and self.to_dict() == other.to_dict()

    def __add__(self, other: "Summary") -> "Summary":
        total = Summary()
        for s in (self, other):
            total.deals += s.deals
            total.played += s.played
            for team in ("NS", "EW"):
                total.points[team] += s.points[team]
            total.dealer_side_points += s.dealer_side_points
            total.other_side_points += s.other_side_points
            total.wins_by_position += s.wins_by_position
            total.spoiled_by_trick += s.spoiled_by_trick
            total.spoiled_histogram += s.spoiled_histogram
            for name in ("first_to_reach", "all_spoiled", "mordienne", "chant", "surrender_offered",
                         "surrender_accepted"):
                setattr(total, name, getattr(total, name) + getattr(s, name))
        return total

    def table(self) -> pd.DataFrame:
        """Each frequency with its count, the deals it is out of, the rate and a 95% interval (normal
        approximation, ``rate ± 1.96 * sqrt(rate * (1 - rate) / n)``), one row per question."""
        rows = [("decided by first to reach", self.first_to_reach, self.played),
                ("nobody wins a trick (all nine spoiled)", self.all_spoiled, self.played),
                ("mordienne", self.mordienne, self.played),
                ("chant agreed", self.chant, self.deals),
                ("surrender offered", self.surrender_offered, self.deals),
                ("surrender accepted", self.surrender_accepted, self.deals)]
        rows += [(f"trick {t + 1} spoiled", int(c), self.played) for t, c in enumerate(self.spoiled_by_trick)]
        rows += [(f"deal won on tricks by the {p}", int(c), self.played)
                 for p, c in zip(_POSITIONS, self.wins_by_position)]
        table = pd.DataFrame(rows, columns=["question", "count", "out_of"]).set_index("question")
        n = table["out_of"].where(table["out_of"] > 0)
        table["rate"] = table["count"] / n
        half = 1.96 * np.sqrt(table["rate"] * (1 - table["rate"]) / n)
        table["low"], table["high"] = table["rate"] - half, table["rate"] + half
        return table


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
