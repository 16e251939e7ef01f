"""The classroom server's limits, on a real Voilà started as `make app SERVER=voila` starts it
(``python -m aluette.classroom``, with the package's aluette/classroom/voila/: voila.json and the template), on 127.0.0.1.

Sources: issue 10 (the attacks found by trying: kernels by plain GETs, file descriptors by websockets, kernels grown
by crafted ``comm_open`` messages; abandoned kernels kept 10 minutes because Voilà's shutdown beacon is refused,
voila-dashboards/voila#1458), and Jupyter's kernel websocket protocol (``v1.kernel.websocket.jupyter.org``). Every
loop is bounded; no timing is asserted (the figures are in tests/benchmarks/bench_class.py)."""

from __future__ import annotations

import json
import sys
import time
import uuid

import httpx
import psutil
import pytest

pytest.importorskip("voila")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from aluette.classroom import command  # noqa: E402
from aluette.classroom.server import raise_open_files_limit  # noqa: E402
from tests.server.student import KERNEL_ID, PROTOCOL, decode, encode, message  # noqa: E402

NO_POOL = "--VoilaConfiguration.preheat_kernel=False"
PAGE = "click.ipynb"  # a fixture notebook with a button and a text box (tests/browser/fixtures)


def get(server, path: str, **params) -> httpx.Response:
    return httpx.get(server.url + path, params=params, timeout=120)


def kernel_of(response: httpx.Response) -> str:
    assert response.status_code == 200, response.text[:300]
    return KERNEL_ID.search(response.text).group(1)


def kernel_alive(server, kernel_id: str) -> bool:
    """Voilà's kernels API answers 200 for a running kernel, 404 once it is shut down."""
    status = get(server, f"/api/kernels/{kernel_id}").status_code
    assert status in (200, 404), status
    return status == 200


def channels(server, kernel_id: str):
    return connect(server.url.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels?session_id="
                   + uuid.uuid4().hex, subprotocols=[PROTOCOL], max_size=2**25, open_timeout=60)


def request(ws, msg: dict, timeout: float = 60) -> list[dict]:
    """Send ``msg``; the messages parented by it until the kernel's idle status for it and, for a request, its
    reply."""
    ws.send(encode("shell", msg))
    replies, deadline = [], time.monotonic() + timeout
    reply_type = msg["header"]["msg_type"].replace("_request", "_reply")
    while time.monotonic() < deadline:
        got = decode(ws.recv(timeout=deadline - time.monotonic()))
        if got and got["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
            replies.append(got)
            kinds = {r["header"]["msg_type"] for r in replies}
            idle = any(r["header"]["msg_type"] == "status" and r["content"]["execution_state"] == "idle"
                       for r in replies)
            # the reply (shell channel) and the idle status (iopub) may come in either order
            if idle and (reply_type in kinds or not msg["header"]["msg_type"].endswith("_request")):
                return replies
    raise TimeoutError(msg["header"]["msg_type"])


def widget_comm_ids(ws) -> list[str]:
    """The ids of the kernel's widget comms (its ``comm_info_reply``)."""
    replies = request(ws, message("comm_info_request", {"target_name": "jupyter.widget"}, "test"))
    return next(list(r["content"]["comms"]) for r in replies if r["header"]["msg_type"] == "comm_info_reply")


def widget_comms(ws) -> int:
    return len(widget_comm_ids(ws))


def wait_until(predicate, limit: float) -> bool:
    """Poll ``predicate`` every half second for at most ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return predicate()


# ------------------------------------------------------------------------------------------- sessions (§2)

def test_the_page_beyond_an_address_cap_is_the_room_full_page(classroom):
    """Each GET of a notebook page hands out a kernel: the third page from one address, with a cap of two, is the
    "room is full" page with HTTP 503 and Retry-After, not a kernel; the landing page is still served."""
    server = classroom(NO_POOL, "--ClassroomIdentityProvider.max_sessions_per_address=2")
    first, second = kernel_of(get(server, f"/voila/render/{PAGE}")), kernel_of(get(server, f"/voila/render/{PAGE}"))
    assert first != second
    refused = get(server, f"/voila/render/{PAGE}")
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "60"
    assert "The room is full, try again in a minute" in refused.text
    assert "2 pages of the tutorial open" in refused.text
    assert KERNEL_ID.search(refused.text) is None
    assert get(server, "/").status_code == 200


def test_pages_per_minute_per_address_are_capped(classroom):
    """A reload loop frees each kernel (the shutdown beacon) but starts a new one each time: with at most 3 pages
    a minute, the fourth is the "room is full" page even though no page is open."""
    server = classroom(NO_POOL, "--ClassroomIdentityProvider.max_pages_per_minute=3")
    for _ in range(3):
        response = get(server, f"/voila/render/{PAGE}")
        kernel = kernel_of(response)
        shutdown = httpx.post(f"{server.url}/voila/api/shutdown/{kernel}", timeout=60,
                              cookies={"_xsrf": response.cookies["_xsrf"]}, data={"_xsrf": response.cookies["_xsrf"]})
        assert shutdown.status_code == 204  # the beacon Voilà's page sends, accepted thanks to the _xsrf cookie
    refused = get(server, f"/voila/render/{PAGE}")
    assert refused.status_code == 503 and "3 pages in the last minute" in refused.text


def test_the_room_cap_counts_every_address(classroom):
    """With a room of two, the third student (another address) gets the full page."""
    server = classroom(NO_POOL, "--ClassroomIdentityProvider.max_sessions=2")
    statuses = []
    for last_byte in (11, 12, 13):
        transport = httpx.HTTPTransport(local_address=f"127.0.0.{last_byte}")
        with httpx.Client(transport=transport, timeout=120) as client:
            statuses.append(client.get(f"{server.url}/voila/render/{PAGE}").status_code)
    assert statuses == [200, 200, 503]


def test_abandoned_pages_are_freed_and_their_places_given_back(classroom):
    """A page fetched and never connected, and a page whose tab was closed, are culled (short timeouts set here;
    voila.json's are 90 s + 30 s), and both their places are given back: the address that held its cap of two
    opens two pages again. (That a third page beyond the cap is refused is the first test's; checking it here would
    race the 3 s culler on a busy machine.)"""
    server = classroom(NO_POOL, "--ClassroomIdentityProvider.max_sessions_per_address=2",
                       "--MappingKernelManager.cull_idle_timeout=3", "--MappingKernelManager.cull_interval=1")
    never_connected = kernel_of(get(server, f"/voila/render/{PAGE}"))
    closed_tab = kernel_of(get(server, f"/voila/render/{PAGE}"))
    with channels(server, closed_tab) as ws:
        request(ws, message("kernel_info_request", {}, "test"))
    assert wait_until(lambda: not kernel_alive(server, never_connected) and not kernel_alive(server, closed_tab), 60)
    again = {kernel_of(get(server, f"/voila/render/{PAGE}")), kernel_of(get(server, f"/voila/render/{PAGE}"))}
    assert len(again) == 2 and not again & {never_connected, closed_tab}


def test_a_connected_page_is_kept(classroom):
    """Culling takes only kernels without a connection: an open page survives its idle timeout."""
    server = classroom(NO_POOL, "--MappingKernelManager.cull_idle_timeout=3", "--MappingKernelManager.cull_interval=1")
    kept = kernel_of(get(server, f"/voila/render/{PAGE}"))
    with channels(server, kept) as ws:
        request(ws, message("kernel_info_request", {}, "test"))
        time.sleep(8)  # more than timeout + interval: a kernel without connection would be gone by now
        assert kernel_alive(server, kept)
        request(ws, message("kernel_info_request", {}, "test"))


def _keep_busy(server) -> str:
    """Open the busy fixture's page, click its button through the widget protocol (a ``click`` custom message to
    every widget comm: only the button answers), see the kernel go busy, and close the tab. Returns the kernel."""
    kernel = kernel_of(get(server, "/voila/render/busy.ipynb"))
    with channels(server, kernel) as ws:
        for comm_id in widget_comm_ids(ws):
            ws.send(encode("shell", message("comm_msg", {"comm_id": comm_id, "data": {
                "method": "custom", "content": {"event": "click"}}}, "test")))
        assert wait_until(lambda: get(server, f"/api/kernels/{kernel}").json()["execution_state"] == "busy", 30)
    return kernel


def test_a_busy_kernel_whose_page_has_gone_is_culled(classroom):
    """voila.json's ``cull_busy``: a kernel kept busy (two minutes of work after a click) whose tab was then closed
    is culled like an idle one, instead of holding its memory and a core until the work ends. A page still
    connected is never culled (``cull_connected`` false, the test above)."""
    server = classroom(NO_POOL, "--MappingKernelManager.cull_idle_timeout=3", "--MappingKernelManager.cull_interval=1")
    kernel = _keep_busy(server)
    assert wait_until(lambda: not kernel_alive(server, kernel), 60)


def test_without_cull_busy_a_busy_kernel_outlives_its_page(classroom):
    """The control of the test above: with ``cull_busy`` off (jupyter_server's default), the same busy kernel is
    still there well after the idle timeout, so the test above can fail."""
    server = classroom(NO_POOL, "--MappingKernelManager.cull_idle_timeout=3", "--MappingKernelManager.cull_interval=1",
                       "--MappingKernelManager.cull_busy=False")
    kernel = _keep_busy(server)
    time.sleep(8)  # more than timeout + interval: an idle kernel without connection would be gone by now
    assert kernel_alive(server, kernel)


def test_teacher_notebooks_are_not_served_to_students(classroom, tmp_path):
    """The students' app answers 404 for the teacher's notebooks (aluette.classroom.TEACHER_NOTEBOOKS)."""
    server = classroom(NO_POOL, "--ClassroomIdentityProvider.teacher_notebooks=click.ipynb")
    refused = get(server, f"/voila/render/{PAGE}")
    assert refused.status_code == 404
    assert "This page is for the teacher" in refused.text


# ------------------------------------------------------------------------------------------- websockets (§2)

def test_websockets_per_kernel_are_capped(classroom):
    """A page's console could open websockets with new session ids until the server runs out of descriptors: the
    third socket to one kernel (cap 2) is refused with HTTP 503 before it is upgraded; closing one frees a place."""
    server = classroom(NO_POOL, "--ClassroomConnection.max_websockets_per_kernel=2")
    kernel = kernel_of(get(server, f"/voila/render/{PAGE}"))
    with channels(server, kernel) as one, channels(server, kernel):
        request(one, message("kernel_info_request", {}, "test"))
        with pytest.raises(InvalidStatus) as refused:
            channels(server, kernel)
        assert refused.value.response.status_code == 503
    assert wait_until(lambda: _can_connect(server, kernel), 30)


def _can_connect(server, kernel) -> bool:
    try:
        with channels(server, kernel) as ws:
            request(ws, message("kernel_info_request", {}, "test"))
        return True
    except InvalidStatus:
        return False


def test_an_oversized_websocket_message_is_refused(classroom):
    """voila.json's websocket_max_message_size (1 MiB): a 2 MiB message closes the socket (code 1009, message too
    big) without reaching the kernel, which still answers on a new socket."""
    server = classroom(NO_POOL)
    kernel = kernel_of(get(server, f"/voila/render/{PAGE}"))
    ws = channels(server, kernel)
    try:
        request(ws, message("kernel_info_request", {}, "test"))
        big = message("comm_msg", {"comm_id": "x", "data": {"pad": "x" * (2 * 2**20)}}, "test")
        with pytest.raises(ConnectionClosed) as closed:
            # The server may close while our 2 MiB are still going out: it closes a socket holding data it never
            # read, so its system sends a reset that can discard its close frame before we read it (seen on a
            # loaded machine). Either way the socket is closed; a close frame that does arrive says "too big".
            ws.send(encode("shell", big))
            for _ in range(1000):  # bounded: the close comes after at most the kernel's pending messages
                ws.recv(timeout=30)
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1009
    finally:
        try:  # the server ended the connection: closing our end may find it reset, which is not this test's concern
            ws.close()
        except (ConnectionClosed, OSError):
            pass
    assert wait_until(lambda: _can_connect(server, kernel), 30)


def widget_open(comm_id: str, pad: int = 0) -> dict:
    state = {"_model_name": "HTMLModel", "_model_module": "@jupyter-widgets/controls",
             "_model_module_version": "2.0.0", "_view_name": "HTMLView", "_view_module": "@jupyter-widgets/controls",
             "_view_module_version": "2.0.0", "value": "x" * pad}
    msg = message("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget",
                                "data": {"state": state, "buffer_paths": []}}, "test")
    msg["metadata"] = {"version": "2.1.0"}  # ipywidgets' protocol version, as a browser's widget manager sends
    return msg


def test_crafted_comm_opens_are_bounded(classroom):
    """A page may open at most max_comm_opens comms in its kernel, each at most max_comm_open_bytes long: of 20
    crafted widget comm_opens (cap 5) five are created in all, and one of 100 kB (cap 64 kB) none."""
    server = classroom(NO_POOL, "--ClassroomConnection.max_comm_opens=5")
    kernel = kernel_of(get(server, f"/voila/render/{PAGE}"))
    with channels(server, kernel) as ws:
        before = widget_comms(ws)
        request(ws, widget_open(uuid.uuid4().hex))  # a well-formed one is created...
        assert widget_comms(ws) == before + 1
        ws.send(encode("shell", widget_open(uuid.uuid4().hex, pad=100_000)))  # refused: no reply will come
        assert widget_comms(ws) == before + 1
        for _ in range(20):
            ws.send(encode("shell", widget_open(uuid.uuid4().hex)))
        assert widget_comms(ws) == before + 5  # ... and four more


# ------------------------------------------------------------------------------------------- descriptors (§2)

def test_open_files_soft_limit_is_raised_at_start(classroom):
    """Started with a soft limit of 256 open files, the server raises it (to 65536 or the hard limit)."""
    import resource
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip(f"the hard limit here is {hard}: nothing to raise")
    wrapper = ("import os, resource, sys; h = resource.getrlimit(resource.RLIMIT_NOFILE)[1]; "
               "resource.setrlimit(resource.RLIMIT_NOFILE, (256, h)); os.execv(sys.argv[1], sys.argv[1:])")
    server = classroom(NO_POOL, prefix=(sys.executable, "-c", wrapper))
    # `python -m aluette.classroom` runs Voilà as its child (aluette.classroom.workers.run), which inherits the limit
    voila, = psutil.Process(server.process.pid).children()
    assert "voila" in voila.cmdline()
    soft, _ = voila.rlimit(psutil.RLIMIT_NOFILE)
    assert soft == (65536 if hard == resource.RLIM_INFINITY else min(65536, hard))
    assert "Classroom: open files limit" in server.log_tail(limit=10**6)


def test_raise_open_files_limit_never_lowers():
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert raise_open_files_limit(1) == (soft, soft)
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (soft, hard)


# ------------------------------------------------------------------------------------------- token (§4)

@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "my-laptop.local"])
def test_off_the_loopback_a_token_is_always_set(host):
    launch = command.voila_command(host=host, port=8888)
    assert launch.token is not None and len(launch.token) >= 16
    assert f"--Voila.token={launch.token}" in launch.argv
    assert launch.url.endswith(f":8888/?token={launch.token}")
    assert command.voila_command(host=host).token != launch.token  # made anew each time


def test_the_teachers_token_is_used_and_checked():
    launch = command.voila_command(host="0.0.0.0", token="class-7B-aluette")
    assert "--Voila.token=class-7B-aluette" in launch.argv and launch.url.endswith("?token=class-7B-aluette")
    for bad in ["short", "with space in it", "x" * 200, "ünïcode-token"]:
        with pytest.raises(command.ServeError, match="bad token") as error:
            command.voila_command(host="0.0.0.0", token=bad)
        assert repr(bad[:8]) in str(error.value) and len(str(error.value)) < 100  # quotes a short prefix only


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.5"])
def test_on_the_loopback_no_token_is_needed(host):
    launch = command.voila_command(host=host)
    assert launch.token is None and not any(a.startswith("--Voila.token") for a in launch.argv)


def test_bad_host_and_port_are_refused():
    with pytest.raises(command.ServeError, match="bad port"):
        command.voila_command(port=70000)
    with pytest.raises(command.ServeError, match="bad host"):
        command.voila_command(host="")


def test_make_app_passes_host_port_and_token_to_the_command_builder():
    """`make app HOST=... TOKEN=...` reaches the command builder (dry run of make: the recipe it would run)."""
    import subprocess
    from tests.browser.harness import REPO
    out = subprocess.run(["make", "-n", "-o", ".venv/.aluette-installed", "app", "HOST=0.0.0.0", "PORT=9000",
                          "TOKEN=class-7B-aluette"], cwd=REPO, capture_output=True, text=True, timeout=30).stdout
    assert "-m aluette.classroom app --host=0.0.0.0 --port=9000 --notebooks=notebooks --token=class-7B-aluette" in out


def test_the_notebooks_are_told_and_a_folder_without_them_is_a_clear_error(tmp_path, monkeypatch, capsys):
    """The notebooks are the one thing a server reads outside the package (aluette.classroom.notebooks_folder):
    --notebooks (make app NOTEBOOKS=...), else ALUETTE_NOTEBOOKS, else notebooks/ in the current folder; a folder
    without a notebook is refused before anything is served, naming the folder and the option."""
    import os
    from aluette.classroom import notebooks_folder
    (tmp_path / "notebooks").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ALUETTE_NOTEBOOKS", raising=False)
    with pytest.raises(command.ServeError, match="no notebooks in .*--notebooks=PATH") as error:
        notebooks_folder()  # notebooks/ of the current folder: empty
    assert str(tmp_path / "notebooks")[:60] in str(error.value) and len(str(error.value)) < 300
    (tmp_path / "notebooks" / "00_start_here.ipynb").write_text("{}")
    assert notebooks_folder() == tmp_path / "notebooks" and notebooks_folder("notebooks").is_absolute()
    monkeypatch.setenv("ALUETTE_NOTEBOOKS", str(tmp_path / "elsewhere"))
    with pytest.raises(command.ServeError, match="no notebooks in") as error:
        notebooks_folder()
    assert str(tmp_path / "elsewhere")[:60] in str(error.value)  # the folder named, its first 80 characters
    assert command.voila_command(folder=tmp_path / "notebooks").argv[-1] == str(tmp_path / "notebooks")
    for server in ("solara", "voila"):
        assert command.main(["app", f"--server={server}", f"--notebooks={tmp_path / 'nowhere'}"]) == 2
        assert "no notebooks in" in capsys.readouterr().err
    assert os.environ["ALUETTE_NOTEBOOKS"].endswith("elsewhere")  # the command changed nothing


def test_with_a_token_nothing_is_served_without_it(classroom):
    """The token path a non-loopback host takes, on 127.0.0.1: without the token the landing page sends to the
    login page, a notebook page hands out no kernel, and the kernels API refuses; with it all is served."""
    token = "class-7B-aluette"
    server = classroom(NO_POOL, token=token)
    landing = httpx.get(server.url + "/", timeout=60)
    assert landing.status_code in (302, 403) and "login" in landing.headers.get("Location", "login")
    page = httpx.get(server.url + f"/voila/render/{PAGE}", timeout=60)
    assert page.status_code in (302, 403) and KERNEL_ID.search(page.text) is None
    assert httpx.get(server.url + f"/api/kernels/{uuid.uuid4()}", timeout=60).status_code == 403
    assert get(server, "/", token=token).status_code == 200
    kernel_of(get(server, f"/voila/render/{PAGE}", token=token))


# ------------------------------------------------------------------------------------------- author-only cells

def test_cells_tagged_remove_cell_are_left_out_of_the_app(classroom):
    """voila.json's TagRemovePreprocessor drops cells tagged remove-cell: their prose and output are not in the
    page and they do not run; the other cells are (fixture remove_cell.ipynb)."""
    server = classroom(NO_POOL)
    html = get(server, "/voila/render/remove_cell.ipynb").text
    assert "STUDENT OUTPUT" in html and "STUDENT PROSE" in html
    assert "AUTHOR-ONLY" not in html
    assert json.dumps("AUTHOR-ONLY")[1:-1] not in html


def test_a_lesson_warms_a_kernel_per_student_on_its_notebook_only():
    """`make app SERVER=voila LESSON=08 CLASS_SIZE=25`: Voilà's per-notebook pool config gives 08 a pool of 25, the
    others none, and the pool is not refilled during the hour of the lesson."""
    options = command.voila_command(lesson="8", class_size=25).argv
    pools = next(o for o in options if o.startswith("--VoilaKernelManager.kernel_pools_config="))
    assert json.loads(pools.split("=", 1)[1]) == {"08_play_a_match.ipynb": {"pool_size": 25},
                                                   "default": {"pool_size": 0}}
    assert "--VoilaKernelManager.fill_delay=3600" in options
    assert command.voila_command(lesson="08_play_a_match.ipynb").argv == command.voila_command(lesson="08").argv
    for bad, size in [("42", 30), ("", 30), ("08", 0), ("08", 500)]:
        with pytest.raises(command.ServeError):
            command.voila_command(lesson=bad, class_size=size)


def test_without_a_token_a_rebound_host_and_a_foreign_websocket_are_refused(classroom):
    """Issue 22 §5 (DNS rebinding): `make teacher` on 127.0.0.1 without a token answered any Host header and took a
    websocket with a matching Origin, so a hostile page whose name resolves to 127.0.0.1 could close a table. Only
    this computer's loopback names are answered now, and a websocket only from the server's own address."""
    server = classroom(audience="teacher")  # make teacher: no pool of pre-heated kernels
    port = server.url.rsplit(":", 1)[1]
    assert get(server, "/").status_code == 200
    assert httpx.get(server.url + "/", headers={"Host": f"localhost:{port}"}, timeout=60).status_code == 200
    for host in (f"evil.example:{port}", f"127.0.0.1.evil.example:{port}"):
        assert httpx.get(server.url + "/", headers={"Host": host}, timeout=60).status_code == 403, host
        assert httpx.get(server.url + f"/voila/render/{PAGE}", headers={"Host": host},
                         timeout=60).status_code == 403, host
    kernel = kernel_of(get(server, f"/voila/render/{PAGE}"))
    url = f"ws://127.0.0.1:{port}/api/kernels/{kernel}/channels?session_id={uuid.uuid4().hex}"
    for origin in ("null", f"http://evil.example:{port}", f"http://127.0.0.1:{int(port) + 1}"):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, subprotocols=[PROTOCOL], origin=origin, open_timeout=30).close()
        assert refused.value.response.status_code == 403, origin
    connect(url, subprotocols=[PROTOCOL], origin=f"http://127.0.0.1:{port}", open_timeout=30).close()  # its own


def test_a_reload_at_the_cap_replaces_the_page_it_leaves(classroom):
    """Issue 23 §3 on Voilà too: the browser asks for the reloaded page before its old page's shutdown, so at the
    cap a reload was "the room is full" and the page lost. A reload (``Cache-Control: max-age=0``) counts the old
    page as gone: one place over the cap, never two."""
    server = classroom(NO_POOL, "--ClassroomIdentityProvider.max_sessions_per_address=2")
    for _ in range(2):
        kernel_of(get(server, f"/voila/render/{PAGE}"))
    assert get(server, f"/voila/render/{PAGE}").status_code == 503
    reload = {"Cache-Control": "max-age=0"}
    assert kernel_of(httpx.get(server.url + f"/voila/render/{PAGE}", headers=reload, timeout=120))
    again = httpx.get(server.url + f"/voila/render/{PAGE}", headers=reload, timeout=120)
    assert again.status_code == 503  # its old page never left (no shutdown here): one place over, no more
