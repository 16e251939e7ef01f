"""Widget tests for the "Signals" notebook (aluette.widgets.signals), driven without a browser.

Rule source for the table: the rules sheet's signal table (GameRules.com), checked against pagat.com, as data in
aluette.SIGNALS; the quiz mechanics (seeded order, four choices, score) are decisions of this project.
"""

import pytest

from aluette import SIGNALS
from aluette.widgets.signals import SignalQuiz, flash_cards


def wrong_choice(quiz):
    return next(c for c in quiz.choices.options if c != quiz.current.answer)


class TestFlashCards:
    def test_every_signal_once_with_its_own_answer(self):
        # the rules sheet's signal table: eleven signals; the answer is the table's own line
        for direction, ask, give in (("gesture", "gesture", "what"), ("what", "what", "gesture")):
            cards = flash_cards(5, direction)
            assert sorted(c.signal.key for c in cards) == sorted(s.key for s in SIGNALS)
            for card in cards:
                assert card.prompt == getattr(card.signal, ask) and card.answer == getattr(card.signal, give)
                assert card.answer in card.choices and len(set(card.choices)) == 4

    def test_seeded(self):
        # decision (quality bar): all chance through an explicit seed
        assert flash_cards(3) == flash_cards(3)
        assert [c.signal.key for c in flash_cards(3)] != [c.signal.key for c in flash_cards(4)]

    def test_bad_direction(self):
        # decision: only the two documented directions
        with pytest.raises(ValueError, match="unknown quiz direction 'sideways'"):
            flash_cards(1, "sideways")


class TestSignalQuiz:
    def test_right_answer_scores(self):
        # the rules sheet's signal table: the answer shown as right is the table's line
        quiz = SignalQuiz(seed=2)
        card = quiz.current
        quiz.choices.value = card.answer
        quiz.check_button.click()
        assert "Right!" in quiz.feedback.value and card.signal.gesture in quiz.feedback.value
        assert quiz.right == 1 and quiz.asked == 1 and "1 right out of 1" in quiz.score.value

    def test_wrong_answer_gives_the_right_one_kindly(self):
        # the rules sheet's signal table: the feedback names the real meaning of the gesture
        quiz = SignalQuiz(seed=2, direction="what")
        card = quiz.current
        quiz.choices.value = wrong_choice(quiz)
        quiz.check_button.click()
        assert "Not quite" in quiz.feedback.value and "Keep going" in quiz.feedback.value
        assert card.signal.what.replace("'", "&#x27;") in quiz.feedback.value
        assert quiz.right == 0 and "0 right out of 1" in quiz.score.value

    def test_check_without_an_answer_asks_for_one(self):
        # decision (quality bar): a friendly message, nothing counted
        quiz = SignalQuiz(seed=2)
        quiz.check_button.click()
        assert "Pick an answer first" in quiz.message.last_error and quiz.asked == 0

    def test_a_card_cannot_be_scored_twice(self):
        # decision: one answer per card
        quiz = SignalQuiz(seed=2)
        quiz.choices.value = quiz.current.answer
        quiz.check_button.click()
        quiz.check_button.click()
        assert quiz.right == 1 and quiz.asked == 1 and "already checked" in quiz.message.last_error

    def test_the_answer_is_in_no_widget_before_checking(self):
        # decision: the quiz does not leak its answer into widget state sent to the browser (feedback is empty)
        quiz = SignalQuiz(seed=2)
        assert quiz.feedback.value == "" and quiz.choices.value is None

    def test_next_walks_through_all_eleven_then_stops(self):
        # the rules sheet's signal table: eleven lines
        quiz = SignalQuiz(seed=2)
        prompts = []
        for _ in range(11):
            prompts.append(quiz.current.prompt)
            quiz.choices.value = quiz.current.answer
            quiz.check_button.click()
            quiz.next_button.click()
        assert sorted(prompts) == sorted(s.gesture for s in SIGNALS)
        assert quiz.current is None and "every card" in quiz.question.value
        assert quiz.next_button.disabled and "11 right out of 11" in quiz.score.value

    def test_changing_direction_or_seed_starts_again(self):
        # decision: a new seed or direction is a new quiz, same seed same quiz
        quiz = SignalQuiz(seed=2)
        quiz.choices.value = quiz.current.answer
        quiz.check_button.click()
        quiz.direction.value = "what"
        assert quiz.asked == 0 and quiz.cards == flash_cards(2, "what")
        assert quiz.current.prompt in [s.what for s in SIGNALS]
        quiz.seed.value = "9"
        assert quiz.cards == flash_cards(9, "what") and quiz.position == 0
