"""Every notebook's page as a class gets it (a student's lesson on the Solara app of ``make app``, the teacher's
notebooks on Voilà, as ``make teacher`` serves them), opened once for three checks, each a test of its own:

- it renders: no error output or notice, no widget left loading or failing (harness.open_notebook), no exception in
  the kernel while its widgets were built (README, "Serving the tutorial to a class"; the rest of the app is
  test_app.py's);
- axe-core finds no serious or critical violation on it, and no control with a "null" tooltip or a label cut off
  (test_accessibility.py: the rules, and the keyboard and projector checks);
- a student's lesson fits a phone held upright: the same page, its window narrowed to 390 px (test_phone.py: the
  checks, and the reasons), with no word broken across lines and no decision's id in its text
  (test_edge_cases.py), then widened back.

Opening a page is most of each check's cost (09 runs seconds of simulations per page), so the page of a notebook is
opened once for its checks (``notebook``, a module-scoped fixture parametrized by the notebook, which pytest runs one
notebook after another) and closed after its last one. No check depends on another having run: each reads the page
as it was opened (the phone check puts its window back as it found it), and a page that does not open fails each of
its checks with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from aluette.classroom import TEACHER_NOTEBOOKS
from tests.browser import harness
from tests.browser.harness import NOTEBOOKS, expect, screenshot, wire_of
from tests.browser.test_accessibility import SMALL_THINGS_JS, axe_violations, describe, record, serious
from tests.browser.test_edge_cases import SPLIT_WORDS_JS, decision_ids
from tests.browser.test_phone import LESSONS, check_fits, narrow_to_a_phone

pytestmark = pytest.mark.browser

NAMES = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))
#: A line a lesson prints with a decision of this project in it, shown by its mark (aluette.decisions): 09's deal
#: whose nine tricks are all spoiled.
MARKED = {"09_edge_cases.ipynb": "nobody scores (⚖ Our decision: the sources are silent)"}


@dataclass
class Opened:
    """A notebook's page, opened (and settled) on the server a class gets it from."""

    name: str
    page: object  # playwright Page


@pytest.fixture(scope="module")
def notebook(request, cached_profile) -> Opened:
    """The page of notebook ``request.param`` (indirect parametrization), opened once for this module's checks of it:
    a student's on the Solara app (``solara``), the teacher's on Voilà (``voila``), in a tab of the worker's cached
    profile as ``page`` is (one notebook at a time: pytest runs a notebook's checks before the next one's). Fails
    (each check of that notebook, with the reason and a screenshot) if it does not render (see
    harness.open_notebook)."""
    name = request.param
    server = request.getfixturevalue("voila" if name in TEACHER_NOTEBOOKS else "solara")
    with cached_profile.tab() as page:
        harness.open_notebook(page, name, server=server)
        wire_of(page).wait_settled(page)
        yield Opened(name, page)


@pytest.mark.parametrize("notebook", NAMES, indirect=True)
def test_notebook_renders(notebook):
    """No error on the page (checked as it opened) and no exception in the kernel or the page's scripts; a student's
    tab is named after the lesson, not after the server."""
    page, name = notebook.page, notebook.name
    wire = wire_of(page)
    assert wire.kernel_errors() == []
    assert wire.js_errors() == []
    if name not in TEACHER_NOTEBOOKS:
        expect(page).to_have_title(re.compile(r" - Aluette$"))
    screenshot(page, "app-" + name.removesuffix(".ipynb"))


@pytest.mark.parametrize("notebook", NAMES, indirect=True)
def test_axe_finds_no_serious_or_critical_violation(notebook):
    page = notebook.page
    violations = axe_violations(page)
    record(notebook.name, violations)
    assert serious(violations) == [], describe(serious(violations))
    small = page.evaluate(SMALL_THINGS_JS)
    assert small == {"nulls": [], "cut": []}, small


@pytest.mark.parametrize("notebook", LESSONS, indirect=True)
def test_a_lesson_fits_a_phone_upright(notebook):
    page, name = notebook.page, notebook.name
    size = page.viewport_size
    try:
        narrow_to_a_phone(page)
        screenshot(page, "phone-" + name.removesuffix(".ipynb"))
        check_fits(page, name)
        assert page.evaluate(SPLIT_WORDS_JS) == [], f"{name}: words broken across lines at a phone's width"
        text = page.evaluate("() => document.body.innerText")
        assert decision_ids(text) == [] and "<!--" not in text  # a decision is shown by its mark, never its id
        if name in MARKED:
            expect(page.locator("pre", has_text=MARKED[name]).first).to_be_visible()
    finally:
        page.set_viewport_size(size)
