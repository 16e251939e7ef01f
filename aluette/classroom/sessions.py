"""What a student's browser session keeps across a reload (notebook 08's match), shared by the workers of one server.

A reload of a page may reach another worker of ``make app`` (the system spreads new connections over the workers),
so what a page keeps for its next load cannot live in one worker's memory. :class:`SessionStore` keeps it in a
SQLite file in the door's private folder (:func:`aluette.classroom.ledger.door_folder`), which every worker of the
server opens, or in memory for a server of one worker. A session is Solara's session cookie; its values are small
JSON (a saved match is a few kilobytes: at most :data:`VALUE_LIMIT` bytes a value); the least recently written
sessions are forgotten beyond :data:`SESSIONS_KEPT`. Nothing here outlives the server, as before.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any, Iterator, Optional, Union

__all__ = ["SessionStore", "SessionDict", "SESSIONS_KEPT", "VALUE_LIMIT"]

#: Sessions kept (each holds what its pages saved, a saved match of a few kilobytes).
SESSIONS_KEPT = 2000
#: The longest value a session keeps, in bytes of JSON.
VALUE_LIMIT = 256 * 1024

_SCHEMA = """
CREATE TABLE IF NOT EXISTS kept (session TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, at REAL NOT NULL,
                                 PRIMARY KEY (session, name));
CREATE INDEX IF NOT EXISTS kept_at ON kept (at);
"""


class SessionStore:
    """The sessions' values, in the SQLite file ``path`` (shared by the workers that open it) or in memory."""

    def __init__(self, path: Union[str, Path, None] = None, most: int = SESSIONS_KEPT, timeout: float = 5.0):
        self.most = most
        self._lock = threading.RLock()
        self._db = sqlite3.connect(":memory:" if path is None else str(path), timeout=timeout, isolation_level=None,
                                   check_same_thread=False)
        with self._lock:
            if path is not None:
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)

    def session(self, key: str) -> "SessionDict":
        """The values of session ``key`` (a dict-like view, read and written through)."""
        return SessionDict(self, str(key)[:128])

    def _get(self, session: str, name: str) -> Optional[str]:
        with self._lock:
            row = self._db.execute("SELECT value FROM kept WHERE session = ? AND name = ?", (session, name)).fetchone()
        return None if row is None else row[0]

    def _set(self, session: str, name: str, text: str) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT OR REPLACE INTO kept (session, name, value, at) VALUES (?, ?, ?, ?)",
                                 (session, name, text, time.time()))
                over = self._db.execute("SELECT COUNT(DISTINCT session) FROM kept").fetchone()[0] - self.most
                if over > 0:  # the least recently written sessions go
                    self._db.execute("DELETE FROM kept WHERE session IN (SELECT session FROM kept GROUP BY session "
                                     "ORDER BY MAX(at) LIMIT ?)", (over,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _delete(self, session: str, name: str) -> bool:
        with self._lock:
            return self._db.execute("DELETE FROM kept WHERE session = ? AND name = ?", (session, name)).rowcount > 0

    def _names(self, session: str) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT name FROM kept WHERE session = ? ORDER BY name",
                                                   (session,))]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class SessionDict(MutableMapping):
    """One session's values (JSON-ready: dicts, lists, text, numbers), read from and written to its store at once."""

    def __init__(self, store: SessionStore, session: str):
        self._store, self._session = store, session

    def __getitem__(self, name: str) -> Any:
        text = self._store._get(self._session, str(name))
        if text is None:
            raise KeyError(name)
        return json.loads(text)

    def __setitem__(self, name: str, value: Any) -> None:
        text = json.dumps(value, separators=(",", ":"))
        if len(text) > VALUE_LIMIT:
            raise ValueError(f"a session keeps values of at most {VALUE_LIMIT} bytes, not {len(text)}")
        self._store._set(self._session, str(name), text)

    def __delitem__(self, name: str) -> None:
        if not self._store._delete(self._session, str(name)):
            raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._store._names(self._session))

    def __len__(self) -> int:
        return len(self._store._names(self._session))
