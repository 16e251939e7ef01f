"""Play together: how long a move takes to reach the other three pages through the widgets' polling.

Run ``python -m tests.benchmarks.run together [--quick]`` (``make bench ARGS=together``). Not collected by pytest.

Method: four :class:`~aluette.widgets.together.PlayTogether` pages, each with its own connection to one SQLite file
(as four kernels), sit at one table in one process; each polls the database on the event loop every
:data:`~aluette.widgets.together.POLL_INTERVAL` seconds, as in a student's kernel. A driver clicks for whichever
page's turn it is (the chant declined, the heuristic bot's card) and measures, for each move and each of the three
other pages, the time from the click to the first poll whose state holds the move (the page then redraws). A whole
match (``--quick``: one deal). The store's own figures (8 tables at once, PostgreSQL too) are ``bench_store``'s; this
adds the page's polling on top.

Target: p95 <= 300 ms (issue: "each move appears on the other three devices within 300 ms (p95) on this machine").
Measured on the 2-core machine shared with other work (load average about 3), a whole match: 567 arrivals, p50 68 ms,
p95 100 ms, max 105 ms (the poll interval dominates; a browser adds its websocket round trip, a few ms on one machine).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from aluette.bots import HeuristicBot
from aluette.deal import Phase
from aluette.seats import SEATS
from aluette.store import TableService, open_store
from aluette.together import SeatController
from aluette.widgets.together import POLL_INTERVAL, PlayTogether

TARGET_MS = 300.0


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


async def play(folder: Path, deals: int) -> list[float]:
    services = [TableService(open_store(path=folder / "tables.sqlite3")) for _ in range(4)]
    pages = [PlayTogether(SeatController(s), poll=False) for s in services]
    for p, seat in zip(pages, SEATS):
        p.table_box.value, p.name_box.value = "bench", f"player {seat}"
        p.seat_buttons[seat].click()
    seen: dict[tuple[int, int], float] = {}  # (page, log number) -> first time a poll held it

    def watched(i: int, p: PlayTogether):
        refresh = p.refresh

        def wrapper() -> bool:
            changed = refresh()
            seen.setdefault((i, p.controller.state.seq), time.perf_counter())
            return changed
        return wrapper
    for i, p in enumerate(pages):
        p.refresh = watched(i, p)
        p.refresh()
        p.start_polling()
    samples = []
    try:
        while len(pages[0].controller.state.deal_points) < deals and not pages[0].controller.state.is_over:
            mover = next((i for i, p in enumerate(pages) if click(p)), None)
            if mover is None:
                await asyncio.sleep(POLL_INTERVAL / 4)
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
    return samples


def main(argv=None) -> int:
    """Print the figures next to the target; return 0 when it is met, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one deal instead of a whole match")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        samples = asyncio.run(play(Path(folder), 1 if args.quick else 5))
    p50, p95 = np.percentile(samples, [50, 95])
    met = p95 <= TARGET_MS
    print(f"  together: {len(samples)} move arrivals (poll every {POLL_INTERVAL * 1000:.0f} ms): p50 {p50:.0f} ms, "
          f"p95 {p95:.0f} ms, max {max(samples):.0f} ms   target: p95 <= {TARGET_MS:.0f} ms: "
          f"{'met' if met else 'NOT MET'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
