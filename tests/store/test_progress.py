"""Practice progress in the store (issue 20, §2), on SQLite and PostgreSQL (``backend``, tests/store/conftest.py):
a student is a first name in a class, the same on another device; a task that ends is kept once with the session's
state, which a new page (a reload, another device, a restarted server: a new connection) reads back; answers sent at
once from many pages are each counted once; a student or a class is reset; the teacher's report counts what was
sent, names the rules most failed, and exports CSV; bad names and class codes are refused, nothing kept."""

from __future__ import annotations

import csv
import io
import threading

import pytest

from aluette.errors import InputTooLongError, TableError
from aluette.practice import PracticeController
from aluette.store.progress import LOCAL_CLASS, Progress, class_from_environment, clean_class_code
from aluette.widgets.practice import StoreKeeper

from ..test_practice import answers


@pytest.fixture
def progress(backend):
    p = Progress(backend.store())
    yield p
    p.close()


def play(controller: PracticeController, wrong_first: bool = False) -> None:
    """Answer the task on show (after one wrong try, when asked and the task has a wrong answer), then move on."""
    right, wrong = answers(controller.task)
    if wrong_first and wrong is not None:
        controller.answer(wrong)
    if not controller.waiting:
        controller.answer(right)
    controller.next()


class TestStudents:
    def test_a_name_is_one_student_on_every_device(self, backend, progress):
        ann = progress.student("class-7b", "Chloé")
        other = Progress(backend.store())  # another device: another connection
        try:
            assert other.student("class-7b", "  chloe ") == ann
            assert other.student("class-7c", "Chloé").id != ann.id
        finally:
            other.close()

    @pytest.mark.parametrize("name, error", [("", TableError), ("x" * 41, InputTooLongError), ("a<b>", TableError),
                                             (None, TableError)])
    def test_a_bad_name_is_refused_and_nothing_kept(self, progress, name, error):
        with pytest.raises(error):
            progress.student("class-7b", name)
        assert progress.report("class-7b").students == ()

    def test_class_codes(self):
        assert clean_class_code("class-7b_2") == "class-7b_2"
        for bad, error in (("", TableError), ("a b", TableError), ("x" * 65, InputTooLongError), (7, TableError)):
            with pytest.raises(error):
                clean_class_code(bad)
        assert class_from_environment({}) == LOCAL_CLASS
        assert class_from_environment({"ALUETTE_CLASS": "7b", "ALUETTE_TOKEN": "secret-token"}) == "7b"
        by_token = class_from_environment({"ALUETTE_TOKEN": "secret-token"})
        assert by_token.startswith("token-") and "secret" not in by_token and len(by_token) == 18


class TestKeeping:
    def test_a_reload_goes_on_where_the_practice_stopped(self, backend, progress):
        ann = progress.student("c", "Ann")
        page = PracticeController("01", 5, StoreKeeper(progress, ann))
        play(page)
        page.hint()
        reloaded = Progress(backend.store())  # a restarted server: a new connection, nothing in memory
        try:
            again = PracticeController("01", 77, StoreKeeper(reloaded, reloaded.student("c", "ann")))
            assert again.restored and again.session.to_dict() == page.session.to_dict() and len(again.hints) == 1
        finally:
            reloaded.close()

    def test_a_task_kept_twice_counts_once(self, progress):
        ann = progress.student("c", "Ann")
        page = PracticeController("06", 1)
        page.reveal()
        attempt, task = page.session.attempts[0], page.session.tasks[0]
        state = page.session.to_dict()
        assert progress.record(ann, "06", attempt, task, state, False) is True
        assert progress.record(ann, "06", attempt, task, state, False) is False
        (row,) = progress.report("c").rows
        assert (row.tried, row.solved, row.asked) == (1, 0, 1)

    def test_answers_from_many_pages_at_once_are_each_counted_once(self, backend, progress):
        names = [f"Pupil{i}" for i in range(6)]
        errors = []

        def student_page(name):
            p = Progress(backend.store())
            try:
                c = PracticeController("02", 0, StoreKeeper(p, p.student("c", name)))
                while not c.done:
                    play(c)
            except Exception as error:  # pragma: no cover - shown by the assert below
                errors.append(error)
            finally:
                p.close()

        threads = [threading.Thread(target=student_page, args=(name,)) for name in names]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not errors
        report = progress.report("c")
        assert report.students == tuple(sorted(names))
        assert [(r.student, r.tried, r.solved, r.done) for r in report.rows] == [(n, 4, 4, True) for n in sorted(names)]

    def test_reset_a_student_then_the_class(self, progress):
        ann, bob = progress.student("c", "Ann"), progress.student("c", "Bob")
        for who in (ann, bob):
            c = PracticeController("01", 3, StoreKeeper(progress, who))
            play(c)
        progress.reset_student(ann)
        assert progress.saved(ann, "01") is None and [r.student for r in progress.report("c").rows] == ["Bob"]
        assert progress.reset_class("c") == 2
        assert progress.report("c").students == () and progress.classes() == []


class TestReport:
    def test_counts_rules_failed_and_csv(self, progress):
        ann, bob = progress.student("7b", "Ann"), progress.student("7b", "Bob")
        progress.student("7b", "Chloé")  # a name with nothing done yet
        a = PracticeController("05", 2, StoreKeeper(progress, ann))
        while not a.done:
            play(a)
        b = PracticeController("05", 2, StoreKeeper(progress, bob))
        b.reveal()
        rule = b.task.rule.key
        b.next()
        play(b)
        report = progress.report("7b")
        rows = {(r.student, r.lesson): r for r in report.rows}
        assert rows["Ann", "05"].solved == rows["Ann", "05"].tried == len(a.session.attempts)
        assert rows["Ann", "05"].points == a.session.score and rows["Ann", "05"].done
        assert (rows["Bob", "05"].tried, rows["Bob", "05"].solved, rows["Bob", "05"].asked) == (2, 1, 1)
        assert not rows["Bob", "05"].done
        assert report.failed[0].rule == rule and report.failed[0].failed == 1 and report.failed[0].students == 1
        lines = list(csv.reader(io.StringIO(report.csv())))
        assert lines[0][:3] == ["student", "lesson", "tasks"]
        assert [line[0] for line in lines[1:]] == ["Ann", "Bob", "Chloé"] and lines[3][1] == ""
        assert lines[2][2:5] == ["2", "1", str(b.session.score)]

    def test_the_class_is_listed_as_a_class_list_orders_it(self, progress):
        # accents and case aside: the databases' own order (code points) put Élodie after Zoë (the French teacher's
        # review), on the teacher's page, in its list of students and in the CSV
        for name in ("Zoë", "Élodie", "chloé", "François", "Ann"):
            PracticeController("05", 2, StoreKeeper(progress, progress.student("7b", name))).reveal()
        report = progress.report("7b")
        assert report.students == ("Ann", "chloé", "Élodie", "François", "Zoë")
        assert [row.student for row in report.rows] == list(report.students)

    def test_the_csv_refuses_a_separator_that_would_break_it(self, progress):
        from aluette.errors import AluetteError
        progress.student("7b", "Ann")
        report = progress.report("7b")
        for bad in ("", ";;", None, 5, "\n", '"', "a"):
            with pytest.raises(AluetteError, match="separator"):
                report.csv(delimiter=bad)
        with pytest.raises(AluetteError, match="11 columns"):
            report.csv(headings=("one",))
        assert report.csv(delimiter=";").startswith("student;lesson;")

    def test_a_cell_a_spreadsheet_would_run_is_written_as_text(self):
        from aluette.store.progress import _cell, name_order
        assert [_cell(t) for t in ("=1", "+1", "-1", "@x", "\tx", "\rx", "Ann")] == [
            "'=1", "'+1", "'-1", "'@x", "'\tx", "'\rx", "Ann"]
        # letters Unicode does not decompose sort with their base letter
        assert sorted(["Zoë", "Łukasz", "Øyvind", "Mia", "Oscar"], key=name_order) == [
            "Łukasz", "Mia", "Oscar", "Øyvind", "Zoë"]

    def test_a_rule_answered_wrong_then_right_is_still_listed_as_missed_at_first(self, progress):
        # issue 23 (a class day): a wrong answer put right on a later try left its rule out of "the rules the class
        # gets wrong most", which counted only the tasks that ended unsolved
        ann, bob = progress.student("7b", "Ann"), progress.student("7b", "Bob")
        a = PracticeController("05", 2, StoreKeeper(progress, ann))
        b = PracticeController("05", 2, StoreKeeper(progress, bob))  # the same seed: the same first task
        rule = a.task.rule.key
        play(a, wrong_first=True)
        play(b)  # right at once
        first, other = a.session.attempts[0], b.session.attempts[0]
        assert (first.right, first.wrong, other.right, other.wrong) == (True, 1, True, 0)  # the positive control
        report = progress.report("7b")
        assert [(f.rule, f.missed, f.failed, f.tried, f.students) for f in report.failed] == [(rule, 1, 0, 2, 1)]
        c = PracticeController("05", 2, StoreKeeper(progress, progress.student("7b", "Cy")))
        c.reveal()  # a task that ends unsolved (the answer asked for) counts as missed and failed
        c.next()
        assert [(f.missed, f.failed, f.tried, f.students) for f in progress.report("7b").failed] == [(2, 1, 3, 2)]

    def test_the_tables_store_still_opens_beside_the_progress(self, backend, progress):
        progress.student("c", "Ann")
        service = backend.service()  # the shared tables' schema checks ignore the practice's own tables
        try:
            service.create_table("Room one", seed=4)
            assert service.table_names() == ["Room one"]
        finally:
            service.close()
        assert progress.report("c").students == ("Ann",)
