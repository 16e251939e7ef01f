"""Tests for the "Teacher's guide" notebook: the printable HTML export and the exercise widget.

Rule sources are named per test: the rules sheet = docs/sources; pagat = pagat.com; decision = a decision of
this project.
"""

import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

from aluette import RANKING, explain_trick, score_tricks
from aluette.widgets.exercises import Exercise, ExerciseSheet

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "07_teachers_guide.ipynb"


def jupyter() -> str:
    local = Path(sys.executable).with_name("jupyter")
    return str(local) if local.exists() else "jupyter"


def test_nbconvert_export_holds_the_ranking_and_the_scoring_rule(tmp_path):
    # the rules sheet, "card rankings" and "scoring": the printable summary must carry both, in the engine's order
    (tmp_path / "notebooks").mkdir()
    shutil.copy(NOTEBOOK, tmp_path / "notebooks")
    command = [jupyter(), "nbconvert", "--to", "html", "--no-input", "notebooks/07_teachers_guide.ipynb"]
    subprocess.run(command, cwd=tmp_path, check=True, capture_output=True, timeout=120)
    page = (tmp_path / "notebooks" / "07_teachers_guide.html").read_text(encoding="utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    ranking = text[text.index("Ranking (high to low, 19 classes)"):text.index("Partners.")]
    positions = [ranking.index(name) for name, _, _ in RANKING]
    assert positions == sorted(positions)
    assert "the single player who won the most tricks scores 1 point" in text
    assert "whoever reached that number first wins the point" in text
    assert "from aluette import" not in page  # --no-input: no code in the handout


class TestExerciseSheet:
    def exercises(self, calls):
        def answer():
            calls.append(1)
            return explain_trick(["1O", "12E", "1E", "4C"])
        return [Exercise("Who wins 1O 12E 1E 4C?", answer, "the rules sheet, gameplay"),
                Exercise("Score SENWSEXNW.", lambda: score_tricks("SENWSEXNW").reason, "pagat")]

    def test_answers_are_hidden_until_asked(self):
        # decision: the answer is not computed nor put into any widget before "Show answer"
        calls = []
        sheet = ExerciseSheet(self.exercises(calls))
        assert calls == [] and all(a.value == "" for a in sheet.answers)
        assert "Who wins 1O 12E 1E 4C?" in sheet.questions[0].value

    def test_show_answer_reveals_the_engines_answer(self):
        # the rules sheet, "gameplay": two aces tie for best, the trick is spoiled
        calls = []
        sheet = ExerciseSheet(self.exercises(calls))
        sheet.buttons[0].click()
        assert "Spoiled" in sheet.answers[0].value and "the rules sheet, gameplay" in sheet.answers[0].value
        assert sheet.buttons[0].description == "Hide answer" and sheet.answers[1].value == ""

    def test_pagat_example_answer_and_hide_again(self):
        # pagat: SENWSEXNW, S reached two first and scores for N-S
        sheet = ExerciseSheet(self.exercises([]))
        sheet.buttons[1].click()
        assert "S reached 2 first" in sheet.answers[1].value
        sheet.buttons[1].click()
        assert sheet.answers[1].value == "" and sheet.buttons[1].description == "Show answer"
