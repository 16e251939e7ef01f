"""Shared tables under load: 8 tables of 4 players play whole matches at once, against SQLite and PostgreSQL.

Run ``python -m tests.benchmarks.run store [--quick] [--pause SECONDS] [--backend sqlite|postgresql]`` (``make bench
ARGS=store``). Not collected by pytest.

Method: one process per table (a classroom has one kernel per student; here the table's four players are four
threads of one process, each with its own connection to the database, its own :class:`~aluette.store.TableService`
and its own seat code). Each player is a :class:`~aluette.players.bots.HeuristicBot` driving the same calls a person's page
makes (``tests/store/players.py``): it waits for the table's log number to move, as a page does: woken by its
process's watcher of the table (:func:`aluette.store.watch.watch`; before the watcher, it polled the number every
10 ms, :meth:`TableService.wait`), reads its own seat's state when the number moves, and when it is its turn waits ``--pause`` seconds (a person's or a bot's
pause; 0.1 s by default) and submits its move with the log number it chose it on. The next deal is started by the
first player who sees the deal over (the others' requests are refused as the deal is no longer over).

Figures, per database:

* move-to-other-players latency: from the moment a player calls ``submit`` to the moment each of the three other
  players' pollers holds a state that includes the move (one sample per move and other seat), p50 / p95 / max;
  target p95 <= 300 ms (issue: "each move appears on the other three devices within 300 ms (p95) on this machine");
* moves lost: moves whose ``submit`` returned a log number but that are not in the table's log under that number with
  that content (target 0);
* replays: each table's log replayed by a fresh session gives the same match (every deal's moves, scores) as the
  session that played it (target 8 of 8).
* the CPU of an idle table: one process, one table of four players waiting for a move that does not come, for
  ``--idle`` seconds (process CPU time, every thread), per minute; target <= 0.15 s (8 idle tables at most 1% of
  this 2-core machine).

PostgreSQL is a throwaway server from Debian's ``postgresql`` (``tests/store/pgserver.py``) with fsync on; the store
commits without waiting for the flush (``synchronous_commit = off``, as SQLite's ``synchronous=NORMAL``: see
:mod:`aluette.store.db`). Measured on the 2-core machine shared with other work, two runs (p50 / p95 / max; 0 moves
lost of 2,028 and 8 of 8 logs replayed in both): at a load average of 11, SQLite 8 / 27 / 208 ms and PostgreSQL
19 / 181 / 420 ms; at a load average of 25-33 (others' work), SQLite 14 / 283 / 1,981 ms and PostgreSQL 98 / 1,537 /
3,891 ms. PostgreSQL waiting for the disk's flush of every move (before ``synchronous_commit = off``), at a load of
16: 50 / 625 / 1,298 ms.

Issue 17 §2, the players woken by their process's watcher instead of each polling every 10 ms (the machine loaded by
others' work; before and after run one after the other): SQLite 28 / 231 / 846 ms at a load of 26 (before: 11 / 202
/ 1,032 ms at 24), an idle table 0.038 s of CPU a minute (before: 1.374 s); PostgreSQL 324 / 786 / 1,920 ms at a
load of 29 (before: 340 / 1,043 / 2,753 ms at 35), an idle table 0.067 s a minute (before: 0.42-0.52 s). Under such
a load the watcher's one more thread hand-off shows in SQLite's p50; the p95 target is kept, and an idle class costs
a twentieth of what it did.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from aluette import Options  # noqa: E402
from aluette.seats import SEATS  # noqa: E402
from aluette.store import TableService  # noqa: E402
from aluette.store.db import PostgresStore, SQLiteStore  # noqa: E402

TARGET_P95 = 0.300
TABLES = 8
IDLE_TARGET = 0.15

try:
    from aluette.store.watch import watch
except ImportError:  # the tree before the watcher: the players poll (for the "before" figures)
    watch = None


class Waiter:
    """How a player learns that the table's log moved: woken by its process's watcher of the table, or (before the
    watcher) by polling the log number every 10 ms."""

    def __init__(self, service: TableService, name: str):
        self.service, self.name = service, name
        self._event = threading.Event()
        self._seq = -1
        self._stop = None
        if watch is not None:
            self._stop = watch(service, name, self._wake)

    def _wake(self, change) -> None:
        if change is not None:
            self._seq = max(self._seq, change.seq)
        self._event.set()

    def wait(self, last: int, timeout: float) -> int:
        if self._stop is None:
            return self.service.wait(self.name, last, timeout=timeout, interval=0.01)
        deadline = time.monotonic() + timeout
        while self._seq <= last and time.monotonic() < deadline:
            self._event.wait(max(0.0, deadline - time.monotonic()))
            self._event.clear()
        return max(self._seq, last) if self._seq > last else last

    def close(self) -> None:
        if self._stop is not None:
            self._stop()


def _store(kind: str, where: str):
    return SQLiteStore(where) if kind == "sqlite" else PostgresStore(where)


def _play_table(kind: str, where: str, name: str, seed: int, options: Options, pause: float, deadline: float,
                out) -> None:
    """One table's four players, each a thread with its own connection; puts the table's figures on ``out`` (or
    the error that stopped it)."""
    try:
        _play(kind, where, name, seed, options, pause, deadline, out)
    except BaseException as error:
        import traceback
        out.put({"name": name, "crash": traceback.format_exc()})
        raise


def _play(kind: str, where: str, name: str, seed: int, options: Options, pause: float, deadline: float, out) -> None:
    from tests.store.players import BotPlayer

    host = TableService(_store(kind, where))
    host.create_table(name, seed=seed, options=options)
    tickets = {seat: host.take_seat(name, seat, f"player {seat}") for seat in SEATS}
    submitted: dict[int, tuple[float, str]] = {}  # seq -> (time submit was called, the entry as written)
    seen: dict[tuple[str, int], float] = {}  # (seat, seq) -> time its poller first held it
    errors: list[str] = []
    refused = [0]
    lock = threading.Lock()

    def player(seat):
        service = TableService(_store(kind, where))
        me = BotPlayer(service, tickets[seat])
        waiter = Waiter(service, name)
        last = -1  # the first state is read at once
        try:
            while time.monotonic() < deadline:
                seq = waiter.wait(last, timeout=2.0)
                if seq == last:
                    continue
                state = me.state()
                now = time.monotonic()
                with lock:
                    for k in range(max(last, 0) + 1, state.seq + 1):
                        seen.setdefault((str(seat), k), now)
                last = state.seq
                if state.is_over:
                    return
                if pause and state.view.to_move is seat:
                    time.sleep(pause)
                started = time.monotonic()
                try:
                    made = me.act(state)  # nothing when it is neither its turn nor time for its signals
                except Exception as error:  # a refused move: counted and shown
                    with lock:
                        refused[0] += 1
                        errors.append(f"{seat}: {type(error).__name__}: {error}")
                    continue
                with lock:
                    for k in made:
                        submitted[k] = (started, seat)
        finally:
            waiter.close()
            service.close()

    threads = [threading.Thread(target=player, args=(seat,)) for seat in SEATS]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    latencies = [seen[(str(s), k)] - t0 for k, (t0, mover) in submitted.items() for s in SEATS
                 if s is not mover and (str(s), k) in seen]
    with host.store.read() as tx:
        logged = {seq: (seat, body) for seq, seat, body in tx.rows(
            "SELECT m.seq, m.seat, m.body FROM aluette_moves m JOIN aluette_tables t ON t.id = m.table_id "
            "WHERE t.name = ? ORDER BY m.seq", (name,))}
    lost = sum(1 for k, (_, mover) in submitted.items() if k not in logged or logged[k][0] != str(mover))
    live = host.replay(name)
    fresh = TableService(_store(kind, where))
    again = fresh.replay(name)
    same = again.to_dict() == live.to_dict() and again.is_over
    fresh.close()
    host.close()
    out.put({"name": name, "latencies": latencies, "moves": len(submitted), "logged": len(logged), "lost": lost,
             "replay_same": same, "over": live.is_over, "errors": errors[:3], "refused": refused[0],
             "deals": live.deal_number, "scores": {str(t): p for t, p in live.scores.items()}})


def _idle_table(kind: str, where: str, seconds: float, out) -> None:
    """One process: a table of four players waiting, as they wait for a move; puts the CPU seconds a minute."""
    host = TableService(_store(kind, where))
    host.create_table("idle", seed=1)
    for seat in SEATS:
        host.take_seat("idle", seat, f"player {seat}")
    stop = time.monotonic() + seconds + 0.5
    waiting = []

    def player():
        service = TableService(_store(kind, where))
        waiter = Waiter(service, "idle")
        waiting.append(1)
        try:
            last = service.seq("idle")
            while time.monotonic() < stop:
                last = waiter.wait(last, timeout=min(2.0, max(0.0, stop - time.monotonic())))
        finally:
            waiter.close()
            service.close()
    threads = [threading.Thread(target=player) for _ in SEATS]
    for t in threads:
        t.start()
    time.sleep(0.5)
    cpu, wall = time.process_time(), time.monotonic()
    for t in threads:
        t.join()
    out.put((time.process_time() - cpu) / (time.monotonic() - wall) * 60.0)
    host.close()


def idle_cpu(kind: str, where: str, seconds: float) -> float:
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    process = context.Process(target=_idle_table, args=(kind, where, seconds, out))
    process.start()
    figure = out.get(timeout=seconds + 120)
    process.join(timeout=60)
    return figure


def run_backend(kind: str, where: str, tables: int, options: Options, pause: float, limit: float) -> dict:
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    deadline = time.monotonic() + limit
    started = time.monotonic()
    processes = [context.Process(target=_play_table, args=(kind, where, f"load {i}", i + 1, options, pause, deadline,
                                                                 out))
                 for i in range(tables)]
    for p in processes:
        p.start()
    results = []
    for _ in processes:
        result = out.get(timeout=limit + 120)
        if "crash" in result:
            print(f"table {result['name']} stopped:\n{result['crash']}")
        else:
            results.append(result)
    for p in processes:
        p.join(timeout=60)
    wall = time.monotonic() - started
    latencies = np.array([x for r in results for x in r["latencies"]])
    return {"results": results, "latencies": latencies, "wall": wall}


def _row(label: str, measured: str, target: str, ok) -> None:
    verdict = "" if ok is None else ("met" if ok else "MISSED")
    print(f"{label:<58} {measured:>28}   {target:<14} {verdict}", flush=True)


def report_idle(kind: str, figure: float, seconds: float) -> bool:
    _row(f"{kind}: CPU of an idle table (4 players, {seconds:.0f} s)", f"{figure:.3f} s a minute",
         f"<= {IDLE_TARGET} s", figure <= IDLE_TARGET)
    return figure <= IDLE_TARGET


def report(kind: str, figures: dict, tables: int) -> bool:
    results, lat = figures["results"], figures["latencies"]
    moves = sum(r["moves"] for r in results)
    lost = sum(r["lost"] for r in results)
    same = sum(r["replay_same"] for r in results)
    over = sum(r["over"] for r in results)
    print(f"-- {kind}: {tables} tables x 4 players, {moves} moves in {figures['wall']:.1f} s "
          f"({moves / figures['wall']:.0f} moves/s), {over}/{tables} matches over; load average "
          f"{os.getloadavg()[0]:.1f}")
    ok = True
    if len(lat):
        p50, p95, top = np.percentile(lat, 50), np.percentile(lat, 95), lat.max()
        ok &= p95 <= TARGET_P95
        _row(f"{kind}: move to other players, p50 / p95 / max ({len(lat)} samples)",
             f"{p50 * 1000:.0f} / {p95 * 1000:.0f} / {top * 1000:.0f} ms", "p95 <= 300 ms", p95 <= TARGET_P95)
    else:
        ok = False
        _row(f"{kind}: move to other players", "no sample", "p95 <= 300 ms", False)
    ok &= lost == 0
    _row(f"{kind}: moves lost", f"{lost} of {moves}", "0", lost == 0)
    ok &= same == tables and over == tables and len(results) == tables
    _row(f"{kind}: logs replayed to the same final state", f"{same} of {tables}", f"{tables} of {tables}",
         same == tables and over == tables)
    refused = sum(r["refused"] for r in results)
    if refused:
        _row(f"{kind}: moves refused", f"{refused}", "(none expected)", None)
        for r in results:
            for line in r["errors"]:
                print(f"   {r['name']}: {line[:150]}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_store", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 tables, one deal each (a smoke test)")
    parser.add_argument("--pause", type=float, default=0.1, help="seconds a player waits before its move")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--pg-fsync", choices=("on", "off"), default="on",
                        help="PostgreSQL's fsync (off: to see what the disk's flushes cost)")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds before the players give up")
    parser.add_argument("--idle", type=float, default=None, help="seconds an idle table is measured (default 20, "
                                                                 "--quick 5)")
    args = parser.parse_args(argv)
    tables = 2 if args.quick else TABLES
    options = Options(match_deals=1) if args.quick else Options(surrender=True)
    idle = args.idle if args.idle is not None else (5.0 if args.quick else 20.0)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; pause {args.pause} s")
    ok = True
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory(prefix="aluette-bench-") as folder:
            path = str(Path(folder) / "tables.sqlite3")
            SQLiteStore(path).close()  # the schema, before the tables' processes race to create it
            ok &= report("sqlite", run_backend("sqlite", path, tables, options, args.pause, args.limit), tables)
            ok &= report_idle("sqlite", idle_cpu("sqlite", path, idle), idle)
    if args.backend in ("postgresql", "both"):
        from tests.store.pgserver import PostgresServer, find_bin
        if find_bin() is None:
            print("postgresql: PostgreSQL's binaries are missing (apt-get install postgresql): not measured")
            return 1
        with PostgresServer(fsync=args.pg_fsync == "on") as server:
            url = server.create_database("aluette_bench")
            PostgresStore(url).close()
            ok &= report("postgresql", run_backend("postgresql", url, tables, options, args.pause, args.limit),
                         tables)
            ok &= report_idle("postgresql", idle_cpu("postgresql", url, idle), idle)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
