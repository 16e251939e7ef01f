"""Speed and memory of simulation (the README promises speed and flat memory), each figure printed next to its target.

``python -m tests.benchmarks.run --only speed [--quick]``. "One core" figures are deals per second of CPU time of
this process (``time.process_time``), so other work on a shared machine does not count against them; the "whole
machine" figure is wall time, process pool start-up included. Peak memory is measured in fresh child processes:
``tracemalloc``'s peak (numpy arrays and Python objects) and the resident set size of the process and its workers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from aluette import SEATS, Deal, Options
from aluette.simulation import BLOCK_SIZE, DRAWS_PER_DEAL, block_generator, simulate, simulate_summary, step_deals

MB = 1024 * 1024


def _cpu_rate(function, n: int, repeat: int) -> float:
    """Best deals per CPU second over ``repeat`` runs of ``function(n)``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function(n)
        best = min(best, time.process_time() - start)
    return n / best


def step_blocks(n: int) -> None:
    """The simulation's step engine, chant off: each block of 1,000 deals drawn from the seed, then every deal
    shuffled, cut, dealt, played (36 random plays through Deal.play_index, every check) and scored by Deal."""
    options = Options(chant=False)
    for block in range(0, -(-n // BLOCK_SIZE)):
        m = min(BLOCK_SIZE, n - block * BLOCK_SIZE)
        draws = block_generator(1, block).random((m, DRAWS_PER_DEAL))
        step_deals(draws, np.arange(m) % 4, options)


def step_play_index(n: int) -> None:
    """Deal.from_seed(generator) + 36 random play_index + scoring, chant off: the step engine's random play."""
    rng = np.random.default_rng(1)
    options = Options(chant=False)
    for i in range(n):
        deal = Deal.from_seed(rng, dealer=SEATS[i % 4], options=options)
        for p, u in enumerate(rng.random(36).tolist()):
            deal.play_index(int(u * (9 - (p >> 2))))
        assert deal.result is not None


def step_play_card(n: int) -> None:
    """The same with the card API: legal_cards() then play(seat, card)."""
    rng = np.random.default_rng(1)
    options = Options(chant=False)
    for i in range(n):
        deal = Deal.from_seed(rng, dealer=SEATS[i % 4], options=options)
        for u in rng.random(36).tolist():
            legal = deal.legal_cards()
            deal.play(deal.to_move, legal[int(u * len(legal))])
        assert deal.result is not None


def _memory_probe(kind: str, n: int, workers: int, traced: bool) -> dict:
    """Run one simulation and report its peak memory (called in a fresh child process): the peak resident set size
    of this process and of its largest worker, or with ``traced`` the peak that ``tracemalloc`` sees (its own
    bookkeeping inflates the resident size, hence two runs)."""
    if traced:
        tracemalloc.start()
    if kind == "frame":
        frame = simulate(n, seed=1, engine="vectorized")
        assert len(frame) == n
        del frame
    else:
        with ProcessPoolExecutor(workers) as executor:
            summary = simulate_summary(n, seed=1, engine="vectorized", executor=executor)
        assert summary.deals == n
    if traced:
        return {"traced_peak": tracemalloc.get_traced_memory()[1]}
    return {"rss": _peak_rss(), "children_rss": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024}


def _peak_rss() -> int:
    """This process's peak resident set size in bytes (Linux ``VmHWM``: unlike ``ru_maxrss`` it does not carry the
    parent's size over ``fork`` + ``exec``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _probe_in_child(kind: str, n: int, workers: int) -> dict:
    figures = {}
    for traced in ("0", "1"):
        output = subprocess.run([sys.executable, "-m", __spec__.name, "--memory-probe", kind, str(n), str(workers),
                                 traced], check=True, capture_output=True, text=True).stdout
        figures.update(json.loads(output.strip().splitlines()[-1]))
    return figures


def _row(label: str, measured: str, target: str, ok) -> None:
    verdict = "" if ok is None else ("met" if ok else "MISSED")
    print(f"{label:<74} {measured:>22}   {target:<12} {verdict}", flush=True)


def heuristic_status() -> str:
    """Why there is no vectorized heuristic figure yet (or an empty string when there is one)."""
    if importlib.util.find_spec("aluette.players.bots") is None:
        return "not available yet (no aluette.players.bots)"
    if importlib.util.find_spec("aluette.simulation.numpy_heuristic") is None:
        return "not available yet (no vectorized heuristic)"
    from aluette.simulation import numpy_heuristic as vectorized_heuristic
    if not hasattr(vectorized_heuristic, "heuristic_deals"):
        return "not available yet (no vectorized heuristic)"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test of the benchmark)")
    parser.add_argument("--memory-probe", nargs=4, metavar=("KIND", "N", "WORKERS", "TRACED"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_probe:
        kind, n, workers, traced = args.memory_probe
        print(json.dumps(_memory_probe(kind, int(n), int(workers), traced == "1")))
        return 0

    workers = os.cpu_count() or 1
    scale = 10 if args.quick else 1
    ok = True
    print(f"machine: {workers} cores, load average {os.getloadavg()[0]:.1f}; python {sys.version.split()[0]}, "
          f"numpy {np.__version__}")
    print(f"{'figure':<74} {'measured':>22}   {'target':<12} verdict")

    rate = _cpu_rate(step_blocks, 20_000 // scale, 3)
    ok &= rate >= 20_000
    _row("step engine (Deal), random play, one core: seeded block + Deal", f"{rate:,.0f} deals/s", ">= 20,000",
         rate >= 20_000)
    rate = _cpu_rate(step_play_index, 20_000 // scale, 3)
    _row("  Deal.from_seed(generator) + 36 play_index per deal", f"{rate:,.0f} deals/s", "(for scale)", None)
    rate = _cpu_rate(step_play_card, 20_000 // scale, 3)
    _row("  same with legal_cards() + play(seat, card)", f"{rate:,.0f} deals/s", "(for scale)", None)
    rate = _cpu_rate(lambda n: simulate(n, seed=1, options=Options(chant=False)), 20_000 // scale, 3)
    _row("  simulate(engine='step') to a DataFrame, chant off", f"{rate:,.0f} deals/s", "(for scale)", None)
    rate = _cpu_rate(lambda n: simulate(n, seed=1), 20_000 // scale, 3)
    _row("  simulate(engine='step'), chant offered (random answers)", f"{rate:,.0f} deals/s", "(for scale)", None)

    rate = _cpu_rate(lambda n: simulate(n, seed=1, engine="vectorized"), 1_000_000 // scale, 3)
    ok &= rate >= 500_000
    _row("vectorized random play, full scoring, one core (to a DataFrame)", f"{rate:,.0f} deals/s", ">= 500,000",
         rate >= 500_000)

    n = 1_000_000 // scale
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with ProcessPoolExecutor(workers) as executor:
            frame = simulate(n, seed=1, engine="vectorized", executor=executor)
        best = min(best, time.perf_counter() - start)
        assert len(frame) == n
    del frame
    ok &= best < 5
    _row(f"{n:,} vectorized deals on the whole machine ({workers} workers), wall", f"{best:.2f} s", "< 5 s",
         best < 5)

    frame_probe = _probe_in_child("frame", 1_000_000 // scale, workers)
    small = _probe_in_child("summary", 1_000_000 // scale, workers)
    large = _probe_in_child("summary", 10_000_000 // scale, workers)
    peak = max(frame_probe["rss"], large["rss"], large["children_rss"])
    ok &= peak < 500 * MB
    _row(f"peak memory, simulate({1_000_000 // scale:,}) to a DataFrame: RSS (traced)",
         f"{frame_probe['rss'] / MB:.0f} ({frame_probe['traced_peak'] / MB:.0f}) MB", "< 500 MB",
         frame_probe["rss"] < 500 * MB)
    for label, probe in ((f"{1_000_000 // scale:,}", small), (f"{10_000_000 // scale:,}", large)):
        _row(f"peak memory, simulate_summary({label}), {workers} workers: RSS, worker RSS (traced)",
             f"{probe['rss'] / MB:.0f}, {probe['children_rss'] / MB:.0f} ({probe['traced_peak'] / MB:.0f}) MB",
             "< 500 MB", max(probe["rss"], probe["children_rss"]) < 500 * MB)

    status = heuristic_status()
    if status:
        _row("vectorized heuristic play, one core", status, ">= 50,000", None)
    else:
        def heuristic(n, engine, options=None):
            simulate(n, seed=1, players="heuristic", engine=engine, options=options)

        for label, options in (("chant offered", None), ("chant and surrender", Options(surrender=True))):
            rate = _cpu_rate(lambda n: heuristic(n, "vectorized", options), 200_000 // scale, 3)
            ok &= rate >= 50_000
            _row(f"vectorized heuristic play (4 HeuristicBots), {label}, one core", f"{rate:,.0f} deals/s",
                 ">= 50,000", rate >= 50_000)
        mixed = {"N": "heuristic", "E": "random", "S": "heuristic", "W": "random"}
        rate = _cpu_rate(lambda n: simulate(n, seed=1, players=mixed, engine="vectorized"), 200_000 // scale, 3)
        ok &= rate >= 50_000
        _row("vectorized mixed play (N-S HeuristicBots, E-W random), chant offered, one core", f"{rate:,.0f} deals/s",
             ">= 50,000", rate >= 50_000)
        rate = _cpu_rate(lambda n: heuristic(n, "step"), 2_000 // scale, 1)
        _row("  the same deals with engine='step' (HeuristicBot.choose per move)", f"{rate:,.0f} deals/s",
             "(for scale)", None)
    print("all targets met" if ok else "SOME TARGETS MISSED", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
