"""A huge text sent to every text box of every student lesson on Solara's server (``make app``): the server's CPU
for each refusal and the time to the page's next answer.

Run ``python -m tests.benchmarks.run long_texts`` (``make bench ARGS=long_texts``). Not collected by pytest.

What is measured: the students' app on notebooks/ (each lesson read at its first page, the test caps); one page per
lesson, loaded as a browser does (``tests/server/student.py``); for each text box the page shows (its widget state's
``_model_name``), a widget message ``update`` of its value with ~900 KB of card codes (under the door's 1 MiB), as a
crafted client sends it: the CPU of the server's whole process tree (psutil, in steps of 10 ms) from sending it to
the page's idle status for it (each page left to settle for 2 s first), and the wall time of the next message of
that page (the box's ``request_state``) answered.
``tests/server/test_long_texts.py`` asserts the refusal itself (the message, the box's value, nothing sent back).

Targets (this project's): a refusal costs at most 0.1 s of the server's CPU (one length check: linear, nothing
parsed; it was 208 s for notebook 01's ordering box with its quadratic check), and the next message is answered in
under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from aluette.classroom import student_notebooks  # noqa: E402
from tests.browser.harness import REPO, solara_server  # noqa: E402
from tests.server.student import message, open_solara_page  # noqa: E402

TEXT_MODELS = {"TextModel", "TextareaModel", "ComboboxModel", "PasswordModel"}
HUGE = "3O " * 300_000  # 900,000 characters
CPU_TARGET_S = 0.1
ANSWER_TARGET_S = 0.1
SETTLE_S = 2.0


def tree_cpu(root: psutil.Process) -> float:
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


async def measure(url: str, root: psutil.Process, lessons: list[str]) -> list[dict]:
    rows = []
    for k, lesson in enumerate(lessons):
        page = await open_solara_page(url, f"/{lesson}", f"127.0.0.{120 + k}")
        try:
            if page.failure:
                rows.append({"lesson": lesson, "box": "-", "failure": page.failure})
                continue
            await asyncio.sleep(SETTLE_S)  # the last page's close (its widgets freed) is not this page's refusal
            boxes = {c: dict(s) for c, s in page.states.items() if s.get("_model_name") in TEXT_MODELS}
            for comm_id, state in boxes.items():
                before = tree_cpu(root)
                await page.request(message("comm_msg", {"comm_id": comm_id, "data": {
                    "method": "update", "state": {"value": HUGE}, "buffer_paths": []}}, page.session), timeout=600)
                cpu = tree_cpu(root) - before
                start = time.monotonic()
                await page.request(message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}},
                                           page.session))
                rows.append({"lesson": lesson, "box": state.get("description") or state.get("placeholder") or "?",
                             "cpu_s": cpu, "answer_s": time.monotonic() - start})
        finally:
            await page.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_long_texts", description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", default="", help="comma-separated lesson names (default: every student lesson)")
    args, _ = parser.parse_known_args(argv)
    lessons = [n for n in args.lessons.split(",") if n] or [p.stem for p in student_notebooks(REPO / "notebooks")]
    server = solara_server("bench-long-texts", REPO / "notebooks", Path(tempfile.mkdtemp(prefix="long-texts-")))
    server.start()
    try:
        rows = asyncio.run(measure(server.url, psutil.Process(server.process.pid), lessons))
    finally:
        server.stop()
    failures = [r for r in rows if "failure" in r]
    measured = [r for r in rows if "failure" not in r]
    for r in failures:
        print(f"  {r['lesson']}: page failed: {r['failure']}")
    for r in measured:
        print(f"  {r['lesson']:18} {r['box'][:40]:40} CPU {r['cpu_s']:6.3f} s  next answer "
              f"{r['answer_s'] * 1000:6.1f} ms")
    if not measured:
        print("  no text box measured")
        return 1
    worst_cpu, worst_answer = max(r["cpu_s"] for r in measured), max(r["answer_s"] for r in measured)
    median_answer = statistics.median(r["answer_s"] for r in measured)
    print(f"  {len(measured)} boxes: worst CPU per refusal {worst_cpu:.3f} s (target <= {CPU_TARGET_S} s); next "
          f"answer median {median_answer * 1000:.1f} ms, worst {worst_answer * 1000:.1f} ms (target < "
          f"{ANSWER_TARGET_S * 1000:.0f} ms)")
    return 0 if not failures and worst_cpu <= CPU_TARGET_S and worst_answer < ANSWER_TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
