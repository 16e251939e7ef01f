"""Two students do lesson 01's practice on two devices while the teacher's page of the class (notebook 12, on Voilà
as ``make teacher`` serves it) is open (issue 20, "Measured, not asserted"): each gives a first name once on their
device; Ann answers every task right; Bob gets the first task wrong twice, reads the explanation naming the rule and
the lesson, and gets a varied task of the same kind again two tasks later (the spaced repetition), which he answers
right. The teacher's page shows both rows with the counts each student's own page shows, without being pressed; a
reload of Bob's page and of the teacher's keeps the progress.

The right answers are worked out here from what each page shows, with the engine (the rules sheet, "gameplay": the
highest class wins, two cards of the best class spoil the trick; "card rankings": the order of the classes)."""

from __future__ import annotations

import re
import secrets

import pytest

from aluette.cards import Card
from aluette.records import Hand
from aluette.tricks import trick_winner
from aluette.widgets.common import card_words
from tests.browser.harness import expect

pytestmark = pytest.mark.browser

LESSON = "01_ranking.ipynb"
TEACHER = "12_class_progress.ipynb"
CODES = re.compile(r"\((\d{1,2}[OCBE])\)")


def press(locator) -> None:
    locator.scroll_into_view_if_needed()
    locator.click()


class Student:
    """One device's practice of lesson 01, answered from what its page shows."""

    def __init__(self, page, open_app, name: str):
        self.page, self.name = page, name
        open_app(page, LESSON)
        self.root = page.locator(".aluette-practice")
        self.root.scroll_into_view_if_needed()
        self.root.locator(".aluette-practice-name input").fill(name)
        press(self.root.locator(".aluette-practice-keep"))
        expect(self.root.locator(".aluette-practice-who")).to_contain_text(f"kept for {name}")
        self.shown = ""

    @property
    def feedback(self):
        return self.root.locator(".aluette-practice-feedback")

    @property
    def status(self):
        return self.root.locator(".aluette-practice-status")

    def prompt(self) -> str:
        """The prompt of a new task (waits until it is not the last one read)."""
        prompt = self.root.locator(".aluette-practice-prompt")
        expect(prompt).not_to_have_text(self.shown)
        self.shown = prompt.inner_text()
        return self.shown

    def card(self, card: Card, action: str):
        return self.root.locator(".aluette-practice-card-button", has_text=f"{card_words(card)}: {action}")

    def winner(self, prompt: str) -> Card | None:
        assert "Which card wins the trick?" in prompt
        cards = [Card.parse(code) for code in CODES.findall(prompt)]
        assert len(cards) == 4
        index = trick_winner(cards)
        return None if index is None else cards[index]

    def answer_winner(self, card: Card | None) -> None:
        if card is None:
            press(self.root.locator(".aluette-practice-word", has_text="Spoiled"))
        else:
            press(self.card(card, "answer with it"))

    def answer_right(self) -> None:
        """Answer the task on show right, see it judged right, move on."""
        prompt = self.prompt()
        if "Put these" in prompt:
            for card in Hand(Card.parse(code) for code in CODES.findall(prompt)):  # the engine's order, high first
                press(self.card(card, "add it to your order"))
            press(self.root.locator(".aluette-practice-check"))
        else:
            self.answer_winner(self.winner(prompt))
        expect(self.feedback).to_contain_text("✔ Right")
        self.next()

    def next(self) -> None:
        press(self.root.locator(".aluette-practice-next"))
        expect(self.feedback).to_have_text("")

    def points(self) -> tuple[int, int]:
        """``(earned, possible)`` as the status or the summary says."""
        found = re.search(r"(\d+) of (\d+) points", self.status.inner_text())
        return int(found[1]), int(found[2])


def row(teacher, name: str):
    return teacher.locator(".aluette-class-table-view tr", has_text=name)


def test_two_devices_a_wrong_task_comes_back_and_the_teachers_page_counts_both(page, pages, open_app):
    teacher = page
    open_app(teacher, TEACHER)
    suffix = secrets.token_hex(3)  # the test session's database may hold other tests' students
    ann_page, bob_page = pages(2)
    ann = Student(ann_page, open_app, f"Ann{suffix}")
    bob = Student(bob_page, open_app, f"Bob{suffix}")
    class_code = re.search(r"\(class (.+)\)", ann.root.locator(".aluette-practice-who").inner_text())[1]
    expect(bob.root.locator(".aluette-practice-who")).to_contain_text(f"(class {class_code})")

    for _ in range(4):
        ann.answer_right()
    expect(ann.status).to_contain_text("done: 4 of 4 tasks solved")
    ann_points = ann.points()
    assert ann_points[0] == ann_points[1] > 0

    first = bob.prompt()
    wrong_card = next(card for card in map(Card.parse, CODES.findall(first)) if card is not bob.winner(first))
    bob.answer_winner(wrong_card)
    expect(bob.feedback).to_contain_text("Not quite: try again")
    bob.answer_winner(wrong_card)
    expect(bob.feedback).to_contain_text("Not this time")
    expect(bob.feedback).to_contain_text("lesson 01, section")  # the rule, and where the lesson teaches it
    expect(bob.feedback).to_contain_text("comes back later")
    bob.next()
    expect(bob.status).to_contain_text("Task 2 of 5")  # one task more: the failed one's return
    bob.answer_right()  # 2: put these cards in order
    bob.answer_right()  # 3: a trick
    expect(bob.status).to_contain_text("Task 4 of 5")
    again = bob.prompt()
    bob.shown = ""  # read again by answer_right
    assert "Which card wins the trick?" in again and CODES.findall(again) != CODES.findall(first)  # varied
    bob.answer_right()
    expect(bob.status).to_contain_text("Task 5 of 5")
    bob_points = bob.points()

    # the teacher's page, never pressed, reads the class again by itself
    expect(teacher.locator(".aluette-class-table-view caption")).to_contain_text(f"Class {class_code}")
    expect(row(teacher, ann.name)).to_contain_text(f"4/4 solved, {ann_points[0]}/{ann_points[1]} pts ✔")
    expect(row(teacher, bob.name)).to_contain_text(f"3/4 solved, {bob_points[0]}/{bob_points[1]} pts")
    assert "✔" not in row(teacher, bob.name).inner_text()
    expect(teacher.locator(".aluette-class-failed")).to_contain_text("lesson 01")

    open_app(bob_page, LESSON)  # a reload: the name is not asked again on this device
    bob.root = bob_page.locator(".aluette-practice")
    expect(bob.root.locator(".aluette-practice-who")).to_contain_text(f"kept for {bob.name}")
    expect(bob.status).to_contain_text("Task 5 of 5")
    assert bob.points() == bob_points
    open_app(teacher, TEACHER)
    expect(row(teacher, bob.name)).to_contain_text(f"3/4 solved, {bob_points[0]}/{bob_points[1]} pts")
    expect(row(teacher, ann.name)).to_contain_text(f"4/4 solved, {ann_points[0]}/{ann_points[1]} pts ✔")
