"""aluette: the rules of the French/Breton trick-taking game Aluette (la Vache), exact, reproducible and testable.

Start with :data:`DECK`, :class:`Card`, :func:`trick_winner`, :func:`score_tricks`, :class:`Deal` and
:class:`Match`. Rule sources: the rules sheet in ``docs/sources/`` (GameRules.com, five translations) and pagat.com's
Aluette page; where they are silent the project decides, and each decision is listed in :mod:`aluette.decisions` and
marked in the docstring that implements it.
"""

from .players.protocol import Decision
from .players.bots import HeuristicBot, RandomBot
from .cards import DECK, NICKNAMED, RANKING, TOP_FOUR, Card, Suit, parse_cards
from .chance import as_generator, shuffled_deck
from .deal import Deal, DealResult, Hand, Phase, SignalRecord, TrickRecord, View
from .draw import DrawResult, partnership_draw
from .players.drivers import play_deal, play_match
from .errors import (AluetteError, BadDiscardError, BadSeedError, BadSignalError, CardNotInHandError, DealOverError,
                     DuplicateCardError, DuplicateSeatError, IllegalMoveError, InvalidInputError, MalformedSaveError,
                     NotationError,
                     NotYourTurnError, SearchBudgetError, UnknownCardError, UnknownSeatError, WrongPhaseError)
from .match import Match
from .moves import (ChantAnswer, Discard, MordienneAnnouncement, Move, Play, Signal, SurrenderAnswer,
                    SurrenderOffer)
from .options import ChantRecipients, Options, Rebour, SurrenderUntil
from .scoring import DealScore, first_to_reach, outcomes_notation, parse_outcomes, score_tricks
from .seats import SEATS, Seat, Team
from .signals import SIGNALS, SignalKind
from .tricks import explain_trick, trick_winner

__version__ = "0.1.0"

__all__ = [
    "DECK", "NICKNAMED", "RANKING", "TOP_FOUR", "Card", "Suit", "parse_cards", "as_generator", "shuffled_deck",
    "Deal", "DealResult", "Hand", "Phase", "SignalRecord", "TrickRecord", "View", "DrawResult", "partnership_draw",
    "AluetteError", "BadDiscardError", "BadSeedError", "BadSignalError", "DuplicateCardError", "DuplicateSeatError",
    "CardNotInHandError", "DealOverError", "IllegalMoveError", "InvalidInputError",
    "MalformedSaveError", "NotationError", "NotYourTurnError", "UnknownCardError", "UnknownSeatError",
    "WrongPhaseError", "Match", "ChantAnswer", "Discard", "Move", "Play", "Signal", "SurrenderAnswer",
    "SurrenderOffer", "MordienneAnnouncement", "ChantRecipients", "Options", "Rebour", "SurrenderUntil", "DealScore",
    "first_to_reach", "outcomes_notation", "parse_outcomes",
    "score_tricks", "SEATS", "Seat", "Team", "SIGNALS", "SignalKind", "explain_trick", "trick_winner",
    "ranking_table", "Decision", "HeuristicBot", "RandomBot", "play_deal", "play_match", "simulate",
    "solve", "Solution", "SearchBudgetError",
]


def ranking_table(shown: bool = False):
    """The 19 ranking classes as a pandas DataFrame (see :func:`aluette.frames.ranking_table`; ``shown``: headers
    and classes in the page's language, for printing)."""
    from .frames import ranking_table as _table
    return _table(shown)


def __getattr__(name):
    # simulate() needs pandas, solve() numba (a fifth of a second to import, in every kernel of a page): each is
    # imported only when asked for, so `import aluette` stays light
    if name == "simulate":
        from .simulation import simulate
        return simulate
    if name in ("solve", "Solution"):
        from . import analysis
        return getattr(analysis, name)
    raise AttributeError(f"module 'aluette' has no attribute {name!r}")
