"""One watcher per process per shared table: it learns of the table's changes from the database, drives the
table's bots once, and wakes the pages of this process that show the table.

Pages used to poll the database ten times a second each (thirty pages, thirty pollers). Now a page subscribes
(:func:`watch`) with a ``wake(change)`` function, and the process's :class:`TableWatcher` of that table (a thread,
started with the table's first subscriber, stopped with its last) is the only reader:

* **PostgreSQL**: it LISTENs (its own connection) for the NOTIFY that every write to the table sends when it commits
  (:meth:`~aluette.store.db.Store.notify`), and reads the table only then;
* **SQLite**: it reads ``PRAGMA data_version`` on its own connection, a number that changes when another connection
  (of any process) committed (SQLite's documentation, "PRAGMA data_version"), and reads the table only then; it
  looks when Linux's inotify says the file's write-ahead log was written (a commit writes it), and at least every
  :data:`_SQLITE_WAIT` seconds; without inotify, every :data:`SQLITE_INTERVAL` seconds.

Each change read is handed to every subscriber as a :class:`TableChange` (the log's last number; whether the seats
or the table's state changed), through the ``wake`` it gave, which must not block: a page's ``wake`` schedules its
refresh in its own page (its kernel's event loop, or its server's page runner), where widgets may change. Then the
watcher makes the bots' steps that are due (:meth:`~aluette.store.service.TableService.step_bots`, one policy:
:func:`aluette.players.drivers.next_bot_step`), once for the process however many pages show the table, and wakes the
pages again with what they wrote. Pages of other processes (the workers of a server, other kernels) learn of it
through the database, by their own process's watcher.

Every :data:`HEARTBEAT` seconds the watcher also marks the seats of its pages as seen (one write for the table,
not one per page: the teacher sees who is connected, and a seat held by an open page is never idle) and reads the
seats again, since "connected" changes with time alone.
"""

from __future__ import annotations

import ctypes
import logging
import os
import select
import struct
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple, Optional

from ..errors import AluetteError, StoreError
from ..seats import Seat
from .db import Store
from .service import CONNECTED_WITHIN, TableService

__all__ = ["TableChange", "TableWatcher", "watch", "watchers", "SQLITE_INTERVAL", "HEARTBEAT"]

log = logging.getLogger(__name__)

#: Seconds between two reads of SQLite's ``PRAGMA data_version`` (a read of shared memory, no query of a table).
SQLITE_INTERVAL = 0.03
#: Seconds between two heartbeats: the pages' seats marked seen, the seats read again (well under
#: :data:`~aluette.store.service.CONNECTED_WITHIN`).
HEARTBEAT = CONNECTED_WITHIN / 3
#: PostgreSQL: the longest wait for a NOTIFY before the watcher looks whether it must stop.
_PG_WAIT = 2.0
#: SQLite with inotify: the longest wait for the write-ahead log to be written before the change counter is read
#: anyway (what a missed event would cost at most).
_SQLITE_WAIT = 0.5


class TableChange(NamedTuple):
    """What a watcher read: ``seq`` the number of the table's last log entry; ``seats`` the seats or the table's
    state (host, closed) changed, or who is connected."""

    seq: int
    seats: bool


@dataclass(eq=False)
class _Subscriber:
    wake: Callable[[TableChange], None]
    seat: Callable[[], Optional[Seat]]


class TableWatcher:
    """The watcher of table ``table_id`` in this process (see the module); made by :func:`watch`.

    Args:
        service: a :class:`TableService` of the watcher's own (its own connection), closed with it.
        table_id: the table's number. name: its name (for the service's calls).
    """

    def __init__(self, service: TableService, table_id: int, name: str, *, interval: float = SQLITE_INTERVAL,
                 heartbeat: float = HEARTBEAT):
        self.service, self.table_id, self.name = service, table_id, name
        self.interval, self.heartbeat = interval, heartbeat
        self._subscribers: list[_Subscriber] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.errors: list[str] = []  # what went wrong in the thread (a bug, or the database), kept for tests
        self.reads = 0  # the table's reads (one per change seen, and per heartbeat)
        self.bot_steps = 0  # calls of step_bots that wrote
        self.beats = 0  # heartbeats
        self._last: Optional[tuple] = None
        self.thread = threading.Thread(target=self._run, name=f"aluette-watch-{table_id}", daemon=True)

    # ------------------------------------------------------------------ subscribers
    def add(self, subscriber: _Subscriber) -> None:
        """Subscribe; told at once what the watcher last read (from this thread), if it read already."""
        with self._lock:
            self._subscribers.append(subscriber)
            last = self._last
        if last is not None:
            subscriber.wake(TableChange(last[0], True))

    def remove(self, subscriber: _Subscriber) -> bool:
        """Unsubscribe; ``True`` when it was the last (the watcher then stops)."""
        with self._lock:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)
            last = not self._subscribers
        if last:
            self._stop.set()
        return last

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subscribers)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def stop(self, timeout: Optional[float] = None) -> None:
        """Stop the thread (and wait for it at most ``timeout`` seconds)."""
        self._stop.set()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout)

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        store = self.service.store
        events = None
        try:
            store.listen()  # PostgreSQL: before the first read, so that no change falls between the two
            if store.backend == "sqlite":
                events = _WalEvents.open(Path(store.path))
            version = store.change_counter()
            self._read_and_wake(force=True)
            beat = time.monotonic() + self.heartbeat
            while not self._stop.is_set():
                changed = False
                try:
                    left = max(beat - time.monotonic(), 0.0)
                    if store.backend == "postgresql":
                        changed = store.pause(min(_PG_WAIT, left), 0.0, self.table_id)
                    else:
                        if events is not None:
                            written = events.wait(min(_SQLITE_WAIT, left))
                        elif self._stop.wait(self.interval):
                            break
                        now_version = store.change_counter()
                        if events is not None and written and now_version == version:
                            # the WAL is written before the commit shows in its index: look again a moment later
                            time.sleep(0.005)
                            now_version = store.change_counter()
                        changed, version = now_version != version, now_version
                    if self._stop.is_set():
                        break
                    if time.monotonic() >= beat:
                        beat = time.monotonic() + self.heartbeat
                        self.beats += 1
                        self._touch()
                        changed = True
                    if changed:
                        self._read_and_wake()
                except StoreError as error:  # the database failed for a moment (a restarted server): try again
                    self.errors.append(f"{type(error).__name__}: {error}")
                    log.warning("the watcher of table %s: %s", self.name, error)
                    if self._stop.wait(1.0):
                        break
        except BaseException:  # a bug: said, and the pages read by themselves from now on
            self.errors.append(traceback.format_exc())
            log.exception("the watcher of table %s stopped", self.name)
            self._stop.set()
            self._wake_all(None)
        finally:
            if events is not None:
                events.close()
            self.service.close()

    def _read(self) -> tuple:
        """``(seq, seats)``: the log's number and the public state of the seats, as the pages would show it."""
        self.reads += 1
        store, now = self.service.store, self.service._clock()
        with store.read() as tx:
            row = tx.one("SELECT last_seq, host_seat, closed_at FROM aluette_tables WHERE id = ?", (self.table_id,))
            seats = tx.rows("SELECT seat, kind, player, last_seen, code_hash IS NOT NULL FROM aluette_seats WHERE "
                            "table_id = ? ORDER BY seat", (self.table_id,))
        if row is None:
            return (0, None)
        public = tuple((seat, kind, player, kind == "bot" or (seen is not None and now - seen <= CONNECTED_WITHIN),
                        bool(kept)) for seat, kind, player, seen, kept in seats)
        return int(row[0]), (row[1], row[2] is not None, public)

    def _read_and_wake(self, force: bool = False) -> None:
        """Read the table; wake the pages when it changed; make the bots' steps that are due, each followed by a
        wake."""
        for _ in range(1000):  # a table of bots plays a whole match in one go at most
            if self._stop.is_set():
                return
            seq, seats = self._read()
            last = self._last
            self._last = (seq, seats)
            if force or last is None or last != (seq, seats):
                self._wake_all(TableChange(seq, force or last is None or last[1] != seats))
            force = False
            if seats is None or seats[1] or not any(kind == "bot" for _, kind, *_ in seats[2]):
                return
            try:
                if not self.service.bots_due(self.name):
                    return
                if not self.service.step_bots(self.name):
                    return
            except AluetteError as error:  # refused (the table closed meanwhile...): said; the next change tries again
                self.errors.append(f"{type(error).__name__}: {error}")
                log.warning("table %s: the bots' step was refused: %s", self.name, error)
                return
            self.bot_steps += 1

    def _wake_all(self, change: Optional[TableChange]) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                subscriber.wake(change)
            except Exception:  # one page's bug never keeps the others from their moves
                self.errors.append(traceback.format_exc())

    def _touch(self) -> None:
        with self._lock:
            seats = {s for s in (sub.seat() for sub in self._subscribers) if s is not None}
        if seats:
            self.service.touch_seats(self.table_id, seats)


class _WalEvents:
    """Linux's inotify on the SQLite file's folder: :meth:`wait` returns ``True`` when the file's write-ahead log
    (``...-wal``) or the file was written, by any process (a commit writes the log). Where there is no inotify,
    :meth:`open` gives ``None`` and the watcher reads ``PRAGMA data_version`` every :data:`SQLITE_INTERVAL`."""

    _IN_MODIFY, _IN_MOVED_TO, _IN_CREATE = 0x2, 0x80, 0x100
    _HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then len bytes of name)

    def __init__(self, fd: int, names: set[bytes]):
        self._fd, self._names = fd, names

    @classmethod
    def open(cls, path: Path) -> Optional["_WalEvents"]:
        if not sys.platform.startswith("linux"):
            return None
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
            if fd < 0:
                return None
            folder = os.fsencode(str(path.resolve().parent))
            if libc.inotify_add_watch(fd, folder, cls._IN_MODIFY | cls._IN_MOVED_TO | cls._IN_CREATE) < 0:
                os.close(fd)  # no watch left (fs.inotify.max_user_watches), or a file system without inotify
                return None
        except (OSError, AttributeError):
            return None
        name = os.fsencode(path.name)
        return cls(fd, {name, name + b"-wal"})

    def wait(self, timeout: float) -> bool:
        ready, _, _ = select.select([self._fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self._fd, 64 * 1024)
        except BlockingIOError:
            return False
        offset, hit, size = 0, False, self._HEADER.size
        while offset + size <= len(data):
            _wd, _mask, _cookie, length = self._HEADER.unpack_from(data, offset)
            name = data[offset + size:offset + size + length].rstrip(b"\0")
            hit = hit or name in self._names
            offset += size + length
        return hit

    def close(self) -> None:
        os.close(self._fd)


# ---------------------------------------------------------------------- one watcher per process per table
_watchers: dict[tuple, TableWatcher] = {}
_registry = threading.Lock()


def watchers() -> list[TableWatcher]:
    """The watchers running in this process (for tests and benchmarks)."""
    with _registry:
        return list(_watchers.values())


def watch(service: TableService, name: str, wake: Callable[[Optional[TableChange]], None], *,
          seat: Callable[[], Optional[Seat]] = lambda: None) -> Callable[[], None]:
    """Subscribe ``wake`` to the changes of table ``name`` of ``service``'s database, through this process's
    watcher of that table (started now if there is none); returns the function that unsubscribes (the watcher stops
    with its last subscriber).

    ``wake(change)`` is called from the watcher's thread with a :class:`TableChange` (first at once, then after
    each change read), or with ``None`` when the watcher stopped on an error (the page then reads by itself); it
    must not block. ``seat()`` says which seat the subscriber's page holds (``None`` in the lobby), marked seen
    every :data:`HEARTBEAT` seconds.

    Raises:
        NoSuchTableError: no table of that name. StoreError: the database cannot be opened.
    """
    with service._lock, service.store.read() as tx:
        table_id = service._table_id(tx, name)
    store: Store = service.store
    key = (store.location, table_id)
    subscriber = _Subscriber(wake, seat)
    with _registry:
        watcher = _watchers.get(key)
        if watcher is None or watcher.stopped:
            watcher = _watchers[key] = TableWatcher(TableService(store.reopen(), clock=service._clock), table_id,
                                                    name)
            watcher.add(subscriber)
            watcher.thread.start()
        else:
            watcher.add(subscriber)

    def unsubscribe() -> None:
        with _registry:
            if watcher.remove(subscriber) and _watchers.get(key) is watcher:
                del _watchers[key]
    return unsubscribe
