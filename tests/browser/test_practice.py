"""Lesson 01's practice in the students' app (issue 20, §1-2), in a real browser, two page renders: a student gives a
first name, answers the first task (which card wins this trick) with a wrong card picture, reads the feedback
naming the rule and the lesson, takes a hint (its cost on the button), answers with the right card; after a reload
of the page the name and the progress are still there, the practice going on at the second task.

The right card is worked out here from the trick the page shows, with the engine (the rules sheet, "gameplay": the
highest class wins; two cards of the best class spoil the trick)."""

from __future__ import annotations

import re
import secrets

import pytest

from aluette.cards import Card
from aluette.tricks import trick_winner
from aluette.widgets.common import card_words
from tests.browser.harness import expect

pytestmark = pytest.mark.browser

LESSON = "01_ranking.ipynb"


def card_button(root, card: Card):
    return root.locator(".aluette-practice-card-button", has_text=f"{card_words(card)}: answer with it")


def test_a_wrong_card_a_hint_the_right_card_then_a_reload_keeps_it(page, open_app):
    open_app(page, LESSON)
    root = page.locator(".aluette-practice")
    root.scroll_into_view_if_needed()
    name = f"Ann{secrets.token_hex(3)}"  # the test session's database may hold other pages' students
    root.locator(".aluette-practice-name input").fill(name)
    root.locator(".aluette-practice-keep").click()
    expect(root.locator(".aluette-practice-who")).to_contain_text(f"kept for {name}")
    prompt = root.locator(".aluette-practice-prompt").inner_text()
    assert "Which card wins the trick?" in prompt
    cards = [Card.parse(code) for code in re.findall(r"\((\d{1,2}[OCBE])\)", prompt)]
    assert len(cards) == 4
    index = trick_winner(cards)
    right = None if index is None else cards[index]

    wrong = cards[0] if right is None else next(card for card in cards if card is not right)
    button = card_button(root, wrong)
    button.focus()
    page.keyboard.press("Enter")  # keyboard: a card picture is a button
    feedback = root.locator(".aluette-practice-feedback")
    expect(feedback).to_contain_text("Not quite")
    expect(feedback).to_contain_text("lesson 01, section")

    hint = root.locator(".aluette-practice-hint")
    expect(hint).to_have_text(re.compile(r"Hint \(costs 1 point\)"))
    hint.click()
    expect(root.locator(".aluette-practice-hints")).to_contain_text("Hint 1: Suits matter for nothing")

    # by the keyboard again: a click at the button's place once landed on the "Spoiled" button (CI, 2 Dec 2026),
    # while focus names the button itself
    answer = (root.locator(".aluette-practice-word", has_text="Spoiled") if right is None
              else card_button(root, right))
    answer.focus()
    expect(answer).to_be_focused()
    page.keyboard.press("Enter")
    expect(feedback).to_contain_text("✔ Right")
    expect(feedback).to_contain_text("(1 point)")  # 3 points, less a hint and a wrong try
    expect(root.locator(".aluette-practice-status")).to_contain_text("1 of 3 points so far")

    open_app(page, LESSON)  # a reload: the same browser session
    root = page.locator(".aluette-practice")
    expect(root.locator(".aluette-practice-who")).to_contain_text(f"kept for {name}")
    status = root.locator(".aluette-practice-status")
    expect(status).to_contain_text("Task 2 of 4")
    expect(status).to_contain_text("1 of 3 points so far")
    expect(root.locator(".aluette-practice-prompt")).to_contain_text("Put these")
