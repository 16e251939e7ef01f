"""An SQLite file another program holds locked (issue 22, held in part: "a SQLite file locked by another process
freezes each poll 10 s and a click 20 s before an error"): the store waits a short busy timeout
(:data:`aluette.store.db.SQLITE_BUSY_TIMEOUT`), then says so in the project's error family, the class's tables are
busy, try again, with nothing changed; a page shows that message and takes the move once the lock is gone.

The other program is a Python process holding SQLite's locks on the file, as the ``sqlite3`` shell does inside a
transaction: ``BEGIN EXCLUSIVE`` and a write (every writer waits), or ``locking_mode=EXCLUSIVE`` taken before our
store opens the file (every reader waits too).
"""

from __future__ import annotations

import html
import subprocess
import sys
import textwrap
import time

import pytest

from aluette.errors import BadDatabaseError, StoreError
from aluette.store import TableService
from aluette.store.db import BUSY_TIMEOUT, SQLITE_BUSY_TIMEOUT, SQLiteStore
from aluette.together import SeatController
from aluette.widgets.together import PlayTogether

#: The old wait (BUSY_TIMEOUT, PostgreSQL's lock wait) that froze a page: the short one must end well before it.
FROZEN = BUSY_TIMEOUT


class Holder:
    """Another program holding the SQLite file at ``path`` locked until :meth:`release`."""

    def __init__(self, path, exclusive_mode: bool = False):
        mode = "c.execute('PRAGMA locking_mode = EXCLUSIVE')" if exclusive_mode else "pass"
        code = textwrap.dedent(f"""
            import sqlite3, sys
            c = sqlite3.connect({str(path)!r}, isolation_level=None, timeout=30)
            {mode}
            c.execute('BEGIN EXCLUSIVE')
            c.execute("INSERT OR REPLACE INTO aluette_meta (key, value) VALUES ('held-by', 'another program')")
            print('locked', flush=True)
            sys.stdin.read()
            c.execute('ROLLBACK')
            """)
        self.process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line.strip() == "locked", self.process.stderr.read()

    def release(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)


@pytest.fixture
def path(tmp_path):
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def held(path):
    made = []

    def hold(exclusive_mode: bool = False) -> Holder:
        made.append(Holder(path, exclusive_mode))
        return made[-1]
    yield hold
    for holder in made:
        holder.release()


def busy(error: BaseException) -> bool:
    text = str(error)
    return "the class's tables are busy" in text and "try again" in text and "tables.sqlite3" in text


def test_the_busy_timeout_is_short(path):
    store = SQLiteStore(path)
    try:
        with store.read() as tx:
            assert tx.one("PRAGMA busy_timeout")[0] == int(SQLITE_BUSY_TIMEOUT * 1000)
    finally:
        store.close()
    assert SQLITE_BUSY_TIMEOUT <= FROZEN / 4


def test_a_move_on_a_locked_file_is_refused_clearly_and_leaves_the_table_as_it_was(path, held):
    service = TableService(SQLiteStore(path))
    try:
        service.create_table("blue")
        service.take_seat("blue", "N", "Ann")
        before = service.table_info("blue")
        holder = held()
        start = time.monotonic()
        with pytest.raises(StoreError) as refused:
            service.take_seat("blue", "E", "Bea")
        waited = time.monotonic() - start
        assert busy(refused.value), refused.value
        assert waited < FROZEN, f"the page froze {waited:.1f} s"
        assert service.table_info("blue") == before  # readers go on (WAL); nothing was written
        holder.release()
        service.take_seat("blue", "E", "Bea")  # the same move, once the lock is gone
        assert service.table_info("blue").seats["E"].player == "Bea"
    finally:
        service.close()


def test_a_file_locked_before_it_is_opened_is_busy_not_damaged(path, held):
    TableService(SQLiteStore(path)).close()  # a class's file, then another program takes it whole
    holder = held(exclusive_mode=True)
    with pytest.raises(StoreError) as refused:
        SQLiteStore(path)
    assert not isinstance(refused.value, BadDatabaseError) and busy(refused.value), refused.value
    holder.release()
    SQLiteStore(path).close()  # the same file opens once the lock is gone: it was never damaged


def test_the_page_says_the_tables_are_busy_and_takes_the_seat_afterwards(path, held):
    page = PlayTogether(SeatController(TableService(SQLiteStore(path))), poll=False)
    try:
        page.table_box.value = "red"
        page.open_button.click()
        holder = held()
        page.name_box.value = "Cat"
        page.seat_buttons["S"].click()  # a widget callback: no traceback, the message on the page
        assert busy(html.unescape(page.message.value)) and page.controller.seat is None, page.message.value
        holder.release()
        page.seat_buttons["S"].click()
        assert str(page.controller.seat) == "S", page.message.value
    finally:
        page.close()
        page.controller.service.close()
