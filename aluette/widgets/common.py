"""Helpers shared by the widget views: friendly error messages and card pictures in HTML widgets."""

from __future__ import annotations

import functools
from html import escape
from typing import Callable

import ipywidgets as w

from ..cards import Card
from ..errors import AluetteError

__all__ = ["MessageArea", "friendly", "card_label", "MAX_SEED", "check_seed", "next_seed", "check_choice",
           "close_widgets"]

#: The largest seed a seed box holds (the boxes are ``BoundedIntText(min=0, max=MAX_SEED)``).
MAX_SEED = 2 ** 32 - 1


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
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise AluetteError(f"a seed is a whole number from 0 to {MAX_SEED}, got {seed!r}")
    return seed


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
