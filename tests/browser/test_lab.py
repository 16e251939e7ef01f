"""JupyterLab, driven like a reader would: open a notebook, Run > Run All Cells, click the widget. This proves the
installed ipywidgets (kernel side) and jupyterlab_widgets (the JupyterLab extension) work together, which pytest
alone cannot see. JupyterLab serves a temporary copy (the ``lab`` fixture), so committed notebooks stay untouched.

The second test is the positive control of test_harness.py::test_voila_refuses_code_sent_from_the_browser: the
same execute_request probe, sent to a JupyterLab kernel, runs and writes its file. The third renders a notebook
through Voilà's Jupyter server extension, the route Binder and JupyterHub users get. The last plays a card of notebook
08's match (test_match.py's helpers): there the widget is drawn by the JupyterLab extension instead of Voilà. (Every
test that needs JupyterLab is in this file, so that only one of ``make test``'s workers starts it.)"""

import json
import re
import secrets
from pathlib import Path

import pytest

from tests.browser.harness import KERNEL_REPLY, RENDER, expect, open_voila, probe_execute, screenshot
from tests.browser.test_match import NOTEBOOK, WAIT, card_button, hand, status

pytestmark = pytest.mark.browser


def run_all_cells(page):
    """Run > Run All Cells in JupyterLab's menu bar, once the kernel is idle."""
    expect(page.locator("#jp-main-statusbar")).to_contain_text("Idle", timeout=RENDER * 1000)
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()


def test_widget_renders_and_reacts_in_jupyterlab(page, wire, lab):
    page.goto(f"{lab.url}/lab/tree/fixtures/click.ipynb?reset")  # ?reset: no notebook left open in the workspace by another test
    run_all_cells(page)
    output = page.locator(".jp-OutputArea-output")
    button = output.locator(".widget-button")
    expect(button).to_have_text("Click me", timeout=RENDER * 1000)
    label = output.locator(".widget-html-content").first
    expect(label).to_have_text("not clicked yet")
    button.click()
    expect(label).to_have_text("clicked 1 times")
    box = output.get_by_placeholder("type here")
    box.fill("7E")
    box.press("Enter")
    expect(output.locator(".widget-html-content").nth(1)).to_have_text("you typed '7E'")
    notebook = page.locator(".jp-Notebook")
    for problem in ["Error displaying widget", "Loading widget", "Traceback"]:
        expect(notebook).not_to_contain_text(problem)
    wire.wait_settled(page)
    assert wire.kernel_errors() == []
    screenshot(page, "lab-fixture-click")
    # the kernel talks to JupyterLab over Unix sockets (harness.lab_command), not over TCP ports
    connections = list(Path(lab.env["JUPYTER_RUNTIME_DIR"]).glob("kernel-*.json"))
    assert connections and {json.loads(c.read_text())["transport"] for c in connections} == {"ipc"}


def test_jupyterlab_runs_the_execute_probe(page, lab, tmp_path):
    """The probe works: JupyterLab forwards execute_request, the kernel answers and the file is written."""
    page.goto(f"{lab.url}/lab", wait_until="domcontentloaded")  # an API page's CSP forbids websockets
    token = secrets.token_hex(16)  # jupyter_server checks _xsrf on POST/DELETE when no token is used
    page.context.add_cookies([{"name": "_xsrf", "value": token, "domain": "127.0.0.1", "path": "/"}])
    headers = {"X-XSRFToken": token}
    response = page.request.post(f"{lab.url}/api/kernels", data={"name": "python3"}, headers=headers)
    assert response.ok, response.text()
    kernel_id = response.json()["id"]
    try:
        marker = tmp_path / "executed-from-the-browser"
        ws_url = f"ws://127.0.0.1:{lab.port}/api/kernels/{kernel_id}/channels?session_id=probe"
        result = probe_execute(page, ws_url, f"open({str(marker)!r}, 'w').write('ran')", timeout=KERNEL_REPLY * 2)
        assert result["outcome"] == "answered"
        assert "execute_reply" in result["exec"]
        assert marker.read_text() == "ran"
    finally:
        page.request.delete(f"{lab.url}/api/kernels/{kernel_id}", headers=headers)


def test_voila_inside_jupyter_server_renders_a_notebook(page, wire, lab):
    """Binder and JupyterHub serve the app through Voilà's Jupyter server extension (/voila/render/PATH on the
    user's own server), not the standalone `voila` command: that route renders and its widgets work too."""
    open_voila(page, "fixtures/click.ipynb", server=lab)
    assert page.locator(".jp-CodeCell .jp-InputArea").count() == 0
    page.get_by_role("button", name="Click me").click()
    expect(page.locator(".widget-html-content").first).to_have_text("clicked 1 times")
    wire.wait_settled(page)
    assert wire.kernel_errors() == []


def test_a_card_click_plays_it_in_jupyterlab(page, wire, lab):
    """JupyterLab (Run > Run All Cells): the table renders and a card click plays the card."""
    page.goto(f"{lab.url}/lab/tree/notebooks/{NOTEBOOK}?reset")  # ?reset: no notebook left open in the workspace by another test
    run_all_cells(page)
    root = page.locator(".jp-OutputArea-output .aluette-match").first
    expect(root.locator(".aluette-match-status")).to_contain_text("Your turn", timeout=RENDER * 1000)
    expect(page.locator(".jp-Notebook")).not_to_contain_text("Error displaying widget")
    wire.wait_settled(page, timeout=RENDER)
    root.scroll_into_view_if_needed()  # Run All Cells leaves the view at the last cell
    if "do you agree to the chant" in status(root):
        root.locator(".aluette-match-chant-decline").click()
        expect(root.locator(".aluette-match-status")).to_contain_text("click a card to play it", timeout=WAIT)
    root.locator(".aluette-match-hand").scroll_into_view_if_needed()
    card = hand(root)[0]
    card_button(root, card).click()
    expect(root.locator(f'.aluette-match-table svg[data-card="{card.code}"]')).to_have_count(1, timeout=WAIT)
    assert card not in hand(root)
    wire.wait_settled(page, timeout=RENDER)
    assert wire.kernel_errors() == []
    expect(page.locator(".jp-Notebook")).not_to_contain_text("Traceback")
