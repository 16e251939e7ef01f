"""The practice's progress in the store, for a class of 30 students x 50 tasks (issue 20, §2-3).

Run ``python -m tests.benchmarks.run progress [--quick] [--backend sqlite|postgresql]`` (``make bench
ARGS=progress``). Not collected by pytest.

Method: a fresh database (SQLite in a temporary folder; PostgreSQL a throwaway server, ``tests/store/pgserver.py``)
gets 30 students, each of whom does lesson practices through :class:`~aluette.practice.PracticeController` with a
:class:`~aluette.widgets.practice.StoreKeeper` until 50 of their tasks are over (every third answered wrong first,
every fifth with a hint), as the pages do. Then the teacher's page (:class:`~aluette.widgets.class_progress.ClassPage`)
is refreshed repeatedly.

Figures:

* an answer's keeping (the ``keep`` of a task that ends: one write transaction with the attempt and the session's
  state), p50 / p95; target p95 < 100 ms (issue 20: "the answer's round trip p95 < 100 ms");
* the teacher's page refresh (three queries and the HTML of 30 x 7 cells, the rules failed and the CSV link), p50 /
  p95; target p95 < 250 ms (the page stays fast with a whole class);
* counts: the tasks the report counts equal the tasks that ended (target: equal).

Measured on the 2-core machine shared with other work (load average about 17), 30 x 50: SQLite keeping p50 0.1 /
p95 0.3 ms, refresh p50 19 / p95 31 ms; PostgreSQL keeping p50 0.9 / p95 16 ms, refresh p50 30 / p95 50 ms; 1,500
of 1,500 tasks counted on both.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from aluette.practice import LESSONS, PracticeController  # noqa: E402
from aluette.store.db import PostgresStore, SQLiteStore  # noqa: E402
from aluette.store.progress import Progress  # noqa: E402
from aluette.widgets.class_progress import ClassPage  # noqa: E402
from aluette.widgets.practice import StoreKeeper  # noqa: E402
from tests.test_practice import answers  # noqa: E402

KEEP_TARGET_MS = 100.0
REFRESH_TARGET_MS = 250.0


class TimedKeeper(StoreKeeper):
    def __init__(self, progress, student, times):
        super().__init__(progress, student)
        self.times = times

    def keep(self, *args):
        start = time.perf_counter()
        super().keep(*args)
        self.times.append((time.perf_counter() - start) * 1000)


def fill(progress: Progress, students: int, tasks: int) -> tuple[list[float], int]:
    """Each student does practices until ``tasks`` of theirs are over. Returns the keeping times and the count."""
    times: list[float] = []
    over = 0
    lessons = list(LESSONS)
    for s in range(students):
        student = progress.student("bench", f"Pupil {s}")
        done = 0
        n = 0
        while done < tasks:
            lesson = lessons[(s + n) % len(lessons)]
            c = PracticeController(lesson, s * 1000 + n, TimedKeeper(progress, student, times))
            n += 1
            if c.done:  # this lesson's practice kept from before is over: Practice again, as a student would
                c.again()
            while not c.done and done < tasks:
                if done % 5 == 0 and c.next_hint_cost is not None:
                    c.hint()
                if done % 3 == 0:
                    c.reveal()
                else:
                    c.answer(answers(c.task)[0])  # the right answer, found with the engine
                c.next()
                done += 1
        over += done
    return times, over


def percentiles(values) -> tuple[float, float]:
    return float(np.percentile(values, 50)), float(np.percentile(values, 95))


def run(progress: Progress, name: str, students: int, tasks: int, refreshes: int) -> bool:
    times, over = fill(progress, students, tasks)
    page = ClassPage(progress, class_code="bench")
    took = []
    for _ in range(refreshes):
        start = time.perf_counter()
        page.refresh()
        took.append((time.perf_counter() - start) * 1000)
    counted = sum(row.tried for row in progress.report("bench").rows)
    k50, k95 = percentiles(times)
    r50, r95 = percentiles(took)
    ok = k95 < KEEP_TARGET_MS and r95 < REFRESH_TARGET_MS and counted == over
    print(f"[{name}] {students} students x {tasks} tasks: keeping a task p50 {k50:.1f} ms / p95 {k95:.1f} ms "
          f"(target p95 < {KEEP_TARGET_MS:.0f} ms)")
    print(f"[{name}] teacher's page refresh p50 {r50:.1f} ms / p95 {r95:.1f} ms over {refreshes} refreshes "
          f"(target p95 < {REFRESH_TARGET_MS:.0f} ms)")
    print(f"[{name}] tasks counted {counted} of {over} over (target: equal) -> {'ok' if ok else 'MISSED'}")
    page.close()
    return ok


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_progress")
    parser.add_argument("--quick", action="store_true", help="5 students x 10 tasks, 5 refreshes")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args, _ = parser.parse_known_args(argv)
    students, tasks, refreshes = (5, 10, 5) if args.quick else (30, 50, 30)
    ok = True
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory(prefix="aluette-bench-progress-") as folder:
            progress = Progress(SQLiteStore(Path(folder) / "tables.sqlite3"))
            try:
                ok &= run(progress, "sqlite", students, tasks, refreshes)
            finally:
                progress.close()
    if args.backend in ("postgresql", "both"):
        from tests.store.pgserver import PostgresServer, find_bin
        if find_bin() is None:
            print("[postgresql] skipped: no PostgreSQL binaries (sudo apt-get install postgresql)")
        else:
            server = PostgresServer().start()
            try:
                server.create_database("aluette_bench")
                progress = Progress(PostgresStore(server.url("aluette_bench")))
                try:
                    ok &= run(progress, "postgresql", students, tasks, refreshes)
                finally:
                    progress.close()
            finally:
                server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
