"""The practice widget (issue 20, §1-2) wires controls to :class:`aluette.practice.PracticeController` and nothing
else: the card pictures answer, a wrong answer's feedback names the rule and the lesson, the hint button says its
cost, the answer appears only when asked or when the task is over, bad input is an error message that changes
nothing, a name keeps the practice in the store and a new page (a reload) finds it. A callback that raises fails
the test (tests/widgets/conftest.py). Answers are worked out with the engine by :func:`tests.test_practice.answers`."""

from __future__ import annotations

from html import escape

import pytest

from aluette.practice import KINDS, MAX_ANSWER_TEXT
from aluette.store.db import SQLiteStore
from aluette.store.progress import Progress
from aluette.widgets import practice as practice_module
from aluette.widgets.common import state_text
from aluette.widgets.practice import PracticeView

from ..test_practice import answers


@pytest.fixture
def progress(tmp_path, monkeypatch):
    monkeypatch.setattr(practice_module, "_KERNEL", {})  # a fresh "device"
    p = Progress(SQLiteStore(tmp_path / "tables.sqlite3"))
    yield p
    p.close()


def view(progress, seed=3) -> PracticeView:
    return PracticeView("01", seed, progress=progress, class_code="7b")


def winner_view(progress) -> PracticeView:
    for seed in range(50):
        v = view(progress, seed)
        if v.controller.task.kind == "winner":
            return v
        v.close()
    raise AssertionError("no winner task first in 50 seeds")


def test_a_wrong_card_then_a_hint_then_the_right_card(progress):
    v = winner_view(progress)
    task = v.controller.task
    right, _ = answers(task)
    shown = [b for b in v.card_buttons if b.card is not None]
    assert [b.card for b in shown] == [card for _, card in task.position.plays]
    assert task.solution() not in state_text(v)  # the answer is in no widget before it is asked for
    wrong = next(b for b in shown if b.card.code != right)
    wrong.button.click()
    rule = v.controller.verdict.rule
    assert "Not quite" in v.feedback.value and escape(rule.where) in v.feedback.value and rule.lesson == "01"
    assert escape(rule.statement) in v.feedback.value
    assert task.solution() not in state_text(v)  # a try is left: what is wrong with the card, not the answer
    assert v.controller.verdict.explanation.startswith(KINDS["winner"].nudge(task.position, wrong.card))
    assert v.hint_button.description == f"Hint (costs {task.hints[0].cost} point)"
    v.hint_button.click()
    assert escape(task.hints[0].text) in v.hints_view.value
    if right == "spoiled":
        next(b for b in v.word_buttons if b.description.startswith("Spoiled")).click()
    else:
        next(b for b in shown if b.card.code == right).button.click()
    assert "✔ Right" in v.feedback.value and not v.next_button.disabled and v.check_button.disabled
    earned = max(0, task.points - task.hints[0].cost - 1)  # a hint and a wrong try
    assert v.controller.verdict.points == earned and f"({earned} point" in v.feedback.value
    v.next_button.click()
    assert v.controller.task is not task and v.feedback.value.endswith("></div>")


def test_bad_input_is_a_message_and_changes_nothing(progress):
    v = view(progress)
    before = v.controller.session.to_dict()
    for text in ("x" * (MAX_ANSWER_TEXT + 1), "not a card at all"):
        v.answer_box.value = text
        v.check_button.click()
        assert "aluette-error" in v.message.value and v.controller.session.to_dict() == before
        assert v.controller.verdict is None


def test_the_answer_only_when_asked(progress):
    v = view(progress)
    task = v.controller.task
    v.reveal_button.click()
    assert "The answer" in v.feedback.value and "comes back later" in v.feedback.value
    assert v.check_button.disabled
    shown = [b for b in v.card_buttons if b.card is not None]  # the task's cards stay on show...
    assert [b.card for b in shown] == [choice.card for choice in v.controller.choices() if choice.card is not None]
    verdict = v.controller.verdict
    shown[0].button.click()  # ...and a click on one says the task is over, changing nothing
    assert "this task is over: press Next task" in v.message.value and v.controller.verdict is verdict
    assert v.answer_box.value == ""


def test_order_cards_build_the_answer_in_the_box(progress):
    v = view(progress)
    v.reveal_button.click()
    v.next_button.click()
    assert v.controller.task.kind == "order"  # lesson 01: a trick's winner, then an order
    right, _ = answers(v.controller.task)
    for code in right.split():
        next(b for b in v.card_buttons if b.card is not None and b.card.code == code).button.click()
    assert v.answer_box.value == right and v.controller.verdict is None
    v.check_button.click()
    assert "✔ Right" in v.feedback.value
    next(b for b in v.card_buttons if b.card is not None).button.click()  # the task is over: not added to a box
    assert "this task is over: press Next task" in v.message.value and v.answer_box.value == ""


def test_a_name_keeps_the_practice_and_a_reload_finds_it(progress):
    v = view(progress)
    assert "without one the practice works and keeps nothing" in v.who.value and v.forget_button.disabled
    v.name_box.value = "Ann"
    v.name_button.click()
    assert "kept for <b>Ann</b>" in v.who.value
    task = v.controller.task
    v.reveal_button.click()
    again = view(progress, seed=99)  # a reload: the name is remembered on this device, the practice found
    assert "kept for <b>Ann</b>" in again.who.value and again.controller.restored
    assert again.controller.session.to_dict() == v.controller.session.to_dict()
    assert [r.asked for r in progress.report("7b").rows] == [1] and task.id in str(again.controller.session.to_dict())
    again.forget_button.click()
    assert progress.report("7b").rows == () and "keeps nothing" in again.who.value


def test_a_bad_name_is_refused(progress):
    v = view(progress)
    v.name_box.value = "<script>"
    v.name_button.click()
    assert "aluette-error" in v.message.value and progress.report("7b").students == ()


def test_the_teachers_class_page(progress):
    import base64
    import re

    from aluette.practice import PracticeController
    from aluette.widgets.class_progress import ClassPage, download_csv
    from aluette.widgets.practice import StoreKeeper

    for name, wrong in (("Ann", False), ("Bob", True)):
        c = PracticeController("01", 1, StoreKeeper(progress, progress.student("7b", name)))
        if wrong:
            c.reveal()
        else:
            c.answer(answers(c.task)[0])
    page = ClassPage(progress, class_code="7b")
    assert page.student_choice.options == ("Ann", "Bob")
    assert "1/1 solved, 3/3 pts" in page.table.value  # a winner task: 3 points, first try, no hint
    assert "0/1 solved" in page.table.value and "1 of 2</b> tasks failed, by 1 student" in page.failed.value
    data = re.search(r"base64,([A-Za-z0-9+/=]+)'", page.download.value).group(1)
    downloaded = base64.b64decode(data).decode("utf-8")
    assert downloaded == download_csv(progress.report("7b")) and "download='class-7b.csv'" in page.download.value
    # for a spreadsheet: a byte-order mark (Excel then reads accents as UTF-8), headings a person reads
    assert downloaded.startswith("\ufeffstudent,lesson,tasks,") and "answers asked,done,last task (UTC)\n" in downloaded
    assert downloaded[1:].splitlines()[1:] == progress.report("7b").csv().splitlines()[1:]  # the rows a program reads
    page.student_choice.value = "Bob"
    assert "0 wrong answers, 1 answer asked for" in page.detail.value  # ngettext: one answer, not "1 answers"
    assert re.search(r"Updated at [\d:]+: 2 students, 2 tasks over\.", page.status.value)
    page.reset_class_button.click()
    assert "Press again" in page.message.value and len(progress.report("7b").students) == 2
    page.reset_class_button.click()
    assert progress.report("7b").students == () and "Class 7b: 2 students forgotten." in page.message.value
    assert "has given a name yet" in page.table.value


def test_the_class_page_reads_again_by_itself(progress):
    import asyncio

    from aluette.practice import PracticeController
    from aluette.widgets.class_progress import ClassPage
    from aluette.widgets.practice import StoreKeeper

    async def scenario():
        page = ClassPage(progress, class_code="7b", interval=0.05)
        assert "has given a name yet" in page.table.value
        c = PracticeController("06", 1, StoreKeeper(progress, progress.student("7b", "Ann")))
        c.reveal()
        loop = asyncio.get_running_loop()
        end = loop.time() + 20  # bounded: a loaded machine may be slow, a broken poll never gets there
        while "0/1 solved" not in page.table.value and loop.time() < end:
            await asyncio.sleep(0.05)
        page.close()
        return page

    page = asyncio.run(scenario())
    assert "0/1 solved" in page.table.value  # seen by the poll, not by a Refresh
    assert page._task.done()  # closing the page stopped its poll


def test_the_class_page_lists_a_rule_put_right_on_a_later_try(progress):
    # issue 23: a wrong answer put right on a second try is still a rule the class got wrong at first
    from aluette.practice import PracticeController
    from aluette.widgets.class_progress import ClassPage
    from aluette.widgets.practice import StoreKeeper

    c = PracticeController("05", 2, StoreKeeper(progress, progress.student("7b", "Ann")))
    right, wrong = answers(c.task)
    c.answer(wrong)
    assert not c.waiting  # a try is left
    c.answer(right)
    page = ClassPage(progress, class_code="7b")
    assert "1/1 solved" in page.table.value
    assert "<b>1 of 1</b> tasks wrong at the first answer (0 never solved), by 1 student" in page.failed.value


def test_a_name_given_shows_its_own_task_before_saying_whose_it_is(progress):
    # a name draws the name's own tasks; the page said "kept for Ann" before its prompt and buttons had changed, so
    # a browser test (and a quick student) read the old task under the new line (tests/browser/test_practice.py)
    v = view(progress)
    old = v.prompt.value
    changes = []
    for name in ("who", "prompt", "status"):
        getattr(v, name).observe(lambda change, name=name: changes.append(name), "value")
    v.name_box.value = "Ann"
    v.name_button.click()
    assert v.prompt.value != old  # the positive control: Ann's own task replaced the one on show
    assert changes[-1] == "who" and "prompt" in changes, changes


def test_the_class_table_downloads_for_a_french_spreadsheet(progress):
    # a French teacher's download: headings and yes/no in French, fields separated by « ; » (French spreadsheets
    # read the comma as the decimal mark), a byte-order mark so that Excel reads « Chloé » as UTF-8, and a French name
    import base64
    import csv
    import io
    import re

    from aluette import i18n
    from aluette.practice import PracticeController
    from aluette.widgets.class_progress import ClassPage
    from aluette.widgets.practice import StoreKeeper

    c = PracticeController("01", 1, StoreKeeper(progress, progress.student("7b", "Chloé")))
    c.answer(answers(c.task)[0])
    with i18n.in_language("fr"):
        page = ClassPage(progress, class_code="7b", poll=False)
        french = {name: i18n._(name) for name in ("student", "lesson", "yes", "no")}
    data = re.search(r"base64,([A-Za-z0-9+/=]+)'", page.download.value).group(1)
    rows = list(csv.reader(io.StringIO(base64.b64decode(data).decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:2] == [french["student"], french["lesson"]] == ["élève", "leçon"]
    assert rows[1][:2] == ["Chloé", "01"] and rows[1][9] in (french["yes"], french["no"])
    assert "download='classe-7b.csv'" in page.download.value
    page.close()


def test_the_class_of_an_app_without_a_token_is_named_in_the_pages_language(progress):
    # a French teacher's page read « Aucun élève de la classe this-computer »: the class of an app started without a
    # token is "this computer" in the page's language; its code stays the store's
    from aluette import i18n
    from aluette.store.progress import LOCAL_CLASS
    from aluette.widgets.class_progress import ClassPage

    with i18n.in_language("fr"):
        page = ClassPage(progress, class_code=LOCAL_CLASS, poll=False)
    assert page.class_choice.value == LOCAL_CLASS
    assert ("cet ordinateur", LOCAL_CLASS) in page.class_choice.options
    assert "cet ordinateur" in page.table.value and LOCAL_CLASS not in page.table.value
    page.close()
