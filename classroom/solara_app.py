"""The students' pages on Solara's server, measured beside Voilà (``make bench ARGS="class --servers=solara,voila"``;
README, "Serving the tutorial to a class"): ``solara run classroom/solara_app.py --production``. Not ``make app``.
Only what Solara's configuration cannot say lives here, as ``voila.py`` beside it does for Voilà.

Routes: ``/`` the landing page (one entry per notebook, :mod:`aluette.classroom.landing`), ``/NAME`` a notebook's
page (``NAME`` its file name without ``.ipynb``), built per student by :mod:`aluette.classroom.lessons`. The folder
of notebooks is ``ALUETTE_NOTEBOOKS`` (default ``notebooks/``); the teacher's notebooks are not served. With
``ALUETTE_PREWARM=1`` every notebook is read and run once when the server starts (``Lesson``'s template run), so
that no student waits for it.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import solara

from aluette.classroom import student_notebooks
from aluette.classroom.landing import entries
from aluette.classroom.lessons import lesson

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
.aluette-landing { max-width: 50em; margin: 2em auto; }
.aluette-landing li { list-style: none; display: flex; gap: 1em; align-items: center; margin: 0.8em 0; }
"""


@solara.component
def Landing():
    items = "".join(f'<li>{e.picture}<div><a href="/{html.escape(Path(e.file).stem)}"><b>{html.escape(e.title)}'
                    f'</b></a><br>{html.escape(e.description)}</div></li>' for e in entries(FOLDER))
    solara.Style(CSS)
    solara.Title("Aluette")
    solara.HTML(tag="main", unsafe_innerHTML=f'<div class="aluette-landing"><h1>Aluette: the tutorial</h1>'
                                              f'<ul>{items}</ul></div>')


def _page(path: Path):
    @solara.component
    def Page():
        page = solara.use_memo(lambda: lesson(path).build(), [])
        solara.Style(CSS)
        solara.Title(path.stem)
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
