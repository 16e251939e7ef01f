"""Widget tests fail on any error a callback only logs.

ipywidgets' ``CallbackDispatcher`` (behind ``Button.on_click`` and ``on_submit``) catches an exception raised in a
callback and, outside IPython, only logs it at WARNING on the ``traitlets`` logger; a test clicking that button would
stay green. As python-chess's test suite does with its ``RaiseLogHandler``, a handler on the ``traitlets`` logger
raises on any record that carries an exception or is at ERROR or above, and a handler on the root logger does the
same for ERROR records of any other logger (asyncio's "Task exception was never retrieved", for instance). The raise
reaches the test through ``button.click()``; a record whose raise something swallowed still fails the test at
teardown (quality bar: "a widget callback that raises must fail a test").
"""

from __future__ import annotations

import logging

import pytest

__all__ = ["LoggedCallbackError", "RaiseLogHandler", "raise_logged_errors"]


class LoggedCallbackError(AssertionError):
    """A widget callback raised, and ipywidgets or another library only logged it."""


class RaiseLogHandler(logging.Handler):
    """Raises :class:`LoggedCallbackError` for each record it accepts, and keeps the records.

    ``any_exception``: accept any record carrying ``exc_info`` (the dispatcher logs callback errors at WARNING);
    records at ``level`` or above are accepted in every case."""

    def __init__(self, level: int = logging.ERROR, any_exception: bool = False):
        super().__init__(logging.NOTSET)
        self.threshold, self.any_exception = level, any_exception
        self.records: list[logging.LogRecord] = []

    def accepts(self, record: logging.LogRecord) -> bool:
        return record.levelno >= self.threshold or (self.any_exception and bool(record.exc_info))

    def handle(self, record: logging.LogRecord) -> bool:
        if not self.accepts(record):
            return False
        self.records.append(record)
        raise LoggedCallbackError(f"logged by {record.name}: {record.getMessage()}\n"
                                  f"{logging.Formatter().formatException(record.exc_info) if record.exc_info else ''}")

    def emit(self, record: logging.LogRecord) -> None:  # handle() does the work; emit is never reached
        raise NotImplementedError


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember whether the test itself failed: its logged error is then not reported a second time."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.aluette_call_failed = report.failed


@pytest.fixture(autouse=True)
def raise_logged_errors(request):
    """Every widget test runs with the raising handlers installed; yields the two handlers (traitlets, root)."""
    traitlets_log = logging.getLogger("traitlets")
    root = logging.getLogger()
    on_traitlets = RaiseLogHandler(logging.ERROR, any_exception=True)
    on_root = RaiseLogHandler(logging.ERROR)
    traitlets_log.addHandler(on_traitlets)
    root.addHandler(on_root)
    try:
        yield on_traitlets, on_root
    finally:
        traitlets_log.removeHandler(on_traitlets)
        root.removeHandler(on_root)
    logged = [*on_traitlets.records, *(r for r in on_root.records if r not in on_traitlets.records)]
    # a raise that something caught on its way up still fails the test
    if logged and not getattr(request.node, "aluette_call_failed", False):
        pytest.fail("errors were logged during the test: " + "; ".join(r.getMessage() for r in logged),
                    pytrace=False)


@pytest.fixture(autouse=True)
def page_settings_as_found():
    """A test that changes the kernel's card size or pictures (a control it clicks, or sets at random) leaves them as
    it found them: the next test in this worker, whichever file it comes from, starts from the defaults."""
    from aluette.widgets import common
    size, deck = common.CARD_SIZE.size, common.CARD_DECK.deck
    yield
    common.CARD_SIZE.size, common.CARD_DECK.deck = size, deck
