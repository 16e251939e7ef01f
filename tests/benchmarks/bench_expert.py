"""Strength and speed of the expert bot (issue 18 §5): an ExpertBot pair against a HeuristicBot pair, duplicate deals.

Run ``python tests/benchmarks/bench_expert.py [--deals N] [--quick]`` or ``make bench ARGS=expert``. Not collected
by pytest (``--ignore=tests/benchmarks`` in pyproject.toml).

Method (as ``bench_bots.py``): deal ``j`` (``j = 0 .. N-1``) is ``Deal.from_seed(j)`` with the dealer rotating N, E,
S, W and the default options (chant, mordienne), played twice: once with the expert pair at N-S, once at E-W, so the
same cards are held by each side in turn (duplicate deals: the luck of the cards cancels). Both pairs signal (the
opponents are the stronger, signalling HeuristicBots). Each ExpertBot draws from ``SeedSequence([j, side, seat])``
with its default bounds. The share of points is ``points taken / all points scored``, its 95% interval the
delta-method interval over the deals, each deal's two plays taken together (``bench_bots.share_with_interval``).

The move time is the wall time of each ``choose`` of an expert, every move of the deal (the heuristic ones of the
first tricks included; the solver's moves alone are printed too), in its process (``--jobs N``: N processes play
deals at once, one per core at most, so each move still has a core); the solver's compile time (numba, once per process) is paid before the
clock starts and printed apart.

Targets (issue 18 §5): share >= 58% with the whole 95% interval above 50%, over at least 2,000 deals; move time
p95 <= 1 s on this machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from aluette import SEATS, Deal, Team, solve  # noqa: E402
from aluette.analysis.expert import ExpertBot  # noqa: E402
from aluette.players.bots import HeuristicBot  # noqa: E402
from aluette.players.drivers import play_deal, play_out  # noqa: E402

try:
    from .bench_bots import parse_deals, share_with_interval
except ImportError:  # run as a script
    from bench_bots import parse_deals, share_with_interval  # type: ignore[no-redef]


class _Timed:
    """A bot that records the wall time of each of its ``choose`` calls and how each move was decided."""

    def __init__(self, bot):
        self.bot, self.times, self.kinds = bot, [], []

    def choose(self, view, legal_moves=()):
        started = time.perf_counter()
        decision = self.bot.choose(view, legal_moves)
        self.times.append(time.perf_counter() - started)
        reason = decision.reason
        self.kinds.append(next((k for k in ("expert", "heuristic") if reason.startswith(k)), "no choice"))
        return decision

    def signals(self, view, legal_signals):
        return self.bot.signals(view, legal_signals)


def play_pair(j: int, **bounds) -> tuple[int, int, list[float], list[str]]:
    """Deal ``j`` from both sides: (expert side's points, heuristic side's points, the experts' move times, how
    each expert move was decided); ``bounds`` for the ExpertBots (their defaults if none)."""
    mine = theirs = 0
    times, kinds = [], []
    for side, team in enumerate((Team.NS, Team.EW)):
        deal = Deal.from_seed(j, dealer=SEATS[j % 4])
        bots = {seat: _Timed(ExpertBot(np.random.SeedSequence([j, side, k]), **bounds)) if seat.team is team
                else HeuristicBot(signals=True) for k, seat in enumerate(SEATS)}
        play_deal(deal, bots)
        mine += deal.result.points[team]
        theirs += deal.result.points[team.other]
        for bot in bots.values():
            if isinstance(bot, _Timed):
                times += bot.times
                kinds += bot.kinds
    return mine, theirs, times, kinds


def main(argv=None) -> int:
    """Print each figure beside its target; 0 when every target is met, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, help="the experts' samples per move (default: ExpertBot's)")
    parser.add_argument("--solve-from", type=int, help="the first trick the experts solve (default: ExpertBot's)")
    parser.add_argument("--max-nodes", type=int, help="the card plays an expert's move may try over its samples "
                        "(default: ExpertBot's)")
    parser.add_argument("--progress", type=int, default=0, help="print the share so far every N deals (0: never), "
                        "so that a run cut short still states the largest number of deals it measured")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing deals at once, one per core at most "
                        "(default 1); the move times are each process's own")
    args = parse_deals(parser, argv, 2000, 30)
    if not 1 <= args.jobs <= (os.cpu_count() or 1):
        parser.error(f"--jobs must be from 1 to this machine's {os.cpu_count()} cores")
    bounds = {k: v for k, v in (("samples", args.samples), ("solve_from", args.solve_from),
                                ("max_nodes", args.max_nodes)) if v is not None}  # 2,000: the minimum
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    started = time.perf_counter()
    solve(play_out(Deal.from_seed(0), tricks=8))  # the solver's first call compiles its kernel (numba)
    compile_time = time.perf_counter() - started
    print(f"expert: {args.deals} seeded deals, each played from both sides ({2 * args.deals} plays), dealer rotated; "
          f"ExpertBot pair ({ExpertBot(0, **bounds)!r}) vs signalling HeuristicBot pair; {args.jobs} process(es); "
          f"load average "
          f"{load:.1f} at the start; solver compile {compile_time:.1f} s (once, not in the move times)")
    rows, times, kinds = [], [], []
    started = time.perf_counter()
    pool = None
    if args.jobs > 1:  # forked after the compile above: each process loads the compiled search from numba's cache
        pool = concurrent.futures.ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("fork"))
        pairs = pool.map(functools.partial(play_pair, **bounds), range(args.deals))
    else:
        pairs = (play_pair(j, **bounds) for j in range(args.deals))
    for j, (mine, theirs, t, k) in enumerate(pairs):
        rows.append((mine, theirs))
        times += t
        kinds += k
        if args.progress and (j + 1) % args.progress == 0 and j + 1 < args.deals:
            so_far, half_so_far = share_with_interval(np.array(rows))
            p95_so_far = float(np.percentile(np.array(times), 95))
            print(f"  after {j + 1} deals: share {so_far:.1%} ± {half_so_far:.1%} (95%), move time p95 "
                  f"{p95_so_far * 1000:.0f} ms, {time.perf_counter() - started:.0f} s", flush=True)
    if pool is not None:
        pool.shutdown()
    elapsed = time.perf_counter() - started
    share, half = share_with_interval(np.array(rows))
    met_share = share >= 0.58 and share - half > 0.50
    times_a = np.array(times)
    p50, p95, top = (float(np.percentile(times_a, q)) for q in (50, 95, 100))
    met_time = p95 <= 1.0
    solved = times_a[np.array(kinds) == "expert"]
    s50, s95 = (float(np.percentile(solved, q)) if len(solved) else float("nan") for q in (50, 95))
    counts = {kind: kinds.count(kind) for kind in sorted(set(kinds))}
    print(f"  share of points {share:.1%} ± {half:.1%} (95%), interval {share - half:.1%} to {share + half:.1%}   "
          f"target >= 58% and interval above 50%: {'met' if met_share else 'NOT MET'}"
          + ("   (a quick run: too few deals for the target)" if args.quick else ""))
    print(f"  move time p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {top * 1000:.0f} ms over {len(times)} "
          f"moves   target p95 <= 1000 ms: {'met' if met_time else 'NOT MET'}")
    print(f"  the moves chosen by the solver alone: p50 {s50 * 1000:.0f} ms, p95 {s95 * 1000:.0f} ms over "
          f"{len(solved)} moves (no target of their own: the others are the heuristic's first tricks and single "
          f"choices)")
    print(f"  how the moves were decided: {', '.join(f'{k} {n}' for k, n in counts.items())}; "
          f"load average now {os.getloadavg()[0]:.1f}; {elapsed:.0f} s in all")
    return 0 if met_share and met_time else 1


if __name__ == "__main__":
    sys.exit(main())
