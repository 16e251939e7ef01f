"""What one student's page costs Solara's server, measured in this process without a server: the CPU time of
the path a page takes on ``make app SERVER=solara``, and where it goes.

Run ``python -m tests.benchmarks.run page [--quick]`` (or ``python -m tests.benchmarks.bench_page --help``). Not
collected by pytest.

A page here is what Solara's server does for one page load, in its own code, with a websocket that only counts
what it is given: a new virtual kernel (``initialize_virtual_kernel``), the ``solara.control`` comm opened and sent
``run`` with the page's path (:mod:`aluette.classroom.solara_app`'s route: ``Lesson.build`` for the student, every widget's
``comm_open`` serialized to JSON for the websocket), then the page closed (``context.close``). As on the server,
every notebook is run once first (``ALUETTE_PREWARM``), so the process holds what the server holds (the garbage
collector's work grows with it). HTTP, the event loop and the websocket's own writes are left out: they are the same
for every frame, so the frames sent are reported beside the CPU. The server builds every page on one core (the GIL),
so the page's CPU time bounds how many pages a second it can build: 30 students within 3 s need about 0.1 s each.

Reported per notebook: the CPU per page (median and max of ``--pages`` pages after a warm-up page), the widgets
and the bytes sent; ``--profile`` adds cProfile's top functions (cumulative and own time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
import uuid
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = ("00_start_here", "01_ranking", "08_play_a_match")
PAGE_CPU_S = 0.1  # 30 pages on one core within 3 s


def _solara():
    """Solara's server modules, with :mod:`aluette.classroom.solara_app` as the app (as ``solara_asgi`` sets it)."""
    os.environ.setdefault("SOLARA_APP", "aluette.classroom.solara_app")
    from solara.server import app, kernel_context, server, websocket
    return app, kernel_context, server, websocket


def counting_websocket():
    _, _, _, websocket = _solara()

    class Counting(websocket.WebsocketWrapper):
        """A websocket that keeps only the number and size of the frames the server sends."""

        def __init__(self):
            self.frames = 0
            self.bytes = 0
            self.widgets = 0
            self.finished = False
            self.failed = False  # a cell of the page raised (the students' notice, aluette.classroom.lessons)

        def send_text(self, data: str) -> None:
            if self.finished:
                return  # closing the page is not part of it
            self.frames += 1
            self.bytes += len(data)
            head = data[:400].replace(" ", "")
            self.widgets += '"msg_type":"comm_open"' in head
            self.failed = self.failed or "could not be prepared" in data
            self.finished = self.finished or '"method":"finished"' in data.replace(" ", "")

        def send_bytes(self, data: bytes) -> None:
            if self.finished:
                return
            self.frames += 1
            self.bytes += len(data)

        def close(self) -> None:
            pass

        async def receive(self):
            raise NotImplementedError

    return Counting()


def _message(msg_type: str, content: dict, session: str) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student", "session": session,
                       "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "buffers": [], "channel": "shell"}


def one_page(path: str):
    """One student's page at ``path`` (``/08_play_a_match``): (CPU seconds, the counting websocket)."""
    app, kernel_context, server, _ = _solara()
    app.ensure_apps_initialized()
    websocket = counting_websocket()
    session = uuid.uuid4().hex
    start = time.process_time()
    context = kernel_context.initialize_virtual_kernel(session, str(uuid.uuid4()), websocket)
    try:
        with context:
            comm_id = uuid.uuid4().hex
            server.process_kernel_messages(context.kernel, _message(
                "comm_open", {"comm_id": comm_id, "target_name": "solara.control", "data": {}}, session))
            server.process_kernel_messages(context.kernel, _message(
                "comm_msg", {"comm_id": comm_id, "data": {"method": "run", "args": {
                    "path": path, "appName": None, "themes": None, "dark": False}}}, session))
        built = time.process_time() - start
    finally:
        context.close()
    if not websocket.finished or websocket.failed:
        raise RuntimeError(f"{path}: the page {'has a failed cell' if websocket.failed else 'did not finish'} (see "
                           "the log above)")
    return built, websocket


def measure(name: str, pages: int, profile: bool, top: int = 25) -> dict:
    path = "/" + name
    from aluette.classroom.lessons import lesson
    started = time.process_time()
    lesson(REPO / "notebooks" / f"{name}.ipynb")  # the server's template run, once
    template = time.process_time() - started
    one_page(path)  # warm-up: first imports, caches
    profiler = cProfile.Profile() if profile else None
    times, last = [], None
    for _ in range(pages):
        if profiler:
            profiler.enable()
        seconds, last = one_page(path)
        if profiler:
            profiler.disable()
        times.append(seconds)
    figures = {"notebook": name, "template_s": template, "pages": pages, "cpu_median_s": statistics.median(times),
               "cpu_max_s": max(times), "widgets": last.widgets, "frames": last.frames, "bytes": last.bytes}
    print(f"  {name}: page CPU median {figures['cpu_median_s'] * 1000:.0f} ms, max {figures['cpu_max_s'] * 1000:.0f} "
          f"ms over {pages} pages (target <= {PAGE_CPU_S * 1000:.0f} ms{' under the profiler' if profile else ''}); "
          f"{last.widgets} widgets opened, {last.frames} frames, {last.bytes / 1024:.0f} KiB sent; template run "
          f"{template:.1f} s once", flush=True)
    if profiler:
        for key in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(top)
            text = out.getvalue()
            print(f"  --- {name}: top {top} by {key} ({pages} pages)")
            print(text[text.index("ncalls"):].replace(str(REPO) + "/", "").rstrip())
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_page", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 pages per notebook instead of 30")
    parser.add_argument("--pages", type=int, default=None, help="pages per notebook (default 30, --quick 5)")
    parser.add_argument("--notebooks", default=",".join(NOTEBOOKS), help="comma-separated notebook names")
    parser.add_argument("--profile", action="store_true", help="cProfile's top functions per notebook")
    parser.add_argument("--top", type=int, default=25, help="functions shown per profile")
    parser.add_argument("--json", action="store_true", help="the figures as JSON at the end")
    parser.add_argument("--no-prewarm", action="store_true", help="run only the measured notebooks' template runs, "
                                                                  "not every notebook's as the server does at start")
    args, _ = parser.parse_known_args(argv)
    pages = args.pages or (5 if args.quick else 30)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"  per-page CPU of Solara's server, in process (load {load})", flush=True)
    os.environ.setdefault("MPLBACKEND", "agg")
    if not args.no_prewarm:  # as make app SERVER=solara starts it: every notebook run once, held by the process
        os.environ["ALUETTE_PREWARM"] = "1"
    from aluette.simulation import share_results
    share_results()  # as the server's module does (aluette.classroom.solara_asgi): a worker's pages share simulations
    app = _solara()[0]
    started = time.process_time()
    app.ensure_apps_initialized()
    print(f"  the app's start{'' if args.no_prewarm else ' (every notebook run once)'}: "
          f"{time.process_time() - started:.1f} s of CPU", flush=True)
    figures = [measure(n, pages, args.profile, args.top) for n in args.notebooks.split(",") if n]
    if args.json:
        print(json.dumps(figures))
    return 0 if all(f["cpu_median_s"] <= PAGE_CPU_S for f in figures) else 1


if __name__ == "__main__":
    sys.exit(main())
