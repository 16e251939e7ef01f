"""Helpers shared by the widget views: friendly error messages and card pictures in HTML widgets."""

from __future__ import annotations

import functools
import html
import json
import re
from html import escape
from typing import Callable, Optional

import ipywidgets as w
import traitlets
from ipywidgets.widgets.widget_string import HTMLStyle

from ..cards import Card
from ..chance import check_seed as _engine_check_seed
from ..errors import AluetteError, BadSeedError, InputTooLongError, quoted
from ..frames import TABLE_COLUMNS, shown
from ..card_names import card_name
from ..i18n import N_, _, language, number
from ..pictures import DECKS, card_svg, french_name

__all__ = ["MessageArea", "LimitedText", "LimitedTextarea", "LimitedCombobox",
           "friendly", "card_label", "class_label", "plural", "sheet_html", "table_html", "TABLE_COLUMNS", "no_null_tooltips",
           "MAX_SEED",
           "check_seed", "number_from_text", "seed_from_text", "NumberBox", "SeedBox", "seed_box", "next_seed",
           "check_choice", "close_widgets", "reachable_widgets",
           "state_text", "limited_text", "SHORT_TEXT", "CARDS_TEXT", "SAVE_TEXT", "card_words", "CARD_SIZES",
           "CARD_SIZE", "page_card_size", "set_page_storage", "set_session_storage", "session_storage", "WRAP_CSS",
           "card_style", "card_size_control", "CARD_DECKS", "CARD_DECK", "page_card_deck", "card_deck_control",
           "follow_card_deck", "CardButton", "CardControl", "CardParts", "card_face", "card_row",
           "live_region"]

#: The largest seed a seed box (:class:`SeedBox`) holds.
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
        raise InputTooLongError(_("{what} is {length} characters long; this box takes at most {limit}. Nothing was "
                                  "read: clear the box and type it again.").format(
            what=what, length=number(len(text)), limit=number(limit)))
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


class _LimitedBox:
    """A text box that refuses, as it arrives from the browser, a text longer than its limit (the browser has no
    limit of its own, and a crafted widget message need not come from the box at all): the box's value is left as it
    was and shown again, ``message()`` shows the :func:`limited_text` error, and nothing else runs (no observer, no
    echo of the text back to the browser). Linear in the message (one ``len``). The box's handlers still call
    :func:`limited_text` on what they read (a value set from Python is the program's, not the student's)."""

    def __init__(self, *, limit: int, what: str, message: Optional[Callable[[], MessageArea]], **kwargs):
        self.text_limit, self.text_what, self._text_message = limit, what, message
        super().__init__(**kwargs)

    def set_state(self, sync_data):
        text = sync_data.get("value") if isinstance(sync_data, dict) else None
        if isinstance(text, str) and len(text) > self.text_limit:
            sync_data = {k: v for k, v in sync_data.items() if k != "value"}
            try:
                limited_text(text, self.text_limit, self.text_what)
            except InputTooLongError as error:
                area = self._text_message() if self._text_message is not None else None
                if area is None:  # no message area: the error is the kernel's, as for any box without one
                    raise
                area.error(str(error))
            finally:
                self.send_state("value")  # the browser shows the value kept
        super().set_state(sync_data)


class LimitedText(_LimitedBox, w.Text):
    """A ``Text`` that takes at most ``limit`` characters from the browser (:class:`_LimitedBox`); ``what`` names
    its text in the message, ``message()`` is the view's :class:`MessageArea`; other arguments go to ``Text``."""


class LimitedTextarea(_LimitedBox, w.Textarea):
    """A ``Textarea`` that takes at most ``limit`` characters from the browser, as :class:`LimitedText`."""


class LimitedCombobox(_LimitedBox, w.Combobox):
    """A ``Combobox`` that takes at most ``limit`` characters from the browser, as :class:`LimitedText`."""


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


def class_label(code: str) -> str:
    """A class as the pages name it (the student's practice, the teacher's page): its code, or "this computer" (in
    the page's language) for the class of an app started without a token
    (:data:`~aluette.store.progress.LOCAL_CLASS`)."""
    from ..store.progress import LOCAL_CLASS
    return _("this computer") if code == LOCAL_CLASS else code


def card_label(card: Card) -> str:
    """The label a control shows for a card: its code and its traditional nickname or English name, e.g.
    ``"3O — Monsieur"``, ``"12E — king of swords"`` (in the page's language: « 12E — roi d'épée »)."""
    return f"{card.code} — {card.nickname or card_name(card)}"


def plural(count: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``: a count with its noun."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def table_html(table, **kwargs) -> str:
    """One of the engine's frames as HTML, as a page shows it (:func:`aluette.frames.shown`: its column names in
    the page's language, a score sheet's ``mordienne`` column "yes" or empty); ``kwargs`` go to
    ``DataFrame.to_html``."""
    return shown(table).to_html(**kwargs)


#: A score sheet (:meth:`aluette.Match.score_sheet`) as HTML for students: :func:`table_html`.
sheet_html = table_html


def check_seed(seed) -> int:
    """``seed`` if a seed box can show it: a whole number from 0 to :data:`MAX_SEED` (anything else would leave the
    box showing another seed than the deal the notebook asked for).

    Raises:
        AluetteError: anything else (the message names it).
    """
    return _engine_check_seed(seed, N_("a seed box's seed"), MAX_SEED)


#: What a whole-number box reads: ASCII digits, ``_`` allowed between two digits (as Python writes 4_294_967_295).
_WHOLE = re.compile(r"[0-9]+(?:_[0-9]+)*")


def number_from_text(text, what: str, minimum: int, maximum: int, error: type = AluetteError) -> int:
    """The whole number typed into a text box (a seed, a number of deals), from ``minimum`` to ``maximum``: digits,
    ``_`` allowed between digits; spaces around it are ignored (a pasted " 12 " is 12), nothing else is. ``"12.7"``,
    ``"1e3"``, ``"-1"``, ``"12 3"``, an empty box and a number out of range are refused with a message naming
    ``what`` and the problem, never read as something else. Linear in the text, which is at most
    :data:`SHORT_TEXT` characters.

    >>> number_from_text(" 1_000 ", "the number of deals", 1, 80_000)
    1000

    Raises:
        InputTooLongError: longer than :data:`SHORT_TEXT` (before anything else is read).
        error: anything else that is not such a number (the message quotes a short prefix of the text).
    """
    typed = limited_text(text, SHORT_TEXT, what).strip()
    if not typed:
        problem = _("the box is empty")
    elif not _WHOLE.fullmatch(typed):
        problem = _("got {text}: type digits only (no sign, decimal point, exponent, space or other "
                    "character)").format(text=quoted(typed))
    elif not minimum <= int(typed) <= maximum:  # at most 100 digits for int()
        problem = (_("got {text}, which is larger") if int(typed) > maximum
                   else _("got {text}, which is smaller")).format(text=quoted(typed))
    else:
        return int(typed)
    raise error(_("{what} must be a whole number from {minimum} to {maximum}; {problem}").format(
        what=what, minimum=minimum, maximum=maximum, problem=problem))


def seed_from_text(text, maximum: int = MAX_SEED) -> int:
    """The seed typed into a text box: :func:`number_from_text` from 0 to ``maximum``, the one reading of every seed
    box (:class:`SeedBox`, and notebook 08's :func:`~aluette.widgets.match.parse_seed`).

    Raises:
        InputTooLongError: longer than :data:`SHORT_TEXT` (before anything else is read).
        BadSeedError: anything else that is not such a seed (the message quotes a short prefix).
    """
    return number_from_text(text, _("the seed"), 0, maximum, BadSeedError)


class NumberBox(LimitedText):
    """A text box for a whole number from ``minimum`` to ``maximum`` (a number box of the browser would turn a
    pasted ``12.7`` into ``127`` or clamp ``-1`` to 0 without a word).

    What is typed is read when it is committed (Enter, or leaving the box) by :meth:`read`: a valid number becomes
    :attr:`number`, is shown back as plain digits, and ``on_change(number)`` is called when it changed. Anything
    else is refused: the :class:`MessageArea` that ``message()`` returns (a function, so that a view may make its
    message area after the box) shows the problem (a short quote of the text, and the number kept), the box shows
    the number it had again, and nothing else changes. The next valid number clears that message. ``layout``: a
    layout to use instead of one of ``width`` (a view's shared layout, the width then set by its style sheet).

    ``value`` is the text in the box (set it from Python to type into the box); :attr:`number` is the number in
    use (set it from Python to change it: checked, then as if typed).
    A text over :data:`SHORT_TEXT` characters from the browser is refused as it arrives (:class:`LimitedText`).

    Raises:
        AluetteError (``error``): ``number`` is not a whole number from ``minimum`` to ``maximum``.
    """

    def __init__(self, number: int, css: str, *, what: str, minimum: int, maximum: int,
                 on_change: Optional[Callable[[int], object]] = None,
                 message: Optional[Callable[[], MessageArea]] = None, error: type = AluetteError,
                 description: Optional[str] = None, width: str = "180px", layout: Optional[w.Layout] = None):
        description = _("Seed") if description is None else description
        self.what, self.minimum, self.maximum, self._error = what, minimum, maximum, error
        self._number = self.check(number)
        super().__init__(value=str(self._number), description=description, continuous_update=False,
                         layout=w.Layout(width=width) if layout is None else layout, limit=SHORT_TEXT, what=what,
                         message=message)
        styled(self, css)
        self._on_change, self._message, self._reported = on_change, message, None
        self.observe(self._typed, names="value")

    def check(self, number) -> int:
        """``number`` as an ``int`` if the box may hold it (a whole number, not text, from ``minimum`` to
        ``maximum``); raises the box's error otherwise."""
        if isinstance(number, bool) or not isinstance(number, int) or not self.minimum <= number <= self.maximum:
            raise self._error(f"{self.what} must be a whole number from {self.minimum} to {self.maximum}, "
                              f"got {quoted(number)}")
        return int(number)

    def read(self, text: str) -> int:
        """The number ``text`` stands for (:func:`number_from_text`); raises for anything else."""
        return number_from_text(text, self.what, self.minimum, self.maximum, self._error)

    @property
    def number(self) -> int:
        """The number in use: the last valid number typed or set."""
        return self._number

    @number.setter
    def number(self, number: int) -> None:
        self.value = str(self.check(number))

    def _typed(self, change) -> None:
        try:
            number = self.read(change["new"])
        except AluetteError as error:
            self.value = str(self._number)  # shown back (its own change reads as the same number: nothing happens)
            if self._message is None:
                raise
            self._reported = f"{str(error).rstrip('.')}. " + _("{what} stays {number}.").format(
                what=self.what[0].upper() + self.what[1:], number=self._number)
            self._message().error(self._reported)
            return
        changed, self._number = number != self._number, number
        if change["new"] != str(number):
            self.value = str(number)  # " 12 " or "1_2" is shown as 12
        if self._reported is not None and self._message is not None:
            if self._message().last_error == self._reported:  # the box's own message, now answered
                self._message().clear()
            self._reported = None
        if changed and self._on_change is not None:
            self._on_change(number)


class SeedBox(NumberBox):
    """A seed box: a :class:`NumberBox` for a seed from 0 to ``maximum`` (:data:`MAX_SEED`), read with
    :func:`seed_from_text`; errors are :class:`~aluette.errors.BadSeedError`. :attr:`seed_value` is the seed in use
    (as :attr:`number`)."""

    def __init__(self, seed: int, css: str, *, on_change: Optional[Callable[[int], object]] = None,
                 message: Optional[Callable[[], MessageArea]] = None, maximum: int = MAX_SEED, width: str = "180px",
                 layout: Optional[w.Layout] = None):
        super().__init__(seed, css, what=_("the seed"), minimum=0, maximum=maximum, on_change=on_change,
                         message=message, error=BadSeedError, width=width, layout=layout)

    def check(self, number) -> int:
        """``number`` if it is a seed this box holds (:func:`aluette.chance.check_seed`)."""
        return _engine_check_seed(number, N_("a seed box's seed"), self.maximum)

    def read(self, text: str) -> int:
        """The seed ``text`` stands for (:func:`seed_from_text`)."""
        return seed_from_text(text, self.maximum)

    @property
    def seed_value(self) -> int:
        """The seed in use."""
        return self.number

    @seed_value.setter
    def seed_value(self, seed: int) -> None:
        self.number = seed


def next_seed(box: NumberBox) -> None:
    """Move a seed box to the next seed, wrapping from its maximum to 0 (its ``on_change`` deals the new seed)."""
    box.number = (box.number + 1) % (box.maximum + 1)


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
    labels) leave the kernel and the browser; a :class:`CardButton` closes itself (its view's shared
    :class:`CardParts` stay open for the others)."""
    for widget in widgets:
        if isinstance(widget, CardButton):
            widget.close()
            continue
        for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
            if isinstance(part, w.Widget):
                part.close()
        widget.close()


_LEAVES = (w.Layout, w.Style)  # widgets that hold no widget


def reachable_widgets(root: w.Widget) -> list[w.Widget]:
    """``root`` and every widget held in its traits (children, layout, style...), recursively; works on closed
    widgets too (no model id needed)."""
    found, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            found.append(node)
            if isinstance(node, _LEAVES):
                continue  # a layout or a style holds no widget: its forty-odd traits need no look
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


def seed_box(seed: int, css: str, on_change: Callable[[], object], message: Callable[[], MessageArea],
             **kwargs) -> SeedBox:
    """A :class:`SeedBox` (0 to :data:`MAX_SEED`) with class ``css`` that calls ``on_change()`` when its seed changes
    and shows a refused text in ``message()`` (a function, so the view may make its message area after the box);
    ``kwargs`` go to :class:`SeedBox`.

    Raises:
        BadSeedError: ``seed`` is not a seed (see :func:`check_seed`).
    """
    return SeedBox(seed, css, on_change=lambda number: on_change(), message=message, **kwargs)


def stepper_buttons(prefix: str, step: Callable[[Optional[int]], object], seed: NumberBox,
                    next_label: Optional[str] = None) -> tuple[w.Button, w.Button, w.Button]:
    """The Next / Run to end / New shuffle buttons of a stepped demo, classes ``{prefix}-next``, ``-run`` and
    ``-new``: Next calls ``step(1)``, Run to end ``step(None)``, New shuffle moves ``seed`` to the next seed."""
    return (button(_("Next step") if next_label is None else next_label, f"{prefix}-next", lambda: step(1),
                   button_style="primary"),
            button(_("Run to end"), f"{prefix}-run", lambda: step(None)),
            button(_("New shuffle"), f"{prefix}-new", lambda: next_seed(seed)))


# ---------------------------------------------------------------------------------------------- cards as controls
def card_words(card: Card, deck: Optional[str] = None) -> str:
    """A card said in words, for its accessible name: ``"3 of coins, Monsieur"``, ``"king of swords"`` (the engine's
    names, :mod:`aluette.cards`); on the page's French-suited pictures (``deck``, default the page's:
    :func:`page_card_deck`) the ordinary deck's name, ``"3 of diamonds, Monsieur"``, as the picture shows it."""
    deck = page_card_deck().deck if deck is None else deck
    name = french_name(card) if deck == "french" else card_name(card)
    return f"{name}, {card.nickname}" if card.nickname else name


#: Card sizes offered by :func:`card_size_control`: key → (label, picture width in pixels). "large" is the projector
#: setting: notebook 08's match fits a 1280x720 screen with it (tests/browser/test_accessibility.py).
CARD_SIZES = {"small": (N_("Small"), 60), "normal": (N_("Normal"), 72), "large": (N_("Large (projector)"), 84)}


class CardSizeSetting(traitlets.HasTraits):
    """The card size of every card picture on the page (one per page: :func:`page_card_size`). Every
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

_page_storage: Callable[[], Optional[dict]] = lambda: None


def set_page_storage(storage: Callable[[], Optional[dict]]) -> None:
    """For a server that runs many pages in one process (Solara's virtual kernels: ``aluette.classroom``):
    ``storage()`` returns a dict private to the current page (or ``None`` outside any page), where page-wide settings
    such as the card size are kept, so one student's choice is not every student's. In a Jupyter kernel (one page
    per process) nothing needs setting: the settings are the module's, :data:`CARD_SIZE`."""
    global _page_storage
    _page_storage = storage


_session_storage: Callable[[], Optional[dict]] = lambda: None


def set_session_storage(storage: Callable[[], Optional[dict]]) -> None:
    """For a server that keeps something of a student's pages across a reload (the classroom app, by Solara's
    session cookie): ``storage()`` returns a dict private to the current browser session, which a reloaded page
    finds again (or ``None`` outside any page, or when the server keeps nothing). Notebook 08's match is kept there
    (:class:`aluette.widgets.match.MatchTable`'s ``keep``). In a Jupyter kernel nothing is set: a reload of
    JupyterLab keeps the kernel, and its widgets, anyway."""
    global _session_storage
    _session_storage = storage


def session_storage() -> Optional[dict]:
    """The current browser session's dict (:func:`set_session_storage`), or ``None``."""
    return _session_storage()


def page_card_size() -> CardSizeSetting:
    """The current page's card size: :data:`CARD_SIZE` in a Jupyter kernel, the page's own under
    :func:`set_page_storage`."""
    storage = _page_storage()
    if storage is None:
        return CARD_SIZE
    return storage.setdefault("aluette.card_size", CardSizeSetting())

#: Printed output wraps at spaces, not inside words: JupyterLab's (and Solara's copy of its) style for a cell's printed
#: text is ``word-break: break-all``, which cut "Bruno" into "B" and "runo" at the box's edge. A word longer than the
#: whole line still breaks (``overflow-wrap``), so nothing is cut off. In every card view's style sheet
#: (:func:`card_style`), so JupyterLab and Voilà pages with a card view get it, and in the classroom app's own CSS.
WRAP_CSS = """
body .jp-OutputArea-output pre, body .widget-html-content pre { word-break: normal; overflow-wrap: break-word; }
"""

# The card buttons of a seat's hand ignore the pointer for their first 0.4 s in the page (aluette-arming), and again for
# 0.4 s whenever the hand's cards may move (seat_table.SeatTable._rearm switches the hand's box between two classes,
# and aluette-rearming, a copy under another name, starts the pause anew): at each action of the seat's player but
# choosing discards (its message above the hand can grow, a question's row go) and when the stock's cards come in.
# A slot whose card changes gets a new button (seat_table.HandCard); a slot whose card was played is hidden and the
# cards after it close up, each under the pointer where its left neighbour was. On a fast page that happens within
# 20 ms of the click, before the second click of a double click (seen in a browser test with a cached page: the
# second press played the next card). No one clicks a card on purpose within 0.4 s of their own last click or of new
# cards, so the pause never meets a deliberate click; the kernel already ignores a click on a button replaced since,
# and the keyboard is not concerned.
# The focus ring is drawn for :focus-visible only (the keyboard's focus): after a click or a tap, a card given the
# focus (seat_table moves it to the card in the place of yours) would otherwise wear a ring like the chosen mark.
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
.aluette-cardbtn > button.aluette-card-button:focus-visible { outline: 4px solid #0b57d0; outline-offset: 2px; }
.aluette-cardbtn > button.aluette-card-button:focus:not(:focus-visible) { outline: none; }
.aluette-cardbtn.aluette-card-selected .aluette-card-picture svg { outline: 4px solid #0b57d0; border-radius: 6px;
  transform: translateY(-6px); }
.aluette-cardbtn.aluette-card-selected::after { content: "✓"; position: absolute; top: -4px; right: -2px;
  width: 22px; height: 22px; line-height: 22px; text-align: center; border-radius: 50%; background: #0b57d0;
  color: #ffffff; font-weight: bold; z-index: 2; pointer-events: none; }
.aluette-cardbtn.aluette-card-hint .aluette-card-picture svg { outline: 4px dashed #8a4b00; border-radius: 6px; }
.aluette-sized svg.aluette-card:not(.aluette-card-picture *), .aluette-sized svg.aluette-back {
  zoom: var(--aluette-card-scale, 1); }
.aluette-card-pairs > button.aluette-card-button { width: var(--aluette-card-w, 72px);
  height: calc(var(--aluette-card-w, 72px) * 1.5); margin: 6px 3px; padding: 0; position: relative; z-index: 1;
  background: transparent !important; border: none; box-shadow: none; border-radius: 6px; cursor: pointer;
  text-indent: -9999px; overflow: hidden; white-space: nowrap; }
.aluette-card-pairs > button.aluette-card-button:hover { background: rgba(11, 87, 208, 0.10) !important; }
@keyframes aluette-arming { from, to { pointer-events: none; } }
@keyframes aluette-rearming { from, to { pointer-events: none; } }
.aluette-card-pairs > button.aluette-card-button { animation: aluette-arming 0.4s; }
.aluette-card-pairs.aluette-hand-moved > button.aluette-card-button { animation-name: aluette-rearming; }
.aluette-card-pairs > button.aluette-card-button:focus-visible { outline: 4px solid #0b57d0; outline-offset: 2px; }
.aluette-card-pairs > button.aluette-card-button:focus:not(:focus-visible) { outline: none; }
.jupyter-widgets.aluette-card-pairs > .aluette-card-picture { position: relative; pointer-events: none;
  margin: 6px 3px 6px calc(-3px - var(--aluette-card-w, 72px)); }
.aluette-card-pairs > .aluette-card-picture svg { display: block; width: var(--aluette-card-w, 72px);
  height: calc(var(--aluette-card-w, 72px) * 1.5); }
.aluette-card-pairs > .aluette-card-picture.aluette-card-selected svg { outline: 4px solid #0b57d0;
  border-radius: 6px; transform: translateY(-6px); }
.aluette-card-pairs > .aluette-card-picture.aluette-card-selected::after { content: "✓"; position: absolute;
  top: -4px; right: -2px; width: 22px; height: 22px; line-height: 22px; text-align: center; border-radius: 50%;
  background: #0b57d0; color: #ffffff; font-weight: bold; z-index: 2; pointer-events: none; }
.aluette-card-pairs > .aluette-card-picture.aluette-card-hint svg { outline: 4px dashed #8a4b00; border-radius: 6px; }
"""


def card_style(css: str = "", **kwargs) -> w.HTML:
    """The style sheet of the card controls, as a (visually empty) HTML widget to put in a view: the picture-button
    layering (a :class:`CardButton`'s box, or a box of class ``aluette-card-pairs`` whose children are buttons each
    followed by its picture, drawn under it), the visible focus ring, the selected and hint marks, and ``--aluette-card-w`` from :data:`CARD_SIZE`
    (the widget follows it). Card pictures inside a view with class ``aluette-sized`` (tables, tricks) are zoomed by
    ``--aluette-card-scale``, the chosen width over the normal one. ``css``: the view's own rules, added to the sheet
    (one widget for both); ``kwargs`` go to the HTML widget (a shared ``layout`` and ``style``)."""
    sheet = styled(w.HTML(**kwargs), "aluette-card-style")
    setting = page_card_size()

    def update(change=None):
        if change is not None and sheet.comm is None:  # closed: stop following
            setting.unobserve(update, names="size")
            return
        scale = setting.width / CARD_SIZES["normal"][1]
        sheet.value = (f"<style>:root {{ --aluette-card-w: {setting.width}px; --aluette-card-scale: {scale:.3f}; }}"
                       f"{WRAP_CSS}{_CARD_CSS}{css}</style>")

    update()
    setting.observe(update, names="size")
    return sheet


def card_size_control(**kwargs) -> w.ToggleButtons:
    """The card-size choice (class ``aluette-card-size``), linked to :data:`CARD_SIZE`: every card on the page
    follows it. ``kwargs`` go to the widget (a view's shared ``layout``)."""
    control = styled(w.ToggleButtons(options=[(_(label), key) for key, (label, px) in CARD_SIZES.items()],
                                     value=page_card_size().size, description=_("Card size"),
                                     tooltips=[_("cards {px} pixels wide").format(px=px)
                                               for label, px in CARD_SIZES.values()],
                                     style={"button_width": "auto"}, **kwargs), "aluette-card-size")
    traitlets.link((control, "value"), (page_card_size(), "size"))
    return control


#: The card pictures offered by :func:`card_deck_control`: key (a deck of :data:`aluette.pictures.DECKS`) → label.
#: The French-suited pictures are for a table that plays with an ordinary 52-card deck without its 10s (coins =
#: diamonds, cups = hearts, batons = clubs, swords = spades: catsatcards, loisirs.savoir.fr, jeuxloisirs, « Monsieur :
#: Trois de Carreau »; README's table of variants). Only the pictures and the cards' names change, never the game.
CARD_DECKS = {"spanish": N_("Spanish suits"), "french": N_("French suits (ordinary deck)")}
assert tuple(CARD_DECKS) == DECKS


class CardDeckSetting(traitlets.HasTraits):
    """Which deck every card picture of the page is drawn from (one per page: :func:`page_card_deck`), as
    :class:`CardSizeSetting` for the size: :func:`card_deck_control` is linked to it; the views that draw cards
    follow it (:func:`follow_card_deck`). A display setting only: the cards, the moves and the game are the same."""

    deck = traitlets.Unicode("spanish")

    @traitlets.validate("deck")
    def _check(self, proposal):
        return check_choice(proposal["value"], CARD_DECKS, "card pictures")


#: The page's card pictures in a Jupyter kernel (one page per kernel), as :data:`CARD_SIZE`.
CARD_DECK = CardDeckSetting()


def page_card_deck() -> CardDeckSetting:
    """The current page's card pictures: :data:`CARD_DECK` in a Jupyter kernel, the page's own under
    :func:`set_page_storage` (one student's choice is not every student's)."""
    storage = _page_storage()
    if storage is None:
        return CARD_DECK
    return storage.setdefault("aluette.card_deck", CardDeckSetting())


def follow_card_deck(view: w.Widget, render: Callable[[], object]) -> None:
    """Call ``render()`` whenever the page's card pictures change (:func:`card_deck_control`), until ``view`` is
    closed (its first change after that stops following)."""
    setting = page_card_deck()

    def changed(change):
        if view.comm is None:
            setting.unobserve(changed, names="deck")
            return
        render()

    setting.observe(changed, names="deck")


def card_deck_control(**kwargs) -> w.ToggleButtons:
    """The choice of card pictures (class ``aluette-card-deck``), beside the card size: the Spanish-suited deck
    (the default) or an ordinary French-suited deck (:data:`CARD_DECKS`); linked to the page's setting
    (:func:`page_card_deck`), so every card on the page follows it. ``kwargs`` go to the widget (a view's shared
    ``layout``, the card size control's ``style``)."""
    control = styled(w.ToggleButtons(options=[(_(label), key) for key, label in CARD_DECKS.items()],
                                     value=page_card_deck().deck, description=_("Cards"),
                                     tooltips=[_("the Spanish-suited deck Aluette is played with"),
                                               _("an ordinary deck without its 10s: coins are diamonds, cups hearts, "
                                                 "batons clubs, swords spades")],
                                     **{"style": {"button_width": "auto"}, **kwargs}), "aluette-card-deck")
    traitlets.link((control, "value"), (page_card_deck(), "deck"))
    return control


class CardControl:
    """What a card control does, for a class with ``picture`` (an HTML widget), ``button``, ``parts``
    (:class:`CardParts`), ``card``, ``_last`` and ``_on_click``, whose ``_marked()`` widget carries the marks'
    classes and whose ``_place(layout)`` shows or hides it: :class:`CardButton`, and notebook 08's hand
    (:class:`aluette.widgets.match.HandCard`)."""

    def click(self) -> None:
        """What a click on the picture does: ``on_click(card)``."""
        if self._last is not None:
            self._on_click(self._last)

    def show(self, card: Card, action: str, selected: bool = False, hint: bool = False) -> None:
        """Show ``card``; a click will ``action`` (said in the accessible name); ``selected`` and ``hint`` mark it."""
        deck = (page_card_deck().deck, language())
        if card is not self.card or deck != getattr(self, "_deck", None):
            self.card = self._last = card
            self._deck = deck
            self.picture.value = f'<div aria-hidden="true">{card_face(card, deck[0])}</div>'
        # TRANSLATORS: a card button's accessible name: the card's words, then what a click does
        name = _("{card}: {action}").format(card=card_words(card, deck[0]), action=action) + (
            _(" (chosen)") if selected else "")
        with self.button.hold_sync():
            self.button.description = self.button.tooltip = name
        marked = self._marked()
        for flag, css in ((selected, "aluette-card-selected"), (hint, "aluette-card-hint")):
            (marked.add_class if flag else marked.remove_class)(css)
        self._place(self.parts.layout)

    def hide(self) -> None:
        """Hide the control and forget its card (no trait names it any more)."""
        self.card = None
        self.picture.value = ""
        with self.button.hold_sync():  # " ": ipywidgets 8 leaves the old text on the page for an empty description
            self.button.description, self.button.tooltip = " ", ""
        self._marked().remove_class("aluette-card-selected")
        self._marked().remove_class("aluette-card-hint")
        self._place(self.parts.hidden_layout)

    @property
    def label(self) -> str:
        """The accessible name (the button's tooltip)."""
        return self.button.tooltip


class CardButton(CardControl, w.Box):
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
        parts: the layouts and styles shared with the view's other card controls (:class:`CardParts`).
        card, action: show ``card`` at once (:meth:`show`); without a card the control starts hidden.
    """

    def __init__(self, on_click: Callable[[Card], object], css: str = "aluette-card", parts: "CardParts | None" = None,
                 card: Optional[Card] = None, action: str = ""):
        self._own_parts = parts is None
        self.parts = CardParts() if parts is None else parts
        self.picture = styled(w.HTML(layout=self.parts.layout, style=self.parts.picture_style), "aluette-card-picture")
        self.button = styled(w.Button(description="", tooltip="", layout=self.parts.layout,
                                      style=self.parts.button_style), "aluette-card-button", f"{css}-button")
        super().__init__([self.picture, self.button],
                         layout=self.parts.hidden_layout if card is None else self.parts.layout)
        styled(self, "aluette-cardbtn", css)
        self.card: Optional[Card] = None
        self._last: Optional[Card] = None  # kernel side only (a plain attribute, not a trait)
        self._on_click = on_click
        self.button.on_click(lambda _: self.click())
        if card is not None:
            self.show(card, action)

    def _marked(self) -> w.DOMWidget:
        return self

    def _place(self, layout: w.Layout) -> None:
        self.layout = layout

    def close(self) -> None:
        """Close the control with its picture and button (their models, and the card, leave the browser), and its
        :class:`CardParts` unless a view gave them (the view closes those)."""
        for part in (getattr(self, "picture", None), getattr(self, "button", None)):  # also from __del__
            if part is not None:
                part.close()
        if getattr(self, "_own_parts", False):
            self.parts.close()
        super().close()


class CardParts:
    """What :class:`CardButton` s may share, never changed after they are made: the layout of a shown control and
    of its picture and button (the default one), the layout of a hidden control (``display: none``: showing or
    hiding a control swaps its box's layout; made when a control is first hidden), and the picture's and the
    button's styles. A view with many card controls makes one ``CardParts`` and gives it to each
    (``CardButton(..., parts=...)``): each control is then three widgets instead of eight, which the browser gets
    sooner. A view may give its own default layout and styles (``layout``, ``picture_style``, ``button_style``),
    if it never changes them either. They hold no card; the view closes them with itself (:meth:`close`)."""

    def __init__(self, layout: Optional[w.Layout] = None, picture_style: Optional[HTMLStyle] = None,
                 button_style: Optional[w.ButtonStyle] = None):
        self.layout = w.Layout() if layout is None else layout
        self._hidden_layout: Optional[w.Layout] = None
        self.picture_style = HTMLStyle() if picture_style is None else picture_style
        self.button_style = w.ButtonStyle() if button_style is None else button_style

    @property
    def hidden_layout(self) -> w.Layout:
        """The layout of a hidden control (``display: none``), made the first time it is asked for."""
        if self._hidden_layout is None:
            self._hidden_layout = w.Layout(display="none")
        return self._hidden_layout

    def close(self) -> None:
        for part in (self.layout, self._hidden_layout, self.picture_style, self.button_style):
            if part is not None:
                part.close()


_FACES: dict = {}


def card_face(card: Card, deck: Optional[str] = None) -> str:
    """The card's picture for a card control, drawn from ``deck`` (default: the page's, :func:`page_card_deck`;
    computed once per card and deck; sized by the style sheet)."""
    deck = page_card_deck().deck if deck is None else deck
    key = (card, deck, language())  # the picture's title names the card in the page's language
    if key not in _FACES:
        _FACES[key] = card_svg(card, 72, deck)
    return _FACES[key]


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
