"""The teacher's page of a class's practice (issue 20, §3): students × lessons, the rules most often failed, one
student's detail, a CSV export, and resets. Served by the teacher's server only (notebook ``12_class_progress``);
it shows names and counts, never a card of a live table.

The page is a thin view over :meth:`aluette.store.progress.Progress.report` (three queries per refresh) and the
plain functions here that turn a :class:`~aluette.store.progress.ClassProgress` into HTML (:func:`class_table_html`,
:func:`failed_html`, :func:`student_html`), tested without widgets.
"""

from __future__ import annotations

import asyncio
import base64
import time
from html import escape
from typing import Optional

import ipywidgets as w

from ..errors import AluetteError
from ..i18n import N_, _, ngettext, pgettext
from ..practice import LESSONS, RULES
from ..store.progress import ClassProgress, Progress, class_from_environment
from .common import MessageArea, class_label, no_null_tooltips, styled

__all__ = ["ClassPage", "class_table_html", "failed_html", "student_html", "csv_link", "download_csv", "CSV_HEADINGS",
           "POLL_LIFETIME"]

#: How long a class page reads again by itself (a lesson and more), in seconds.
POLL_LIFETIME = 4 * 3600.0

_CSS = """<style>
.aluette-class-table { border-collapse: collapse; font-size: 0.95em; }
.aluette-class-table th, .aluette-class-table td { border: 1px solid #9e9e9e; padding: 3px 6px; text-align: left; }
.aluette-class-table td.aluette-done { background: #e8f3e8; }
.aluette-class-scroll { overflow-x: auto; max-width: 100%; }
</style>"""


def _cell(row) -> str:
    hints = ngettext(", {count} hint", ", {count} hints", row.hints).format(count=row.hints) if row.hints else ""
    done = " ✔" if row.done else ""
    return _("{solved}/{tried} solved, {points}/{possible} pts").format(
        solved=row.solved, tried=row.tried, points=row.points, possible=row.possible) + hints + done


def class_table_html(report: ClassProgress) -> str:
    """Students × lessons: per cell, tasks solved of those over, points of possible, hints, ✔ when the lesson's
    practice is done; a student with nothing done has an empty row."""
    lessons = tuple(LESSONS)
    by = {(row.student, row.lesson): row for row in report.rows}
    head = "".join(f"<th scope='col'>{lesson}</th>" for lesson in lessons)
    body = []
    for name in report.students:
        cells = []
        for lesson in lessons:
            row = by.get((name, lesson))
            cells.append("<td></td>" if row is None else
                         f"<td class='{'aluette-done' if row.done else ''}'>{escape(_cell(row))}</td>")
        body.append(f"<tr><th scope='row'>{escape(name)}</th>{''.join(cells)}</tr>")
    if not body:
        return "<p>" + escape(_("No student of class {code} has given a name yet.").format(
            code=class_label(report.class_code))) + "</p>"
    caption = ngettext("Class {code}: {count} student", "Class {code}: {count} students", len(report.students)).format(
        code=class_label(report.class_code), count=len(report.students))
    return (f"<div class='aluette-class-scroll'><table class='aluette-class-table'><caption>{escape(caption)}"
            "</caption><thead><tr><th scope='col'>" + escape(_("student")) + f"</th>{head}</tr></thead><tbody>"
            f"{''.join(body)}</tbody></table></div>")


def failed_html(report: ClassProgress) -> str:
    """The rules the class gets wrong most, each with how often (a wrong answer put right on a later try counts: the
    rule was missed at first), by how many students, the rule and where the lessons teach it."""
    if not report.failed:
        return "<p>" + escape(_("No task failed yet.")) + "</p>"
    items = []
    for failed in report.failed:
        rule = RULES.get(failed.rule)
        said = (f"{escape(rule.statement)} <i>({escape(rule.where)})</i>" if rule is not None
                else escape(failed.rule))
        if failed.missed == failed.failed:  # every task missed stayed unsolved
            line = ngettext("<b>{failed} of {tried}</b> tasks failed, by {students} student: {rule}",
                            "<b>{failed} of {tried}</b> tasks failed, by {students} students: {rule}", failed.students)
        else:  # some put right on a later try: the rule was still missed at first
            line = ngettext("<b>{missed} of {tried}</b> tasks wrong at the first answer ({failed} never solved), by "
                            "{students} student: {rule}",
                            "<b>{missed} of {tried}</b> tasks wrong at the first answer ({failed} never solved), by "
                            "{students} students: {rule}", failed.students)
        items.append("<li>" + line.format(failed=failed.failed, tried=failed.tried, missed=failed.missed,
                                          students=failed.students, rule=said) + "</li>")
    return f"<ol>{''.join(items)}</ol>"


def student_html(report: ClassProgress, name: Optional[str]) -> str:
    """One student's lessons, one line each."""
    if name is None:
        return ""
    rows = [row for row in report.rows if row.student == name]
    if not rows:
        return "<p>" + escape(_("{name} has not finished a task yet.").format(name=name)) + "</p>"
    lines = "".join("<li>" + escape(_("Lesson {lesson}: {cell}; {wrong}, {asked}; last task {time}").format(
        lesson=row.lesson, cell=_cell(row),
        wrong=ngettext("{count} wrong answer", "{count} wrong answers", row.wrong).format(count=row.wrong),
        asked=ngettext("{count} answer asked for", "{count} answers asked for", row.asked).format(count=row.asked),
        time=time.strftime('%H:%M', time.localtime(row.last)))) + "</li>" for row in rows)
    return f"<ul>{lines}</ul>"


#: The headings of the downloaded table (:data:`ClassProgress.CSV_COLUMNS <aluette.store.progress.ClassProgress>`,
#: the names a program reads), as a spreadsheet in the page's language shows them.
CSV_HEADINGS = {"student": N_("student"), "lesson": N_("lesson"), "tasks": N_("tasks"), "solved": N_("solved"),
                "points": N_("points"), "possible": N_("possible"), "hints": N_("hints"), "wrong": N_("wrong"),
                "answers_asked": N_("answers asked"), "done": N_("done"), "last_task_utc": N_("last task (UTC)")}


def download_csv(report: ClassProgress) -> str:
    """The class's table as the teacher's download holds it, for a spreadsheet in the page's language: the headings
    (:data:`CSV_HEADINGS`) and "yes"/"no" in that language, the fields separated as its spreadsheets expect (a comma
    in English; a semicolon in French, whose decimal mark is the comma), after a byte-order mark so that Excel reads
    the accents of the names as UTF-8 (a program reading it takes the ``utf-8-sig`` encoding)."""
    # TRANSLATORS: the separator of a CSV file's fields in this language's spreadsheets (French: « ; »)
    delimiter = pgettext("CSV separator", ",")
    return "\ufeff" + report.csv(headings=[_(CSV_HEADINGS[c]) for c in report.CSV_COLUMNS], delimiter=delimiter,
                                 yes=_("yes"), no=_("no"))


def csv_link(report: ClassProgress) -> str:
    """A link that downloads the class's table as CSV (:func:`download_csv`; the file is in the link: no server
    route needed), named ``class-<code>.csv`` in the page's language."""
    data = base64.b64encode(download_csv(report).encode("utf-8")).decode("ascii")
    # TRANSLATORS: the start of the downloaded file's name (class-7b.csv): no space, no accent needed
    name = pgettext("file name", "class") + f"-{report.class_code}.csv"
    return (f"<a class='aluette-class-csv' download='{escape(name)}' "
            f"href='data:text/csv;charset=utf-8;base64,{data}'>" + escape(_("Download the table as CSV")) + "</a>")


class ClassPage(w.VBox):
    """The class's practice for the teacher: a class chooser, *Refresh*, the table, the rules most failed, a
    student's detail, the CSV link, and resets (each asks to be pressed twice).

    Controls (CSS classes ``aluette-class-*``): ``class_choice`` (``-choice``), ``refresh_button`` (``-refresh``),
    ``student_choice`` (``-student``), ``reset_student_button`` (``-reset-student``), ``reset_class_button``
    (``-reset-class``). Views: ``table``, ``failed``, ``detail``, ``download``, ``status``, ``message``.
    ``poll``: read again every ``interval`` seconds on the kernel's event loop (when one runs), for at most
    :data:`POLL_LIFETIME` seconds, until the page is closed; the teacher sees the class work without pressing
    Refresh (a refresh that changes nothing sends nothing to the browser but the time). Every second by default:
    the class's answers then show within 2 s (issue 20's target; bench_class --practice measured a 2 s period's
    worst case at 2.36 s), for one read of the store a second (about 0.3 ms, bench_progress).
    """

    def __init__(self, progress: Optional[Progress] = None, class_code: Optional[str] = None, *, poll: bool = True,
                 interval: float = 1.0):
        if progress is None:
            from .practice import shared_progress
            progress = shared_progress()
        self.progress = progress
        self.message = MessageArea()
        self.class_choice = styled(w.Dropdown(description=_("Class"), options=[]), "aluette-class-choice")
        self.refresh_button = styled(w.Button(description=_("Refresh"), icon="refresh"), "aluette-class-refresh")
        self.student_choice = styled(w.Dropdown(description=_("Student"), options=[]), "aluette-class-student")
        self.reset_student_button = styled(w.Button(description=_("Reset this student")), "aluette-class-reset-student")
        self.reset_class_button = styled(w.Button(description=_("Reset the whole class"), button_style="danger"),
                                         "aluette-class-reset-class")
        self.status = styled(w.HTML(), "aluette-class-status")
        self.table = styled(w.HTML(), "aluette-class-table-view")
        self.failed = styled(w.HTML(), "aluette-class-failed")
        self.detail = styled(w.HTML(), "aluette-class-detail")
        self.download = styled(w.HTML(), "aluette-class-download")
        self._armed: Optional[str] = None
        self._report: Optional[ClassProgress] = None
        self._default = class_code if class_code is not None else class_from_environment()
        self.refresh_button.on_click(lambda _: self._run(self.refresh))
        self._quiet = False
        self.class_choice.observe(lambda change: None if self._quiet else self._run(self.refresh), names="value")
        self.student_choice.observe(lambda change: None if self._quiet else self._run(self._show_detail),
                                    names="value")
        self.reset_student_button.on_click(lambda _: self._run(self._reset_student))
        self.reset_class_button.on_click(lambda _: self._run(self._reset_class))
        super().__init__([w.HTML(_CSS), w.HBox([self.class_choice, self.refresh_button]), self.status, self.message,
                          self.table, self.download, w.HTML("<h3>" + escape(_("The rules the class gets wrong most")) + "</h3>"),
                          self.failed, w.HTML("<h3>" + escape(_("One student")) + "</h3>"), self.student_choice, self.detail,
                          w.HBox([self.reset_student_button, self.reset_class_button])])
        self.add_class("aluette-class-page")
        self._run(self.refresh)
        no_null_tooltips(self)
        self._closed = False
        self._task: Optional[asyncio.Task] = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if poll and loop is not None:
            self._task = loop.create_task(self._poll(interval))

    async def _poll(self, interval: float) -> None:
        for _round in range(max(1, int(POLL_LIFETIME / interval))):  # at most POLL_LIFETIME seconds of rounds
            await asyncio.sleep(interval)
            if self._closed:
                return
            self._run(self.refresh)

    def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        super().close()

    def _run(self, action) -> None:
        try:
            action()
        except AluetteError as error:
            self.message.error(str(error))

    def refresh(self) -> None:
        """Read the class again (three queries) and show it."""
        classes = sorted({*self.progress.classes(), self._default})
        chosen = self.class_choice.value if self.class_choice.value in classes else self._default
        if [code for _label, code in self.class_choice.options] != classes or self.class_choice.value != chosen:
            self._quiet = True  # the chooser's own change would refresh again
            try:
                self.class_choice.options = [(class_label(code), code) for code in classes]
                self.class_choice.value = chosen
            finally:
                self._quiet = False
        report = self.progress.report(chosen)
        self._report = report
        self.table.value = class_table_html(report)
        self.failed.value = failed_html(report)
        self.download.value = csv_link(report)
        students = list(report.students)
        if list(self.student_choice.options) != students:
            keep = self.student_choice.value if self.student_choice.value in students else None
            self._quiet = True
            try:
                self.student_choice.options = students
                self.student_choice.value = keep if keep is not None else (students[0] if students else None)
            finally:
                self._quiet = False
        self._show_detail()
        done = sum(row.tried for row in report.rows)
        self.status.value = escape(_("Updated at {time}: {students}, {done}.").format(
            time=time.strftime('%H:%M:%S'),
            students=ngettext("{count} student", "{count} students", len(students)).format(count=len(students)),
            done=ngettext("{count} task over", "{count} tasks over", done).format(count=done)))

    def _show_detail(self) -> None:
        if self._report is not None:
            self.detail.value = student_html(self._report, self.student_choice.value)

    def _reset_student(self) -> None:
        name = self.student_choice.value
        if name is None:
            raise AluetteError(_("choose a student first"))
        if self._armed != f"student:{name}":
            self._armed = f"student:{name}"
            self.message.error(_("Press again to forget everything {name} did.").format(name=name))
            return
        self._armed = None
        student = self.progress.find(self.class_choice.value, name)
        if student is not None:
            self.progress.reset_student(student)
        self.message.ok(_("{name}'s practice is forgotten.").format(name=name))
        self.refresh()

    def _reset_class(self) -> None:
        code = self.class_choice.value
        if self._armed != f"class:{code}":
            self._armed = f"class:{code}"
            self.message.error(_("Press again to forget every student of class {code} and all they did.").format(
                code=class_label(code)))
            return
        self._armed = None
        count = self.progress.reset_class(code)
        self.message.ok(ngettext("Class {code}: {count} student forgotten.", "Class {code}: {count} students forgotten.",
                                 count).format(code=class_label(code), count=count))
        self.refresh()
