"""Accessibility of the app in a real browser (quality bar: axe-core clean, keyboard-only usable): axe-core on every
page, the cards played with the keyboard alone, and the projector size.

- axe-core (vendored: ``tests/browser/vendor/``) runs on every notebook as a class gets it (the students' on the
  Solara app of ``make app``, the teacher's on Voilà, ``make teacher``), after its widgets rendered (test_pages.py,
  on the page its render check opened), and on the landing page here; a serious or critical violation fails (WCAG 2
  A and AA rules: contrast at least 4.5:1 for text, names for every control...). Moderate and minor findings are
  reported in the failure message only.
- Keyboard: a whole deal of notebook 08 is played with Tab and Enter only (no mouse), each card reached by Tab and
  showing a visible focus ring.
- Projector: at 1280x720 with the large card size, the match of 08 fits the width, its cards are at least 60 px wide,
  and the table with your hand fits the height.

Sources: WCAG 2.1 (1.4.3 contrast minimum, 1.4.11 non-text contrast, 2.1.1 keyboard, 2.4.7 focus visible, 4.1.2
name, role, value, 4.1.3 status messages).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.harness import ARTIFACTS, doc_image, expect
from tests.browser.test_app import make_app  # noqa: F401 - the fixture: `make app` on a free port

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
WAIT = 30_000  # ms

# axe on the rendered notebook; WCAG 2 A/AA rules and axe's best practices.
AXE_JS = """async () => {
    const result = await axe.run(document, {resultTypes: ['violations']});
    return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: (n.failureSummary || '').slice(0, 300),
                                  html: n.html.slice(0, 200)}))}));
}"""


def axe_violations(page) -> list[dict]:
    """axe-core's violations on the page as it is now."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(AXE_JS)


def serious(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def describe(violations: list[dict]) -> str:
    return "\n".join(f"{v['impact']} {v['id']} ({v['help']}): " + "; ".join(
        f"{n['target']} {n['summary']}" for n in v["nodes"][:4]) for v in violations)


def record(name: str, violations: list[dict]) -> None:
    """Keep the counts per page in test-artifacts/axe/ (for the report)."""
    folder = ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(violations, indent=1))


def test_the_vendored_axe_is_axe_core():
    head = AXE.read_text(encoding="utf-8")[:400]
    assert "axe v4.14.1" in head and (AXE.parent / "axe-core-LICENSE").exists()


# No "null" tooltip on a shown element, and no button whose label is cut off (its text wider than the
# button); a card button's text is its accessible name, moved out of sight on purpose (the picture shows the card).
SMALL_THINGS_JS = """() => ({
    nulls: [...document.querySelectorAll('[title="null"]')].filter(el => el.offsetParent !== null)
        .map(el => el.outerHTML.slice(0, 120)),
    cut: [...document.querySelectorAll('button:not(.aluette-card-button)')]
        .filter(b => b.offsetParent !== null && b.textContent.trim() && b.scrollWidth > b.clientWidth + 1)
        .map(b => b.textContent.trim())})"""


def test_axe_on_the_landing_page(page, make_app):
    """The students' landing page of ``make app`` (the server helper's page), checked the same way."""
    page.goto(make_app.url + "/")
    expect(page.locator("ol.notebooks > li > a").first).to_be_visible(timeout=WAIT)
    violations = axe_violations(page)
    record("landing", violations)
    assert serious(violations) == [], describe(serious(violations))


# ------------------------------------------------------------------------------------------------ keyboard only
MATCH = "08_play_a_match.ipynb"

FOCUSED_JS = """() => { const el = document.activeElement; if (!el) return null;
    const style = getComputedStyle(el);
    return {cls: el.className || '', name: el.getAttribute('title') || el.textContent.trim(),
            outline: style.outlineStyle, width: parseFloat(style.outlineWidth) || 0}; }"""


def status(root) -> str:
    return root.locator(".aluette-match-status").text_content()


def settle(page, wire, root):
    wire.wait_settled(page)
    expect(root.locator(".aluette-match-status")).not_to_contain_text("Waiting for", timeout=WAIT)
    wire.wait_settled(page)


def tab_to(page, wanted, limit: int = 300) -> dict:
    """Press Tab until the focused element satisfies ``wanted(focused)``; returns it (fails after ``limit``)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED_JS)
        if focused and wanted(focused):
            return focused
    raise AssertionError(f"Tab never reached the control ({limit} presses)")


def test_a_whole_deal_played_with_the_keyboard_only(page, wire, open_app):
    """WCAG 2.1.1 and 2.4.7: Tab reaches every card of your hand, with a visible focus ring, and Enter or Space plays
    it; the chant is answered the same way. No mouse: a whole deal of notebook 08 to its end. WCAG 2.4.3: after your
    card is played, and after your answer to the chant, the focus is on a card of your hand, not back at the top of the
    page; after your last card, on Next deal, and after Next deal on the new deal's first control you need."""
    open_app(page, MATCH)
    root = page.locator(".aluette-match").first
    settle(page, wire, root)
    played, keys = 0, ["Enter", " "]
    for _ in range(40):  # bounded: a chant answer and nine cards
        text = status(root)
        if "Deal over" in text or "Match over" in text:
            break
        if "do you agree to the chant" in text:
            tab_to(page, lambda f: "aluette-match-chant-decline" in f["cls"])
            page.keyboard.press("Enter")
            settle(page, wire, root)  # WCAG 2.4.3: the answer's button goes, the focus goes to your hand
            expect(page.locator(":focus")).to_have_class(re.compile(r"\baluette-match-card-button\b"))
        elif "click a card to play it" in text:
            focused = tab_to(page, lambda f: "aluette-match-card-button" in f["cls"] and f["name"].endswith("play it"))
            assert focused["outline"] == "solid" and focused["width"] >= 3, focused  # the visible focus ring
            assert re.match(r"^(\d+|ace|jack|cavalière|king) of (coins|cups|batons|swords)", focused["name"]), focused
            page.keyboard.press(keys[played % 2])  # Enter and Space both play
            played += 1
            settle(page, wire, root)
            if played < 9:  # WCAG 2.4.3: the focus stays in the hand, on the card now in the place of yours
                expect(page.locator(":focus")).to_have_class(re.compile(r"\baluette-match-card-button\b"))
        settle(page, wire, root)
    assert played == 9 and "Deal over" in status(root)
    # the counts are a widget of their own, drawn by a message of their own: read as it arrives (once, on a loaded
    # machine, "Deal over" was read while the counts still said 8 of 9)
    expect(root.locator(".aluette-match-counts")).to_contain_text("tricks played: 9 of 9")
    # WCAG 2.4.3: after your last card the focus is on Next deal; Enter starts the next deal, and the focus goes to
    # the first control you need there (your answer to the chant, or your first card), drawn anew
    expect(page.locator(":focus")).to_have_class(re.compile(r"\baluette-match-next\b"))
    page.keyboard.press("Enter")
    settle(page, wire, root)
    expect(page.locator(":focus")).to_have_class(re.compile(r"\baluette-match-(chant-agree|card-button)\b"))
    expect(root.locator(".aluette-match-message")).to_contain_text("Deal 2:")
    assert wire.kernel_errors() == []


# ------------------------------------------------------------------------------------------------ projector
def test_the_match_fits_a_1280x720_projector_in_large_mode(page, wire, open_app):
    """With the large card size at 1280x720 the match's cards are at least 60 px wide, nothing is cut off
    at the sides, and the table with your hand fits the screen's height."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, MATCH)
    root = page.locator(".aluette-match").first
    settle(page, wire, root)
    root.locator(".aluette-card-size button", has_text="Large").click()
    expect(root.locator(".aluette-card-style")).to_contain_text("", timeout=WAIT)
    page.wait_for_function("() => getComputedStyle(document.documentElement)"
                           ".getPropertyValue('--aluette-card-w').trim() === '84px'", timeout=WAIT)
    widths = root.evaluate("""(root) => [...root.querySelectorAll('.aluette-match-hand .aluette-match-card')]
        .filter(c => getComputedStyle(c).display !== 'none').map(c => c.getBoundingClientRect().width)""")
    assert len(widths) == 9 and min(widths) >= 60, widths
    overflow = root.evaluate("""(root) => [...root.querySelectorAll('*')]
        .filter(el => el.offsetParent !== null)
        .map(el => el.getBoundingClientRect()).filter(r => r.width > 0 && (r.left < -1 || r.right > 1281))
        .length""")
    assert overflow == 0
    top = min(root.locator(f".aluette-match-{part}").bounding_box()["y"] for part in ("table", "status", "score"))
    hand = root.locator(".aluette-match-hand").bounding_box()
    assert hand["y"] + hand["height"] - top <= 720, (top, hand)  # table, score, status and hand on one screen
    root.locator(".aluette-match-table").scroll_into_view_if_needed()
    page.evaluate("() => document.querySelector('.aluette-match-table').scrollIntoView({block: 'start'})")
    doc_image(page, "08_match_projector_1280x720.png")
    assert wire.kernel_errors() == []
