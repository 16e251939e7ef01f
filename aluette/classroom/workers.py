"""The worker processes of the students' app, each with a listening socket of its own on the same port.

uvicorn's own ``--workers`` shares one listening socket: whichever worker's event loop is free accepts the next
connections, and asyncio accepts every connection waiting at once. In a class, thirty students arrive together;
the worker that is busy building pages is slow to accept, so the other takes nearly all of them and builds them
alone while the first worker sits idle (measured with two workers: one at 90-100 % of a core, the other at 0 %,
for half of the burst). Here each worker is a ``python -m uvicorn --fd N`` process of its own whose socket has
``SO_REUSEPORT``: Linux then spreads new connections over the sockets by a hash of their addresses, busy or not,
so every worker gets its share. Elsewhere (macOS spreads nothing that way) ``make app`` uses uvicorn's
``--workers``.

:func:`serve` starts the workers, restarts one that dies (as uvicorn's supervisor does), and on SIGINT or SIGTERM
(Ctrl-C, or the test harness) stops them all and returns.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from typing import Callable

__all__ = ["spread_by_kernel", "listening_sockets", "serve"]


def spread_by_kernel() -> bool:
    """Whether this system spreads connections over sockets that share a port (``SO_REUSEPORT`` on Linux)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def listening_sockets(host: str, port: int, count: int, backlog: int = 2048) -> list[socket.socket]:
    """``count`` sockets listening on ``host``:``port``, each with ``SO_REUSEPORT``, inheritable by a child."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    made = []
    try:
        for _ in range(count):
            sock = socket.socket(family, socket.SOCK_STREAM)
            made.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            if family == socket.AF_INET6 and host == "::":
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            sock.bind((host, port))
            sock.listen(backlog)
            sock.set_inheritable(True)
    except OSError:
        for sock in made:
            sock.close()
        raise
    return made


def serve(argv_for_fd: Callable[[int], list], env: dict, host: str, port: int, workers: int,
          restart_after: float = 1.0) -> int:
    """Run ``workers`` processes ``argv_for_fd(fd)`` (each given a socket of its own on ``host``:``port``) until
    SIGINT or SIGTERM; a worker that exits is started again after ``restart_after`` seconds. Returns 0 once
    stopped by a signal."""
    sockets = listening_sockets(host, port, workers)
    stopping = []

    def start(sock: socket.socket) -> subprocess.Popen:
        return subprocess.Popen(argv_for_fd(sock.fileno()), env=env, pass_fds=(sock.fileno(),))

    def stop(signum, _frame):
        stopping.append(signum)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    children = {}
    try:
        children = {sock: start(sock) for sock in sockets}
        while not stopping:
            time.sleep(0.2)
            for sock, child in list(children.items()):
                if child.poll() is not None and not stopping:
                    print(f"aluette: a worker of the app stopped (exit {child.returncode}); starting it again",
                          file=sys.stderr, flush=True)
                    time.sleep(restart_after)
                    children[sock] = start(sock)
        return 0
    finally:
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 20
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for sock in sockets:
            sock.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
