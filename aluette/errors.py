"""Errors raised by :mod:`aluette`.

Every error is a :class:`ValueError` subclass, so ``except ValueError`` catches them all, and each message names the
bad input. Two families are kept apart, as in python-chess: *syntax* (the text is not a card, not a seat, not pagat
notation, not a saved deal) and *rules* (a real card or move that is illegal in this position). When an error is
raised by a state (a :class:`~aluette.deal.Deal` or :class:`~aluette.match.Match`), the state is left exactly as it
was before the call.
"""

from __future__ import annotations


class AluetteError(ValueError):
    """Base class of every error this package raises."""


class UnknownCardError(AluetteError):
    """A text or value that names no card of the 48-card Spanish deck."""


class UnknownSeatError(AluetteError):
    """A text or value that names no seat (N, E, S, W)."""


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
