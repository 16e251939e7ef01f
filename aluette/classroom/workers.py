"""The worker processes of the students' app, each with a listening socket of its own on the same port.

uvicorn's own ``--workers`` shares one listening socket: whichever worker's event loop is free accepts the next
connections, and asyncio accepts every connection waiting at once. In a class, thirty students arrive together;
the worker that is busy building pages is slow to accept, so the other takes nearly all of them and builds them
alone while the first worker sits idle (measured with two workers: one at 90-100 % of a core, the other at 0 %,
for half of the burst). Here each worker is a ``python -m uvicorn --fd N`` process of its own whose socket has
``SO_REUSEPORT``: Linux then spreads new connections over the sockets by a hash of their addresses, busy or not,
so every worker gets its share, once the worker listens on its socket, that is once it is ready to serve. Elsewhere
(macOS spreads nothing that way) ``make app`` uses uvicorn's ``--workers``.

:func:`serve` starts the workers, restarts one that dies (as uvicorn's supervisor does), and on SIGINT or SIGTERM
(Ctrl-C, or the test harness) stops them all and returns. :func:`run` runs a server that is one process of its own
(Voilà, for ``make app SERVER=voila`` and ``make teacher``, or uvicorn with its own ``--workers``) the same way.

**Ready.** A worker reads and runs every notebook before it answers (half a minute to a few minutes, by the machine
and how busy it is), so a student's browser would wait on a silent address. Each worker says when it serves
(:func:`mark_ready`: a file named by its process id in ``ALUETTE_READY_DIR``, written once its start is done:
``aluette/classroom/solara_asgi.py``); :class:`Readiness` prints what the server is doing until every worker has said
so and the landing page answers (on Voilà, until the landing page answers), then "ready" with the address to give
out: on every path of ``make app`` and ``make teacher``, never the address before its first page can be served.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, Iterable

__all__ = ["spread_by_kernel", "worker_socket", "worker_sockets", "serve", "run", "mark_ready", "SaysReady",
           "Readiness", "READY_DIR_ENV"]

#: The folder where each worker says it serves (:func:`mark_ready`), set by ``aluette.classroom.command``.
READY_DIR_ENV = "ALUETTE_READY_DIR"


def mark_ready(folder: str | Path | None = None) -> None:
    """This worker serves now: a file named by its process id in ``folder`` (default ``ALUETTE_READY_DIR``; nothing
    when neither is set)."""
    folder = folder or os.environ.get(READY_DIR_ENV)
    if folder:
        (Path(folder) / str(os.getpid())).touch()


class SaysReady:
    """ASGI middleware: once the app's start is done (its lifespan's startup: for Solara, the app read and every
    notebook run), this worker says it serves (:func:`mark_ready`), for ``make app`` to print "ready"."""

    def __init__(self, app, folder: str | Path | None = None):
        self.app, self.folder = app, folder

    async def __call__(self, scope, receive, send):
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)

        async def sending(message):
            await send(message)
            if message["type"] == "lifespan.startup.complete":
                mark_ready(self.folder)
        return await self.app(scope, receive, sending)


def probe(url: str, timeout: float = 5.0) -> bool:
    """Whether ``url`` answers HTTP 200 now."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


class Readiness:
    """What ``make app`` prints while its server starts: every ``every`` seconds what it is doing, then, once all
    ``workers`` have said they serve (files in ``folder``, :func:`mark_ready`) and ``probe_url`` answers, ``ready``'s
    lines (the address to give out) once. Called by :func:`serve` with the running workers' process ids, and by
    :func:`run` with ``None`` (uvicorn's own workers, whose process ids are uvicorn's: every file in ``folder``
    counts). ``folder=None``: a server whose workers say nothing (Voilà), ready once ``probe_url`` answers.

    ``what`` names the server in the lines (``"the students' app"``); ``say`` prints a line; ``check`` asks an address
    (default :func:`probe`); ``clock`` in seconds."""

    def __init__(self, folder: str | Path | None, workers: int, probe_url: str, ready: Iterable[str], *,
                 what: str = "the students' app", say: Callable[[str], None] = lambda line: print(line, flush=True),
                 every: float = 10.0, check: Callable[[str], bool] = probe,
                 clock: Callable[[], float] = time.monotonic):
        self.folder = None if folder is None else Path(folder)
        self.workers, self.probe_url, self.ready = workers if folder is not None else 0, probe_url, list(ready)
        self.say, self.every, self.check, self.clock = say, every, check, clock
        self.started = self.clock()
        self.told = self.started
        self.done = False
        if self.folder is None:
            self.say(f"aluette: starting {what}; the address follows as soon as its first page can be served.")
        else:
            self.say(f"aluette: starting {what} ({workers} worker{'s' if workers != 1 else ''}): each reads and runs "
                     f"every notebook once before it serves (half a minute to a few minutes, by the machine); the "
                     f"address follows as soon as the first page can be served.")

    def __call__(self, pids: Iterable[int] | None) -> bool:
        """One look (``pids``: the workers running now, or ``None``: any worker that said it serves); True once ready
        was said."""
        if self.done:
            return True
        if self.folder is None:
            serving = set()
        elif pids is None:
            serving = {path.name for path in self.folder.iterdir()}
        else:
            pids = set(pids)
            serving = {pid for pid in pids if (self.folder / str(pid)).exists()}
        now = self.clock()
        workers_ready = len(serving) >= self.workers and (pids is None or serving == pids)
        if workers_ready and self.check(self.probe_url):
            self.done = True
            self.say(f"aluette: ready after {now - self.started:.0f} s.")
            for line in self.ready:
                self.say(line)
            return True
        if now - self.told >= self.every:
            self.told = now
            if self.folder is None:
                self.say(f"aluette: still starting ({now - self.started:.0f} s): waiting for the first page to answer.")
            else:
                self.say(f"aluette: still starting ({len(serving)} of {self.workers} workers ready after "
                         f"{now - self.started:.0f} s): reading and running the notebooks.")
        return False


def spread_by_kernel() -> bool:
    """Whether this system spreads connections over sockets that share a port (``SO_REUSEPORT`` on Linux)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def worker_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` with ``SO_REUSEPORT``, inheritable by a child, **not listening**: the worker
    it is given to listens on it once it is ready to serve (asyncio's ``create_server`` does, after uvicorn has
    imported the app and run every notebook once). Until then the system sends it no connection: a worker started
    again after a crash (its notebooks run for a minute or more on a busy machine) takes no student's connection
    before it can answer, and the other workers take them all meanwhile."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6 and host == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind((host, port))
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def worker_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` sockets of :func:`worker_socket` on one port."""
    made = []
    try:
        for _ in range(count):
            made.append(worker_socket(host, port))
    except OSError:
        for sock in made:
            sock.close()
        raise
    return made


def run(argv: list, env: dict, watch: Callable[[None], object] | None = None) -> int:
    """Run the server ``argv``, one process of its own (Voilà; uvicorn with its own ``--workers``), until it exits or
    SIGINT or SIGTERM stops this process (then it is sent SIGTERM, and killed if it has not stopped within 20 s).
    ``watch`` is called with ``None`` every 0.2 s until it returns true (:class:`Readiness`). Returns the server's exit
    code, or 0 once stopped by a signal."""
    stopping = []

    def stop(signum, _frame):
        stopping.append(signum)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    child = None
    try:
        child = subprocess.Popen(argv, env=env)
        ready = watch is None
        while not stopping and child.poll() is None:
            time.sleep(0.2)
            if not ready and not stopping:
                ready = bool(watch(None))
        if stopping:
            return 0
        if child.returncode:
            print(f"aluette: the server stopped (exit {child.returncode})", file=sys.stderr, flush=True)
        return child.returncode
    finally:
        if child is not None and child.poll() is None:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def serve(argv_for_fd: Callable[[int], list], env: dict, host: str, port: int, workers: int,
          restart_after: float = 1.0, watch: Callable[[Iterable[int]], object] | None = None) -> int:
    """Run ``workers`` processes ``argv_for_fd(fd)`` (each given a socket of its own on ``host``:``port``, which it
    listens on once ready: :func:`worker_socket`) until SIGINT or SIGTERM; a worker that exits is started again after
    ``restart_after`` seconds on a new socket (its old one is closed, so that no connection waits in it for a worker
    that is not there). ``watch`` is called with the workers' process ids every 0.2 s (:class:`Readiness`). Returns 0
    once stopped by a signal."""
    slots = [[sock, None] for sock in worker_sockets(host, port, workers)]
    stopping = []

    def start(sock: socket.socket) -> subprocess.Popen:
        return subprocess.Popen(argv_for_fd(sock.fileno()), env=env, pass_fds=(sock.fileno(),))

    def stop(signum, _frame):
        stopping.append(signum)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        for slot in slots:
            slot[1] = start(slot[0])
        while not stopping:
            time.sleep(0.2)
            if watch is not None:
                watch([child.pid for _sock, child in slots if child.poll() is None])
            for slot in slots:
                child = slot[1]
                if child.poll() is not None and not stopping:
                    print(f"aluette: a worker of the app stopped (exit {child.returncode}); starting it again",
                          file=sys.stderr, flush=True)
                    slot[0].close()  # out of the port's group: its waiting connections are refused, not kept
                    time.sleep(restart_after)
                    slot[0] = worker_socket(host, port)
                    slot[1] = start(slot[0])
        return 0
    finally:
        children = [child for _sock, child in slots if child is not None]
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for sock, _child in slots:
            sock.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
