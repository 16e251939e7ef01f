"""How long the Review of a deal takes (issue 18 §2): ready within 5 s (p95) of the deal's end.

Run ``python tests/benchmarks/bench_review.py [--deals N] [--quick]`` or ``make bench ARGS=review``. Not collected
by pytest.

Method: deal ``j`` (``j = 0 .. N-1``) is ``Deal.from_seed(j)`` with the dealer rotating N, E, S, W and the default
options, played out by signalling heuristic bots; South's nine cards are reviewed with
:func:`aluette.analysis.review.review_deal` and its default budgets (the first trick's :data:`FIRST_TRICK_NODES`,
the solver's default after it), in this process, the solver compiled (or loaded from numba's cache) before the
clock starts. That is the work the review's worker process does after a deal's end (it is started, and loads the
solver, during the first deal), so the time to a ready review is this time.

Figures, each beside its target: the time from the deal's end to the whole review (p50, p95, max; target p95 <= 5 s),
to the moves from the third trick on, and how many moves of the first trick, and of the later ones, were not worked
out (target: none from the second trick on).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from aluette import SEATS, Deal, Seat  # noqa: E402
from aluette.analysis._kernel import warm_up  # noqa: E402
from aluette.analysis.review import FIRST_TRICK_NODES, Verdict, review_deal  # noqa: E402
from aluette.players.drivers import bots_for, play_deal  # noqa: E402

try:
    from .bench_bots import parse_deals
except ImportError:  # run as a script
    from bench_bots import parse_deals  # type: ignore[no-redef]


def measure(j: int) -> tuple[float, float, int, int]:
    """Deal ``j``: (seconds to the whole review, seconds to the moves from the third trick, first-trick moves not
    worked out, later moves not worked out)."""
    deal = Deal.from_seed(j, dealer=SEATS[j % 4])
    play_deal(deal, bots_for("heuristic", j, signals=True))
    started = time.perf_counter()
    late = []

    def progress(move):
        if move.trick == 3:  # the last tricks are worked out first: the third is the last of them
            late.append(time.perf_counter() - started)

    review = review_deal(deal.view(Seat.S), progress=progress)
    total = time.perf_counter() - started
    first = sum(1 for m in review.moves if m.trick == 1 and m.verdict is Verdict.NOT_WORKED_OUT)
    later = sum(1 for m in review.moves if m.trick > 1 and m.verdict is Verdict.NOT_WORKED_OUT)
    return total, late[0], first, later


def main(argv=None) -> int:
    """Print each figure beside its target; 0 when every target is met, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args = parse_deals(parser, argv, 30, 3)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    compile_time = warm_up()
    print(f"review: {args.deals} seeded deals played by signalling heuristic bots, South's cards reviewed, first "
          f"trick budget {FIRST_TRICK_NODES:,} card plays; one process; load average {load:.1f} at the start; "
          f"solver load {compile_time:.1f} s (once, not in the times)")
    rows = [measure(j) for j in range(args.deals)]
    total, late = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
    first, later = sum(r[2] for r in rows), sum(r[3] for r in rows)
    p50, p95, top = (float(np.percentile(total, q)) for q in (50, 95, 100))
    l50, l95 = (float(np.percentile(late, q)) for q in (50, 95))
    met_time, met_exact = p95 <= 5.0, later == 0
    print(f"  the whole review: p50 {p50:.1f} s, p95 {p95:.1f} s, max {top:.1f} s   target p95 <= 5 s: "
          f"{'met' if met_time else 'NOT MET'}" + ("   (a quick run: too few deals)" if args.quick else ""))
    print(f"  the moves from the third trick on: p50 {l50:.2f} s, p95 {l95:.2f} s (shown first, as they are done)")
    print(f"  not worked out: {first} of {args.deals} first-trick moves (allowed: said so), {later} later moves   "
          f"target none from the second trick: {'met' if met_exact else 'NOT MET'}; load average now "
          f"{os.getloadavg()[0]:.1f}")
    return 0 if met_time and met_exact else 1


if __name__ == "__main__":
    sys.exit(main())
