"""What the handout and the play-together lobby say the app does, read against what it does by default (issue 23,
the tryout after the ten points): the handout's box "In this app" (notebook 07's one-page summary) on completed
tricks, and the lobby's note under "No draw: we pick partners" (notebook 10).

Sources: the rules sheet ("gameplay": won tricks are stacked before their winner) and pagat (« l'empile face cachée »)
for the face-down tricks of a real table (issue 19 §3); the draw seats every table in the sources (decision
``partners-chosen-option`` makes choosing partners an option). Each check opens a table with a page left as it
starts and reads the table's settings, then the sentence that says them.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from aluette.classroom.landing import SUMMARY_HEADING
from aluette.decisions import HANDOUT_BOX
from aluette.widgets.match import MatchTable
from aluette.widgets.together import PlayTogether
from aluette.together import SeatController

from .test_together import kernels  # noqa: F401 (the fixture)

GUIDE = Path(__file__).resolve().parents[2] / "notebooks" / "07_teachers_guide.ipynb"


def handout_notes() -> list[str]:
    """The numbered notes of the handout's box, one line each, markdown marks and decision ids left out."""
    cells = json.loads(GUIDE.read_text(encoding="utf-8"))["cells"]
    source = next("".join(c["source"]) for c in cells if "".join(c["source"]).startswith(SUMMARY_HEADING))
    box = source[source.index(f"**{HANDOUT_BOX}**"):]
    return [re.sub(r"<!--.*?-->|\*", "", note).strip() for note in re.findall(r"^\d+\. (.*)$", box, re.MULTILINE)]


def lobby_defaults(kernels):  # noqa: F811
    """A page as it starts opens a table: its settings."""
    page = PlayTogether(SeatController(kernels()), poll=False)
    page.table_box.value = "As it starts"
    page.open_button.click()
    settings = page.controller.service.table_info("As it starts").settings
    return page, settings


def test_the_handout_says_how_each_page_shows_the_completed_tricks(kernels):  # noqa: F811
    page, settings = lobby_defaults(kernels)
    match_face_down = MatchTable(seed=1).face_down
    page.close()
    notes = [n for n in handout_notes() if "tricks" in n.lower() and "completed" in n.lower()]
    assert len(notes) == 1, handout_notes()
    note = notes[0]
    # 08's match (and the lessons' tables) keep them face up; a play-together table stacks them face down
    assert match_face_down is False and "Completed tricks stay face up on screen" in note
    assert settings["face_down"] is True and "play-together table (notebook 10): it stacks them face down" in note
    # ... unless its opener unticks the lobby's box, named as the page names it
    assert page.face_down_box.value is True and f"unticks {page.face_down_box.description}" in note


def test_the_lobby_says_that_a_new_table_is_drawn_unless_ticked(kernels):  # noqa: F811
    page, settings = lobby_defaults(kernels)
    page.close()
    note = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.choose_note.value)).split())
    assert page.choose_box.description == "No draw: we pick partners"
    assert page.choose_box.value is False and settings["draw"] is True  # as it starts: the draw
    assert "unticked, as it starts, a new table of four is seated by the partnership draw" in note
    assert "ticked, partners are the seats you take" in note
