"""The command line behind ``make app`` (the students' app) and ``make teacher`` (the teacher's page).

``python -m aluette.classroom app --host=H --port=P [--token=T]`` serves the students' app on Solara's server
(:func:`solara_command`: :mod:`aluette.classroom.solara_asgi` with uvicorn, a worker process per core, each with a socket
of its own on Linux: :mod:`aluette.classroom.workers`); with
``--server=voila`` (``make app SERVER=voila``) on Voilà instead (:func:`voila_command`), as
``python -m aluette.classroom teacher`` always serves the teacher's page. It runs the server and prints the address
to give out, with "ready", once the server's first page can be served (until then, what it is doing:
:class:`aluette.classroom.workers.Readiness`). Voilà reads ``voila.json`` and ``voila.py`` (the landing page) and its
templates from the package (:data:`aluette.classroom.VOILA_CONFIG`); both servers serve the notebooks of ``--notebooks``
(:func:`aluette.classroom.notebooks_folder`: ``notebooks/`` in the current folder by default, a checkout's under
``make``), the one thing not in the package.

Decision of this project: Solara is the default because it holds a class of thirty in one process (a tenth of
Voilà's memory, pages and clicks sooner: docs/classroom.md, "Voilà or Solara"; docs/benchmarks.md).

Decision of this project: on the loopback address (127.0.0.1, localhost, ::1) the app needs no token, as before;
on any other address it never serves without one, on either server: the teacher's ``--token``
(``make app TOKEN=...``) or one made here with :mod:`secrets`, printed with the address.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import secrets
import socket
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from aluette.classroom import NOTEBOOKS_ENV, VOILA_CONFIG, ServeError, notebooks_folder
from aluette.classroom.guard import PROTOCOL as GUARDED_HTTP
from aluette.classroom.admission import TEACHER_ADDRESSES_ENV
from aluette.classroom.ledger import WORKERS_ENV
from aluette.classroom.workers import READY_DIR_ENV, Readiness, spread_by_kernel
from aluette.classroom.workers import run as run_server
from aluette.classroom.workers import serve as serve_workers

__all__ = ["ServeError", "Launch", "voila_command", "is_loopback", "main"]

TOKEN = re.compile(r"[A-Za-z0-9_-]{8,128}")
#: The students' app as uvicorn imports it (a module of the package: no ``--app-dir``), and its pages as Solara does.
ASGI_APP = "aluette.classroom.solara_asgi:app"
SOLARA_APP = "aluette.classroom.solara_app"


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach: ``localhost`` and the loopback IPs."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This machine's address on its network (no packet is sent: a UDP socket is only pointed at a private
    address), or its host name when it has no route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


@dataclass(frozen=True)
class Launch:
    """What :func:`voila_command` decided: the argv, the environment, the address to give out and the token
    (``None`` on the loopback address without a token)."""

    argv: list
    env: dict
    url: str
    token: str | None

    def fd_argv(self, fd: int) -> list:
        """The argv of one worker of a Solara server that serves the socket ``fd`` (:mod:`aluette.classroom.workers`):
        this launch's uvicorn argv without its address and its count of workers."""
        return [a for a in self.argv if not a.startswith(("--host=", "--port=", "--workers="))] + [f"--fd={fd}"]


def lesson_options(lesson: str, class_size: int, folder: Path | None = None) -> list[str]:
    """Voilà options for a lesson on one notebook (``lesson``: its number or file name, e.g. ``08``): a pool of
    ``class_size`` pre-heated kernels for it, started before the class and not refilled during it (an hour), and
    none for the other notebooks (they start on demand). Decision of this project: this is the only way Voilà
    gives a whole class the page at once (see README, "Serving the tutorial to a class")."""
    if not 1 <= class_size <= 60:
        raise ServeError(f"bad class size {str(class_size)[:10]!r}: 1 to 60 students")
    folder = notebooks_folder(folder)
    names = sorted(p.name for p in folder.glob("*.ipynb"))
    found = [n for n in names if lesson and (n == lesson or n.split("_")[0] == lesson.zfill(2))]
    if len(found) != 1:
        raise ServeError(f"no notebook {lesson[:20]!r} in {folder.name}/: give its number (e.g. 08) or file name")
    pools = {found[0]: {"pool_size": class_size}, "default": {"pool_size": 0}}
    return [f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}", "--VoilaKernelManager.fill_delay=3600"]


def voila_command(audience: str = "students", host: str = "127.0.0.1", port: int = 8888, token: str | None = None,
                  folder: Path | None = None, python: str = sys.executable, environ: dict | None = None,
                  extra: tuple = (), lesson: str | None = None, class_size: int = 30) -> Launch:
    """The Voilà command for the students' app (``audience="students"``) or the teacher's page (``"teacher"``).
    Off the loopback address a token is always set (``token`` or a new random one). With ``lesson``, the pool of
    pre-heated kernels is :func:`lesson_options`. ``folder``: the notebooks (:func:`~aluette.classroom.
    notebooks_folder`). Raises :class:`ServeError` for a token that is not 8-128 letters, digits, ``-`` or ``_``, an
    empty host, a port outside 1-65535, a folder without notebooks or an unknown lesson."""
    if audience not in ("students", "teacher"):
        raise ServeError(f"unknown audience {audience[:20]!r}: 'students' or 'teacher'")
    if not host or len(host) > 255 or any(c.isspace() for c in host):
        raise ServeError(f"bad host {host[:40]!r}: an IP address or a host name")
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ServeError(f"bad port {str(port)[:20]!r}: a number from 1 to 65535")
    if token is not None and not TOKEN.fullmatch(token):
        raise ServeError(f"bad token {token[:8]!r}...: use 8 to 128 letters, digits, '-' or '_'")
    folder = notebooks_folder(folder)
    if token is None and not is_loopback(host):
        token = secrets.token_urlsafe(16)
    env = dict(os.environ if environ is None else environ)
    for variable, path in [("JUPYTER_PATH", VOILA_CONFIG / "templates"), ("JUPYTER_CONFIG_PATH", VOILA_CONFIG)]:
        env[variable] = os.pathsep.join([str(path), *filter(None, [env.get(variable)])])
    argv = [python, "-m", "voila", "--no-browser", f"--Voila.ip={host}", f"--port={port}", "--Voila.port_retries=0"]
    if token is not None:
        argv.append(f"--Voila.token={token}")
    if audience == "teacher":
        # The teacher opens one page at a time: no pool of pre-heated kernels (it would hold ~1 GB).
        argv += ["--ClassroomIdentityProvider.audience=teacher", "--VoilaConfiguration.preheat_kernel=False"]
    if lesson is not None:
        argv += lesson_options(lesson, class_size, folder)
    argv += [*extra, str(folder)]
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    url = f"http://{shown}:{port}/" + (f"?token={token}" if token is not None else "")
    return Launch(argv, env, url, token)


#: Solara's settings for the students' app (environment variables Solara reads): a page whose tab is gone without
#: its close request is culled after a minute; no telemetry is sent; every notebook is run once at start (unless
#: ``ALUETTE_PREWARM=0`` is in the environment: each notebook is then run at its first page, as the tests do).
SOLARA_ENV = {"SOLARA_MODE": "production", "SOLARA_KERNEL_CULL_TIMEOUT": "60s",
              "SOLARA_TELEMETRY_MIXPANEL_ENABLE": "False", "MPLBACKEND": "agg", "ALUETTE_PREWARM": "1"}


#: At most this many worker processes by default: each holds every notebook once (~300 MB at a class's peak).
MAX_DEFAULT_WORKERS = 4


def default_workers() -> int:
    """One worker process per core of this computer (at most :data:`MAX_DEFAULT_WORKERS`): a page is built on
    one core (Python's GIL), so a class's pages are built as many at a time as there are workers."""
    return max(1, min(os.cpu_count() or 1, MAX_DEFAULT_WORKERS))


def teacher_addresses(text: str | None) -> tuple[str, ...]:
    """The teacher's computers' addresses from ``--teacher-address`` (comma-separated IP addresses).

    Raises:
        ServeError: one is not an IP address (quoted, cut to 40 characters), or more than 8 are given.
    """
    if not text:
        return ()
    if len(text) > 400:
        raise ServeError(f"--teacher-address is {len(text)} characters long: give at most 8 IP addresses")
    found = tuple(part.strip() for part in text.split(","))
    if len(found) > 8:
        raise ServeError(f"--teacher-address names {len(found)} computers: at most 8")
    for part in found:
        try:
            ipaddress.ip_address(part)
        except ValueError:
            raise ServeError(f"--teacher-address: {part[:40]!r} is not an IP address (e.g. 192.168.1.20)") from None
    return found


def solara_command(host: str = "127.0.0.1", port: int = 8888, token: str | None = None, folder: Path | None = None,
                   python: str = sys.executable, environ: dict | None = None, workers: int | None = None,
                   teachers: tuple = ()) -> Launch:
    """The students' app on Solara's server (:data:`ASGI_APP` with uvicorn): the same checks of host,
    port and token as :func:`voila_command`, and the same rule (off the loopback address, always a token). The
    token goes to the server in its environment (``ALUETTE_TOKEN``), not on its command line.

    ``workers`` uvicorn worker processes (default :func:`default_workers`, one per core) serve the class; they
    share one door (:func:`aluette.classroom.ledger.door_ledger`), told their number by ``ALUETTE_WORKERS``.
    ``teachers``: the teacher's computers' addresses, which hold as many pages as this computer
    (``ALUETTE_TEACHER_ADDRESSES``, :class:`~aluette.classroom.admission.Admission`)."""
    workers = default_workers() if workers is None else workers
    if not 1 <= workers <= 64:
        raise ServeError(f"--workers must be a whole number from 1 to 64, not {workers}")
    folder = notebooks_folder(folder)
    checked = voila_command("students", host, port, token, folder=folder, python=python, environ=environ)
    env = {**checked.env, **SOLARA_ENV, NOTEBOOKS_ENV: str(folder), "SOLARA_APP": SOLARA_APP}
    if checked.env.get("ALUETTE_PREWARM") == "0":
        env["ALUETTE_PREWARM"] = "0"
    env.pop("ALUETTE_TOKEN", None)
    if checked.token is not None:
        env["ALUETTE_TOKEN"] = checked.token
    env[WORKERS_ENV] = str(workers)
    env.pop(TEACHER_ADDRESSES_ENV, None)
    if teachers:
        env[TEACHER_ADDRESSES_ENV] = ",".join(teachers)
    argv = [python, "-m", "uvicorn", ASGI_APP, f"--host={host}",
            f"--port={port}", "--log-level=warning", "--no-access-log", f"--workers={workers}",
            f"--http={GUARDED_HTTP}"]
    return Launch(argv, env, checked.url, checked.token)


def probe_url(host: str, port: int, token: str | None) -> str:
    """The landing page's address as this computer reaches it (the loopback address for a server on every
    address), with the token: what :class:`~aluette.classroom.workers.Readiness` asks before saying "ready"."""
    if host in ("0.0.0.0", "::", "localhost"):
        host = "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token is not None else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aluette.classroom",
                                     description="Serve the tutorial: the students' app (on Solara's "
                                                 "server, or Voilà) or the teacher's page (Voilà).")
    parser.add_argument("audience", choices=["app", "teacher"], help="app: the students' app; teacher: the "
                                                                     "teacher's page")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--token", default=None, help="the token students type (made for you off the loopback)")
    parser.add_argument("--lesson", default=None, help="a lesson on one notebook (its number, e.g. 08): a warm "
                                                          "kernel for every student of the class on it")
    parser.add_argument("--class-size", type=int, default=30, help="students in the lesson (default 30)")
    parser.add_argument("--server", choices=["solara", "voila"], default="solara",
                        help="the students' app on Solara's server (default: a worker process per core) or on Voilà "
                             "(a kernel per page); the teacher's page is always Voilà")
    parser.add_argument("--workers", type=int, default=None,
                        help=f"Solara's server: worker processes (default: one per core, at most "
                             f"{MAX_DEFAULT_WORKERS}; here {default_workers()})")
    parser.add_argument("--teacher-address", default=None,
                        help="Solara's server: the teacher's computer (an IP address, or several comma-separated), "
                             "which may open as many pages as this one (8 by default, the others 4)")
    parser.add_argument("--notebooks", "--folder", dest="folder", type=Path, default=None,
                        help="the tutorial's folder of notebooks (default: notebooks/ in the current folder, or "
                             "$ALUETTE_NOTEBOOKS)")
    parser.add_argument("extra", nargs="*", help="more Voilà options, e.g. --ClassroomIdentityProvider.max_sessions=60")
    args, unknown = parser.parse_known_args(argv)
    try:
        if args.server == "solara" and args.audience == "app":
            teachers = teacher_addresses(args.teacher_address)
            if args.lesson or args.extra or unknown:
                raise ServeError("--lesson and Voilà options are for Voilà: add --server=voila "
                                 "(make app SERVER=voila)")
            workers = default_workers() if args.workers is None else args.workers
            launch = solara_command(args.host, args.port, args.token or None, folder=args.folder, workers=workers,
                                    teachers=teachers)
        else:
            if args.teacher_address:
                raise ServeError("--teacher-address is for Solara's server (make app without SERVER=voila)")
            if args.workers is not None:
                raise ServeError("--workers is for Solara's server (make app without SERVER=voila): Voilà runs a "
                                 "kernel process per page")
            launch = voila_command("teacher" if args.audience == "teacher" else "students", args.host, args.port,
                                   args.token or None, folder=args.folder, extra=(*args.extra, *unknown),
                                   lesson=args.lesson or None, class_size=args.class_size)
    except ServeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    who = "Teacher's page" if args.audience == "teacher" else "Students open"
    address = [f"{who}: {launch.url}"]
    if launch.token is not None:
        address.append(f"(token: {launch.token}; nothing is served without it)")
    # on every path the address is printed with "ready" once the first page can be served, and until then what the
    # server is doing (aluette.classroom.workers.Readiness)
    solara = args.server == "solara" and args.audience == "app"
    checked = probe_url(args.host, args.port, launch.token)
    with tempfile.TemporaryDirectory(prefix="aluette-ready-") as folder:
        if solara and spread_by_kernel():
            # a socket per worker, new connections spread over them by the system (aluette.classroom.workers); the
            # address is printed once every worker serves
            watch = Readiness(folder, workers, checked, address)
            return serve_workers(launch.fd_argv, {**launch.env, READY_DIR_ENV: folder}, args.host, args.port,
                                 workers, watch=watch)
        if solara:  # uvicorn's own workers (macOS): each says when it serves, by a file in the folder
            watch = Readiness(folder, workers, checked, address)
            return run_server(launch.argv, {**launch.env, READY_DIR_ENV: folder}, watch=watch)
        what = "the teacher's page" if args.audience == "teacher" else "the students' app on Voilà"
        return run_server(launch.argv, launch.env, watch=Readiness(None, 0, checked, address, what=what))
