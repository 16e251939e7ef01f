"""Real-browser test harness: Debian's Chromium driven by Python playwright, against Voilà, Solara (the students'
app of ``make app``) and JupyterLab servers that the tests start themselves on a free 127.0.0.1 port.

The fixtures live in ``conftest.py``; this module holds what a test imports:

- ``open_voila(page, name, server=...)`` opens a notebook in Voilà and fails unless every widget rendered and no
  error output, traceback, "Error displaying widget" or "Loading widget" is left on the page; ``open_solara`` does
  the same on the Solara app (and fails on a cell's error notice or a traceback in the server's log), and
  ``open_notebook`` picks one of the two from the server's ``kind``.
- ``wire_of(page)`` / the ``wire`` fixture: a :class:`Wire` recording everything the page received over its
  websockets (every kernel message, hence every widget model state), the HTML documents it loaded, its console
  errors and the outside requests that were blocked. ``wire.text()`` is the one string a secrecy test searches;
  ``wire.cards_named()`` the cards named in it, read by :mod:`aluette.secrecy` as the widget tests read a widget's
  state.
- ``screenshot(page, name)`` saves ``test-artifacts/screenshots/NAME.png`` (the whole notebook, or one widget with
  ``element=locator``).

Never let playwright download a browser of its own (this network refuses it); these tests use Debian's
``chromium`` package.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from aluette.classroom import VOILA_CONFIG
from aluette.secrecy import cards_named
from aluette.store import DATA_DIR_ENV, DATABASE_URL_ENV
from tests.ports import free_port  # noqa: F401 (the tests import it from here too)

try:
    from playwright.sync_api import expect
except ImportError:  # the fixtures then skip (or fail under CI) with the install hint; nothing else uses it
    expect = None

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARTIFACTS = REPO / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
FAILURES = ARTIFACTS / "failures"
#: The README's pictures. Tests write theirs into SCREENSHOTS; with ALUETTE_UPDATE_DOC_IMAGES=1 also here (a test run
#: never changes tracked files unless asked to).
DOC_IMAGES = REPO / "docs" / "images"
LOGS = ARTIFACTS / "logs"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
#: No page may load anything from outside this machine: every request but to the loopback goes to a proxy that is
#: not there and fails at once (Chromium never sends loopback requests through a proxy). Playwright's request
#: routing would do it too, but routing turns the browser's cache off, and the cache is what makes a page opened
#: again cheap (see conftest's ``page``). The failed requests are listed in ``Wire.blocked``.
BLOCK_OUTSIDE_ARGS = ["--proxy-server=http://127.0.0.1:9"]
#: The console error of a request :data:`BLOCK_OUTSIDE_ARGS` stopped (:meth:`Wire.js_errors` leaves it out).
BLOCKED_ERROR = "Failed to load resource: net::ERR_PROXY_CONNECTION_FAILED"
INSTALL_HINT = "install Debian's chromium: sudo apt-get install chromium"

# Bounded waits (seconds). Generous because the machine may be busy; each is an upper bound, never a sleep. On a
# loaded CI machine (make test's five workers of then on two cores, a pytest run twice as long as on an idle one)
# Voilà took over 120 s to answer the request for 09, whose cells it runs before sending the page (13 s idle).
SERVER_START = 90
RENDER = 300
SETTLE = 45
KERNEL_REPLY = 60

LOCAL = re.compile(r"^(https?|wss?)://127\.0\.0\.1(:\d+)?(/|$)")
#: A traceback in a server's log, from the line before it (what raised) to its last line (the exception).
TRACEBACK = re.compile(r"[^\n]*\n?Traceback \(most recent call last\):\n(?:[ \t][^\n]*\n)+[^\n]*")
#: A Solara page's kernel websocket: server, virtual kernel id, the page's session id (what its close request names).
SOLARA_SOCKET = re.compile(r"^ws(://127\.0\.0\.1:\d+)/jupyter/api/kernels/([0-9a-f-]+)/channels\?session_id=([0-9a-f-]+)")


def unavailable(reason: str):
    """Skip on a user's machine, fail under CI (the ``CI`` environment variable is set): the browser tests must
    never pass vacuously in CI because Chromium or playwright went missing."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so a missing browser dependency is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def find_chromium(path: Path = CHROMIUM) -> Path:
    """``path`` if it exists, else skip (fail under CI) with the install hint."""
    if not path.exists():
        unavailable(f"{path} not found; {INSTALL_HINT}")
    return path


def require_module(name: str, extra: str):
    """Skip (fail under CI) unless the Python module ``name`` is installed (it comes with the ``extra``)."""
    import importlib.util
    if importlib.util.find_spec(name) is None:
        unavailable(f"the {name} Python package is missing: .venv/bin/pip install -e '.[{extra}]'")


# ---------------------------------------------------------------------------------------------------- servers

class ServerError(RuntimeError):
    """A server did not start; the message holds the end of its log."""


@dataclass
class Server:
    """A Jupyter-family server (Voilà or JupyterLab) run as a subprocess on 127.0.0.1.

    ``command(port)`` builds the argv for a port; ``ready`` is the path polled until it answers HTTP 200.
    The log (stdout and stderr) goes to ``test-artifacts/logs/<name>.log``.
    """

    name: str
    command: object  # Callable[[int], list[str]]
    cwd: Path
    env: dict
    ready: str = "/"
    kind: str = "voila"  # "voila", "solara" (the students' app on Solara's server) or "lab": how pages are opened
    port: int = 0
    process: subprocess.Popen | None = None
    log_path: Path = field(init=False)

    def __post_init__(self):
        LOGS.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER")  # make test runs pytest-xdist workers: a log each
        self.log_path = LOGS / (f"{self.name}-{worker}.log" if worker else f"{self.name}.log")
        self.log_path.write_bytes(b"")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, attempts: int = 3) -> "Server":
        """Start on a free port, retrying on a new port if another process took it first; wait until ready.
        Raises ServerError (with the log's end) if it exits or does not answer within SERVER_START seconds."""
        for attempt in range(attempts):
            self.port = free_port()
            with open(self.log_path, "ab") as log:
                log.write(f"\n=== starting {self.name} on port {self.port} (attempt {attempt + 1})\n".encode())
                self.process = subprocess.Popen(self.command(self.port), cwd=self.cwd, env=self.env,
                                                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                                start_new_session=True)
            try:
                self._wait_ready()
                return self
            except ServerError as error:
                self.stop()
                if "already in use" not in str(error) or attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")

    def _wait_ready(self):
        deadline = time.monotonic() + SERVER_START
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerError(f"{self.name} exited with code {self.process.returncode} while starting;"
                                  f" log {self.log_path}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + self.ready, timeout=5) as response:
                    if response.status == 200:
                        return
            except http.client.HTTPException as error:
                # Something that does not speak HTTP holds the port (a kernel's ZeroMQ socket took it between the
                # probe and the bind): our server cannot have it; start again on another port.
                raise ServerError(f"port {self.port} is already in use by another process, which answered"
                                  f" {type(error).__name__}: {str(error)[:20]!r}") from error
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.25)
        raise ServerError(f"{self.name} did not answer {self.url + self.ready} within {SERVER_START} s;"
                          f" log {self.log_path}:\n{self.log_tail()}")

    def stop(self):
        """SIGTERM its process group (Voilà and JupyterLab then shut their kernels down), SIGKILL if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        # The server leads its own process group (start_new_session): the group is this server (and `make`,
        # when started through it); kernels run in sessions of their own and exit with their server.
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        except ProcessLookupError:
            pass

    def log_size(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def log_tail(self, since: int = 0, limit: int = 6000) -> str:
        """The log from byte ``since`` on, at most its last ``limit`` characters."""
        if not self.log_path.exists():
            return ""
        with open(self.log_path, "rb") as log:
            log.seek(since)
            text = log.read().decode("utf-8", "replace")
        return text if len(text) <= limit else "...\n" + text[-limit:]


def server_env(home: Path) -> dict:
    """Environment for a test server: the user's Jupyter config, settings and workspaces stay out of it, and so does
    the user's database of shared tables (a data folder under ``home``, SQLite)."""
    env = dict(os.environ)
    for variable, sub in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTERLAB_SETTINGS_DIR", "lab-settings"),
                          ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"), ("JUPYTER_RUNTIME_DIR", "runtime")]:
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[variable] = str(home / sub)
    # A plain Voilà of the tests loads only the JupyterLab extensions the classroom's Voilà loads (its voila.json's
    # allowlist: an extension made for JupyterLab alone, such as nbgrader's, breaks every Voilà page), and leaves
    # out the cells tagged remove-cell as the classroom's does (they neither show nor run: 08's hidden checks play
    # a whole match, 09's run simulations, on every page a test opened), and waits for a cell's late outputs as the
    # classroom's does (VoilaExecutor: Voilà's 4 s once dropped 01's comparer from the page on a busy machine).
    classroom = json.loads((VOILA_CONFIG / "voila.json").read_text())
    (home / "config" / "voila.json").write_text(json.dumps({
        "VoilaConfiguration": {"extension_allowlist": classroom["VoilaConfiguration"]["extension_allowlist"]},
        "TagRemovePreprocessor": classroom["TagRemovePreprocessor"], "VoilaExecutor": classroom["VoilaExecutor"],
        # and its kernels talk to it over Unix sockets (voila.json's KernelManager), as the classroom's do
        "KernelManager": classroom["KernelManager"]}))
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # silences a debugger warning in every kernel's log
    env[DATA_DIR_ENV] = str(home / "data")  # the shared tables' database: never the user's
    env.pop(DATABASE_URL_ENV, None)
    return env


def voila_command(folder: Path, *extra: str):
    """argv builder for Voilà serving ``folder`` (tree page at /, notebooks at /voila/render/NAME.ipynb).
    Tracebacks are shown so a failing notebook names its error on the page and in the test's failure."""
    def command(port: int) -> list[str]:
        return [sys.executable, "-m", "voila", "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
                "--Voila.port_retries=0", "--show_tracebacks=True", *extra, str(folder)]
    return command


#: The Solara app's caps for a test server, far above what one test opens: every page of the tests comes from
#: 127.0.0.1, where a class's caps (4 pages per address, 12 a minute) would refuse the fifth page.
SOLARA_TEST_CAPS = {"ALUETTE_MAX_SESSIONS": "400", "ALUETTE_MAX_SESSIONS_PER_ADDRESS": "400",
                    "ALUETTE_MAX_PAGES_PER_MINUTE": "1000"}


def make_command(target: str, port_variable: str, *settings: str):
    """argv builder for the real ``make TARGET`` (``make app``, ``make teacher``) on 127.0.0.1 and a given port, with
    this venv; ``-o`` keeps make from reinstalling the package."""
    stamp = f"{sys.prefix}/.aluette-installed"

    def command(port: int) -> list[str]:
        return ["make", "-s", "-o", stamp, target, f"VENV={sys.prefix}", "HOST=127.0.0.1", f"{port_variable}={port}",
                *settings]
    return command


def make_app_server(home: Path) -> Server:
    """``make app`` (the students' app on Solara's server, serving notebooks/), as a teacher runs it, except that the
    notebooks are read at their first page (``ALUETTE_PREWARM=0``: reading all at start is a minute of CPU, measured
    by the class benchmark) and the caps are :data:`SOLARA_TEST_CAPS`. One worker process (``WORKERS=1``): each
    xdist worker of ``make test`` starts its own, and every worker process reads each notebook it serves; the app's
    several workers (one door, connections spread, closes passed on) are tested in tests/server/test_solara.py and
    test_workers.py."""
    env = {**server_env(home), **SOLARA_TEST_CAPS, "ALUETTE_PREWARM": "0", "WORKERS": "1"}
    return Server("make-app", make_command("app", "PORT"), REPO, env, kind="solara")


def solara_server(name: str, folder: Path, home: Path) -> Server:
    """The students' app on Solara's server, as ``make app`` starts it (:func:`aluette.classroom.command.
    solara_command`: its argv and environment) on ``folder``, except that the notebooks are read at their first page
    (``ALUETTE_PREWARM=0``: a test visits a few of them), the caps are :data:`SOLARA_TEST_CAPS`, and one worker
    process serves them (each worker reads every notebook it serves; several are tested in tests/server/
    test_solara.py)."""
    from aluette.classroom.command import solara_command
    folder = Path(folder).resolve()
    env = {**solara_command(folder=folder, environ=server_env(home), workers=1).env, **SOLARA_TEST_CAPS,
           "ALUETTE_PREWARM": "0"}

    def command(port: int) -> list[str]:
        return solara_command(port=port, folder=folder, environ=env, workers=1).argv
    return Server(name, command, REPO, env, kind="solara")


def lab_command(root: Path, *extra: str):
    """argv builder for JupyterLab on ``root`` with no token, no browser and no calls home. Its kernels talk to it
    over Unix sockets (ZeroMQ's ``ipc``), as Voilà's and nbval's do: over TCP a port jupyter_client found free can be
    taken by another process before the kernel binds it, on a busy machine (a Voilà kernel died of it). The sockets
    are files beside each kernel's connection file, in ``JUPYTER_RUNTIME_DIR``: give the server a short one (a Unix
    socket's path holds at most 107 bytes)."""
    def command(port: int) -> list[str]:
        return [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
                "--KernelManager.transport=ipc",
                f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
                "--ServerApp.password=", "--ServerApp.open_browser=False", f"--ServerApp.root_dir={root}",
                "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                "--LabApp.extension_manager=readonly", "--ServerApp.terminals_enabled=False",
                *(["--allow-root"] if os.geteuid() == 0 else []), *extra]
    return command


# ---------------------------------------------------------------------------------------------------- the wire

def decode_frame(payload: str | bytes) -> dict | None:
    """One websocket frame as a Jupyter message dict (channel, header, parent_header, metadata, content), or
    None if it is not one. Binary frames use the v1 kernel websocket protocol (what Voilà and JupyterLab
    negotiate); text frames the legacy JSON one."""
    try:
        if isinstance(payload, str):
            message = json.loads(payload)
            return message if isinstance(message, dict) and "header" in message else None
        from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1
        channel, parts = deserialize_msg_from_ws_v1(payload)
        header, parent, metadata, content = (json.loads(part) for part in parts[:4])
        return {"channel": channel, "header": header, "parent_header": parent, "metadata": metadata,
                "content": content, "buffers": parts[4:]}
    except (ValueError, IndexError, UnicodeDecodeError):
        return None


def strings_in(value) -> list[str]:
    """Every string (keys and values) inside a decoded JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings_in(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


@dataclass
class Wire:
    """Everything one page received: websocket frames (both directions kept, in order), loaded HTML documents,
    console errors, uncaught page errors, blocked outside requests and the Voilà kernels it opened."""

    frames: list = field(default_factory=list)  # (direction "<" received / ">" sent, url, payload)
    documents: list = field(default_factory=list)  # (url, html text)
    console_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    blocked: list = field(default_factory=list)
    voila_kernels: list = field(default_factory=list)  # (server url, kernel id)
    solara_pages: list = field(default_factory=list)  # (server url, kernel id, page's session id)
    closed_sockets: list = field(default_factory=list)  # urls of the page's websockets that have closed
    server_logs: list = field(default_factory=list)  # (Solara server, its log's size when this page first opened it)
    _decoded: list = field(default_factory=list, repr=False)  # decode_frame(frames[i]), filled lazily

    def attach(self, page):
        def on_websocket(ws):
            solara = SOLARA_SOCKET.match(ws.url)
            if solara:
                self.solara_pages.append(solara.groups())
            ws.on("framereceived", lambda payload: self.frames.append(("<", ws.url, payload)))
            ws.on("framesent", lambda payload: self.frames.append((">", ws.url, payload)))
            ws.on("close", lambda _: self.closed_sockets.append(ws.url))
        page.on("websocket", on_websocket)
        page.on("console", lambda msg: msg.type == "error" and self.console_errors.append(msg.text))
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("requestfailed", lambda request: self._outside(request.url) and self.blocked.append(request.url))

    @staticmethod
    def _outside(url: str) -> bool:
        """Whether a request to ``url`` leaves this machine (what :data:`BLOCK_OUTSIDE_ARGS` stops)."""
        return not LOCAL.match(url) and not url.startswith(("data:", "blob:", "about:", "chrome-error:"))

    def _decode_new_frames(self):
        for direction, _, payload in self.frames[len(self._decoded):]:
            self._decoded.append((direction, decode_frame(payload)))

    def messages(self, direction: str = "<") -> list[dict]:
        """Decoded Jupyter messages received (``"<"``) or sent (``">"``) by the page, in order."""
        self._decode_new_frames()
        return [m for d, m in self._decoded if d == direction and m is not None]

    def strings(self) -> set[str]:
        """Every string the page received inside a kernel message (keys and values of every content, so every
        widget trait value, decoded from JSON), plus each binary buffer decoded leniently. For exact checks,
        e.g. that the card code "3O" is no trait value: ``"3O" not in wire.strings()``."""
        found = set()
        for message in self.messages():
            found.update(strings_in(message["content"]))
            found.update(b.decode("utf-8", "replace") for b in message.get("buffers", []))
        return found

    def js_errors(self, since: "ErrorMark | None" = None) -> list[str]:
        """Uncaught page errors and console errors, except the ones the blocked outside requests cause; with
        ``since`` (an :meth:`error_mark`), only those raised after it."""
        pages, consoles = (since.page_errors, since.console_errors) if since else (0, 0)
        return self.page_errors[pages:] + [e for e in self.console_errors[consoles:]
                                           if not (self.blocked and e == BLOCKED_ERROR)]

    def error_mark(self) -> "ErrorMark":
        """A point in what the page received and raised, for :meth:`kernel_errors` and :meth:`js_errors` ``since``:
        a test that drives one widget of a page other tests use too checks the errors since it began."""
        return ErrorMark(len(self.frames), len(self.page_errors), len(self.console_errors),
                         {server.name: server.log_size() for server, _ in self.server_logs})

    def text(self) -> str:
        """All the page received, as one searchable string: every frame decoded leniently (UTF-8 with
        replacement, binary buffers included), every string value of every decoded message (so JSON escapes
        cannot hide a value) and every HTML document loaded (Voilà puts outputs' text/plain there)."""
        parts = [payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
                 for direction, _, payload in list(self.frames) if direction == "<"]
        parts.extend(sorted(self.strings()))
        parts.extend(html for _, html in self.documents)
        return "\n".join(parts)

    def cards_named(self, since: int = 0) -> frozenset:
        """Every card named anywhere the page received (:func:`aluette.secrecy.cards_named`): in :meth:`text`, and
        in each decoded string on its own (so no neighbouring text can hide a code). A secrecy test intersects it
        with :func:`aluette.secrecy.hidden_cards`. With ``since`` (a :meth:`mark`), only in the frames received
        after it: a new deal's secrets, the cards of an earlier deal being no secret any more."""
        if since:
            return self._cards_named_in_frames(since)
        named = set(cards_named(self.text()))
        for string in self.strings():
            named.update(cards_named(string))
        return frozenset(named)

    def mark(self) -> int:
        """A point in the page's frames, for :meth:`cards_named` ``since``."""
        return len(self.frames)

    def _cards_named_in_frames(self, since: int) -> frozenset:
        self._decode_new_frames()
        named: set = set()
        for (direction, _, payload), (_, message) in zip(self.frames[since:], self._decoded[since:]):
            if direction != "<":
                continue
            named.update(cards_named(payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))
            if message is not None:
                for string in strings_in(message["content"]):
                    named.update(cards_named(string))
                for buffer in message.get("buffers", []):
                    named.update(cards_named(buffer.decode("utf-8", "replace")))
        return frozenset(named)

    def widget_states(self) -> dict[str, dict]:
        """model_id -> the latest state the browser received for it (comm_open, update and update_states)."""
        states: dict[str, dict] = {}
        for message in self.messages():
            kind, content = message["header"].get("msg_type"), message["content"]
            data = content.get("data", {}) if isinstance(content, dict) else {}
            if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
                states.setdefault(content["comm_id"], {}).update(data.get("state", {}))
            elif kind == "comm_msg" and data.get("method") == "update":
                states.setdefault(content["comm_id"], {}).update(data.get("state", {}))
            elif kind == "comm_msg" and data.get("method") == "update_states":
                for model_id, model in data.get("states", {}).items():
                    states.setdefault(model_id, {}).update(model.get("state", {}))
        return states

    def kernel_errors(self, since: "ErrorMark | None" = None) -> list[str]:
        """Tracebacks the kernel published (iopub ``error`` messages, e.g. an exception in a widget callback),
        as plain text. Cell errors at render time are checked by ``open_voila`` on the page instead. On the Solara
        app, whose pages share the server's process and publish no ``error`` message, the tracebacks its log got
        since the page was opened (:func:`open_solara`) count as well: a callback's exception is logged there.
        With ``since`` (an :meth:`error_mark`), only those that came after it."""
        found = []
        self._decode_new_frames()
        received = [m for d, m in self._decoded[since.frames if since else 0:] if d == "<" and m is not None]
        for message in received:
            if message["header"].get("msg_type") == "error":
                content = message["content"]
                text = "\n".join(content.get("traceback", [])) or f"{content.get('ename')}: {content.get('evalue')}"
                found.append(re.sub(r"\x1b\[[0-9;]*m", "", text))
        for server, mark in self.server_logs:
            if since is not None:
                mark = max(mark, since.logs.get(server.name, mark))
            log = server.log_tail(since=mark, limit=10**7)
            found.extend(f"{server.name} log: " + block[:3000] for block in TRACEBACK.findall(log))
        return found

    def wait_settled(self, page, timeout: float = KERNEL_REPLY):
        """Wait until the kernel finished every request the page sent on the shell channel (clicks, typed values:
        each gets an iopub ``status: idle`` whose parent is that request). Fails after ``timeout`` seconds.

        First a round trip through the page's main thread: the request of a click dispatched from input the page
        already had (``page.mouse.click``, the keyup of a Space press) is recorded only after the action returned, so
        it was not waited for (measured on 2026-12-07: 27 of 30 Space presses not yet recorded, none after this)."""
        page.evaluate("() => 0")
        deadline = time.monotonic() + timeout
        while True:
            sent = {m["header"].get("msg_id") for m in self.messages(">") if m["channel"] == "shell"}
            done = {m["parent_header"].get("msg_id") for m in self.messages()
                    if m["header"].get("msg_type") == "status" and m["content"].get("execution_state") == "idle"}
            pending = sent - done
            if not pending:
                return
            if time.monotonic() > deadline:
                pytest.fail(f"the kernel did not finish {len(pending)} request(s) within {timeout} s")
            page.wait_for_timeout(100)  # lets playwright deliver the frames it holds


@dataclass(frozen=True)
class ErrorMark:
    """A point in a :class:`Wire`: how many frames it had received, page and console errors it had seen, and each
    Solara server's log size (:meth:`Wire.error_mark`)."""

    frames: int
    page_errors: int
    console_errors: int
    logs: dict


_WIRES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def wire_of(page) -> Wire:
    """The Wire recording ``page`` (created by the ``page`` fixture)."""
    return _WIRES[page]


def recorded_wire(page) -> "Wire | None":
    """The Wire recording ``page``, or None for a page no fixture records."""
    return _WIRES.get(page)


def register(page, wire: Wire):
    _WIRES[page] = wire


# ---------------------------------------------------------------------------------------------------- pages

# The page is settled when no Voilà cell output still waits to be rendered and no widget says it is loading.
SETTLED_JS = """() => !document.querySelector('script[type="application/vnd.voila.cell-output+json"]')
    && !document.body.innerText.includes('Loading widget')"""

PROBLEMS_JS = """() => {
    const problems = [];
    const text = document.body.innerText;
    for (const needle of ['Error displaying widget', 'Loading widget', 'Traceback (most recent call last)',
                          'There was an error when executing cell', 'Voilà Error']) {
        if (text.includes(needle)) problems.push('page shows "' + needle + '"');
    }
    for (const el of document.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')) {
        problems.push('error/stderr output: ' + el.innerText.slice(0, 2000));
    }
    return problems;
}"""


def voila_url(server: Server, name: str) -> str:
    return f"{server.url}/voila/render/{name}"


def open_voila(page, name: str, server: Server, settle: float = SETTLE):
    """Open notebook ``name`` (path relative to the server's folder) in Voilà and wait until it is usable.

    Fails (pytest.fail, with the problems, the page's text and a screenshot in test-artifacts/failures/) if the
    page answers an HTTP error, if an output is still waiting to render or a widget still shows "Loading widget"
    ``settle`` seconds after the cells ran, or if any error output, stderr output, traceback or "Error displaying
    widget" is on the page. Returns the playwright Response of the page.
    """
    wire = wire_of(page)
    url = voila_url(server, name)
    response = page.goto(url, wait_until="domcontentloaded", timeout=RENDER * 1000)
    html = response.text() if response is not None else ""
    wire.documents.append((url, html))
    if response is None or response.status >= 400:
        _fail_page(page, name, [f"HTTP {response.status if response else 'no response'} for {url}"])
    match = re.search(r'"kernelId":\s*"([0-9a-f-]+)"', html)
    if match:
        wire.voila_kernels.append((server.url, match.group(1)))
    try:
        page.wait_for_selector("#rendered_cells", state="visible", timeout=RENDER * 1000)
    except Exception:  # playwright's TimeoutError; the problems below say why
        _fail_page(page, name, [f"#rendered_cells not visible after {RENDER} s"] + page.evaluate(PROBLEMS_JS))
    try:
        page.wait_for_function(SETTLED_JS, timeout=settle * 1000)
    except Exception:
        problems = page.evaluate(PROBLEMS_JS) or ["widget outputs still waiting to render"]
        _fail_page(page, name, [f"not settled after {settle} s"] + problems)
    problems = page.evaluate(PROBLEMS_JS)
    if problems:
        _fail_page(page, name, problems)
    return response


# A page of the Solara app is drawn when its rendered prose is, and settled when no widget says it is loading.
SOLARA_DRAWN = ".jp-RenderedMarkdown, .aluette-landing"
SOLARA_SETTLED_JS = """() => !document.body.innerText.includes('Loading widget')
    && !document.querySelector('.v-progress-circular, .solara-loading')"""
#: What a cell that raised shows the students on the Solara app (aluette.classroom.lessons.failure_notice).
SOLARA_PROBLEMS_JS = """() => [...document.querySelectorAll('.aluette-cell-error')]
    .map(el => 'a cell failed: ' + el.innerText.slice(0, 300))"""


def solara_url(server: Server, name: str) -> str:
    return f"{server.url}/{Path(name).stem}"


def page_url(server: Server, name: str) -> str:
    """Where ``server`` serves notebook ``name``: ``/voila/render/NAME.ipynb`` on Voilà, ``/STEM`` on the Solara app."""
    return solara_url(server, name) if server.kind == "solara" else voila_url(server, name)


def open_notebook(page, name: str, server: Server, settle: float = SETTLE):
    """:func:`open_solara` or :func:`open_voila`, as ``server`` is the Solara app or Voilà."""
    return (open_solara if server.kind == "solara" else open_voila)(page, name, server=server, settle=settle)


def open_solara(page, name: str, server: Server, settle: float = SETTLE):
    """Open notebook ``name`` on the Solara app and wait until it is usable: its prose drawn, no widget loading and
    every request of the page answered (:meth:`Wire.wait_settled`). Fails as :func:`open_voila` does, and also on a
    cell's error notice on the page or a traceback in the server's log while the page was built. Returns the
    playwright Response of the page."""
    wire = wire_of(page)
    url = solara_url(server, name)
    log_mark = server.log_size()
    if not any(known is server for known, _ in wire.server_logs):
        wire.server_logs.append((server, log_mark))
    response = page.goto(url, wait_until="domcontentloaded", timeout=RENDER * 1000)
    wire.documents.append((url, response.text() if response is not None else ""))
    if response is None or response.status >= 400:
        _fail_page(page, name, [f"HTTP {response.status if response else 'no response'} for {url}"], "Solara")
    try:
        page.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
        page.wait_for_function(SOLARA_SETTLED_JS, timeout=settle * 1000)
        wire.wait_settled(page, timeout=settle)
    except Exception:  # playwright's TimeoutError, pytest's failure of wait_settled; the problems below say why
        _fail_page(page, name, [f"not drawn and settled after {RENDER} s"] + page.evaluate(PROBLEMS_JS), "Solara")
    problems = page.evaluate(PROBLEMS_JS) + page.evaluate(SOLARA_PROBLEMS_JS)
    problems += [f"in the server's log: {block[-600:]}"
                 for block in TRACEBACK.findall(server.log_tail(since=log_mark, limit=10**7))]
    if problems:
        _fail_page(page, name, problems, "Solara")
    return response


def _fail_page(page, name, problems, where="Voilà"):
    path = screenshot(page, "open-" + Path(name).stem, folder=FAILURES)
    body = page.evaluate("() => document.body ? document.body.innerText : ''")
    pytest.fail(f"{name} in {where}: " + "; ".join(problems) + f"\nscreenshot: {path}\n--- page text ---\n"
                + body[:4000], pytrace=False)


def shutdown_voila_kernels(page):
    """Shut down the Voilà kernels this page opened, as the page's beforeunload beacon means to. The beacon
    itself gets 403 because Voilà never sets the _xsrf cookie it sends (voila-dashboards/voila#1458), so this
    sets one (any value is a valid tornado v1 token) and posts it back."""
    wire = wire_of(page)
    if not wire.voila_kernels:
        return
    token = secrets.token_hex(16)
    page.context.add_cookies([{"name": "_xsrf", "value": token, "domain": "127.0.0.1", "path": "/"}])
    for server_url, kernel_id in wire.voila_kernels:
        try:
            page.context.request.post(f"{server_url}/voila/api/shutdown/{kernel_id}", form={"_xsrf": token},
                                      timeout=10_000)
        except Exception:
            pass  # the server may already be gone; it shuts its kernels down when it stops


def close_solara_pages(page):
    """Close the Solara app's pages this page opened, as the page's beforeunload beacon does (Solara's close
    request): their virtual kernels are freed at once rather than culled a minute later."""
    for server, kernel_id, session_id in wire_of(page).solara_pages:
        try:
            page.context.request.post(f"http{server}/_solara/api/close/{kernel_id}?session_id={session_id}",
                                      timeout=10_000)
        except Exception:
            pass  # the server may already be gone


# Height the window needs to show all of Voilà's #rendered_cells, which scrolls inside a window-high panel (so a
# plain full-page screenshot stops at the window's bottom); 0 on other pages.
_NOTEBOOK_HEIGHT_JS = """() => {
    const cells = document.querySelector('#rendered_cells');
    return cells ? Math.ceil(cells.getBoundingClientRect().top + window.scrollY + cells.scrollHeight) : 0;
}"""
_NOTEBOOK_FITS_JS = """() => {
    const cells = document.querySelector('#rendered_cells');
    const room = window.innerHeight - cells.getBoundingClientRect().top;
    return cells.clientHeight >= Math.min(cells.scrollHeight, room) - 20;
}"""
MAX_SCREENSHOT_HEIGHT = 16_000  # Chromium's limit for one picture is about 16384 pixels


def pictures_wanted() -> bool:
    """Whether this run saves the tests' pictures of pages (``ALUETTE_SCREENSHOTS=1``, or ``ALUETTE_UPDATE_DOC_IMAGES=1``
    for the README's): off by default, since a picture of a whole page costs the browser a full render of it (half
    a hundred per run), which ``make test`` does not need. A failing test's picture is always saved."""
    return "1" in (os.environ.get("ALUETTE_SCREENSHOTS"), os.environ.get("ALUETTE_UPDATE_DOC_IMAGES"))


def screenshot(page, name: str, folder: Path = SCREENSHOTS, element=None, *, always: bool = False) -> Path | None:
    """Save ``test-artifacts/screenshots/NAME.png`` (or in ``folder``) and return its path: ``element`` (a playwright
    locator) alone, scrolled into view, or else the whole page. For the whole of a Voilà notebook, whose cells
    scroll inside the window, the window is made as tall as the cells for the picture, then restored. Into
    ``SCREENSHOTS`` only when :func:`pictures_wanted` or ``always`` (else nothing is saved and ``None`` returned);
    into any other folder (``FAILURES``) always."""
    if folder == SCREENSHOTS and not (always or pictures_wanted()):
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png"
    if element is not None:
        element.screenshot(path=str(path))
        return path
    size = page.viewport_size
    height = min(page.evaluate(_NOTEBOOK_HEIGHT_JS), MAX_SCREENSHOT_HEIGHT)
    if not size or height <= size["height"]:
        page.screenshot(path=str(path), full_page=True)
        return path
    page.set_viewport_size({"width": size["width"], "height": height})
    try:
        page.wait_for_function(_NOTEBOOK_FITS_JS, timeout=SETTLE * 1000)  # the panel follows the window
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(size)
    return path


# ---------------------------------------------------------------------------------------------------- kernel probe

# Opens its own websocket to a kernel (legacy JSON protocol), sends kernel_info_request, execute_request,
# kernel_info_request and waits for the second kernel_info_reply: the kernel handles shell requests in order,
# so by then an executed request would have answered. Returns the msg_types received per request.
PROBE_JS = """async ({wsUrl, code, timeoutMs}) => {
    const ws = new WebSocket(wsUrl);
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = () => reject(new Error('ws error')); });
    const received = [];
    let done;
    const finished = new Promise(resolve => { done = resolve; });
    const send = (msg_type, content) => {
        const msg_id = msg_type + '-' + Math.random().toString(16).slice(2);
        ws.send(JSON.stringify({header: {msg_id, msg_type, username: 'probe', session: 'probe-session',
            date: new Date().toISOString(), version: '5.3'}, parent_header: {}, metadata: {}, content,
            channel: 'shell', buffers: []}));
        return msg_id;
    };
    let lastInfo = null;
    let closing = false, closedByServer = false;
    ws.onclose = () => { if (!closing) closedByServer = true; };
    ws.onmessage = (event) => {
        const msg = JSON.parse(event.data);
        received.push({parent: msg.parent_header && msg.parent_header.msg_id, msg_type: msg.header.msg_type,
                       channel: msg.channel});
        if (msg.header.msg_type === 'kernel_info_reply' && msg.parent_header.msg_id === lastInfo) done();
    };
    const first = send('kernel_info_request', {});
    const exec = send('execute_request', {code, silent: false, store_history: false, user_expressions: {},
                                          allow_stdin: false, stop_on_error: true});
    lastInfo = send('kernel_info_request', {});
    const timer = new Promise(resolve => setTimeout(() => resolve('timeout'), timeoutMs));
    const outcome = await Promise.race([finished.then(() => 'answered'), timer]);
    closing = true;
    ws.close();
    const about = (id) => received.filter(m => m.parent === id).map(m => m.msg_type);
    return {outcome, first: about(first), exec: about(exec), last: about(lastInfo), closedByServer};
}"""


def probe_execute(page, ws_url: str, code: str, timeout: float = KERNEL_REPLY) -> dict:
    """From inside ``page``, send ``code`` as an execute_request to the kernel websocket ``ws_url``, bracketed
    by two kernel_info_requests. Returns {"outcome": "answered"|"timeout", "first"/"exec"/"last": [msg_types
    of the messages whose parent is that request], "closedByServer": whether the server closed the socket}."""
    return page.evaluate(PROBE_JS, {"wsUrl": ws_url, "code": code, "timeoutMs": int(timeout * 1000)})


def doc_image(target, name: str) -> Path | None:
    """Save a README picture of ``target`` (a page or a locator) as ``test-artifacts/screenshots/NAME`` and return
    that path, when :func:`pictures_wanted` (else ``None``); with ``ALUETTE_UPDATE_DOC_IMAGES=1`` copy it over
    ``docs/images/NAME`` as well."""
    if not pictures_wanted():
        return None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    target.screenshot(path=str(path))
    if os.environ.get("ALUETTE_UPDATE_DOC_IMAGES") == "1":
        (DOC_IMAGES / name).write_bytes(path.read_bytes())
    return path
