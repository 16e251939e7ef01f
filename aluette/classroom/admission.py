"""The door of the students' app on Solara's server: an ASGI middleware in front of Solara's own Starlette app
(``classroom/solara_asgi.py`` puts them together; uvicorn serves it, as Solara's self-hosting guide does).

- **Token**: with a token set, nothing is served without it: the address given out carries ``?token=...``; the
  first page with it sets an ``aluette-token`` cookie (HttpOnly, SameSite=Strict) that the page's later requests
  and its websocket carry. Anything else gets HTTP 403 with a page saying what to open.
- **Admission**, as :class:`~aluette.classroom.server.ClassroomIdentityProvider` does for Voilà: each ``GET`` of a
  lesson's page is admitted while its client address holds fewer than ``per_address`` sessions, has opened fewer
  than ``per_minute`` pages in the last minute, and the room holds fewer than ``max_sessions``; otherwise the
  student gets the "room is full" page (HTTP 503, ``Retry-After: 60``). A session is a page admitted and not yet
  connected (for ``pending_s`` seconds), or a virtual kernel its websocket opened, while Solara keeps it
  (``live()``: a closed tab's kernel goes at once with the page's close request, a lost one when Solara culls it,
  ``SOLARA_KERNEL_CULL_TIMEOUT``). A websocket that would open a kernel beyond the caps is refused too (a crafted
  client need not fetch the page first). A page's kernel takes at most ``per_kernel`` websockets at once (a
  reconnecting page may overlap its old one): each holds a thread and a file of the server, so a crafted client
  opening hundreds on its own kernel is refused beyond them.
- **The teacher's notebooks** (:data:`~aluette.classroom.TEACHER_NOTEBOOKS`, served by ``make teacher`` only): their
  address gets HTTP 404 with a page saying so, as the Voilà app answers.
- **Links between notebooks**: ``/NAME.ipynb`` (a notebook's link to another, by file name) is moved (HTTP 301) to
  that lesson's page, ``/NAME``, and so is ``/NAME/anything`` (Solara would serve it as the lesson's page, outside
  the count of pages a minute); only the page's own assets under ``/NAME/static/`` pass.
- **The server's figures** (Solara's ``/resourcez``: CPU, memory, connections) are for the computer that runs it: any
  other address gets HTTP 404.
"""

from __future__ import annotations

import asyncio
import collections
import gzip
import hmac
import json
import re
import time
from http.cookies import SimpleCookie
from typing import Callable
from urllib.parse import parse_qs

from . import TEACHER_NOTEBOOKS
from .ledger import Ledger
from .pages import refusal_page

__all__ = ["Admission", "TOKEN_COOKIE", "PageHtml", "Starts", "PAGE_STARTS", "MAX_PAGE_BYTES"]

TOKEN_COOKIE = "aluette-token"
KERNELS = "/jupyter/api/kernels/"
CLOSE = "/_solara/api/close/"  # a leaving tab's close request (Solara's route), with ?session_id=<the page>
FULL = "The room is full, try again in a minute"
TEACHER_PAGES = frozenset(name.removesuffix(".ipynb") for name in TEACHER_NOTEBOOKS)


#: What a lesson's page may fetch under its own address (``/NAME/static/...``: its favicon, relative to ``/NAME/``).
PAGE_ASSETS = ("static/", "_solara/")
#: What a page's kernel may receive in all, reconnections included: a page's clicks and typed text are a few
#: hundred bytes each, a paste at most a box's limit (20,000 characters); crafted widget updates are ended there.
MAX_PAGE_BYTES = 8 * 2**20
#: Who may read Solara's ``/resourcez`` (the server's CPU, memory and connections): the computer that runs it.
OPERATOR_ADDRESSES = frozenset({"127.0.0.1", "::1"})


class Starts:
    """New pages start ``at_once`` at a time in this worker, in the order their websockets came.

    A page's start (Solara makes its virtual kernel and thread, renders the app, builds the lesson and sends its
    widgets) is CPU work of the worker's one core (the GIL). Thirty pages started together share that core thirty
    ways with each other and with the event loop that carries every student's clicks, so all thirty are drawn near
    the end and clicks wait behind them. Started in turn, each page is drawn within a page's time of its turn, the
    last no later than before, and the event loop keeps its share: the door holds a new page's websocket
    (:meth:`enter`, before Solara accepts it) until the page before it is drawn (:meth:`started`, called from the page
    once rendered: ``classroom/solara_app.py``), its websocket has gone, or ``longest`` seconds have passed.

    Two at a time by default: one page is built while the next makes its kernel, and a crafted websocket that never
    asks for its page holds one place for at most ``longest`` seconds, never the door.

    Everything but :meth:`started` runs on the worker's event loop; :meth:`started` may be called from any thread."""

    def __init__(self, at_once: int = 2, longest: float = 3.0):
        self.at_once, self.longest = at_once, longest
        self._starting: dict[str, asyncio.TimerHandle] = {}  # kernel id -> its time limit
        self._waiting: collections.deque = collections.deque()  # (kernel id, future) in the order they came
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def starting(self) -> list[str]:
        return list(self._starting)

    @property
    def waiting(self) -> list[str]:
        return [kernel_id for kernel_id, future in self._waiting if not future.done()]

    async def enter(self, kernel_id: str) -> None:
        """Wait for ``kernel_id``'s turn to start (at once if no page is starting)."""
        self._loop = asyncio.get_running_loop()
        if len(self._starting) < self.at_once and not self.waiting:
            self._start(kernel_id)
            return
        future = self._loop.create_future()
        self._waiting.append((kernel_id, future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # its turn came as it was cancelled: pass it on
                self.leave(kernel_id)
            else:
                future.cancel()
            raise

    def _start(self, kernel_id: str) -> None:
        self._starting[kernel_id] = self._loop.call_later(self.longest, self.leave, kernel_id)

    def leave(self, kernel_id: str) -> None:
        """``kernel_id`` no longer starting (drawn, gone or too long): the next in line starts. Event loop only."""
        limit = self._starting.pop(kernel_id, None)
        if limit is None:
            return
        limit.cancel()
        while self._waiting and len(self._starting) < self.at_once:
            waiting, future = self._waiting.popleft()
            if not future.done():
                self._start(waiting)
                future.set_result(None)

    def started(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` is drawn (from its kernel's thread): the next page may start."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.leave, kernel_id)


#: The starts of this worker process's pages, shared by its door (``classroom/solara_asgi.py``) and its pages
#: (``classroom/solara_app.py``, which says when each is drawn).
PAGE_STARTS = Starts()


class Admission:
    """ASGI middleware: token check and admission of lesson pages in front of ``app`` (see the module)."""

    def __init__(self, app, lessons: Callable[[], set], live: Callable[[], set], token: str | None = None,
                 max_sessions: int = 40, per_address: int = 4, per_minute: int = 12, pending_s: float = 60.0,
                 per_kernel: int = 2, max_message: int = 2**20, max_page_bytes: int = MAX_PAGE_BYTES,
                 max_comm_opens: int = 16,
                 max_comm_open_size: int = 2**16, clock: Callable[[], float] = time.monotonic,
                 ledger: Ledger | None = None, close_page: Callable[[str, str], None] | None = None,
                 starts: Starts | None = None):
        self.app, self.lessons, self.live, self.token = app, lessons, live, token
        self.max_sessions, self.per_address, self.per_minute, self.pending_s = (max_sessions, per_address,
                                                                                per_minute, pending_s)
        self.clock, self.per_kernel = clock, per_kernel
        self.max_message, self.max_comm_opens, self.max_comm_open_size = max_message, max_comm_opens, max_comm_open_size
        self.max_page_bytes = max_page_bytes
        #: the room's places, shared by every worker process of the server (:mod:`aluette.classroom.ledger`)
        self.ledger = ledger if ledger is not None else Ledger()
        #: closes a page of a kernel this worker holds (Solara's own close: ``classroom/solara_asgi.py``)
        self.close_page = close_page
        #: new pages start in turn (None: all at once)
        self.starts = starts
        # a kernel's websockets and comm_opens are counted by the worker that holds the kernel
        self.sockets: collections.Counter = collections.Counter()  # kernel id -> its websockets open now
        self.opens: collections.Counter = collections.Counter()  # kernel id -> comm_open messages it received
        self.received: collections.Counter = collections.Counter()  # kernel id -> bytes of messages it received

    # ------------------------------------------------------------------ accounting
    def _pruned(self, db) -> None:
        # a kernel whose websocket is open counts even before Solara has made its context (made in the socket's
        # thread after the upgrade): otherwise sockets opened back to back are each forgotten at the next check
        db.prune(self.live() | set(self.sockets), self.clock(), self.pending_s)

    def prune(self) -> None:
        """Forget what has gone (closed or culled kernels of this worker, stale pending pages): called at every
        check, and now and then by the server (``classroom/solara_asgi.py``), so that a worker with no requests
        does not keep its places counted for the others."""
        with self.ledger.transaction() as db:
            closes = db.take_closes()
        for kernel_id, page_id in closes:  # a tab closed whose close request reached another worker
            if self.close_page is not None and kernel_id in self.live():
                self.close_page(kernel_id, page_id)
        with self.ledger.transaction() as db:
            self._pruned(db)

    def sessions(self, address: str | None = None) -> int:
        """Sessions held by ``address`` (all addresses when None), in every worker: live kernels it opened, pages
        not yet connected."""
        with self.ledger.transaction() as db:
            self._pruned(db)
            return db.sessions(address)

    def _refusal(self, db, address: str, page: bool) -> str | None:
        """Why a new session from ``address`` is refused (the page's paragraph), or None. ``page``: a page load
        (counted against ``per_minute``), else a websocket opening a kernel."""
        self._pruned(db)
        if page and db.pages(address) >= self.per_minute:
            return (f"This computer opened {self.per_minute} pages in the last minute, as many as the server "
                    "prepares for one computer. Wait a minute before opening or reloading another.")
        if db.sessions(address) >= self.per_address:
            return (f"This computer already has {self.per_address} pages of the tutorial open. Close the tabs "
                    "you no longer use: their places are freed at once (or within two minutes if the browser "
                    "could not say so).")
        if db.sessions() >= self.max_sessions:
            return (f"The server already serves {self.max_sessions} open pages, as many as it can hold. A place "
                    "is freed when someone closes a tab.")
        return None

    def admit_page(self, address: str) -> str | None:
        """A page load from ``address``: None and its place taken, or why it is refused (one transaction)."""
        with self.ledger.transaction() as db:
            reason = self._refusal(db, address, page=True)
            if reason is None:
                db.admit_page(address, self.clock())
            return reason

    def admit_kernel(self, kernel_id: str, address: str) -> bool:
        """A websocket from ``address`` for ``kernel_id``: True if it may go on (a kernel of the room, the page
        this address was admitted for, or a new place within the caps), the kernel then counted as its."""
        with self.ledger.transaction() as db:
            if db.knows(kernel_id) or kernel_id in self.live():
                return True
            if not db.take_pending(address) and self._refusal(db, address, page=False) is not None:
                return False
            db.own(kernel_id, address)
            return True

    # ------------------------------------------------------------------ ASGI
    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        address = (scope.get("client") or ("unknown",))[0]
        path = scope.get("path", "")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        by_query = self.token is not None and self._matches(query.get("token", [""])[0])
        if self.token is not None and not (by_query or self._matches(self._cookie(scope))):
            return await self._refuse(scope, send, 403, "This app needs its token",
                                      "Open the address your teacher gave, with its ?token=... part.")
        if scope["type"] == "http" and path.strip("/").removesuffix(".ipynb") in TEACHER_PAGES:
            return await self._refuse(scope, send, 404, "This page is for the teacher",
                                      "The teacher's guide is served on the teacher's own page, not in the "
                                      "students' app.")
        if (scope["type"] == "http" and path.endswith(".ipynb") and "/" not in path.strip("/")
                and path.strip("/").removesuffix(".ipynb") in self.lessons()):
            return await self._moved(scope, send, path.removesuffix(".ipynb"))
        lesson, _, rest = path.strip("/").partition("/")
        if (scope["type"] == "http" and rest and not rest.startswith(PAGE_ASSETS)
                and lesson.removesuffix(".ipynb") in self.lessons()):
            # Solara would serve /08_play_a_match/anything as the lesson's page: a page must have one address, or
            # a reload loop through made-up sub-paths would pass the pages-per-minute cap
            return await self._moved(scope, send, "/" + lesson.removesuffix(".ipynb"))
        if scope["type"] == "http" and path.rstrip("/") == "/resourcez" and address not in OPERATOR_ADDRESSES:
            return await self._refuse(scope, send, 404, "Not in the students' app",
                                      "The server's figures are for the teacher, on the computer that runs it.")
        if (scope["type"] == "http" and scope.get("method") == "POST" and path.startswith(CLOSE)
                and self._closed_elsewhere(path[len(CLOSE):].strip("/"), query.get("session_id", [""])[0])):
            return await self._ok(send)
        if scope["type"] == "http" and scope.get("method") == "GET" and path.strip("/") in self.lessons():
            reason = self.admit_page(address)
            if reason is not None:
                return await self._refuse(scope, send, 503, FULL, reason)
        if scope["type"] == "websocket" and path.startswith(KERNELS):
            kernel_id = path[len(KERNELS):].split("/")[0]
            new = kernel_id not in self.live() and not self.sockets[kernel_id]
            if not self.admit_kernel(kernel_id, address):
                return await self._refuse(scope, send, 403, FULL, "")
            if self.sockets[kernel_id] >= self.per_kernel:
                return await self._refuse(scope, send, 403, FULL, "")
            self.sockets[kernel_id] += 1
            try:
                if new and self.starts is not None:
                    await self.starts.enter(kernel_id)
                return await self.app(scope, self._bounded(receive, kernel_id), send)
            finally:
                if self.starts is not None:
                    self.starts.leave(kernel_id)
                self.sockets[kernel_id] -= 1
                if not self.sockets[kernel_id]:
                    del self.sockets[kernel_id]
                    if kernel_id not in self.live():
                        self.opens.pop(kernel_id, None)
                        self.received.pop(kernel_id, None)
        if by_query and scope["type"] == "http":
            send = self._with_cookie(send)
        return await self.app(scope, receive, send)

    def _closed_elsewhere(self, kernel_id: str, page_id: str) -> bool:
        """A tab's close request for a kernel another worker holds: left in the ledger for that worker (its
        :meth:`prune`, within a second), and True; False for a kernel of this worker's (Solara closes it)."""
        if not page_id or len(page_id) > 64 or len(kernel_id) > 64 or kernel_id in self.live():
            return False
        with self.ledger.transaction() as db:
            if not db.knows(kernel_id):
                return False
            db.ask_close(kernel_id, page_id)
            return True

    @staticmethod
    async def _ok(send):
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    def _bounded(self, receive, kernel_id: str):
        """A websocket's ``receive`` that ends the connection (as a disconnect, code 1009) at a message above
        ``max_message`` bytes, a ``comm_open`` above ``max_comm_open_size``, more than ``max_comm_opens`` of them on
        the page's kernel, or once the page's kernel has received ``max_page_bytes`` in all (a page's clicks and
        typed text are a few hundred bytes each; crafted widget updates would otherwise set every text of a page's
        ~100 widgets to 1 MiB each): a crafted client cannot grow the process of the class without bound (as
        Voilà's bounds do)."""

        async def receiving():
            message = await receive()
            if message["type"] != "websocket.receive":
                return message
            data = message.get("text") or message.get("bytes") or b""
            size = len(data.encode() if isinstance(data, str) else data)
            self.received[kernel_id] += size
            if size > self.max_message or self.received[kernel_id] > self.max_page_bytes:
                return {"type": "websocket.disconnect", "code": 1009}
            if _msg_type(data) == "comm_open":
                self.opens[kernel_id] += 1
                if size > self.max_comm_open_size or self.opens[kernel_id] > self.max_comm_opens:
                    return {"type": "websocket.disconnect", "code": 1009}
            return message
        return receiving

    def _matches(self, given: str) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())

    @staticmethod
    def _cookie(scope) -> str:
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                morsel = SimpleCookie(value.decode("latin-1")).get(TOKEN_COOKIE)
                if morsel is not None:
                    return morsel.value
        return ""

    def _with_cookie(self, send):
        cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode()

        async def sending(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)
        return sending

    @staticmethod
    async def _moved(scope, send, path: str):
        """HTTP 301 to ``path`` (with the request's query): a notebook's own file name, as the notebooks link to
        each other (``02_setup.ipynb``, Voilà's address), leads to its page (``/02_setup``)."""
        query = scope.get("query_string", b"")
        location = path.encode() + (b"?" + query if query else b"")
        await send({"type": "http.response.start", "status": 301,
                    "headers": [(b"location", location), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    @staticmethod
    async def _refuse(scope, send, status: int, title: str, reason: str):
        if scope["type"] == "websocket":  # closing before accepting: the upgrade is refused with HTTP 403
            await send({"type": "websocket.close", "code": 1008})
            return
        body = refusal_page(title, *filter(None, [reason]), "Aluette, the classroom app.").encode()
        headers = [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-store"),
                   (b"content-length", str(len(body)).encode())]
        if status == 503:
            headers.append((b"retry-after", b"60"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _msg_type(data) -> str | None:
    """The ``msg_type`` of a Jupyter message sent as JSON (Solara's page sends JSON), else None."""
    try:
        got = json.loads(data)
    except ValueError:
        return None
    header = got.get("header") if isinstance(got, dict) else None
    return header.get("msg_type") if isinstance(header, dict) else None


class PageHtml:
    """ASGI middleware: two fixes to every HTML page of ``app`` (Solara's page template), each a WCAG rule:

    - the page says its language, ``<html lang="en">`` (3.1.1: a screen reader picks its voice from it; the template
      has a bare ``<html>``);
    - the page may be zoomed (1.4.4, text resized to 200%: a student on a phone pinches to read): the template's
      viewport says ``maximum-scale=1, user-scalable=no``, which is taken out.

    Solara's pages are small, so an HTML response is held until its end, changed (under its gzip encoding, if any),
    and sent with its new length."""

    #: What Solara's template adds to its viewport to forbid zooming (``solara/server/templates/solara.html.j2``).
    NO_ZOOM = re.compile(rb"\s*(?:maximum-scale\s*=\s*[0-9.]+|user-scalable\s*=\s*(?:no|0))\s*,?", re.I)

    def __init__(self, app, lang: str = "en"):
        self.app, self.tag = app, f'<html lang="{lang}"'.encode()

    def fixed(self, html: bytes) -> bytes:
        """``html`` with its language said and its zoom allowed (each only if needed)."""
        if html[:200].lower().count(b"<html") == 1 and b"<html lang=" not in html[:200].lower():
            html = html.replace(b"<html", self.tag, 1)
        viewport = re.search(rb'<meta name="viewport" content="([^"]*)"', html[:4000])
        if viewport:
            allowed = self.NO_ZOOM.sub(b"", viewport.group(1)).strip().rstrip(b",")
            html = html[:viewport.start(1)] + allowed + html[viewport.end(1):]
        return html

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start, body = None, []

        async def sending(message):
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                if not headers.get(b"content-type", b"").startswith(b"text/html"):
                    return await send(message)
                start = message
                return None
            if start is None:
                return await send(message)
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return None
            page = b"".join(body)
            gzipped = dict(start.get("headers", [])).get(b"content-encoding") == b"gzip"
            html = gzip.decompress(page) if gzipped else page
            changed = self.fixed(html)
            if changed != html:
                page = gzip.compress(changed) if gzipped else changed
            headers = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
            await send({**start, "headers": [*headers, (b"content-length", str(len(page)).encode())]})
            await send({"type": "http.response.body", "body": page})
        return await self.app(scope, receive, sending)
