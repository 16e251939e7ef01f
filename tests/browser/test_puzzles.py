"""Lesson 13's puzzles in the students' app (issue 18 §4), in a real browser, on one page: axe-core finds nothing
serious or critical; the first puzzle (spoiling) is failed with the keyboard alone after a hint (the hint names the
idea and its lesson, its cost is on the button; the verdict names the rule and where the lessons teach it); the
second (first to reach) is solved with the right card's picture and earns its points; the English and the French
landing pages list the lesson.

The page's puzzle is recognised from the open hands it shows, and its right card is worked out here by the solver
(``aluette.solve``, best play with every hand open), not by the lesson's judge."""

from __future__ import annotations

import re
import time

import pytest

from aluette import solve
from aluette.analysis.puzzles import SHIPPED, position
from aluette.cards import Card
from aluette.seats import SEATS
from aluette.widgets.common import card_words
from tests.browser.harness import expect
from tests.browser.test_accessibility import axe_violations, describe, record, serious

pytestmark = pytest.mark.browser

LESSON = "13_puzzles.ipynb"
_CODE = re.compile(r"\((\d{1,2}[OCBE])\)")


def shown_puzzle(root, after=None):
    """The shipped puzzle whose hands the page shows, and its deal; with ``after``, once the page shows another
    puzzle than ``after`` (the next task's status may be drawn a moment before its hands)."""
    hands = root.locator(".aluette-puzzle-hand")
    deadline = time.monotonic() + 30
    while True:
        expect(hands).to_have_count(4)
        shown = [sorted(_CODE.findall(hands.nth(i).inner_text())) for i in range(4)]
        found = next(((puzzle, deal) for puzzle in SHIPPED for deal in [position(puzzle)]
                      if [sorted(str(c) for c in deal.hands[seat]) for seat in SEATS] == shown), None)
        if found is not None and found[0] != after:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"no shipped puzzle other than {after} has these hands: {shown}")
        root.page.wait_for_timeout(200)


def card_button(root, card: Card):
    return root.locator(".aluette-practice-card-button", has_text=f"{card_words(card)}: answer with it")


def press(page, locator):
    """Keyboard only: focus the control and press Enter."""
    locator.focus()
    page.keyboard.press("Enter")


def test_a_puzzle_failed_after_a_hint_then_one_solved(page, open_app):
    open_app(page, LESSON)
    root = page.locator(".aluette-puzzles")
    expect(root.locator(".aluette-practice-status")).to_contain_text("Task 1 of 4")
    violations = axe_violations(page)
    record("13_puzzles-puzzle", violations)
    assert serious(violations) == [], describe(serious(violations))

    # the first puzzle, spoiling: a hint, then a worse card, with the keyboard alone
    puzzle, deal = shown_puzzle(root)
    assert puzzle.reason == "spoiling"
    hint = root.locator(".aluette-practice-hint")
    expect(hint).to_have_text(re.compile(r"Hint \(costs 1 point\)"))
    press(page, hint)
    expect(root.locator(".aluette-practice-hints")).to_contain_text("Hint 1: The idea: spoiling")
    expect(root.locator(".aluette-practice-hints")).to_contain_text("(lesson 01)")
    solution = solve(deal)
    worse = next(card for card in deal.legal_cards() if solution.by_card[card] != solution.value)
    press(page, card_button(root, worse))
    feedback = root.locator(".aluette-practice-feedback")
    expect(feedback).to_contain_text("Not ")
    expect(feedback).to_contain_text(f"({worse.code})")
    expect(feedback).to_contain_text('lesson 01, section "Cards of one class are equal')
    if "try again" in feedback.inner_text():  # a second try is left: ask for the answer instead
        press(page, root.locator(".aluette-practice-reveal"))
    expect(feedback).to_contain_text("The answer:")
    expect(feedback).to_contain_text(puzzle.answer[0])
    press(page, root.locator(".aluette-practice-next"))

    # the second, first to reach: the right card's picture, clicked
    status = root.locator(".aluette-practice-status")
    expect(status).to_contain_text("Task 2 of")
    puzzle, deal = shown_puzzle(root, after=puzzle)
    assert puzzle.reason == "first to reach"
    right = solve(deal).best_cards[0]
    button = card_button(root, right)
    button.scroll_into_view_if_needed()
    button.click()
    expect(feedback).to_contain_text("✔ Right")
    expect(feedback).to_contain_text("(4 points)")
    expect(feedback).to_contain_text("first to reach, lesson 05")
    expect(status).to_contain_text("4 of 8 points so far")


def test_the_landing_pages_list_the_puzzles_in_both_languages(page, solara):
    for prefix, title in (("/", "Puzzles: find the best card"), ("/fr/", "Problèmes : trouver la meilleure carte")):
        page.goto(solara.url + prefix)
        link = page.locator("ol.notebooks > li > a", has_text=title)
        expect(link).to_have_count(1)
        assert link.get_attribute("href") == f"{prefix}13_puzzles"
