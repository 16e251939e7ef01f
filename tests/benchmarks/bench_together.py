"""Play together: how long a move takes to reach the other three pages through the widgets' polling.

Run ``python -m tests.benchmarks.run together [--quick]`` (``make bench ARGS=together``). Not collected by pytest.

Method: four :class:`~aluette.widgets.together.PlayTogether` pages, each with its own connection to one SQLite file
(as four kernels), sit at one table in one process, as on the classroom's server; the process's watcher of the table
(:mod:`aluette.store.watch`) wakes them on the event loop when the table changes (before it, each page polled the
database every 100 ms). A driver clicks for whichever page's turn it is (the chant declined, the heuristic bot's
card) and measures, for each move and each of the three other pages, the time from the click to the first refresh
of that page whose state holds the move (the page then redraws). A whole match (``--quick``: one deal). Then the
idle table: the process's CPU time (every thread) while the four pages wait for a move, per minute. The store's own
figures (8 tables at once, PostgreSQL too) are ``bench_store``'s; this adds the pages on top.

Target: p95 <= 300 ms (issue: "each move appears on the other three devices within 300 ms (p95) on this machine").
Measured on the 2-core machine shared with other work (load average about 20), a whole match, 567 arrivals (issue
17 §2): pushed by the watcher, p50 17 ms, p95 50 ms, max 196 ms, and 0.028 s of CPU a minute for the idle table;
before it (each page polling every 100 ms), p50 80 ms, p95 146 ms, max 514 ms, and 0.344 s a minute. A browser adds
its websocket round trip, a few ms on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from aluette.players.bots import HeuristicBot
from aluette.deal import Phase
from aluette.seats import SEATS
from aluette.store import TableService, open_store
from aluette.together import SeatController
from aluette.widgets.together import PlayTogether

TARGET_MS = 300.0
#: Seconds of CPU the server may spend a minute on one idle table (four pages, nobody moving): a class of 8 tables
#: idle on this 2-core machine then costs at most 1% of it (2 cores x 60 s x 1% / 8).
IDLE_TARGET_S = 0.15


def click(p: PlayTogether) -> bool:
    """The page's move if it is its turn; returns whether it clicked."""
    state = p.controller.state
    if state.awaiting_next_deal:
        p.next_button.click()
        return True
    view = state.view
    if view.to_move is not state.seat:
        return False
    if view.phase is Phase.CHANT:
        p.chant_buttons[False].click()
    else:
        card = HeuristicBot(signals=False).choose(view).move.card
        next(b for b in p._slots if b.card is card).button.click()
    return True


async def play(folder: Path, deals: int, idle: float) -> tuple[list[float], float]:
    services = [TableService(open_store(path=folder / "tables.sqlite3")) for _ in range(4)]
    pages = [PlayTogether(SeatController(s), poll=False) for s in services]
    for p, seat in zip(pages, SEATS):
        p.table_box.value, p.name_box.value = "bench", f"player {seat}"
        p.choose_box.value = True  # no partnership draw: seats as taken, the hands shown at once
        p.seat_buttons[seat].click()
    seen: dict[tuple[int, int], float] = {}  # (page, log number) -> first time a poll held it

    def watched(i: int, p: PlayTogether):
        refresh = p.controller.refresh

        def wrapper(*args, **kwargs) -> bool:
            changed = refresh(*args, **kwargs)
            seen.setdefault((i, p.controller.state.seq), time.perf_counter())
            return changed
        return wrapper
    for i, p in enumerate(pages):
        p.controller.refresh = watched(i, p)
        p.refresh()
        p.listen()
    samples = []
    try:
        # the idle table: four pages waiting for North's first move (every thread of this process counts)
        await asyncio.sleep(0.5)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(idle)
        idle_cpu = (time.process_time() - cpu) / (time.perf_counter() - wall) * 60.0
        while len(pages[0].controller.state.deal_points) < deals and not pages[0].controller.state.is_over:
            mover = next((i for i, p in enumerate(pages) if click(p)), None)
            if mover is None:
                await asyncio.sleep(0.02)
                continue
            start, seq = time.perf_counter(), pages[mover].controller.state.seq
            others = [i for i in range(4) if i != mover]
            while not all(any(s >= seq for (j, s) in seen if j == i) for i in others):
                await asyncio.sleep(0.005)
            for i in others:
                first = min(t for (j, s), t in seen.items() if j == i and s >= seq)
                samples.append((first - start) * 1000)
    finally:
        for p in pages:
            p.close()
        for s in services:
            s.close()
    return samples, idle_cpu


def main(argv=None) -> int:
    """Print the figures next to the target; return 0 when it is met, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one deal instead of a whole match")
    parser.add_argument("--idle", type=float, default=None, help="seconds the idle table is measured (default 20, "
                                                                     "--quick 5)")
    args = parser.parse_args(argv)
    idle = args.idle if args.idle is not None else (5.0 if args.quick else 20.0)
    with tempfile.TemporaryDirectory() as folder:
        samples, idle_cpu = asyncio.run(play(Path(folder), 1 if args.quick else 5, idle))
    p50, p95 = np.percentile(samples, [50, 95])
    met = p95 <= TARGET_MS
    idle_met = idle_cpu <= IDLE_TARGET_S
    print(f"  together: {len(samples)} move arrivals (pushed by the table's watcher): p50 {p50:.0f} ms, "
          f"p95 {p95:.0f} ms, max {max(samples):.0f} ms   target: p95 <= {TARGET_MS:.0f} ms: "
          f"{'met' if met else 'NOT MET'}")
    print(f"  together: server CPU per idle table (4 pages, {idle:.0f} s measured): {idle_cpu:.3f} s a minute   "
          f"target: <= {IDLE_TARGET_S} s a minute: {'met' if idle_met else 'NOT MET'}")
    return 0 if met and idle_met else 1


if __name__ == "__main__":
    sys.exit(main())
