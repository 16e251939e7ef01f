"""Errors raised by :mod:`aluette`.

Every error is a :class:`ValueError` subclass, so ``except ValueError`` catches them all, and each message names the
bad input. Two families are kept apart, as in python-chess: *syntax* (the text is not a card, not a seat, not pagat
notation, not a saved deal) and *rules* (a real card or move that is illegal in this position). When an error is
raised by a state (a :class:`~aluette.deal.Deal` or :class:`~aluette.match.Match`), the state is left exactly as it
was before the call.
"""

from __future__ import annotations

__all__ = ["AluetteError", "UnknownCardError", "DuplicateCardError", "UnknownSeatError", "DuplicateSeatError",
           "BadSeedError", "InputTooLongError", "NotationError", "MalformedSaveError", "IllegalMoveError",
           "NotYourTurnError", "NotYourSeatError", "WrongPhaseError", "DealOverError", "CardNotInHandError",
           "BadDiscardError", "BadSignalError", "StoreError", "BadDatabaseError", "TableError", "NoSuchTableError",
           "TableClosedError", "SeatTakenError", "BadSeatCodeError", "TableNotReadyError", "StaleStateError", "quoted"]

#: How many characters of a bad input an error message quotes at most.
QUOTE_LIMIT = 40


def quoted(value, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters with the input's length named, so that an error message
    about a pasted megabyte stays one readable line (quality bar: quote at most a short prefix). For text, linear in
    the part quoted, not in the input."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"a whole number of about {int(value.bit_length() * 0.30103) + 1} digits"  # repr may refuse it
    if isinstance(value, (list, tuple, dict, set, frozenset)) and len(value) > limit:
        return f"a {type(value).__name__} of {len(value)} items"  # repr would walk every item
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


class AluetteError(ValueError):
    """Base class of every error this package raises."""


class UnknownCardError(AluetteError):
    """A text or value that names no card of the 48-card Spanish deck."""


class DuplicateCardError(AluetteError):
    """A card given twice where each card can be only once (a hand, a deck, an ordering answer, a trick)."""


class UnknownSeatError(AluetteError):
    """A text or value that names no seat (N, E, S, W)."""


class DuplicateSeatError(AluetteError):
    """A seat given twice in one mapping (``"N"`` and ``"north"``): which one was meant is ambiguous."""


class BadSeedError(AluetteError):
    """A seed that is not a whole number from 0 to 2**64 - 1 (nor a numpy ``Generator`` where one is accepted)."""


class InputTooLongError(AluetteError):
    """A text longer than its box takes (a pasted page where a few cards or a seed were expected): refused before
    it is read, so no check ever runs over a megabyte of input."""


class NotationError(AluetteError):
    """A deal written in pagat's notation that is not nine letters from ``NESWX``."""


class MalformedSaveError(AluetteError):
    """A saved deal or match (JSON) that is malformed, inconsistent or tampered with."""


class IllegalMoveError(AluetteError):
    """A move the rules forbid in the current position.

    Attributes:
        seat: the seat that tried the move, or ``None`` when unknown.
        move: the move (or a description of it) that was refused.
    """

    def __init__(self, message: str, *, seat=None, move=None):
        super().__init__(message)
        self.seat = seat
        self.move = move


class NotYourTurnError(IllegalMoveError):
    """A seat tried to move while it is another seat's turn."""


class NotYourSeatError(IllegalMoveError):
    """A move sent for a seat its sender does not play (a bot's seat, or another person's), in a
    :class:`~aluette.session.MatchSession`."""


class WrongPhaseError(IllegalMoveError):
    """A move of a kind the deal does not accept now (a play during the chant, a chant answer during play...)."""


class DealOverError(WrongPhaseError):
    """A move after the ninth trick (or after a surrender was accepted)."""


class CardNotInHandError(IllegalMoveError):
    """A seat tried to play, discard or signal a card it does not hold."""


class BadDiscardError(IllegalMoveError):
    """A chant discard that is not exactly six distinct cards held by the discarding seat."""


class BadSignalError(IllegalMoveError):
    """A signal that is unknown, repeated, or claims a card the signalling seat does not hold."""


class StoreError(AluetteError):
    """A problem with the database that holds shared tables (:mod:`aluette.store`): it cannot be reached, or a
    logged move no longer replays."""


class BadDatabaseError(StoreError):
    """A database file or schema that is not this application's, is damaged, or was written by a newer aluette:
    refused when it is opened, before anything in it is read or written."""


class TableError(AluetteError):
    """A request to a shared table (:mod:`aluette.store`) that the table refuses: a bad table or player name, a
    seat that is held, a wrong seat code, a closed table."""


class NoSuchTableError(TableError):
    """No table of that name (nor a seat of that table) exists."""


class TableClosedError(TableError):
    """The teacher closed the table: it takes no seat and no move."""


class SeatTakenError(TableError):
    """The seat is already held by a player or a bot."""


class BadSeatCodeError(TableError):
    """A seat code that is not the code of that seat (or of any seat of the table)."""


class TableNotReadyError(TableError):
    """A move at a table whose four seats are not all held yet (by players or bots)."""


class StaleStateError(TableError):
    """A move made on a state of the table that has changed since (another device of the same seat, or a late
    click): look at the table again."""
