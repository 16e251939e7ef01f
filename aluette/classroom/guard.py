"""The students' app's HTTP connections, guarded before any request is read (issue 22, §1).

uvicorn's h11 protocol waits for a request's headers as long as the client likes, and takes as many connections
from one address as the operating system gives files: 45,000 connections that never finished their headers filled
both workers (20,000 open files each), no student could connect, and each failed ``accept`` wrote a traceback to the
log. :class:`GuardedH11Protocol` (``uvicorn --http aluette.classroom.guard:GuardedH11Protocol``, as
:func:`aluette.classroom.command.solara_command` starts the app) adds what a front server such as nginx would:

* **a header timeout**: a connection that has not sent a whole request's headers within :data:`HEADER_TIMEOUT`
  seconds of its first byte (or of its opening) is closed; a websocket, once upgraded, is no longer this protocol's;
* **a cap per address**: one client address holds at most :data:`MAX_CONNECTIONS_PER_ADDRESS` open connections in a
  worker (a page holds one websocket and a browser's few HTTP connections; a class behind one school router stays
  far below it); the next is closed as it opens;
* **quiet failures**: the event loop already waits a second before accepting again when the process is out of
  files; its message, and this module's own, are written at most once a minute per cause, on one short line; the
  server's tracebacks of a page's failed connection (:class:`ShortTracebacks`) are written whole once per cause.

``ALUETTE_HEADER_TIMEOUT`` and ``ALUETTE_MAX_CONNECTIONS_PER_ADDRESS`` change the two bounds (the tests use short
ones).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Optional

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["GuardedH11Protocol", "HEADER_TIMEOUT", "MAX_CONNECTIONS_PER_ADDRESS", "PROTOCOL", "Quiet", "quiet",
           "ShortTracebacks", "KNOWN_RACES"]

#: Seconds a connection may take to send a request's headers.
HEADER_TIMEOUT = float(os.environ.get("ALUETTE_HEADER_TIMEOUT", "10"))
#: Open connections one client address may hold in one worker.
MAX_CONNECTIONS_PER_ADDRESS = int(os.environ.get("ALUETTE_MAX_CONNECTIONS_PER_ADDRESS", "256"))
#: uvicorn's ``--http`` value for this protocol.
PROTOCOL = "aluette.classroom.guard:GuardedH11Protocol"
#: Forget the addresses of closed connections once this many addresses are remembered.
_PRUNE_AT = 4096

log = logging.getLogger("aluette.classroom")


class Quiet:
    """One short log line per cause per minute (the later ones of the minute counted in the next)."""

    def __init__(self, every: float = 60.0):
        self.every = every
        self._last: dict[str, float] = {}
        self._dropped: dict[str, int] = {}

    def warn(self, cause: str, line: str) -> None:
        now = time.monotonic()
        if now - self._last.get(cause, -self.every) < self.every:
            self._dropped[cause] = self._dropped.get(cause, 0) + 1
            return
        dropped = self._dropped.pop(cause, 0)
        self._last[cause] = now
        log.warning("%s%s", line, f" ({dropped} more in the last minute)" if dropped else "")


#: The classroom server's quiet log (every worker process has its own).
quiet = Quiet()
_open: dict[str, set] = {}
_loops: set[int] = set()


def _admit(host: Optional[str], transport: asyncio.BaseTransport) -> bool:
    """Count ``transport`` for ``host`` unless the host holds :data:`MAX_CONNECTIONS_PER_ADDRESS` open ones."""
    if host is None:
        return True
    if len(_open) > _PRUNE_AT:
        for key in [k for k, held in _open.items() if all(t.is_closing() for t in held)]:
            del _open[key]
    held = _open.setdefault(host, set())
    if len(held) >= MAX_CONNECTIONS_PER_ADDRESS:
        held.difference_update([t for t in held if t.is_closing()])
        if len(held) >= MAX_CONNECTIONS_PER_ADDRESS:
            return False
    held.add(transport)
    return True


def _quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Make the loop's "out of system resource" messages (one per failed ``accept``) one short line a minute."""
    if id(loop) in _loops:
        return
    _loops.add(id(loop))
    previous = loop.get_exception_handler()

    def handler(loop, context):
        message = str(context.get("message", ""))
        if message.startswith("socket.accept() out of system resource"):
            quiet.warn("accept", f"cannot accept a connection: {context.get('exception')!s:.120}; waiting a "
                                  f"second before the next")
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


#: Solara's own harmless races, written in short from the first time (the start of the exception's text). A page
#: whose websocket is closed and opened again at once has two sockets for a moment; on a busy server the first's
#: close can be handled after the second's, and Solara's ``page_disconnect`` then asserts on a page already
#: disconnected (a 9 KB traceback, seen in stop 39's tests; the page itself is unharmed).
KNOWN_RACES = ("cannot disconnect a page that is in state",)


class ShortTracebacks(logging.Filter):
    """A log filter for the server's "Exception in ASGI application" records: the first of each cause (the
    exception's type, the innermost of a group) keeps its traceback, so that a bug is seen whole; the next ones are
    one short line a minute (a crafted frame repeated would otherwise write kilobytes each time). Solara's
    :data:`KNOWN_RACES` are short from the first."""

    def __init__(self, log: Quiet = quiet):
        super().__init__()
        self.log = log
        self._seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info or record.exc_info[1] is None:
            return True
        error = record.exc_info[1]
        while isinstance(error, BaseExceptionGroup) and error.exceptions:
            error = error.exceptions[0]
        cause = type(error).__name__
        known = str(error).startswith(KNOWN_RACES)
        if not known and cause not in self._seen:
            self._seen.add(cause)
            return True
        self.log.warn(f"asgi {cause}{' race' if known else ''}", f"{record.getMessage()}: {cause}: {str(error)[:160]}")
        return False


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header timeout and a cap of open connections per address (see the module)."""

    _header_timer: Optional[asyncio.TimerHandle] = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        _quiet_accept_errors(self.loop)
        host = self.client[0] if self.client else None
        if not _admit(host, transport):
            quiet.warn(f"cap {host}", f"{host} holds {MAX_CONNECTIONS_PER_ADDRESS} connections already: "
                                       f"closing its new ones")
            transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._check_headers()

    def handle_events(self) -> None:
        super().handle_events()
        self._check_headers()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._disarm()
        super().connection_lost(exc)

    # ------------------------------------------------------------------ the header timer
    def _waiting_for_headers(self) -> bool:
        return (self.transport.get_protocol() is self and not self.transport.is_closing()
                and self.conn.their_state is h11.IDLE)

    def _check_headers(self) -> None:
        if not self._waiting_for_headers():
            self._disarm()  # a request is under way, or the connection became a websocket
        elif self._header_timer is None and self.conn.trailing_data[0]:
            self._arm()  # the first bytes of the next request on a kept-alive connection

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT, self._header_timeout)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self._waiting_for_headers():
            host = self.client[0] if self.client else "?"
            quiet.warn(f"slow {host}", f"closed a connection from {host} that sent no request headers within "
                                        f"{HEADER_TIMEOUT:g} s")
            self.transport.close()
