"""The students' app on a phone (README, "Serving the tutorial to a class"): every student lesson, in a window 390 px
wide (a phone held upright, iPhone 12 to 15), fits that width (checked on each lesson's page by test_pages.py's
test_a_lesson_fits_a_phone_upright, with the checks defined here). The page as a whole never scrolls sideways
(WCAG 2.1, 1.4.10 Reflow: content readable at 320 CSS px without scrolling in two dimensions); content that must stay
wide (a table of figures) scrolls inside its own box instead, and nothing shown (a button, a text box, a line of text)
is cut off by its box or pushed out of the window. The landing page is checked the same way.

A failure names the widest elements that pass the window's right edge (their tag and class names, right edge in px),
or what is out of sight and the box that cuts it off, so the fix can be looked for in the stylesheet
(``aluette/classroom/solara_app.py``) or in the widget's layout."""

from __future__ import annotations

import re

import pytest

from aluette.classroom import student_notebooks
from tests.browser.harness import NOTEBOOKS, REPO, SETTLE

pytestmark = pytest.mark.browser

LESSONS = [path.name for path in student_notebooks(NOTEBOOKS)]
PHONE = {"width": 390, "height": 844}
SLACK = 1  # px: a rounded sub-pixel edge

# What widens the page: every shown element whose right edge passes ``width``, is not clipped by a box of its own that
# scrolls sideways (or hides what passes it) and fits, and has no child that passes the edge itself (its ancestors
# are only as wide as it makes them). The widest first, one per distinct name; each named by its tag and classes,
# "in" its nearest ancestor with an aluette, widget or notebook class.
OFFENDERS_JS = """(width) => {
    const right = (el) => Math.round(el.getBoundingClientRect().right + window.scrollX);
    const shown = (el) => { const box = el.getBoundingClientRect(); return box.width > 0 && box.height > 0; };
    const passes = (el) => shown(el) && right(el) > width;
    const clipped = (el) => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
            if (getComputedStyle(up).overflowX !== 'visible' && right(up) <= width) return true;
        return false;
    };
    const label = (el) => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim()
        ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    const owner = (el) => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
            if (typeof up.className === 'string' && /(^|\\s)(aluette-|widget-|jp-)/.test(up.className))
                return ' in ' + label(up);
        return '';
    };
    const seen = new Map();
    for (const el of document.body.querySelectorAll('*')) {
        if (!passes(el) || [...el.children].some(passes) || clipped(el)) continue;
        const name = label(el) + owner(el);
        if (!seen.has(name) || seen.get(name).right < right(el))
            seen.set(name, {name, right: right(el), width: Math.round(el.getBoundingClientRect().width)});
    }
    return [...seen.values()].sort((a, b) => b.right - a.right);
}"""

# What is out of reach or cut off: a shown button, text box, list, picture or text (an element without children, or with
# text of its own) that passes the left or right edge of a box hiding what passes it (overflow hidden or clip), or of
# the window. Inside a box that scrolls sideways what passes the box is scrolled to; the box itself must then be in
# sight. A card's button text is moved out of sight on purpose (the picture shows the card), and its picture is left
# out.
OUT_OF_SIGHT_JS = """(width) => {
    const label = (el) => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim()
        ? '.' + el.className.trim().split(/\\s+/).filter(c => !/^(lm-|p-)/.test(c)).join('.') : '');
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
        const text = [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        if (el.children.length && !text && !el.matches('button, select, svg')) continue;
        if (el.closest('.aluette-card-button') || (el instanceof SVGElement && el.tagName.toLowerCase() !== 'svg'))
            continue;
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height) continue;
        const what = `${label(el)} "${(el.textContent || '').trim().slice(0, 30)}" [${Math.round(box.left)}..` +
            `${Math.round(box.right)}]`;
        let seen = box, cut = false;  // the part of the page that shows the element: its own box, or a scroller's
        for (let up = el.parentElement; up && up !== document.body && !cut; up = up.parentElement) {
            const x = getComputedStyle(up).overflowX;
            if (x === 'visible') continue;
            const room = up.getBoundingClientRect();
            if (x === 'auto' || x === 'scroll') { seen = room; continue; }  // scrolled to, if the scroller is in sight
            if (seen.right > room.right + 1 || seen.left < room.left - 1) {
                out.push(`${what} cut off by ${label(up)} [${Math.round(room.left)}..${Math.round(room.right)}]`);
                cut = true;
            }
        }
        if (!cut && (seen.left + window.scrollX < -1 || seen.right + window.scrollX > width + 1))
            out.push(`${what} out of the window`);
    }
    return out;
}"""


# Solara's loading screen grows and fades out for half a second after the page is drawn (loader-solara.html): the
# page is measured once it is gone.
LOADER_GONE_JS = "() => !document.querySelector('#loader-container')"


# The page's own style sheet (solara.Style, aluette/classroom/solara_app.py's CSS) may reach the browser a moment after
# the widgets it lays out, and until then a wide box widens the page whatever its overflow (a CI run measured the
# probe below, in its sideways-scrolling box, at 632 px): the page is measured once the sheet applies, which its first
# rule shows (ipywidgets' "success" colour is the sheet's shade, not JupyterLab's #388e3c). The shade is read from the
# sheet's source (importing the app would install its page runner in this test process). The width is then given a
# moment to settle (up to harness.SETTLE: the longest wait measured was 0.47 s with one core kept busy; only a
# page that does not fit waits it all), and measured after it whether it fits or not.
SUCCESS = re.search(r"--jp-success-color1: (#[0-9a-f]{6});",
                    (REPO / "aluette" / "classroom" / "solara_app.py").read_text(encoding="utf-8")).group(1)
STYLED_JS = f"() => getComputedStyle(document.body).getPropertyValue('--jp-success-color1').trim() === '{SUCCESS}'"
FITS_JS = "(width) => document.documentElement.scrollWidth <= width"
SETTLE_MS = SETTLE * 1000


def open_on_a_phone(page, open_app, name: str):
    page.set_viewport_size(PHONE)
    open_app(page, name)
    settle(page)


def narrow_to_a_phone(page):
    """The page already open, its window narrowed to the phone's (the style sheet's narrow rules then apply)."""
    page.set_viewport_size(PHONE)
    settle(page)


def settle(page):
    page.wait_for_function(LOADER_GONE_JS)
    page.wait_for_function(STYLED_JS)
    try:
        page.wait_for_function(FITS_JS, arg=PHONE["width"] + SLACK, timeout=SETTLE_MS)
    except Exception:  # playwright's TimeoutError: measured and named below
        pass


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


# Each student lesson is checked at phone width by tests/browser/test_pages.py's test_a_lesson_fits_a_phone_upright, on
# the page its render check opened (one page load per lesson for its checks).


def test_landing_page_fits_a_phone_upright(page, solara):
    page.set_viewport_size(PHONE)
    page.goto(solara.url + "/")
    page.wait_for_selector("ol.notebooks > li > a", state="visible")
    page.wait_for_function(LOADER_GONE_JS)
    check_fits(page, "the landing page")


def check_fits(page, name: str):
    """The page is no wider than the phone's window (naming what widens it) and shows everything it holds."""
    width = page_width(page)
    offenders = page.evaluate(OFFENDERS_JS, PHONE["width"] + SLACK)
    assert width <= PHONE["width"] + SLACK, (
        f"{name} is {width} px wide in a {PHONE['width']} px window; widest elements past its edge: "
        + "; ".join(f"{o['name']} (right edge {o['right']} px, {o['width']} px wide)" for o in offenders[:8]))
    hidden = page.evaluate(OUT_OF_SIGHT_JS, PHONE["width"])
    assert hidden == [], f"{name}: {len(hidden)} out of sight at {PHONE['width']} px:\n" + "\n".join(hidden[:12])


def test_the_checks_see_a_page_that_is_too_wide_or_cut_off(page, open_app):
    """The checks can fail: the first lesson with a box 600 px wide added at the end is too wide, and that box is
    named; the same box inside one that scrolls sideways is not. A button pushed off the window's left edge (which
    does not widen the page) and a text box wider than a box hiding what passes it are found out of sight."""
    open_on_a_phone(page, open_app, LESSONS[0])
    page.evaluate("""() => { const box = document.createElement('div');
        box.className = 'too-wide-probe'; box.style.width = '600px'; box.style.height = '10px';
        document.querySelector('.solara-autorouter-content').appendChild(box); }""")
    assert page_width(page) > PHONE["width"] + SLACK
    named = [o["name"].partition(" in ")[0] for o in page.evaluate(OFFENDERS_JS, PHONE["width"] + SLACK)]
    assert "div.too-wide-probe" in named, named
    page.evaluate("""() => { const probe = document.querySelector('.too-wide-probe');
        const room = document.createElement('div'); room.style.overflowX = 'auto';
        probe.replaceWith(room); room.appendChild(probe); }""")
    assert page_width(page) <= PHONE["width"] + SLACK
    assert page.evaluate(OFFENDERS_JS, PHONE["width"] + SLACK) == []
    assert page.evaluate(OUT_OF_SIGHT_JS, PHONE["width"]) == []
    page.evaluate("""() => { const main = document.querySelector('.solara-autorouter-content');
        const off = document.createElement('button'); off.textContent = 'pushed off';
        off.style.position = 'relative'; off.style.left = '-300px'; main.appendChild(off);
        const room = document.createElement('div'); room.style.overflowX = 'hidden'; room.style.width = '200px';
        const wide = document.createElement('input'); wide.style.width = '300px'; wide.className = 'wide-probe';
        room.appendChild(wide); main.appendChild(room); }""")
    found = page.evaluate(OUT_OF_SIGHT_JS, PHONE["width"])
    assert page_width(page) <= PHONE["width"] + SLACK
    assert len(found) == 2, found
    assert found[0].startswith('button "pushed off"') and found[0].endswith("out of the window"), found
    assert found[1].startswith("input.wide-probe") and " cut off by div " in found[1], found


# Issue 23 §2: on a phone held upright the trick, whose turn it is and the hand are on one screen (no scrolling for
# every card), and the trick never covers a seat of the round table (the student's own "to move" marker included).
# Measured on the page's layout, in page coordinates: the span from the highest to the lowest of the three, and the
# seats the trick's box overlaps.
ONE_SCREEN_JS = """(css) => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right}; };
    const round = document.querySelector(`.${css}-table-round`);
    const trick = box([...round.children].find(c => !c.classList.contains('aluette-seat')));
    const seats = [...round.children].filter(c => c.classList.contains('aluette-seat')).map(box);
    const status = box(document.querySelector(`.${css}-status`));
    const cards = [...document.querySelectorAll(`.${css}-hand .${css}-card`)]
        .filter(c => getComputedStyle(c).display !== 'none').map(box);
    const hand = {top: Math.min(...cards.map(c => c.top)), bottom: Math.max(...cards.map(c => c.bottom))};
    const covered = seats.filter(s => s.top < trick.bottom - 1 && trick.top < s.bottom - 1 && s.left < trick.right - 1
        && trick.left < s.right - 1).length;
    const parts = [trick, status, hand];
    return {span: Math.round(Math.max(...parts.map(p => p.bottom)) - Math.min(...parts.map(p => p.top))),
            covered, cards: cards.length,
            trick: [Math.round(trick.top), Math.round(trick.bottom)], status: [Math.round(status.top),
            Math.round(status.bottom)], hand: [Math.round(hand.top), Math.round(hand.bottom)]};
}"""


def check_one_screen(page, css: str, name: str):
    measured = page.evaluate(ONE_SCREEN_JS, css)
    assert measured["cards"] >= 7, measured
    assert measured["span"] <= PHONE["height"], (
        f"{name}: the trick {measured['trick']}, the status {measured['status']} and the hand {measured['hand']} "
        f"span {measured['span']} px, more than a {PHONE['height']} px screen")
    assert measured["covered"] == 0, f"{name}: the trick's box covers {measured['covered']} seat(s): {measured}"
    return measured


def play_until_a_trick_is_done(page, css: str, decline: str):
    """Decline the chant if asked, then play the first card of the hand at each turn until a trick is complete and
    it is this page's turn in the next one (so the table shows the last trick beside the one being played)."""
    from tests.browser.harness import expect
    root = page.locator(f".{css}")
    status, table = root.locator(f".{css}-status"), root.locator(f".{css}-table-round")
    cards = root.locator(f".{css}-card-button:visible")
    for _ in range(6):
        expect(status).to_contain_text("Your turn", timeout=20_000)
        if "agree to the chant" in (status.text_content() or ""):
            root.locator(decline).click()
            expect(status).not_to_contain_text("agree to the chant", timeout=20_000)
        elif "Trick 2" in (table.text_content() or ""):
            return
        else:
            held = cards.count()
            cards.first.click()
            expect(cards).to_have_count(held - 1, timeout=20_000)
    raise AssertionError("no second trick after six turns")


def test_08_shows_the_trick_the_turn_and_the_hand_on_one_phone_screen(page, open_app):
    open_on_a_phone(page, open_app, "08_play_a_match.ipynb")
    play_until_a_trick_is_done(page, "aluette-match", "button.aluette-match-chant-decline")
    check_one_screen(page, "aluette-match", "08")
    check_fits(page, "08 during a deal")


def test_10_shows_the_trick_the_turn_and_the_hand_on_one_phone_screen(page, open_app, _server_home):
    import secrets

    from aluette.store import TableService, open_store
    from tests.browser.harness import expect
    table = f"Phone {secrets.token_hex(3)}"
    open_on_a_phone(page, open_app, "10_play_together.ipynb")  # the page opens the class's database first
    service = TableService(open_store(path=_server_home / "data" / "tables.sqlite3"))
    try:
        service.create_table(table, seed=2026)  # the same cards on every run
    finally:
        service.close()
    root = page.locator(".aluette-together")
    root.locator(".aluette-together-table input").fill(table)
    root.locator(".aluette-together-name input").fill("Cat")
    root.locator("button.aluette-together-seat-S").click()
    root.locator("button.aluette-together-fill").click()
    expect(root.locator(".aluette-together-card").first).to_be_visible(timeout=20_000)
    play_until_a_trick_is_done(page, "aluette-together", "button.aluette-together-chant-decline")
    check_one_screen(page, "aluette-together", "10")
    check_fits(page, "10 during a deal")
