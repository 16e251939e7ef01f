"""The app's connections are guarded before a request is read (:mod:`aluette.classroom.guard`; issue 22, §1: 45,000
connections that never sent their headers filled both workers' files and no student could connect).

A real uvicorn with the guarded protocol, on 127.0.0.1 only, serving a tiny ASGI app (an HTTP answer and a websocket
echo), with a header timeout of 1 s and a cap of 8 connections per address; the attacker is 127.0.0.1, another
student 127.0.0.2 (Linux routes all of 127.0.0.0/8 to the loopback). Every loop is bounded."""

from __future__ import annotations

import base64
import logging
import os
import socket
import subprocess
import sys
import time

import pytest

from aluette.classroom import guard
from aluette.classroom.command import solara_command
from tests.browser.harness import REPO
from tests.ports import free_port

APP = '''
async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"}); return
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"}); return
    await receive()
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] != "websocket.receive":
            return
        await send({"type": "websocket.send", "text": message.get("text") or ""})
'''
CAP = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("guard")
    (folder / "tinyapp.py").write_text(APP)
    port = free_port()
    env = {**os.environ, "ALUETTE_HEADER_TIMEOUT": "1", "ALUETTE_MAX_CONNECTIONS_PER_ADDRESS": str(CAP),
           "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--app-dir", str(folder), "tinyapp:app",
                             "--host=127.0.0.1", f"--port={port}", f"--http={guard.PROTOCOL}", "--log-level=warning"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("the test server did not start")
    yield port
    proc.terminate()
    proc.wait(timeout=20)


def _connect(port, source="127.0.0.1"):
    sock = socket.socket()
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _closed_by_server(sock, within: float) -> bool:
    """True when the server closes ``sock`` (a read gives nothing or a reset) within ``within`` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def _get(port, source="127.0.0.2") -> bytes:
    with _connect(port, source) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
        return data


def test_connections_that_send_no_headers_are_closed_and_a_student_still_gets_in(server):
    silent = [_connect(server) for _ in range(CAP)]
    partial = _connect(server, "127.0.0.3")
    partial.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    try:
        assert _get(server).endswith(b"ok")  # meanwhile another student is served
        assert all(_closed_by_server(s, 5) for s in silent)
        assert _closed_by_server(partial, 5)
    finally:
        for sock in (*silent, partial):
            sock.close()


def test_one_address_holds_a_bounded_number_of_connections(server):
    held = [_connect(server) for _ in range(CAP)]
    try:
        time.sleep(0.2)  # the server has accepted them all (the timeout is 1 s)
        extra = _connect(server)
        assert _closed_by_server(extra, 0.8), "the connection over the cap was not closed"
        extra.close()
        assert _get(server).endswith(b"ok")  # another address is not affected
    finally:
        for sock in held:
            sock.close()


def test_a_websocket_outlives_the_header_timeout(server):
    with _connect(server, "127.0.0.4") as sock:
        key = base64.b64encode(os.urandom(16))
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 101")
        time.sleep(1.6)  # past the header timeout
        mask = os.urandom(4)
        text = b"still here"
        sock.sendall(bytes([0x81, 0x80 | len(text)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(text)))
        frame = sock.recv(4096)
        assert frame[2:] == text


def test_make_app_serves_with_the_guarded_protocol():
    launch = solara_command("127.0.0.1", 8888, None, workers=1)
    assert f"--http={guard.PROTOCOL}" in launch.argv
    assert f"--http={guard.PROTOCOL}" in launch.fd_argv(3)


def test_a_flood_of_one_cause_is_one_log_line_a_minute(caplog):
    quiet = guard.Quiet(every=60)
    with caplog.at_level(logging.WARNING, logger="aluette.classroom"):
        for _ in range(10_000):
            quiet.warn("accept", "cannot accept a connection")
        quiet.warn("other", "another cause")
    assert [r.getMessage() for r in caplog.records] == ["cannot accept a connection", "another cause"]


def asgi_record(error):
    """uvicorn's record of an ASGI application's failure: ``error`` inside anyio's task group, as Solara raises it."""
    try:
        raise ExceptionGroup("unhandled errors in a TaskGroup", [error])
    except ExceptionGroup as group:
        return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application",
                                 None, (type(group), group, group.__traceback__))


def test_a_traceback_is_written_whole_once_per_cause_then_in_short(caplog):
    log = guard.Quiet(every=60)
    keep = guard.ShortTracebacks(log)

    with caplog.at_level(logging.WARNING, logger="aluette.classroom"):
        assert keep.filter(asgi_record(ValueError("Expecting value")))  # the first: whole, with its traceback
        assert not any(keep.filter(asgi_record(ValueError("Expecting value"))) for _ in range(500))
        assert keep.filter(asgi_record(KeyError("header")))  # another cause: whole once too
    assert [r.getMessage() for r in caplog.records] == [
        "Exception in ASGI application: ValueError: Expecting value"]


def test_solaras_known_race_is_short_from_the_first_time(caplog):
    """A page's two sockets at once: Solara asserts on the second disconnect (a 9 KB traceback on a busy machine,
    test_rate.py's crafted frames); a short line from the first time, and another AssertionError still whole."""
    keep = guard.ShortTracebacks(guard.Quiet(every=60))

    race = AssertionError("cannot disconnect a page that is in state: <PageStatus.DISCONNECTED: 'disconnected'>")
    with caplog.at_level(logging.WARNING, logger="aluette.classroom"):
        assert not keep.filter(asgi_record(race))
        assert keep.filter(asgi_record(AssertionError("a bug of ours")))  # not the race: whole, with its traceback
    assert [r.getMessage() for r in caplog.records] == [
        "Exception in ASGI application: AssertionError: cannot disconnect a page that is in state: "
        "<PageStatus.DISCONNECTED: 'disconnected'>"]

