"""The students' app on Solara's server (``make app``'s default: ``aluette/classroom/solara_asgi.py`` and
``solara_app.py``): started through ``python -m aluette.classroom app --server=solara`` as ``make app`` starts it,
on a folder of fixture notebooks, pages loaded as a student's browser loads them (``tests/server/student.py``); and
the command's choice of server and token (README, "Serving the tutorial to a class")."""

from __future__ import annotations

import asyncio
import html
import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from aluette.classroom import command
from aluette.classroom.landing import read_entry
from aluette.classroom.ledger import WORKERS_ENV
from aluette.classroom.workers import READY_DIR_ENV
from tests.browser.harness import FIXTURES, REPO, Server, server_env
from tests.coroutines import run as run_coroutine
from tests.server.student import message, open_solara_page

pytest.importorskip("solara", reason="Solara's server is in the 'lab' extra: pip install -e '.[lab]'")


TOKEN = "test-token-solara"


@pytest.fixture(scope="module")
def solara_server(tmp_path_factory):
    """The app on a copy of two fixtures and one named as the teacher's guide (07), with a token, on two worker
    processes (``make app``'s default on a 2-core machine, said here so that it holds on any machine): a page's
    requests reach either worker."""
    folder = tmp_path_factory.mktemp("solara-notebooks")
    for name in ("click.ipynb", "remove_cell.ipynb"):
        shutil.copy(FIXTURES / name, folder / name)
    shutil.copy(FIXTURES / "click.ipynb", folder / "07_teachers_guide.ipynb")
    shutil.copy(FIXTURES / "click.ipynb", folder / "first_page.ipynb")  # opened by one test only

    def command(port):
        return [sys.executable, "-m", "aluette.classroom", "app", "--server=solara", "--host=127.0.0.1",
                f"--port={port}", f"--folder={folder}", f"--token={TOKEN}", "--workers=2"]
    server = Server("solara-classroom", command, REPO, server_env(tmp_path_factory.mktemp("solara-home")))
    server.ready = f"/?token={TOKEN}"
    server.start()
    yield server
    server.stop()


def shown(page) -> str:
    """Everything the page's widgets hold, as one text."""
    return json.dumps(page.states)


def load(server, path, address="127.0.0.1"):
    async def go():
        page = await open_solara_page(server.url, path, address, token=TOKEN)
        await page.close()
        return page
    return run_coroutine(go())


def test_the_landing_page_lists_the_students_notebooks_not_the_teachers(solara_server):
    page = load(solara_server, "/")
    assert page.failure is None
    text = shown(page)
    lessons = [read_entry(FIXTURES / name) for name in ("click.ipynb", "remove_cell.ipynb")]
    places = [text.index(json.dumps(f'href="/{Path(e.file).stem}"')[1:-1]) for e in lessons]
    assert places == sorted(places)  # in teaching (file name) order
    for entry in lessons:
        for words in (entry.title, entry.description):
            assert json.dumps(html.escape(words))[1:-1] in text
    assert "07_teachers_guide" not in text


def test_the_teachers_notebook_is_not_served(solara_server):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{solara_server.url}/07_teachers_guide?token={TOKEN}", timeout=30)
    assert refused.value.code == 404


def test_a_lessons_page_says_its_language_and_may_be_zoomed(solara_server):
    """The served page itself (Solara's template through the door): WCAG 3.1.1 and 1.4.4 (a phone may zoom)."""
    with urllib.request.urlopen(f"{solara_server.url}/click?token={TOKEN}", timeout=30) as response:
        head = response.read().decode()[:4000]
    assert '<html lang="en"' in head and 'name="viewport"' in head
    assert "user-scalable" not in head and "maximum-scale" not in head


def test_a_page_shows_prose_and_outputs_without_code_or_removed_cells(solara_server):
    page = load(solara_server, "/remove_cell")
    assert page.failure is None
    text = shown(page)
    assert "STUDENT OUTPUT" in text and "STUDENT PROSE" in text
    assert "AUTHOR-ONLY" not in text and "print(" not in text


def test_a_students_click_changes_their_page_only(solara_server):
    async def go():
        first = await open_solara_page(solara_server.url, "/click", "127.0.0.21", token=TOKEN)
        second = await open_solara_page(solara_server.url, "/click", "127.0.0.22", token=TOKEN)
        try:
            assert first.failure is None and second.failure is None
            button = next(c for c, s in first.states.items() if s.get("description") == "Click me")
            replies = await first.request(message("comm_msg", {"comm_id": button, "data": {
                "method": "custom", "content": {"event": "click"}}}, first.session))
            updates = [r["content"]["data"].get("state", {}) for r in replies
                       if r["header"]["msg_type"] == "comm_msg" and r["content"]["data"].get("method") == "update"]
            assert any(u.get("value") == "clicked 1 times" for u in updates)
            label = next(c for c, s in second.states.items() if s.get("value") == "not clicked yet")
            replies = await second.request(message("comm_msg", {"comm_id": label, "data": {
                "method": "request_state"}}, second.session))
            states = [r["content"]["data"].get("state", {}) for r in replies
                      if r["header"]["msg_type"] == "comm_msg" and r["content"]["data"].get("method") == "update"]
            assert [s.get("value") for s in states] == ["not clicked yet"]  # the other student's label
        finally:
            await first.close()
            await second.close()
    run_coroutine(go())


def test_nothing_is_served_without_the_token(solara_server):
    for path in ("/", "/click", "/static/main-vuetify.js"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(solara_server.url + path, timeout=30)
        assert refused.value.code == 403


def test_a_student_beyond_the_cap_gets_the_room_is_full_page_and_a_closed_tab_frees_a_place(solara_server):
    """Four pages per address (the default), counted across both workers: the fifth gets the 503 page; closing
    one (the page's close request, which may reach the other worker: it is passed on through the door's ledger
    within a second) lets the next in."""
    async def go():
        pages = [await open_solara_page(solara_server.url, "/click", "127.0.0.31", token=TOKEN) for _ in range(5)]
        try:
            assert [p.status for p in pages] == [200] * 4 + [503]
            assert "The room is full, try again in a minute" in pages[4].html
            await pages[0].close()
            for _attempt in range(6):  # bounded: the cap of 12 pages a minute leaves 7 loads
                await asyncio.sleep(1)
                again = await open_solara_page(solara_server.url, "/click", "127.0.0.31", token=TOKEN)
                pages.append(again)
                if again.status != 503:
                    break
            assert again.status == 200 and again.failure is None
        finally:
            for page in pages:
                await page.close()
    run_coroutine(go())


@pytest.fixture(scope="module")
def solara_08(tmp_path_factory):
    """The app on notebook 08 alone (its template run costs a few seconds of CPU at start)."""
    folder = tmp_path_factory.mktemp("solara-08")
    shutil.copy(REPO / "notebooks" / "08_play_a_match.ipynb", folder)

    def command(port):
        return [sys.executable, "-m", "aluette.classroom", "app", "--server=solara", "--host=127.0.0.1",
                f"--port={port}", f"--folder={folder}"]
    server = Server("solara-08", command, REPO, server_env(tmp_path_factory.mktemp("solara-08-home")))
    server.start()
    yield server
    server.stop()


def widget_with_class(page, name: str) -> str:
    return next(c for c, s in page.states.items() if name in s.get("_dom_classes", []))


async def current_state(page, comm_id: str) -> dict:
    replies = await page.request(message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}},
                                         page.session))
    return next(r["content"]["data"]["state"] for r in replies if r["header"]["msg_type"] == "comm_msg"
                and r["content"]["data"].get("method") == "update")


def test_a_students_card_size_is_theirs_alone(solara_08):
    """On Solara's server every page runs in one process: the card size is kept per page
    (:func:`aluette.widgets.common.set_page_storage`), so one student's "Large" leaves another's cards alone."""
    async def go():
        first = await open_solara_page(solara_08.url, "/08_play_a_match", "127.0.0.41")
        second = await open_solara_page(solara_08.url, "/08_play_a_match", "127.0.0.42")
        try:
            assert first.failure is None and second.failure is None
            size = widget_with_class(first, "aluette-card-size")
            await first.request(message("comm_msg", {"comm_id": size, "data": {
                "method": "update", "state": {"index": 2}, "buffer_paths": []}}, first.session))
            mine = await current_state(first, widget_with_class(first, "aluette-card-style"))
            theirs = await current_state(second, widget_with_class(second, "aluette-card-style"))
            assert "--aluette-card-w: 84px" in mine["value"]  # the positive control: the change took
            assert "--aluette-card-w: 72px" in theirs["value"]
        finally:
            await first.close()
            await second.close()
    run_coroutine(go())


def launched(monkeypatch, *argv: str) -> dict:
    """What ``python -m aluette.classroom ARGV`` would run: its ``argv``, ``env`` and ``watch`` (its
    :class:`~aluette.classroom.workers.Readiness`), and for several Solara workers on Linux the argv of the worker
    given socket 7 and ``served`` (host, port, workers): nothing is started."""
    ran = {}
    monkeypatch.setattr(command, "serve_workers", lambda fd_argv, env, host, port, workers, watch: ran.update(
        argv=fd_argv(7), env=env, served=(host, port, workers), watch=watch) or 0)
    monkeypatch.setattr(command, "run_server", lambda args, env, watch: ran.update(argv=args, env=env, watch=watch)
                        or 0)
    monkeypatch.delenv("ALUETTE_TOKEN", raising=False)
    assert command.main(list(argv)) == 0
    return ran


def given_out(ran: dict, capsys) -> str:
    """The address as ``make app`` gives it: on every path once the server is ready (the lines of its
    :class:`~aluette.classroom.workers.Readiness`), never before (issue 23 §4)."""
    printed = capsys.readouterr().out
    assert "http" not in printed and printed.startswith("aluette: starting"), printed
    return "\n".join(ran["watch"].ready)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_make_apps_default_is_solara_and_off_the_loopback_never_without_a_token(monkeypatch, capsys, host):
    """`make app HOST=0.0.0.0` (no SERVER): Solara's server, with a token made, given to the server (its
    environment) and printed with the address; `SERVER=voila` keeps the same rule on Voilà."""
    ran = launched(monkeypatch, "app", f"--host={host}", "--port=9000")
    assert ran["argv"][1:4] == ["-m", "uvicorn", "aluette.classroom.solara_asgi:app"]  # a module of the package
    token = ran["env"]["ALUETTE_TOKEN"]
    assert len(token) >= 16 and f":9000/?token={token}" in given_out(ran, capsys)
    ran = launched(monkeypatch, "app", f"--host={host}", "--port=9000", "--server=voila")
    voila_token = next(a for a in ran["argv"] if a.startswith("--Voila.token="))
    assert len(voila_token) > len("--Voila.token=") + 16
    assert f":9000/?token={voila_token.removeprefix('--Voila.token=')}" in given_out(ran, capsys)
    asked = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # the server's own address, as this computer asks it
    assert ran["watch"].probe_url.startswith(f"http://{asked}:9000/?token=")


def test_make_apps_default_takes_the_teachers_token_and_none_on_the_loopback(monkeypatch, capsys):
    ran = launched(monkeypatch, "app", "--host=0.0.0.0", "--token=class-7B-aluette")
    assert command.ASGI_APP in ran["argv"] and ran["env"]["ALUETTE_TOKEN"] == "class-7B-aluette"
    assert "?token=class-7B-aluette" in given_out(ran, capsys)
    ran = launched(monkeypatch, "app", "--host=127.0.0.1")
    assert command.ASGI_APP in ran["argv"] and "ALUETTE_TOKEN" not in ran["env"]
    with pytest.raises(SystemExit):
        command.main(["app", "--server=jupyter"])
    assert command.main(["app", "--host=0.0.0.0", "--token=short"]) == 2  # refused: nothing served
    assert "bad token" in capsys.readouterr().err


def test_make_app_starts_a_worker_per_core_sharing_one_door(monkeypatch):
    """A page is built on one core (Python's GIL): `make app` starts a worker per core (at most four), each a
    uvicorn of its own on a socket of its own (Linux spreads connections over them: aluette.classroom.workers), and
    tells each how many there are, so that they share one door (aluette.classroom.ledger.door_ledger)."""
    monkeypatch.setattr(command.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(command, "spread_by_kernel", lambda: True)
    ran = launched(monkeypatch, "app", "--port=9000")
    assert ran["served"] == ("127.0.0.1", 9000, 2) and ran["env"][WORKERS_ENV] == "2"
    assert command.ASGI_APP in ran["argv"] and ran["argv"][-1] == "--fd=7"
    assert not any(a.startswith(("--host", "--port", "--workers")) for a in ran["argv"])
    monkeypatch.setattr(command.os, "cpu_count", lambda: 64)
    assert launched(monkeypatch, "app")["served"][2] == command.MAX_DEFAULT_WORKERS
    ran = launched(monkeypatch, "app", "--workers=1")  # one worker: watched too, to say when it is ready
    assert ran["served"] == ("127.0.0.1", 8888, 1) and ran["env"][WORKERS_ENV] == "1"
    monkeypatch.setattr(command, "spread_by_kernel", lambda: False)  # macOS: uvicorn's own workers
    ran = launched(monkeypatch, "app", "--workers=3")
    assert "served" not in ran and "--workers=3" in ran["argv"] and ran["env"][WORKERS_ENV] == "3"
    # watched too: the three workers say when they serve, in the folder of the watch
    assert ran["watch"].workers == 3 and ran["env"][READY_DIR_ENV] == str(ran["watch"].folder)


def test_workers_are_refused_out_of_range_and_on_voila(capsys):
    assert command.main(["app", "--workers=0"]) == 2
    assert "--workers must be a whole number from 1 to 64, not 0" in capsys.readouterr().err
    assert command.main(["app", "--server=voila", "--workers=2"]) == 2
    assert "--workers is for Solara's server" in capsys.readouterr().err


def test_voila_options_need_server_voila(capsys):
    """`make app LESSON=08` or `VOILA_ARGS=...` without `SERVER=voila`: a clear refusal, nothing served."""
    assert command.main(["app", "--lesson=08"]) == 2
    assert "make app SERVER=voila" in capsys.readouterr().err


def test_a_closed_page_is_freed_without_sending_its_widgets_closes_to_the_leaving_tab(solara_server):
    """The page's close request (sent by the tab as it leaves) frees its kernel; the server closes the websocket
    first, so the widgets' closes are not sent one by one to a tab that has gone (aluette/classroom/solara_app.py)."""
    import httpx
    from websockets.exceptions import ConnectionClosed

    async def go():
        page = await open_solara_page(solara_server.url, "/click", "127.0.0.51", token=TOKEN)
        assert page.failure is None and page.states
        transport = httpx.AsyncHTTPTransport(local_address=page.address)
        async with httpx.AsyncClient(transport=transport, timeout=30, cookies=page.beacon_cookies()) as client:
            await page.beacon(client)  # the tab's close request, its websocket still open
        kinds = []
        with pytest.raises(ConnectionClosed):  # the server closes the page's websocket
            while True:
                got = await asyncio.wait_for(page.receive(), 30)
                kinds.append(got["header"]["msg_type"] if got else None)
        assert "comm_close" not in kinds
    run_coroutine(go())


def test_a_lessons_first_page_gets_only_its_own_widgets(solara_server):
    """The first page of a lesson in a worker runs the notebook's template run first (the app reads each notebook at
    its first page here, ``ALUETTE_PREWARM=0``): that run belongs to no student's page, so its widgets are not sent
    to the page that caused it, which gets the same widgets as every later page."""
    async def go():
        counts = []
        for _ in range(4):  # the first page of each of the two workers among them
            page = await open_solara_page(solara_server.url, "/first_page", "127.0.0.61", token=TOKEN)
            try:
                assert page.failure is None, page.failure
                counts.append(page.opened)
            finally:
                await page.close()
        return counts
    counts = run_coroutine(go())
    assert len(set(counts)) == 1 and counts[0] > 0, counts


def test_the_apps_start_is_left_out_of_later_garbage_collections(tmp_path):
    """What the app's start made (every notebook's template run) lives as long as the server: it is frozen
    (gc.freeze), so that a full collection during a class does not pause the worker to scan it again (~160 ms with
    the tutorial's notebooks, a pause every student's click would wait for)."""
    env = {**os.environ, "ALUETTE_PREWARM": "1", "ALUETTE_NOTEBOOKS": str(FIXTURES), "MPLBACKEND": "agg",
           "SOLARA_APP": command.SOLARA_APP}
    script = "import gc, aluette.classroom.solara_app; print(gc.get_freeze_count())"
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) > 10_000


def test_the_servers_module_shares_seeded_simulations_and_solara_app_alone_does_not(tmp_path):
    """Each worker computes a seeded simulation once for all its pages (aluette.simulation.shared, docs/classroom.md):
    the module uvicorn serves (solara_asgi) turns it on; solara_app, which tests import without serving, does not."""
    script = ("import importlib, sys\n"
              "importlib.import_module(sys.argv[1])\n"
              "from aluette.simulation import shared_results\n"
              "print(type(shared_results()).__name__)\n")
    env = {**server_env(tmp_path), "ALUETTE_PREWARM": "0", "ALUETTE_NOTEBOOKS": str(FIXTURES)}
    found = {name: subprocess.run([sys.executable, "-c", script, name], cwd=REPO, env=env, capture_output=True,
                                  text=True, timeout=120)
             for name in ("aluette.classroom.solara_asgi", "aluette.classroom.solara_app")}
    assert {name: run.stdout.strip() for name, run in found.items()} == {
        "aluette.classroom.solara_asgi": "SharedResults", "aluette.classroom.solara_app": "NoneType"}, \
        {name: run.stderr[-800:] for name, run in found.items()}
