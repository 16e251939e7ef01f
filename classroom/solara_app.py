"""The students' pages for Solara's server (``make app SERVER=solara``: ``solara_asgi.py`` beside this file serves
them; README, "Serving the tutorial to a class"). Only what Solara's configuration cannot say lives here, as
``voila.py`` beside it does for Voilà.

Routes: ``/`` the landing page (one entry per notebook, :mod:`aluette.classroom.landing`), ``/NAME`` a notebook's
page (``NAME`` its file name without ``.ipynb``), built per student by :mod:`aluette.classroom.lessons`. The folder
of notebooks is ``ALUETTE_NOTEBOOKS`` (default ``notebooks/``); the teacher's notebooks are not served. With
``ALUETTE_PREWARM=1`` every notebook is read and run once when the server starts (``Lesson``'s template run), so
that no student waits for it.
"""

from __future__ import annotations

import functools
import html
import os
import re
from pathlib import Path

import solara
from solara.server import kernel_context

from aluette.classroom import student_notebooks
from aluette.classroom.landing import entries, read_entry
from aluette.classroom.lessons import lesson
from aluette.widgets.common import set_page_storage



def page_storage() -> dict | None:
    """The current student's page's own dict (kept in Solara's virtual kernel, freed with it), or ``None`` outside
    any page (the template run at start): page-wide settings such as the card size live there, so one student's
    choice is not every student's (:func:`aluette.widgets.common.set_page_storage`)."""
    if not kernel_context.has_current_context():
        return None
    return kernel_context.get_current_context().user_dicts.setdefault("aluette", {})


set_page_storage(page_storage)

FOLDER = Path(os.environ.get("ALUETTE_NOTEBOOKS") or Path(__file__).resolve().parents[1] / "notebooks")

CSS = """
.jp-RenderedMarkdown { font-size: 15px; line-height: 1.5; color: #1a1a1a; }
.jp-RenderedMarkdown h1 { font-size: 1.9em; margin: 0.6em 0 0.4em; }
.jp-RenderedMarkdown h2 { font-size: 1.45em; margin: 0.8em 0 0.4em; }
.jp-RenderedMarkdown h3 { font-size: 1.2em; margin: 0.8em 0 0.3em; }
.jp-RenderedMarkdown p, .jp-RenderedMarkdown ul, .jp-RenderedMarkdown ol { margin: 0 0 0.7em; }
.jp-RenderedMarkdown ul, .jp-RenderedMarkdown ol { padding-left: 2em; }
.jp-RenderedMarkdown code { background: #f3f3f3; padding: 0 0.2em; }
.jp-RenderedMarkdown table { border-collapse: collapse; margin: 0.5em 0; }
.jp-RenderedMarkdown td, .jp-RenderedMarkdown th { border: 1px solid #bbb; padding: 0.2em 0.5em; }
.jp-RenderedMarkdown a { color: #0b5394; text-decoration: underline; }
.jp-OutputArea-output pre { font-size: 13px; }
"""


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


@solara.component
def Landing():
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
        page = solara.use_memo(lambda: (_leave_quietly(), lesson(path).build())[1], [])
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
