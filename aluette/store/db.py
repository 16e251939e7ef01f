"""The database behind shared tables: SQLite by default, PostgreSQL when a URL says so.

Which database (:func:`open_store`):

* ``ALUETTE_DATABASE_URL`` set to ``postgresql://user:password@host:port/dbname`` (or ``postgres://``): that
  PostgreSQL database, through ``psycopg`` 3, for students' sessions on several machines (JupyterHub on a cluster).
  The tables are created in it on first use, all named ``aluette_*``, so the database may hold other applications'
  tables too.
* otherwise SQLite: the file ``tables.sqlite3`` in the app's data folder, ``ALUETTE_DATA_DIR`` when set, else
  ``$XDG_DATA_HOME/aluette`` (``~/.local/share/aluette``). Nothing to install; every kernel of a class on one machine
  opens the same file. WAL mode (readers never wait for the writer), a short ``busy_timeout``
  (:data:`SQLITE_BUSY_TIMEOUT`: a writer waits for another, whose transactions last milliseconds, rather than
  failing; a file another program holds locked, say the ``sqlite3`` shell inside a transaction, gives a page a clear
  :class:`~aluette.errors.StoreError` within that time, the transaction rolled back, instead of a frozen page or a
  traceback), ``synchronous=NORMAL`` (a crashed kernel loses nothing; a power cut may lose the last
  moves).
* Durability: a page shows a move only once the database holds it durably against the crash of any of our
  processes and of the database server. PostgreSQL: our sessions commit with ``synchronous_commit = on`` whatever
  the server's default (with ``off``, a crash of the database server lost moves that pages had already shown).
  SQLite: WAL mode with ``synchronous=NORMAL``: a committed move is in the operating system's hands before the
  commit returns, so a crashed or killed kernel loses nothing and never leaves a half-written log; only a power cut
  or an operating-system crash may lose the last moves. Whatever the cause, a session that finds the database
  holding fewer moves of a table than it saw returns to the database's last move and tells the players
  (:class:`~aluette.errors.LostMovesError`, :meth:`aluette.store.service.TableService._refreshed`); it never writes
  past the gap.

The schema is versioned from the start: a table ``aluette_meta`` holds the application id (:data:`APPLICATION_ID`)
and the schema version (:data:`SCHEMA_VERSION`); an SQLite file also carries :data:`SQLITE_APPLICATION_ID` in its
header. A file that is not SQLite, an SQLite file of another application, a damaged one, or a schema written by a
newer aluette is refused when it is opened, with a :class:`~aluette.errors.BadDatabaseError`, before anything in it
is read or written.

Both backends are used through one small interface: :meth:`Store.read` and :meth:`Store.write` give a transaction
(:class:`Transaction`) whose :meth:`~Transaction.rows` and :meth:`~Transaction.run` take SQL with ``?``
placeholders. A write transaction holds the database's write lock (SQLite) or the row lock of the table it names
(PostgreSQL, :meth:`Transaction.lock_table`), so writers to one table take turns. Sessions learn of a change by
the process's watcher of the table (:mod:`aluette.store.watch`): on PostgreSQL each write sends a NOTIFY, on which
it wakes (:meth:`Store.pause`); on SQLite it reads the connection's change counter (:meth:`Store.change_counter`,
``PRAGMA data_version``), which moves when another connection committed.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Iterator, Optional, Union
from urllib.parse import urlsplit

from ..errors import BadDatabaseError, StoreError, quoted

__all__ = ["Store", "SQLiteStore", "PostgresStore", "Transaction", "open_store", "default_data_dir",
           "APPLICATION_ID", "SCHEMA_VERSION", "SQLITE_APPLICATION_ID", "DATABASE_URL_ENV", "DATA_DIR_ENV",
           "DATABASE_FILE"]

#: What ``aluette_meta`` says under ``application``.
APPLICATION_ID = "aluette-tables"
#: The schema this aluette writes and reads. A newer one is refused; older ones would be migrated (none yet).
SCHEMA_VERSION = 1
#: SQLite's ``PRAGMA application_id`` of our files: "Alut" in ASCII.
SQLITE_APPLICATION_ID = 0x416C7574
#: The environment variable naming a PostgreSQL database.
DATABASE_URL_ENV = "ALUETTE_DATABASE_URL"
#: The environment variable naming the data folder of the SQLite file.
DATA_DIR_ENV = "ALUETTE_DATA_DIR"
#: The SQLite file's name in the data folder.
DATABASE_FILE = "tables.sqlite3"
#: How long a writer waits for another (SQLite's busy_timeout, PostgreSQL's lock_timeout), in seconds.
BUSY_TIMEOUT = 10.0
#: SQLite's busy_timeout, in seconds: our write transactions last milliseconds, so a writer that waited this long
#: waits for another program holding the file locked; the page then says so (:data:`BUSY_MESSAGE`) rather than
#: freezing for the whole wait on every poll and click.
SQLITE_BUSY_TIMEOUT = 1.5
#: What a page says when the SQLite file stays locked by another program (``{file}``: the file's name).
BUSY_MESSAGE = ("the class's tables are busy: another program is holding the database file {file} locked; "
                "try again in a moment (nothing was changed)")
#: SQLite's result codes of a locked file: SQLITE_BUSY (another connection), SQLITE_LOCKED (this one).
_SQLITE_BUSY_CODES = frozenset({5, 6})

_TABLES = ("aluette_meta", "aluette_tables", "aluette_seats", "aluette_moves")

# One schema for both: "{id}" is the only difference (SQLite's rowid alias; PostgreSQL's identity column).
_SCHEMA = (
    "CREATE TABLE aluette_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE aluette_tables (
        id {id},
        name_key TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        seed TEXT NOT NULL,
        first_dealer TEXT NOT NULL,
        options TEXT NOT NULL,
        settings TEXT NOT NULL,
        host_seat TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        closed_at DOUBLE PRECISION,
        last_seq BIGINT NOT NULL DEFAULT 0)""",
    """CREATE TABLE aluette_seats (
        table_id BIGINT NOT NULL REFERENCES aluette_tables(id),
        seat TEXT NOT NULL CHECK (seat IN ('N', 'E', 'S', 'W')),
        kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
        player TEXT NOT NULL,
        code_salt TEXT,
        code_hash TEXT,
        joined_at DOUBLE PRECISION NOT NULL,
        last_seen DOUBLE PRECISION,
        PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE aluette_moves (
        table_id BIGINT NOT NULL REFERENCES aluette_tables(id),
        seq BIGINT NOT NULL CHECK (seq >= 1),
        seat TEXT CHECK (seat IN ('N', 'E', 'S', 'W')),
        actor TEXT NOT NULL CHECK (actor IN ('person', 'bot', 'table')),
        body TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seq))""",
)


def default_data_dir() -> Path:
    """``ALUETTE_DATA_DIR`` if set, else ``$XDG_DATA_HOME/aluette`` (``~/.local/share/aluette``)."""
    given = os.environ.get(DATA_DIR_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "aluette"


def _safe_url(url: str) -> str:
    """The URL without its password, to quote in messages."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return quoted(parts._replace(netloc=netloc).geturl(), 80)
    return quoted(url, 80)


def open_store(url: Optional[str] = None, *, path: Union[str, Path, None] = None) -> "Store":
    """The store to use: PostgreSQL at ``url`` (default: ``ALUETTE_DATABASE_URL``) when one is given, else the SQLite
    file ``path`` (default: ``tables.sqlite3`` in :func:`default_data_dir`).

    Raises:
        StoreError: a URL that is not ``postgresql://...``, or a database that cannot be reached.
        BadDatabaseError: a database that is not this application's, is damaged, or is newer (see the module).
    """
    if url is None and path is None:
        url = os.environ.get(DATABASE_URL_ENV) or None
    if url is not None:
        if not isinstance(url, str) or not re.match(r"postgres(ql)?://", url):
            raise StoreError(f"{DATABASE_URL_ENV} must be a postgresql:// URL, got {_safe_url(str(url))}")
        return PostgresStore(url)
    if path is None:
        folder = default_data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / DATABASE_FILE
    return SQLiteStore(path)


class Transaction:
    """One transaction of a :class:`Store`: SQL with ``?`` placeholders, rows as tuples."""

    def __init__(self, store: "Store", cursor):
        self._store = store
        self._cursor = cursor

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Every row of a query."""
        self._cursor.execute(self._store._sql(sql), params)
        return self._cursor.fetchall()

    def one(self, sql: str, params: tuple = ()) -> Optional[tuple]:
        """The first row of a query, or ``None``."""
        self._cursor.execute(self._store._sql(sql), params)
        return self._cursor.fetchone()

    def run(self, sql: str, params: tuple = ()) -> None:
        """A statement without rows."""
        self._cursor.execute(self._store._sql(sql), params)

    def lock_table(self, table_id: int) -> Optional[tuple]:
        """Take the write lock of one shared table for the rest of this transaction (PostgreSQL: its row, ``FOR
        UPDATE``; SQLite: the write transaction already holds the file's) and return ``(last_seq, closed_at)``, or
        ``None`` when there is no such table."""
        return self.one("SELECT last_seq, closed_at FROM aluette_tables WHERE id = ?" + self._store._for_update,
                        (table_id,))


class Store:
    """What the table service needs of a database (see the module docstring). One connection, used by one thread
    at a time (a lock); open one store per kernel or per thread that must act at the same time as another."""

    #: ``"sqlite"`` or ``"postgresql"``.
    backend = ""
    _for_update = ""

    def __init__(self):
        self._lock = threading.RLock()
        self._closed = False

    def _sql(self, sql: str) -> str:
        return sql

    def is_conflict(self, error: BaseException) -> bool:
        """True when ``error`` is a unique-key violation (two writers took the same sequence number)."""
        raise NotImplementedError

    @contextmanager
    def read(self) -> Iterator[Transaction]:
        """Reads: one consistent snapshot on SQLite; on PostgreSQL each statement reads its own (see there)."""
        raise NotImplementedError
        yield  # pragma: no cover

    @contextmanager
    def write(self) -> Iterator[Transaction]:
        """A write transaction, committed when the block ends, rolled back if it raises."""
        raise NotImplementedError
        yield  # pragma: no cover

    def read_one(self, sql: str, params: tuple = ()) -> Optional[tuple]:
        """The first row of one query run on its own (no transaction around it: one round trip)."""
        with self._lock:
            if self._closed:
                raise StoreError("this store is closed")
            try:
                return self._conn.execute(self._sql(sql), params).fetchone()
            except self._errors as error:
                raise StoreError(f"the database failed: {str(error).strip()[:300]}") from None

    #: Where the database is (a file's path, a URL): two stores of one location are one database.
    location = ""

    def reopen(self) -> "Store":
        """A new store on the same database, with a connection of its own (for a thread that must read while this
        store's connection is in use: :mod:`aluette.store.watch`)."""
        raise NotImplementedError

    def change_counter(self) -> Optional[int]:
        """A number that changes when another connection committed a change to the database (SQLite's ``PRAGMA
        data_version``, cheap: no table is read); ``None`` on PostgreSQL (its NOTIFY says it: :meth:`pause`)."""
        return None

    def notify(self, tx: Transaction, table_id: int, seq: int) -> None:
        """Tell waiting sessions, when ``tx`` commits, that ``table_id`` reached ``seq`` (PostgreSQL's NOTIFY;
        SQLite: nothing, :meth:`change_counter` moves)."""

    def pause(self, timeout: float, interval: float, table_id: Optional[int] = None) -> bool:
        """Wait a little for a change: SQLite sleeps ``interval``; PostgreSQL waits for the next NOTIFY of table
        ``table_id`` (of any table when ``None``), at most ``timeout`` seconds (call :meth:`listen` before reading
        the number to compare). ``True`` when a NOTIFY woke it."""
        time.sleep(min(interval, max(timeout, 0.0)))
        return False

    def listen(self) -> None:
        """Start listening for changes (PostgreSQL); nothing for SQLite."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check_schema(self, tx: Transaction, where: str, present) -> None:
        """Raises unless the database's ``aluette_meta`` is ours, of a version this aluette reads, and every table
        is ``present`` (the names of the database's tables, as each backend lists them)."""
        rows = dict(tx.rows("SELECT key, value FROM aluette_meta"))
        application = rows.get("application")
        if application != APPLICATION_ID:
            raise BadDatabaseError(f"{where} belongs to another application (its aluette_meta says application "
                                   f"{quoted(application)}, expected {APPLICATION_ID!r}); refusing to open it")
        version = rows.get("schema_version")
        if not (isinstance(version, str) and version.isdigit() and len(version) < 10):
            raise BadDatabaseError(f"{where} is damaged: its schema version is {quoted(version)}, not a number")
        if int(version) > SCHEMA_VERSION:
            raise BadDatabaseError(f"{where} was written by a newer aluette (schema version {int(version)}; this "
                                   f"one reads up to {SCHEMA_VERSION}): update aluette to open it")
        if int(version) < 1:
            raise BadDatabaseError(f"{where} is damaged: schema version {int(version)} never existed")
        missing = [t for t in _TABLES if t not in present]
        if missing:
            raise BadDatabaseError(f"{where} is damaged: the table(s) {', '.join(missing)} are missing")

    def _create(self, tx: Transaction, identity: str) -> None:
        for statement in _SCHEMA:
            tx.run(statement.format(id=identity))
        tx.run("CREATE INDEX aluette_moves_by_table ON aluette_moves (table_id, seq)")
        tx.run("INSERT INTO aluette_meta (key, value) VALUES (?, ?)", ("application", APPLICATION_ID))
        tx.run("INSERT INTO aluette_meta (key, value) VALUES (?, ?)", ("schema_version", str(SCHEMA_VERSION)))


class SQLiteStore(Store):
    """The SQLite file at ``path`` (created with the schema when missing or empty).

    Raises:
        BadDatabaseError: not an SQLite file, another application's, damaged, or newer.
    """

    backend = "sqlite"
    _errors = (sqlite3.Error,)

    def __init__(self, path: Union[str, Path], *, busy_timeout: float = SQLITE_BUSY_TIMEOUT):
        super().__init__()
        self.path = Path(path)
        self._busy_timeout = busy_timeout
        where = f"the database file {quoted(str(self.path), 80)}"
        # The header is read by SQLite only: opening and closing the file from Python in a process that holds a
        # connection to it would drop that process's POSIX locks on it (SQLite's documented pitfall).
        try:
            self._conn = sqlite3.connect(str(self.path), timeout=busy_timeout, isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open {where}: {error}") from None
        try:
            self._open(where, busy_timeout)
        except sqlite3.DatabaseError as error:
            self._conn.close()
            if _busy(error):  # a locked file is not a damaged one
                raise StoreError(self._busy_message()) from None
            name = getattr(error, "sqlite_errorname", "")
            if name == "SQLITE_NOTADB":
                raise BadDatabaseError(f"{where} is not an SQLite database (it does not start with SQLite's "
                                       f"header); refusing to open it") from None
            raise BadDatabaseError(f"{where} is damaged or not a database ({error}{', ' + name if name else ''}); "
                                   f"refusing to open it") from None
        except BaseException:
            self._conn.close()
            raise

    def _open(self, where: str, busy_timeout: float) -> None:
        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        if app not in (0, SQLITE_APPLICATION_ID):
            raise BadDatabaseError(f"{where} belongs to another application (SQLite application id {app:#x}); "
                                   f"refusing to open it")
        if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise BadDatabaseError(f"{where} is damaged (SQLite's quick_check fails); refusing to open it")
        with self.read() as tx:  # every check reads only: a refused file is left exactly as it was
            self._check(tx, where)
        if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
            raise StoreError(f"{where}: SQLite refused WAL mode (a network file system?)")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        with self.write() as tx:  # one kernel creates the schema; the others wait, then find it
            if self._check(tx, where):
                self._create(tx, "INTEGER PRIMARY KEY")
                tx.run(f"PRAGMA application_id = {SQLITE_APPLICATION_ID}")

    def _check(self, tx: Transaction, where: str) -> bool:
        """True for a fresh file (no table, no application id); raises unless it is ours and readable."""
        names = {row[0] for row in tx.rows("SELECT name FROM sqlite_master WHERE type = 'table'")}
        app = tx.one("PRAGMA application_id")[0]
        if not names and app == 0:
            return True
        if app != SQLITE_APPLICATION_ID or "aluette_meta" not in names:
            raise BadDatabaseError(f"{where} is an SQLite database of another application (tables "
                                   f"{quoted(', '.join(sorted(names)), 60)}); refusing to open it")
        self._check_schema(tx, where, names)
        return False

    def is_conflict(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError)

    @property
    def location(self) -> str:
        return str(self.path.resolve())

    def reopen(self) -> "SQLiteStore":
        return SQLiteStore(self.path, busy_timeout=self._busy_timeout)

    def change_counter(self) -> Optional[int]:
        row = self.read_one("PRAGMA data_version")
        return int(row[0])

    def _busy_message(self) -> str:
        return BUSY_MESSAGE.format(file=quoted(self.path.name, 40))

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[Transaction]:
        with self._lock:
            if self._closed:
                raise StoreError("this store is closed")
            cursor = self._conn.cursor()
            try:
                cursor.execute(begin)
            except sqlite3.OperationalError as error:
                cursor.close()
                if _busy(error):
                    raise StoreError(self._busy_message()) from None
                raise StoreError(f"the database file is unreadable: {error}") from None
            try:
                yield Transaction(self, cursor)
                cursor.execute("COMMIT")
            except sqlite3.OperationalError as error:  # a statement or the commit found the file locked
                self._conn.rollback()
                if _busy(error):
                    raise StoreError(self._busy_message()) from None
                raise
            except BaseException:
                self._conn.rollback()
                raise
            finally:
                cursor.close()

    @contextmanager
    def read(self) -> Iterator[Transaction]:
        with self._transaction("BEGIN") as tx:
            yield tx

    @contextmanager
    def write(self) -> Iterator[Transaction]:
        with self._transaction("BEGIN IMMEDIATE") as tx:  # the write lock now: no upgrade deadlock later
            yield tx

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()


def _busy(error: BaseException) -> bool:
    """Whether an SQLite error says the file is locked (by another program, or a writer that outlasted the busy
    timeout), not that it is damaged."""
    code = getattr(error, "sqlite_errorcode", None)
    return ((code is not None and code & 0xFF in _SQLITE_BUSY_CODES)
            or "database is locked" in str(error) or "database table is locked" in str(error))


class PostgresStore(Store):
    """The PostgreSQL database at ``url`` (the ``aluette_*`` tables are created on first use).

    Raises:
        StoreError: ``psycopg`` is missing or the server cannot be reached.
        BadDatabaseError: an ``aluette_meta`` of another application, a damaged or newer schema.
    """

    backend = "postgresql"
    _for_update = " FOR UPDATE"
    #: The channel of NOTIFY: its payload is ``"<table id> <seq>"``.
    CHANNEL = "aluette_tables"

    def __init__(self, url: str, *, busy_timeout: float = BUSY_TIMEOUT):
        super().__init__()
        try:
            import psycopg
        except ImportError:  # pragma: no cover - a dependency of the package
            raise StoreError("PostgreSQL needs the psycopg package: pip install 'psycopg[binary]'") from None
        self._psycopg = psycopg
        self._errors = (psycopg.Error,)
        self._listener = None
        self.url = url
        self._busy_timeout = busy_timeout
        where = f"the PostgreSQL database {_safe_url(url)}"
        self._conn = self._connect()
        try:
            self._open(where)
        except psycopg.Error as error:
            self._conn.close()
            raise BadDatabaseError(f"{where} could not be read as aluette's ({str(error).strip()[:300]})") from None
        except BaseException:
            self._conn.close()
            raise

    def _connect(self):
        """A new connection with this store's settings.

        Raises:
            StoreError: the server cannot be reached.
        """
        psycopg = self._psycopg
        try:
            conn = psycopg.connect(self.url, connect_timeout=10, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"cannot reach the PostgreSQL database {_safe_url(self.url)}: "
                             f"{str(error).strip()[:300]}") from None
        try:
            conn.execute(f"SET lock_timeout = {int(self._busy_timeout * 1000)}")
            conn.execute("SET synchronous_commit = on")  # a move shown is a move kept: see the module
        except psycopg.Error as error:
            conn.close()
            raise StoreError(f"the PostgreSQL database failed: {str(error).strip()[:300]}") from None
        return conn

    def _open(self, where: str) -> None:
        with self.write() as tx:
            tx.run("SELECT pg_advisory_xact_lock(?)", (SQLITE_APPLICATION_ID,))  # one session creates the schema
            present = [t for t in _TABLES if tx.one("SELECT to_regclass(?)", (t,))[0] is not None]
            if not present:
                self._create(tx, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
                return
            if "aluette_meta" not in present:
                raise BadDatabaseError(f"{where} has tables {', '.join(present)} but no aluette_meta: damaged or "
                                       f"another application's; refusing to open it")
            self._check_schema(tx, where, present)

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s")

    def is_conflict(self, error: BaseException) -> bool:
        return isinstance(error, self._psycopg.errors.UniqueViolation)

    @property
    def location(self) -> str:
        return self.url

    def reopen(self) -> "PostgresStore":
        return PostgresStore(self.url, busy_timeout=self._busy_timeout)

    @contextmanager
    def _transaction(self) -> Iterator[Transaction]:
        with self._cursor(lambda conn: conn.transaction()) as tx:
            yield tx

    @contextmanager
    def read(self) -> Iterator[Transaction]:
        # No BEGIN/COMMIT around reads (two round trips saved on every poll): each statement reads its own
        # snapshot. The service needs no more: the log is append-only and read as "the entries after N" in one
        # statement, and a seat read a moment later than the log is as good as one read with it.
        with self._cursor(lambda conn: nullcontext()) as tx:
            yield tx

    @contextmanager
    def _cursor(self, around) -> Iterator[Transaction]:
        """A cursor inside ``around(connection)`` (a transaction, or nothing), under the store's lock; the driver's
        failures become :class:`StoreError`."""
        with self._lock:
            if self._closed:
                raise StoreError("this store is closed")
            if self._conn.broken or self._conn.closed:
                # The last request lost the connection (a restarted server, a dropped network, an idle connection
                # closed by the server): this one starts on a new connection. Nothing is retried by itself: the
                # request that failed said so, and a write is never made twice (the log's sequence is unique).
                self._conn.close()
                self._conn = self._connect()
            try:
                with around(self._conn), self._conn.cursor() as cursor:
                    yield Transaction(self, cursor)
            except self._psycopg.OperationalError as error:
                lost = (" (the connection was lost: the next request opens a new one)"
                        if self._conn.broken or self._conn.closed else "")
                raise StoreError(f"the PostgreSQL database failed{lost}: {str(error).strip()[:300]}") from None

    @contextmanager
    def write(self) -> Iterator[Transaction]:
        with self._transaction() as tx:
            yield tx

    def notify(self, tx: Transaction, table_id: int, seq: int) -> None:
        tx.run("SELECT pg_notify(?, ?)", (self.CHANNEL, f"{table_id} {seq}"))

    def listen(self) -> None:
        # a connection of its own: notifications arrive on it while the main one runs transactions
        if self._listener is None:
            try:
                self._listener = self._psycopg.connect(self.url, connect_timeout=10, autocommit=True)
                self._listener.execute(f"LISTEN {self.CHANNEL}")
            except self._psycopg.Error as error:
                self._listener = None
                raise StoreError(f"cannot listen for changes: {str(error).strip()[:300]}") from None

    def pause(self, timeout: float, interval: float, table_id: Optional[int] = None) -> bool:
        if self._listener is None:
            self.listen()
        deadline = time.monotonic() + max(timeout, 0.0)
        wanted = None if table_id is None else f"{table_id} "
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                # read the whole batch: leaving the generator early would drop the rest of a packet's notifications
                woken = False
                for note in self._listener.notifies(timeout=left, stop_after=1):
                    woken = woken or wanted is None or note.payload.startswith(wanted)
                if woken:
                    return True
        except self._psycopg.Error as error:
            self._listener = None
            raise StoreError(f"the PostgreSQL database failed: {str(error).strip()[:300]}") from None

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()
                if self._listener is not None:
                    self._listener.close()
