"""The students' pages on Solara's server (``classroom/solara_app.py``, the alternative measured beside Voilà by the
class benchmark): started as the benchmark starts it, on a folder of fixture notebooks, pages loaded as a
student's browser loads them (``tests/server/student.py``)."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import urllib.error
import urllib.request

import pytest

from tests.browser.harness import FIXTURES, REPO, Server, server_env
from tests.server.student import message, open_solara_page

pytest.importorskip("solara", reason="Solara's server is in the 'lab' extra: pip install -e '.[lab]'")


@pytest.fixture(scope="module")
def solara_server(tmp_path_factory):
    """Solara on a copy of three fixtures, one of them named as the teacher's guide (07)."""
    folder = tmp_path_factory.mktemp("solara-notebooks")
    for name in ("click.ipynb", "remove_cell.ipynb"):
        shutil.copy(FIXTURES / name, folder / name)
    shutil.copy(FIXTURES / "click.ipynb", folder / "07_teachers_guide.ipynb")
    env = server_env(tmp_path_factory.mktemp("solara-home"))
    env.update({"ALUETTE_NOTEBOOKS": str(folder), "ALUETTE_PREWARM": "1", "SOLARA_CHECK_VERSION": "False",
                "MPLBACKEND": "agg"})

    def command(port):
        return [sys.executable, "-m", "solara", "run", str(REPO / "classroom" / "solara_app.py"), "--production",
                "--host=127.0.0.1", f"--port={port}", "--no-open"]
    server = Server("solara-classroom", command, REPO, env).start()
    yield server
    server.stop()


def shown(page) -> str:
    """Everything the page's widgets hold, as one text."""
    return json.dumps(page.states)


def load(server, path):
    async def go():
        page = await open_solara_page(server.url, path)
        await page.close()
        return page
    return asyncio.run(go())


def test_the_landing_page_lists_the_students_notebooks_not_the_teachers(solara_server):
    page = load(solara_server, "/")
    assert page.failure is None
    text = shown(page)
    assert "Click fixture" in text and "Author-only cells" in text
    assert "07_teachers_guide" not in text


def test_the_teachers_notebook_is_not_served(solara_server):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(solara_server.url + "/07_teachers_guide", timeout=30)
    assert refused.value.code == 404


def test_a_page_shows_prose_and_outputs_without_code_or_removed_cells(solara_server):
    page = load(solara_server, "/remove_cell")
    assert page.failure is None
    text = shown(page)
    assert "STUDENT OUTPUT" in text and "STUDENT PROSE" in text
    assert "AUTHOR-ONLY" not in text and "print(" not in text


def test_a_students_click_changes_their_page_only(solara_server):
    async def go():
        first = await open_solara_page(solara_server.url, "/click", "127.0.0.21")
        second = await open_solara_page(solara_server.url, "/click", "127.0.0.22")
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
    asyncio.run(go())
