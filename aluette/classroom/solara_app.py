"""The students' pages for Solara's server (``make app``, its default: :mod:`aluette.classroom.solara_asgi` serves
them, naming this module in ``SOLARA_APP``; docs/classroom.md). Only what Solara's configuration cannot say lives
here, as ``voila/voila.py`` does for Voilà.

Routes: ``/`` the landing page (one entry per notebook, :mod:`aluette.classroom.landing`), ``/NAME`` a notebook's
page (``NAME`` its file name without ``.ipynb``), built per student by :mod:`aluette.classroom.lessons`; the French
edition (``notebooks/fr/``) likewise under ``/fr/`` (``/fr/`` its landing page, ``/fr/NAME`` its lessons), each
landing page offering the other language. The folder
of notebooks is ``ALUETTE_NOTEBOOKS`` (:func:`aluette.classroom.notebooks_folder`: ``notebooks/`` in the current
folder by default); the teacher's notebooks are not served. With
``ALUETTE_PREWARM=1`` every notebook is read and run once when the server starts (``Lesson``'s template run), so
that no student waits for it. Page-wide settings are kept per page (:func:`page_storage`), the play-together
page refreshes when its table's watcher says so (:func:`run_in_page`) and reads its address's query string (a seat's
link, ``/10_play_together?table=...&code=...``) through :func:`page_query_string`.
"""

from __future__ import annotations

import functools
import gc
import html
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import solara
from solara.server import kernel_context

from aluette.classroom import TRANSLATIONS, VOILA_CONFIG, notebooks_folder, student_notebooks
from aluette.classroom.admission import PAGE_STARTS
from aluette.classroom.landing import entries, read_entry
from aluette.classroom.ledger import WORKERS_ENV, door_folder
from aluette.classroom.lessons import lesson
from aluette.classroom.sessions import SessionStore
from aluette import i18n
from aluette.widgets.common import WRAP_CSS, set_page_storage, set_session_storage
from aluette.widgets.together import set_page_query, set_page_runner



def page_storage() -> dict | None:
    """The current student's page's own dict (kept in Solara's virtual kernel, freed with it), or ``None`` outside
    any page (the template run at start): page-wide settings such as the card size live there, so one student's
    choice is not every student's (:func:`aluette.widgets.common.set_page_storage`)."""
    if not kernel_context.has_current_context():
        return None
    return kernel_context.get_current_context().user_dicts.setdefault("aluette", {})


set_page_storage(page_storage)
i18n.set_page_storage(page_storage)  # the page's language is the page's own too (aluette.i18n's docstring)


def page_language(search: str) -> str | None:
    """The language a page's address asks for (``?lang=fr``), or ``None`` when it names none; a code the tutorial
    is not written in is ignored here (the page is shown in English: an address is not an error to show)."""
    import urllib.parse
    asked = urllib.parse.parse_qs((search or "").lstrip("?")[:2000]).get("lang", [])
    return next((code for code in asked if code in i18n.LANGUAGES), None)


#: What a student's pages keep across a reload, by Solara's session (its cookie): notebook 08's match, in a file the
#: workers of this server share (a reload may reach another worker), or in memory for one worker.
_door = door_folder(int(os.environ.get(WORKERS_ENV, "1")))
SESSIONS = SessionStore(None if _door is None else _door / "sessions.sqlite")


def session_storage():
    """The current student's browser session's own values, which a reloaded page finds again on any worker of the
    server (:class:`aluette.classroom.sessions.SessionStore`), or ``None`` outside any page
    (:func:`aluette.widgets.common.set_session_storage`)."""
    if not kernel_context.has_current_context():
        return None
    return SESSIONS.session(kernel_context.get_current_context().session_id)


set_session_storage(session_storage)


#: The threads that run the play-together pages' refreshes, which their table's watcher asks for
#: (:func:`run_in_page`); a few for the whole server, none per page.
_PAGE_RUNS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="aluette-page")


def run_in_page(step, closed):
    """The play-together page's runner (:func:`aluette.widgets.together.set_page_runner`): returns ``call()``, which
    the table's watcher calls from its thread to have ``step()`` run in the current page's virtual kernel, holding
    its lock as Solara does for each message of the page (so it never runs in the middle of a click), on one of
    :data:`_PAGE_RUNS`' threads; ``closed()`` is called when the page is closed or culled. ``None`` outside any
    page."""
    if not kernel_context.has_current_context():
        return None
    context = kernel_context.get_current_context()
    context.on_close(closed)

    def run():
        with context.lock:
            if context.closed_event.is_set():
                return
            with context:
                step()

    def call():
        if not context.closed_event.is_set():
            _PAGE_RUNS.submit(run)
    return call


set_page_runner(run_in_page)

_QUERY = "aluette.query"


def page_query_string() -> str | None:
    """The query string of the current page's address (what follows ``?``: Solara's router has it from the page's
    ``location.search``, kept in the page's storage as the page is built), ``""`` for none, ``None`` outside any
    page (:func:`aluette.widgets.together.set_page_query`; under Voilà the kernel's ``QUERY_STRING`` says it)."""
    storage = page_storage()
    return None if storage is None else storage.get(_QUERY, "")


set_page_query(page_query_string)

FOLDER = notebooks_folder()

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
""" + WRAP_CSS
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
# squeezed to a word. Printed output (a ``pre``) wraps between words (WRAP_CSS): a sentence is read whole, at the cost of a
# printed table's columns on a phone (01's ranking table). The room at the bottom keeps Solara's banner ("This website
# runs on Solara", in the page's bottom right corner) off the page's last line.


#: The landing page's style sheet: the Voilà app's (one source for both).
TREE = VOILA_CONFIG / "templates" / "voila" / "templates" / "aluette" / "tree.html"
LANDING_CSS = re.search(r"<style>(.*?)</style>", TREE.read_text(encoding="utf-8"), re.S).group(1)


@functools.cache
def landing_html(code: str = "en") -> str:
    """The landing page's content in ``code``'s language (``""`` is English), as the Voilà app's
    (aluette/classroom/voila/templates/.../tree.html): the choice of language, then that language's lessons in order, each with its
    card picture, title and first sentence, linking to its page (the French ones under ``/fr/``, so that the address
    keeps the language); its words from the catalogue (:mod:`aluette.i18n`)."""
    code = i18n.check_language(code or "en")
    _ = i18n.translations(code).gettext
    prefix = "/" if code == "en" else f"/{code}/"
    choice = " ".join(
        f'<span aria-current="page" lang="{other}">{name}</span>' if other == code else
        f'<a href="{"/" if other == "en" else f"/{other}/"}" lang="{other}" hreflang="{other}">{name}</a>'
        for other, name in i18n.LANGUAGE_NAMES.items())
    items = "".join(f'<li><a href="{prefix}{html.escape(Path(e.file).stem)}"><span class="picture" '
                    f'aria-hidden="true">{e.picture}</span><span><span class="title">{html.escape(e.title)}</span> '
                    f'<span class="start">{html.escape(e.description)}</span></span></a></li>'
                    for e in entries(FOLDER if code == "en" else FOLDER / code))
    lead = _("Learn <strong>Aluette</strong> (<em>la Vache</em>), the old card game of the west of France, by "
             "playing with it. Start with the first page and go down the list, one page at a time.")
    foot = _("Each page runs on the teacher's computer; close the tab when you are done with a page.")
    return (f'<div class="aluette-landing" lang="{code}"><nav class="languages" aria-label="Langue / Language">'
            f'{choice}</nav><header><h1>Aluette</h1><p class="lead">{lead}</p></header><main>'
            '<h2>' + html.escape(_("The lessons, in order"), quote=False) + f'</h2><ol class="notebooks">{items}</ol></main>'
            f'<footer><p>{html.escape(foot, quote=False)}</p></footer></div>')


def _drawn():
    """Tell this worker's door that the page is drawn, so that the next page may start
    (:class:`aluette.classroom.admission.Starts`)."""
    if kernel_context.has_current_context():
        PAGE_STARTS.started(kernel_context.get_current_context().id)


def _landing(language: str = ""):
    """The landing page of ``language`` (``""``: the root's, English unless its address asks ``?lang=fr``)."""
    @solara.component
    def Landing():
        solara.use_effect(_drawn, [])
        solara.Style(LANDING_CSS)
        code = language or page_language(solara.use_router().search) or "en"
        i18n.set_language(code)
        solara.Title(i18n.translations(code).gettext("Aluette: learn the card game"))
        solara.HTML(tag="div", unsafe_innerHTML=landing_html(code))
    return Landing


Landing = _landing()


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
                with i18n.kernel_language("en"):  # page: its widgets are not sent to this one, it reads no address,
                    notebook = lesson(path)  # and a French lesson's set_language("fr") stays in its own run
            page_storage()[_QUERY] = search or ""
            code = page_language(search)
            if code is not None:
                i18n.set_language(code)  # before the cells run: the page's widgets are drawn in its language
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
          *[solara.Route(path=p.stem, component=_page(p), label=p.stem) for p in student_notebooks(FOLDER)],
          # each translation: /fr/ its landing page, /fr/NAME its lessons (the root's Layout wraps them too)
          *[solara.Route(path=code, label=code, children=[
              solara.Route(path="/", component=_landing(code), label="Aluette"),
              *[solara.Route(path=p.stem, component=_page(p), label=p.stem) for p in student_notebooks(FOLDER / code)]])
            for code in TRANSLATIONS if (FOLDER / code).is_dir()]]

if os.environ.get("ALUETTE_PREWARM") == "1":
    # each notebook's template run at start, not in the first student's page; each run starts in English (a French
    # lesson sets its own language)
    for _path in [*student_notebooks(FOLDER), *(p for code in TRANSLATIONS for p in student_notebooks(FOLDER / code))]:
        with i18n.kernel_language("en"):
            lesson(_path)
    # What the start made (every notebook's run: ~370,000 objects) lives as long as the server: the garbage
    # collector need not scan it again. A full collection then scans only the pages' objects; over the start's it
    # paused the whole worker for ~160 ms, which a student's click waited for.
    gc.collect()
    gc.freeze()
