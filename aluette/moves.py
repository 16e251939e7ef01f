"""Moves: everything a seat can do in a deal, as small frozen values that read and write JSON.

Each move names its seat. ``str(move)`` is a short sentence (``"E plays 3O"``); ``move.to_json()`` is a list such
as ``["play", "E", "3O"]`` that :func:`move_from_json` reads back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .cards import Card, parse_cards
from .errors import AluetteError, IllegalMoveError, MalformedSaveError
from .seats import Seat

__all__ = ["Move", "ChantAnswer", "Discard", "SurrenderOffer", "SurrenderAnswer", "Play", "Signal",
           "MordienneAnnouncement", "move_from_json", "checked_move"]


@dataclass(frozen=True)
class Move:
    """Base class: a move by ``seat``."""

    seat: Seat

    def to_json(self) -> list:
        raise NotImplementedError


@dataclass(frozen=True)
class ChantAnswer(Move):
    """``seat`` agrees (``agree=True``) or declines to chant. Source: seeds, "setup"; all four must agree."""

    agree: bool

    def __str__(self) -> str:
        return f"{self.seat} {'agrees to' if self.agree else 'declines'} the chant"

    def to_json(self) -> list:
        return ["chant", str(self.seat), self.agree]


@dataclass(frozen=True)
class Discard(Move):
    """``seat`` discards six cards face down after receiving six from the stock in the chant."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.seat} discards six cards"

    def to_json(self) -> list:
        return ["discard", str(self.seat), " ".join(map(str, self.cards))]


@dataclass(frozen=True)
class SurrenderOffer(Move):
    """``seat`` offers (``offer=True``) or does not offer its partnership's surrender (pagat.com, optional)."""

    offer: bool

    def __str__(self) -> str:
        return f"{self.seat} {'offers to surrender' if self.offer else 'does not surrender'}"

    def to_json(self) -> list:
        return ["surrender", str(self.seat), self.offer]


@dataclass(frozen=True)
class SurrenderAnswer(Move):
    """``seat`` accepts or refuses the other partnership's offer to surrender."""

    accept: bool

    def __str__(self) -> str:
        return f"{self.seat} {'accepts' if self.accept else 'refuses'} the surrender"

    def to_json(self) -> list:
        return ["answer", str(self.seat), self.accept]


@dataclass(frozen=True)
class MordienneAnnouncement(Move):
    """``seat`` announces (``announce=True``) or does not announce mordienne before the first trick: pagat.com's
    Rebour variant (:class:`~aluette.options.Rebour`)."""

    announce: bool

    def __str__(self) -> str:
        return f"{self.seat} {'announces' if self.announce else 'does not announce'} mordienne"

    def to_json(self) -> list:
        return ["announce", str(self.seat), self.announce]


@dataclass(frozen=True)
class Play(Move):
    """``seat`` plays ``card`` to the current trick."""

    card: Card

    def __str__(self) -> str:
        return f"{self.seat} plays {self.card}"

    def to_json(self) -> list:
        return ["play", str(self.seat), str(self.card)]


@dataclass(frozen=True)
class Signal(Move):
    """``seat`` makes a signal of :data:`~aluette.signals.SIGNALS` (by key) that only its partner sees."""

    key: str

    def __str__(self) -> str:
        return f"{self.seat} signals {self.key}"

    def to_json(self) -> list:
        return ["signal", str(self.seat), self.key]


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise MalformedSaveError(f"{where}: expected true or false, got {value!r}")
    return value


def move_from_json(data: Any, where: str = "move") -> Move:
    """Read a move written by ``Move.to_json()``.

    Raises:
        MalformedSaveError: not a ``[kind, seat, value]`` list, an unknown kind, seat or card (named in the message).
    """
    if not isinstance(data, list) or len(data) != 3 or not isinstance(data[0], str):
        raise MalformedSaveError(f"{where}: expected [kind, seat, value], got {data!r}")
    kind, seat_text, value = data
    try:
        seat = Seat.parse(seat_text)
        if kind == "chant":
            return ChantAnswer(seat, _bool(value, where))
        if kind == "surrender":
            return SurrenderOffer(seat, _bool(value, where))
        if kind == "answer":
            return SurrenderAnswer(seat, _bool(value, where))
        if kind == "announce":
            return MordienneAnnouncement(seat, _bool(value, where))
        if kind == "play":
            return Play(seat, Card.parse(value))
        if kind == "discard":
            if not isinstance(value, str):
                raise MalformedSaveError(f"{where}: discard cards must be a string of codes, got {value!r}")
            return Discard(seat, parse_cards(value))
        if kind == "signal":
            if not isinstance(value, str):
                raise MalformedSaveError(f"{where}: a signal key must be a string, got {value!r}")
            return Signal(seat, value)
    except MalformedSaveError:
        raise
    except AluetteError as error:
        raise MalformedSaveError(f"{where}: {error}") from None
    raise MalformedSaveError(f"{where}: unknown move kind {kind!r} (expected chant, discard, surrender, answer, "
                             f"announce, play or signal)")


_ANSWER_FIELD = {ChantAnswer: "agree", SurrenderOffer: "offer", SurrenderAnswer: "accept",
                 MordienneAnnouncement: "announce"}


def checked_move(move: Any) -> Move:
    """``move`` with its seat read by :meth:`Seat.parse` and its card(s) by :meth:`Card.parse`, so that
    ``Play("E", "3O")`` is ``Play(Seat.E, Card.parse("3O"))``; checked for types before any rule is looked at.

    Raises:
        AluetteError: not an instance of one of the six move classes.
        UnknownSeatError / UnknownCardError: the seat or a card is not one.
        IllegalMoveError: a chant or surrender answer that is not ``True`` or ``False``.
    """
    kind = type(move)
    if kind not in (ChantAnswer, Discard, SurrenderOffer, SurrenderAnswer, MordienneAnnouncement, Play, Signal):
        raise AluetteError(f"not a move: {move!r} (expected a ChantAnswer, Discard, SurrenderOffer, "
                           f"SurrenderAnswer, MordienneAnnouncement, Play or Signal)")
    seat = Seat.parse(move.seat)
    if kind is Play:
        card = Card.parse(move.card)
        return move if seat is move.seat and card is move.card else Play(seat, card)
    if kind is Discard:
        return Discard(seat, parse_cards(move.cards))
    if kind is Signal:
        return move if seat is move.seat else Signal(seat, move.key)
    value = getattr(move, _ANSWER_FIELD[kind])
    if not isinstance(value, bool):
        raise IllegalMoveError(f"{seat}: a {kind.__name__} is True or False, got {value!r}", seat=seat, move=move)
    return move if seat is move.seat else kind(seat, value)


MoveLike = Union[Move, list]
