"""The browser harness proves itself on fixture notebooks (tests/browser/fixtures/) before it proves the real ones:
a real click and a typed value reach the kernel and come back, the wire capture finds a secret that a widget
trait holds (and does not when only the kernel holds it), ``open_voila`` fails on each kind of broken page, a
callback exception is caught, and Voilà refuses to execute code sent from the browser.

Source of the expectations: the ipywidgets and Voilà documentation (widget state is synchronised to the browser
through comm messages; Voilà executes the notebook itself and forwards only comm, kernel_info and shutdown
messages from the browser), and the decisions of this project."""

import re

import pytest

from tests.browser.harness import (BLOCKED_ERROR, FIXTURES, RENDER, expect, open_notebook, open_voila,
                                   probe_execute, screenshot)

pytestmark = pytest.mark.browser


def test_click_and_typed_value_reach_the_kernel_and_come_back(page, wire, open_fixture):
    open_fixture(page, "click.ipynb")
    label, echo = page.locator(".widget-html-content").all()
    expect(label).to_have_text("not clicked yet")
    button = page.get_by_role("button", name="Click me")
    button.click()
    expect(label).to_have_text("clicked 1 times")
    button.click()
    button.click()
    expect(label).to_have_text("clicked 3 times")
    box = page.get_by_placeholder("type here")
    box.fill("3O")
    box.press("Enter")
    expect(echo).to_have_text("you typed '3O'")
    wire.wait_settled(page)
    assert wire.kernel_errors() == []
    assert wire.js_errors() == []
    screenshot(page, "fixture-click")


def test_voila_strips_code_cells(page, wire, open_fixture):
    """--strip_sources=True is Voilà's default: no input area and no source text reaches the browser."""
    open_fixture(page, "click.ipynb")
    source = (FIXTURES / "click.ipynb").read_text()
    assert "button.on_click(on_click)" in source  # the needle is really in the notebook
    assert "button.on_click(on_click)" not in wire.text()
    assert page.locator(".jp-CodeCell .jp-InputArea").count() == 0
    assert page.locator(".jp-MarkdownCell").count() == 1  # prose is kept


def test_wire_capture_finds_secrets_held_by_widget_traits(page, wire, open_fixture):
    """Negative control for the match's secrecy test: a hidden widget and a widget never displayed both send
    their trait values to the browser, and the capture sees both, though neither is visible on the page."""
    open_fixture(page, "secret_shown.ipynb")
    expect(page.get_by_text("public text")).to_be_visible()
    wire.wait_settled(page)
    text = wire.text()
    assert "SECRET-MARKER-HIDDEN" in text
    assert "SECRET-MARKER-UNDISPLAYED" in text
    values = [str(v) for state in wire.widget_states().values() for v in state.values()]
    assert "SECRET-MARKER-HIDDEN" in values and "SECRET-MARKER-UNDISPLAYED" in values
    assert {"SECRET-MARKER-HIDDEN", "SECRET-MARKER-UNDISPLAYED"} <= wire.strings()
    assert "SECRET-MARKER" not in page.evaluate("() => document.body.innerText")


def test_wire_capture_is_clean_when_only_the_kernel_holds_the_secret(page, wire, open_fixture):
    """The control: the same markers kept in a kernel variable never reach the browser, while the capture did
    record the page's widget models (so absence is not an empty capture)."""
    open_fixture(page, "secret_kept.ipynb")
    expect(page.get_by_text(re.compile(r"public text, \d+ secret characters"))).to_be_visible()
    wire.wait_settled(page)
    assert any("public text" in str(state.get("value")) for state in wire.widget_states().values())
    assert "SECRET-MARKER" not in wire.text()
    assert not any("SECRET-MARKER" in string for string in wire.strings())


@pytest.mark.parametrize("name, problem", [
    ("broken.ipynb", "this fixture fails on purpose"),
    ("missing_model.ipynb", "Error displaying widget"),
])
def test_open_voila_fails_on_a_broken_page(page, open_fixture, name, problem):
    with pytest.raises(pytest.fail.Exception, match=problem):
        open_fixture(page, name)


def test_a_callback_exception_is_caught_on_the_wire(page, wire, open_fixture):
    """Negative control for the robustness tests: an exception raised in a widget callback is not visible on
    a Voilà page, but the kernel publishes it and ``wire.kernel_errors()`` returns it; ``since`` a mark taken after
    it, only the ones raised later (a test on a page other tests use too)."""
    open_fixture(page, "callback_error.ipynb")
    page.get_by_role("button", name="Raise").click()
    wire.wait_settled(page)
    errors = wire.kernel_errors()
    assert len(errors) == 1 and "callback fails on purpose" in errors[0]
    check_error_marks(page, wire)


def check_error_marks(page, wire):
    """After one error: none since a mark taken now, one since it after a second click (and two in all)."""
    mark = wire.error_mark()
    assert wire.kernel_errors(since=mark) == [] and wire.js_errors(since=mark) == []
    page.get_by_role("button", name="Raise").click()
    wire.wait_settled(page)
    later = wire.kernel_errors(since=mark)
    assert len(later) == 1 and "callback fails on purpose" in later[0], later
    assert len(wire.kernel_errors()) == 2


@pytest.mark.parametrize("name, problem", [
    ("broken.ipynb", "a cell failed: This part of the page could not be prepared"),
    ("missing_model.ipynb", "Error displaying widget"),
])
def test_open_solara_fails_on_a_broken_page(page, solara_fixtures, name, problem):
    with pytest.raises(pytest.fail.Exception, match=problem):  # a widget that never draws: fails after `settle`
        open_notebook(page, name, server=solara_fixtures, settle=5)


def test_a_callback_exception_on_solara_is_caught_on_the_wire(page, wire, solara_fixtures):
    """The same negative control on the Solara app: the page shows nothing, but the exception reaches the wire."""
    open_notebook(page, "callback_error.ipynb", server=solara_fixtures)
    page.get_by_role("button", name="Raise").click()
    wire.wait_settled(page)
    errors = wire.kernel_errors()
    assert len(errors) == 1 and "callback fails on purpose" in errors[0]
    check_error_marks(page, wire)  # here the errors are read from the server's log


def test_voila_refuses_code_sent_from_the_browser(page, wire, open_fixture, voila_fixtures, tmp_path):
    """A student cannot run code through the app: Voilà forwards only comm_*, kernel_info and shutdown messages
    (voila/app.py allowed_message_types). From the page, an execute_request that would write a file is sent to
    the page's own kernel between two kernel_info_requests: both of those are answered, the execute_request gets
    no answer at all and the file is not written. test_lab.py runs the same probe against JupyterLab, where the
    file is written, so the probe itself works."""
    open_fixture(page, "click.ipynb")
    [(_, kernel_id)] = wire.voila_kernels
    marker = tmp_path / "executed-from-the-browser"
    ws_url = f"ws://127.0.0.1:{voila_fixtures.port}/api/kernels/{kernel_id}/channels?session_id=probe"
    result = probe_execute(page, ws_url, f"open({str(marker)!r}, 'w').write('ran')")
    assert result["outcome"] == "answered"
    assert "kernel_info_reply" in result["first"] and "kernel_info_reply" in result["last"]
    assert result["exec"] == []
    assert not marker.exists()
    assert 'Received message of type "execute_request", which is not allowed' in voila_fixtures.log_tail(limit=10**6)
    # and the page's own widgets still work on that kernel
    page.get_by_role("button", name="Click me").click()
    expect(page.get_by_text("clicked 1 times")).to_be_visible()


def test_landing_page_lists_the_notebooks_of_its_folder(page, voila_fixtures):
    """The list is drawn by the page's scripts after they start (Voilà's JupyterLab tree): on a loaded machine that
    took over expect's 30 s once (stop 39, the list still empty), so the bound is the harness's RENDER."""
    page.goto(voila_fixtures.url + "/")
    for path in sorted(FIXTURES.glob("*.ipynb")):
        expect(page.get_by_text(path.name, exact=True)).to_be_visible(timeout=RENDER * 1000)


def test_screenshot_shows_the_whole_notebook_or_one_widget(page, open_voila):
    """Voilà scrolls the notebook inside #rendered_cells, so a plain full-page screenshot would stop at the window's
    bottom: harness.screenshot makes the window as tall as the cells, and with ``element`` keeps one widget."""
    from PIL import Image

    open_voila(page, "00_start_here.ipynb")
    window = page.viewport_size
    cells = page.evaluate("() => document.querySelector('#rendered_cells').scrollHeight")
    assert cells > 2 * window["height"]  # a long notebook, so the check below can fail
    with Image.open(screenshot(page, "harness-whole-notebook", always=True)) as whole:
        assert whole.width == window["width"] and whole.height >= cells
    assert page.viewport_size == window
    deck = page.locator(".aluette-cards").first
    box = deck.bounding_box()
    with Image.open(screenshot(page, "harness-one-element", element=deck, always=True)) as part:
        # an element at a fractional position is clipped to whole pixels outward at both edges: up to 2 px more
        assert 0 <= part.width - box["width"] < 2 and 0 <= part.height - box["height"] < 2



def test_a_port_held_by_something_that_is_not_http_makes_the_server_start_on_another(tmp_path, monkeypatch):
    """A CI run's Voilà never started: a kernel's ZeroMQ socket had taken its port, and the readiness check read the
    ZeroMQ greeting (``BadStatusLine: ÿ...``) as a failure of the test. The harness now starts again on a new port."""
    import os
    import socket
    import sys
    import threading

    from tests.browser import harness

    squatter = socket.socket()
    squatter.bind(("127.0.0.1", 0))
    squatter.listen(4)
    taken = squatter.getsockname()[1]

    def greet():  # what a ZeroMQ socket says first to whoever connects
        while True:
            try:
                connection, _ = squatter.accept()
            except OSError:
                return
            with connection:
                connection.sendall(b"\xff\x00\x00\x00\x00\x00\x00\x00\x01\x7f\r\n")

    threading.Thread(target=greet, daemon=True).start()
    ports = iter([taken, harness.free_port()])
    monkeypatch.setattr(harness, "free_port", lambda: next(ports))
    served = harness.Server(name="harness-port-taken", cwd=tmp_path, env=dict(os.environ),
                            command=lambda port: [sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                                                  str(port)] if port != taken else
                            [sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        served.start()
        assert served.port != taken
        log = served.log_path.read_text()
        assert f"on port {taken} (attempt 1)" in log and f"on port {served.port} (attempt 2)" in log, log
    finally:
        served.stop()
        squatter.close()


# ------------------------------------------------------------------------------------------------ the browser

def test_a_request_outside_this_machine_fails_and_is_listed(page, wire, open_fixture, pages):
    """No page may depend on the internet: a fetch and a picture from outside 127.0.0.1 fail at once at the proxy
    that is not there (BLOCK_OUTSIDE_ARGS), in the cached profile's tab and in a device's context of its own alike;
    both are listed in ``wire.blocked``, and the console error they cause is left out of ``wire.js_errors()`` (it
    is the harness's doing, not the page's). The page's own server still answers."""
    open_fixture(page, "click.ipynb")
    device, = pages(1)
    failures = {}
    for tab in (page, device):
        tab.on("requestfailed", lambda request: failures.setdefault(request.url, []).append(request.failure))
    outcome = page.evaluate("""async () => {
        const fetched = await fetch('http://192.0.2.1/data.json').then(() => 'loaded', () => 'failed');
        const pictured = await new Promise(done => {
            const img = new Image();
            img.onload = () => done('loaded');
            img.onerror = () => done('failed');
            img.src = 'http://example.com/picture.png';
            document.body.appendChild(img);
        });
        return [fetched, pictured];
    }""")
    assert outcome == ["failed", "failed"]
    assert device.evaluate("() => fetch('http://192.0.2.2/').then(() => 'loaded', () => 'failed')") == "failed"
    outside = ["http://192.0.2.1/data.json", "http://example.com/picture.png", "http://192.0.2.2/"]
    for _ in range(100):  # the failures' events reach playwright a moment after the page saw them
        if all(url in failures for url in outside) and set(outside[:2]) <= set(wire.blocked):
            break
        page.wait_for_timeout(100)
    assert {url: failures.get(url) for url in outside} == {url: ["net::ERR_PROXY_CONNECTION_FAILED"]
                                                           for url in outside}
    assert set(outside[:2]) <= set(wire.blocked)
    assert BLOCKED_ERROR in wire.console_errors
    assert wire.js_errors() == []
    assert page.evaluate("async () => (await fetch(location.href)).status") == 200


def test_the_profile_keeps_the_cache_and_nothing_else_from_one_test_to_the_next(cached_profile, voila_fixtures):
    """``page`` is a new tab of one browser profile per worker (conftest's CachedProfile): after a test its
    cookies and stored data are gone and its tabs closed, while the scripts the servers sent come from the cache
    (what makes the next page cheaper to open)."""
    from tests.browser import conftest
    opened = []
    try:
        first = cached_profile.new_page()
        opened.append(first)
        open_voila(first, "click.ipynb", server=voila_fixtures)
        first.evaluate("() => { localStorage.setItem('left', 'behind'); document.cookie = 'left=behind; path=/'; }")
        cached_profile.context.new_page()  # a tab the test opened from its page: closed too
        assert "left=behind" in first.evaluate("() => document.cookie")
        conftest.shut_down(first)
        cached_profile.clear()
        assert [tab.url for tab in cached_profile.context.pages] == ["about:blank"]  # the next page's tab
        again = cached_profile.new_page()
        opened.append(again)
        open_voila(again, "click.ipynb", server=voila_fixtures)
        assert again.evaluate("() => localStorage.getItem('left')") is None
        assert "left=behind" not in again.evaluate("() => document.cookie")
        sizes = again.evaluate("""() => performance.getEntriesByType('resource')
            .filter(entry => entry.initiatorType === 'script')
            .map(entry => [entry.name, entry.transferSize, entry.encodedBodySize])""")
        cached = [name for name, transferred, size in sizes if size > 0 and transferred < size]
        assert cached, f"no script came from the cache: {sizes}"
    finally:
        for tab in opened:
            conftest.shut_down(tab)
        cached_profile.clear()
