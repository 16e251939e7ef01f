"""Find and drive the aluette widgets on a rendered page by their stable CSS classes (the ``add_class("aluette-...")``
calls in aluette/widgets/), as a person does: real clicks and typed keys.

In the browser (ipywidgets 8) a class added in Python sits on the widget's outer element: a Text or Combobox is
``div.CLASS > input``, a Button is ``button.CLASS``, ToggleButtons are ``div.CLASS button[data-value=...]``, an HTML
widget is ``div.CLASS > div.widget-html-content``. A Text with ``continuous_update=False`` sends its value on Enter
or when it loses focus.
"""

from __future__ import annotations

from typing import NamedTuple

from aluette import Card
from aluette.widgets.common import card_words
from tests.browser import harness
from tests.browser.harness import expect

#: A bad value made of 500 characters, for every text box.
LONG = "Q" * 500


def field(scope, css: str):
    """The ``<input>`` of the Text/Combobox/IntText widget with class ``css`` inside ``scope`` (a page or locator)."""
    return scope.locator(f".{css} input")


def enter(scope, css: str, text: str):
    """Type ``text`` into the text box with class ``css`` (replacing its content) and press Enter, once the kernel
    has answered everything the page sent before (on a page the ``page`` fixture records). A box refuses a text
    over its limit by showing its kept value again (widgets.common._LimitedBox), after its error message: in a loaded
    run on 2026-12-07 that value landed while ``fill`` typed the next text, between its selecting the old text and
    its typing the new, and "1B" was sent as "1O1B"."""
    box = field(scope, css)
    wire = harness.recorded_wire(box.page)
    if wire is not None:
        wire.wait_settled(box.page)
    box.fill(text)
    box.press("Enter")


def toggle(scope, css: str, value: str):
    """The button for ``value`` in the ToggleButtons widget with class ``css``."""
    return scope.locator(f".{css} button[data-value='{value}']")


def html(scope, css: str):
    """The content of the HTML widget with class ``css``."""
    return scope.locator(f".{css} > .widget-html-content")


def cards_in(locator) -> list[str]:
    """Codes of the card faces drawn inside ``locator`` (``svg.aluette-card[data-card]``), in page order."""
    return locator.locator("svg.aluette-card").evaluate_all("svgs => svgs.map(s => s.dataset.card)")


def expect_cards(locator, codes):
    """Wait until the card faces drawn inside ``locator`` are exactly ``codes`` (in any order), e.g. after a new seed
    whose other views may already show while this one is still on its way."""
    expect(locator.locator("svg.aluette-card")).to_have_count(len(codes))
    for code in set(codes):
        expect(locator.locator(f'svg.aluette-card[data-card="{code}"]')).to_have_count(list(codes).count(code))
    assert sorted(cards_in(locator)) == sorted(codes)


def expect_error(message, *needles: str):
    """The message area shows an error (the ⚠ sign of MessageArea.error) containing each of ``needles``."""
    expect(message).to_contain_text("⚠")
    for needle in needles:
        expect(message).to_contain_text(needle)


def expect_no_error(message):
    expect(message).not_to_contain_text("⚠")


def finish(page, wire, since=None):
    """End of a test: the kernel answered every request the page sent, and neither it nor the page raised (since
    ``since``, a :meth:`~tests.browser.harness.Wire.error_mark`, for a test on a page that other tests use too)."""
    wire.wait_settled(page)
    assert wire.kernel_errors(since) == []
    assert wire.js_errors(since) == []


# The card codes of card-picture controls (aluette.widgets.common.CardButton), from their pictures' data-card.
PICTURES_JS = "els => els.map(el => el.querySelector('svg[data-card]').dataset.card)"


#: Whether the element under a point of the window is (inside) a button.
BUTTON_AT_JS = "([x, y]) => { const e = document.elementFromPoint(x, y); return !!(e && e.closest('button')); }"


def aim_at(page, picture, timeout: float = 30_000) -> tuple[float, float]:
    """The middle of a card's ``picture`` (a locator) in a hand, or the explorer's cards, scrolled into the window,
    once the card's button is there to take a click: a card button drawn anew ignores the pointer for its first
    0.4 s (aluette.widgets.common, aluette-arming), and a click there then reaches nothing."""
    picture.scroll_into_view_if_needed()
    box = picture.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.wait_for_function(BUTTON_AT_JS, arg=[x, y], timeout=timeout)
    return x, y


#: Records when the page handles each mousedown (``window.__aluetteDowns``, from the first call on): the time it runs
#: the handler, not the event's timeStamp, which is when the browser made the event (a busy page may handle it later).
_NOTE_DOWNS_JS = """() => { if (!window.__aluetteDowns) { window.__aluetteDowns = [];
    document.addEventListener('mousedown', e => window.__aluetteDowns.push(performance.now()), true); }
    return window.__aluetteDowns.length; }"""


#: How long a card button drawn anew ignores the pointer (aluette.widgets.common, the aluette-arming animation), in
#: ms: a double click whose two presses the page handled further apart than that is two clicks, not a person's
#: double click (they come closer together), and proves nothing about one.
ARMING = 400


class DoubleClick(NamedTuple):
    """What :func:`double_click` saw: how far apart in ms the page handled the two presses, and each time the hand
    changed within :data:`ARMING` ms of the first press, the accessible name of the button that would have taken a
    click at the point then (``""`` for none)."""
    gap: float
    under: list[str]

    def others(self, card: Card) -> list[str]:
        """The names in :attr:`under` of buttons of cards other than ``card`` (the one double-clicked): each a card
        the second click could have played."""
        return [name for name in self.under if name and not name.startswith(card_words(card))]


#: Notes, at every change of the hand (``hand``) until disconnected, the button under the point ``(x, y)`` that would
#: take a click there (``elementFromPoint`` skips an element that ignores the pointer) and when.
_WATCH_HAND_JS = """([hand, x, y]) => { const seen = window.__aluetteUnder = [];
    const note = window.__aluetteNote = () => { const e = document.elementFromPoint(x, y), b = e && e.closest('button');
        seen.push([performance.now(), b ? (b.title || b.textContent).trim() : '']); };
    window.__aluetteWatch && window.__aluetteWatch.disconnect();
    window.__aluetteWatch = new MutationObserver(note);
    window.__aluetteWatch.observe(hand, {subtree: true, childList: true, attributes: true, characterData: true}); }"""


def double_click(page, x: float, y: float, hand) -> DoubleClick:
    """A real double click at ``(x, y)`` (playwright's, two clicks dispatched back to back) on a card of the hand
    (``hand``, the element of the hand's box), once the kernel has answered it. On a loaded machine the page can
    handle the presses far further apart than a person's double click: the caller decides what a gap that long
    proves."""
    seen = page.evaluate(_NOTE_DOWNS_JS)
    page.evaluate(_WATCH_HAND_JS, [hand.element_handle(), x, y])
    page.mouse.dblclick(x, y)
    downs = page.evaluate(f"() => window.__aluetteDowns.slice({seen})")
    assert len(downs) == 2, f"the page saw {len(downs)} presses of the double click"
    harness.wire_of(page).wait_settled(page)
    under = page.evaluate("""() => { const watch = window.__aluetteWatch;  // the changes not reported yet, then stop
        if (watch.takeRecords().length) window.__aluetteNote();
        watch.disconnect(); return window.__aluetteUnder; }""")
    return DoubleClick(downs[1] - downs[0], [name for at, name in under if at - downs[0] < ARMING])
