"""The worker processes of the students' app (aluette.classroom.workers): a socket of their own each on one port,
new connections spread over them by the system, a worker that dies started again, all stopped by SIGTERM. Run with a
stand-in worker (a tiny HTTP server that answers its process id) so that no Solara server is needed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request

import pytest

from aluette.classroom.ledger import process_alive
from aluette.classroom.workers import listening_sockets, spread_by_kernel
from tests.browser.harness import REPO

pytestmark = pytest.mark.skipif(not spread_by_kernel(), reason="SO_REUSEPORT spreads connections on Linux only")

WORKER = textwrap.dedent("""
    import http.server, os, socket, sys
    fd = int(sys.argv[1].removeprefix("--fd="))
    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = str(os.getpid()).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *args):
            pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Answer, bind_and_activate=False)
    server.socket = socket.socket(fileno=fd)
    server.serve_forever()
""")

SERVE = textwrap.dedent("""
    import sys
    from aluette.classroom.workers import serve
    worker = sys.argv[1]
    sys.exit(serve(lambda fd: [sys.executable, "-c", worker, f"--fd={fd}"], None, "127.0.0.1", int(sys.argv[2]),
                   int(sys.argv[3]), restart_after=0.1))
""")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answer(port: int) -> int | None:
    """The process id of the worker that answers a new connection (None while none answers)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            return int(response.read())
    except OSError:
        return None


def children(pid: int) -> set[int]:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return {int(p) for p in found.split()}


@pytest.fixture
def served():
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", SERVE, WORKER, str(port), "2"], cwd=REPO,
                               start_new_session=True)
    deadline = time.monotonic() + 60
    while answer(port) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    yield process, port
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def test_each_worker_listens_on_a_socket_of_its_own_and_gets_a_share_of_new_connections(served):
    """Linux spreads connections over sockets that share a port by a hash of their addresses: 40 connections, each
    from a new port, reach both workers (all on one would happen once in 2**39 runs)."""
    process, port = served
    pids = [answer(port) for _ in range(40)]
    assert None not in pids and set(pids) == children(process.pid) and len(set(pids)) == 2, pids


def test_a_worker_that_dies_is_started_again_and_sigterm_stops_them_all(served):
    process, port = served
    first = children(process.pid)
    gone = min(first)
    os.kill(gone, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while (len(children(process.pid)) < 2 or gone in children(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    now = children(process.pid)
    assert gone not in now and len(now) == 2
    assert len({answer(port) for _ in range(40)} - {None}) == 2  # the new worker took the dead one's socket
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0
    deadline = time.monotonic() + 10
    while any(process_alive(pid) for pid in now) and time.monotonic() < deadline:  # reaped by the stopped server
        time.sleep(0.05)
    assert not any(process_alive(pid) for pid in now)


def test_sockets_are_made_for_each_worker_and_inherited():
    sockets = listening_sockets("127.0.0.1", 0, 1)
    try:
        sock, = sockets
        assert sock.get_inheritable() and sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
    finally:
        for sock in sockets:
            sock.close()
    port = free_port()
    sockets = listening_sockets("127.0.0.1", port, 3)
    try:
        assert {s.getsockname()[1] for s in sockets} == {port}
    finally:
        for sock in sockets:
            sock.close()
