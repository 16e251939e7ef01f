"""Helpers shared by the widget views: friendly error messages and card pictures in HTML widgets."""

from __future__ import annotations

import functools
from html import escape
from typing import Callable, Optional

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
