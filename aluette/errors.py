"""Errors raised by :mod:`aluette`.

Every error is an :class:`AluetteError`, and each message names the problem. Three families, as in python-chess
(``ValueError`` for input and rules, ``RuntimeError`` for operational failures such as its ``EngineError``):

* *input* (:class:`InvalidInputError`, a :class:`ValueError`): the text is not a card, not a seat, not pagat
  notation, not a saved deal, too long, or a request a shared table refuses (:class:`TableError`);
* *rules* (:class:`IllegalMoveError`, a :class:`ValueError`): a real card or move that is illegal in this position;
* *operational* (a :class:`RuntimeError`): the database of the shared tables cannot be reached or holds a log that
  does not replay (:class:`StoreError`), the solver ran out of its budget (:class:`SearchBudgetError`). Not bad
  input: ``except ValueError`` does not catch them.

So ``except ValueError`` means "bad input or an illegal move", and ``except AluetteError`` catches every error of
the package. A bare ``AluetteError(...)`` (the package's older call sites) is an input error: it makes an
:class:`InvalidInputError`. When an error is raised by a state (a :class:`~aluette.deal.Deal` or
:class:`~aluette.match.Match`), the state is left exactly as it was before the call.
"""

from __future__ import annotations

__all__ = ["AluetteError", "InvalidInputError", "UnknownCardError", "DuplicateCardError", "UnknownSeatError", "DuplicateSeatError",
           "BadSeedError", "InputTooLongError", "NotationError", "MalformedSaveError", "IllegalMoveError",
           "NotYourTurnError", "NotYourSeatError", "WrongPhaseError", "DealOverError", "CardNotInHandError",
           "BadDiscardError", "BadSignalError", "StoreError", "LostMovesError", "BadDatabaseError", "TableError",
           "NoSuchTableError", "TableClosedError", "SeatTakenError", "BadSeatCodeError", "SeatStoodInError",
           "TableNotReadyError",
           "StaleStateError", "SeatElsewhereError", "SearchBudgetError", "AnswerError", "quoted"]

#: How many characters of a bad input an error message quotes at most.
QUOTE_LIMIT = 40


def quoted(value, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters with the input's length named, so that an error message
    about a pasted megabyte stays one readable line (quality bar: quote at most a short prefix). For text, linear in
    the part quoted, not in the input. What it adds is in the page's language (:mod:`aluette.i18n`)."""
    from .i18n import _, number  # here: aluette.i18n imports this module
    if isinstance(value, str) and len(value) > limit:
        return _("{start}… ({count} characters)").format(start=repr(value[:limit]), count=number(len(value)))
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        # repr may refuse it
        return _("a whole number of about {digits} digits").format(digits=int(value.bit_length() * 0.30103) + 1)
    if isinstance(value, (list, tuple, dict, set, frozenset)) and len(value) > limit:
        # repr would walk every item
        said = {list: _("a list of {count} items"), tuple: _("a tuple of {count} items"),
                dict: _("a mapping of {count} items")}.get(type(value), _("a collection of {count} items"))
        return said.format(count=number(len(value)))
    text = repr(value)
    if len(text) <= limit:
        return text
    return _("{start}… ({count} characters)").format(start=text[:limit], count=number(len(text)))


class AluetteError(Exception):
    """Base class of every error this package raises. Raised bare, it is an input error (an
    :class:`InvalidInputError`)."""

    def __new__(cls, *args, **kwargs):
        return super().__new__(InvalidInputError if cls is AluetteError else cls, *args, **kwargs)


class InvalidInputError(AluetteError, ValueError):
    """Bad input: a value or text that names nothing the package knows, is malformed or too long, or that the
    function's rules for its arguments refuse (the family of every input error)."""


class UnknownCardError(InvalidInputError):
    """A text or value that names no card of the 48-card Spanish deck."""


class DuplicateCardError(InvalidInputError):
    """A card given twice where each card can be only once (a hand, a deck, an ordering answer, a trick)."""


class UnknownSeatError(InvalidInputError):
    """A text or value that names no seat (N, E, S, W)."""


class DuplicateSeatError(InvalidInputError):
    """A seat given twice in one mapping (``"N"`` and ``"north"``): which one was meant is ambiguous."""


class BadSeedError(InvalidInputError):
    """A seed that is not a whole number from 0 to 2**64 - 1 (nor a numpy ``Generator`` where one is accepted)."""


class InputTooLongError(InvalidInputError):
    """A text longer than its box takes (a pasted page where a few cards or a seed were expected): refused before
    it is read, so no check ever runs over a megabyte of input."""


class NotationError(InvalidInputError):
    """A deal written in pagat's notation that is not nine letters from ``NESWX``."""


class MalformedSaveError(InvalidInputError):
    """A saved deal or match (JSON) that is malformed, inconsistent or tampered with."""


class AnswerError(InvalidInputError):
    """An answer to a practice task (:mod:`aluette.practice`) that cannot be read as an answer to it: empty, of the
    wrong form, or naming something the task does not show (a card not in the trick, a seat given twice). Refused
    before it is judged: no attempt is counted and the session is left as it was."""


class IllegalMoveError(AluetteError, ValueError):
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
    :class:`~aluette.players.session.MatchSession`."""


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


class SearchBudgetError(AluetteError, RuntimeError):
    """The solver (:func:`aluette.solve`) tried as many card plays as its budget allows without deciding the
    value: the position is not worked out (never a guess presented as exact)."""


class StoreError(AluetteError, RuntimeError):
    """A problem with the database that holds shared tables (:mod:`aluette.store`): it cannot be reached, or a
    logged move no longer replays. A condition of the server or its database, not bad input."""


class LostMovesError(StoreError):
    """The database holds fewer moves of a table than this session saw: its server crashed or was restored from an
    older copy and lost the last moves. The session returns to the database's last durable move and says so once."""


class BadDatabaseError(StoreError):
    """A database file or schema that is not this application's, is damaged, or was written by a newer aluette:
    refused when it is opened, before anything in it is read or written."""


class TableError(InvalidInputError):
    """A request to a shared table (:mod:`aluette.store`) that the table refuses: a bad table or player name, a
    seat that is held, a wrong seat code, a closed table (input the table's state refuses)."""


class NoSuchTableError(TableError):
    """No table of that name (nor a seat of that table) exists."""


class TableClosedError(TableError):
    """The teacher closed the table: it takes no seat and no move."""


class SeatTakenError(TableError):
    """The seat is already held by a player or a bot."""


class BadSeatCodeError(TableError):
    """A seat code that is not the code of that seat (or of any seat of the table)."""


class SeatStoodInError(BadSeatCodeError):
    """The right seat code, but the teacher gave its seat to a bot (:meth:`aluette.store.TeacherDesk.replace_with_bot`):
    it works again once the teacher gives the seat back."""


class TableNotReadyError(TableError):
    """A move at a table whose four seats are not all held yet (by players or bots)."""


class StaleStateError(TableError):
    """A move made on a state of the table that has changed since (another device of the same seat, or a late
    click): look at the table again."""


class SeatElsewhereError(TableError):
    """The seat was opened on another device since (its seat code typed there): this page no longer plays for it;
    the newest device holds the seat."""
