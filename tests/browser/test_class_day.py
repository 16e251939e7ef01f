"""A class day as a new teacher meets it (issue 23, the tryout after the ten points): `make teacher` on a port of its
own, the teacher's guide (07) printed from it with Chromium, and its links.

- Printed, the guide is every page of it, not only the screenful that Voilà's inner scroll box shows: its forced
  page breaks (before the rules summary, the lesson plans, the answers and the exit tickets) each start a page; the
  rules summary still prints on one A4 page within it; the exit tickets are a page of their own; no box clips
  what it holds (the print stylesheet of aluette/classroom/voila/templates/voila/templates/aluette/index.html.j2).
- Every link of the guide leads to the server that serves it (``TEACHER_PORT`` is any port): no address of another
  port or host, and its links to the teacher's tables (11) are that server's page of them.

- On Voilà (`make app SERVER=voila`) the seat's link brings its student back, from a pre-heated kernel too.

One `make teacher` for the module and one page of 07 for its tests (they only read it and print it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from aluette.classroom import TEACHER_NOTEBOOKS
from aluette.store import TableService, open_store
from aluette.store.db import DATA_DIR_ENV, DATABASE_FILE
from aluette.widgets.together import rejoin_link
from tests.browser.harness import NOTEBOOKS, RENDER, expect, open_voila, server_env
from tests.browser.test_app import make_server, pdf_pages

pytestmark = pytest.mark.browser

GUIDE = TEACHER_NOTEBOOKS[0]
TABLES = TEACHER_NOTEBOOKS[1]
#: What marks a forced page break in the guide's markdown (Chromium prints the old CSS 2 properties as breaks).
BREAK = re.compile(r'<div style="page-break-(before|after): always"></div>')


@pytest.fixture(scope="module")
def make_teacher(tmp_path_factory):
    """`make teacher` as the README says, on a free port (never the default 8889: the links must follow it)."""
    server = make_server("teacher", "TEACHER_PORT", tmp_path_factory.mktemp("class-day-home")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def guide(module_page, make_teacher):
    open_voila(module_page, GUIDE, server=make_teacher)
    return module_page


def guide_markdown() -> list[str]:
    cells = json.loads((NOTEBOOKS / GUIDE).read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
            and "remove-cell" not in c.get("metadata", {}).get("tags", [])]


def show_cells(page, keep) -> int:
    """Show only the rendered cells that pass ``keep``, a JS predicate on ``text`` (the start of the cell's text,
    read once while every cell is shown: a hidden cell's innerText is its raw text, script included) and
    ``tickets`` (the cell is the exit tickets' page, or ``before`` it). Returns how many are shown (a page of none
    prints one blank page)."""
    return page.evaluate(f"""() => {{
        const cells = [...document.querySelectorAll('#rendered_cells [cell-index]')];
        cells.forEach(cell => {{
            if (cell.dataset.start === undefined) cell.dataset.start = cell.innerText.trim().slice(0, 60); }});
        const anchor = cells.findIndex(cell => cell.dataset.start.startsWith('Exit tickets (to print)'));
        let shown = 0;
        cells.forEach((cell, index) => {{
            const text = cell.dataset.start, tickets = index === anchor, before = index < anchor;
            const keep = {keep};
            shown += keep ? 1 : 0;
            cell.style.display = keep ? '' : 'none'; }});
        return shown; }}""")


def printed(page) -> int:
    return pdf_pages(page.pdf(format="A4", print_background=True))


def test_the_guide_prints_every_page_and_the_summary_and_the_tickets_on_pages_of_their_own(guide, make_teacher):
    breaks = sum(len(BREAK.findall(text)) for text in guide_markdown())
    everything = printed(guide)
    # Voilà's box scrolls on screen; printed, it grew with the guide: at least a page per forced break
    assert everything >= breaks + 1, f"the guide printed {everything} page(s) for {breaks} forced page breaks"
    assert breaks >= 4, "the guide marks its printed pages: summary, lesson plans, answers, exit tickets"
    guide.emulate_media(media="print")
    clipped = guide.evaluate("""() => [...document.querySelectorAll('#rendered_cells, #rendered_cells *')]
        .filter(el => { const s = getComputedStyle(el);
                        return ['auto', 'scroll', 'hidden'].includes(s.overflowY) && el.scrollHeight > el.clientHeight + 2; })
        .map(el => el.id || el.className.toString().slice(0, 60))""")
    tickets = guide.locator("#rendered_cells h2", has_text="Exit tickets (to print)")
    ticket_b = guide.locator("#rendered_cells h3", has_text="Exit ticket B")
    document = guide.evaluate("() => document.documentElement.scrollHeight")
    bottom = ticket_b.evaluate("el => el.getBoundingClientRect().bottom + window.scrollY")
    guide.emulate_media(media=None)  # back to the browser's own: page.pdf() prints with screen CSS after "screen"
    assert clipped == [], f"printed, these boxes still scroll and hide what they hold: {clipped}"
    assert tickets.count() == 1 and bottom <= document, "the exit tickets are inside the printed flow"
    try:
        # the summary alone: one A4 page within the guide too (as the downloaded file, test_app.py)
        assert show_cells(guide, "text.startsWith('Aluette on one page')") == 1
        assert printed(guide) == 1, "the rules summary prints on one A4 page"
        # the tickets alone: one page; the guide up to the tickets, then with them, is one page more
        assert show_cells(guide, "tickets") == 1
        assert printed(guide) == 1, "the exit tickets print on one page"
        assert show_cells(guide, "before") >= 4
        before = printed(guide)
        show_cells(guide, "before || tickets")
        assert printed(guide) == before + 1, "the exit tickets start a printed page of their own"
    finally:
        show_cells(guide, "true || text")


def test_the_guides_links_follow_the_teachers_port_and_host(guide, make_teacher):
    assert make_teacher.port != 8889
    assert f"Teacher's page: {make_teacher.url}/" in make_teacher.log_tail(), "make teacher prints its own address"
    links = guide.evaluate("() => [...document.querySelectorAll('#rendered_cells a[href]')].map(a => a.href)")
    elsewhere = [href for href in links if href.startswith(("http:", "https:"))
                 and urlsplit(href).netloc != urlsplit(make_teacher.url).netloc]
    assert elsewhere == [], f"links of the guide to another server than the one serving it: {elsewhere}"
    to_tables = [href for href in links if urlsplit(href).path.endswith(TABLES)]
    assert to_tables, "the guide links to the teacher's tables"
    # the page the teacher's landing page lists for the tables (test_app.py opens it there)
    assert set(to_tables) == {f"{make_teacher.url}/voila/render/{TABLES}"}, to_tables


def test_the_seats_link_brings_the_student_back_on_voila_from_a_preheated_kernel(page, tmp_path_factory):
    """Issue 22 (held in part): on `make app SERVER=voila` a page comes from a kernel that ran the notebook before
    the page was asked for, so it never saw the link's ``?table=...&code=...``; now it waits for the page's request
    (aluette.widgets.together._preheated_query) and seats the student again. The seat is taken in the class's
    database directly, so the one page opened is the warm kernel's."""
    home = tmp_path_factory.mktemp("voila-link-home")
    server = make_server("app", "PORT", home, "SERVER=voila", "LESSON=10", "CLASS_SIZE=1").start()
    try:
        data = Path(server_env(home)[DATA_DIR_ENV])
        data.mkdir(parents=True, exist_ok=True)
        service = TableService(open_store(path=data / DATABASE_FILE))
        service.create_table("link")
        ticket = service.take_seat("link", "E", "Ann")
        service.close()
        page.goto(f"{server.url}/voila/render/10_play_together.ipynb{rejoin_link('link', ticket.code)}",
                  timeout=RENDER * 1000)
        expect(page.locator(".aluette-together-your-code")).to_contain_text("Ann", timeout=RENDER * 1000)
        assert "you sit at E" in page.locator(".aluette-together-your-code").inner_text()
        expect(page.locator(".aluette-together-rejoin")).to_be_hidden()
    finally:
        server.stop()
