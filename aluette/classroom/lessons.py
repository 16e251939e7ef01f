"""The students' pages as Solara serves them: each notebook's kept cells, run for each student in the server's one
process (Solara's "virtual kernels"), markdown rendered and code hidden.

A notebook is read once per server (:func:`lesson`): cells tagged ``remove-cell`` are dropped, markdown is turned
into HTML with nbconvert (as Voilà does), and every code cell is run once in a first namespace (the *template
run*), timing its CPU and recording what it displays. Then, for each student, :meth:`Lesson.build` runs the code
cells again in a namespace of the student's own and returns the page as one ``VBox`` of widgets, except for the
*shared* cells: a cell that displays no widget and took more than :data:`SHARED_CPU_S` of CPU in the template run
(a simulation, a figure) is not run again; its recorded outputs and the names it bound are reused. Decision of this
project: that is sound because all chance in the notebooks goes through explicit seeds (``aluette.chance``), so
such a cell gives every student the same result; the cells that build widgets always run per student, so no two
students share a widget or a game.

A cell that raises shows the students a short notice naming the error's type in place of its outputs (no
traceback, as Voilà's ``show_tracebacks: false``), and the server's log gets the traceback; the rest of the page
is still built.

What a cell displays is collected as in a notebook: the value of its last expression, ``display(...)`` calls,
``print`` and matplotlib figures left open. Widgets are shown as they are, other values through their richest
representation (HTML, SVG, PNG, plain text), each in an ``ipywidgets.HTML``.
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import html
import io
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

__all__ = ["Lesson", "lesson", "quiet_build", "Turns", "BUILDS", "SHARED_CPU_S", "MARKDOWN_CLASS", "OUTPUT_CLASS"]

#: A cell without widgets that took more CPU than this in the template run is run once per server (seconds).
SHARED_CPU_S = 0.05
#: CSS class of a rendered markdown cell (the same classes as in JupyterLab and Voilà).
MARKDOWN_CLASS = "jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput"
#: CSS class of a code cell's output area.
OUTPUT_CLASS = "jp-OutputArea-output"

log = logging.getLogger("aluette.classroom")
_figures = threading.Lock()  # matplotlib's pyplot keeps one list of figures for the whole process


@dataclass
class Cell:
    kind: str  # "markdown" or "code"
    source: str
    html: str = ""  # markdown cells: the rendered HTML
    shared: bool = False  # code cells run once per server
    outputs: list = field(default_factory=list)  # shared cells: their outputs as HTML strings
    bound: dict = field(default_factory=dict)  # shared cells: the names they bound in the template run
    cpu: float = 0.0  # CPU seconds in the template run


def _rich_html(value) -> str:
    """The richest HTML for a value that is not a widget (as Jupyter's display would choose)."""
    for method, wrap in (("_repr_html_", lambda s: s), ("_repr_svg_", lambda s: s),
                         ("_repr_png_", lambda b: f'<img alt="" src="data:image/png;base64,'
                                                  f'{base64.b64encode(b).decode() if isinstance(b, bytes) else b}">'),
                         ("_repr_markdown_", _markdown)):
        render = getattr(value, method, None)
        if callable(render):
            try:
                shown = render()
            except Exception:  # noqa: BLE001 - as IPython does, fall back to the next representation
                shown = None
            if shown is not None:
                return wrap(shown[0] if isinstance(shown, tuple) else shown)
    return f"<pre>{html.escape(repr(value))}</pre>"


def _markdown(text: str) -> str:
    from nbconvert.filters.markdown import markdown2html_mistune
    return markdown2html_mistune(text)


def _figure_html(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return f'<img alt="" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}">'


class _Outputs:
    """What one cell displays, in order: widgets as they are, the rest as HTML strings."""

    def __init__(self):
        self.items: list = []
        self._text: list[str] = []

    def flush_text(self):
        if self._text:
            self.items.append(f"<pre>{html.escape(''.join(self._text))}</pre>")
            self._text = []

    def display(self, *values, **_options):
        for value in values:
            self.flush_text()
            self.items.append(value if isinstance(value, w.Widget) else _rich_html(value))

    def print(self, *values, sep=" ", end="\n", file=None, flush=False):
        if file is not None:
            builtins.print(*values, sep=sep, end=end, file=file, flush=flush)
        else:
            self._text.append(sep.join(map(str, values)) + end)


def failure_notice(error: BaseException) -> str:
    """What the students see in place of a cell that raised: the error's type, never the traceback."""
    return (f'<div class="aluette-cell-error" role="alert">This part of the page could not be prepared '
            f'({html.escape(type(error).__name__)}). Tell your teacher; the rest of the page works.</div>')


def run_cell(source: str, namespace: dict, name: str) -> list:
    """Run one code cell in ``namespace`` as a notebook would (magics such as ``%matplotlib inline`` aside) and
    return what it displays; a cell that raises displays what it displayed before, then :func:`failure_notice`."""
    try:
        return _run_cell(source, namespace, name)
    except Exception as error:  # noqa: BLE001 - shown to the student as a notice, logged in full
        log.exception("Classroom: %s raised", name)
        items = namespace.pop("__outputs__").items
        return [*items, failure_notice(error)]
    finally:
        namespace.pop("__outputs__", None)
        namespace.pop("display", None)
        namespace.pop("print", None)


def _run_cell(source: str, namespace: dict, name: str) -> list:
    outputs = namespace["__outputs__"] = _Outputs()
    namespace["display"] = outputs.display
    namespace["print"] = outputs.print
    lines = [line for line in source.splitlines() if not line.lstrip().startswith("%")]
    tree = ast.parse("\n".join(lines), filename=name)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    with _figures:
        import matplotlib.pyplot as plt
        before = set(plt.get_fignums())
        try:
            exec(compile(tree, name, "exec"), namespace)  # noqa: S102 - the project's own notebooks
            if last is not None:
                value = eval(compile(ast.Expression(last.value), name, "eval"), namespace)  # noqa: S307
                if value is not None and not _is_figure_call(value):
                    outputs.display(value)
        finally:
            outputs.flush_text()
            for number in sorted(set(plt.get_fignums()) - before):
                figure = plt.figure(number)
                outputs.items.append(_figure_html(figure))
                plt.close(figure)
    return outputs.items


def _is_figure_call(value) -> bool:
    """Matplotlib's artists returned by a last line such as ``ax.legend()``: Jupyter shows them as text next to
    the figure; the figure alone says it."""
    return type(value).__module__.startswith("matplotlib")


class Turns:
    """One at a time, in the order asked (a ticket lock): ``with turns.turn(): ...``.

    The students' pages are built one after another (:data:`BUILDS`). Thirty pages asked at the same moment then
    finish in turn, the first within a page's time, rather than all together at the end after sharing the
    process's one core (the GIL) thirty ways; and a student already on a page who clicks waits behind one build,
    not thirty. The last page is ready no later: the work is the same."""

    def __init__(self):
        self._changed = threading.Condition()
        self._next = 0  # the next ticket handed out
        self._serving = 0  # the ticket whose turn it is

    @contextlib.contextmanager
    def turn(self):
        with self._changed:
            ticket = self._next
            self._next += 1
            self._changed.wait_for(lambda: self._serving == ticket)
        try:
            yield ticket
        finally:
            with self._changed:
                self._serving += 1
                self._changed.notify_all()


#: The turns of every page build of this process (:meth:`Lesson.build`).
BUILDS = Turns()


class Lesson:
    """One notebook, read and run once per server; :meth:`build` makes a student's page."""

    def __init__(self, path: Path):
        self.path = path
        self.name = path.name
        notebook = json.loads(path.read_text(encoding="utf-8"))
        self.cells: list[Cell] = []
        for raw in notebook["cells"]:
            if "remove-cell" in raw.get("metadata", {}).get("tags", []):
                continue
            source = "".join(raw["source"])
            if raw["cell_type"] == "markdown":
                self.cells.append(Cell("markdown", source, html=_markdown(source)))
            elif raw["cell_type"] == "code":
                self.cells.append(Cell("code", source))
        self._template_run()

    def _template_run(self):
        namespace = {"__name__": "__main__"}
        for index, cell in enumerate(self.cells):
            if cell.kind != "code":
                continue
            before = dict(namespace)
            start = time.process_time()
            items = run_cell(cell.source, namespace, f"<{self.name} cell {index}>")
            cell.cpu = time.process_time() - start
            if cell.cpu > SHARED_CPU_S and not any(isinstance(i, w.Widget) for i in items):
                # a cell that failed here is shared too: it would fail the same way for every student
                cell.shared = True
                cell.outputs = items
                cell.bound = {k: v for k, v in namespace.items() if k not in before or before[k] is not v}
            for item in items:
                if isinstance(item, w.Widget):
                    item.close()

    @property
    def setup_cpu(self) -> float:
        """CPU seconds a student's page costs on top of the shared cells (as measured in the template run)."""
        return sum(c.cpu for c in self.cells if c.kind == "code" and not c.shared)

    def build(self) -> "Page":
        """A student's page: markdown and outputs in order, the code cells run in a namespace of the student's.

        Consecutive parts without widgets (markdown, printed text, pictures) are one ``HTML`` widget, and the page's
        widgets reach the browser once, with their final state, when the page is built (:func:`quiet_build`).
        Pages are built one at a time, in the order asked (:data:`BUILDS`); their widgets are sent after the turn
        (each message waits for the server's event loop: another page is built meanwhile)."""
        with quiet_build():
            with BUILDS.turn():
                return self._build()

    def _build(self) -> "Page":
        namespace = {"__name__": "__main__"}
        children, static = [], []
        parts = {}  # one layout and style for the page's runs of prose (never changed): fewer widgets to open

        def flush():
            if static:
                if not parts:
                    parts.update(layout=w.Layout(), style=HTMLStyle())
                children.append(w.HTML("".join(static), **parts))
                static.clear()

        for index, cell in enumerate(self.cells):
            if cell.kind == "markdown":
                static.append(f'<div class="{MARKDOWN_CLASS}">{cell.html}</div>')
                continue
            if cell.shared:
                namespace.update(cell.bound)
                items = cell.outputs
            else:
                items = run_cell(cell.source, namespace, f"<{self.name} cell {index}>")
            for item in items:
                if isinstance(item, w.Widget):
                    flush()
                    children.append(item)
                else:
                    static.append(f'<div class="{OUTPUT_CLASS}">{item}</div>')
        flush()
        return Page(children, layout=w.Layout(max_width="1100px", margin="0 auto"), name=self.name)


class Page(w.VBox):
    """A student's page (a ``VBox``) whose text form names the notebook: displaying a widget computes its text form,
    which for a ``VBox`` is every widget's under it (~7 ms for notebook 08's), then cut to 110 characters."""

    def __init__(self, children, name: str, **kwargs):
        super().__init__(children, **kwargs)
        self.notebook = name

    def __repr__(self) -> str:
        return f"<page {self.notebook}>"


# ------------------------------------------------------------------------------------------------ quiet build
# A widget sends its whole state to the browser when it is made (``comm_open``), then one message per trait set
# afterwards (the CSS classes added, a tooltip, the first draw...): a page of widgets built in place sent about
# twice as many messages as it has widgets, each serialized to JSON on the server's one core. Inside
# ``quiet_build()`` (one thread: each page is built in its kernel's own thread) a new widget opens no comm; when the
# block ends, every widget made in it and not closed opens its comm with its final state, the widgets it holds
# (children, layout, style) first, as the browser needs them. Outside the block nothing changes.

_quiet = threading.local()  # .pending: {id: widget} made in this thread's quiet_build() block, not yet opened
_hooks_lock = threading.Lock()
_ipywidgets_open = None  # ipywidgets' own Widget.open, once the hooks are installed


def _install_quiet_hooks():
    """Wrap ``Widget.open`` and ``Widget.close`` once per process: outside a ``quiet_build()`` block of the calling
    thread they do what they did."""
    global _ipywidgets_open
    with _hooks_lock:
        if _ipywidgets_open is not None:
            return
        opening, closing = w.Widget.open, w.Widget.close

        def open_(self):
            pending = getattr(_quiet, "pending", None)
            if pending is not None and self.comm is None:
                pending[id(self)] = self  # held, so its id is not reused before the block ends
                return
            opening(self)

        def close(self):
            pending = getattr(_quiet, "pending", None)
            if pending is not None:
                pending.pop(id(self), None)  # closed before it was opened: never opened
            closing(self)

        w.Widget.open, w.Widget.close = open_, close
        _ipywidgets_open = opening


def _held_widgets(value, found: list) -> list:
    """The widgets in a trait's value (a widget, or lists, tuples and dicts of them), appended to ``found``."""
    if isinstance(value, w.Widget):
        found.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _held_widgets(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _held_widgets(item, found)
    return found


@contextlib.contextmanager
def quiet_build():
    """Widgets made inside the block open their comm when it ends, each with its final state (see above); nested
    blocks leave it to the outermost."""
    _install_quiet_hooks()
    if getattr(_quiet, "pending", None) is not None:
        yield
        return
    pending = _quiet.pending = {}
    try:
        yield
    finally:
        _quiet.pending = None

        def open_with_held(widget):
            if pending.pop(id(widget), None) is None:
                return  # opened already, or not made in the block
            if not isinstance(widget, (w.Layout, w.Style)):  # those hold no widget
                for name in widget.keys:
                    for held in _held_widgets(getattr(widget, name, None), []):
                        open_with_held(held)
            _ipywidgets_open(widget)

        while pending:
            open_with_held(next(iter(pending.values())))


_lessons: dict[str, Lesson] = {}
_lock = threading.Lock()


def lesson(path: Path) -> Lesson:
    """The lesson of ``path``, read and run the first time it is asked for (once per server)."""
    key = str(path)
    with _lock:
        if key not in _lessons:
            _lessons[key] = Lesson(path)
        return _lessons[key]
