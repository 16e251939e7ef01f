"""A huge text sent straight over the widget protocol to any text box of any student lesson, on Solara's server
(``make app``'s default): a crafted ``comm_msg`` ``update`` of the box's ``value`` bypasses the page (a box has
no length limit in the browser); the server's door lets through a message of up to 1 MiB.

Every text box (``_model_name`` of a text, text area or combo box, read from the widget states the page sends, so a
new box is covered without editing this test) of every lesson the app serves: a text of ~900 KB is refused in the
page with the project's message (the length and the limit, nothing of the text quoted), the box keeps its value,
the text is not sent back, and the page answers its next message. The door ends a page's websocket past
``MAX_PAGE_BYTES`` received in all (tests/server/test_admission.py): the boxes of a lesson with many are sent on
as many pages as that takes.

Quality bar of this project: every text box has a length limit; every check over user input is linear; bad input
gets a clear error and the state is left as it was; nothing is silently ignored.
"""

from __future__ import annotations

import json

import pytest

from aluette.classroom import student_notebooks
from aluette.classroom.admission import MAX_PAGE_BYTES
from tests.browser.harness import REPO, solara_server
from tests.coroutines import run as run_coroutine
from tests.server.student import message, open_solara_page

pytest.importorskip("solara", reason="Solara's server is in the 'lab' extra: pip install -e '.[lab]'")

LESSONS = [p.stem for p in student_notebooks(REPO / "notebooks")]
TEXT_MODELS = {"TextModel", "TextareaModel", "ComboboxModel", "PasswordModel"}
HUGE = 900_000  # characters (and bytes): under the door's 1 MiB per message
BACK = 10_000  # no message back to the page is anywhere near the huge text


@pytest.fixture(scope="module")
def lessons_app(tmp_path_factory):
    """The students' app on notebooks/, each lesson read at its first page."""
    server = solara_server("solara-long-texts", REPO / "notebooks", tmp_path_factory.mktemp("long-texts-home"))
    server.start()
    yield server
    server.stop()


def updates(replies) -> list[tuple[str, dict]]:
    return [(r["content"]["comm_id"], r["content"]["data"].get("state", {})) for r in replies
            if r["header"]["msg_type"] == "comm_msg" and r["content"].get("data", {}).get("method") == "update"]


def text_boxes(page) -> dict[str, dict]:
    """The page's text boxes: comm id -> state, in the order the page opened them."""
    return {c: dict(s) for c, s in page.states.items() if s.get("_model_name") in TEXT_MODELS}


async def current_value(page, comm_id: str) -> str:
    replies = await page.request(message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}},
                                         page.session))
    return next(state["value"] for comm, state in updates(replies) if comm == comm_id)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_huge_text_sent_to_any_text_box_is_refused_in_the_page_and_the_page_answers_on(lessons_app, lesson):
    address = f"127.0.0.{60 + LESSONS.index(lesson)}"

    async def go() -> list[str]:
        page = await open_solara_page(lessons_app.url, f"/{lesson}", address)
        problems, spent = [], 0
        try:
            assert page.failure is None, page.failure
            boxes = text_boxes(page)
            if not boxes:
                pytest.skip(f"{lesson} shows no text box")
            for n, state in enumerate(boxes.values()):
                if spent + HUGE + 10_000 > MAX_PAGE_BYTES:  # the door's budget of a page: the next box on a new one
                    await page.close()
                    page = await open_solara_page(lessons_app.url, f"/{lesson}", address)
                    assert page.failure is None, page.failure
                    spent = 0
                comm_id = list(text_boxes(page))[n]  # a page's boxes come in the same order at every load
                name = f"{lesson}: box {state.get('description') or state.get('placeholder')!r}"
                length = HUGE + n  # each box's message names its own length
                huge = ("3O " * (length // 3 + 1))[:length]  # valid-looking card codes: a parser's worst case
                spent += length + 1000
                replies = await page.request(message("comm_msg", {"comm_id": comm_id, "data": {
                    "method": "update", "state": {"value": huge}, "buffer_paths": []}}, page.session), timeout=60)
                said = [s.get("value", "") for c, s in updates(replies) if c != comm_id]
                if not any(f"{length:,} characters long; this box takes at most" in v for v in said):
                    problems.append(f"{name}: no message in the page, got {[v[:200] for v in said]}")
                if max((len(json.dumps(r["content"])) for r in replies), default=0) > BACK:
                    problems.append(f"{name}: the huge text (or a large part) was sent back to the page")
                if await current_value(page, comm_id) != state.get("value", ""):  # and the page answers
                    problems.append(f"{name}: the box no longer holds its value")
        finally:
            await page.close()
        return problems

    problems = run_coroutine(go())
    assert problems == []
