"""Seats, direction of play and partnerships.

Rule source: pagat.com's Aluette page and the rules sheet's "gameplay" section: play, the deal and the turn to deal
all go clockwise. With seats N, E, S, W that is N→E→S→W, so the player to a seat's *left* is the next seat (left of N
is E) and to its *right* the previous one (right of N is W). Partners sit opposite (the rules sheet, "setup": "partners
sit opposite each other"): N–S against E–W.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Mapping
from typing import Any, TypeVar

from .errors import DuplicateSeatError, UnknownSeatError, quoted
from .i18n import N_, _

V = TypeVar("V")

__all__ = ["Seat", "Team", "SEATS", "may_see"]

#: The longest text a seat's name is read from (a seat's name and the spaces around it); anything longer is no seat.
_LONGEST = 40
#: What :meth:`Seat.parse` reads, upper case: the letters, the English names, the French names and the letter of
#: « Ouest », as a French player types them.
_NAMES = {"N": "N", "E": "E", "S": "S", "W": "W", "NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W",
          "NORD": "N", "EST": "E", "SUD": "S", "OUEST": "W", "O": "W"}
#: The words :meth:`Seat.parse_mapping`'s callers name a value with, in the page's language.
_WHATS = {"value": N_("value"), "card": N_("card"), "hand": N_("hand"), "name": N_("name"), "player": N_("player"),
          "bot": N_("bot")}


def _what(what: str) -> str:
    return _(_WHATS.get(what, what))


class Seat(str, enum.Enum):
    """A seat at the table. Compares equal to its letter (``Seat.N == "N"``)."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Seat.{self.value}"

    @property
    def left(self) -> "Seat":
        """The next seat clockwise: the player to this seat's left plays after it."""
        return _LEFT[self]

    @property
    def right(self) -> "Seat":
        """The previous seat clockwise: the player to this seat's right (the dealer's right cuts)."""
        return _RIGHT[self]

    @property
    def partner(self) -> "Seat":
        """The seat opposite: N–S and E–W are partners."""
        return _LEFT[_LEFT[self]]

    @property
    def team(self) -> "Team":
        """The partnership of this seat."""
        return Team.NS if self in (Seat.N, Seat.S) else Team.EW

    @property
    def full_name(self) -> str:
        """``"North"``, ``"East"``, ``"South"`` or ``"West"``."""
        return {"N": "North", "E": "East", "S": "South", "W": "West"}[self.value]

    def clockwise_from(self) -> tuple["Seat", "Seat", "Seat", "Seat"]:
        """The four seats in play order starting with this one."""
        return (self, self.left, self.left.left, self.right)

    @classmethod
    def parse(cls, text) -> "Seat":
        """Read a seat: a :class:`Seat`, ``"N"``/``"e"``..., or ``"north"``/``"East"``..., or a French seat name
        (« Nord », « Est », « Sud », « Ouest », and its letter « O »: the French edition's players type them).

        Raises:
            UnknownSeatError: anything else (the message quotes it).
        """
        if isinstance(text, Seat):
            return text
        if isinstance(text, str):
            key = unicodedata.normalize("NFKC", text).strip().upper() if len(text) <= _LONGEST else ""
            if key in _NAMES:
                return Seat(_NAMES[key])
        raise UnknownSeatError(_("unknown seat {text}: expected N, E, S or W (or North, East, South, West)").format(
            text=quoted(text)))

    @classmethod
    def parse_mapping(cls, mapping: Any, what: str = "value", *, all_four: bool = False) -> "dict[Seat, Any]":
        """Read a seat-keyed mapping (``{"N": ..., "east": ...}``) into ``{Seat: value}``, in the given order: the
        one place where every API that takes one per seat (hands, players, bots, cards of a trick) reads its keys.

        ``what`` names a value in messages (``"card"``, ``"player"``); ``all_four`` requires the four seats.

        Raises:
            UnknownSeatError: ``mapping`` is not a mapping, or a key is not a seat.
            DuplicateSeatError: one seat given twice (``"N"`` and ``"north"``): which value was meant is ambiguous.
            UnknownSeatError: ``all_four`` and a seat is missing.
        """
        if not isinstance(mapping, Mapping):
            raise UnknownSeatError(_("expected a mapping from seats to {what}s, got {value}").format(
                what=_what(what), value=quoted(mapping)))
        parsed: dict[Seat, Any] = {}
        keys: dict[Seat, Any] = {}
        for key, value in mapping.items():
            seat = cls.parse(key)
            if seat in parsed:
                from .card_names import seat_name  # here: card_names imports this module
                raise DuplicateSeatError(_("{seat} is given twice (as {first} and {second}, both {name}): give one "
                                           "{what} per seat").format(seat=seat, first=quoted(keys[seat]),
                                                                    second=quoted(key), name=seat_name(seat),
                                                                    what=_what(what)))
            parsed[seat], keys[seat] = value, key
        if all_four and len(parsed) != 4:
            missing = [seat.value for seat in SEATS if seat not in parsed]
            raise UnknownSeatError(_("a {what} is needed for every seat; missing: {seats}").format(
                what=_what(what), seats=", ".join(missing)))
        return parsed


#: The seats in clockwise order starting at North.
SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
_LEFT = {SEATS[i]: SEATS[(i + 1) % 4] for i in range(4)}
_RIGHT = {SEATS[i]: SEATS[(i - 1) % 4] for i in range(4)}


class Team(str, enum.Enum):
    """A partnership. Compares equal to its letters (``Team.NS == "NS"``)."""

    NS = "NS"
    EW = "EW"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Team.{self.value}"

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of the partnership."""
        return (Seat.N, Seat.S) if self is Team.NS else (Seat.E, Seat.W)

    @property
    def other(self) -> "Team":
        """The opposing partnership."""
        return Team.EW if self is Team.NS else Team.NS


def may_see(viewer: "Seat | None", owner: Seat) -> bool:
    """Whether ``viewer`` may see what only ``owner`` holds: its hand, the stock cards it received, its discards.
    ``viewer=None`` is the omniscient look, for teaching. The one rule of what a seat's view shows of another seat's
    hidden cards (:meth:`aluette.deal.Deal.view`, :func:`aluette.narration.deal_events`); signals have their own
    rule, :func:`aluette.signals.seen_by`.

    >>> may_see(Seat.N, Seat.N), may_see(Seat.S, Seat.N), may_see(None, Seat.N)
    (True, False, True)
    """
    return viewer is None or viewer is owner
