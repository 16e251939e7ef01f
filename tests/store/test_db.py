"""The database layer (:mod:`aluette.store.db`): which database is chosen, and what is refused when it is opened."""

from __future__ import annotations

import os
import sqlite3

import pytest

from aluette.errors import BadDatabaseError, StoreError
from aluette.store import TableService, open_store
from aluette.store.db import (APPLICATION_ID, DATA_DIR_ENV, DATABASE_FILE, DATABASE_URL_ENV, SCHEMA_VERSION,
                              SQLITE_APPLICATION_ID, SQLiteStore)


def _bytes(path):
    return path.read_bytes() if path is not None and path.exists() else None


class TestOpening:
    def test_a_new_database_gets_the_schema_and_opens_again(self, backend):
        with backend.store() as store:
            with store.read() as tx:
                meta = dict(tx.rows("SELECT key, value FROM aluette_meta"))
        assert meta == {"application": APPLICATION_ID, "schema_version": str(SCHEMA_VERSION)}
        service = backend.service()
        service.create_table("Again")
        service.close()
        assert backend.service().table_names() == ["Again"]

    def test_sqlite_is_in_wal_mode_with_a_busy_timeout_and_our_application_id(self, tmp_path):
        with SQLiteStore(tmp_path / "t.sqlite3") as store:
            with store.read() as tx:
                assert tx.one("PRAGMA journal_mode")[0] == "wal"
                assert tx.one("PRAGMA busy_timeout")[0] >= 1000
                assert tx.one("PRAGMA application_id")[0] == SQLITE_APPLICATION_ID

    def test_a_newer_schema_is_refused_and_left_as_it_was(self, backend):
        with backend.store() as store, store.write() as tx:
            tx.run("UPDATE aluette_meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
        before = _bytes(backend.path)
        with pytest.raises(BadDatabaseError, match=f"newer aluette \\(schema version {SCHEMA_VERSION + 1}; this one "
                                                    f"reads up to {SCHEMA_VERSION}\\)"):
            backend.store()
        assert _bytes(backend.path) == before

    def test_another_applications_meta_is_refused(self, backend):
        with backend.store() as store, store.write() as tx:
            tx.run("UPDATE aluette_meta SET value = 'notes-app' WHERE key = 'application'")
        with pytest.raises(BadDatabaseError, match="another application .*'notes-app'"):
            backend.store()

    def test_a_damaged_schema_is_refused(self, backend):
        with backend.store() as store, store.write() as tx:
            tx.run("UPDATE aluette_meta SET value = 'x1' WHERE key = 'schema_version'")
        with pytest.raises(BadDatabaseError, match="damaged: its schema version is 'x1'"):
            backend.store()
        with _raw(backend) as tx:
            tx.run("UPDATE aluette_meta SET value = '1' WHERE key = 'schema_version'")
            tx.run("DROP TABLE aluette_moves")
        with pytest.raises(BadDatabaseError, match="damaged: the table\\(s\\) aluette_moves are missing"):
            backend.store()


class _raw:
    """A write transaction on the backend's database without the store's checks (to damage it)."""

    def __init__(self, backend):
        self.backend = backend

    def __enter__(self):
        if self.backend.name == "sqlite":
            self.conn = sqlite3.connect(self.backend.path, isolation_level=None)
            self.conn.execute("BEGIN")
            return _Runner(self.conn, "?")
        import psycopg
        self.conn = psycopg.connect(self.backend.url)
        return _Runner(self.conn, "%s")

    def __exit__(self, *exc):
        if self.backend.name == "sqlite":
            self.conn.execute("COMMIT")
        else:
            self.conn.commit()
        self.conn.close()


class _Runner:
    def __init__(self, conn, mark):
        self.conn, self.mark = conn, mark

    def run(self, sql, params=()):
        self.conn.execute(sql.replace("?", self.mark), params)


class TestSQLiteFiles:
    def test_random_bytes_are_refused_and_left_as_they_were(self, tmp_path):
        path = tmp_path / "tables.sqlite3"
        junk = os.urandom(8192)
        path.write_bytes(junk)
        with pytest.raises(BadDatabaseError, match="is not an SQLite database"):
            SQLiteStore(path)
        assert path.read_bytes() == junk

    def test_a_damaged_sqlite_file_is_refused(self, tmp_path):
        path = tmp_path / "tables.sqlite3"
        service = TableService(SQLiteStore(path))
        service.create_table("Damaged")
        service.close()
        data = bytearray(path.read_bytes())
        data[100:4096] = os.urandom(3996)  # the first page after its header: the schema
        path.write_bytes(bytes(data))
        with pytest.raises(BadDatabaseError, match="damaged|not a database"):
            SQLiteStore(path)
        assert path.read_bytes() == bytes(data)

    def test_another_applications_sqlite_file_is_refused_and_left_as_it_was(self, tmp_path):
        path = tmp_path / "notes.sqlite3"
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('hello')")
        conn.commit()
        conn.close()
        before = path.read_bytes()
        with pytest.raises(BadDatabaseError, match="another application \\(tables 'notes'\\)"):
            SQLiteStore(path)
        assert path.read_bytes() == before

    def test_a_file_with_another_application_id_is_refused(self, tmp_path):
        path = tmp_path / "other.sqlite3"
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA application_id = 1234")
        conn.commit()
        conn.close()
        with pytest.raises(BadDatabaseError, match="application id 0x4d2"):
            SQLiteStore(path)


class TestChoosing:
    def test_the_data_dir_variable_places_the_sqlite_file(self, tmp_path, monkeypatch):
        monkeypatch.delenv(DATABASE_URL_ENV, raising=False)
        monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "class 7b"))
        with open_store() as store:
            assert store.backend == "sqlite" and store.path == tmp_path / "class 7b" / DATABASE_FILE

    def test_the_url_variable_chooses_postgresql(self, monkeypatch, postgres_server):
        monkeypatch.setenv(DATABASE_URL_ENV, postgres_server.url("aluette_tests"))
        with open_store() as store:
            assert store.backend == "postgresql"

    @pytest.mark.parametrize("url", ["mysql://x@y/z", "sqlite:///tmp/x", "postgresql-ish"])
    def test_other_urls_are_refused(self, monkeypatch, url):
        monkeypatch.setenv(DATABASE_URL_ENV, url)
        with pytest.raises(StoreError, match="must be a postgresql:// URL"):
            open_store()

    def test_an_unreachable_server_is_named_without_its_password(self):
        with pytest.raises(StoreError, match=r"cannot reach the PostgreSQL database 'postgresql://u:\*\*\*@127.0.0.1:1/x'"):
            open_store("postgresql://u:secret@127.0.0.1:1/x")


class TestLostConnection:
    """A class's PostgreSQL server restarted, or a connection dropped by the network: each kernel's store says so
    once, for the request that failed, and the next request works on a new connection (nothing is retried by
    itself, so no move is made twice)."""

    @staticmethod
    def _drop_connections(url: str) -> int:
        import psycopg
        with psycopg.connect(url, autocommit=True) as admin:
            return admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                 "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()[0]

    def test_the_next_request_reconnects(self, postgres_server):
        import psycopg
        schema = f"lost_{os.getpid()}"
        with psycopg.connect(postgres_server.url("aluette_tests"), autocommit=True) as admin:
            admin.execute(f"CREATE SCHEMA {schema}")
        url = postgres_server.url("aluette_tests", options=f"-csearch_path%3D{schema}")
        service = TableService(open_store(url))
        try:
            service.create_table("before", seed=1)
            assert self._drop_connections(url) >= 1
            with pytest.raises(StoreError, match="the connection was lost: the next request opens a new one"):
                service.create_table("lost", seed=2)
            service.create_table("after", seed=3)
            assert sorted(service.table_names()) == ["after", "before"]
        finally:
            service.close()
            with psycopg.connect(postgres_server.url("aluette_tests"), autocommit=True) as admin:
                admin.execute(f"DROP SCHEMA {schema} CASCADE")
