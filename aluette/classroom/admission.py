"""The door of the students' app on Solara's server: :class:`Admission`, a chain of small pure-ASGI middlewares in
front of Solara's own Starlette app, one concern each, as Starlette composes its own (``TrustedHostMiddleware``,
``AuthenticationMiddleware``) and answering with Starlette's response classes (:mod:`aluette.classroom.solara_asgi`
puts them together; uvicorn serves it, as Solara's self-hosting guide does). The caps and the refusal pages' words
are :mod:`aluette.classroom.policy`'s, which Voilà's identity provider uses too; a French lesson's refusal is French.

- **Token**: with a token set, nothing is served without it: the address given out carries ``?token=...``; the
  first page with it sets an ``aluette-token`` cookie (HttpOnly, SameSite=Strict) that the page's later requests
  and its websocket carry. Anything else gets HTTP 403 with a page saying what to open.
- **Admission**, as :class:`~aluette.classroom.server.ClassroomIdentityProvider` does for Voilà: each ``GET`` of a
  lesson's page is admitted while its client address holds fewer than ``per_address`` sessions, has opened fewer
  than ``per_minute`` pages in the last minute, and the room holds fewer than ``max_sessions``; otherwise the
  student gets the "room is full" page (HTTP 503, ``Retry-After: 60``). The computer that runs the app
  (:data:`OPERATOR_ADDRESSES`) and the teacher's computer (``teacher_addresses``) hold ``operator_per_address``
  pages instead (the teacher rehearsing play together opens four seats and a lesson beside them).
- **A reload or a link to the next lesson replaces the page it leaves**: the browser asks for the new page before
  the old one has gone (its close request races the new page's request), so a student at a cap would lose the page
  to the "room is full" one. A page's request that says it replaces one of the same computer's pages (a reload:
  ``Cache-Control: max-age=0`` or ``no-cache``, as browsers send it; or a link followed from a lesson's page of this
  server: its ``Referer``) counts that page as gone: it is admitted with one place more than the caps, per address
  and in all (never the pages a minute); the old page's close request then frees the place. A session is a page admitted and not yet
  connected (for ``pending_s`` seconds), or a virtual kernel its websocket opened, while Solara keeps it
  (``live()``: a closed tab's kernel goes at once with the page's close request, a lost one when Solara culls it,
  ``SOLARA_KERNEL_CULL_TIMEOUT``). A websocket that would open a kernel beyond the caps is refused too (a crafted
  client need not fetch the page first). A page's kernel takes at most ``per_kernel`` websockets at once (a
  reconnecting page may overlap its old one): each holds a thread and a file of the server, so a crafted client
  opening hundreds on its own kernel is refused beyond them.
- **Host and Origin** (DNS rebinding, :mod:`aluette.classroom.pages`): without a token (the loopback address), a
  request whose ``Host`` is not a loopback name gets HTTP 403 (one without a ``Host``, which no browser sends, is no
  rebinding); a websocket from a page of another origin
  (``Origin: null`` included) is refused, with or without a token.
- **The teacher's notebooks** (:data:`~aluette.classroom.TEACHER_NOTEBOOKS`, served by ``make teacher`` only): their
  address gets HTTP 404 with a page saying so, as the Voilà app answers.
- **Links between notebooks**: ``/NAME.ipynb`` (a notebook's link to another, by file name) is moved (HTTP 301) to
  that lesson's page, ``/NAME``, and so is ``/NAME/anything`` (Solara would serve it as the lesson's page, outside
  the count of pages a minute); only the page's own assets under ``/NAME/static/`` pass. A translation's lessons
  follow the same rules under their language's prefix (``/fr/02_setup.ipynb`` to ``/fr/02_setup``), so links
  between French lessons stay French (:data:`~aluette.classroom.TRANSLATIONS`).
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
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.websockets import WebSocketClose

from . import TEACHER_NOTEBOOKS, split_language
from .guard import quiet
from .ledger import Ledger
from .pages import loopback_host, same_origin
from .pages import replaces_a_page as page_replaced
from .policy import (NEEDS_TOKEN, NOT_FOR_STUDENTS, NOT_THIS_APP, NOT_THIS_COMPUTER, OPERATOR_ADDRESSES,
                     TEACHER_ONLY, Refusal, RoomPolicy, language_of)

__all__ = ["Admission", "TOKEN_COOKIE", "PageHtml", "Starts", "PAGE_STARTS", "MAX_PAGE_BYTES", "OPERATOR_ADDRESSES",
           "TEACHER_ADDRESSES_ENV", "CAP_VARIABLES", "room_caps", "replaces_a_page", "HostAndOrigin", "TokenGate", "LessonRoutes", "CloseRequests",
           "RoomAdmission", "WebSocketBudget", "PageStarts"]

TOKEN_COOKIE = "aluette-token"
KERNELS = "/jupyter/api/kernels/"
CLOSE = "/_solara/api/close/"  # a leaving tab's close request (Solara's route), with ?session_id=<the page>
TEACHER_PAGES = frozenset(name.removesuffix(".ipynb") for name in TEACHER_NOTEBOOKS)


#: What a lesson's page may fetch under its own address (``/NAME/static/...``: its favicon, relative to ``/NAME/``).
PAGE_ASSETS = ("static/", "_solara/")
#: What a page's kernel may receive in all, reconnections included: a page's clicks and typed text are a few
#: hundred bytes each, a paste at most a box's limit (20,000 characters); crafted widget updates are ended there.
MAX_PAGE_BYTES = 8 * 2**20
#: The environment variable naming the teacher's computers (addresses, comma-separated: ``make app
#: TEACHER_ADDRESS=...``), which hold as many pages as the computer that runs the app.
TEACHER_ADDRESSES_ENV = "ALUETTE_TEACHER_ADDRESSES"


#: The caps of the room as ``make app`` sets them, each from its variable in the environment (``make app``'s
#: defaults: docs/classroom.md, "The room's limits"), read by :func:`room_caps`.
CAP_VARIABLES = {"max_sessions": ("ALUETTE_MAX_SESSIONS", 40), "per_address": ("ALUETTE_MAX_SESSIONS_PER_ADDRESS", 4),
                 "per_minute": ("ALUETTE_MAX_PAGES_PER_MINUTE", 12),
                 "operator_per_address": ("ALUETTE_MAX_SESSIONS_PER_OPERATOR", 8)}


def room_caps(environ) -> dict:
    """:class:`Admission`'s caps from ``environ`` (the server's environment: the variables of
    :data:`CAP_VARIABLES`, else their defaults, the limits a class gets) and the teacher's computers
    (:data:`TEACHER_ADDRESSES_ENV`, comma-separated)."""
    caps = {name: int(environ.get(variable, default)) for name, (variable, default) in CAP_VARIABLES.items()}
    caps["teacher_addresses"] = frozenset(filter(None, environ.get(TEACHER_ADDRESSES_ENV, "").split(",")))
    return caps


class Closer:
    """Closes pages (Solara's ``page_close``) on threads of its own, each page once at a time: a tab's close request is
    answered at once, never waits on a page's lock (a page whose client stopped reading holds it), and never takes a
    thread of the server's pool (160 close requests for one wedged page had frozen every page's static files for
    ~15 s, each holding a pool thread). Requests for a page already being closed are dropped."""

    def __init__(self, close_page: Callable[[str, str], None], threads: int = 4, most: int = 1000):
        self.close_page, self.most = close_page, most
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="aluette-close")
        self._pending: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def __call__(self, kernel_id: str, page_id: str) -> None:
        key = (kernel_id, page_id)
        with self._lock:
            if key in self._pending or len(self._pending) >= self.most:
                return
            self._pending.add(key)
        self._pool.submit(self._close, key)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._pending)

    def _close(self, key: tuple[str, str]) -> None:
        try:
            self.close_page(*key)
        except Exception as error:  # noqa: BLE001 - a page that cannot close is Solara's culler's, in time
            quiet.warn("close", f"closing a page failed ({type(error).__name__}: {str(error)[:120]})")
        finally:
            with self._lock:
                self._pending.discard(key)


class Starts:
    """New pages start ``at_once`` at a time in this worker, in the order their websockets came.

    A page's start (Solara makes its virtual kernel and thread, renders the app, builds the lesson and sends its
    widgets) is CPU work of the worker's one core (the GIL). Thirty pages started together share that core thirty
    ways with each other and with the event loop that carries every student's clicks, so all thirty are drawn near
    the end and clicks wait behind them. Started in turn, each page is drawn within a page's time of its turn, the
    last no later than before, and the event loop keeps its share: the door holds a new page's websocket
    (:meth:`enter`, before Solara accepts it) until the page before it is drawn (:meth:`started`, called from the page
    once rendered: ``aluette/classroom/solara_app.py``), its websocket has gone, or ``longest`` seconds have passed.

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


#: The starts of this worker process's pages, shared by its door (``aluette/classroom/solara_asgi.py``) and its pages
#: (``aluette/classroom/solara_app.py``, which says when each is drawn).
PAGE_STARTS = Starts()


class Admission:
    """The door: the room's state (the ledger of places, this worker's sockets and budgets, the page starts) and
    its ASGI app, a chain of small middlewares in front of ``app``, one concern each (see the module):
    :class:`HostAndOrigin`, :class:`TokenGate`, :class:`LessonRoutes`, :class:`CloseRequests`,
    :class:`RoomAdmission`, :class:`WebSocketBudget` and :class:`PageStarts`. The caps and the refusal texts are
    :class:`~aluette.classroom.policy.RoomPolicy`'s, shared with Voilà."""

    def __init__(self, app, lessons: Callable[[], set], live: Callable[[], set], token: str | None = None,
                 max_sessions: int = 40, per_address: int = 4, per_minute: int = 12, pending_s: float = 60.0,
                 operator_per_address: int = 8, teacher_addresses: frozenset = frozenset(),
                 per_kernel: int = 2, max_message: int = 2**20, max_page_bytes: int = MAX_PAGE_BYTES,
                 max_comm_opens: int = 16,
                 max_comm_open_size: int = 2**16, clock: Callable[[], float] = time.monotonic,
                 ledger: Ledger | None = None, close_page: Callable[[str, str], None] | None = None,
                 starts: Starts | None = None):
        self.app, self.lessons, self.live, self.token = app, lessons, live, token
        self.max_sessions, self.per_address, self.per_minute, self.pending_s = (max_sessions, per_address,
                                                                                per_minute, pending_s)
        self.clock, self.per_kernel = clock, per_kernel
        self.operator_per_address = max(operator_per_address, per_address)
        self.operators = OPERATOR_ADDRESSES | frozenset(teacher_addresses)
        #: the room's caps and refusals, as Voilà's (:mod:`aluette.classroom.policy`)
        self.policy = RoomPolicy(max_sessions, per_address, per_minute, operator_per_address, self.operators)
        self.max_message, self.max_comm_opens, self.max_comm_open_size = max_message, max_comm_opens, max_comm_open_size
        self.max_page_bytes = max_page_bytes
        #: the room's places, shared by every worker process of the server (:mod:`aluette.classroom.ledger`)
        self.ledger = ledger if ledger is not None else Ledger()
        #: closes a page of a kernel this worker holds (Solara's own close: ``aluette/classroom/solara_asgi.py``), on threads
        #: of its own (:class:`Closer`)
        self.close_page = None if close_page is None else Closer(close_page)
        #: new pages start in turn (None: all at once)
        self.starts = starts
        # a kernel's websockets and comm_opens are counted by the worker that holds the kernel
        self.sockets: collections.Counter = collections.Counter()  # kernel id -> its websockets open now
        self.opens: collections.Counter = collections.Counter()  # kernel id -> comm_open messages it received
        self.received: collections.Counter = collections.Counter()  # kernel id -> bytes of messages it received
        self.builds: collections.Counter = collections.Counter()  # kernel id -> pages it asked to be built (run)
        #: the ASGI app: each middleware hands on to the next, the last to ``self.app`` (read at each request)
        self.chain = HostAndOrigin(self, TokenGate(self, LessonRoutes(self, CloseRequests(self, RoomAdmission(
            self, WebSocketBudget(self, PageStarts(self, self._forward)))))))

    # ------------------------------------------------------------------ accounting
    def _pruned(self, db) -> None:
        # a kernel whose websocket is open counts even before Solara has made its context (made in the socket's
        # thread after the upgrade): otherwise sockets opened back to back are each forgotten at the next check
        db.prune(self.live() | set(self.sockets), self.clock(), self.pending_s)

    def prune(self) -> None:
        """Forget what has gone (closed or culled kernels of this worker, stale pending pages): called at every
        check, and now and then by the server (``aluette/classroom/solara_asgi.py``), so that a worker with no requests
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

    def cap(self, address: str) -> int:
        """The pages ``address`` may hold at once (:meth:`~aluette.classroom.policy.RoomPolicy.cap`)."""
        return self.policy.cap(address)

    def _refusal(self, db, address: str, page: bool, replacing: bool = False) -> Refusal | None:
        """Why a new session from ``address`` is refused, or None (:meth:`~aluette.classroom.policy.RoomPolicy.
        refusal`, on the ledger's counts). ``page``: a page load (counted against ``per_minute``), else a websocket
        opening a kernel. ``replacing``: the page replaces one of this address's (a reload, a link from a lesson)."""
        self._pruned(db)
        return self.policy.refusal(address, pages=db.pages(address) if page else 0, held=db.sessions(address),
                                   in_all=db.sessions(), replacing=replacing, page=page)

    def admit_page(self, address: str, replacing: bool = False) -> Refusal | None:
        """A page load from ``address``: None and its place taken, or why it is refused (one transaction).
        ``replacing``: it replaces a page of this address (:func:`replaces_a_page`), which counts as gone when this
        address holds one."""
        with self.ledger.transaction() as db:
            reason = self._refusal(db, address, page=True, replacing=replacing)
            if reason is None:
                db.admit_page(address, self.clock())
            return reason

    def admit_kernel(self, kernel_id: str, address: str) -> bool:
        """A websocket from ``address`` for ``kernel_id``: True if it may go on (a kernel of the room, the page
        this address was admitted for, or a new place within the caps), the kernel then counted as its."""
        with self.ledger.transaction() as db:
            if db.knows(kernel_id) or kernel_id in self.live():
                return True
            if not db.take_pending(address):
                # a websocket that opens a kernel with no page asked for it builds a page all the same: it counts
                # as a page of the minute (issue 22, §7: 212 pages of 08 a minute were built over websockets alone)
                if self._refusal(db, address, page=True) is not None:
                    return False
                db.add_page(address, self.clock())
            db.own(kernel_id, address)
            return True

    def admit_build(self, address: str) -> bool:
        """One more build of a page on a kernel that has built one already (Solara's ``run`` sent again): counted
        as a page of the minute; False beyond ``per_minute``."""
        with self.ledger.transaction() as db:
            self._pruned(db)
            if db.pages(address) >= self.per_minute:
                return False
            db.add_page(address, self.clock())
            return True

    # ------------------------------------------------------------------ ASGI
    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        return await self.chain(scope, receive, send)

    async def _forward(self, scope, receive, send):
        return await self.app(scope, receive, send)

    def closed_here(self, kernel_id: str, page_id: str) -> bool:
        """A tab's close request for a kernel this worker holds: handed to the :class:`Closer` (answered at once,
        never waiting on the page), and True; False for any other (another worker's, or unknown)."""
        if (self.close_page is None or not page_id or len(page_id) > 64 or len(kernel_id) > 64
                or kernel_id not in self.live()):
            return False
        self.close_page(kernel_id, page_id)
        return True

    def closed_elsewhere(self, kernel_id: str, page_id: str) -> bool:
        """A tab's close request for a kernel another worker holds: left in the ledger for that worker (its
        :meth:`prune`, within a second), and True; False for a kernel of this worker's (Solara closes it)."""
        if not page_id or len(page_id) > 64 or len(kernel_id) > 64 or kernel_id in self.live():
            return False
        with self.ledger.transaction() as db:
            if not db.knows(kernel_id):
                return False
            db.ask_close(kernel_id, page_id)
            return True

    def _bounded(self, receive, kernel_id: str, address: str = "unknown"):
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
            text = message.get("text")
            kind, method = _message_kind(text) if text is not None else ("", None)  # bytes: Solara's buffers
            if kind is None:  # Solara's page sends Jupyter messages; anything else is a crafted frame
                quiet.warn(f"frame {address}", f"{address} sent a websocket frame that is not a Jupyter message: "
                                               f"its connection is closed")
                return {"type": "websocket.disconnect", "code": 1003}
            if kind == "comm_open":
                self.opens[kernel_id] += 1
                if size > self.max_comm_open_size or self.opens[kernel_id] > self.max_comm_opens:
                    return {"type": "websocket.disconnect", "code": 1009}
            elif method == "run":
                self.builds[kernel_id] += 1
                if self.builds[kernel_id] > 1 and not self.admit_build(address):
                    return {"type": "websocket.disconnect", "code": 1008}
            return message
        return receiving


# ---------------------------------------------------------------------------------------------- the middlewares
# Each is a pure ASGI middleware (as Starlette's own: TrustedHostMiddleware, AuthenticationMiddleware) over the door's
# shared state, answering with Starlette's response classes; the door chains them in this order.

def client_address(scope) -> str:
    """The request's client address (``"unknown"`` without one)."""
    return (scope.get("client") or ("unknown",))[0]


def refused(scope, refusal: Refusal):
    """The ASGI answer to a refused request: a websocket closed before it is accepted (the upgrade is refused with
    HTTP 403), or the refusal's page in the address's language (:func:`~aluette.classroom.policy.language_of`)."""
    if scope["type"] == "websocket":
        return WebSocketClose(code=1008)
    language = language_of(scope.get("path", ""), scope.get("query_string", b""))
    return HTMLResponse(refusal.page(language), status_code=refusal.status, headers=refusal.headers)


class _Middleware:
    """A middleware of ``door``'s chain, in front of ``app`` (the next one)."""

    def __init__(self, door: Admission, app):
        self.door, self.app = door, app


class HostAndOrigin(_Middleware):
    """DNS rebinding (:mod:`aluette.classroom.pages`): without a token, a request whose ``Host`` is not a loopback
    name is refused (one without a ``Host``, which no browser sends, is no rebinding); a websocket from a page of
    another origin (``Origin: null`` included) is refused, with or without a token."""

    async def __call__(self, scope, receive, send):
        headers = Headers(scope=scope)
        host, origin = headers.get("host"), headers.get("origin")
        if self.door.token is None and host is not None and not loopback_host(host):
            return await refused(scope, NOT_THIS_COMPUTER)(scope, receive, send)
        if scope["type"] == "websocket" and not same_origin(origin, host):
            return await refused(scope, NOT_THIS_APP)(scope, receive, send)
        return await self.app(scope, receive, send)


class TokenGate(_Middleware):
    """With a token set, nothing passes without it, in the address (``?token=``) or in the ``aluette-token``
    cookie; a page fetched with it in its address gets the cookie (HttpOnly, SameSite=Strict)."""

    async def __call__(self, scope, receive, send):
        token = self.door.token
        if token is None:
            return await self.app(scope, receive, send)
        connection = HTTPConnection(scope)
        given = next(iter(v for v in connection.query_params.getlist("token") if v), "")
        by_query = self._matches(given)
        if not (by_query or self._matches(connection.cookies.get(TOKEN_COOKIE, ""))):
            return await refused(scope, NEEDS_TOKEN)(scope, receive, send)
        if by_query and scope["type"] == "http":
            send = self._with_cookie(send)
        return await self.app(scope, receive, send)

    def _matches(self, given: str) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.door.token.encode())

    def _with_cookie(self, send):
        cookie = f"{TOKEN_COOKIE}={self.door.token}; Path=/; HttpOnly; SameSite=Strict".encode()

        async def sending(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)
        return sending


class LessonRoutes(_Middleware):
    """One address per page: the teacher's notebooks answer 404; ``/NAME.ipynb`` (a notebook's link to another) and
    ``/NAME/anything`` (which Solara would serve as the lesson's page, outside the count of pages a minute) are moved
    (301) to ``/NAME``, the page's own assets under ``/NAME/static/`` aside; each rule alike under a translation's
    prefix (``/fr/...``). Solara's ``/resourcez`` (the server's figures) answers 404 to any other computer than the
    one that runs it."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path, lessons = scope.get("path", ""), self.door.lessons()
        language, bare = split_language(path)
        prefix = f"{language}/" if language else ""
        name = bare.strip("/").removesuffix(".ipynb")
        if name in TEACHER_PAGES:
            return await refused(scope, TEACHER_ONLY)(scope, receive, send)
        if bare.endswith(".ipynb") and "/" not in bare.strip("/") and prefix + name in lessons:
            return await self._moved(scope, path.removesuffix(".ipynb"))(scope, receive, send)
        lesson, _, rest = bare.strip("/").partition("/")
        if rest and not rest.startswith(PAGE_ASSETS) and prefix + lesson.removesuffix(".ipynb") in lessons:
            return await self._moved(scope, "/" + prefix + lesson.removesuffix(".ipynb"))(scope, receive, send)
        if path.rstrip("/") == "/resourcez" and client_address(scope) not in OPERATOR_ADDRESSES:
            return await refused(scope, NOT_FOR_STUDENTS)(scope, receive, send)
        return await self.app(scope, receive, send)

    @staticmethod
    def _moved(scope, path: str) -> RedirectResponse:
        """HTTP 301 to ``path``, with the request's query."""
        query = scope.get("query_string", b"").decode("latin-1")
        return RedirectResponse(path + ("?" + query if query else ""), status_code=301)


class CloseRequests(_Middleware):
    """A leaving tab's close request (``POST /_solara/api/close/<kernel>?session_id=<page>``) is answered at once:
    a page of this worker's is closed on the door's own threads (:class:`Closer`, never waiting on the page's
    lock), another worker's is left in the ledger for it; any other goes on to Solara."""

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] == "http" and scope.get("method") == "POST" and path.startswith(CLOSE):
            kernel_id = path[len(CLOSE):].strip("/")
            page_id = next(iter(HTTPConnection(scope).query_params.getlist("session_id")), "")
            if self.door.closed_here(kernel_id, page_id) or self.door.closed_elsewhere(kernel_id, page_id):
                return await Response(status_code=200, media_type="text/html")(scope, receive, send)
        return await self.app(scope, receive, send)


class RoomAdmission(_Middleware):
    """The room's places: a lesson's page (``GET /NAME``) is admitted within the caps or gets "the room is full"
    (503, :meth:`Admission.admit_page`); a websocket that would open a kernel beyond them is refused too (a crafted
    client need not fetch the page first, :meth:`Admission.admit_kernel`)."""

    async def __call__(self, scope, receive, send):
        door, path = self.door, scope.get("path", "")
        if scope["type"] == "http" and scope.get("method") == "GET" and path.strip("/") in door.lessons():
            refusal = door.admit_page(client_address(scope), replaces_a_page(scope, door.lessons()))
            if refusal is not None:
                return await refused(scope, refusal)(scope, receive, send)
        elif scope["type"] == "websocket" and path.startswith(KERNELS):
            if not door.admit_kernel(kernel_of(path), client_address(scope)):
                return await refused(scope, Refusal("room", 403))(scope, receive, send)
        return await self.app(scope, receive, send)


class PageStarts(_Middleware):
    """New pages start in turn (:class:`Starts`): the websocket that opens a new kernel waits for its turn before
    Solara accepts it, and hands the turn on when it ends. Inside :class:`WebSocketBudget`, which counts the
    socket first."""

    async def __call__(self, scope, receive, send):
        starts, path = self.door.starts, scope.get("path", "")
        if starts is None or scope["type"] != "websocket" or not path.startswith(KERNELS):
            return await self.app(scope, receive, send)
        kernel_id = kernel_of(path)
        new = kernel_id not in self.door.live() and self.door.sockets[kernel_id] == 1  # this socket alone (budget)
        try:
            if new:
                await starts.enter(kernel_id)
            return await self.app(scope, receive, send)
        finally:
            starts.leave(kernel_id)


class WebSocketBudget(_Middleware):
    """A page's kernel takes at most ``per_kernel`` websockets at once (each holds a thread and a file of the
    server), and what its sockets receive is bounded (:meth:`Admission._bounded`); its counts go with its last
    socket once Solara no longer holds it."""

    async def __call__(self, scope, receive, send):
        door, path = self.door, scope.get("path", "")
        if scope["type"] != "websocket" or not path.startswith(KERNELS):
            return await self.app(scope, receive, send)
        kernel_id = kernel_of(path)
        if door.sockets[kernel_id] >= door.per_kernel:
            return await refused(scope, Refusal("room", 403))(scope, receive, send)
        door.sockets[kernel_id] += 1
        try:
            return await self.app(scope, door._bounded(receive, kernel_id, client_address(scope)), send)
        finally:
            door.sockets[kernel_id] -= 1
            if not door.sockets[kernel_id]:
                del door.sockets[kernel_id]
                if kernel_id not in door.live():
                    door.opens.pop(kernel_id, None)
                    door.received.pop(kernel_id, None)
                    door.builds.pop(kernel_id, None)


def kernel_of(path: str) -> str:
    """The kernel id of a kernel websocket's path (``/jupyter/api/kernels/<id>/channels``)."""
    return path[len(KERNELS):].split("/")[0]


def replaces_a_page(scope, lessons) -> bool:
    """Whether a page's request says it replaces a page of the same browser (:func:`~aluette.classroom.pages.
    replaces_a_page`): a reload, or a link followed from one of ``lessons``' pages (``/NAME``) on this server."""
    headers = {name: value.decode("latin-1") for name, value in scope.get("headers", [])
               if name in (b"cache-control", b"referer", b"host") and len(value) <= 2048}
    return page_replaced(headers.get(b"cache-control"), headers.get(b"referer"), headers.get(b"host"),
                         lambda path: path.strip("/").removesuffix(".ipynb") in lessons)


def _message_kind(data: str) -> tuple[str | None, str | None]:
    """The ``msg_type`` of a Jupyter message sent as JSON text, and for a ``comm_msg`` the ``method`` of its data
    (Solara's page asks its page to be built with ``run``); ``(None, None)`` for a text that is not a Jupyter message
    (not JSON, no header, no message type). One parse."""
    try:
        got = json.loads(data)
    except ValueError:
        return None, None
    header = got.get("header") if isinstance(got, dict) else None
    kind = header.get("msg_type") if isinstance(header, dict) else None
    if not isinstance(kind, str):
        return None, None
    if kind != "comm_msg":
        return kind, None
    content = got.get("content")
    inner = content.get("data") if isinstance(content, dict) else None
    method = inner.get("method") if isinstance(inner, dict) else None
    return kind, method if isinstance(method, str) else None


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

    def fixed(self, html: bytes, language: str = "") -> bytes:
        """``html`` with its language said (``language``, a translation's, or the app's) and its zoom allowed (each
        only if needed)."""
        if html[:200].lower().count(b"<html") == 1 and b"<html lang=" not in html[:200].lower():
            html = html.replace(b"<html", f'<html lang="{language}"'.encode() if language else self.tag, 1)
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
            changed = self.fixed(html, split_language(scope.get("path", ""))[0])  # /fr/...: lang="fr"
            if changed != html:
                page = gzip.compress(changed) if gzipped else changed
            headers = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
            await send({**start, "headers": [*headers, (b"content-length", str(len(page)).encode())]})
            await send({"type": "http.response.body", "body": page})
        return await self.app(scope, receive, sending)
