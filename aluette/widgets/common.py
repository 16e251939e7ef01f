"""Helpers shared by the widget views: friendly error messages and card pictures in HTML widgets."""

from __future__ import annotations

import functools
from html import escape
from typing import Callable, Optional

import ipywidgets as w

from ..cards import Card
from ..chance import check_seed as _engine_check_seed
from ..errors import AluetteError, BadSeedError, InputTooLongError, quoted

__all__ = ["MessageArea", "friendly", "card_label", "MAX_SEED", "check_seed", "seed_from_text", "next_seed",
           "check_choice", "close_widgets", "limited_text", "SHORT_TEXT", "CARDS_TEXT", "SAVE_TEXT"]

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
