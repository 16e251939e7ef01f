"""Fixtures for the real-browser tests (see harness.py for the helpers a test imports).

- ``cached_profile``: Debian's /usr/bin/chromium launched once per session by playwright with a browser profile of
  its own (skip with a clear message on a user's machine without it or without the playwright package, fail when
  the ``CI`` variable is set); ``browser``, the same chromium, for browser contexts of their own.
- ``voila_server(folder)``: session-wide factory, one Voilà per folder, started on a free 127.0.0.1 port and
  stopped at the end; ``voila`` serves notebooks/, ``voila_fixtures`` serves tests/browser/fixtures/.
- ``open_voila(page, "NAME.ipynb")``: opens a notebook of notebooks/ and waits until its widgets are rendered.
- ``solara``: the students' app (``make app``, Solara's server) serving notebooks/, session-wide; ``open_app(page,
  "NAME.ipynb")`` opens a notebook there, or on ``voila`` for the teacher's notebooks (``make teacher`` is Voilà).
- ``lab``: JupyterLab on a temporary copy of notebooks/ and the fixtures (so running cells never touches the
  committed files), as ``lab.url``, with ``lab.root`` the copy.
- ``page``: a new tab per test, alone in this worker's browser profile, which keeps only the browser's cache
  from one test to the next (:class:`CachedProfile`); ``wire``: what it received; ``pages(n)``: ``n`` more, each
  in a browser context of its own (several devices at one table). Outside requests fail (``BLOCK_OUTSIDE_ARGS``).
On a failing test the report gets a screenshot path, the page's console errors, kernel errors and the log of
every server written during the test (logs are in test-artifacts/logs/).
"""

from __future__ import annotations

import contextlib
import functools
import re
import tempfile
import shutil
from pathlib import Path

import pytest

from tests.browser import harness
from aluette.classroom import TEACHER_NOTEBOOKS
from tests.browser.harness import (BLOCK_OUTSIDE_ARGS, CHROMIUM_ARGS, FIXTURES, NOTEBOOKS, Server, Wire, lab_command,
                                   server_env, unavailable, voila_command)

# The fixture notebooks are opened by the browser tests, not run by nbval (one of them fails on purpose).
collect_ignore_glob = ["fixtures/*", "vendor/*"]

_SERVERS: list[Server] = []
_LOG_MARKS = pytest.StashKey[dict]()


@pytest.fixture(scope="session")
def sync_playwright_module():
    """The playwright sync API, or a skip/fail naming what to install."""
    try:
        from playwright import sync_api
    except ImportError:
        unavailable("the playwright Python package is missing: .venv/bin/pip install -e '.[test]' "
                    "(then use Debian's chromium; never let playwright download a browser)")
    return sync_api


@pytest.fixture(scope="session")
def chromium_path(sync_playwright_module) -> Path:
    return harness.find_chromium()


@pytest.fixture(scope="session")
def cached_profile(sync_playwright_module, chromium_path, tmp_path_factory) -> "CachedProfile":
    """This worker's chromium, launched once with a browser profile of its own on disk (in a temporary folder):
    the ``page`` of every test is a new tab of that profile, which keeps the browser's cache from test to test
    and nothing else (:class:`CachedProfile`)."""
    sync_playwright_module.expect.set_options(timeout=30_000)  # a click's answer may wait for a busy kernel
    shutil.rmtree(harness.FAILURES, ignore_errors=True)  # failure screenshots are of this run only
    with sync_playwright_module.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(chromium_path),
            args=CHROMIUM_ARGS + BLOCK_OUTSIDE_ARGS, viewport=VIEWPORT)
        yield CachedProfile(context)
        context.close()


@pytest.fixture(scope="session")
def browser(cached_profile):
    """The chromium of ``cached_profile``, for pages in browser contexts of their own (``pages``, ``module_page``):
    each such context is a device of its own, sharing nothing with another, not even the cache."""
    return cached_profile.context.browser


@pytest.fixture(autouse=True)
def default_card_pictures():
    """The tests name a card as its page says it (``card_words``: the default Spanish-suited pictures of a new page),
    which reads this process's setting: whatever a test run before in this worker left there, it is the default."""
    from aluette.widgets import common
    common.CARD_DECK.deck = "spanish"


@pytest.fixture(scope="session")
def _server_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("jupyter-home")


@pytest.fixture(scope="session")
def voila_server(_server_home):
    """Factory: ``voila_server(folder, *extra_args, cwd=...)`` returns a running Voilà serving ``folder`` (one per
    folder, arguments and cwd for the whole session), stopped when the session ends. It runs from an empty
    directory, without the classroom's configuration (aluette/classroom/voila/, which only ``python -m
    aluette.classroom`` adds to Voilà's configuration path)."""
    harness.require_module("voila", "lab")
    started: dict[tuple, Server] = {}
    workdir = _server_home / "voila-cwd"
    workdir.mkdir(exist_ok=True)

    def get(folder: Path, *extra: str, cwd: Path = workdir) -> Server:
        key = (Path(folder).resolve(), extra, Path(cwd))
        if key not in started:
            name = f"voila-{Path(folder).name}-{len(started)}"
            server = Server(name, voila_command(Path(folder).resolve(), *extra), cwd, server_env(_server_home))
            _SERVERS.append(server)
            started[key] = server.start()
        return started[key]

    yield get
    for server in started.values():
        server.stop()


@pytest.fixture(scope="session")
def voila(voila_server) -> Server:
    """Voilà serving notebooks/ (what `make app` serves)."""
    return voila_server(NOTEBOOKS)


@pytest.fixture(scope="session")
def voila_fixtures(voila_server) -> Server:
    """Voilà serving tests/browser/fixtures/."""
    return voila_server(FIXTURES)


@pytest.fixture
def open_voila(voila):
    """``open_voila(page, "NAME.ipynb")``: open a notebook of notebooks/ in Voilà (see harness.open_voila)."""
    return functools.partial(_open, server=voila)


@pytest.fixture
def open_fixture(voila_fixtures):
    """``open_fixture(page, "NAME.ipynb")``: open a fixture notebook in Voilà."""
    return functools.partial(_open, server=voila_fixtures)


def _open(page, name, server, **kwargs):
    return harness.open_voila(page, name, server=server, **kwargs)


@pytest.fixture(scope="session")
def solara(_server_home) -> Server:
    """`make app`: the students' app on Solara's server serving notebooks/, for the whole session (see
    harness.make_app_server)."""
    harness.require_module("solara", "lab")
    server = harness.make_app_server(_server_home)
    _SERVERS.append(server)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def solara_fixtures(_server_home) -> Server:
    """The Solara app serving tests/browser/fixtures/ (the harness proves its Solara checks there)."""
    harness.require_module("solara", "lab")
    server = harness.solara_server("solara-fixtures", FIXTURES, _server_home)
    _SERVERS.append(server)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def open_app(request):
    """``open_app(page, "NAME.ipynb")``: open a notebook as a class gets it: a student's on the Solara app
    (``solara``), the teacher's (07, 11) on Voilà (``voila``), as ``make teacher`` serves them."""
    def open_(page, name, **kwargs):
        server = request.getfixturevalue("voila" if name in TEACHER_NOTEBOOKS else "solara")
        return harness.open_notebook(page, name, server=server, **kwargs)
    return open_


@pytest.fixture(scope="session")
def lab(_server_home, tmp_path_factory) -> Server:
    """JupyterLab on a temporary copy holding notebooks/ and fixtures/ (``lab.root``)."""
    harness.require_module("jupyterlab", "lab")
    root = tmp_path_factory.mktemp("lab-root")
    shutil.copytree(NOTEBOOKS, root / "notebooks")
    shutil.copytree(FIXTURES, root / "fixtures")
    env = server_env(_server_home)
    # the kernels' Unix sockets (lab_command) in a short folder: a path under pytest's temporary folders can pass
    # the 107 bytes a socket's path may hold
    env["JUPYTER_RUNTIME_DIR"] = runtime = tempfile.mkdtemp(prefix="aluette-lab-", dir="/tmp")
    # No "Would you like to get notified about official Jupyter news?" toast over the notebook.
    settings = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    server = Server("jupyterlab", lab_command(root), root, env, ready="/api/status")
    server.root = root
    _SERVERS.append(server)
    server.start()
    yield server
    server.stop()
    shutil.rmtree(runtime, ignore_errors=True)


VIEWPORT = {"width": 1280, "height": 900}


class CachedProfile:
    """A browser profile whose tabs open one after the other, each test's ``page`` in a new one: what a page costs
    the browser to open is mostly compiling the scripts of Voilà, Solara and JupyterLab (megabytes), and Chromium
    keeps their compiled code in the cache of a profile on disk only, never in a context of its own (incognito).
    A page opened again then costs the browser half what it did (measured on 2026-12-07: 1.0 s of processor
    time against 2.2 s for 08 on the Solara app, 1.2 s against 2.0 s for 01 on Voilà).

    Nothing the pages stored goes from one test to the next: :meth:`clear` closes every tab, and deletes the
    cookies, the permissions and all that the pages stored (local storage, IndexedDB, service workers...) for every
    address they asked for. What stays is the cache of what the servers sent (each server says what may be kept:
    Voilà's page of a notebook, for one, is sent with no-store) and the history of addresses visited, as in a
    browser that a student reopens."""

    def __init__(self, context):
        self.context = context
        context.set_default_timeout(45_000)
        self.origins: set[str] = set()
        self.dirty = False  # a clear() failed: the next new_page() clears again first
        self._spare = None  # the blank tab clear() leaves, which the next new_page() hands out
        context.on("request", self._note)

    def _note(self, request):
        match = ORIGIN.match(request.url)
        if match:
            self.origins.add("http" + match.group(1) + match.group(2))

    def new_page(self):
        """A new tab, recorded by a :class:`Wire` (``wire_of``), alone in the profile: a tab left open, or a
        :meth:`clear` that failed, is cleared first (and that failing again fails the test that asks)."""
        if self.dirty or self.context.pages != [self._spare]:
            self.clear()
        page, self._spare = self._spare, None
        _record(page)
        return page

    @contextlib.contextmanager
    def tab(self):
        """A new tab (:meth:`new_page`) for the ``with`` block; after it, the Voilà kernels and Solara pages the tab
        opened are shut down (with its own requests, so also when the test closed it) and the profile cleared."""
        page = self.new_page()
        try:
            yield page
        finally:
            try:
                shut_down(page)
            finally:
                self.clear()

    def clear(self):
        """Close every tab (the test's and those opened from it) first, so that none can store anything after,
        then delete the cookies, the permissions and all that the pages stored, from a new blank tab that the next
        :meth:`new_page` hands out. Each step is tried even when one before it failed; the first failure is raised
        after all of them."""
        errors = []

        def attempt(step, *args):
            try:
                step(*args)
            except Exception as error:  # a crashed tab, a closed connection: the other steps still run
                errors.append(error)

        for page in self.context.pages:
            attempt(page.close)
        self._spare = None
        try:
            self._spare = self.context.new_page()  # a blank tab, to send the browser what to delete
            session = self.context.new_cdp_session(self._spare)
            for origin in sorted(self.origins):
                attempt(session.send, "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            session.detach()
        except Exception as error:
            errors.append(error)
        attempt(self.context.clear_cookies)
        attempt(self.context.clear_permissions)
        self.dirty = bool(errors)
        if errors:
            raise errors[0]
        self.origins.clear()


#: A request's origin on this machine, as "http" + "s"? + "://127.0.0.1:PORT" (a websocket's is its page's).
ORIGIN = re.compile(r"^(?:http|ws)(s?)(://127\.0\.0\.1(?::\d+)?)(?:/|$)")


def _record(page):
    wire = Wire()
    wire.attach(page)
    harness.register(page, wire)


def _new_page(browser):
    """A new browser context and page (a device of its own); requests outside 127.0.0.1 fail
    (``BLOCK_OUTSIDE_ARGS``) and are listed in ``wire.blocked``."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(45_000)
    page = context.new_page()
    _record(page)
    return page


def shut_down(page):
    """Shut down the Voilà kernels and close the Solara pages ``page`` opened (their servers free them at once)."""
    harness.shutdown_voila_kernels(page)
    harness.close_solara_pages(page)


def _close_page(page):
    shut_down(page)
    page.context.close()


@pytest.fixture
def page(cached_profile, request):
    """A new tab of this worker's browser profile for this test, alone in it (:class:`CachedProfile`: the cache
    kept, nothing else). Voilà kernels and Solara pages it opened are shut down afterwards, and every tab of the
    profile closed."""
    with cached_profile.tab() as page:
        yield page


@pytest.fixture(scope="module")
def module_page(browser):
    """One page for all the tests of a module, for a notebook that is costly to open (09 runs ~8 s of simulations
    per page). Its tests run in file order, each leaving the page as the next one expects: the module says how.
    Closed, with its kernels, after the module's last test."""
    page = _new_page(browser)
    yield page
    _close_page(page)


@pytest.fixture
def pages(browser):
    """``pages(n)``: ``n`` more pages, each in a browser context of its own (one device each), as ``page``; their
    kernels are shut down and their contexts closed after the test."""
    made = []

    def make(n: int) -> list:
        new = [_new_page(browser) for _ in range(n)]
        made.extend(new)
        return new
    make.made = made  # for a failure's report (screenshots of every page)
    yield make
    for page in made:
        _close_page(page)


@pytest.fixture
def wire(page) -> Wire:
    """What ``page`` received (websocket frames, documents, console errors...): see harness.Wire."""
    return harness.wire_of(page)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "setup":
        item.stash[_LOG_MARKS] = {server.name: server.log_size() for server in _SERVERS}
    if report.when != "call" or not report.failed:
        return
    shown = [item.funcargs.get("page") or item.funcargs.get("module_page")
             or getattr(item.funcargs.get("notebook"), "page", None)  # test_pages.py's page of a notebook
             or getattr(item.funcargs.get("shared_page"), "last", None)]  # test_notebooks.py's shared pages
    shown += getattr(item.funcargs.get("pages"), "made", [])  # several devices: each one's picture
    for number, page in enumerate(p for p in shown if p is not None):
        _report_page(report, item, page, number)
    marks = item.stash.get(_LOG_MARKS, {})
    for server in _SERVERS:
        text = server.log_tail(since=marks.get(server.name, 0))
        if text.strip():
            report.sections.append((f"{server.name} log ({server.log_path})", text))


def _report_page(report, item, page, number: int) -> None:
    """A failing test's page in its report: a screenshot (test-artifacts/failures/), and what the page's wire saw
    go wrong; ``number`` tells apart the pages of a test that opened several."""
    title = "browser" if number == 0 else f"browser, page {number + 1}"
    try:
        path = harness.screenshot(page, item.nodeid + (f"-{number + 1}" if number else ""), folder=harness.FAILURES)
        report.sections.append((title, f"screenshot at failure: {path}"))
    except Exception as error:  # the page may be closed or crashed
        report.sections.append((title, f"no screenshot: {error}"))
    try:
        wire = harness.wire_of(page)
    except KeyError:  # a page the fixtures did not make
        return
    details = [("console errors", wire.console_errors), ("page errors", wire.page_errors),
               ("kernel errors", wire.kernel_errors()), ("blocked outside requests", wire.blocked)]
    report.sections.append((title, "\n".join(f"{name}: {items}" for name, items in details)))
