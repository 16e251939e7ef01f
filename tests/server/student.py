"""A student's page as the server sees it, without a browser: what Voilà's page does over HTTP and the kernel
websocket, from a chosen loopback address (127.0.0.X: Linux routes all of 127/8 to this machine, so each simulated
student can have an address of its own, as on a classroom network).

Why not Chromium: the benchmark measures the server. Thirty Chromium pages on this 2-core machine would spend the
CPU on rendering widgets that each student's own computer does in a real class, and would slow the kernels they are
waiting for. A page load here is what the page asks of the server, in order:

1. ``GET /voila/render/NAME.ipynb`` until the HTML is complete (Voilà streams it while the notebook runs);
2. the kernel websocket (``/api/kernels/ID/channels``, protocol ``v1.kernel.websocket.jupyter.org``, the kernel id
   read from the page's ``kernelId``), a ``kernel_info_request``;
3. what ipywidgets' manager does to draw the widgets: a ``comm_open`` of the ``jupyter.widget.control`` target and
   its ``request_states`` message, answered by ``update_states`` with every widget's state.

"Rendered" is the moment ``update_states`` arrives. Static files (JavaScript, CSS) are left out: a browser caches
them after the first page.
"""

from __future__ import annotations

import asyncio
import json
import re
import ssl
import time
import uuid
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import connect

from jupyter_server.services.kernels.connection.base import (deserialize_msg_from_ws_v1,
                                                            serialize_msg_to_ws_v1)

PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: One TLS context for every simulated student: httpx would otherwise load the CA bundle for each client (~30 ms of
#: this process's CPU per page, taken from the server it measures on the same cores), though the pages are plain http.
TLS = ssl.create_default_context()
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def message(msg_type: str, content: dict, session: str) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student", "session": session,
                       "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "buffers": []}


def encode(channel: str, msg: dict) -> bytes:
    parts = [json.dumps(msg[key]).encode() for key in ("header", "parent_header", "metadata", "content")]
    return serialize_msg_to_ws_v1(parts, channel)


def decode(frame: bytes | str) -> dict | None:
    if isinstance(frame, str):
        return None
    channel, parts = deserialize_msg_from_ws_v1(frame)
    header, parent, _metadata, content = (json.loads(p) for p in parts[:4])
    return {"channel": channel, "header": header, "parent_header": parent, "content": content}


@dataclass
class Page:
    """One page load: ``status`` of the HTML (0 if the request failed), seconds to the rendered page, the kernel
    id, the widget states received, and ``failure`` (None when the page rendered)."""

    name: str
    status: int = 0
    seconds: float = 0.0
    kernel_id: str | None = None
    states: dict = field(default_factory=dict)
    failure: str | None = None
    html: str = ""
    ws: object = None
    session: str = field(default_factory=lambda: uuid.uuid4().hex)
    base: str = ""
    address: str = "127.0.0.1"
    xsrf: str | None = None  # the _xsrf cookie the page's response set, if any

    async def close(self, beacon: bool = True):
        """Close the tab: the page's beforeunload handler posts the kernel's shutdown with the value of its _xsrf
        cookie (``beacon``; refused by Voilà unless the server set the cookie, voila-dashboards/voila#1458), then
        the websocket goes. ``beacon=False`` is a tab whose beacon was lost (a crash, a dropped network)."""
        if beacon and self.kernel_id is not None and self.status == 200:
            transport = httpx.AsyncHTTPTransport(local_address=self.address, verify=TLS)
            try:
                async with httpx.AsyncClient(transport=transport, timeout=30, cookies=self.beacon_cookies()) as client:
                    await self.beacon(client)
            except httpx.HTTPError:
                pass  # a beacon gets no answer either
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    def beacon_cookies(self) -> dict:
        return {"_xsrf": self.xsrf} if self.xsrf else {}

    async def beacon(self, client):
        """Voilà's beforeunload beacon: the kernel's shutdown, with the _xsrf cookie's value."""
        await client.post(f"{self.base}/voila/api/shutdown/{self.kernel_id}", data={"_xsrf": self.xsrf or ""})

    async def send(self, channel: str, msg: dict):
        await self.ws.send(encode(channel, msg))

    async def receive(self) -> dict | None:
        return decode(await self.ws.recv())

    async def request(self, msg: dict, channel: str = "shell", timeout: float = 30.0) -> list[dict]:
        """Send ``msg`` and collect the messages whose parent it is, until the kernel's idle status for it."""
        await self.send(channel, msg)
        replies, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = await asyncio.wait_for(self.receive(), deadline - time.monotonic())
            if got is None or got["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
                continue
            replies.append(got)
            if got["header"]["msg_type"] == "status" and got["content"].get("execution_state") == "idle":
                return replies
        raise TimeoutError(f"no idle status for {msg['header']['msg_type']} within {timeout} s")

    async def widget_round_trip(self, timeout: float = 30.0) -> float:
        """A widget message's round trip through the kernel (``request_state`` of one widget, answered by its
        state, as after a click): seconds from sending to the kernel's idle status for it."""
        if not self.states:
            start = time.monotonic()
            await self.request(message("kernel_info_request", {}, self.session), timeout=timeout)
            return time.monotonic() - start
        comm_id = next(iter(self.states))
        start = time.monotonic()
        await self.request(message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}},
                                   self.session), timeout=timeout)
        return time.monotonic() - start


async def timed(page: Page, start: float, load) -> Page:
    """Run ``load()``, the page's steps; any error is the page's failure. Sets the seconds since ``start``; a
    failed page's websocket is closed."""
    try:
        await load()
    except Exception as error:  # noqa: BLE001 - every failure is a figure of the benchmark
        page.failure = f"{type(error).__name__}: {str(error)[:120]}"
    page.seconds = time.monotonic() - start
    if page.failure and page.ws is not None:
        await page.close(beacon=False)
    return page


async def get_page(page: Page, url: str, token: str | None, timeout: float) -> httpx.Response:
    """The page's HTML, fetched from the page's address; ``page.failure`` is set unless HTTP 200."""
    transport = httpx.AsyncHTTPTransport(local_address=page.address, verify=TLS)
    async with httpx.AsyncClient(transport=transport, timeout=timeout) as client:
        response = await client.get(url + (f"?token={token}" if token else ""))
    page.status, page.html = response.status_code, response.text
    if response.status_code != 200:
        page.failure = f"HTTP {response.status_code}"
    return response


async def open_page(base: str, name: str, address: str = "127.0.0.1", timeout: float = 180.0,
                    token: str | None = None) -> Page:
    """Load ``name`` as a student's browser does (see the module's docstring), from ``address``. The page is left
    open (``page.ws``) unless it failed; ``page.close()`` closes it."""
    page = Page(name, base=base, address=address)
    start = time.monotonic()

    async def load():
        response = await get_page(page, f"{base}/voila/render/{name}", token, timeout)
        page.xsrf = response.cookies.get("_xsrf")
        if page.failure:
            return
        found = KERNEL_ID.search(page.html)
        if not found:
            page.failure = "no kernel id in the page"
            return
        page.kernel_id = found.group(1)
        ws_base = base.replace("http://", "ws://", 1)
        page.ws = await asyncio.wait_for(connect(
            f"{ws_base}/api/kernels/{page.kernel_id}/channels?session_id={page.session}"
            + (f"&token={token}" if token else ""),
            subprotocols=[PROTOCOL], local_addr=(address, 0), max_size=2**26, open_timeout=timeout),
            timeout)
        left = max(1.0, timeout - (time.monotonic() - start))
        await page.request(message("kernel_info_request", {}, page.session), timeout=left)
        comm_id = uuid.uuid4().hex
        opened = await page.request(message("comm_open", {"comm_id": comm_id, "target_name":
                                                          "jupyter.widget.control", "data": {}}, page.session),
                                    timeout=max(1.0, timeout - (time.monotonic() - start)))
        if any(m["header"]["msg_type"] == "comm_close" for m in opened):
            # no ipywidgets in this kernel (or an old one): the manager then lists the widget comms instead
            replies = await page.request(message("comm_info_request", {"target_name": "jupyter.widget"},
                                                 page.session), timeout=max(1.0, timeout - (time.monotonic() - start)))
            for reply in replies:
                if reply["header"]["msg_type"] == "comm_info_reply":
                    page.states = {c: {} for c in reply["content"].get("comms", {})}
        else:
            replies = await page.request(message("comm_msg", {"comm_id": comm_id,
                                                              "data": {"method": "request_states"}}, page.session),
                                         timeout=max(1.0, timeout - (time.monotonic() - start)))
            for reply in replies:
                data = reply["content"].get("data", {})
                if reply["header"]["msg_type"] == "comm_msg" and data.get("method") == "update_states":
                    page.states = data.get("states", {})
            if not page.states:
                page.failure = "no widget states"

    return await timed(page, start, load)


# ---------------------------------------------------------------------------------------------------------------
# The same page load on Solara's server (``make app``'s server): Solara's page is a static shell; its script opens
# the kernel websocket (``/jupyter/api/kernels/ID/channels``, ID and ``session_id`` made by the page, JSON
# messages, the ``solara-session-id`` cookie of the page's response), opens a comm of the ``solara.control`` target
# and sends it ``run`` with the page's path; the server builds the page (one ``comm_open`` per widget) and answers
# ``finished``. "Rendered" is the moment ``finished`` arrives.

async def open_solara_page(base: str, path: str, address: str = "127.0.0.1", timeout: float = 180.0,
                           token: str | None = None) -> Page:
    """Load the Solara page at ``path`` (e.g. ``/08_play_a_match``) as a student's browser does, from ``address``.
    ``page.states`` holds the widgets the server opened (comm id -> state). Closing the tab (``page.close()``)
    posts Solara's close request, as the page does on leaving, then closes the websocket."""
    page = SolaraPage(path, base=base, address=address)
    start = time.monotonic()

    async def load():
        response = await get_page(page, f"{base}{path}", token, timeout)
        page.cookies = dict(response.cookies)
        if page.failure:
            return
        page.kernel_id = str(uuid.uuid4())
        cookie = "; ".join(f"{k}={v}" for k, v in page.cookies.items())
        ws_base = base.replace("http://", "ws://", 1)
        page.ws = await asyncio.wait_for(connect(
            f"{ws_base}/jupyter/api/kernels/{page.kernel_id}/channels?session_id={page.session}"
            + (f"&token={token}" if token else ""), additional_headers={"Cookie": cookie} if cookie else None,
            local_addr=(address, 0), max_size=2**26, open_timeout=timeout), timeout)
        comm_id = uuid.uuid4().hex
        await page.request(message("comm_open", {"comm_id": comm_id, "target_name": "solara.control", "data": {}},
                                   page.session), timeout=max(1.0, timeout - (time.monotonic() - start)))
        run = message("comm_msg", {"comm_id": comm_id, "data": {"method": "run", "args": {
            "path": path, "appName": None, "themes": None, "dark": False}}}, page.session)
        replies = await page.request(run, timeout=max(1.0, timeout - (time.monotonic() - start)))
        if not any(r["content"].get("data", {}).get("method") == "finished" for r in replies):
            page.failure = "no 'finished' from the server"

    return await timed(page, start, load)


def decode_json(frame: bytes | str) -> dict | None:
    if isinstance(frame, bytes):
        return decode(frame)
    got = json.loads(frame)
    return {"channel": got.get("channel"), "header": got["header"], "parent_header": got.get("parent_header", {}),
            "content": got.get("content", {})}


@dataclass
class SolaraPage(Page):
    """A page of Solara's server: JSON messages, Solara's close request on leaving, and the widgets the server
    opens recorded in ``states`` as they come (their state at opening, then its updates)."""

    cookies: dict = field(default_factory=dict)

    def beacon_cookies(self) -> dict:
        return self.cookies

    async def beacon(self, client):
        await client.post(f"{self.base}/_solara/api/close/{self.kernel_id}?session_id={self.session}")

    async def send(self, channel: str, msg: dict):
        await self.ws.send(json.dumps({**msg, "channel": channel}))

    async def receive(self) -> dict | None:
        got = decode_json(await self.ws.recv())
        kind, content = (got["header"].get("msg_type"), got["content"]) if got is not None else (None, {})
        if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.states[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
        elif kind == "comm_msg" and content.get("comm_id") in self.states \
                and content.get("data", {}).get("method") == "update":
            self.states[content["comm_id"]].update(content["data"].get("state", {}))
        return got
