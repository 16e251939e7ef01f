"""The French edition in the students' app (issue 21: « the landing page offers the language; a lesson's address
carries it … and links between lessons keep it »), on the real ``make app`` (Solara): the landing page offers
« Français »; the French landing page (``/fr/``, ``lang="fr"``) lists the French lessons under ``/fr/``; a French
lesson opens in French, and its link to the next lesson leads to the French one. Two lesson pages are opened; axe-core
checks the French landing page (its lessons' pages are the i18n helper's tests/browser/test_french.py)."""

import pytest

from tests.browser.harness import RENDER, SOLARA_DRAWN, expect
from tests.browser.test_accessibility import axe_violations, describe, serious

pytestmark = pytest.mark.browser


def test_the_french_lessons_keep_their_language_from_page_to_page(page, wire, solara):
    page.goto(solara.url + "/")
    page.get_by_role("link", name="Français").click()
    page.wait_for_url(solara.url + "/fr/")
    expect(page.get_by_role("heading", name="Les leçons, dans l'ordre")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.get_by_role("link", name="English").get_attribute("href") == "/"
    hrefs = [a.get_attribute("href") for a in page.locator("ol.notebooks > li > a").all()]
    assert hrefs and all(h.startswith("/fr/") for h in hrefs) and "/fr/07_teachers_guide" not in hrefs
    violations = serious(axe_violations(page))  # the French landing page, checked as the English one is
    assert violations == [], describe(violations)
    page.locator("ol.notebooks > li > a").nth(1).click()  # 01, after 00
    page.wait_for_url(solara.url + "/fr/01_ranking")
    page.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Le classement")
    assert page.evaluate("document.documentElement.lang") == "fr"
    page.get_by_role("link", name="02 La mise en place").click()  # the lesson's last line: « Suite : … »
    page.wait_for_url(solara.url + "/fr/02_setup", timeout=RENDER * 1000)
    page.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
    expect(page.get_by_role("heading", level=1)).to_contain_text("La mise en place")
    wire.wait_settled(page)
