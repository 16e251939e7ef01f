"""The practice controller (issue 20, §1-2), the plain-Python half of the practice widget: a task stays on show with
its verdict until Next task; the answer buttons answer with the text a student could type; bad input raises the
project's errors and changes nothing; hints cost what they say; a wrong task comes back later, varied; a keeper is
told of every task that ends and finds the practice again (a reload); a keeper that fails loses nothing on the page.

Right and wrong answers are worked out with the engine's functions by :func:`tests.test_practice.answers` (rule
sources there: the rules sheet and pagat.com)."""

from __future__ import annotations

import copy

import pytest

from aluette.errors import AluetteError, InputTooLongError, StoreError, UnknownCardError
from aluette.practice import LESSONS, MAX_ANSWER_TEXT, PracticeController, PracticeSession, student_seed

from .test_practice import answers


class MemoryKeeper:
    """A keeper in a dict, as the store keeps it: the attempts by task id (an answer kept twice is one), the state."""

    def __init__(self):
        self.attempts: dict[str, tuple] = {}
        self.states: dict[str, dict] = {}
        self.fail = False

    def load(self, lesson):
        if self.fail:
            raise StoreError("the database failed: test")
        return copy.deepcopy(self.states.get(lesson))

    def keep(self, lesson, attempt, task, state, done):
        if self.fail:
            raise StoreError("the database failed: test")
        self.attempts.setdefault(attempt.task_id, (lesson, attempt, task.rule.key))
        self.states[lesson] = copy.deepcopy(state)

    def save(self, lesson, state, done):
        if self.fail:
            raise StoreError("the database failed: test")
        self.states[lesson] = copy.deepcopy(state)


def snapshot(c: PracticeController):
    return (c.session.to_dict(), c.task, c.verdict, c.hints, c.waiting)


class TestOneTask:
    def test_a_task_stays_on_show_with_its_verdict_until_next(self):
        c = PracticeController("01", 3)
        task = c.task
        right, _ = answers(task)
        verdict = c.answer(right)
        assert verdict.right and c.waiting and c.task is task and c.verdict is verdict
        with pytest.raises(AluetteError, match="Next task"):
            c.answer(right)
        with pytest.raises(AluetteError, match="Next task"):
            c.hint()
        assert c.next() is c.session.current is not task
        assert c.verdict is None and not c.waiting

    def test_a_wrong_answer_names_the_rule_and_the_lesson_and_leaves_a_try(self):
        for seed in range(30):
            c = PracticeController("05", seed)
            right, wrong = answers(c.task)
            if wrong is None:
                continue
            verdict = c.answer(wrong)
            assert not verdict.right and not verdict.over and not c.waiting
            rule = c.task.rule
            assert verdict.rule is not None and verdict.rule.where in verdict.explanation
            assert "lesson 05" in verdict.explanation and verdict.answer is None
            assert rule.notebook.startswith("05")
            final = c.answer(right)
            assert final.right and final.points == c.task.points - 1  # RETRY_COST
            return
        pytest.fail("no task with a wrong answer in 30 seeds")

    def test_bad_input_raises_the_projects_error_and_changes_nothing(self):
        c = PracticeController("01", 11)
        before = snapshot(c)
        for bad, error in (("x" * (MAX_ANSWER_TEXT + 1), InputTooLongError), ("not a card", UnknownCardError),
                           ("", AluetteError), (None, AluetteError)):
            with pytest.raises(error):
                c.answer(bad)
            assert snapshot(c) == before

    def test_hints_come_in_order_and_cost_what_they_say(self):
        c = PracticeController("01", 5)
        task = c.task
        costs = []
        while c.next_hint_cost is not None:
            costs.append(c.next_hint_cost)
            assert c.hint() is task.hints[len(costs) - 1]
        assert tuple(costs) == tuple(h.cost for h in task.hints) and c.hints == task.hints
        with pytest.raises(AluetteError, match="no more hints"):
            c.hint()
        verdict = c.answer(answers(task)[0])
        assert verdict.points == max(0, task.points - sum(costs))

    def test_the_answer_only_when_asked_then_the_task_comes_back_varied(self):
        c = PracticeController("06", 8)
        first = c.task
        assert c.verdict is None
        verdict = c.reveal()
        assert verdict.answer == first.solution() and verdict.points == 0 and c.waiting
        c.next()
        later = c.session.tasks[c.session.position + c.session.gap:]
        assert later and later[0].kind == first.kind and later[0].id != first.id

    def test_choices_answer_with_what_a_student_could_type(self):
        for lesson in LESSONS:
            for seed in range(15):
                c = PracticeController(lesson, seed)
                task = c.task
                right, _ = answers(task)
                texts = [choice.text for choice in c.choices()]
                if task.kind in ("score", "chant"):
                    assert texts == []
                elif task.kind == "order":
                    assert sorted(texts) == sorted(card.code for card in task.position.cards) and c.sequence
                else:
                    matching = [t for t in texts if task.check(t).right]
                    assert matching and task.check(right).right, (lesson, seed, texts)

    def test_pictures_show_the_tricks_cards_with_who_played_them(self):
        c = PracticeController("04", 2)
        while c.task.kind != "play":
            c.reveal()
            c.next()
        plays = c.task.position.plays
        assert [card for _, card in c.pictures()] == [card for _, card in plays]
        assert c.pictures()[0][0] == f"{plays[0][0].full_name} leads"
        assert PracticeController("01", 2).pictures() == ()  # a trick's winner: its cards are the answer buttons


class TestWholePractice:
    def test_a_practice_ends_with_its_summary_and_starts_again(self):
        c = PracticeController("02", 4)
        while not c.done:
            c.answer(answers(c.task)[0])
            c.next()
        n = len(LESSONS["02"])
        assert c.summary().startswith(f"Practice of lesson 02 done: {n} of {n} tasks solved")
        with pytest.raises(AluetteError, match="Practice again"):
            c.answer("N")
        first = c.session.tasks[0]
        assert c.again() is c.task and c.task.id != first.id and not c.done

    def test_neighbours_get_different_tasks_and_a_name_the_same_everywhere(self):
        seeds = {student_seed("01", f"class\n{name}") for name in ("ann", "bob", "chloe", "denis")}
        assert len(seeds) == 4 and student_seed("01", "class\nann") == student_seed("01", "class\nann")
        assert student_seed("01", "x") != student_seed("02", "x")
        tasks = {PracticeController("01", seed).task.id for seed in seeds}
        assert len(tasks) == 4


class TestKeeping:
    def test_every_task_that_ends_is_kept_and_a_reload_goes_on(self):
        keeper = MemoryKeeper()
        c = PracticeController("01", 21, keeper)
        first = c.task
        right, _ = answers(first)
        c.answer(next(choice.text for choice in c.choices() if not first.check(choice.text).right))
        assert not keeper.attempts and keeper.states["01"]["wrong"] == 1  # a wrong try is kept with the state
        c.answer(right)
        c.next()
        c.hint()
        assert list(keeper.attempts) == [first.id]
        again = PracticeController("01", 999, keeper)  # another page, another seed: the kept practice goes on
        assert again.restored and again.task.id == c.task.id and again.hints == c.hints
        assert again.session.to_dict() == c.session.to_dict()

    def test_attaching_a_keeper_later_keeps_the_tasks_already_over(self):
        c = PracticeController("06", 2)
        c.reveal()
        c.next()
        keeper = MemoryKeeper()
        assert c.attach(keeper) is False
        assert list(keeper.attempts) == [c.session.attempts[0].task_id]
        assert PracticeSession.from_dict(keeper.states["06"]).to_dict() == c.session.to_dict()

    def test_a_failing_keeper_loses_nothing_on_the_page(self):
        keeper = MemoryKeeper()
        c = PracticeController("01", 7, keeper)
        keeper.fail = True
        verdict = c.answer(answers(c.task)[0])
        assert verdict.right and c.waiting and "not kept" in c.unsaved
        assert c.session.attempts[-1].right

    def test_a_damaged_kept_practice_is_said_and_a_new_one_starts(self):
        keeper = MemoryKeeper()
        keeper.states["01"] = {"format": "aluette-practice", "version": 1}
        c = PracticeController("01", 7, keeper)
        assert not c.restored and "could not be read" in c.unsaved and c.task is not None
