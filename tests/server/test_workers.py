"""The worker processes of the students' app (aluette.classroom.workers): a socket of their own each on one port,
new connections spread over them by the system, a worker that dies started again, all stopped by SIGTERM; and on every
path of `make app` and `make teacher`, the address given only once the first page can be served. Run with stand-ins
(a tiny HTTP server that answers its process id; for Voilà and uvicorn's own workers, one that answers late) so that
no Solara or Voilà server is needed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest

from aluette.classroom.ledger import process_alive
from aluette.classroom.workers import spread_by_kernel, worker_sockets
from tests.browser.harness import REPO
from tests.ports import free_port
from tests.coroutines import run as run_coroutine

#: the tests of the workers' own sockets (``SO_REUSEPORT``); the others run on any system
linux_only = pytest.mark.skipif(not spread_by_kernel(), reason="SO_REUSEPORT spreads connections on Linux only")

WORKER = textwrap.dedent("""
    import http.server, os, socket, sys, time
    fd = int(sys.argv[1].removeprefix("--fd="))
    ready = os.environ.get("READY_AFTER")  # a restarted worker's start (its notebooks) takes this long
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
    if ready and os.path.exists(ready):
        time.sleep(float(open(ready).read()))
    server.socket.listen(128)  # as uvicorn does once it is ready (asyncio's create_server)
    server.serve_forever()
""")

SERVE = textwrap.dedent("""
    import sys
    from aluette.classroom.workers import serve
    worker = sys.argv[1]
    sys.exit(serve(lambda fd: [sys.executable, "-c", worker, f"--fd={fd}"], None, "127.0.0.1", int(sys.argv[2]),
                   int(sys.argv[3]), restart_after=0.1))
""")


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
def served(tmp_path):
    """Two stand-in workers on a free port, both listening; ``READY_AFTER`` names a file that, once written, holds
    the seconds a (re)started worker takes before it listens."""
    port = free_port()
    ready = tmp_path / "ready_after"
    process = subprocess.Popen([sys.executable, "-c", SERVE, WORKER, str(port), "2"], cwd=REPO,
                               start_new_session=True, env={**os.environ, "READY_AFTER": str(ready)})
    deadline = time.monotonic() + 60
    while len(set(children(process.pid)) & {answer(port) for _ in range(8)}) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    yield process, port, ready
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


@linux_only
def test_each_worker_listens_on_a_socket_of_its_own_and_gets_a_share_of_new_connections(served):
    """Linux spreads connections over sockets that share a port by a hash of their addresses: 40 connections, each
    from a new port, reach both workers (all on one would happen once in 2**39 runs)."""
    process, port, ready = served
    pids = [answer(port) for _ in range(40)]
    assert None not in pids and set(pids) == children(process.pid) and len(set(pids)) == 2, pids


@linux_only
def test_a_worker_that_dies_is_started_again_and_sigterm_stops_them_all(served):
    process, port, ready = served
    first = children(process.pid)
    gone = min(first)
    os.kill(gone, signal.SIGKILL)
    def restarted():  # two live workers, the dead one not among them, the same in two looks 0.3 s apart
        before = children(process.pid)
        time.sleep(0.3)
        return before if before == children(process.pid) and len(before) == 2 and gone not in before else None
    deadline = time.monotonic() + 30
    while (now := restarted()) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert now is not None, f"no second worker within 30 s: {children(process.pid)}"
    deadline = time.monotonic() + 30  # the new worker joins the port once it listens (bounded wait)
    while len({answer(port) for _ in range(20)} - {None}) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len({answer(port) for _ in range(40)} - {None}) == 2  # the new worker has its share again
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0
    deadline = time.monotonic() + 10
    while any(process_alive(pid) for pid in now) and time.monotonic() < deadline:  # reaped by the stopped server
        time.sleep(0.05)
    assert not any(process_alive(pid) for pid in now)


@linux_only
def test_sockets_are_made_for_each_worker_and_inherited():
    sockets = worker_sockets("127.0.0.1", 0, 1)
    try:
        sock, = sockets
        assert sock.get_inheritable() and sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
    finally:
        for sock in sockets:
            sock.close()
    port = free_port()
    sockets = worker_sockets("127.0.0.1", port, 3)
    try:
        assert {s.getsockname()[1] for s in sockets} == {port}
    finally:
        for sock in sockets:
            sock.close()


@linux_only
def test_a_restarted_worker_takes_no_connection_before_it_is_ready(served):
    """Issue 22: a killed worker restarted, but the connections that landed on its socket waited until it had run
    every notebook again (10 of 12 newcomers timed out at 150 s). Its socket now leaves the port's group with it, and
    the new one joins only when the new worker listens: meanwhile the other worker answers every connection."""
    process, port, ready = served
    ready.write_text("4")  # the restarted worker takes 4 s before it listens
    gone = min(children(process.pid))
    os.kill(gone, signal.SIGKILL)
    time.sleep(0.5)  # the server notices within 0.2 s and starts the new worker
    waits, answered = [], set()
    end = time.monotonic() + 3
    while time.monotonic() < end:  # bounded: 3 s of connections, while the new worker is not ready
        start = time.monotonic()
        answered.add(answer(port))
        waits.append(time.monotonic() - start)
    assert None not in answered and gone not in answered
    assert max(waits) < 2.0, f"a connection waited {max(waits):.1f} s for a worker that was not ready"


# ---------------------------------------------------------------------- "ready" only when a page can be served
# a worker reading and running the notebooks (START_S seconds: nothing answered yet), then saying it serves
SLOW_WORKER = ("import os, time\ntime.sleep(float(os.environ['START_S']))\n"
               "from aluette.classroom.workers import mark_ready\n"
               + WORKER.replace("server.serve_forever()", "mark_ready()\nserver.serve_forever()"))

SERVE_WATCHED = textwrap.dedent("""
    import os, sys, tempfile
    from aluette.classroom.workers import READY_DIR_ENV, Readiness, serve
    worker, port = sys.argv[1], int(sys.argv[2])
    with tempfile.TemporaryDirectory() as folder:
        watch = Readiness(folder, 2, f"http://127.0.0.1:{port}/", [f"Students open: http://127.0.0.1:{port}/"],
                          every=0.5)
        env = {**os.environ, READY_DIR_ENV: folder}
        sys.exit(serve(lambda fd: [sys.executable, "-c", worker, f"--fd={fd}"], env, "127.0.0.1", port, 2,
                       watch=watch))
""")


@linux_only
def test_make_app_gives_the_address_only_once_every_worker_serves_and_says_what_it_does_until_then():
    """Issue 23 §4: `make app` printed the students' address at once, while the address stayed silent for 21-164 s.
    The supervisor (aluette.classroom.workers.serve, as `make app` runs it) prints what it is doing, and "ready"
    with the address only when both workers (stand-ins that take 3 s to start) answer."""
    port = free_port()
    began = time.monotonic()
    process = subprocess.Popen([sys.executable, "-u", "-c", SERVE_WATCHED, SLOW_WORKER, str(port)], cwd=REPO,
                               env={**os.environ, "START_S": "3"}, stdout=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        lines, given = lines_until_the_address(process)
        served = {answer(port) for _ in range(20)}
        answered = time.monotonic() - given
        assert lines[0].startswith("aluette: starting the students' app (2 workers)")
        assert any(line.startswith("aluette: still starting (") for line in lines[1:-2]), lines
        assert lines[-2].startswith("aluette: ready after ") and lines[-1] == f"Students open: http://127.0.0.1:{port}/"
        assert given - began >= 3  # not before the workers could answer
        assert None not in served and served == children(process.pid)  # both workers answer, at once:
        assert answered < 5  # 20 answers (a worker still starting would hold one 3 s)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        assert process.wait(30) == 0


# a server of one process of its own, as `make app SERVER=voila` and `make teacher` run Voilà, and `make app` on macOS
# uvicorn with its own --workers (aluette.classroom.workers.run): "voila" answers only after START_S seconds; "workers"
# answers at once (uvicorn's supervisor listens) but its second worker says it serves only after START_S seconds
LATE_SERVER = textwrap.dedent("""
    import http.server, os, sys, threading, time
    port, mode, start = int(sys.argv[1]), sys.argv[2], float(os.environ["START_S"])
    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")
        def log_message(self, *args):
            pass
    if mode == "voila":
        time.sleep(start)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Answer)
    if mode == "workers":
        def start_workers(folder=os.environ["ALUETTE_READY_DIR"]):
            open(os.path.join(folder, "101"), "w").close()
            time.sleep(start)
            open(os.path.join(folder, "102"), "w").close()
        threading.Thread(target=start_workers, daemon=True).start()
    server.serve_forever()
""")

# `python -m aluette.classroom` itself (command.main), its server replaced by LATE_SERVER; its lines every 0.5 s
MAIN_WITH_A_LATE_SERVER = textwrap.dedent("""
    import functools, os, sys
    from aluette.classroom import command
    late, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    def launch(*args, **kwargs):
        return command.Launch([sys.executable, "-c", late, str(port), mode], dict(os.environ),
                              f"http://127.0.0.1:{port}/", None)
    command.voila_command = command.solara_command = launch
    command.spread_by_kernel = lambda: False  # as on macOS
    command.Readiness = functools.partial(command.Readiness, every=0.5)
    sys.exit(command.main(["app", f"--port={port}", *(["--server=voila"] if mode == "voila" else ["--workers=2"])]))
""")


@pytest.mark.parametrize("mode", ["voila", "workers"])
def test_every_path_of_make_app_gives_the_address_once_its_first_page_can_be_served(mode):
    """Issue 23 §4 on the other paths: `make app SERVER=voila` (and `make teacher`, the same code) and `make app` on
    macOS (uvicorn's own --workers) printed the address before it answered. `python -m aluette.classroom` now runs the
    server, says what it is doing, and prints "ready" with the address only once the server's own address answers
    and, for uvicorn's workers, both workers have said they serve (a stand-in server that is ready after 2 s)."""
    port = free_port()
    began = time.monotonic()
    process = subprocess.Popen([sys.executable, "-u", "-c", MAIN_WITH_A_LATE_SERVER, LATE_SERVER, str(port), mode],
                               cwd=REPO, env={**os.environ, "START_S": "2"}, stdout=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        lines, given = lines_until_the_address(process)
        answered = answer_ok(port)
        starting = ("aluette: starting the students' app on Voilà;" if mode == "voila"
                    else "aluette: starting the students' app (2 workers): each reads and runs every notebook")
        assert lines[0].startswith(starting), lines
        assert any(line.startswith("aluette: still starting (") for line in lines[1:-2]), lines
        assert lines[-2].startswith("aluette: ready after ") and lines[-1] == f"Students open: http://127.0.0.1:{port}/"
        assert given - began >= 2 and answered  # not before the server could answer, and it answers then
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        assert process.wait(30) == 0  # stopped by the signal, its server with it
    assert not answer_ok(port)


def lines_until_the_address(process, within: float = 60) -> tuple[list[str], float]:
    """What ``process`` printed up to its "Students open" line (stripped), and when that line came (monotonic)."""
    lines: list[str] = []
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        assert line, f"the server stopped: {lines}"
        lines.append(line.strip())
        if line.startswith("Students open"):
            return lines, time.monotonic()
    raise AssertionError(f"no address within {within} s: {lines}")


def answer_ok(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def test_readiness_waits_for_every_running_worker_and_the_landing_page():
    from aluette.classroom.workers import Readiness
    said, answers, now = [], {"up": False}, [0.0]
    folder = Path(tempfile.mkdtemp())
    watch = Readiness(folder, 2, "http://x/", ["Students open: http://x/"], say=said.append, every=10,
                      check=lambda url: answers["up"], clock=lambda: now[0])
    assert said[0].startswith("aluette: starting")
    (folder / "101").touch()
    now[0] = 11
    assert not watch([101, 102]) and said[-1] == ("aluette: still starting (1 of 2 workers ready after 11 s): "
                                                  "reading and running the notebooks.")
    (folder / "102").touch()
    now[0] = 12
    assert not watch([101, 102])  # both said so, but the landing page does not answer yet
    (folder / "103").touch()
    answers["up"] = True
    assert not watch([101, 103, 104])  # a worker started again (104) has not said it serves
    assert watch([101, 102]) and said[-2:] == ["aluette: ready after 12 s.", "Students open: http://x/"]
    count = len(said)
    assert watch([101, 102]) and len(said) == count  # said once


def test_readiness_of_a_server_whose_workers_are_not_known_by_process_id(tmp_path):
    # Voilà (no worker says it serves): ready once its address answers; uvicorn's own workers (``None``: their
    # process ids are uvicorn's): once as many as started have said so, whoever they are, and the address answers
    from aluette.classroom.workers import Readiness
    said, answers, now = [], {"up": False}, [0.0]
    voila = Readiness(None, 0, "http://x/", ["Teacher's page: http://x/"], what="the teacher's page",
                      say=said.append, every=10, check=lambda url: answers["up"], clock=lambda: now[0])
    assert said == ["aluette: starting the teacher's page; the address follows as soon as its first page can be "
                    "served."]
    now[0] = 10
    assert not voila(None) and said[-1] == "aluette: still starting (10 s): waiting for the first page to answer."
    answers["up"] = True
    assert voila(None) and said[-2:] == ["aluette: ready after 10 s.", "Teacher's page: http://x/"]
    said.clear()
    workers = Readiness(tmp_path, 2, "http://x/", ["Students open: http://x/"], say=said.append,
                        check=lambda url: answers["up"], clock=lambda: now[0])
    (tmp_path / "7").touch()
    assert not workers(None)
    (tmp_path / "9").touch()
    assert workers(None) and said[-1] == "Students open: http://x/"


def test_a_worker_says_it_serves_once_its_start_is_done(tmp_path):
    from aluette.classroom.workers import SaysReady
    seen = []

    async def app(scope, receive, send):
        seen.append((tmp_path / str(os.getpid())).exists())  # not before the start is done
        await send({"type": "lifespan.startup.complete"})

    async def send(message):
        pass

    async def receive():
        return {"type": "lifespan.startup"}
    run_coroutine(SaysReady(app, tmp_path)({"type": "lifespan"}, receive, send))
    assert seen == [False] and (tmp_path / str(os.getpid())).exists()
    run_coroutine(SaysReady(app, tmp_path / "absent")({"type": "http"}, receive, send))  # no lifespan: no word
    assert not (tmp_path / "absent").exists()
