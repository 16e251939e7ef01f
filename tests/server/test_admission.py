"""The door of the students' app on Solara's server (aluette.classroom.admission), driven as ASGI with a stand-in
for Solara's app: token, caps per address and in all, pages per minute, the "room is full" page, and the command
that starts it (aluette.classroom.command.solara_command)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from aluette.classroom.admission import TOKEN_COOKIE, Admission, Starts, room_caps
from aluette.classroom.ledger import DOOR_PREFIX, Ledger, door_ledger
from aluette.classroom.command import ServeError, solara_command
from tests.coroutines import run as run_coroutine

REPO = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class Door:
    """An :class:`Admission` in front of a stand-in app that answers 200 and records what reached it; ``live``
    is the set of kernels the stand-in Solara holds."""

    def __init__(self, lessons=frozenset({"08_play_a_match", "00_start_here"}), **options):
        self.live: set[str] = set()
        self.reached: list[str] = []
        self.clock = Clock()

        async def app(scope, receive, send):
            self.reached.append(scope["path"])
            if scope["type"] == "websocket":
                await send({"type": "websocket.accept"})
                self.live.add(scope["path"].split("/")[4])
                return
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"page"})

        self.door = Admission(app, lessons=lambda: set(lessons), live=lambda: self.live,
                              clock=self.clock, **options)

    def call(self, path, kind="http", address="10.0.0.1", query=b"", cookie=None, method="GET", headers=()):
        sent = []
        headers = [*headers, *([(b"cookie", cookie.encode())] if cookie else [])]
        scope = {"type": kind, "path": path, "method": method, "client": (address, 5000), "query_string": query,
                 "headers": headers}

        async def receive():
            return {"type": "http.request"}

        async def send(message):
            sent.append(message)
        run_coroutine(self.door(scope, receive, send))
        start = sent[0]
        if kind == "websocket":
            return "accepted" if start["type"] == "websocket.accept" else "refused", sent
        body = b"".join(m.get("body", b"") for m in sent[1:]).decode()
        return start["status"], dict(start.get("headers", [])), body

    def student(self, path="/08_play_a_match", address="10.0.0.1", kernel="k"):
        """A page load: the page, then its websocket opening kernel ``kernel``."""
        status, _, _ = self.call(path, address=address)
        if status == 200:
            assert self.call(f"/jupyter/api/kernels/{kernel}/channels", "websocket", address)[0] == "accepted"
        return status


class TestCaps:
    def test_pages_beyond_the_cap_per_address_get_the_room_is_full_page(self):
        door = Door(per_address=2)
        assert [door.student(kernel=f"k{i}") for i in range(2)] == [200, 200]
        status, headers, body = door.call("/08_play_a_match")
        assert status == 503 and headers[b"retry-after"] == b"60"
        assert "The room is full, try again in a minute" in body and "2 pages of the tutorial open" in body
        assert door.call("/08_play_a_match", address="10.0.0.2")[0] == 200  # another computer still gets in

    def test_a_closed_page_frees_its_place(self):
        door = Door(per_address=1)
        assert door.student(kernel="k1") == 200
        assert door.call("/00_start_here")[0] == 503
        door.live.discard("k1")  # Solara closed the kernel (the tab's close request, or the culler)
        assert door.call("/00_start_here")[0] == 200

    def test_a_page_never_connected_counts_until_pending_s_have_passed(self):
        door = Door(per_address=1, pending_s=60)
        assert door.call("/08_play_a_match")[0] == 200
        assert door.call("/08_play_a_match")[0] == 503
        door.clock.now += 61
        assert door.call("/08_play_a_match")[0] == 200

    def test_the_room_has_a_cap_in_all(self):
        door = Door(max_sessions=3, per_address=4)
        assert [door.student(address=f"10.0.0.{i}", kernel=f"k{i}") for i in range(3)] == [200] * 3
        status, _, body = door.call("/08_play_a_match", address="10.0.0.9")
        assert status == 503 and "already serves 3 open pages" in body

    def test_a_reload_loop_is_held_to_pages_per_minute(self):
        door = Door(per_minute=5, per_address=40)
        statuses = []
        for i in range(8):
            statuses.append(door.student(kernel=f"k{i}"))
            door.live.discard(f"k{i}")  # each reload closes the last page
        assert statuses == [200] * 5 + [503] * 3
        door.clock.now += 61
        assert door.call("/08_play_a_match")[0] == 200

    def test_a_websocket_opening_a_kernel_beyond_the_caps_is_refused(self):
        door = Door(per_address=1)
        assert door.student(kernel="k1") == 200
        verdict, sent = door.call("/jupyter/api/kernels/k2/channels", "websocket")
        assert verdict == "refused" and sent[0]["code"] == 1008
        assert door.call("/jupyter/api/kernels/k1/channels", "websocket")[0] == "accepted"  # its own reconnects

    def test_other_requests_are_not_counted(self):
        door = Door(per_address=1)
        for _ in range(5):
            assert door.call("/static/main.js")[0] == 200
            assert door.call("/")[0] == 200
        assert door.call("/08_play_a_match")[0] == 200


class TestToken:
    def test_without_the_token_nothing_is_served(self):
        door = Door(token="class7b-aluette")
        for path in ("/", "/08_play_a_match", "/static/main.js"):
            status, _, body = door.call(path)
            assert status == 403 and "with its ?token=" in body
        assert door.call("/jupyter/api/kernels/k1/channels", "websocket")[0] == "refused"
        assert door.call("/", query=b"token=wrong-token")[0] == 403
        assert door.reached == []

    def test_the_token_in_the_address_sets_a_cookie_that_the_page_and_its_websocket_carry(self):
        door = Door(token="class7b-aluette")
        status, headers, _ = door.call("/", query=b"token=class7b-aluette")
        assert status == 200
        cookie = headers[b"set-cookie"].decode()
        assert cookie.startswith(f"{TOKEN_COOKIE}=class7b-aluette;") and "HttpOnly" in cookie
        assert door.call("/08_play_a_match", cookie=f"{TOKEN_COOKIE}=class7b-aluette")[0] == 200
        assert door.call("/jupyter/api/kernels/k1/channels", "websocket",
                         cookie=f"other=1; {TOKEN_COOKIE}=class7b-aluette")[0] == "accepted"


class TestCommand:
    def test_off_the_loopback_a_token_is_made_and_given_in_the_environment_not_the_command_line(self):
        launch = solara_command("0.0.0.0", 8890, environ={})
        assert launch.token and launch.env["ALUETTE_TOKEN"] == launch.token
        assert not any(launch.token in arg for arg in launch.argv)
        assert launch.url.endswith(f"?token={launch.token}")
        assert launch.env["SOLARA_KERNEL_CULL_TIMEOUT"] == "60s" and launch.env["SOLARA_MODE"] == "production"

    def test_on_the_loopback_no_token_is_needed_and_none_is_inherited(self):
        launch = solara_command("127.0.0.1", 8890, environ={"ALUETTE_TOKEN": "left-from-before"})
        assert launch.token is None and "ALUETTE_TOKEN" not in launch.env

    def test_a_bad_token_is_refused_as_for_voila(self):
        with pytest.raises(ServeError, match="bad token"):
            solara_command("0.0.0.0", 8890, token="short", environ={})


def test_the_teachers_notebooks_get_a_page_saying_so_and_links_by_file_name_lead_to_the_lesson():
    door = Door(token="secret-token")
    for path in ("/07_teachers_guide", "/11_teachers_tables", "/07_teachers_guide.ipynb"):
        status, _, body = door.call(path, query=b"token=secret-token")
        assert status == 404 and "This page is for the teacher" in body, path
    status, _, body = door.call("/07_teachers_guide")  # the token first: no page, not even this one, without it
    assert status == 403 and "for the teacher" not in body
    status, headers, _ = door.call("/08_play_a_match.ipynb", query=b"token=secret-token")
    assert status == 301 and headers[b"location"] == b"/08_play_a_match?token=secret-token"
    status, headers, _ = door.call("/no_such_lesson.ipynb", query=b"token=secret-token")
    assert status == 200 and b"location" not in headers  # not a lesson: Solara answers it
    assert door.reached == ["/no_such_lesson.ipynb"]


@pytest.mark.parametrize("gzipped", [False, True])
def test_every_html_page_says_its_language_and_may_be_zoomed(gzipped):
    """WCAG 3.1.1: ``<html lang="en">`` on Solara's pages (its template has a bare ``<html>``); WCAG 1.4.4: its
    viewport no longer forbids zooming (the template's ``maximum-scale=1, user-scalable=no``); whole or gzipped,
    with the length updated; other responses pass untouched."""
    import gzip

    from aluette.classroom.admission import PageHtml
    page = (b'<!doctype html>\n<html>\n<head><meta name="viewport" content="width=device-width, initial-scale=1, '
            b'maximum-scale=1, user-scalable=no, minimal-ui"><title>x</title></head><body>y</body></html>')

    async def app(scope, receive, send):
        html = scope["path"] == "/"
        body = gzip.compress(page) if gzipped and html else (page if html else b"<html> in a script")
        headers = [(b"content-type", b"text/html; charset=utf-8" if html else b"application/javascript"),
                   (b"content-length", str(len(body)).encode())]
        if gzipped and html:
            headers.append((b"content-encoding", b"gzip"))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body[:10], "more_body": True})
        await send({"type": "http.response.body", "body": body[10:]})

    def get(path):
        sent = []

        async def send(message):
            sent.append(message)
        run_coroutine(PageHtml(app)({"type": "http", "path": path, "method": "GET"}, None, send))
        headers = dict(sent[0]["headers"])
        body = b"".join(m.get("body", b"") for m in sent[1:])
        assert int(headers[b"content-length"]) == len(body)
        return gzip.decompress(body) if headers.get(b"content-encoding") == b"gzip" else body
    assert get("/") == page.replace(b"<html>", b'<html lang="en">').replace(
        b"initial-scale=1, maximum-scale=1, user-scalable=no, minimal-ui", b"initial-scale=1, minimal-ui")
    assert get("/static/main.js") == b"<html> in a script"


def test_a_kernel_takes_at_most_per_kernel_websockets_at_once():
    """Each websocket holds a thread and a file of Solara's server: a crafted client opening many on its own page's
    kernel (already admitted, so no cap of pages applies) is refused beyond ``per_kernel``; a closed one frees its
    place, and other kernels are not affected."""
    release = {}

    async def app(scope, receive, send):  # a stand-in Solara that keeps each websocket open until told
        await send({"type": "websocket.accept"})
        await release[scope["path"]].wait()

    door = Admission(app, lessons=lambda: {"08_play_a_match"}, live=lambda: {"k1", "k2"}, per_kernel=2)

    async def connect(kernel):
        sent = []

        async def receive():
            return {"type": "websocket.connect"}

        async def send(message):
            sent.append(message)
        scope = {"type": "websocket", "path": f"/jupyter/api/kernels/{kernel}/channels", "client": ("10.0.0.1", 5),
                 "query_string": b"", "headers": []}
        task = asyncio.ensure_future(door(scope, receive, send))
        await asyncio.sleep(0)
        return task, sent

    async def go():
        for kernel in ("k1", "k2"):
            release[f"/jupyter/api/kernels/{kernel}/channels"] = asyncio.Event()
        opened = [await connect("k1") for _ in range(5)]
        kinds = [sent[0]["type"] for _task, sent in opened]
        other = await connect("k2")
        release["/jupyter/api/kernels/k1/channels"].set()
        await asyncio.gather(*(task for task, _sent in opened))
        release["/jupyter/api/kernels/k1/channels"].clear()
        again = await connect("k1")
        for event in release.values():
            event.set()
        await asyncio.gather(other[0], again[0])
        return kinds, other[1][0]["type"], again[1][0]["type"], dict(door.sockets)

    kinds, other, again, left = run_coroutine(go())
    assert kinds == ["websocket.accept"] * 2 + ["websocket.close"] * 3
    assert other == "websocket.accept" and again == "websocket.accept"
    assert left == {}


def test_websockets_opened_back_to_back_count_before_solara_makes_their_kernels():
    """Solara makes a page's kernel in the websocket's own thread after the upgrade: sockets with made-up kernel
    ids opened back to back, none of them live yet, still count against the cap per address."""
    release = asyncio.Event()

    async def app(scope, receive, send):  # accepts, and never makes the kernel while the socket is open
        await send({"type": "websocket.accept"})
        await release.wait()

    door = Admission(app, lessons=lambda: {"08_play_a_match"}, live=set, per_address=4)

    async def go():
        verdicts, tasks = [], []
        for number in range(7):
            sent = []

            async def receive():
                return {"type": "websocket.connect"}

            async def send(message, sent=sent):
                sent.append(message)
            scope = {"type": "websocket", "path": f"/jupyter/api/kernels/made-up-{number}/channels",
                     "client": ("10.0.0.7", 5), "query_string": b"", "headers": []}
            tasks.append(asyncio.ensure_future(door(scope, receive, send)))
            await asyncio.sleep(0)
            verdicts.append(sent[0]["type"])
        release.set()
        await asyncio.gather(*tasks)
        return verdicts, door.sessions("10.0.0.7")

    verdicts, left = run_coroutine(go())
    assert verdicts == ["websocket.accept"] * 4 + ["websocket.close"] * 3
    assert left == 0  # closed, never live: their places are free again


def run_socket(door, frames, address="10.0.0.1"):
    """``frames`` sent on one websocket of kernel ``k1`` through ``door`` to a stand-in Solara that reads until the
    client leaves; how many of them reached it."""
    queue = [{"type": "websocket.connect"}] + [{"type": "websocket.receive", "text": f} for f in frames]
    got = []

    async def app(scope, receive, send):
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] != "websocket.disconnect":
            if message["type"] == "websocket.receive":
                got.append(message["text"])

    door.app = app

    async def receive():
        return queue.pop(0) if queue else {"type": "websocket.disconnect", "code": 1000}

    async def send(message):
        pass
    scope = {"type": "websocket", "path": "/jupyter/api/kernels/k1/channels", "client": (address, 5),
             "query_string": b"", "headers": []}
    run_coroutine(door(scope, receive, send))
    return len(got)


def test_a_websocket_is_ended_at_an_oversized_message_or_too_many_comm_opens():
    """Crafted widget messages (huge state, many ``comm_open``) would grow the one process that serves the class:
    the door ends the connection at a message above ``max_message`` bytes, a ``comm_open`` above
    ``max_comm_open_size``, the ``max_comm_opens``-th + 1 on one kernel, or past ``max_page_bytes`` received by one
    kernel, reconnections included."""

    def opening(size=10):
        return json.dumps({"header": {"msg_type": "comm_open"}, "content": {"data": {"state": {"v": "x" * size}}}})

    door = Admission(None, lessons=set, live=lambda: {"k1"}, max_message=1000, max_comm_opens=4,
                     max_comm_open_size=100)
    small = json.dumps({"header": {"msg_type": "comm_msg"}, "content": {}})
    assert run_socket(door, [small, "y" * 1001, small]) == 1  # ended at the oversized message
    assert run_socket(door, [opening(), opening(200), small]) == 1  # ended at the oversized comm_open
    assert run_socket(door, [opening(), opening(), small]) == 3  # its third and fourth
    assert run_socket(door, [opening(), small]) == 0  # its fifth, on a reconnection
    door = Admission(None, lessons=set, live=lambda: {"k1"}, max_message=1000, max_page_bytes=2500)
    text = json.dumps({"header": {"msg_type": "comm_msg"}, "content": {"data": {"state": {"value": "z" * 900}}}})
    assert run_socket(door, [text, text, text, small]) == 2  # ended at the third: over 2500 bytes in all
    assert run_socket(door, [small]) == 0  # the page's budget is spent, reconnections included


def test_a_lessons_sub_addresses_lead_to_its_one_page_so_a_reload_loop_through_them_is_counted():
    """Solara serves /08_play_a_match/anything as lesson 08: a reload loop through made-up sub-paths passed the cap
    of pages a minute. Such an address is moved (301) to the lesson's page, which is counted; the page's own assets
    under /NAME/static/ are not moved."""
    door = Door(per_minute=3)
    for i in range(5):
        status, headers, _ = door.call(f"/08_play_a_match/r{i}")
        assert status == 301 and headers[b"location"] == b"/08_play_a_match"
    assert [door.call("/08_play_a_match")[0] for _ in range(4)] == [200, 200, 200, 503]
    assert door.call("/08_play_a_match/static/assets/favicon.svg", address="10.0.0.9")[0] == 200
    assert door.call("/08_play_a_match.ipynb/x")[0] == 301
    assert door.call("/no_such_lesson/x", address="10.0.0.9")[0] == 200  # not a lesson: Solara answers it


def test_the_servers_figures_are_for_the_computer_that_runs_it():
    door = Door()
    status, _, body = door.call("/resourcez", address="10.0.0.1")
    assert status == 404 and "for the teacher" in body
    assert door.call("/resourcez", address="127.0.0.1")[0] == 200
    assert "/resourcez" not in door.reached[:-1] and door.reached == ["/resourcez"]


# ------------------------------------------------------------------------------------------------ several workers
def dead_pid() -> int:
    """The process id of a process that has ended (a worker gone)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


class TestSharedLedger:
    """``make app`` runs a uvicorn worker process per core; a page's GET and its websocket may reach different
    workers, so every worker's door counts one room, kept in one SQLite file (aluette.classroom.ledger)."""

    def doors(self, tmp_path, **options):
        path = tmp_path / "door.sqlite"
        return (Door(ledger=Ledger(path, worker=os.getpid()), **options),
                Door(ledger=Ledger(path, worker=os.getppid()), **options))

    def test_the_caps_count_the_pages_of_every_worker(self, tmp_path):
        one, two = self.doors(tmp_path, per_address=2, max_sessions=3)
        assert one.student(kernel="k1") == 200 and two.student(kernel="k2") == 200
        assert one.call("/08_play_a_match")[0] == 503 and two.call("/08_play_a_match")[0] == 503
        assert one.student(address="10.0.0.2", kernel="k3") == 200
        status, _, body = two.call("/08_play_a_match", address="10.0.0.3")
        assert status == 503 and "already serves 3 open pages" in body

    def test_a_page_admitted_by_one_worker_connects_to_another_in_its_place(self, tmp_path):
        one, two = self.doors(tmp_path, per_address=1)
        assert one.call("/08_play_a_match")[0] == 200  # the page, from worker one
        assert two.call("/jupyter/api/kernels/k1/channels", "websocket")[0] == "accepted"  # its socket, on two
        assert one.door.sessions("10.0.0.1") == 1 == two.door.sessions("10.0.0.1")
        assert one.call("/08_play_a_match")[0] == 503

    def test_pages_a_minute_are_counted_across_workers(self, tmp_path):
        one, two = self.doors(tmp_path, per_minute=3, per_address=40)
        statuses = [(one if i % 2 else two).call("/08_play_a_match")[0] for i in range(5)]
        assert statuses == [200] * 3 + [503] * 2

    def test_a_worker_forgets_its_closed_pages_and_the_pages_of_a_worker_that_is_gone(self, tmp_path):
        one, two = self.doors(tmp_path, per_address=1)
        assert one.student(kernel="k1") == 200
        assert two.call("/00_start_here")[0] == 503
        one.live.discard("k1")  # closed in worker one, which sees no request since
        one.door.prune()  # its pruning thread (aluette/classroom/solara_asgi.py)
        assert two.call("/00_start_here")[0] == 200
        gone = Door(ledger=Ledger(tmp_path / "door.sqlite", worker=dead_pid()), per_address=1)
        assert gone.student(address="10.0.0.5", kernel="k9") == 200
        assert one.call("/00_start_here", address="10.0.0.5")[0] == 200  # its kernel went with its process

    def test_a_tabs_close_request_reaching_the_other_worker_is_passed_on_to_the_kernels_worker(self, tmp_path):
        """A leaving tab posts Solara's close (``/_solara/api/close/KERNEL?session_id=PAGE``) to whichever worker
        the connection reaches: the worker holding the kernel carries it out at its next pruning (every second)."""
        one, two = self.doors(tmp_path, per_address=1)
        closed = []
        one.door.close_page = lambda kernel, page: (closed.append((kernel, page)), one.live.discard(kernel))
        assert one.student(kernel="k1") == 200
        status, _, _ = two.call("/_solara/api/close/k1", method="POST", query=b"session_id=page-1")
        assert status == 200 and two.reached == []  # answered by the door: worker two has no such kernel
        two.door.prune()
        assert closed == []  # not worker two's to carry out
        one.door.prune()
        assert closed == [("k1", "page-1")] and two.call("/00_start_here")[0] == 200
        one.door.prune()
        assert closed == [("k1", "page-1")]  # carried out once
        one.call("/_solara/api/close/k1", method="POST", query=b"session_id=page-2")
        two.call("/_solara/api/close/nobody", method="POST", query=b"session_id=page-3")
        assert one.reached[-1] == "/_solara/api/close/k1" and two.reached[-1] == "/_solara/api/close/nobody"

    def test_the_workers_of_one_server_open_one_private_ledger_and_stopped_servers_ledgers_go(self, tmp_path):
        """Each worker of a server finds the ledger by its parent's process id (uvicorn's, which started them):
        ``<temporary folder>/aluette-door-<pid>/door.sqlite``, a folder only this user may open; a stopped
        server's folder is removed at the next start; one worker keeps its ledger in memory."""
        stopped = tmp_path / f"{DOOR_PREFIX}{dead_pid()}"
        stopped.mkdir()
        (stopped / "door.sqlite").write_text("")
        one, two = door_ledger(2, folder=tmp_path), door_ledger(2, folder=tmp_path)
        own = tmp_path / f"{DOOR_PREFIX}{os.getppid()}"
        assert not stopped.exists() and one.path == two.path == str(own / "door.sqlite")
        assert own.stat().st_mode & 0o777 == 0o700
        with one.transaction() as db:
            db.admit_page("10.0.0.1", 1.0)
        with two.transaction() as db:
            assert db.pages("10.0.0.1") == 1
        assert door_ledger(1, folder=tmp_path).path == ":memory:"
        own.chmod(0o777)  # a folder others may write into is not trusted
        with pytest.raises(PermissionError, match="not a private folder"):
            door_ledger(2, folder=tmp_path)

    def test_two_processes_never_both_grant_the_last_place(self, tmp_path):
        """Four processes ask for pages from one address at once, five each: exactly ``per_address`` get one."""
        path = tmp_path / "door.sqlite"
        Ledger(path).close()  # the schema, made once
        script = ("import sys; from tests.server.test_admission import Door; from aluette.classroom.ledger import "
                  "Ledger; door = Door(ledger=Ledger(sys.argv[1]), per_address=3, per_minute=100); "
                  "print(sum(door.call('/08_play_a_match')[0] == 200 for _ in range(5)))")
        workers = [subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True,
                                    cwd=REPO) for _ in range(4)]
        granted = [int(p.communicate(timeout=120)[0]) for p in workers]
        assert sum(granted) == 3, granted


# ------------------------------------------------------------------------------------------------ pages in turn
class TestStarts:
    """New pages start in turn in a worker (aluette.classroom.admission.Starts): the door holds a new page's
    websocket until the page before it is drawn, its websocket is gone, or ``longest`` seconds have passed."""

    def test_pages_start_in_the_order_they_came_as_the_ones_before_are_drawn(self):
        async def go():
            starts, order = Starts(at_once=1, longest=30), []

            async def page(kernel):
                await starts.enter(kernel)
                order.append(kernel)
            tasks = [asyncio.ensure_future(page(k)) for k in ("a", "b", "c")]
            await asyncio.sleep(0.01)
            assert order == ["a"] and starts.waiting == ["b", "c"]
            drawn = threading.Thread(target=starts.started, args=("a",))  # said from the page's kernel thread
            drawn.start()
            drawn.join()
            await asyncio.sleep(0.01)
            assert order == ["a", "b"]
            starts.leave("b")  # its websocket went before it was drawn
            await asyncio.gather(*tasks)
            return order, starts.starting
        assert run_coroutine(go()) == (["a", "b", "c"], ["c"])

    def test_a_page_that_never_says_it_is_drawn_holds_its_place_only_longest_seconds(self):
        async def go():
            starts = Starts(at_once=1, longest=0.05)
            await starts.enter("crafted")  # a websocket that never asks for its page
            started = time.monotonic()
            await asyncio.wait_for(starts.enter("student"), 5)
            return time.monotonic() - started
        assert 0.04 <= run_coroutine(go()) < 5

    def test_a_student_who_leaves_while_waiting_loses_no_one_their_turn(self):
        async def go():
            starts = Starts(at_once=1, longest=30)
            await starts.enter("a")
            gone = asyncio.ensure_future(starts.enter("b"))
            after = asyncio.ensure_future(starts.enter("c"))
            await asyncio.sleep(0.01)
            gone.cancel()
            starts.leave("a")
            await asyncio.wait_for(after, 5)
            return starts.starting
        assert run_coroutine(go()) == ["c"]

    def test_the_door_holds_a_new_pages_websocket_but_not_a_reconnection(self):
        """Through the door: a second new page waits until the first is drawn; the first page's own second
        websocket (a reconnection, its kernel made) passes at once."""
        release, live, state = asyncio.Event(), set(), {}

        async def app(scope, receive, send):  # a stand-in Solara: makes the kernel, keeps the socket open
            live.add(scope["path"].split("/")[4])
            await send({"type": "websocket.accept"})
            await release.wait()

        starts = Starts(at_once=1, longest=30)
        door = Admission(app, lessons=lambda: {"08_play_a_match"}, live=lambda: live, per_address=10,
                         starts=starts)

        async def connect(kernel, name):
            state[name] = "waiting"
            sent = []

            async def receive():
                return {"type": "websocket.connect"}

            async def send(message):
                sent.append(message)
                state[name] = message["type"]
            scope = {"type": "websocket", "path": f"/jupyter/api/kernels/{kernel}/channels",
                     "client": ("10.0.0.1", 5), "query_string": b"", "headers": []}
            await door(scope, receive, send)

        async def go():
            tasks = [asyncio.ensure_future(connect("k1", "first"))]
            await asyncio.sleep(0.01)
            tasks.append(asyncio.ensure_future(connect("k2", "second")))
            tasks.append(asyncio.ensure_future(connect("k1", "first again")))
            await asyncio.sleep(0.01)
            before = dict(state)
            starts.started("k1")  # the first page is drawn
            await asyncio.sleep(0.01)
            after = dict(state)
            release.set()
            await asyncio.gather(*tasks)
            return before, after
        before, after = run_coroutine(go())
        assert before == {"first": "websocket.accept", "second": "waiting", "first again": "websocket.accept"}
        assert after["second"] == "websocket.accept"


class TestReplacing:
    """Issue 23 §3: a reload or a "Next:" link at a cap replaced the student's page by "the room is full". The
    browser asks for the new page before the old one has gone (Solara's close request is a beacon sent at
    ``beforeunload``, on a connection of its own): a request saying it replaces a page counts that page as gone."""

    RELOAD = [(b"cache-control", b"max-age=0")]

    def load(self, door, kernel, headers=(), address="10.0.0.1", path="/08_play_a_match"):
        """A page load with ``headers``, then (if admitted and ``kernel``) its websocket."""
        status = door.call(path, address=address, headers=headers)[0]
        if status == 200 and kernel is not None:
            assert door.call(f"/jupyter/api/kernels/{kernel}/channels", "websocket", address)[0] == "accepted"
        return status

    def test_a_reload_at_the_cap_replaces_the_page_it_leaves(self):
        door = Door(per_address=4)
        assert [door.student(kernel=f"k{i}") for i in range(4)] == [200] * 4
        assert door.call("/08_play_a_match")[0] == 503  # a fifth tab: the cap holds
        assert self.load(door, "k4", self.RELOAD) == 200  # tab k3 reloads: k3 counts as gone
        door.live.discard("k3")  # its close request arrives
        assert door.door.sessions("10.0.0.1") == 4
        assert self.load(door, "k5", [(b"cache-control", b"no-cache")]) == 200  # a hard reload of k4
        door.live.discard("k4")
        assert door.door.sessions("10.0.0.1") == 4

    def test_a_link_from_a_lesson_of_this_server_replaces_its_page(self):
        door = Door(per_address=2)
        assert [door.student(kernel=f"k{i}") for i in range(2)] == [200] * 2
        came_from = [(b"host", b"localhost:8888"), (b"referer", b"http://localhost:8888/00_start_here")]
        assert self.load(door, "k2", came_from) == 200
        door.live.discard("k1")
        foreign = [(b"host", b"localhost:8888"), (b"referer", b"http://elsewhere:8888/00_start_here")]
        assert self.load(door, None, foreign) == 503  # a link from another site replaces nothing here
        landing = [(b"host", b"localhost:8888"), (b"referer", b"http://localhost:8888/")]
        assert self.load(door, None, landing) == 503  # the landing page is no lesson's page: nothing is left

    def test_a_replacing_page_is_one_place_over_at_most_and_never_over_the_pages_a_minute(self):
        door = Door(per_address=2, per_minute=40)
        assert [door.student(kernel=f"k{i}") for i in range(2)] == [200] * 2
        assert self.load(door, "k2", self.RELOAD) == 200  # the old page did not go (a crafted reload)
        assert self.load(door, None, self.RELOAD) == 503  # a second one without the first gone: refused
        first = Door(per_address=40, per_minute=3)
        assert [self.load(first, f"k{i}", self.RELOAD) for i in range(4)] == [200] * 3 + [503]

    def test_a_replacing_page_of_a_computer_with_no_page_open_gets_no_extra_place_in_a_full_room(self):
        door = Door(max_sessions=2, per_address=4)
        assert [door.student(address=f"10.0.0.{i}", kernel=f"k{i}") for i in range(2)] == [200] * 2
        assert self.load(door, None, self.RELOAD, address="10.0.0.9") == 503
        assert self.load(door, "k9", self.RELOAD, address="10.0.0.1") == 200  # 10.0.0.1's page counts as gone

    def test_the_computer_that_runs_the_app_and_the_teachers_hold_more_pages(self):
        door = Door(per_address=4, operator_per_address=8, teacher_addresses=frozenset({"10.0.0.7"}))
        for address in ("127.0.0.1", "10.0.0.7"):
            assert [door.student(address=address, kernel=f"{address}-{i}") for i in range(8)] == [200] * 8
            assert door.call("/08_play_a_match", address=address)[0] == 503
        assert [door.student(address="10.0.0.2", kernel=f"s{i}") for i in range(5)] == [200] * 4 + [503]


class TestAClasssOwnLimits:
    """Issue 23 §3 at the limits `make app` gives a class (no ALUETTE_MAX_* variable set: admission.room_caps, the
    numbers docs/classroom.md and the README state): the computer that runs the app (or the teacher's) opens four
    seats of play together and a lesson beside them, reloads each seat and follows a lesson's "Next:" link, and keeps
    every page, each reload and link replacing the page it leaves; a student's computer at its cap keeps its page on
    a reload."""

    CAPS = room_caps({})
    LESSONS = {"08_play_a_match", "09_analysis", "10_play_together"}
    RELOAD = TestReplacing.RELOAD

    def test_the_defaults_are_the_docs(self):
        """The limits docs/classroom.md states ("The room's limits"), and the README's short form of them."""
        docs = " ".join((REPO / "docs" / "classroom.md").read_text(encoding="utf-8").split())
        readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
        caps = self.CAPS
        assert (f"each computer holds at most {caps['per_address']} open pages at once, and opens at most "
                f"{caps['per_minute']} pages a minute; the room holds {caps['max_sessions']} pages in all") in docs
        assert (f"The computer that runs the app (127.0.0.1) and the teacher's (`make app HOST=0.0.0.0 "
                f"TEACHER_ADDRESS=192.168.1.20`) hold {caps['operator_per_address']}, enough to rehearse play "
                f"together alone (four seats)") in docs
        assert (f"each computer holds at most {caps['per_address']} open pages and opens at most "
                f"{caps['per_minute']} a minute, the room holds {caps['max_sessions']} pages in all; on Solara's "
                f"server the app's computer and the teacher's (`TEACHER_ADDRESS=...`) hold "
                f"{caps['operator_per_address']}") in readme
        assert room_caps({"ALUETTE_MAX_SESSIONS_PER_OPERATOR": "5", "ALUETTE_TEACHER_ADDRESSES": "10.0.0.7"}) == {
            **caps, "operator_per_address": 5, "teacher_addresses": frozenset({"10.0.0.7"})}

    @pytest.mark.parametrize("address", ["127.0.0.1", "192.168.1.20"])
    def test_four_seats_a_lesson_their_reloads_and_a_next_link_from_the_apps_computer_are_all_admitted(self, address):
        door = Door(lessons=self.LESSONS, **room_caps({"ALUETTE_TEACHER_ADDRESSES": "192.168.1.20"}))
        load, seats = TestReplacing().load, [f"seat {i}" for i in range(4)]
        assert [door.student("/10_play_together", address, kernel) for kernel in seats] == [200] * 4
        assert door.student("/08_play_a_match", address, "lesson") == 200
        assert door.door.sessions(address) == 5 > self.CAPS["per_address"]  # more than a student's computer holds
        for kernel in seats:  # each seat's page reloaded: admitted, and its old page goes with its close request
            assert load(door, f"{kernel} again", self.RELOAD, address, "/10_play_together") == 200
            door.live.discard(kernel)
            assert door.door.sessions(address) == 5
        came_from = [(b"host", b"localhost:8888"), (b"referer", b"http://localhost:8888/08_play_a_match")]
        assert load(door, "next lesson", came_from, address, "/09_analysis") == 200  # "Next: 09 Analysis"
        door.live.discard("lesson")
        assert door.door.sessions(address) == 5  # ten pages opened in the minute, all kept, five held
        door.clock.now += 61  # a minute later (twelve pages a minute: ten were opened), up to its cap of pages held
        for k in range(3):
            assert door.student("/08_play_a_match", address, f"more {k}") == 200
        assert door.door.sessions(address) == self.CAPS["operator_per_address"]
        assert load(door, "seat 0 once more", self.RELOAD, address, "/10_play_together") == 200  # at the cap: replaced
        assert door.call("/08_play_a_match", address=address)[0] == 503  # a new page beyond it is refused

    def test_a_students_computer_at_its_cap_keeps_its_page_on_a_reload(self):
        door = Door(lessons=self.LESSONS, **self.CAPS)
        cap = self.CAPS["per_address"]
        assert [door.student(address="10.0.0.5", kernel=f"k{i}") for i in range(cap)] == [200] * cap
        assert door.call("/08_play_a_match", address="10.0.0.5")[0] == 503  # a page more: the cap holds
        assert TestReplacing().load(door, "k again", self.RELOAD, "10.0.0.5") == 200  # a reload replaces its page
        door.live.discard(f"k{cap - 1}")
        assert door.door.sessions("10.0.0.5") == cap


def test_the_teachers_address_reaches_the_server_checked():
    from aluette.classroom.command import main, teacher_addresses
    launch = solara_command("0.0.0.0", 8890, teachers=teacher_addresses("192.168.1.20, ::1"))
    assert launch.env["ALUETTE_TEACHER_ADDRESSES"] == "192.168.1.20,::1"
    assert "ALUETTE_TEACHER_ADDRESSES" not in solara_command("0.0.0.0", 8890, environ={
        "ALUETTE_TEACHER_ADDRESSES": "10.9.9.9"}).env  # never inherited
    with pytest.raises(ServeError, match="'teacher-pc' is not an IP address"):
        teacher_addresses("teacher-pc")
    assert main(["app", "--server=voila", "--teacher-address=10.0.0.1"]) == 2


class TestRebinding:
    """Issue 22 §5: a hostile page whose name resolves to 127.0.0.1 (DNS rebinding) reached the app on the loopback
    address without a token (any Host) and opened websockets from another origin (``Origin: null`` included)."""

    def test_without_a_token_only_the_loopback_names_are_answered(self):
        door = Door(per_address=8)
        for host in (b"127.0.0.1:8888", b"localhost:8888", b"[::1]:8888", b"LOCALHOST", b"127.0.0.2:8888"):
            assert door.call("/08_play_a_match", headers=[(b"host", host)])[0] == 200, host
        for host in (b"evil.example:8888", b"127.0.0.1.evil.example", b"0x7f.1:8888"):
            status, _, body = door.call("/", headers=[(b"host", host)])
            assert status == 403 and "This app answers only at this computer" in body, host
            verdict, _ = door.call("/jupyter/api/kernels/k/channels", "websocket", headers=[(b"host", host)])
            assert verdict == "refused", host
        assert door.reached == ["/08_play_a_match"] * 5  # nothing else reached the app

    def test_a_websocket_from_another_origin_is_refused_with_or_without_a_token(self):
        for door, cookie in ((Door(), None), (Door(token="class-7B-aluette"), f"{TOKEN_COOKIE}=class-7B-aluette")):
            host = [(b"host", b"127.0.0.1:8888")]
            for origin in (b"null", b"http://evil.example:8888", b"http://127.0.0.1:9999", b"file://"):
                verdict, _ = door.call("/jupyter/api/kernels/k1/channels", "websocket", cookie=cookie,
                                       headers=[*host, (b"origin", origin)])
                assert verdict == "refused", origin
            verdict, _ = door.call("/jupyter/api/kernels/k1/channels", "websocket", cookie=cookie,
                                   headers=[*host, (b"origin", b"http://127.0.0.1:8888")])
            assert verdict == "accepted"

    def test_with_a_token_any_host_is_answered(self):
        door = Door(token="class-7B-aluette")
        status = door.call("/", query=b"token=class-7B-aluette", headers=[(b"host", b"school-laptop:8888")])[0]
        assert status == 200
