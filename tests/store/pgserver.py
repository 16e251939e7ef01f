"""A throwaway PostgreSQL server for the store's tests and benchmark: Debian's ``postgresql`` binaries, a cluster in a
temporary folder, listening on 127.0.0.1 (and a Unix socket in that folder) on a free port only, stopped and removed
at the end.

PostgreSQL refuses to run as root: as root the cluster's folder is given to the ``postgres`` user and every command
runs through ``runuser -u postgres``; as another user, as that user.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

from tests.ports import free_port

#: Where Debian puts the server's binaries (``/usr/lib/postgresql/<major>/bin``); the newest major is used.
PG_GLOB = "/usr/lib/postgresql/*/bin"
MISSING = ("PostgreSQL's server binaries (initdb, pg_ctl) are missing: on Debian, apt-get install postgresql "
           "(.ci/run does it)")


def find_bin() -> Optional[Path]:
    """The folder of ``initdb`` and ``pg_ctl`` (``ALUETTE_PG_BIN`` or the newest Debian major), or ``None``."""
    given = os.environ.get("ALUETTE_PG_BIN")
    candidates = [given] if given else sorted(glob.glob(PG_GLOB), key=lambda p: int(Path(p).parent.name)
                                               if Path(p).parent.name.isdigit() else 0, reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


class PostgresServer:
    """Start with :meth:`start`, stop with :meth:`stop` (or use it as a context manager).

    Args:
        fsync: keep PostgreSQL's fsync on (the benchmark measures with it; the tests turn it off for speed).
    """

    user = "aluette"

    def __init__(self, *, fsync: bool = False, extra: str = ""):
        self.bin = find_bin()
        if self.bin is None:
            raise RuntimeError(MISSING)
        self.fsync = fsync
        self.extra = extra
        self.root: Optional[Path] = None
        self.port = 0
        self._as_root = os.geteuid() == 0

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        command = [*args]
        if self._as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode:
            raise RuntimeError(f"{' '.join(args[:2])} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
        return result

    def start(self) -> "PostgresServer":
        self.root = Path(tempfile.mkdtemp(prefix="aluette-pg-"))
        if self._as_root:
            shutil.chown(self.root, "postgres", "postgres")
        os.chmod(self.root, 0o700)
        data = self.root / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", self.user, "-A", "trust", "-E", "UTF8",
                  "--no-sync", "--locale=C")
        self.port = free_port()
        self._pg_ctl_start()
        return self

    def _pg_ctl_start(self) -> None:
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c max_connections=200"
                   + ("" if self.fsync else " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
                   + (f" {self.extra}" if self.extra else ""))
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-o", options, "-l",
                  str(self.root / "server.log"), "-w", "-t", "60", "start")

    def crash_and_restart(self) -> None:
        """Stop the server as a crash does (``pg_ctl stop -m immediate``: no checkpoint, WAL buffers not written),
        then start it again on the same folder and port: it recovers from what its WAL holds on disk."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        self._pg_ctl_start()

    def url(self, database: str = "postgres", **options: str) -> str:
        """A ``postgresql://`` URL of a database of this server."""
        query = "&".join(f"{k}={v}" for k, v in options.items())
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}" + (f"?{query}" if query else "")

    def create_database(self, name: str) -> str:
        """Create database ``name`` and return its URL."""
        import psycopg
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.root is None:
            return
        try:
            if (self.root / "data" / "postmaster.pid").exists():
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> "PostgresServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
