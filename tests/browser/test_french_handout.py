"""The French one-page rules summary (issue 21: « the one-page handout, printed on one A4 page in French, checked by a
test like the English one »): the summary of ``notebooks/fr/07_teachers_guide.ipynb`` as the teacher's page offers it
(:func:`aluette.classroom.landing.summary_html`), printed with Chromium's PDF on A4, is one page; the same text twice
over is not (a check that can fail). No server is needed: the file is what the teacher downloads."""

import pytest

from aluette.classroom.landing import summary_html
from tests.browser.harness import NOTEBOOKS
from tests.browser.test_app import pdf_pages

pytestmark = pytest.mark.browser

GUIDE = NOTEBOOKS / "fr" / "07_teachers_guide.ipynb"


def test_the_french_summary_prints_on_one_a4_page(page):
    html = summary_html(GUIDE)
    assert '<html lang="fr">' in html and "L'Aluette en une page" in html and "Monsieur (trois de deniers)" in html
    page.set_content(html)
    assert pdf_pages(page.pdf(format="A4", print_background=True)) == 1
    page.set_content(html.replace("</main>", html[html.index("<main>") + 6:html.index("</main>")] + "</main>"))
    assert pdf_pages(page.pdf(format="A4")) >= 2
