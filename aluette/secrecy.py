"""The secrecy audit: which cards a seat must not see, and which of them a text names.

Quality bar of this project: a player's view never contains another player's hidden cards, neither in the engine
(:meth:`Deal.view <aluette.deal.Deal.view>`), nor in a widget's state, nor in what a browser receives. The widget
tests audit a widget's state (:func:`aluette.widgets.common.state_text`) and the browser tests audit every frame a
page received (``tests/browser/harness.py``); both ask this module the same two questions: which cards are hidden
from the seat now (:func:`hidden_cards`, from the engine), and which cards a blob of text names
(:func:`cards_named`). :func:`secrecy_problems` puts them together, with a positive control (the seat's own cards
must be there, or the audit looked at the wrong text).

This is kernel-side checking: it reads the full deal, which no screen may ever show.
"""

from __future__ import annotations

import re
from typing import Union

from .cards import DECK, Card
from .deal import Deal
from .seats import SEATS, Seat
from .signals import signal_for

__all__ = ["hidden_cards", "cards_named", "hidden_named", "secrecy_problems"]


def hidden_cards(deal: Deal, seat: Union[Seat, str] = Seat.S) -> frozenset:
    """The cards ``seat`` must not see now, from the engine: every other seat's hand, the stock while it is unused,
    and the other seats' discards; minus the cards its partner's honest signals have named (the signal table lets
    the partner know them: the rules sheet, "signals"). Played cards are public.
    """
    seat = Seat.parse(seat)
    omniscient = deal.view(None, events=False)
    cards = set()
    for other in SEATS:
        if other is not seat:
            cards.update(deal.hands[other])
            cards.update(omniscient.discards.get(other, ()))
    if not omniscient.stock_received:
        cards.update(deal.stock)
    for record in deal.view(seat, events=False).signals:
        card = signal_for(record.key).card
        if record.seat is not seat and card is not None:
            cards.discard(card)
    return frozenset(cards)


_CODES = re.compile(r"(?<![0-9A-Za-z#])((?:1[0-2]|[1-9])[OCBE])(?![0-9A-Za-z])")
_WORDS = {t.lower(): card for card in DECK for t in (card.name, card.nickname) if t}
_NAMES = re.compile("(?<![0-9A-Za-z])(" + "|".join(re.escape(t) for t in sorted(_WORDS, key=len, reverse=True))
                    + ")(?![0-9A-Za-z])", re.IGNORECASE)


def cards_named(text: str) -> frozenset:
    """The cards ``text`` names: by code as a whole word (``3O``, not inside ``13O`` or a colour such as ``#3E...``;
    codes are upper case), by English name or by nickname (any case)."""
    named = {Card.parse(code) for code in _CODES.findall(text)}
    named.update(_WORDS[name.lower()] for name in _NAMES.findall(text))
    return frozenset(named)


def hidden_named(text: str, deal: Deal, seat: Union[Seat, str] = Seat.S) -> list[Card]:
    """The cards hidden from ``seat`` (:func:`hidden_cards`) that ``text`` names, in deck order: empty when all is
    well."""
    return sorted(cards_named(text) & hidden_cards(deal, seat), key=lambda c: c.index)


def secrecy_problems(text: str, deal: Deal, seat: Union[Seat, str] = Seat.S, where: str = "the text") -> list[str]:
    """What is wrong with ``text``, all that ``seat``'s screen received: a hidden card named in it, or a card of
    ``seat``'s own hand missing from it (the positive control). Empty when all is well."""
    named = cards_named(text)
    leaked = sorted(named & hidden_cards(deal, seat), key=lambda c: c.index)
    missing = sorted(set(deal.view(seat, events=False).hand) - named, key=lambda c: c.index)
    return ([f"hidden card {c} ({c.nickname or c.name}) is in {where}" for c in leaked]
            + [f"your card {c} is missing from {where}" for c in missing])
