"""Helpers shared by the widget views: friendly error messages and card pictures in HTML widgets."""

from __future__ import annotations

import functools
from html import escape
from typing import Callable

import ipywidgets as w

from ..cards import Card
from ..errors import AluetteError

__all__ = ["MessageArea", "friendly", "card_label"]


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
