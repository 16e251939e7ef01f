"""Fixtures for the classroom server tests: the app on Voilà started through ``python -m aluette.classroom``
(the code path of ``make app SERVER=voila`` and ``make teacher``), so the package's aluette/classroom/voila/ (voila.json, the
template) applies, on a free 127.0.0.1 port, serving the
fixture notebooks (light: a page costs a second of CPU, not notebook 08's five). Each test passes the short limits
and timeouts it needs as Voilà options; no test asserts a timing."""

from __future__ import annotations

import sys

import pytest

from tests.browser import harness
from tests.browser.harness import FIXTURES, REPO, Server, server_env


@pytest.fixture
def classroom(tmp_path_factory, request):
    """Factory: ``classroom(*voila_options, token=None, audience="app")`` starts a server and returns it (stopped
    at the end of the test). Without pre-heated kernels unless asked: a test's pages then start their own."""
    harness.require_module("voila", "lab")
    started = []

    def start(*options: str, token: str | None = None, audience: str = "app", prefix: tuple = ()) -> Server:
        def command(port):
            return [*prefix, sys.executable, "-m", "aluette.classroom", audience, "--host=127.0.0.1", f"--port={port}",
                    *(["--server=voila"] if audience == "app" else []), f"--folder={FIXTURES}",
                    *([f"--token={token}"] if token else []), *options]
        name = f"classroom-{request.node.name}-{len(started)}"[:80]
        server = Server(name, command, REPO, server_env(tmp_path_factory.mktemp("classroom-home")))
        if token:
            server.ready = f"/?token={token}"
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()
