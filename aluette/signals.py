"""The partners' signals, as data.

Source: the signal table of the seeds (GameRules.com's Aluette rules sheet; present in the Frisian, Azerbaijani,
Albanian and Punjabi translations, missing from the Welsh one) cross-checked with pagat.com's Aluette page. Two
translation slips were corrected by that cross-check: the Albanian sheet gives Petit-neuf the thumb (Grand-neuf's
gesture) and the Azerbaijani sheet writes "Grand-neuf" as Petit-neuf's gesture; the other sheets and pagat give the
little finger. The seeds add the advice to signal only what matters, and discreetly, so the other side does not notice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .cards import Card

__all__ = ["SignalKind", "SIGNALS", "signal_for"]


@dataclass(frozen=True)
class SignalKind:
    """One line of the signal table.

    Attributes:
        key: a short identifier (``"monsieur"``, ``"aces"``, ``"useless"``, ``"mordienne"``).
        what: what is signalled, in words.
        gesture: the gesture, in words.
        card: the card signalled, for the eight named cards; ``None`` for aces, a useless hand and mordienne.
        source: where the line comes from.
    """

    key: str
    what: str
    gesture: str
    card: Optional[Card]
    source: str


_SRC = "seeds' signal table (GameRules.com), checked against pagat.com"

#: The signal table, in the seeds' order.
SIGNALS: tuple[SignalKind, ...] = (
    SignalKind("monsieur", "Monsieur (3 of coins)", "look upwards without moving the head", Card.parse("3O"), _SRC),
    SignalKind("madame", "Madame (3 of cups)", "tilt the head to one side, or smirk", Card.parse("3C"), _SRC),
    SignalKind("borgne", "le Borgne (2 of coins)", "wink", Card.parse("2O"), _SRC),
    SignalKind("vache", "la Vache (2 of cups)", "pout, or purse the lips", Card.parse("2C"), _SRC),
    SignalKind("grand_neuf", "Grand-neuf (9 of cups)", "stick out the thumb", Card.parse("9C"), _SRC),
    SignalKind("petit_neuf", "Petit-neuf (9 of coins)", "stick out the little finger (pinkie)", Card.parse("9O"),
               _SRC + "; the Albanian and Azerbaijani sheets' thumb/'Grand-neuf' here is a translation slip"),
    SignalKind("deux_de_chene", "Deux de chêne (2 of batons)", "stick out the index or middle finger",
               Card.parse("2B"), _SRC),
    SignalKind("deux_decrit", "Deux d'écrit (2 of swords)", "stick out the ring finger, or act as if writing",
               Card.parse("2E"), _SRC),
    SignalKind("aces", "aces (how many)", "open the mouth once for each ace held", None, _SRC),
    SignalKind("useless", "I have a useless hand", "shrug the shoulders", None, _SRC),
    SignalKind("mordienne", "I am going for mordienne", "bite the lip", None, _SRC),
)

_BY_KEY = {s.key: s for s in SIGNALS}


def signal_for(key: str) -> SignalKind:
    """The table line with this key.

    Raises:
        BadSignalError: unknown key (the message lists the known ones).
    """
    from .errors import BadSignalError, quoted
    try:
        return _BY_KEY[key]
    except (KeyError, TypeError):
        raise BadSignalError(f"unknown signal {quoted(key)}; known signals: {', '.join(_BY_KEY)}", move=key) from None
