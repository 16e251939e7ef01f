"""Helpers shared by the widget views: friendly error messages and card pictures in HTML widgets."""

from __future__ import annotations

import functools
import html
import json
from html import escape
from typing import Callable, Optional

import ipywidgets as w
import traitlets

from ..cards import Card
from ..chance import check_seed as _engine_check_seed
from ..errors import AluetteError, BadSeedError, InputTooLongError, quoted
from ..pictures import card_svg

__all__ = ["MessageArea", "friendly", "card_label", "plural", "sheet_html", "no_null_tooltips", "MAX_SEED",
           "check_seed", "seed_from_text", "next_seed", "check_choice", "close_widgets", "reachable_widgets",
           "state_text", "limited_text", "SHORT_TEXT", "CARDS_TEXT", "SAVE_TEXT", "card_words", "CARD_SIZES",
           "CARD_SIZE", "card_style", "card_size_control", "CardButton", "card_row", "live_region"]

#: The largest seed a seed box holds (the boxes are ``BoundedIntText(min=0, max=MAX_SEED)``).
MAX_SEED = 2 ** 32 - 1

#: The longest text each kind of text box takes, in characters (quality bar: every text box has a length limit).
#: A seed, a name, pagat notation or one card:
SHORT_TEXT = 100
#: A list of cards (a discard, an ordering answer, a trick, a hand), in codes or in words:
CARDS_TEXT = 1000
#: A saved deal or a recipe pasted as JSON (a finished deal saved with indent=1 is about 3,000 characters):
SAVE_TEXT = 20_000


def limited_text(text, limit: int, what: str) -> str:
    """``text`` if it has at most ``limit`` characters: every text box's handler calls this before reading the box,
    so that a pasted megabyte is refused at once and no check runs over it (quality bar:
    every text box has a length limit, every check over user input is linear).

    Raises:
        InputTooLongError: a longer text (the message names ``what``, the length and the limit, and quotes nothing
            of the text).
    """
    text = "" if text is None else str(text)
    if len(text) > limit:
        raise InputTooLongError(f"{what} is {len(text):,} characters long; this box takes at most {limit:,}. "
                                f"Nothing was read: clear the box and type it again.")
    return text


class MessageArea(w.HTML):
    """An HTML widget that shows one message at a time: ``ok(text)``, ``error(text)`` or ``clear()``.

    ``last_error`` keeps the text of the latest error (``None`` after ``ok``/``clear``) so tests can assert on it."""

    def __init__(self, **kwargs):
        super().__init__(value="", **kwargs)
        self.last_error: str | None = None
        self.add_class("aluette-message")

    def ok(self, text: str) -> None:
        self.last_error = None
        self.value = f'<div class="aluette-ok">{escape(text)}</div>'

    def error(self, text: str) -> None:
        self.last_error = text
        self.value = f'<div class="aluette-error" style="color:#b00020">⚠ {escape(text)}</div>'

    def clear(self) -> None:
        self.last_error = None
        self.value = ""


def friendly(message_attr: str = "message") -> Callable:
    """Decorator for widget callbacks: an :class:`AluetteError` raised inside is shown in ``self.<message_attr>``
    (a :class:`MessageArea`) instead of being lost in the kernel log; the widget keeps working. Other exceptions are
    bugs and propagate."""

    def wrap(method: Callable) -> Callable:
        @functools.wraps(method)
        def inner(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except AluetteError as error:
                getattr(self, message_attr).error(str(error))
                return None
        return inner

    return wrap


def card_label(card: Card) -> str:
    """The label a control shows for a card: its code and its traditional nickname or English name, e.g.
    ``"3O — Monsieur"``, ``"12E — king of swords"``."""
    return f"{card.code} — {card.nickname or card.name}"


def plural(count: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``: a count with its noun."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def sheet_html(sheet, **kwargs) -> str:
    """A score sheet (:meth:`aluette.Match.score_sheet`) as HTML for students: the ``mordienne`` column says "yes" or
    is empty rather than ``True``/``False``; ``kwargs`` go to ``DataFrame.to_html``."""
    shown = sheet.copy()
    if "mordienne" in shown:
        shown["mordienne"] = shown["mordienne"].map({True: "yes", False: ""})
    return shown.to_html(**kwargs)


def check_seed(seed) -> int:
    """``seed`` if a seed box can show it: a whole number from 0 to :data:`MAX_SEED` (the box would silently clamp
    anything else, and the class would not see the deal the notebook asked for).

    Raises:
        AluetteError: anything else (the message names it).
    """
    return _engine_check_seed(seed, "a seed box's seed", MAX_SEED)


def seed_from_text(text, maximum: int = MAX_SEED) -> int:
    """The seed typed into a text box: digits (``_`` allowed between them, spaces around), from 0 to ``maximum``.
    ``"12.7"``, ``"1e5"``, ``"-1"`` and 5,000 digits are refused with a message, never read as something else.

    Raises:
        InputTooLongError: longer than :data:`SHORT_TEXT` (before anything else is read).
        BadSeedError: anything else that is not such a seed (the message quotes a short prefix).
    """
    cleaned = limited_text(text, SHORT_TEXT, "the seed").strip().replace("_", "")
    if not cleaned.isascii() or not cleaned.isdigit() or int(cleaned) > maximum:  # at most 100 digits for int()
        raise BadSeedError(f"the seed must be a whole number from 0 to {maximum}, got {quoted(str(text).strip())}")
    return int(cleaned)


def next_seed(box: w.BoundedIntText) -> None:
    """Move a seed box to the next seed, wrapping from its maximum to 0 (its observer deals the new seed)."""
    box.value = (int(box.value) + 1) % (box.max + 1)


def check_choice(value, choices, what: str):
    """``value`` if it is one of ``choices`` (an iterable of allowed values).

    Raises:
        AluetteError: it is not; the message names ``what`` and the allowed values.
    """
    allowed = list(choices)
    if value not in allowed:
        raise AluetteError(f"unknown {what} {value!r}; known: {', '.join(map(str, allowed))}")
    return value


def close_widgets(widgets) -> None:
    """Close widgets that are no longer shown, with their layout and style, so their models (and the cards in their
    labels) leave the kernel and the browser."""
    for widget in widgets:
        for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
            if isinstance(part, w.Widget):
                part.close()
        widget.close()


def reachable_widgets(root: w.Widget) -> list[w.Widget]:
    """``root`` and every widget held in its traits (children, layout, style...), recursively; works on closed
    widgets too (no model id needed)."""
    found, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            found.append(node)
            for name in node.keys:
                value = getattr(node, name, None)
                stack.extend(v for v in (value if isinstance(value, (list, tuple)) else [value])
                             if isinstance(v, w.Widget))
    return found


def state_text(root: w.Widget) -> str:
    """Every trait value of every widget reachable from ``root``, as the browser would receive them
    (``widget.get_state()``; a widget held in a trait, such as a child, a layout or a style, is followed through its
    ``IPY_MODEL_`` reference as the browser follows it), as one text with HTML entities and JSON escapes undone: the
    text a secrecy audit searches (:mod:`aluette.secrecy`)."""
    states, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        state = node.get_state()
        states.append(state)
        values = list(state.values())
        while values:
            value = values.pop()
            if isinstance(value, str) and value.startswith("IPY_MODEL_"):
                stack.append(w.widget_serialization["from_json"](value, None))
            elif isinstance(value, (list, tuple)):
                values.extend(value)
            elif isinstance(value, dict):
                values.extend(value.values())
    return html.unescape("\n".join(json.dumps(state, default=str, ensure_ascii=False) for state in states))


def no_null_tooltips(root: w.Widget) -> w.Widget:
    """Give every widget under ``root`` whose ``tooltip`` is ``None`` an empty one; returns ``root``.

    ipywidgets 8 copies a description widget's ``tooltip`` into its label's ``title``, so ``None`` shows a "null"
    tooltip when the mouse rests on the label (issue 9 §5). Call it at the end of a view's constructor."""
    seen, stack = set(), [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if "tooltip" in node.keys and node.tooltip is None:
            node.tooltip = ""
        stack.extend(child for child in getattr(node, "children", ()) if isinstance(child, w.Widget))
    return root


def styled(widget: w.DOMWidget, *css: str) -> w.DOMWidget:
    """``widget`` with the CSS classes ``css`` added (the stable names browser tests find it by); returns it."""
    for name in css:
        widget.add_class(name)
    return widget


def button(description: str, css: str, on_click: Callable[[], object], **kwargs) -> w.Button:
    """A button with class ``css`` that calls ``on_click()`` (no argument) when clicked."""
    widget = styled(w.Button(description=description, **kwargs), css)
    widget.on_click(lambda _: on_click())
    return widget


def seed_box(seed: int, css: str, on_change: Callable[[], object]) -> w.BoundedIntText:
    """A seed box (0 to :data:`MAX_SEED`) with class ``css`` that calls ``on_change()`` when its value changes.

    Raises:
        AluetteError: ``seed`` is not a seed (see :func:`check_seed`).
    """
    box = styled(w.BoundedIntText(value=check_seed(seed), min=0, max=MAX_SEED, description="Seed",
                                  layout=w.Layout(width="180px")), css)
    box.observe(lambda change: on_change(), names="value")
    return box


def stepper_buttons(prefix: str, step: Callable[[Optional[int]], object], seed: w.BoundedIntText,
                    next_label: str = "Next step") -> tuple[w.Button, w.Button, w.Button]:
    """The Next / Run to end / New shuffle buttons of a stepped demo, classes ``{prefix}-next``, ``-run`` and
    ``-new``: Next calls ``step(1)``, Run to end ``step(None)``, New shuffle moves ``seed`` to the next seed."""
    return (button(next_label, f"{prefix}-next", lambda: step(1), button_style="primary"),
            button("Run to end", f"{prefix}-run", lambda: step(None)),
            button("New shuffle", f"{prefix}-new", lambda: next_seed(seed)))


# ---------------------------------------------------------------------------------------------- cards as controls
def card_words(card: Card) -> str:
    """A card said in words, for its accessible name: ``"3 of coins, Monsieur"``, ``"king of swords"`` (the engine's
    names, :mod:`aluette.cards`)."""
    return f"{card.name}, {card.nickname}" if card.nickname else card.name


#: Card sizes offered by :func:`card_size_control`: key → (label, picture width in pixels). "large" is the projector
#: setting: notebook 08's match fits a 1280x720 screen with it (tests/browser/test_accessibility.py).
CARD_SIZES = {"small": ("Small", 60), "normal": ("Normal", 72), "large": ("Large (projector)", 84)}


class CardSizeSetting(traitlets.HasTraits):
    """The card size of every card picture on the page (one per kernel: :data:`CARD_SIZE`). Every
    :func:`card_size_control` is linked to it and every :func:`card_style` follows it, through the CSS variable
    ``--aluette-card-w``."""

    size = traitlets.Unicode("normal")

    @traitlets.validate("size")
    def _check(self, proposal):
        return check_choice(proposal["value"], CARD_SIZES, "card size")

    @property
    def width(self) -> int:
        """The card picture's width in pixels."""
        return CARD_SIZES[self.size][1]


#: The page's card size (shared by every widget of the kernel, so the notebook's demos all follow one control).
CARD_SIZE = CardSizeSetting()

# Focus ring and selection marks: #0b57d0 on white is 6.4:1 and on the table's green (#e8f3e8) 5.6:1; the hint's
# #8a4b00 on white is 7.3:1 (WCAG 2 contrast: at least 3:1 for marks that carry meaning).
_CARD_CSS = """
.jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited { text-decoration: underline; }
.jupyter-widgets.widget-box.aluette-cardbtn { display: grid; position: relative; margin: 6px 3px; }
.aluette-cardbtn > * { grid-area: 1 / 1; margin: 0 !important; }
.aluette-cardbtn .aluette-card-picture svg { display: block; width: var(--aluette-card-w, 72px);
  height: calc(var(--aluette-card-w, 72px) * 1.5); }
.aluette-card-mini.aluette-cardbtn .aluette-card-picture svg { width: calc(var(--aluette-card-w, 72px) * 0.6);
  height: calc(var(--aluette-card-w, 72px) * 0.9); }
.aluette-cardbtn > button.aluette-card-button { width: 100% !important; height: 100% !important; padding: 0;
  background: transparent !important; border: none; box-shadow: none; border-radius: 6px; cursor: pointer;
  z-index: 1; text-indent: -9999px; overflow: hidden; white-space: nowrap; }
.aluette-cardbtn > button.aluette-card-button:hover { background: rgba(11, 87, 208, 0.10) !important; }
.aluette-cardbtn > button.aluette-card-button:focus,
.aluette-cardbtn > button.aluette-card-button:focus-visible { outline: 4px solid #0b57d0; outline-offset: 2px; }
.aluette-cardbtn.aluette-card-selected .aluette-card-picture svg { outline: 4px solid #0b57d0; border-radius: 6px;
  transform: translateY(-6px); }
.aluette-cardbtn.aluette-card-selected::after { content: "✓"; position: absolute; top: -4px; right: -2px;
  width: 22px; height: 22px; line-height: 22px; text-align: center; border-radius: 50%; background: #0b57d0;
  color: #ffffff; font-weight: bold; z-index: 2; pointer-events: none; }
.aluette-cardbtn.aluette-card-hint .aluette-card-picture svg { outline: 4px dashed #8a4b00; border-radius: 6px; }
.aluette-sized svg.aluette-card:not(.aluette-cardbtn *), .aluette-sized svg.aluette-back {
  zoom: var(--aluette-card-scale, 1); }
"""


def card_style() -> w.HTML:
    """The style sheet of the card controls, as a (visually empty) HTML widget to put in a view: the picture-button
    layering, the visible focus ring, the selected and hint marks, and ``--aluette-card-w`` from :data:`CARD_SIZE`
    (the widget follows it). Card pictures inside a view with class ``aluette-sized`` (tables, tricks) are zoomed by
    ``--aluette-card-scale``, the chosen width over the normal one."""
    sheet = styled(w.HTML(), "aluette-card-style")

    def update(change=None):
        if change is not None and sheet.comm is None:  # closed: stop following
            CARD_SIZE.unobserve(update, names="size")
            return
        scale = CARD_SIZE.width / CARD_SIZES["normal"][1]
        sheet.value = (f"<style>:root {{ --aluette-card-w: {CARD_SIZE.width}px; --aluette-card-scale: {scale:.3f}; }}"
                       f"{_CARD_CSS}</style>")

    update()
    CARD_SIZE.observe(update, names="size")
    return sheet


def card_size_control() -> w.ToggleButtons:
    """The card-size choice (class ``aluette-card-size``), linked to :data:`CARD_SIZE`: every card on the page
    follows it."""
    control = styled(w.ToggleButtons(options=[(label, key) for key, (label, _) in CARD_SIZES.items()],
                                     value=CARD_SIZE.size, description="Card size",
                                     tooltips=[f"cards {px} pixels wide" for _, px in CARD_SIZES.values()],
                                     style={"button_width": "auto"}), "aluette-card-size")
    traitlets.link((control, "value"), (CARD_SIZE, "size"))
    return control


class CardButton(w.Box):
    """A card picture that is a button: click or tap the picture, or Tab to it and press Enter or Space.

    The box (class ``aluette-cardbtn`` and ``css``) layers a :class:`~ipywidgets.Button` (``button``, class
    ``aluette-card-button`` and ``css + "-button"``) over the picture (``picture``, class ``aluette-card-picture``), so
    the whole picture is the button's target. The button's text (its ``description``, moved out of sight by the style
    sheet but read by screen readers) and its ``tooltip`` are the accessible name: the card in words and what a click
    does (``"3 of coins, Monsieur: play it"``). A hidden CardButton holds no card in any trait (secrecy). Needs
    :func:`card_style` on the page.

    Args:
        on_click: called with the card when the button is clicked; a late click on a hidden control (it reaches
            the kernel after the control was hidden) passes the card it last showed, so the view can say why
            nothing happens (never a silent drop); nothing happens if it never showed one.
        css: the class of this kind of card control, for browser tests.
    """

    def __init__(self, on_click: Callable[[Card], object], css: str = "aluette-card"):
        self.picture = styled(w.HTML(), "aluette-card-picture")
        self.button = styled(w.Button(description="", tooltip=""), "aluette-card-button", f"{css}-button")
        super().__init__([self.picture, self.button], layout=w.Layout(display="none"))
        styled(self, "aluette-cardbtn", css)
        self.card: Optional[Card] = None
        self._last: Optional[Card] = None  # kernel side only (a plain attribute, not a trait)
        self._on_click = on_click
        self.button.on_click(lambda _: self.click())

    def click(self) -> None:
        """What a click on the picture does: ``on_click(card)``."""
        if self._last is not None:
            self._on_click(self._last)

    def show(self, card: Card, action: str, selected: bool = False, hint: bool = False) -> None:
        """Show ``card``; a click will ``action`` (said in the accessible name); ``selected`` and ``hint`` mark it."""
        if card is not self.card:
            self.card = self._last = card
            self.picture.value = f'<div aria-hidden="true">{_face(card)}</div>'
        name = f"{card_words(card)}: {action}" + (" (chosen)" if selected else "")
        with self.button.hold_sync():
            self.button.description = self.button.tooltip = name
        for flag, css in ((selected, "aluette-card-selected"), (hint, "aluette-card-hint")):
            (self.add_class if flag else self.remove_class)(css)
        self.layout.display = None

    def hide(self) -> None:
        """Hide the control and forget its card (no trait names it any more)."""
        self.card = None
        self.picture.value = ""
        with self.button.hold_sync():  # " ": ipywidgets 8 leaves the old text on the page for an empty description
            self.button.description, self.button.tooltip = " ", ""
        self.remove_class("aluette-card-selected")
        self.remove_class("aluette-card-hint")
        self.layout.display = "none"

    @property
    def label(self) -> str:
        """The accessible name (the button's tooltip)."""
        return self.button.tooltip

    def close(self) -> None:
        """Close the control with its picture and button (their models, and the card, leave the browser)."""
        close_widgets([self.picture, self.button])
        super().close()


_FACES: dict = {}


def _face(card: Card) -> str:
    """The card's picture (computed once per card; sized by the style sheet)."""
    if card not in _FACES:
        _FACES[card] = card_svg(card, 72)
    return _FACES[card]


def card_row(cards, on_click: Callable[[Card], object], css: str, action: str,
             selected: Callable[[Card], bool] = lambda card: False) -> list[CardButton]:
    """One :class:`CardButton` per card of ``cards``, each showing its card."""
    buttons = []
    for card in cards:
        button = CardButton(on_click, css)
        button.show(card, action, selected(card))
        buttons.append(button)
    return buttons


def live_region(text: str) -> str:
    """``text`` (HTML) in an ARIA live region (``role="status"``), so screen readers announce status changes."""
    return f'<div role="status" aria-live="polite" aria-atomic="true">{text}</div>'
