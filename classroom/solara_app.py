"""The students' pages for Solara's server (``make app``, its default: ``solara_asgi.py`` beside this file serves
them; README, "Serving the tutorial to a class"). Only what Solara's configuration cannot say lives here, as
``voila.py`` beside it does for Voilà.

Routes: ``/`` the landing page (one entry per notebook, :mod:`aluette.classroom.landing`), ``/NAME`` a notebook's
page (``NAME`` its file name without ``.ipynb``), built per student by :mod:`aluette.classroom.lessons`. The folder
of notebooks is ``ALUETTE_NOTEBOOKS`` (default ``notebooks/``); the teacher's notebooks are not served. With
``ALUETTE_PREWARM=1`` every notebook is read and run once when the server starts (``Lesson``'s template run), so
that no student waits for it. Page-wide settings are kept per page (:func:`page_storage`), the play-together
page polls its table from a thread of its own (:func:`poll_in_page`) and reads its address's query string (a seat's
link, ``/10_play_together?table=...&code=...``) through :func:`page_query_string`.
"""

from __future__ import annotations

import functools
import gc
import html
import os
import re
import threading
import time
from pathlib import Path

import solara
from solara.server import kernel_context

from aluette.classroom import student_notebooks
from aluette.classroom.admission import PAGE_STARTS
from aluette.classroom.landing import entries, read_entry
from aluette.classroom.lessons import lesson
from aluette.widgets.common import set_page_storage
from aluette.widgets.together import set_page_poller, set_page_query



def page_storage() -> dict | None:
    """The current student's page's own dict (kept in Solara's virtual kernel, freed with it), or ``None`` outside
    any page (the template run at start): page-wide settings such as the card size live there, so one student's
    choice is not every student's (:func:`aluette.widgets.common.set_page_storage`)."""
    if not kernel_context.has_current_context():
        return None
    return kernel_context.get_current_context().user_dicts.setdefault("aluette", {})


set_page_storage(page_storage)


def poll_in_page(step, interval: float, lifetime: float):
    """The play-together page's poll of the database (:func:`aluette.widgets.together.set_page_poller`): a thread
    per page calls ``step()`` every ``interval`` seconds inside the page's virtual kernel, holding its lock as
    Solara does for each message of the page (so a poll never runs in the middle of a click); it ends when ``step``
    says so, after ``lifetime`` seconds, or when the page is closed or culled. ``None`` outside any page."""
    if not kernel_context.has_current_context():
        return None
    context = kernel_context.get_current_context()
    stop = threading.Event()
    context.on_close(stop.set)

    def run():
        end = time.monotonic() + lifetime
        while not stop.wait(interval) and time.monotonic() < end:
            with context.lock:
                if context.closed_event.is_set():
                    return
                with context:
                    if not step():
                        return
    threading.Thread(target=run, name=f"aluette-poll-{context.id}", daemon=True).start()
    return stop.set


set_page_poller(poll_in_page)

_QUERY = "aluette.query"


def page_query_string() -> str | None:
    """The query string of the current page's address (what follows ``?``: Solara's router has it from the page's
    ``location.search``, kept in the page's storage as the page is built), ``""`` for none, ``None`` outside any
    page (:func:`aluette.widgets.together.set_page_query`; under Voilà the kernel's ``QUERY_STRING`` says it)."""
    storage = page_storage()
    return None if storage is None else storage.get(_QUERY, "")


set_page_query(page_query_string)

FOLDER = Path(os.environ.get("ALUETTE_NOTEBOOKS") or Path(__file__).resolve().parents[1] / "notebooks")

CSS = """
body { --jp-success-color1: #2e7d32; --jp-warn-color1: #b34700; --jp-info-color1: #006064;
  --jp-content-link-color: #0b5394; }
.jp-RenderedMarkdown { font-size: 15px; line-height: 1.5; color: #1a1a1a; }
.jp-RenderedMarkdown h1 { font-size: 1.9em; margin: 0.6em 0 0.4em; }
.jp-RenderedMarkdown h2 { font-size: 1.45em; margin: 0.8em 0 0.4em; }
.jp-RenderedMarkdown h3 { font-size: 1.2em; margin: 0.8em 0 0.3em; }
.jp-RenderedMarkdown p, .jp-RenderedMarkdown ul, .jp-RenderedMarkdown ol { margin: 0 0 0.7em; }
.jp-RenderedMarkdown ul, .jp-RenderedMarkdown ol { padding-left: 2em; }
.jp-RenderedMarkdown code { background: #f3f3f3; padding: 0 0.2em; }
.jp-RenderedMarkdown table { border-collapse: collapse; margin: 0.5em 0; }
.jp-RenderedMarkdown td, .jp-RenderedMarkdown th { border: 1px solid #bbb; padding: 0.2em 0.5em; }
body .jp-RenderedHTMLCommon a:link, body .jp-RenderedHTMLCommon a:visited { color: #0b5394;
  text-decoration: underline; }
.jp-RenderedMarkdown .anchor-link { display: none; }
.jp-OutputArea-output pre { font-size: 13px; }
.v-application, .v-application__wrap, .jp-OutputArea-output, .widget-html-content { min-width: 0; }
.widget-hbox { flex-wrap: wrap; }
.jupyter-widgets:not(.aluette-cardbtn > *) { max-width: calc(100% - 2 * var(--jp-widgets-margin, 2px)); }
.widget-html-content:has(table), .jp-RenderedMarkdown:has(table) { overflow-x: auto; }
@media (max-width: 640px) { .widget-html-content table.dataframe :is(th, td) { white-space: nowrap; } }
.solara-autorouter-content { padding-bottom: 3em; }
"""
# The first line: ipywidgets' "success", "warning" and "info" buttons are white text on #388e3c, #f57c00 and #0097a7
# (4.1, 2.7 and 3.5 to 1); these shades give 5.1, 5.5 and 7.4 to 1 (WCAG 2 contrast minimum: 4.5 to 1). Links in
# rendered HTML are #0b5394, not #1976d2 (4.2 to 1 on a table's grey rows), and underlined (WCAG 1.4.1: not told
# from the text by their colour alone); the headings' "¶" permalinks are left out, as Voilà hides them.
# The last lines: a page fits a phone held upright (390 px, WCAG 1.4.10 Reflow; tests/browser/test_phone.py). Vuetify's
# application boxes, JupyterLab's output area and the HTML widgets' content are flex items as wide as their content by
# default (a flex item's minimum width is its content's), so one wide row widened the whole page; at 0 they are the
# window's width and what they hold must fit it: rows of widgets wrap, a widget given a width of its own (a text box
# 34em wide) is no wider than its box (less its margins; a card's picture keeps its size), and a table too wide for the
# window (a score sheet) scrolls sideways in its own box, on a narrow screen its cells on one line rather than a column
# squeezed to a word. Printed output (a ``pre``) wraps, as in JupyterLab: a sentence is read whole, at the cost of a
# printed table's columns on a phone (01's ranking table). The room at the bottom keeps Solara's banner ("This website
# runs on Solara", in the page's bottom right corner) off the page's last line.


#: The landing page's style sheet: the Voilà app's (one source for both).
TREE = Path(__file__).with_name("templates") / "voila" / "templates" / "aluette" / "tree.html"
LANDING_CSS = re.search(r"<style>(.*?)</style>", TREE.read_text(encoding="utf-8"), re.S).group(1)


@functools.cache
def landing_html() -> str:
    """The landing page's content, as the Voilà app's (classroom/templates/.../tree.html): the lessons in order,
    each with its card picture, title and first sentence, linking to its page."""
    items = "".join(f'<li><a href="/{html.escape(Path(e.file).stem)}"><span class="picture" aria-hidden="true">'
                    f'{e.picture}</span><span><span class="title">{html.escape(e.title)}</span> <span class="start">'
                    f'{html.escape(e.description)}</span></span></a></li>' for e in entries(FOLDER))
    return ('<div class="aluette-landing"><header><h1>Aluette</h1><p class="lead">Learn <strong>Aluette</strong> '
            '(<em>la Vache</em>), the old card game of the west of France, by playing with it. Start with the first '
            'page and go down the list, one page at a time.</p></header><main><h2>The lessons, in order</h2>'
            f'<ol class="notebooks">{items}</ol></main><footer><p>Each page runs on the teacher\'s computer; close '
            'the tab when you are done with a page.</p></footer></div>')


def _drawn():
    """Tell this worker's door that the page is drawn, so that the next page may start
    (:class:`aluette.classroom.admission.Starts`)."""
    if kernel_context.has_current_context():
        PAGE_STARTS.started(kernel_context.get_current_context().id)


@solara.component
def Landing():
    solara.use_effect(_drawn, [])
    solara.Style(LANDING_CSS)
    solara.Title("Aluette: learn the card game")
    solara.HTML(tag="div", unsafe_innerHTML=landing_html())


@functools.cache
def title(path: Path) -> str:
    return read_entry(path).title


def _leave_quietly():
    """When a page's virtual kernel closes (the tab closed, reloaded or culled: the browser has left), its websocket
    is closed first, so that closing the page's widgets sends nothing (Solara would send each widget's close to it:
    about 170 messages for notebook 08, a millisecond of the server's CPU each)."""
    context = kernel_context.get_current_context()

    def leave():
        session = context.kernel.session if context.kernel is not None else None
        if session is not None:
            session.close()  # closes the page's websockets, as Solara's own kernel close does after the widgets
            session.websockets.clear()
    context.on_close(leave)


def _page(path: Path):
    @solara.component
    def Page():
        search = solara.use_router().search

        def build():
            _leave_quietly()
            with kernel_context.without_context():  # its template run (the first time) belongs to no student's
                notebook = lesson(path)  # page: its widgets are not sent to this one, and it reads no address
            page_storage()[_QUERY] = search or ""
            return notebook.build()
        page = solara.use_memo(build, [])
        solara.use_effect(_drawn, [])
        solara.Style(CSS)
        solara.Title(f"{title(path)} - Aluette")
        solara.display(page)
    return Page


@solara.component
def Layout(children=[]):  # noqa: B006 - Solara's signature for layouts
    with solara.Column(style={"padding": "0 1em"}):
        for child in children:
            solara.display(child)


routes = [solara.Route(path="/", component=Landing, label="Aluette", layout=Layout),
          *[solara.Route(path=p.stem, component=_page(p), label=p.stem) for p in student_notebooks(FOLDER)]]

if os.environ.get("ALUETTE_PREWARM") == "1":
    for _path in student_notebooks(FOLDER):  # each notebook's template run at start, not in the first student's page
        lesson(_path)
    # What the start made (every notebook's run: ~370,000 objects) lives as long as the server: the garbage
    # collector need not scan it again. A full collection then scans only the pages' objects; over the start's it
    # paused the whole worker for ~160 ms, which a student's click waited for.
    gc.collect()
    gc.freeze()
