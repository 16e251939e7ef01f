"""Strength of the bots: share of the points a partnership takes over many seeded deals.

Run ``python tests/benchmarks/bench_bots.py [--deals N] [--workers W]`` or ``python -m tests.benchmarks.run``.
Not collected by pytest (``--ignore=tests/benchmarks`` in pyproject.toml).

Method: deal ``j`` (``j = 0 .. N-1``) is ``Deal.from_seed(j)`` with the dealer rotating N, E, S, W, played twice:
once with the measured partnership at N-S, once at E-W (the same cards from both sides, which cancels most of the
luck of the deal). Each RandomBot draws from ``SeedSequence([j, side, seat])``. The share of points is
``points taken / all points scored``; its 95% interval is the delta-method (ratio estimator) interval over the
``N`` deals, each deal's two plays taken together. Results do not depend on the number of workers.

Targets (this project's), each checked on the whole 95% interval: against two RandomBots a HeuristicBot partnership
takes
at least 80% of the points; a signalling HeuristicBot partnership takes more than half of the points against a
non-signalling one, by more than the interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from aluette import SEATS, Deal, Team  # noqa: E402
from aluette.players.bots import HeuristicBot, RandomBot  # noqa: E402
from aluette.players.drivers import play_deal  # noqa: E402


def _bot(kind: str, deal: int, side: int, seat: int):
    """A bot of ``kind``: "random" (seeded from the deal, the side and the seat), "heuristic" or "signalling"."""
    if kind == "random":
        return RandomBot(np.random.SeedSequence([deal, side, seat]))
    return HeuristicBot(signals=(kind == "signalling"))


def play_pair(j: int, measured: str, other: str) -> tuple[int, int]:
    """Deal ``j`` played from both sides: (points of the measured side, points of the other side), summed."""
    mine = theirs = 0
    for side, team in enumerate((Team.NS, Team.EW)):
        deal = Deal.from_seed(j, dealer=SEATS[j % 4])
        bots = {seat: _bot(measured if seat.team is team else other, j, side, k) for k, seat in enumerate(SEATS)}
        play_deal(deal, bots)
        mine += deal.result.points[team]
        theirs += deal.result.points[team.other]
    return mine, theirs


def _chunk(args) -> list[tuple[int, int]]:
    start, stop, measured, other = args
    return [play_pair(j, measured, other) for j in range(start, stop)]


def share_with_interval(points: np.ndarray) -> tuple[float, float]:
    """``points``: shape (n, 2), per deal (measured side, other side). Returns (share, half-width of its 95%
    interval), by the delta method for the ratio ``sum(a) / sum(a + b)``."""
    a, total = points[:, 0].astype(float), points.sum(axis=1).astype(float)
    share = a.sum() / total.sum()
    residual = a - share * total
    half = 1.96 * np.sqrt(residual.var(ddof=1) / len(a)) / total.mean()
    return float(share), float(half)


def measure(measured: str, other: str, deals: int, workers: int) -> tuple[float, float, float]:
    """(share, half-width, plays per second) over ``deals`` seeded deals, each played from both sides."""
    started = time.perf_counter()
    size = max(1, min(500, deals // (4 * workers) or 1))
    tasks = [(lo, min(lo + size, deals), measured, other) for lo in range(0, deals, size)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            rows = [row for part in pool.map(_chunk, tasks) for row in part]
    else:
        rows = [row for task in tasks for row in _chunk(task)]
    share, half = share_with_interval(np.array(rows))
    return share, half, 2 * deals / (time.perf_counter() - started)


def parse_deals(parser: argparse.ArgumentParser, argv, default: int, quick: int) -> argparse.Namespace:
    """``parser``'s arguments with ``--deals`` (seeded deals, each played from both sides; ``default``) and
    ``--quick`` (at most ``quick`` deals: a smoke test), checked (at least 2 deals)."""
    parser.add_argument("--deals", type=int, default=default, help=f"seeded deals, each played from both sides "
                        f"(default {default})")
    parser.add_argument("--quick", action="store_true", help=f"{quick:,} deals: a smoke test, not the measured "
                        f"figure")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals = min(args.deals, quick)
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    return args


def main(argv=None) -> int:
    """Print each figure next to its target; return 0 when both targets are met, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parse_deals(parser, argv, 20000, 2000)
    print(f"bots: {args.deals} seeded deals, each played from both sides ({2 * args.deals} plays), dealer rotated, "
          f"{args.workers} worker(s)")
    ok = True
    share, half, speed = measure("heuristic", "random", args.deals, args.workers)
    met = share - half >= 0.80
    ok &= met
    print(f"  HeuristicBot pair vs two RandomBots: share of points {share:.1%} ± {half:.1%} (95%)   "
          f"target >= 80% (whole interval): {'met' if met else 'NOT MET'}   [{speed:.0f} plays/s]")
    share, half, speed = measure("signalling", "heuristic", args.deals, args.workers)
    met = share - half > 0.50
    ok &= met
    print(f"  signalling vs non-signalling HeuristicBot pair: share of points {share:.1%} ± {half:.1%} (95%)   "
          f"target > 50% by more than the interval: {'met' if met else 'NOT MET'}   [{speed:.0f} plays/s]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
