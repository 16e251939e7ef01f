"""The classroom app (README, "Serving the tutorial to a class"): `make app` serves notebooks/ with Voilà on 127.0.0.1;
its landing page lists the lessons in teaching order (title, one-line description, a picture) without the teacher's
guide, which `make teacher` serves with the printable one-page rules summary; a notebook shows its prose and widgets
but no code; a closed tab's kernel is shut down at once. voila.json (read from the working directory, the
repository root for `make app`) pre-warms a kernel per notebook.

The landing and `make app` tests need notebooks in notebooks/; until there are some they skip, saying so, rather
than pass on an empty folder."""

import json
import re
import sys
import time
import urllib.parse

import httpx

import pytest

from aluette.classroom import TEACHER_NOTEBOOKS
from tests.browser.harness import (FIXTURES, NOTEBOOKS, REPO, Server, expect, open_voila, screenshot, server_env,
                                   wire_of)

pytestmark = pytest.mark.browser

NAMES = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))


def needs_notebooks():
    if not NAMES:
        pytest.skip("notebooks/ holds no notebook yet")


def make_server(target: str, port_variable: str, home):
    """The real `make TARGET` on a free port; -o keeps make from reinstalling the package."""
    needs_notebooks()
    stamp = f"{sys.prefix}/.aluette-installed"

    def command(port):
        return ["make", "-s", "-o", stamp, target, f"VENV={sys.prefix}", "HOST=127.0.0.1", f"{port_variable}={port}"]

    return Server(f"make-{target}", command, REPO, server_env(home))


@pytest.fixture(scope="module")
def make_app(tmp_path_factory):
    server = make_server("app", "PORT", tmp_path_factory.mktemp("make-app-home")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def make_teacher(tmp_path_factory):
    server = make_server("teacher", "TEACHER_PORT", tmp_path_factory.mktemp("make-teacher-home")).start()
    yield server
    server.stop()


def first_markdown(name: str) -> tuple[str, str]:
    """A notebook's title (its first line, '# ' removed) and the paragraph under it, whitespace folded."""
    cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
    text = "".join(next(c for c in cells if c["cell_type"] == "markdown")["source"]).strip()
    title, _, rest = text.partition("\n")
    return title.removeprefix("# "), " ".join(rest.strip().split("\n\n")[0].split())


def landing_entries(page) -> list[tuple[str, str]]:
    """(href, accessible name) of each entry of the landing page's list, in order (the picture is decoration,
    hidden from screen readers: the name is the title and the description)."""
    links = page.locator("ol.notebooks > li > a")
    names = page.evaluate("""() => [...document.querySelectorAll('ol.notebooks > li > a')].map(
        a => [...a.querySelectorAll('.title, .start')].map(s => s.innerText).join(' '))""")
    return [(links.nth(i).get_attribute("href"), " ".join(names[i].split())) for i in range(links.count())]


def test_landing_page_lists_the_lessons_in_order_without_the_teachers_guide(page, make_app):
    """Issue 9 §1: the tutorial's title, one entry per notebook in teaching order (the number in its file name)
    with its title and the first sentence under it, and a picture; not the teacher's guide, which the students'
    app refuses to serve."""
    page.goto(make_app.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Aluette")
    lessons = [name for name in NAMES if name not in TEACHER_NOTEBOOKS]
    entries = landing_entries(page)
    assert [href for href, _ in entries] == [f"/voila/render/{name}" for name in lessons]
    for (_, text), name in zip(entries, lessons):
        title, paragraph = first_markdown(name)
        plain = re.sub(r"\*\*|\*|`", "", title)
        assert text.startswith(plain), (name, text)
        sentence = text[len(plain):].strip()
        assert sentence and re.sub(r"\*\*|\*|`|\[|\]\([^)]*\)|\]", "", paragraph).startswith(sentence.rstrip(".")), name
    assert page.locator("ol.notebooks > li [aria-hidden=true] svg").count() == len(lessons)
    for _, name in entries:
        expect(page.get_by_role("link", name=name, exact=True)).to_be_visible()
    body = page.evaluate("() => document.body.innerText")
    for name in TEACHER_NOTEBOOKS:
        assert first_markdown(name)[0] not in body
        refused = httpx.get(f"{make_app.url}/voila/render/{name}", timeout=60)
        assert refused.status_code == 404 and "for the teacher" in refused.text
    screenshot(page, "app-landing")


def test_landing_page_entry_opens_its_notebook(page, make_app):
    page.goto(make_app.url + "/")
    page.locator("ol.notebooks > li > a").first.click()
    expect(page.locator("#rendered_cells")).to_be_visible(timeout=120_000)
    assert page.url.endswith(f"/voila/render/{NAMES[0]}")


def pdf_pages(pdf: bytes) -> int:
    """Pages of a PDF as Chromium writes it (one '/Type /Page' object per page)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_teacher_page_serves_the_guide_and_a_one_page_printable_summary(page, make_teacher):
    """Issue 9 §3: the teacher's page (make teacher) lists the teacher's guide first, then the lessons, and offers
    the one-page rules summary as an HTML file; printed with Chromium's PDF on A4 it is one page."""
    page.goto(make_teacher.url + "/")
    entries = landing_entries(page)
    assert [href for href, _ in entries][: len(TEACHER_NOTEBOOKS)] == [f"/voila/render/{n}" for n in TEACHER_NOTEBOOKS]
    assert len(entries) == len(NAMES)
    link = page.get_by_role("link", name="Download the one-page rules summary")
    assert link.get_attribute("download") == "aluette-rules-summary.html"
    href = link.get_attribute("href")
    prefix = "data:text/html;charset=utf-8,"
    assert href.startswith(prefix)
    html = urllib.parse.unquote(href[len(prefix):])
    assert "Aluette on one page" in html and "Monsieur (3 of coins)" in html
    screenshot(page, "app-teacher")
    summary = page.context.new_page()
    summary.set_content(html)
    pdf = summary.pdf(format="A4", print_background=True)
    summary.close()
    assert pdf_pages(pdf) == 1
    # a check that can fail: the same text twice over does not fit one page
    doubled = page.context.new_page()
    doubled.set_content(html.replace("</main>", html[html.index("<main>") + 6:html.index("</main>")] + "</main>"))
    assert pdf_pages(doubled.pdf(format="A4")) >= 2
    doubled.close()
    guide = httpx.get(f"{make_teacher.url}/voila/render/{TEACHER_NOTEBOOKS[0]}", timeout=180)
    assert guide.status_code == 200 and "Teacher" in guide.text


def test_closing_a_tab_shuts_its_kernel_down(page, make_app):
    """Voilà's page posts its kernel's shutdown when it is left; Voilà refuses it (403, no _xsrf cookie:
    voila-dashboards/voila#1458) unless the server sets the cookie, as the classroom's identity provider does. The
    kernel is then gone within seconds, long before the culler's 90 s."""
    name = "00_start_here.ipynb" if "00_start_here.ipynb" in NAMES else NAMES[0]
    open_voila(page, name, server=make_app)
    (_, kernel_id), = wire_of(page).voila_kernels
    assert httpx.get(f"{make_app.url}/api/kernels/{kernel_id}", timeout=30).status_code == 200
    page.close(run_before_unload=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if httpx.get(f"{make_app.url}/api/kernels/{kernel_id}", timeout=30).status_code == 404:
            break
        time.sleep(0.5)
    assert httpx.get(f"{make_app.url}/api/kernels/{kernel_id}", timeout=30).status_code == 404


def expect_links_to_notebooks(page, names):
    """Each name is a link on the landing page that leads to the notebook rendered by Voilà."""
    for name in names:
        link = page.get_by_role("link", name=re.compile(re.escape(name) + "$"))  # after an icon glyph
        expect(link).to_be_visible()
        assert link.get_attribute("href").startswith(f"/voila/render/{name}")


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
