"""Moves: everything a seat can do in a deal, as small frozen values that read and write JSON.

Each move names its seat. ``str(move)`` is a short sentence (``"E plays 3O"``); ``move.to_json()`` is a list such
as ``["play", "E", "3O"]`` that :func:`move_from_json` reads back.

A move normalises its fields when it is made: ``Play("E", "3O") == Play(Seat.E, Card.parse("3O"))``, so a move
written by hand is found in :meth:`Deal.legal_moves <aluette.deal.Deal.legal_moves>`; a field that cannot be read
raises at once (:class:`~aluette.errors.UnknownSeatError`, :class:`~aluette.errors.UnknownCardError`, ...).

Every kind of move is described once, in the registry :data:`MOVE_KINDS` (its JSON name, its class, its value field
and how that field is read and written). The JSON reader, the field check and the deal's dispatch all read it: a new
kind of move is one :func:`register_move_kind` call plus the deal's two methods ``_check_<name>`` (raises, changes
nothing) and ``_do_<name>`` (changes the state).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from .cards import Card, parse_cards
from .errors import AluetteError, BadSignalError, IllegalMoveError, MalformedSaveError, quoted
from .i18n import N_, _, ngettext
from .seats import Seat

__all__ = ["move_sentence", "Move", "ChantAnswer", "Discard", "SurrenderOffer", "SurrenderAnswer", "MordienneAnnouncement", "Play",
           "Signal", "MoveKind",
           "MOVE_KINDS", "register_move_kind", "move_kind", "move_from_json", "checked_move"]


@dataclass(frozen=True)
class MoveKind:
    """One kind of move, as the registry :data:`MOVE_KINDS` holds it.

    Attributes:
        name: the name in JSON (``"play"``) and in the deal's handlers ``_check_<name>`` / ``_do_<name>``.
        cls: the :class:`Move` subclass.
        field: the name of its value field (``"card"``).
        read: the value as given -> the canonical value (``"3O"`` -> ``Card``); raises an :class:`AluetteError`.
        to_json: the canonical value -> its JSON form.
        from_json: the JSON form -> the value for ``read``; raises an :class:`AluetteError` for a wrong JSON type.
    """

    name: str
    cls: type
    field: str
    read: Callable[[Any], Any]
    to_json: Callable[[Any], Any]
    from_json: Callable[[Any], Any]


#: The kinds of move by class, in the order they were registered.
MOVE_KINDS: dict[type, MoveKind] = {}
_BY_NAME: dict[str, MoveKind] = {}


def register_move_kind(kind: MoveKind) -> MoveKind:
    """Add a kind of move to :data:`MOVE_KINDS` (its name and class must be new); returns it."""
    if kind.name in _BY_NAME or kind.cls in MOVE_KINDS:
        raise AluetteError(f"the move kind {kind.name!r} ({kind.cls.__name__}) is already registered")
    MOVE_KINDS[kind.cls] = _BY_NAME[kind.name] = kind
    return kind


def move_kind(move: Any) -> MoveKind:
    """The registered kind of ``move``.

    Raises:
        AluetteError: ``move`` is not an instance of a registered move class (the base :class:`Move` is not).
    """
    kind = MOVE_KINDS.get(type(move))
    if kind is None:
        raise AluetteError(_("not a move: {value} (expected one of {kinds})").format(
            value=quoted(move), kinds=", ".join(k.cls.__name__ for k in MOVE_KINDS.values())))
    return kind


@dataclass(frozen=True)
class Move:
    """Base class: a move by ``seat``. Subclasses have one value field, read when the move is made."""

    seat: Seat

    def __post_init__(self):
        kind = move_kind(self)
        if self.seat.__class__ is not Seat:
            object.__setattr__(self, "seat", Seat.parse(self.seat))
        value = getattr(self, kind.field)
        canonical = kind.read(value)
        if canonical is not value:
            object.__setattr__(self, kind.field, canonical)

    @property
    def kind(self) -> MoveKind:
        """This move's entry in :data:`MOVE_KINDS`."""
        return MOVE_KINDS[type(self)]

    def to_json(self) -> list:
        """``[kind name, seat, value]``, read back by :func:`move_from_json`."""
        kind = self.kind
        return [kind.name, str(self.seat), kind.to_json(getattr(self, kind.field))]


def _yes_or_no(what: str) -> Callable[[Any], bool]:
    def read(value: Any) -> bool:
        if value.__class__ is not bool:
            raise IllegalMoveError(_("a {what} is True or False, got {value}").format(what=_(what),
                                                                                    value=quoted(value)), move=value)
        return value
    return read


def _read_cards(cards: Any) -> tuple[Card, ...]:
    """The cards of a discard, in deck order (a discard is a set of cards: their order means nothing, and the deal
    records them so). A card given twice is kept, for the deal to refuse by name."""
    if not (cards.__class__ is tuple and all(c.__class__ is Card for c in cards)):
        cards = parse_cards(cards)
    return tuple(sorted(cards, key=_deck_order))


def _deck_order(card: Card) -> int:
    return card.index


def _read_key(key: Any) -> str:
    if not isinstance(key, str):
        raise BadSignalError(_("a signal key is text such as 'monsieur', got {value}").format(value=quoted(key)),
                             move=key)
    return key


def _text(what: str) -> Callable[[Any], str]:
    def read(value: Any) -> str:
        if not isinstance(value, str):
            raise AluetteError(_("{what} must be a string, got {value}").format(what=_(what), value=quoted(value)))
        return value
    return read


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class ChantAnswer(Move):
    """``seat`` agrees (``agree=True``) or declines to chant. Source: the rules sheet, "setup"; all four must agree."""

    agree: bool

    def __str__(self) -> str:
        return f"{self.seat} {'agrees to' if self.agree else 'declines'} the chant"


@dataclass(frozen=True)
class Discard(Move):
    """``seat`` discards six cards face down after receiving six from the stock in the chant. The cards are kept
    in deck order; a discard of another number of cards can be made, and the deal refuses it."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        count = len(self.cards)
        return f"{self.seat} discards {'six cards' if count == 6 else f'{count} card' + ('s' * (count != 1))}"


@dataclass(frozen=True)
class SurrenderOffer(Move):
    """``seat`` offers (``offer=True``) or does not offer its partnership's surrender (pagat.com, optional)."""

    offer: bool

    def __str__(self) -> str:
        return f"{self.seat} {'offers to surrender' if self.offer else 'does not surrender'}"


@dataclass(frozen=True)
class SurrenderAnswer(Move):
    """``seat`` accepts or refuses the other partnership's offer to surrender."""

    accept: bool

    def __str__(self) -> str:
        return f"{self.seat} {'accepts' if self.accept else 'refuses'} the surrender"


@dataclass(frozen=True)
class MordienneAnnouncement(Move):
    """``seat`` announces (``announce=True``) or does not announce mordienne before the first trick: an announced
    mordienne, from Guy Rebour's account of the game as pagat.com reports it (and doubts it), not a tradition of the
    table (:class:`~aluette.options.Rebour`)."""

    announce: bool

    def __str__(self) -> str:
        return f"{self.seat} {'announces' if self.announce else 'does not announce'} mordienne"


@dataclass(frozen=True)
class Play(Move):
    """``seat`` plays ``card`` to the current trick."""

    card: Card

    def __post_init__(self):
        # the hot path of bots and simulations: a Seat and a Card need no reading
        if self.seat.__class__ is not Seat or self.card.__class__ is not Card:
            super().__post_init__()

    def __str__(self) -> str:
        return f"{self.seat} plays {self.card}"


@dataclass(frozen=True)
class Signal(Move):
    """``seat`` makes a signal of :data:`~aluette.signals.SIGNALS` (by key) that only its partner sees."""

    key: str

    def __str__(self) -> str:
        return f"{self.seat} signals {self.key}"


register_move_kind(MoveKind("chant", ChantAnswer, "agree", _yes_or_no(N_("chant answer")), _same, _same))
register_move_kind(MoveKind("discard", Discard, "cards", _read_cards, lambda cards: " ".join(map(str, cards)),
                            _text(N_("discard cards (a string of codes)"))))
register_move_kind(MoveKind("surrender", SurrenderOffer, "offer", _yes_or_no(N_("surrender offer")), _same, _same))
register_move_kind(MoveKind("answer", SurrenderAnswer, "accept", _yes_or_no(N_("answer to a surrender")), _same, _same))
register_move_kind(MoveKind("announce", MordienneAnnouncement, "announce", _yes_or_no(N_("mordienne announcement")), _same,
                            _same))
register_move_kind(MoveKind("play", Play, "card", Card.parse, str, _same))
register_move_kind(MoveKind("signal", Signal, "key", _read_key, _same, _text(N_("a signal key"))))


def move_from_json(data: Any, where: str = N_("move")) -> Move:
    """Read a move written by ``Move.to_json()``.

    Raises:
        MalformedSaveError: not a ``[kind, seat, value]`` list, an unknown kind, seat or card (named in the message).
    """
    if not isinstance(data, list) or len(data) != 3 or not isinstance(data[0], str):
        raise MalformedSaveError(_("{where}: expected [kind, seat, value], got {value}").format(
            where=_(where), value=quoted(data)))
    name, seat, value = data
    kind = _BY_NAME.get(name)
    if kind is None:
        raise MalformedSaveError(_("{where}: unknown move kind {name} (expected {kinds})").format(
            where=_(where), name=quoted(name), kinds=", ".join(_BY_NAME)))
    try:
        return kind.cls(seat, kind.from_json(value))
    except AluetteError as error:
        raise MalformedSaveError(_("{where}: {error}").format(where=_(where), error=error)) from None


def move_sentence(move) -> str:
    """A move in words, in the page's language: in English its own ``str`` (``"E agrees to the chant"``, ``"S plays
    9C"``), in French « E accepte le chant », « S joue 9C »."""
    seat = move.seat
    if isinstance(move, Play):
        return _("{seat} plays {card}").format(seat=seat, card=move.card)
    if isinstance(move, ChantAnswer):
        return (_("{seat} agrees to the chant") if move.agree else _("{seat} declines the chant")).format(seat=seat)
    if isinstance(move, Discard):
        count = len(move.cards)
        if count == 6:
            return _("{seat} discards six cards").format(seat=seat)
        return ngettext("{seat} discards {count} card", "{seat} discards {count} cards", count).format(
            seat=seat, count=count)
    if isinstance(move, SurrenderOffer):
        return (_("{seat} offers to surrender") if move.offer else _("{seat} does not surrender")).format(seat=seat)
    if isinstance(move, SurrenderAnswer):
        return (_("{seat} accepts the surrender") if move.accept else _("{seat} refuses the surrender")).format(
            seat=seat)
    if isinstance(move, MordienneAnnouncement):
        return (_("{seat} announces mordienne") if move.announce
                else _("{seat} does not announce mordienne")).format(seat=seat)
    if isinstance(move, Signal):  # as a refusal names it (a signal made is told by narration.signal_sentence)
        from .signals import quoted_name, signal_for  # here: the signals' table is not the moves'
        try:
            words = quoted_name(signal_for(move.key))
        except AluetteError:  # an unknown key, quoted as given
            words = quoted(move.key)
        return _("{seat} signals {signal}").format(seat=seat, signal=words)
    return str(move)  # another kind: its own words


def checked_move(move: Any) -> Move:
    """``move`` if it is a move: its fields were read when it was made.

    Raises:
        AluetteError: not an instance of a registered move class.
    """
    move_kind(move)
    return move


MoveLike = Union[Move, list]
