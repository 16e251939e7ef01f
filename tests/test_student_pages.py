"""What a student reads on the pages (issue 23, point 8), checked without a browser: the landing page's list without
numbers that jump, 00's map of every lesson, 09's last line, no decision id in a text shown to a reader, printed text
that wraps between words. The browser checks the same on rendered pages (tests/browser/test_edge_cases.py)."""

import json
import re
from pathlib import Path

from aluette.classroom import TEACHER_NOTEBOOKS
from aluette.classroom.landing import entries
from aluette.decisions import BADGE, DECISIONS
from aluette.widgets.common import WRAP_CSS, card_style

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
IDS = re.compile(r"\[(%s)\]" % "|".join(re.escape(d.name) for d in DECISIONS))


def cells(name):
    return json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]


def test_the_landing_page_shows_no_numbers_that_jump():
    # the students' list leaves out the teacher's 07 (and 11): numbered titles would go 6, then 8
    listed = entries(NOTEBOOKS)
    assert [e.file for e in listed] == sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")
                                              if p.name not in TEACHER_NOTEBOOKS)
    assert not [e.title for e in listed if re.match(r"\d", e.title)]
    assert any(e.title.startswith("Play a match") for e in listed)


def test_the_map_of_00_names_every_students_lesson_and_the_teachers_pages():
    text = "".join("".join(c["source"]) for c in cells("00_start_here.ipynb") if c["cell_type"] == "markdown")
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if path.name != "00_start_here.ipynb":
            assert f"]({path.name})" in text, path.name


def test_09_ends_with_the_next_lesson():
    last = "".join(cells("09_edge_cases.ipynb")[-1]["source"])
    assert "(10_play_together.ipynb)" in last and "whole collection" not in last


def test_no_decision_id_in_what_the_notebooks_print():
    # the outputs nbval checks are what the pages print; a decision shows its badge, never its id
    found = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        for cell in cells(path.name):
            for out in cell.get("outputs", []):
                text = "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
                found += [(path.name, m.group(0)) for m in IDS.finditer(text)]
    assert found == []
    printed = "".join("".join(o.get("text", "")) for c in cells("09_edge_cases.ipynb") for o in c.get("outputs", []))
    assert BADGE in printed  # the badge itself is still shown


def test_printed_text_wraps_between_words_in_jupyterlab_and_the_app():
    # JupyterLab's and Solara's `.jp-OutputArea-output pre { word-break: break-all }` cut words at the box's edge
    assert "word-break: normal" in WRAP_CSS and "overflow-wrap: break-word" in WRAP_CSS
    assert WRAP_CSS in card_style().value
    from aluette.classroom.solara_app import CSS
    assert WRAP_CSS in CSS
