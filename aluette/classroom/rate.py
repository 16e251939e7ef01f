"""How fast a page may send messages (issue 22, §2: four websockets from one address sending small requests as fast as
they could pushed another student's clicks to a p95 of 4 s, and the byte budget never tripped).

A token bucket per page (its kernel) and one per client address: a page's messages are its student's clicks, typed
characters and the widgets' own replies, a few a second with bursts of a few dozen (a card played, a table redrawn);
the buckets let those through untouched and stop a page, or one computer's pages, that keeps sending faster than any
person can. Beyond them the websocket is closed with code 1008 and a reason the page can show, and the server stops
reading it. The same :class:`Buckets` serve Solara's door (:class:`MessageRate`, an ASGI middleware) and Voilà's
kernel websocket (:class:`aluette.classroom.server.ClassroomConnection`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

__all__ = ["Buckets", "MessageRate", "PAGE_RATE", "PAGE_BURST", "ADDRESS_RATE", "ADDRESS_BURST", "REASON",
           "CLOSE_CODE"]

#: A page's messages a second, sustained, and the burst it may send at once (a page of 01 asks for its ~280 widgets'
#: states as it opens).
PAGE_RATE, PAGE_BURST = 40.0, 400.0
#: One computer's (all its pages') messages a second, sustained, and its burst: a teacher rehearsing four seats.
ADDRESS_RATE, ADDRESS_BURST = 200.0, 2000.0
#: The websocket close code (policy violation) and the reason sent with it.
CLOSE_CODE = 1008
REASON = "This page sent messages faster than anyone clicks; reload it to go on."
#: Buckets of addresses not heard from are forgotten once this many are kept.
_KEEP = 4096


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class Buckets:
    """Token buckets per page and per address; :meth:`take` says whether one more message may pass."""

    page_rate: float = PAGE_RATE
    page_burst: float = PAGE_BURST
    address_rate: float = ADDRESS_RATE
    address_burst: float = ADDRESS_BURST
    clock: Callable[[], float] = time.monotonic
    _pages: dict = field(default_factory=dict)
    _addresses: dict = field(default_factory=dict)

    @staticmethod
    def _take(table: dict, key: str, rate: float, burst: float, now: float) -> bool:
        bucket = table.get(key)
        if bucket is None:
            if len(table) >= _KEEP:  # forget the full (idle) ones: a full bucket is the same as a new one
                for old in [k for k, b in table.items() if b.tokens + (now - b.at) * rate >= burst]:
                    del table[old]
            bucket = table[key] = _Bucket(burst, now)
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.at) * rate)
        bucket.at = now
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def take(self, page: str, address: str) -> bool:
        """One message of ``page`` from ``address``: True if it may pass (both buckets had a token)."""
        now = self.clock()
        page_ok = self._take(self._pages, page, self.page_rate, self.page_burst, now)
        return self._take(self._addresses, address, self.address_rate, self.address_burst, now) and page_ok


class MessageRate:
    """ASGI middleware: the messages of each kernel websocket (paths under ``prefix``) pass through :class:`Buckets`;
    a socket over its rate is closed (:data:`CLOSE_CODE`, :data:`REASON`), the app sees it disconnect, and nothing
    more is sent on it."""

    def __init__(self, app, prefix: str, buckets: Optional[Buckets] = None):
        self.app, self.prefix = app, prefix
        self.buckets = buckets if buckets is not None else Buckets()
        self.closed = 0  # sockets closed for their rate (for the tests and the benchmark)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or not scope.get("path", "").startswith(self.prefix):
            return await self.app(scope, receive, send)
        page = scope["path"][len(self.prefix):].split("/")[0]
        address = (scope.get("client") or ("unknown",))[0]
        closed = False

        async def receiving():
            nonlocal closed
            message = await receive()
            if message["type"] != "websocket.receive" or closed:
                return message
            if self.buckets.take(page, address):
                return message
            closed = True
            self.closed += 1
            await send({"type": "websocket.close", "code": CLOSE_CODE, "reason": REASON})
            return {"type": "websocket.disconnect", "code": CLOSE_CODE}

        async def sending(message):
            if not closed:
                await send(message)

        return await self.app(scope, receiving, sending)
