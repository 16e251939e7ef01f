"""The classroom app (README, "Serving the tutorial to a class"): `make app` serves notebooks/ with Voilà on
127.0.0.1, a landing page lists the
notebooks, and a notebook shows its prose and widgets but no code. voila.json (read from the working directory,
the repository root for `make app`) pre-warms a kernel per notebook.

The landing and `make app` tests need notebooks in notebooks/; until there are some they skip, saying so, rather
than pass on an empty folder."""

import re
import sys

import pytest

from tests.browser.harness import FIXTURES, NOTEBOOKS, REPO, Server, expect, open_voila, screenshot, server_env

pytestmark = pytest.mark.browser

NAMES = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))


def needs_notebooks():
    if not NAMES:
        pytest.skip("notebooks/ holds no notebook yet")


@pytest.fixture(scope="module")
def make_app(tmp_path_factory):
    """The real `make app`, on a free port; -o keeps make from reinstalling the package."""
    needs_notebooks()
    stamp = f"{sys.prefix}/.aluette-installed"

    def command(port):
        return ["make", "-s", "-o", stamp, "app", f"VENV={sys.prefix}", "HOST=127.0.0.1", f"PORT={port}"]

    server = Server("make-app", command, REPO, server_env(tmp_path_factory.mktemp("make-app-home")))
    server.start()
    yield server
    server.stop()


def expect_links_to_notebooks(page, names):
    """Each name is a link on the landing page that leads to the notebook rendered by Voilà."""
    for name in names:
        link = page.get_by_role("link", name=re.compile(re.escape(name) + "$"))  # after an icon glyph
        expect(link).to_be_visible()
        assert link.get_attribute("href").startswith(f"/voila/render/{name}")


def test_make_app_landing_page_links_every_notebook(page, make_app):
    page.goto(make_app.url + "/")
    expect_links_to_notebooks(page, NAMES)
    screenshot(page, "app-landing")


def test_make_app_shows_prose_and_widgets_but_no_code(page, wire, make_app):
    name = "00_start_here.ipynb" if "00_start_here.ipynb" in NAMES else NAMES[0]
    open_voila(page, name, server=make_app)
    assert page.locator(".jp-MarkdownCell").count() > 0
    assert page.locator(".jp-CodeCell .jp-InputArea").count() == 0
    assert "import " not in page.evaluate("() => document.body.innerText")
    assert "Using pre-heated kernel" in make_app.log_tail(limit=10**6)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_renders_in_voila(page, wire, open_voila, name):
    """Every notebook renders: no error output, no widget left loading or failing (see harness.open_voila), and
    no exception in the kernel while its widgets were built."""
    open_voila(page, name)
    wire.wait_settled(page)
    assert wire.kernel_errors() == []
    assert wire.js_errors() == []
    screenshot(page, "voila-" + name.removesuffix(".ipynb"))


def test_voila_json_prewarms_kernels(page, voila_server):
    """voila.json, read from the repository root as `make app` does, makes Voilà pre-run each notebook in a
    waiting kernel; a page then takes that kernel and its widgets work (shown on a fixture notebook)."""
    server = voila_server(FIXTURES, cwd=REPO)
    open_voila(page, "click.ipynb", server=server)
    assert "Using pre-heated kernel" in server.log_tail(limit=10**6)
    page.get_by_role("button", name="Click me").click()
    expect(page.locator(".widget-html-content").first).to_have_text("clicked 1 times")
    assert "not recognized" not in server.log_tail(limit=10**6)


def test_voila_json_landing_page_links_each_notebook(page, voila_server):
    """With voila.json the landing page is a plain list of links (classic_tree); following one opens the
    notebook in a new tab."""
    server = voila_server(FIXTURES, cwd=REPO)
    page.goto(server.url + "/")
    expect_links_to_notebooks(page, sorted(path.name for path in FIXTURES.glob("*.ipynb")))
    with page.context.expect_page() as opened:  # the links open a new tab
        page.get_by_role("link", name=re.compile("secret_kept.ipynb$")).click()
    notebook = opened.value
    expect(notebook.get_by_text(re.compile(r"public text, \d+ secret characters"))).to_be_visible()
    assert "/voila/render/secret_kept.ipynb" in notebook.url
