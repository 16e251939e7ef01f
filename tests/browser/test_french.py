"""The app in French and the French-suited pictures, in a real browser (issues 19 §3 and 21).

One Solara server, two pages of notebook 08 at once: one asked in French (``?lang=fr``), one in English. The French
page shows the seat table in French (status, buttons, the cards' names) while the English page on the same server
stays English (the language is the page's own: :mod:`aluette.i18n`); and the French-suited pictures chosen on the
English page change that page's cards (pictures and names), not the other page's, and not the game.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.harness import (RENDER, SETTLE, SOLARA_DRAWN, SOLARA_SETTLED_JS, expect, open_notebook,
                                   solara_url, wire_of)

pytestmark = pytest.mark.browser

WAIT = 30_000  # ms

#: Each card of the hand: its data-card code and its button's accessible name (the card in words).
HAND_JS = """(root) => [...root.querySelectorAll('.aluette-match-hand .aluette-match-card')]
    .filter(card => getComputedStyle(card).display !== 'none')
    .map(card => [card.querySelector('svg[data-card]').dataset.card,
                  card.querySelector('svg title').textContent])"""


def open_in(page, server, name: str, query: str):
    """Open notebook ``name`` of the Solara app at its address with ``query`` (``?lang=fr``), and wait until it is
    drawn and settled, as :func:`tests.browser.harness.open_solara` does for an address without one."""
    wire = wire_of(page)
    if not any(known is server for known, _ in wire.server_logs):
        wire.server_logs.append((server, server.log_size()))
    response = page.goto(solara_url(server, name) + query, wait_until="domcontentloaded", timeout=RENDER * 1000)
    assert response is not None and response.status < 400
    page.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
    page.wait_for_function(SOLARA_SETTLED_JS, timeout=SETTLE * 1000)
    wire.wait_settled(page, timeout=SETTLE)


def test_a_french_page_and_an_english_page_on_one_server(page, pages, solara):
    french_page, = pages(1)
    open_in(french_page, solara, "08_play_a_match.ipynb", "?lang=fr")
    open_notebook(page, "08_play_a_match.ipynb", server=solara)
    french = french_page.locator(".aluette-match").first
    english = page.locator(".aluette-match").first

    # the French page: the seat table in French
    expect(french.locator(".aluette-match-status")).to_contain_text("Donne 1 sur 5", timeout=WAIT)
    expect(french.locator(".aluette-match-next")).to_contain_text("Donne suivante")
    expect(french.locator(".aluette-match-hint")).to_contain_text("Conseil")
    expect(french.locator(".aluette-match-hand-head")).to_contain_text("Votre main")
    french_titles = [title for _code, title in french.evaluate(HAND_JS)]
    assert french_titles and all(re.search(r" (de|d')", t) and " of " not in t for t in french_titles)

    # the English page of the same server, at the same time: English, unchanged
    expect(english.locator(".aluette-match-status")).to_contain_text("Deal 1 of 5", timeout=WAIT)
    expect(english.locator(".aluette-match-next")).to_contain_text("Next deal")
    assert "Donne" not in english.locator(".aluette-match-status").text_content()

    # French-suited pictures on the English page: its cards' pictures and names change, the cards do not
    before = english.evaluate(HAND_JS)
    english.locator(".aluette-card-deck button", has_text="French suits").click()
    expect(english.locator(".aluette-match-hand svg title").first).to_contain_text(
        re.compile("diamonds|hearts|clubs|spades"), timeout=WAIT)
    wire_of(page).wait_settled(page)
    after = english.evaluate(HAND_JS)
    assert [code for code, _ in after] == [code for code, _ in before]  # the same hand, in the same order
    assert all(any(suit in title for suit in ("diamonds", "hearts", "clubs", "spades")) for _, title in after)
    # ... and only on that page: the French page keeps the Spanish-suited pictures it had
    assert [title for _code, title in french.evaluate(HAND_JS)] == french_titles

    # the French page still answers in French after a click (its language is kept for the page's messages)
    french.locator(".aluette-match-hint").click()
    expect(french.locator(".aluette-match-message")).to_contain_text(re.compile("[Cc]onseil"), timeout=WAIT)
