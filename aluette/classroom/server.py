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
from .pages import raise_open_files_limit, refusal_page  # noqa: F401 (this module's API too)

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
    "room is full" page with HTTP 503 and ``Retry-After: 60``. A session is a page admitted and not yet connected
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
        user = await ensure_async(super().get_user(handler))
        if user is not None and handler.request.method == "GET" and self._is_notebook_page(handler):
            handler.current_user = user  # as prepare() does next; tornado's xsrf_token (in _admit) reads it
            self._admit(handler)
        return user

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
            self._refuse(handler, 404, "This page is for the teacher",
                         "The teacher's guide is served on the teacher's own page, not in the students' app.")
            return
        kernel_manager = handler.kernel_manager
        address = handler.request.remote_ip or "unknown"
        now = time.monotonic()
        recent = last_minute(self._recent, address, now)
        if len(recent) >= self.max_pages_per_minute:
            self._refuse(handler, 503, "The room is full, try again in a minute",
                         f"This computer opened {self.max_pages_per_minute} pages in the last minute, as many as "
                         "the server starts for one computer. Wait a minute before opening or reloading another.")
            return
        if self.sessions(kernel_manager, address) >= self.max_sessions_per_address:
            self._refuse(handler, 503, "The room is full, try again in a minute",
                         f"This computer already has {self.max_sessions_per_address} pages of the tutorial open. "
                         "Close the tabs you no longer use: their places are freed within about two minutes.")
            return
        if self.sessions(kernel_manager) >= self.max_sessions:
            self._refuse(handler, 503, "The room is full, try again in a minute",
                         f"The server already serves {self.max_sessions} open pages, as many as it can hold. "
                         "A place is freed within about two minutes of someone closing a tab.")
            return
        self._pending.setdefault(address, collections.deque()).append(now)
        recent.append(now)
        # Voilà's page posts its kernel's shutdown on leaving (beforeunload beacon) with the _xsrf cookie's value,
        # but Voilà never sets that cookie, so the beacon is refused with 403 (voila-dashboards/voila#1458) and the
        # kernel waits for the culler. Reading tornado's xsrf_token sets the cookie on this page's response.
        handler.xsrf_token  # noqa: B018 (a property read for its effect)

    def _refuse(self, handler, status: int, title: str, reason: str):
        self.log.warning("Classroom: %s %s for %s (%s)", status, handler.request.path, handler.request.remote_ip,
                         title)
        handler.set_status(status)
        handler.set_header("Content-Type", "text/html; charset=UTF-8")
        handler.set_header("Cache-Control", "no-store")
        if status == 503:
            handler.set_header("Retry-After", "60")
        handler.finish(refusal_page(title, reason, "Aluette, the classroom app."))


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

    def handle_incoming_message(self, incoming_msg):
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
