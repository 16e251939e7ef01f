"""Every store test runs against both backends: ``backend`` is parametrised over SQLite (a file per test) and
PostgreSQL (a schema per test in one throwaway server per session, see :mod:`tests.store.pgserver`).

Without PostgreSQL's binaries the PostgreSQL half is skipped with a message on a developer's machine, and fails in CI
(``CI`` set), where ``.ci/run`` installs them."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import pytest

from aluette.store import TableService
from aluette.store.db import PostgresStore, SQLiteStore, Store

from .pgserver import MISSING, PostgresServer, find_bin

_SCHEMAS = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server():
    if find_bin() is None:
        if os.environ.get("CI"):
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    server = PostgresServer().start()
    try:
        server.create_database("aluette_tests")
        yield server
    finally:
        server.stop()


@dataclass
class Backend:
    """One database for one test: :meth:`store` opens a new connection to it (a new "kernel")."""

    name: str
    path: Optional[Path] = None
    url: Optional[str] = None

    def store(self) -> Store:
        return SQLiteStore(self.path) if self.name == "sqlite" else PostgresStore(self.url)

    def service(self, **kwargs) -> TableService:
        return TableService(self.store(), **kwargs)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, tmp_path):
    if request.param == "sqlite":
        yield Backend("sqlite", path=tmp_path / "tables.sqlite3")
        return
    server = request.getfixturevalue("postgres_server")
    import psycopg
    schema = f"test_{next(_SCHEMAS)}_{os.getpid()}"
    with psycopg.connect(server.url("aluette_tests"), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield Backend("postgresql", url=server.url("aluette_tests", options=f"-csearch_path%3D{schema}"))
    with psycopg.connect(server.url("aluette_tests"), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def service(backend):
    svc = backend.service()
    yield svc
    svc.close()
