"""The door's ledger: who holds which places of the room, kept in SQLite so that every worker process of the
students' app counts the same room (``make app`` starts one uvicorn worker per core: README, "Serving the tutorial to
a class").

Three tables, each row written by the worker that saw the request:

- ``kernels``: a page's virtual kernel, the address whose websocket opened it, and the worker (process id) that
  holds it. A worker forgets its own kernels once Solara no longer keeps them (``live``), and any worker forgets the
  kernels of a worker process that is gone;
- ``pending``: a page admitted and not yet connected, with its time (forgotten after ``pending_s``). A page's
  ``GET`` and its websocket may reach different workers: the websocket takes the oldest pending place of its
  address, whichever worker admitted it;
- ``pages``: each page admitted in the last minute (the cap of pages a minute per address);
- ``closes``: a tab's close request (Solara's ``/_solara/api/close/KERNEL``) that reached a worker other than the
  one holding its kernel, for that worker to carry out (its place is then freed within a second, not at the cull).

A check and the place it grants are one transaction (``BEGIN IMMEDIATE``): two workers never both grant the last
place. With one worker the ledger is an in-memory database of that process (``path=None``).

Decision of this project: a page whose websocket reconnects to another worker than its first (a network blip)
starts afresh there, as Solara documents for several workers; its place is the one it already had.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
import threading
from pathlib import Path
from typing import Iterable

__all__ = ["Ledger", "WORKERS_ENV", "DOOR_PREFIX", "process_alive", "door_ledger"]

#: The environment variable that tells each worker how many workers the server has (set by
#: ``aluette.classroom.command``).
WORKERS_ENV = "ALUETTE_WORKERS"
#: The ledger of a server's workers is ``<temporary folder>/aluette-door-<pid>/door.sqlite``, ``<pid>`` the process
#: that started them (uvicorn's, their parent).
DOOR_PREFIX = "aluette-door-"

SCHEMA = """
CREATE TABLE IF NOT EXISTS kernels (kernel TEXT PRIMARY KEY, address TEXT NOT NULL, worker INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pending (address TEXT NOT NULL, t REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pages (address TEXT NOT NULL, t REAL NOT NULL);
CREATE TABLE IF NOT EXISTS closes (kernel TEXT NOT NULL, page TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS kernels_address ON kernels (address);
CREATE INDEX IF NOT EXISTS pending_address ON pending (address, t);
CREATE INDEX IF NOT EXISTS pages_address ON pages (address, t);
"""


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a signal 0 is sent: nothing is done to it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user: alive
        return True
    return True


def door_ledger(workers: int, folder: str | Path | None = None) -> "Ledger":
    """This worker's ledger: in its memory for a server of one worker; else the file its parent's workers share,
    ``<folder>/aluette-door-<parent pid>/door.sqlite`` (:func:`door_folder`). A file left by an earlier server of the
    same process id holds nothing that counts: its workers' kernels are forgotten with their processes, its pages
    with their time."""
    own = door_folder(workers, folder)
    return Ledger() if own is None else Ledger(own / "door.sqlite")


def door_folder(workers: int, folder: str | Path | None = None) -> Path | None:
    """The private folder the workers of this worker's server share (``None`` for a server of one worker):
    ``<folder>/aluette-door-<parent pid>`` (``folder``: the temporary folder), made if needed (only this user may
    open it: another's folder of that name is refused). Folders of servers that have stopped are removed first."""
    if workers < 2:
        return None
    base = Path(folder or tempfile.gettempdir())
    for old in base.glob(DOOR_PREFIX + "*"):
        pid = old.name[len(DOOR_PREFIX):]
        if pid.isdigit() and not process_alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    own = base / f"{DOOR_PREFIX}{os.getppid()}"
    try:
        own.mkdir(mode=0o700)
    except FileExistsError:
        pass
    found = os.lstat(own)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or found.st_mode & 0o077:
        raise PermissionError(f"the door's folder {own} is not a private folder of this user: remove it and "
                              "start the app again")
    return own


class Ledger:
    """The places of the room, shared by the workers that open the same ``path`` (a SQLite file), or private to
    this process (``path=None``). ``worker`` names this process in the ``kernels`` table (default: its pid)."""

    def __init__(self, path: str | Path | None = None, worker: int | None = None, timeout: float = 10.0):
        self.path = str(path) if path is not None else ":memory:"
        self.worker = os.getpid() if worker is None else worker
        # one connection per worker, used from its event loop and its pruning thread: the lock serializes them
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)

    def transaction(self) -> "_Transaction":
        """``with ledger.transaction() as db:`` one atomic step of the door (``BEGIN IMMEDIATE``: the file is
        locked for writing from its start, so a check and the place it grants cannot interleave with another
        worker's)."""
        return _Transaction(self)

    def close(self) -> None:
        with self._lock:
            self._db.close()


class _Transaction:
    """The door's queries, inside one transaction of a :class:`Ledger`."""

    def __init__(self, ledger: Ledger):
        self.ledger, self.db = ledger, ledger._db

    def __enter__(self) -> "_Transaction":
        self.ledger._lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.ledger._lock.release()
            raise
        return self

    def __exit__(self, kind, value, traceback) -> None:
        try:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.ledger._lock.release()

    # ------------------------------------------------------------------ forgetting
    def prune(self, keep: Iterable[str], now: float, pending_s: float) -> None:
        """Forget this worker's kernels not in ``keep`` (what Solara keeps, and kernels whose websocket is open
        before Solara has made them), every worker's kernels if that worker's process is gone, pending places older
        than ``pending_s`` and pages older than a minute."""
        keep = set(keep)
        mine = [k for (k,) in self.db.execute("SELECT kernel FROM kernels WHERE worker = ?", (self.ledger.worker,))]
        self.db.executemany("DELETE FROM kernels WHERE kernel = ?", [(k,) for k in mine if k not in keep])
        for (worker,) in self.db.execute("SELECT DISTINCT worker FROM kernels WHERE worker != ?",
                                         (self.ledger.worker,)).fetchall():
            if not process_alive(worker):
                self.db.execute("DELETE FROM kernels WHERE worker = ?", (worker,))
        self.db.execute("DELETE FROM pending WHERE t < ?", (now - pending_s,))
        self.db.execute("DELETE FROM pages WHERE t < ?", (now - 60,))

    # ------------------------------------------------------------------ counting
    def sessions(self, address: str | None = None) -> int:
        """Places held by ``address`` (every address when None): its kernels and its pages not yet connected."""
        if address is None:
            return sum(self.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("kernels",
                                                                                                    "pending"))
        return sum(self.db.execute(f"SELECT count(*) FROM {table} WHERE address = ?", (address,)).fetchone()[0]
                   for table in ("kernels", "pending"))

    def pages(self, address: str) -> int:
        """Pages ``address`` opened in the last minute (as pruned)."""
        return self.db.execute("SELECT count(*) FROM pages WHERE address = ?", (address,)).fetchone()[0]

    def knows(self, kernel: str) -> bool:
        return self.db.execute("SELECT 1 FROM kernels WHERE kernel = ?", (kernel,)).fetchone() is not None

    # ------------------------------------------------------------------ granting
    def admit_page(self, address: str, now: float) -> None:
        """A page admitted: a pending place, and a page of the last minute."""
        self.db.execute("INSERT INTO pending (address, t) VALUES (?, ?)", (address, now))
        self.add_page(address, now)

    def add_page(self, address: str, now: float) -> None:
        """A page built without a page load of its own (a websocket's new kernel, a second build on one): a page of
        the last minute, with no pending place."""
        self.db.execute("INSERT INTO pages (address, t) VALUES (?, ?)", (address, now))

    def take_pending(self, address: str) -> bool:
        """The oldest pending place of ``address`` taken by its websocket; False if it has none."""
        row = self.db.execute("SELECT rowid FROM pending WHERE address = ? ORDER BY t, rowid LIMIT 1",
                              (address,)).fetchone()
        if row is None:
            return False
        self.db.execute("DELETE FROM pending WHERE rowid = ?", row)
        return True

    def own(self, kernel: str, address: str) -> None:
        """``kernel``, opened by ``address``'s websocket, held by this worker."""
        self.db.execute("INSERT OR REPLACE INTO kernels (kernel, address, worker) VALUES (?, ?, ?)",
                        (kernel, address, self.ledger.worker))

    def ask_close(self, kernel: str, page: str) -> None:
        """A tab's close request for ``kernel``'s page ``page``, left for the worker that holds the kernel."""
        self.db.execute("INSERT INTO closes (kernel, page) VALUES (?, ?)", (kernel, page))

    def take_closes(self) -> list[tuple[str, str]]:
        """The close requests left for this worker's kernels (taken: each is carried out once); requests for
        kernels the room no longer has are dropped."""
        rows = self.db.execute("SELECT closes.rowid, closes.kernel, closes.page, kernels.worker FROM closes "
                               "LEFT JOIN kernels ON kernels.kernel = closes.kernel").fetchall()
        mine = [(kernel, page) for _, kernel, page, worker in rows if worker == self.ledger.worker]
        self.db.executemany("DELETE FROM closes WHERE rowid = ?",
                            [(rowid,) for rowid, _, _, worker in rows if worker in (self.ledger.worker, None)])
        return mine
