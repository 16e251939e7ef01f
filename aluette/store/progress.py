"""Each student's practice progress, in the same store as the shared tables (issue 20, §2).

A student gives a first name once per device (no password, no e-mail, nothing else personal); the class is the
teacher's class code (``ALUETTE_CLASS``) or, without one, the classroom app's token (kept as a digest, never the
token itself), or ``this-computer`` when the app runs without either (:func:`class_from_environment`). Progress is
kept in three tables of their own, created on first use beside the tables' (``aluette_practice_*``: the store's
schema version and its checks are left as they are):

* ``aluette_practice_students``: one row per first name in a class (the name as typed, cleaned by
  :func:`aluette.store.names.clean_name`, and its :func:`~aluette.store.names.skeleton`, so "chloe" on another
  device finds "Chloé");
* ``aluette_practice_attempts``: one row per task that is over (kind, rule, right, points, hints, wrong answers,
  answer asked for, when), keyed by the student and the task's id, so an answer sent twice (a retried request, two
  tabs) is counted once;
* ``aluette_practice_sessions``: the student's practice of each lesson as
  :meth:`aluette.practice.PracticeSession.to_dict` saves it, so a reload, a restart of the server or another device
  goes on where it stopped.

Every write is one transaction: the attempt and the session's state are kept together or not at all.
:class:`ClassProgress` reads a class for the teacher's page: students × lessons, the rules most often failed, a
CSV export.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..errors import AluetteError, InputTooLongError, MalformedSaveError, TableError, quoted
from ..i18n import N_, _
from .db import Store
from .names import clean_name, skeleton

__all__ = ["Progress", "Student", "LessonRow", "FailedRule", "ClassProgress", "clean_class_code",
           "class_from_environment", "CLASS_ENV", "TOKEN_ENV", "NAME_LIMIT", "CLASS_LIMIT", "LOCAL_CLASS"]

#: The environment variable a teacher sets to a class code (``make app CLASS=...``).
CLASS_ENV = "ALUETTE_CLASS"
#: The environment variable in which the classroom app's server gets its token (:mod:`aluette.classroom.command`).
TOKEN_ENV = "ALUETTE_TOKEN"
#: The class of an app that runs with neither a class code nor a token (one computer, JupyterLab).
LOCAL_CLASS = "this-computer"
#: The longest first name, in characters.
NAME_LIMIT = 40
#: The longest class code.
CLASS_LIMIT = 64
_CLASS_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The largest saved session read back (a session of 60 tasks is about 6,000 characters).
_STATE_LIMIT = 50_000

_TABLES = ("aluette_practice_students", "aluette_practice_attempts", "aluette_practice_sessions")
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS aluette_practice_students (
        id {id},
        class_code TEXT NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        UNIQUE (class_code, name_key))""",
    """CREATE TABLE IF NOT EXISTS aluette_practice_attempts (
        student_id BIGINT NOT NULL REFERENCES aluette_practice_students(id) ON DELETE CASCADE,
        lesson TEXT NOT NULL,
        task_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        rule TEXT NOT NULL,
        solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
        points INTEGER NOT NULL CHECK (points >= 0),
        possible INTEGER NOT NULL CHECK (possible >= 0),
        hints INTEGER NOT NULL CHECK (hints >= 0),
        wrong INTEGER NOT NULL CHECK (wrong >= 0),
        asked INTEGER NOT NULL CHECK (asked IN (0, 1)),
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (student_id, task_id))""",
    """CREATE TABLE IF NOT EXISTS aluette_practice_sessions (
        student_id BIGINT NOT NULL REFERENCES aluette_practice_students(id) ON DELETE CASCADE,
        lesson TEXT NOT NULL,
        state TEXT NOT NULL,
        done INTEGER NOT NULL CHECK (done IN (0, 1)),
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (student_id, lesson))""",
    "CREATE INDEX IF NOT EXISTS aluette_practice_students_by_class ON aluette_practice_students (class_code)",
)
#: PostgreSQL's advisory lock key under which one session creates the tables ("Alup").
_SCHEMA_LOCK = 0x416C7570


def clean_class_code(value: Any) -> str:
    """A class code: 1 to :data:`CLASS_LIMIT` letters, digits, ``-`` or ``_``.

    Raises:
        InputTooLongError: longer (checked first). TableError: not text, empty, or another character.
    """
    if not isinstance(value, str):
        raise TableError(f"a class code is text, got {quoted(value)}")
    if len(value) > CLASS_LIMIT:
        raise InputTooLongError(f"a class code is at most {CLASS_LIMIT} characters, got {quoted(value)}")
    if not _CLASS_RE.fullmatch(value):
        raise TableError(f"a class code is 1 to {CLASS_LIMIT} letters, digits, - or _; got {quoted(value)}")
    return value


def class_from_environment(environ: Optional[dict] = None) -> str:
    """The class of this app: ``ALUETTE_CLASS`` when set, else ``token-`` and the first 12 hex digits of the
    SHA-256 of ``ALUETTE_TOKEN`` (the token itself is never stored), else :data:`LOCAL_CLASS`.

    Raises:
        TableError / InputTooLongError: an ``ALUETTE_CLASS`` that is not a class code.
    """
    environ = os.environ if environ is None else environ
    if environ.get(CLASS_ENV):
        return clean_class_code(environ[CLASS_ENV])
    if environ.get(TOKEN_ENV):
        return "token-" + hashlib.sha256(environ[TOKEN_ENV].encode()).hexdigest()[:12]
    return LOCAL_CLASS


@dataclass(frozen=True)
class Student:
    """A student of a class, as the store knows them: ``id`` (the store's), ``class_code``, ``name``."""

    id: int
    class_code: str
    name: str


@dataclass(frozen=True)
class LessonRow:
    """One student's practice of one lesson, for the teacher: tasks over, solved, points of possible, hints taken,
    wrong answers, answers asked for, whether the lesson's practice is done, and when the last task ended."""

    student: str
    lesson: str
    tried: int
    solved: int
    points: int
    possible: int
    hints: int
    wrong: int
    asked: int
    done: bool
    last: float


@dataclass(frozen=True)
class FailedRule:
    """A rule the class gets wrong: of the ``tried`` tasks on it that are over, ``missed`` were not answered right
    at the first answer (a wrong answer, even one put right on a later try), ``failed`` of them ended unsolved; by
    ``students`` students (those who missed one)."""

    rule: str
    failed: int
    tried: int
    students: int
    missed: int


@dataclass(frozen=True)
class ClassProgress:
    """A class's progress as the teacher's page shows it: ``rows`` (one per student and lesson, by name then
    lesson), ``students`` (every name, with or without a task done), ``failed`` (the rules most often failed,
    worst first)."""

    class_code: str
    students: tuple[str, ...]
    rows: tuple[LessonRow, ...]
    failed: tuple[FailedRule, ...]

    CSV_COLUMNS = ("student", "lesson", "tasks", "solved", "points", "possible", "hints", "wrong", "answers_asked",
                   "done", "last_task_utc")

    def csv(self, *, headings: Optional[Sequence[str]] = None, delimiter: str = ",", yes: str = "yes",
            no: str = "no") -> str:
        """The table as CSV (one line per student and lesson; a student with nothing done gets one line with an
        empty lesson). A cell that a spreadsheet would read as a formula is written with a leading ``'``.

        By default the columns are :data:`CSV_COLUMNS`, comma-separated, ``done`` is ``yes`` or ``no``: the form a
        program reads. ``headings``, ``delimiter``, ``yes`` and ``no`` word it for a spreadsheet in another
        language (the teacher's download, :func:`aluette.widgets.class_progress.download_csv`)."""
        headings = self.CSV_COLUMNS if headings is None else tuple(headings)
        if len(headings) != len(self.CSV_COLUMNS) or not all(isinstance(h, str) for h in headings):
            raise AluetteError(f"the CSV has {len(self.CSV_COLUMNS)} columns, each with a heading of text; got "
                               f"{quoted(headings)}")
        if not (isinstance(delimiter, str) and len(delimiter) == 1 and delimiter not in '"\'\r\n' and
                not delimiter.isalnum()):
            raise AluetteError(f"a CSV's separator is one character that no cell begins with, such as , or ;; got "
                               f"{quoted(delimiter)}")
        out = io.StringIO()
        writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
        writer.writerow(headings)
        seen = set()
        for row in self.rows:
            seen.add(row.student)
            writer.writerow([_cell(row.student), row.lesson, row.tried, row.solved, row.points, row.possible,
                             row.hints, row.wrong, row.asked, yes if row.done else no,
                             time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(row.last))])
        for name in self.students:
            if name not in seen:
                writer.writerow([_cell(name), "", 0, 0, 0, 0, 0, 0, 0, no, ""])
        return out.getvalue()


def name_order(name: str) -> tuple[str, str]:
    """The key that sorts first names as a class list does: letters without their accents, case aside
    (``"Élodie"`` between ``"Chloé"`` and ``"François"``), then the name itself (a stable order for two names that
    differ only there)."""
    folded = unicodedata.normalize("NFKD", name.casefold()).translate(_LETTERS)
    return "".join(c for c in folded if not unicodedata.combining(c)), name


#: Latin letters that Unicode does not decompose into a base letter and a mark, as a class list sorts them.
_LETTERS = str.maketrans({"ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ß": "ss",
                          "ı": "i", "ħ": "h", "ŧ": "t"})


def _cell(text: str) -> str:
    """A cell that a spreadsheet would read as a formula (OWASP's list: = + - @, a tab, a carriage return), written
    with a leading ``'``."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class Progress:
    """The practice progress kept in ``store`` (an open :class:`~aluette.store.db.Store`); its tables are created
    on first use. One per kernel or page, like the store it uses.

    Raises:
        StoreError: the database failed.
    """

    def __init__(self, store: Store):
        self.store = store
        identity = ("INTEGER PRIMARY KEY" if store.backend == "sqlite"
                    else "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
        with store.write() as tx:
            if store.backend == "postgresql":  # CREATE ... IF NOT EXISTS races on PostgreSQL: one at a time
                tx.run("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
            for statement in _SCHEMA:
                tx.run(statement.format(id=identity))

    # --------------------------------------------------------------------------------------------- students
    def student(self, class_code: str, name: str) -> Student:
        """The student called ``name`` in ``class_code``, added on first use; the same name (as its skeleton: case,
        accents and look-alike letters aside) on another device is the same student.

        Raises:
            InputTooLongError / TableError: not a first name (:func:`aluette.store.names.clean_name`) or not a
                class code. StoreError: the database failed.
        """
        class_code = clean_class_code(class_code)
        name = clean_name(name, N_("your first name"), NAME_LIMIT)
        key = skeleton(name)
        if not key:
            raise TableError(_("your first name needs a letter or digit, got {name}").format(name=quoted(name)))
        with self.store.write() as tx:
            tx.run("INSERT INTO aluette_practice_students (class_code, name, name_key, created_at) VALUES (?, ?, ?, ?)"
                   " ON CONFLICT (class_code, name_key) DO NOTHING", (class_code, name, key, time.time()))
            row = tx.one("SELECT id, name FROM aluette_practice_students WHERE class_code = ? AND name_key = ?",
                         (class_code, key))
        return Student(int(row[0]), class_code, row[1])

    def record(self, student: Student, lesson: str, attempt, task, state: dict, done: bool) -> bool:
        """Keep a task that is over (``attempt``, an :class:`aluette.practice.Attempt` of ``task``) and the
        session's state after it, in one transaction. Returns False when that task was already kept (an answer sent
        twice is counted once); the state is saved either way.

        Raises:
            StoreError: the database failed (nothing kept).
        """
        text = json.dumps(state, separators=(",", ":"))
        now = time.time()
        with self.store.write() as tx:
            before = tx.one("SELECT 1 FROM aluette_practice_attempts WHERE student_id = ? AND task_id = ?",
                            (student.id, attempt.task_id))
            tx.run("INSERT INTO aluette_practice_attempts (student_id, lesson, task_id, kind, rule, solved, points, "
                   "possible, hints, wrong, asked, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                   "ON CONFLICT (student_id, task_id) DO NOTHING",
                   (student.id, lesson, attempt.task_id, attempt.kind, task.rule.key, int(attempt.right),
                    attempt.points, task.points, attempt.hints, attempt.wrong, int(attempt.asked), now))
            self._save(tx, student, lesson, text, done, now)
        return before is None

    def save(self, student: Student, lesson: str, state: dict, done: bool = False) -> None:
        """Keep the session's state alone (a hint taken, a wrong answer given: the task is not over yet)."""
        with self.store.write() as tx:
            self._save(tx, student, lesson, json.dumps(state, separators=(",", ":")), done, time.time())

    @staticmethod
    def _save(tx, student: Student, lesson: str, text: str, done: bool, now: float) -> None:
        tx.run("INSERT INTO aluette_practice_sessions (student_id, lesson, state, done, updated_at) "
               "VALUES (?, ?, ?, ?, ?) ON CONFLICT (student_id, lesson) DO UPDATE SET state = excluded.state, "
               "done = excluded.done, updated_at = excluded.updated_at",
               (student.id, lesson, text, int(done), now))

    def saved(self, student: Student, lesson: str) -> Optional[dict]:
        """The session's state last kept for ``lesson``, or ``None``.

        Raises:
            MalformedSaveError: a state that is not JSON, or too long to be one of ours.
        """
        row = self.store.read_one("SELECT state FROM aluette_practice_sessions WHERE student_id = ? AND lesson = ?",
                                  (student.id, lesson))
        if row is None:
            return None
        if len(row[0]) > _STATE_LIMIT:
            raise MalformedSaveError(f"the practice of lesson {lesson} kept for {student.name} is "
                                     f"{len(row[0]):,} characters long, not one of ours")
        try:
            return json.loads(row[0])
        except ValueError:
            raise MalformedSaveError(f"the practice of lesson {lesson} kept for {student.name} is not JSON: "
                                     f"{quoted(row[0])}") from None

    def reset_student(self, student: Student) -> None:
        """Forget everything ``student`` did (the name stays, so the same name on another device is still them)."""
        with self.store.write() as tx:
            tx.run("DELETE FROM aluette_practice_attempts WHERE student_id = ?", (student.id,))
            tx.run("DELETE FROM aluette_practice_sessions WHERE student_id = ?", (student.id,))

    def reset_class(self, class_code: str) -> int:
        """Forget the whole class: its students and all they did. Returns how many students were forgotten."""
        class_code = clean_class_code(class_code)
        with self.store.write() as tx:
            ids = "SELECT id FROM aluette_practice_students WHERE class_code = ?"
            tx.run(f"DELETE FROM aluette_practice_attempts WHERE student_id IN ({ids})", (class_code,))
            tx.run(f"DELETE FROM aluette_practice_sessions WHERE student_id IN ({ids})", (class_code,))
            count = tx.one("SELECT COUNT(*) FROM aluette_practice_students WHERE class_code = ?", (class_code,))[0]
            tx.run("DELETE FROM aluette_practice_students WHERE class_code = ?", (class_code,))
        return int(count)

    # --------------------------------------------------------------------------------------------- the class
    def classes(self) -> list[str]:
        """The class codes that have students, in order."""
        with self.store.read() as tx:
            return [row[0] for row in tx.rows("SELECT DISTINCT class_code FROM aluette_practice_students "
                                              "ORDER BY class_code")]

    def find(self, class_code: str, name: str) -> Optional[Student]:
        """The student called ``name`` in ``class_code``, or ``None`` (nothing is added)."""
        class_code = clean_class_code(class_code)
        key = skeleton(clean_name(name, N_("a first name"), NAME_LIMIT))
        row = self.store.read_one("SELECT id, name FROM aluette_practice_students WHERE class_code = ? AND "
                                  "name_key = ?", (class_code, key))
        return None if row is None else Student(int(row[0]), class_code, row[1])

    def report(self, class_code: str, failed: int = 10) -> ClassProgress:
        """The class as the teacher sees it (three queries, each one pass over the class's rows).

        Raises:
            TableError: not a class code. StoreError: the database failed.
        """
        class_code = clean_class_code(class_code)
        with self.store.read() as tx:
            names = tuple(row[0] for row in tx.rows(
                "SELECT name FROM aluette_practice_students WHERE class_code = ?", (class_code,)))
            rows = tx.rows(
                "SELECT s.name, a.lesson, COUNT(*), SUM(a.solved), SUM(a.points), SUM(a.possible), SUM(a.hints), "
                "SUM(a.wrong), SUM(a.asked), MAX(a.at), MAX(COALESCE(p.done, 0)) "
                "FROM aluette_practice_attempts a JOIN aluette_practice_students s ON s.id = a.student_id "
                "LEFT JOIN aluette_practice_sessions p ON p.student_id = a.student_id AND p.lesson = a.lesson "
                "WHERE s.class_code = ? GROUP BY s.name, a.lesson", (class_code,))
            at_first = "a.solved = 0 OR a.wrong > 0"  # a task not right at the first answer
            missed = f"CASE WHEN {at_first} THEN 1 ELSE 0 END"
            worst = tx.rows(
                f"SELECT a.rule, SUM(1 - a.solved), COUNT(*), COUNT(DISTINCT CASE WHEN {at_first} "
                f"THEN a.student_id END), SUM({missed}) FROM aluette_practice_attempts a "
                f"JOIN aluette_practice_students s ON s.id = a.student_id WHERE s.class_code = ? GROUP BY a.rule "
                f"HAVING SUM({missed}) > 0 ORDER BY SUM({missed}) DESC, SUM(1 - a.solved) DESC, a.rule LIMIT ?",
                (class_code, int(failed)))
        # sorted here, not by the database: a class list's order, accents and case aside (Élodie between Chloé and
        # François, not after Zoë, as the databases' code-point order puts her), then the name itself, the lesson
        names = tuple(sorted(names, key=name_order))
        rows = sorted(rows, key=lambda r: (name_order(r[0]), r[1]))
        return ClassProgress(
            class_code, names,
            tuple(LessonRow(r[0], r[1], int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]), int(r[7]), int(r[8]),
                            bool(r[10]), float(r[9])) for r in rows),
            tuple(FailedRule(r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in worst))

    def close(self) -> None:
        self.store.close()

