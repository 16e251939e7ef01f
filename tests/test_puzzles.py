"""Puzzles (aluette.analysis.puzzles, issue 18 §4): every shipped puzzle is proved again by the solver, and the
generator that wrote them makes the same ones again.

Rule sources (the reasons a puzzle names): the rules sheet, "gameplay" (a tie for the best class spoils the trick;
the fourth player sees the whole trick: the advantage of playing last) and "scoring" (most tricks by a single
player, a tie to whoever reached the number first; mordienne), pagat.com (the same).
"""

from __future__ import annotations

import dataclasses

import pytest

from aluette import Team, solve
from aluette.analysis.puzzle_maker import PER_REASON, find_puzzles, select
from aluette.analysis.puzzles import REASONS, SHIPPED, position, verify


class TestShipped:
    def test_every_puzzle_holds(self):
        # the solver proves each again: the answer is the one class keeping the best result, every other card is
        # worse by the value stated, the reason is the rules'
        for puzzle in SHIPPED:
            verify(puzzle)
            deal = position(puzzle)
            solution = solve(deal)
            sign = 1 if deal.to_move.team is Team.NS else -1
            assert {str(c) for c in solution.best_cards} == set(puzzle.answer)
            assert all(sign * value < sign * puzzle.value for _, value in puzzle.others)
            assert puzzle.reason in REASONS
        assert len(SHIPPED) >= 20 and {p.reason for p in SHIPPED} == set(REASONS)  # every idea of the lesson

    def test_generator_makes_them_again(self):
        # the data is the generator's output: the first deals give the same puzzles (each deal is played alone)
        seeds = sorted({p.seed for p in SHIPPED})[:3]
        again = find_puzzles(seeds, per_deal=len(REASONS))
        assert [p for p in SHIPPED if p.seed in seeds] == [p for p in again if p in SHIPPED]
        assert all(p in again for p in SHIPPED if p.seed in seeds)

    def test_select_keeps_the_first_of_each_reason(self):
        kept = select(SHIPPED + SHIPPED, per_reason=2)
        for reason in REASONS:
            assert [p for p in kept if p.reason == reason] == [p for p in SHIPPED if p.reason == reason][:2]
        assert all(sum(p.reason == r for p in SHIPPED) <= PER_REASON for r in REASONS)

    def test_a_wrong_puzzle_is_refused(self):
        puzzle = SHIPPED[0]
        wrong = dataclasses.replace(puzzle, answer=(puzzle.others[0][0],))
        with pytest.raises(AssertionError, match="no longer holds"):
            verify(wrong)
        with pytest.raises(AssertionError, match="to move"):
            verify(dataclasses.replace(puzzle, to_move="NESW"["NESW".index(puzzle.to_move) - 1]))


# --------------------------------------------------------------- the lesson's puzzles, as the page drives them
from aluette.errors import AluetteError, AnswerError, InputTooLongError, UnknownCardError  # noqa: E402
from aluette.practice import LESSONS, RULES, PracticeController  # noqa: E402
from aluette.practice.kinds import PUZZLE_KINDS, PUZZLE_RULES, PuzzlePosition  # noqa: E402


def best_and_worse(task):
    """A right card and a worse one, found here by the solver with every hand open (not by the task's judge)."""
    deal = task.position.deal()
    solution = solve(deal)
    worse = next(c for c in deal.legal_cards() if solution.by_card[c] != solution.value)
    return solution.best_cards[0], worse


class TestTheLesson:
    def test_the_lesson_has_a_puzzle_of_each_reason(self):
        tasks = PracticeController("13", seed=4).session.tasks
        assert [PUZZLE_KINDS[t.kind] for t in tasks] == ["spoiling", "first to reach", "playing last", "mordienne"]
        assert list(LESSONS["13"]) == list(PUZZLE_KINDS)
        for task in tasks:
            assert isinstance(task.position, PuzzlePosition) and task.position.puzzle in SHIPPED
            assert task.rule is RULES[PUZZLE_RULES[task.position.reason]]

    def test_the_right_card_a_verdict_with_its_rule(self):
        controller = PracticeController("13", seed=11)
        task = controller.task
        right, _ = best_and_worse(task)
        assert {c.text for c in controller.choices()} == {str(c) for c in task.position.deal().legal_cards()}
        verdict = controller.answer(right.code)
        assert verdict.right and verdict.over and verdict.points == task.points
        assert f"lesson {task.rule.lesson}" in verdict.explanation  # the rule named, and where it is taught
        assert controller.waiting and controller.next() is controller.task

    def test_a_wrong_card_gives_the_rule_and_where_it_is_taught(self):
        for seed in range(6):
            controller = PracticeController("13", seed=seed)
            task = controller.task
            _, worse = best_and_worse(task)
            verdict = controller.answer(worse.code)
            assert not verdict.right and verdict.points == 0
            assert verdict.rule is task.rule and task.rule.where in verdict.explanation
            assert worse.code in verdict.explanation
            # the answer is told only once the puzzle is over (a second try when more than two cards are left)
            assert (verdict.answer is None) is (not verdict.over)
            if verdict.over:
                assert all(code in verdict.answer for code in task.position.puzzle.answer)

    def test_hints_go_from_the_idea_to_the_card_and_cost_points(self):
        controller = PracticeController("13", seed=2)
        task = controller.task
        right, _ = best_and_worse(task)
        reason = task.position.reason
        costs = []
        while controller.next_hint_cost is not None:
            costs.append(controller.next_hint_cost)
            controller.hint()
        first, *_, last = controller.hints
        assert first.text.startswith("The idea: " + reason) and f"lesson {task.rule.lesson}" in first.text
        assert all(code in last.text for code in task.position.puzzle.answer)  # the last rung names the card
        with pytest.raises(AluetteError, match="no more hints"):
            controller.hint()
        verdict = controller.answer(right.code)
        assert verdict.right and verdict.points == max(0, task.points - sum(costs)) < task.points

    def test_bad_input_a_clear_error_and_nothing_changed(self):
        controller = PracticeController("13", seed=3)
        task = controller.task
        hand = {c.code for c in task.position.deal().legal_cards()}
        held_elsewhere = next(c for seat, cards in task.position.deal().hands.items() for c in cards
                              if str(c) not in hand)
        for text, error, words in ((held_elsewhere.code, AnswerError, "does not hold"),
                                   ("zz" * 40, UnknownCardError, "zzzz"), ("3O " * 100, InputTooLongError, "200"),
                                   ("  ", AnswerError, "empty")):
            with pytest.raises(error, match=words) as raised:
                controller.answer(text)
            assert "zz" * 30 not in str(raised.value)
            assert controller.task is task and controller.verdict is None and not controller.session.attempts
