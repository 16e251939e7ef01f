"""The students' pages as Solara's server builds them (aluette.classroom.lessons), built here without a server:
the kept cells in order, markdown rendered, no code, widgets of each student's own, expensive cells without
widgets run once."""

from __future__ import annotations

import enum
import io
import json
import pickle
import threading
import time
import types

import ipywidgets as w
import pytest

from aluette.classroom import lessons, student_notebooks
from tests.browser.harness import FIXTURES, REPO


def texts(page: w.VBox) -> list[str]:
    """The HTML of each child of a page (widgets other than HTML as their class name)."""
    return [c.value if isinstance(c, w.HTML) else type(c).__name__ for c in page.children]


def notebook(tmp_path, *cells, name="lesson.ipynb"):
    """A notebook file of ``cells``: ("markdown"|"code", source[, tags])."""
    raw = [{"cell_type": kind, "metadata": {"tags": list(rest[0])} if rest else {}, "source": source,
            **({"outputs": [], "execution_count": None} if kind == "code" else {})} for kind, source, *rest in cells]
    path = tmp_path / name
    path.write_text(json.dumps({"cells": raw, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


class TestPage:
    def test_removed_cells_are_left_out_and_the_rest_kept_in_order(self):
        page = lessons.Lesson(FIXTURES / "remove_cell.ipynb").build()
        shown = "\n".join(texts(page))
        assert "AUTHOR-ONLY" not in shown
        assert shown.index("Author-only cells") < shown.index("STUDENT OUTPUT") < shown.index("STUDENT PROSE")

    def test_markdown_is_rendered_and_code_is_not_shown(self):
        page = lessons.Lesson(FIXTURES / "remove_cell.ipynb").build()
        shown = "\n".join(texts(page))
        assert "<h1" in shown and "<code>remove-cell</code>" in shown
        assert lessons.MARKDOWN_CLASS.split()[0] in shown
        assert 'print("STUDENT OUTPUT")' not in shown and "print(" not in shown

    def test_the_last_expression_and_display_calls_are_shown_in_order(self, tmp_path):
        path = notebook(tmp_path, ("code", 'print("one")\ndisplay(2 + 1)\n"<b>" + "last"'))
        shown = "".join(texts(lessons.Lesson(path).build()))
        assert shown.index("one") < shown.index("3") < shown.index("&#x27;&lt;b&gt;last&#x27;")

    def test_each_student_gets_widgets_of_their_own(self):
        lesson = lessons.Lesson(FIXTURES / "click.ipynb")
        first, second = lesson.build(), lesson.build()
        box_1, box_2 = (next(c for c in p.children if isinstance(c, w.VBox)) for p in (first, second))
        button_1, label_1 = box_1.children[:2]
        button_2, label_2 = box_2.children[:2]
        assert button_1 is not button_2
        button_1.click()
        assert label_1.value != label_2.value == "not clicked yet"


class TestSharedCells:
    def test_an_expensive_cell_without_widgets_runs_once_and_its_names_are_reused(self, tmp_path, monkeypatch):
        monkeypatch.setattr(lessons, "SHARED_CPU_S", -1.0)  # every cell without widgets counts as expensive
        path = notebook(tmp_path, ("code", "import ipywidgets as widgets\nmarker = object()\nprint('computed')"),
                        ("code", "shown = widgets.HTML(str(id(marker)))\nshown.marker = marker  # alive with the page\nshown"))
        lesson = lessons.Lesson(path)
        assert lesson.cells[0].shared and not lesson.cells[1].shared
        first, second = (texts(lesson.build()) for _ in range(2))
        assert first[0] == second[0] and "computed" in first[0]  # the recorded output, shown to both
        assert first[1] == second[1]  # the same object: the cell did not run again

    def test_a_cheap_cell_runs_again_for_each_student(self, tmp_path, monkeypatch):
        monkeypatch.setattr(lessons, "SHARED_CPU_S", 60.0)
        path = notebook(tmp_path, ("code", "import ipywidgets as widgets\nmarker = object()"),
                        ("code", "shown = widgets.HTML(str(id(marker)))\nshown.marker = marker  # alive with the page\nshown"))
        lesson = lessons.Lesson(path)
        assert not lesson.cells[0].shared
        pages = [lesson.build() for _ in range(2)]  # both alive with their markers: two addresses, unless shared
        assert texts(pages[0])[0] != texts(pages[1])[0]

    def test_a_cell_showing_a_widget_is_never_shared(self, tmp_path, monkeypatch):
        monkeypatch.setattr(lessons, "SHARED_CPU_S", -1.0)
        path = notebook(tmp_path, ("code", "import ipywidgets as widgets\nwidgets.Button()"))
        lesson = lessons.Lesson(path)
        assert not lesson.cells[0].shared
        assert lesson.build().children[0] is not lesson.build().children[0]


class TestFailures:
    def test_a_failing_cell_shows_a_notice_without_traceback_and_the_page_goes_on(self):
        page = lessons.Lesson(FIXTURES / "broken.ipynb").build()
        shown = "\n".join(texts(page))
        assert "before the error" in shown
        assert "could not be prepared (ValueError)" in shown
        assert "fails on purpose" not in shown and "Traceback" not in shown

    def test_a_failing_cell_is_logged_in_full(self, caplog):
        with caplog.at_level("ERROR", logger="aluette.classroom"):
            lessons.Lesson(FIXTURES / "broken.ipynb").build()
        assert "this fixture fails on purpose" in caplog.text


@pytest.mark.parametrize(("name", "widget_class", "output_class"), [("08_play_a_match.ipynb", "aluette-match", None),
                                                                     ("00_start_here.ipynb", None, "aluette-cards")])
def test_a_tutorial_notebook_builds_with_its_widgets_and_classes(name, widget_class, output_class):
    """The real notebooks: the page holds the widgets and outputs with the project's CSS classes (the browser
    tests' locators)."""
    from tests.browser.harness import REPO
    page = lessons.lesson(REPO / "notebooks" / name).build()
    classes = set()

    def walk(widget):
        classes.update(getattr(widget, "_dom_classes", ()))
        for child in getattr(widget, "children", ()):
            walk(child)
    walk(page)
    if widget_class:
        assert widget_class in classes
    if output_class:
        assert f'class="{output_class}"' in "".join(texts(page))
    assert all("could not be prepared" not in t for t in texts(page))


@pytest.fixture
def wire(monkeypatch):
    """What widgets send to the browser, in order: ("open", comm id, state) and ("update", comm id, state)."""
    import ipywidgets.comm as widget_comm
    sent, making = [], widget_comm.create_comm

    def create_comm(**args):
        comm = making(**args)
        sent.append(("open", comm.comm_id, args["data"]["state"]))
        comm.send = lambda data=None, **_: sent.append(("update", comm.comm_id, data.get("state", {})))
        return comm
    monkeypatch.setattr(widget_comm, "create_comm", create_comm)
    return sent


def references(state) -> list[str]:
    text = json.dumps(state)
    return [part.split('"')[0] for part in text.split('"IPY_MODEL_')[1:]]


class TestQuietBuild:
    def test_outside_the_block_a_widget_opens_when_made_and_sends_each_change(self, wire):
        label = w.HTML("one")
        label.value = "two"
        assert [kind for kind, *_ in wire] == ["open", "open", "open", "update"]  # layout, style, the HTML
        assert wire[-1][2] == {"value": "two"}

    def test_inside_it_widgets_open_once_at_the_end_with_their_final_state_parts_first(self, wire):
        with lessons.quiet_build():
            label = w.HTML("one")
            box = w.VBox([label])
            label.value = "two"
            label.add_class("late")
            box.children = [label, w.Button(description="go")]
            assert wire == []  # nothing reached the browser yet
        kinds = [kind for kind, *_ in wire]
        assert "update" not in kinds and kinds.count("open") == len(wire) == 8  # 3 per control, the box and its layout
        state = {comm_id: state for _, comm_id, state in wire}
        assert state[label.model_id]["value"] == "two" and list(state[label.model_id]["_dom_classes"]) == ["late"]
        assert len(state[box.model_id]["children"]) == 2
        opened = [comm_id for _, comm_id, _ in wire]
        for place, (_, comm_id, st) in enumerate(wire):
            assert all(ref in opened[:place] for ref in references(st))  # what it holds was opened before it

    def test_a_widget_closed_inside_the_block_is_never_opened(self, wire):
        with lessons.quiet_build():
            gone = w.Button(description="gone")
            gone.close()
            kept = w.Button(description="kept")
        assert [st.get("description") for _, _, st in wire if "description" in st] == ["kept"]
        assert gone.comm is None and kept.comm is not None

    def test_a_real_page_is_sent_once_with_no_update_and_every_reference_opened_first(self, wire):
        """Notebook 08's page: each widget's first state is its final one; after the page is built, a change is
        sent as before (a click works)."""
        from tests.browser.harness import REPO
        lesson = lessons.lesson(REPO / "notebooks" / "08_play_a_match.ipynb")
        wire.clear()
        page = lesson.build()
        assert {kind for kind, *_ in wire} == {"open"}
        opened = [comm_id for _, comm_id, _ in wire]
        assert len(opened) == len(set(opened))
        for place, (_, comm_id, st) in enumerate(wire):
            assert all(ref in opened[:place] for ref in references(st))
        assert page.model_id == opened[-1]
        table = next(c for c in page.children if "aluette-match" in c._dom_classes)
        wire.clear()
        table.hint_button.click()
        assert any(kind == "update" and comm_id == table.message.model_id for kind, comm_id, _ in wire)


_BY_REFERENCE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def fingerprint(value):
    """What an object holds, to compare before and after (``None`` for what is shared by reference anyway: modules,
    classes, functions); a figure by its picture; what pickle refuses by its structure."""
    if isinstance(value, _BY_REFERENCE):
        return None
    figure = getattr(value, "figure", None) if type(value).__module__.startswith("matplotlib") else None
    if figure is not None or type(value).__name__ == "Figure":
        picture = io.BytesIO()
        (figure or value).savefig(picture, format="png")
        return picture.getvalue()
    try:
        return pickle.dumps(value)
    except (TypeError, AttributeError, pickle.PicklingError):
        return structure(value, {})


def structure(value, seen: dict):
    """``value``'s contents, recursively: containers by their items, other objects by their attributes (an object met
    again by its type's name; ``seen`` keeps them alive, so that no id is reused during the walk)."""
    if value is None or isinstance(value, (str, bytes, int, float, complex, enum.Enum)):
        return repr(value)
    if isinstance(value, _BY_REFERENCE) or id(value) in seen:
        return type(value).__qualname__
    seen[id(value)] = value
    if isinstance(value, (dict, types.MappingProxyType)):
        return [(repr(k), structure(v, seen)) for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, *(structure(v, seen) for v in value)]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(structure(v, seen)) for v in value)
    fields = [*getattr(value, "__dict__", {}).items(),
              *((name, getattr(value, name)) for cls in type(value).__mro__
                for name in getattr(cls, "__slots__", ()) if hasattr(value, name))]
    return [type(value).__qualname__, *((name, structure(v, seen)) for name, v in fields)]


def changed_shared_values(lesson, pages: int = 2) -> list[str]:
    """The names bound by ``lesson``'s shared cells whose objects differ after ``pages`` students' pages are built
    (their later cells run again for each student, against the very same objects)."""
    shared = {f"cell {i}: {name}": value for i, cell in enumerate(lesson.cells) if cell.shared
              for name, value in cell.bound.items() if name != "__builtins__"}
    before = {key: fingerprint(value) for key, value in shared.items()}
    for _ in range(pages):
        lesson.build()
    return [key for key, value in shared.items() if fingerprint(value) != before[key]]


class TestSharedCellsStayUnchanged:
    """A shared cell's objects are the same objects in every student's namespace (``Lesson``): sound only if no
    later cell changes them in place. Every cell without widgets is taken as shared here (``SHARED_CPU_S`` -1), as
    any of them may cost more than the threshold on a busy server."""

    def test_a_later_cell_changing_a_shared_object_is_caught(self, tmp_path, monkeypatch):
        monkeypatch.setattr(lessons, "SHARED_CPU_S", -1.0)
        path = notebook(tmp_path, ("code", "scores = [1, 2]\nlabels = {'a': 1}"),
                        ("code", "import ipywidgets as widgets\nscores.append(3)\nwidgets.HTML(str(scores))"))
        assert changed_shared_values(lessons.Lesson(path)) == ["cell 0: scores"]

    @pytest.mark.parametrize("name", [p.name for p in student_notebooks(REPO / "notebooks")])
    def test_no_later_cell_of_a_served_notebook_changes_a_shared_object(self, name, monkeypatch):
        monkeypatch.setattr(lessons, "SHARED_CPU_S", -1.0)
        lesson = lessons.Lesson(REPO / "notebooks" / name)
        assert any(cell.shared and cell.bound for cell in lesson.cells)  # something to check
        assert changed_shared_values(lesson) == []


class TestTurns:
    """Pages are built one at a time, in the order the students asked (lessons.BUILDS): thirty pages asked at once
    finish one after another, and a click on a page already built waits behind one build, not thirty."""

    def test_turns_are_taken_one_at_a_time_in_the_order_asked(self):
        turns, order, inside, most = lessons.Turns(), [], [0], [0]
        first_in, release = threading.Event(), threading.Event()

        def build(number):
            with turns.turn():
                inside[0] += 1
                most[0] = max(most[0], inside[0])
                order.append(number)
                if number == 0:
                    first_in.set()
                    assert release.wait(30)
                inside[0] -= 1

        threads = [threading.Thread(target=build, args=(0,))]
        threads[0].start()
        assert first_in.wait(30)
        for number in range(1, 6):  # each asks once the one before has its ticket
            threads.append(threading.Thread(target=build, args=(number,)))
            threads[-1].start()
            deadline = time.monotonic() + 30
            while turns._next != number + 1 and time.monotonic() < deadline:
                time.sleep(0.001)
        release.set()
        for thread in threads:
            thread.join(30)
        assert order == [0, 1, 2, 3, 4, 5] and most[0] == 1

    def test_a_build_that_fails_passes_the_turn_on(self):
        turns = lessons.Turns()
        with pytest.raises(ZeroDivisionError):
            with turns.turn():
                1 / 0
        done = []
        worker = threading.Thread(target=lambda: done.append(turns.turn().__enter__()))
        worker.start()
        worker.join(10)
        assert done == [1]

    def test_a_lesson_is_built_in_its_turn(self, tmp_path, monkeypatch):
        taken = []

        class Counting(lessons.Turns):
            def turn(self):
                taken.append(self._next)
                return super().turn()
        monkeypatch.setattr(lessons, "BUILDS", Counting())
        lessons.Lesson(notebook(tmp_path, ("code", "1 + 1"))).build()
        assert taken == [0]
