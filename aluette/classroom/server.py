"""The classroom's limits, as Jupyter/Voilà classes that ``voila.json`` names (see :mod:`aluette.classroom`).

Each class is the standard Jupyter one with a few checks added; none replaces a handler of Voilà's or serves a page
of its own except the two refusal pages (room full, teacher only). Their options are ordinary traitlets, set in
``voila.json`` or on the command line (``--ClassroomIdentityProvider.max_sessions=60``).
"""

from __future__ import annotations

import collections
import json
import time
import weakref
from pathlib import PurePosixPath

from jupyter_core.utils import ensure_async
from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Enum, Float, Int, List, Unicode

from . import TEACHER_NOTEBOOKS
from .pages import (loopback_host, raise_open_files_limit, refusal_page, replaces_a_page,  # noqa: F401 (API too)
                    same_origin)
from .policy import TEACHER_ONLY, Refusal, RoomPolicy, language_of
from .rate import CLOSE_CODE, REASON, Buckets

__all__ = ["ClassroomKernelManager", "ClassroomIdentityProvider", "ClassroomConnection", "raise_open_files_limit",
           "refusal_page"]


def prune(owner: dict, pending: dict, live, oldest: float):
    """Forget the kernels of ``owner`` (kernel id -> address) that are no longer in ``live``, and the admission
    times of ``pending`` (address -> deque of times) older than ``oldest``."""
    for kernel_id in [k for k in owner if k not in live]:
        del owner[kernel_id]
    for address in list(pending):
        queue = pending[address]
        while queue and queue[0] < oldest:
            queue.popleft()
        if not queue:
            del pending[address]


def last_minute(recent: dict, address: str, now: float) -> collections.deque:
    """The times of ``address``'s pages in the last minute (``recent``: address -> deque of times, pruned here)."""
    queue = recent.setdefault(address, collections.deque())
    while queue and queue[0] < now - 60:
        queue.popleft()
    for other in [a for a, q in recent.items() if not q and a != address]:
        del recent[other]
    return queue


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager (Voilà wraps it with its pool of pre-heated kernels), which raises the soft limit of
    open files when the server starts."""

    open_files_limit = Int(65536, config=True, help="Soft limit of open file descriptors set at start "
                                                    "(capped by the hard limit).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        before, after = raise_open_files_limit(self.open_files_limit)
        self.log.info("Classroom: open files limit %d (was %d)", after, before)


class ClassroomIdentityProvider(PasswordIdentityProvider):
    """Jupyter's token check (unchanged: with a token set, nothing is served without it), then admission of each
    notebook page.

    Every ``GET`` of a notebook page hands out a kernel. A page is admitted while its client address holds fewer
    than ``max_sessions_per_address`` sessions, has opened fewer than ``max_pages_per_minute`` pages in the last
    minute, and the room holds fewer than ``max_sessions``; otherwise the answer is the
    "room is full" page with HTTP 503 and ``Retry-After: 60``: the caps and their words are
    :class:`~aluette.classroom.policy.RoomPolicy`'s, as on Solara's server, in the page's language. A session is a page admitted and not yet connected
    (it counts until the culler frees its kernel, ``unconnected_lifetime``), or a kernel a page of that address
    connected to, until the kernel is shut down or culled. With ``audience = "students"`` the notebooks of
    ``teacher_notebooks`` are refused (404) and left off the landing page. An admitted page gets the ``_xsrf``
    cookie, so its shutdown beacon is accepted: a closed tab or a reload frees its kernel at once.
    """

    audience = Enum(["students", "teacher"], "students", config=True,
                    help="students: the class's app; teacher: also serves the teacher's notebooks.")
    teacher_notebooks = List(Unicode(), list(TEACHER_NOTEBOOKS), config=True,
                             help="Notebook file names served only when audience is teacher.")
    max_sessions = Int(40, config=True, help="Open notebook pages (kernels) in all, pre-heated ones aside.")
    max_sessions_per_address = Int(4, config=True, help="Open notebook pages (kernels) per client address.")
    max_pages_per_minute = Int(12, config=True, help="Notebook pages one client address may open per minute "
                                                     "(each starts a kernel: a reload loop would pin a core).")
    unconnected_lifetime = Float(0.0, config=True,
                                 help="Seconds a page admitted but never connected counts as a session; 0: the "
                                      "kernel manager's cull_idle_timeout + cull_interval (600 without culling).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._owner: dict[str, str] = {}  # kernel id -> client address that connected to it first
        self._pending: dict[str, collections.deque] = {}  # address -> admission times not yet connected
        self._recent: dict[str, collections.deque] = {}  # address -> admission times in the last minute

    # ------------------------------------------------------------------ accounting
    def _lifetime(self, kernel_manager) -> float:
        if self.unconnected_lifetime > 0:
            return self.unconnected_lifetime
        timeout = getattr(kernel_manager, "cull_idle_timeout", 0)
        return timeout + getattr(kernel_manager, "cull_interval", 0) if timeout > 0 else 600.0

    def _prune(self, kernel_manager):
        prune(self._owner, self._pending, kernel_manager, time.monotonic() - self._lifetime(kernel_manager))

    def sessions(self, kernel_manager, address: str | None = None) -> int:
        """Sessions held by ``address`` (all addresses when None): kernels it connected to, plus pages admitted
        and not yet connected."""
        self._prune(kernel_manager)
        owned = sum(1 for a in self._owner.values() if address is None or a == address)
        pending = sum(len(q) for a, q in self._pending.items() if address is None or a == address)
        return owned + pending

    def attribute(self, kernel_id: str, address: str):
        """A websocket from ``address`` connected to ``kernel_id``: the kernel is that address's session (its
        oldest pending admission is used up)."""
        if kernel_id in self._owner:
            return
        self._owner[kernel_id] = address
        queue = self._pending.get(address)
        if queue:
            queue.popleft()

    # ------------------------------------------------------------------ admission
    async def get_user(self, handler):
        self._check_address(handler)
        user = await ensure_async(super().get_user(handler))
        if user is not None and handler.request.method == "GET" and self._is_notebook_page(handler):
            handler.current_user = user  # as prepare() does next; tornado's xsrf_token (in _admit) reads it
            self._admit(handler)
        return user

    def _check_address(self, handler) -> None:
        """DNS rebinding (:mod:`aluette.classroom.pages`): Voilà answers any ``Host`` (it sets Jupyter's
        ``allow_remote_access``), so without a token only requests to this computer's loopback names are answered,
        and a websocket only from a page of the server's own address, never ``Origin: null``.

        Raises:
            tornado.web.HTTPError: 403.
        """
        host = handler.request.headers.get("Host")
        if not self.token and host is not None and not loopback_host(host):
            self.log.warning("Classroom: 403 for Host %r (no token: this computer's loopback names only)", host[:80])
            raise web.HTTPError(403, "this server answers only at this computer's own address (127.0.0.1)")
        if (handler.request.headers.get("Upgrade", "").lower() == "websocket"
                and not same_origin(handler.request.headers.get("Origin"), host)):
            raise web.HTTPError(403, "a websocket from a page of another address")

    @staticmethod
    def _is_notebook_page(handler) -> bool:
        from voila.handler import VoilaHandler  # Voilà is the server this class is configured into
        return isinstance(handler, VoilaHandler)

    def _admit(self, handler):
        """Finish the request with a refusal page, or record the admission."""
        path = (handler.path_args[0] if handler.path_args else None) or getattr(handler, "notebook_path", "") or ""
        name = PurePosixPath(path).name
        if not name.endswith(".ipynb"):
            return
        if self.audience == "students" and name in self.teacher_notebooks:
            self._refuse(handler, TEACHER_ONLY)
            return
        kernel_manager = handler.kernel_manager
        address = handler.request.remote_ip or "unknown"
        now = time.monotonic()
        recent = last_minute(self._recent, address, now)
        # a reload or a link from a lesson replaces its page: that page counts as gone (pages.replaces_a_page)
        headers = handler.request.headers
        replacing = replaces_a_page(headers.get("Cache-Control"), headers.get("Referer"), headers.get("Host"),
                                    lambda path: path.startswith("/voila/render/") and path.endswith(".ipynb"))
        refusal = self.policy.refusal(address, pages=len(recent), held=self.sessions(kernel_manager, address),
                                      in_all=self.sessions(kernel_manager), replacing=replacing)
        if refusal is not None:
            self._refuse(handler, refusal)
            return
        self._pending.setdefault(address, collections.deque()).append(now)
        recent.append(now)
        # Voilà's page posts its kernel's shutdown on leaving (beforeunload beacon) with the _xsrf cookie's value,
        # but Voilà never sets that cookie, so the beacon is refused with 403 (voila-dashboards/voila#1458) and the
        # kernel waits for the culler. Reading tornado's xsrf_token sets the cookie on this page's response.
        handler.xsrf_token  # noqa: B018 (a property read for its effect)

    @property
    def policy(self) -> RoomPolicy:
        """The room's caps (:class:`~aluette.classroom.policy.RoomPolicy`, as on Solara's server), from this
        provider's options: no computer holds more than ``max_sessions_per_address``, and a closed tab's place is
        freed by the culler, within about two minutes."""
        return RoomPolicy(self.max_sessions, self.max_sessions_per_address, self.max_pages_per_minute,
                          self.max_sessions_per_address, frozenset(), frees_at_once=False)

    def _refuse(self, handler, refusal: Refusal):
        """Finish the request with ``refusal``'s page, in the language of the notebook's address (``fr/...``)."""
        self.log.warning("Classroom: %s %s for %s (%s)", refusal.status, handler.request.path,
                         handler.request.remote_ip, refusal.kind)
        handler.set_status(refusal.status)
        handler.set_header("Content-Type", "text/html; charset=UTF-8")
        for name, value in refusal.headers.items():
            handler.set_header(name, value)
        handler.finish(refusal.page(language_of(handler.request.path)))


def message_header(payload: str | bytes) -> dict | None:
    """The header of one incoming websocket message (v1 binary protocol or legacy JSON text), or None."""
    try:
        if isinstance(payload, bytes):
            _channel, parts = deserialize_msg_from_ws_v1(payload)
            header = json.loads(parts[0])
        else:
            header = json.loads(payload).get("header")
        return header if isinstance(header, dict) else None
    except (ValueError, IndexError, TypeError, AttributeError):
        return None


class ClassroomConnection(ZMQChannelsWebsocketConnection):
    """Jupyter's kernel websocket with bounds: at most ``max_websockets_per_kernel`` open sockets per kernel (each
    costs about nine file descriptors; beyond it the upgrade is refused with HTTP 503), and at most ``max_comm_opens``
    ``comm_open`` messages per kernel, each at most ``max_comm_open_bytes`` long (a page opens one or two; extra
    ones are refused and logged, so a crafted page cannot grow its kernel without bound). Tornado's
    ``websocket_max_message_size`` (``voila.json``) bounds every message: a longer one closes the socket."""

    max_websockets_per_kernel = Int(2, config=True, help="Open websockets per kernel.")
    max_comm_opens = Int(16, config=True, help="comm_open messages a kernel accepts from its pages.")
    max_comm_open_bytes = Int(65536, config=True, help="Longest comm_open message accepted, in bytes.")

    _live: dict[str, weakref.WeakSet] = {}
    _comm_opens: collections.Counter = collections.Counter()

    async def prepare(self):
        kernel_id = self.kernel_id
        for gone in [k for k in {*self._comm_opens, *self._live} if k not in self.multi_kernel_manager]:
            self._comm_opens.pop(gone, None)
            self._live.pop(gone, None)
        live = self._live.setdefault(kernel_id, weakref.WeakSet())
        if sum(1 for c in live if not c.closed_by_classroom) >= self.max_websockets_per_kernel:
            self.log.warning("Classroom: websocket refused, kernel %s already has %d", kernel_id,
                             self.max_websockets_per_kernel)
            raise web.HTTPError(503, "too many websockets for this kernel")
        self.closed_by_classroom = False
        live.add(self)
        provider = self.websocket_handler.identity_provider
        if isinstance(provider, ClassroomIdentityProvider):
            provider.attribute(kernel_id, self.websocket_handler.request.remote_ip or "unknown")
        await super().prepare()

    closed_by_classroom = True  # until prepare() admits it

    def disconnect(self):
        self.closed_by_classroom = True
        return super().disconnect()

    _buckets = Buckets()

    def handle_incoming_message(self, incoming_msg):
        if self.closed_by_classroom:
            return
        if not self._buckets.take(self.kernel_id, self.websocket_handler.request.remote_ip or "unknown"):
            self.log.warning("Classroom: kernel %s sent messages too fast; its websocket is closed", self.kernel_id)
            self.closed_by_classroom = True
            self.websocket_handler.close(CLOSE_CODE, REASON)
            return
        header = message_header(incoming_msg)
        if header is not None and header.get("msg_type") == "comm_open":
            if len(incoming_msg) > self.max_comm_open_bytes:
                self.log.warning("Classroom: comm_open of %d bytes refused (at most %d)", len(incoming_msg),
                                 self.max_comm_open_bytes)
                return
            if self._comm_opens[self.kernel_id] >= self.max_comm_opens:
                self.log.warning("Classroom: comm_open refused, kernel %s had %d", self.kernel_id,
                                 self.max_comm_opens)
                return
            self._comm_opens[self.kernel_id] += 1
        super().handle_incoming_message(incoming_msg)
