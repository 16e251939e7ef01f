"""The classroom app (README, "Serving the tutorial to a class"): `make app` serves notebooks/ on Solara's server
(127.0.0.1); its landing page lists the lessons in teaching order (title, one-line description, a picture) without
the teacher's notebooks, which `make teacher` serves (on Voilà) with the printable one-page rules summary; a notebook's
page shows its prose and widgets but no code. That every notebook renders with no error (and is axe-clean, and fits a
phone) is test_pages.py's, on one page per notebook.

`make app SERVER=voila` (Voilà) gets a short check of its own: the same landing page, one notebook rendered from a
pre-heated kernel with no code shown, and its kernel shut down when the tab closes (voila.json, the package's
aluette/classroom/voila/, which the command puts in Voilà's configuration path).

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
from tests.browser.harness import (FIXTURES, NOTEBOOKS, RENDER, REPO, SOLARA_DRAWN, Server, expect, make_command,
                                   open_solara, open_voila, page_url, probe_execute, screenshot, server_env,
                                   wire_of)

pytestmark = pytest.mark.browser

NAMES = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))


def needs_notebooks():
    if not NAMES:
        pytest.skip("notebooks/ holds no notebook yet")


def make_server(target: str, port_variable: str, home, *settings: str):
    """The real `make TARGET` on a free port (Voilà: `make app SERVER=voila`, `make teacher`)."""
    needs_notebooks()
    name = "-".join(["make", target, *(s.partition("=")[2].lower() for s in settings)])
    return Server(name, make_command(target, port_variable, *settings), REPO, server_env(home))


@pytest.fixture
def make_app(solara):
    """`make app` as a teacher runs it: the students' app on Solara's server (the session's, see conftest)."""
    needs_notebooks()
    return solara


@pytest.fixture(scope="module")
def make_app_voila(tmp_path_factory):
    """`make app SERVER=voila LESSON=00 CLASS_SIZE=1`: the same app on Voilà, with one warm kernel, for 00 (without
    LESSON, voila.json warms a kernel for each notebook: a minute of CPU while the tests run)."""
    server = make_server("app", "PORT", tmp_path_factory.mktemp("make-app-voila-home"), "SERVER=voila", "LESSON=00",
                         "CLASS_SIZE=1").start()
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


def landing_title(name: str) -> str:
    """A notebook's title as the landing page lists it: without its number, so the list's numbers never jump."""
    return re.sub(r"^\d+\.\s+", "", first_markdown(name)[0])


def landing_entries(page) -> list[tuple[str, str]]:
    """(href, accessible name) of each entry of the landing page's list, in order (the picture is decoration,
    hidden from screen readers: the name is the title and the description)."""
    links = page.locator("ol.notebooks > li > a")
    names = page.evaluate("""() => [...document.querySelectorAll('ol.notebooks > li > a')].map(
        a => [...a.querySelectorAll('.title, .start')].map(s => s.innerText).join(' '))""")
    return [(links.nth(i).get_attribute("href"), " ".join(names[i].split())) for i in range(links.count())]


def check_landing_page(page, server):
    """The tutorial's title, one entry per notebook in teaching order (the number in its file name) with its title
    and the first sentence under it, and a picture; not the teacher's notebooks, which the students' app refuses to
    serve with a page saying so (HTTP 404)."""
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Aluette")
    expect(page.locator("ol.notebooks > li > a").first).to_be_visible()
    lessons = [name for name in NAMES if name not in TEACHER_NOTEBOOKS]
    entries = landing_entries(page)
    assert [href for href, _ in entries] == [page_url(server, name)[len(server.url):] for name in lessons]
    for (_, text), name in zip(entries, lessons):
        paragraph = first_markdown(name)[1]
        plain = re.sub(r"\*\*|\*|`", "", landing_title(name))
        assert text.startswith(plain), (name, text)
        sentence = text[len(plain):].strip()
        assert sentence and re.sub(r"\*\*|\*|`|\[|\]\([^)]*\)|\]", "", paragraph).startswith(sentence.rstrip(".")), name
    assert page.locator("ol.notebooks > li [aria-hidden=true] svg").count() == len(lessons)
    for _, name in entries:
        expect(page.get_by_role("link", name=name, exact=True)).to_be_visible()
    body = page.evaluate("() => document.body.innerText")
    for name in TEACHER_NOTEBOOKS:
        assert first_markdown(name)[0] not in body
        refused = httpx.get(page_url(server, name), timeout=60)
        assert refused.status_code == 404 and "for the teacher" in refused.text, (name, refused.status_code)


def test_landing_page_lists_the_lessons_in_order_without_the_teachers_guide(page, make_app):
    check_landing_page(page, make_app)
    screenshot(page, "app-landing")


def test_landing_page_entry_opens_its_notebook(page, wire, make_app):
    page.goto(make_app.url + "/")
    page.locator("ol.notebooks > li > a").first.click()
    expect(page.locator(".jp-RenderedMarkdown").first).to_be_visible(timeout=120_000)
    assert page.url == page_url(make_app, NAMES[0])
    wire.wait_settled(page)


def pdf_pages(pdf: bytes) -> int:
    """Pages of a PDF as Chromium writes it (one '/Type /Page' object per page)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_teacher_page_serves_the_guide_and_a_one_page_printable_summary(page, make_teacher):
    """The teacher's page (make teacher) lists the teacher's guide first, then the lessons, and offers
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
    # the French teacher's page, one link away (issue 21: a French teacher runs the lesson in French), and back
    page.get_by_role("link", name="En français").click()
    expect(page.locator("h1")).to_have_text("Aluette\u00a0: la page de l'enseignant")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert [href for href, _ in landing_entries(page)][:len(TEACHER_NOTEBOOKS)] == [
        f"/voila/render/fr/{n}" for n in TEACHER_NOTEBOOKS]
    expect(page.get_by_role("link", name="Télécharger le résumé des règles sur une page")).to_have_attribute(
        "download", "aluette-resume-des-regles.html")  # the file's name in French too
    page.get_by_role("link", name="In English").click()
    expect(page.locator("h1")).to_have_text("Aluette: the teacher's page")


def test_make_app_shows_prose_and_widgets_but_no_code_and_runs_none(page, wire, make_app, tmp_path):
    """A page of the students' app: the notebook's prose and its widgets' outputs, never a line of its code; its
    links to other notebooks (by file name, as in JupyterLab) lead to their pages. Students cannot run code of their
    own through it: an ``execute_request`` sent on the page's own kernel websocket (the probe of test_lab.py, which
    proves it runs code on JupyterLab) gets no reply and runs nothing: Solara's server answers the
    ``kernel_info_request`` before it, and shuts the kernel down on a message it does not handle (closing its
    websockets), so the one after it is not answered either. ``make app`` runs a worker per core: the probe's socket
    may reach the worker that holds the page's kernel (whose own websocket is then closed too) or another, where
    Solara makes a kernel of that id for it alone; either way that kernel is shut down and runs nothing."""
    name = "00_start_here.ipynb" if "00_start_here.ipynb" in NAMES else NAMES[0]
    open_solara(page, name, server=make_app)
    assert page.locator(".jp-RenderedMarkdown").count() > 0
    assert page.locator(".jp-CodeCell, .jp-InputArea, .highlight").count() == 0
    text = page.evaluate("() => document.body.innerText")
    assert "import " not in text and "display(" not in text
    assert wire.js_errors() == []
    linked = [href for href in page.evaluate("() => [...document.querySelectorAll('a')].map(a => a.href)")
              if href.startswith(make_app.url) and href.endswith(".ipynb")]
    assert linked, "00 links to the other notebooks"
    for href in linked:
        moved = httpx.get(href, timeout=60)
        if href.rpartition("/")[2] in TEACHER_NOTEBOOKS:  # the teacher's guide: the page saying it is the teacher's
            assert moved.status_code == 404 and "for the teacher" in moved.text, href
            continue
        target = href.removesuffix(".ipynb").removeprefix(make_app.url)
        assert moved.status_code == 301 and moved.headers["location"] == target, (href, moved.status_code)
    (server, kernel_id, _), = wire.solara_pages
    marker = tmp_path / "executed-from-the-browser"
    result = probe_execute(page, f"ws{server}/jupyter/api/kernels/{kernel_id}/channels?session_id=probe",
                           f"open({str(marker)!r}, 'w').write('ran')", timeout=5)
    assert "kernel_info_reply" in result["first"], result  # the probe reached a kernel
    assert "execute_reply" not in result["exec"], result
    assert result["outcome"] == "timeout" and not marker.exists(), result
    assert result["closedByServer"], ("the kernel that got the execute_request was shut down, its websocket "
                                      "closed by the server", result)


# ------------------------------------------------------------------------------------- make app SERVER=voila
def test_voila_app_landing_page(page, make_app_voila):
    check_landing_page(page, make_app_voila)


def test_voila_app_renders_a_notebook_without_code_and_frees_its_kernel_when_the_tab_closes(page, wire,
                                                                                              make_app_voila):
    """A notebook on `make app SERVER=voila` renders from a pre-heated kernel (voila.json) with no error and no code.
    Voilà's page posts its kernel's shutdown when it is left; Voilà refuses it (403, no _xsrf cookie:
    voila-dashboards/voila#1458) unless the server sets the cookie, as the classroom's identity provider does. The
    kernel is then gone within seconds, long before the culler's 90 s."""
    name = "00_start_here.ipynb" if "00_start_here.ipynb" in NAMES else NAMES[0]
    open_voila(page, name, server=make_app_voila)
    wire.wait_settled(page)
    assert wire.kernel_errors() == [] and wire.js_errors() == []
    assert page.locator(".jp-MarkdownCell").count() > 0
    assert page.locator(".jp-CodeCell .jp-InputArea").count() == 0
    assert "import " not in page.evaluate("() => document.body.innerText")
    assert "Using pre-heated kernel" in make_app_voila.log_tail(limit=10**6)
    (_, kernel_id), = wire_of(page).voila_kernels
    assert httpx.get(f"{make_app_voila.url}/api/kernels/{kernel_id}", timeout=30).status_code == 200
    page.close(run_before_unload=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if httpx.get(f"{make_app_voila.url}/api/kernels/{kernel_id}", timeout=30).status_code == 404:
            break
        time.sleep(0.5)
    assert httpx.get(f"{make_app_voila.url}/api/kernels/{kernel_id}", timeout=30).status_code == 404


@pytest.fixture(scope="module")
def solara_class_caps(_server_home):
    """The students' app as `make app` serves it with two workers (the real command: a socket per worker, so a
    page's request and the old page's close request may reach different workers), on the fixtures, with a class's
    caps made small: 2 pages per computer (this one's too, which the tests' 127.0.0.1 is)."""
    from tests.browser import conftest
    env = {**server_env(_server_home), "ALUETTE_PREWARM": "0", "ALUETTE_MAX_SESSIONS": "40",
           "ALUETTE_MAX_SESSIONS_PER_ADDRESS": "2", "ALUETTE_MAX_SESSIONS_PER_OPERATOR": "2",
           "ALUETTE_MAX_PAGES_PER_MINUTE": "1000"}

    def command(port: int) -> list[str]:
        return [sys.executable, "-m", "aluette.classroom", "app", "--host=127.0.0.1", f"--port={port}",
                "--workers=2", f"--folder={FIXTURES}"]
    server = Server("solara-class-caps", command, REPO, env, kind="solara")
    conftest._SERVERS.append(server)
    server.start()
    yield server
    server.stop()


def test_a_reload_and_a_link_at_the_cap_replace_the_page_they_leave(pages, solara_class_caps):
    """Issue 23 §3: at its cap of pages, a computer's reload or a link to another lesson gave "the room is full"
    and the page was lost. In Chromium, the door counts the page left as gone: the reload and the link's page are
    drawn; a page more is still refused."""
    server = solara_class_caps
    first, second = pages(2)
    open_solara(first, "click.ipynb", server=server)
    open_solara(second, "click.ipynb", server=server)
    url = page_url(server, "click.ipynb")
    assert httpx.get(url, timeout=60).status_code == 503  # the cap holds for a page more
    for _ in range(4):  # each reload's close request reaches either worker
        response = second.reload(wait_until="domcontentloaded", timeout=RENDER * 1000)
        assert response.status == 200, response.text()[:300]
        second.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
        expect(second.get_by_role("button", name="Click me")).to_be_visible()
        time.sleep(1.5)  # the old page's close, passed on by the other worker within a second
    with second.expect_navigation(wait_until="domcontentloaded", timeout=RENDER * 1000) as navigation:
        second.evaluate("""() => { const a = document.createElement('a'); a.href = 'remove_cell.ipynb';
            a.textContent = 'Next: remove cell'; document.body.prepend(a); a.click(); }""")
    assert navigation.value.status == 200 and navigation.value.url.endswith("/remove_cell")
    second.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
    assert httpx.get(url, timeout=60).status_code == 503  # and the cap still holds


def test_the_teachers_tables_give_a_seat_to_a_bot_and_back_each_button_naming_its_table(page, open_voila,
                                                                                        _server_home):
    """Issue 23 §1 on the teacher's page (notebook 11, as `make teacher` serves it): two tables with the same seats,
    each in a box headed by its name, every button naming its table; "Bot at E" acts on its table only and is undone
    by "Give E back", after which the student's code works again."""
    from aluette.seats import Seat
    from aluette.store import TableService, TeacherDesk, open_store
    (_server_home / "data").mkdir(parents=True, exist_ok=True)  # the servers' data folder (harness.server_env)
    service = TableService(open_store(path=_server_home / "data" / "tables.sqlite3"))
    names = [f"Desk {i} {time.monotonic_ns() % 10**6}" for i in (1, 2)]
    try:
        codes = {}
        for name in names:
            service.create_table(name, seed=3)
            service.take_seat(name, "N", "Ann")
            codes[name] = service.take_seat(name, "E", "Bob").code
        open_voila(page, "11_teachers_tables.ipynb")
        for name in names:
            expect(page.get_by_role("heading", name=f"Table {name}")).to_be_visible()
        first, second = names
        page.get_by_role("button", name=f"Bot at E ({second})", exact=True).click()
        give_back = page.get_by_role("button", name=f"Give E back to Bob ({second})", exact=True)
        expect(give_back).to_be_visible()
        assert service.table_info(second).seats[Seat.E].kind == "bot"
        assert service.table_info(first).seats[Seat.E].kind == "person"  # the other table is untouched
        from tests.browser.test_accessibility import SMALL_THINGS_JS, axe_violations, describe, serious
        violations = axe_violations(page)  # the tables' boxes and their buttons, as a screen reader meets them
        assert serious(violations) == [], describe(serious(violations))
        assert page.evaluate(SMALL_THINGS_JS)["cut"] == []  # no button label cut off, table names included
        give_back.click()
        expect(page.get_by_role("button", name=f"Bot at E ({second})", exact=True)).to_be_visible()
        assert service.seat_state(second, "E", codes[second]).info.seats[Seat.E].player == "Bob"
    finally:
        for name in names:
            TeacherDesk(service).close_table(name)
        service.close()
