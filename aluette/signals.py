"""The partners' signals, as data, with the source of each gesture.

Sources of the gestures:

* The rules sheet's signal table (GameRules.com's Aluette rules sheet, ``docs/sources/``; present in the Frisian,
  Azerbaijani, Albanian and Punjabi translations, missing from the Welsh one) gives a gesture for every line,
  "a useless hand" (shrug) and "going for mordienne" (bite the lip) included, and advises signalling only what
  matters, discreetly, so that the other partnership does not notice.
* trictrac.net's Aluette page (community description, in French; not reachable from this project's machines, so
  described here as the project's source list, ``/work/shared/sources/README.md``, and issue 19 report it): raised
  eyebrows (« sourcils levés ») for Monsieur, the little finger for Petit-neuf, « l'index (ou l'index et le majeur) »
  for the Deux de chêne, other gestures for the aces (stick out the tongue, or click the teeth), and the spoken
  « au-dessus / au-dessous » (notebook 06 teaches those as table customs). The rules sheet's gesture for the Deux de
  chêne is "index or middle finger"; the table here gives the index finger, or the index and middle fingers
  together, as trictrac.net does, never the middle finger alone.
* Jeux & Stratégie n° 2 (1980), pp. 26-27, on mordienne: the player "en informe son partenaire en se mordant
  légèrement la lèvre inférieure" (bites the lower lip).
* pagat.com's Aluette page says partners may signal the cards they hold with gestures; its French copy has no table
  of gestures, so no gesture here is credited to pagat.

Two translations of the rules sheet slip on Petit-neuf (the Albanian gives the thumb, Grand-neuf's gesture; the
Azerbaijani writes "Grand-neuf"); the other sheets and trictrac.net give the little finger, and so does the table here
(``docs/sources/SLIPS.md``).

At a real table signals are gestures that the opponents may catch: the sources tell partners to be discreet. The
engine keeps each signal private to the signaller's partner, a simplification (``signals-partner-only`` in
:mod:`aluette.decisions`, marked in :mod:`aluette.deal`).

Decision of this project (the sources are silent) [signals-honest]: signals are honest: a seat can only signal a
named card it holds, its aces when it holds at least one (the count is taken from the hand, :func:`signal_count`),
and a useless hand or mordienne only when its hand fits their definitions (:func:`signal_problem`).

Decision of this project (the sources are silent) [signals-once-per-deal]: each signal is made at most once per deal
by each seat (:func:`signal_problem`'s ``made``).

Decision of this project (the sources are silent) [useless-hand]: "a useless hand" means holding no card above a
king: none of the eight named cards and no ace (:func:`is_useless_hand`).

Decision of this project (the sources are silent) [going-for-mordienne]: "going for mordienne" may be signalled only
holding at least three of the eight named cards (:func:`may_go_for_mordienne`). The number is this project's
choice: no source gives one (Jeux & Stratégie's « la plupart des cartes fortes », as the project's source list reports
it, fixes no number and is not cited for it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from .cards import NICKNAMED, Card
from .i18n import N_, _
from .seats import Seat

__all__ = ["SignalKind", "SIGNALS", "signal_for", "quoted_name", "is_useless_hand", "may_go_for_mordienne", "signal_problem",
           "honest_signals", "signal_count", "MORDIENNE_NAMED_CARDS", "seen_by"]


@dataclass(frozen=True)
class SignalKind:
    """One line of the signal table.

    Attributes:
        key: a short identifier (``"monsieur"``, ``"aces"``, ``"useless"``, ``"mordienne"``).
        what: what is signalled, in words (English; shown through :func:`aluette.i18n.gettext`).
        gesture: the gesture, in words (English; shown as ``what``).
        card: the card signalled, for the eight named cards; ``None`` for aces, a useless hand and mordienne.
        source: where the line comes from.
    """

    key: str
    what: str
    gesture: str
    card: Optional[Card]
    source: str


# Each source in full, as a translator sees it (frames.signals_table shows it in the page's language).
_BOTH = N_("the rules sheet's signal table (GameRules.com; fy, az, sq, pa sheets); trictrac.net")

#: The signal table, in the rules sheet's order; ``source`` names the sources that give each gesture.
SIGNALS: tuple[SignalKind, ...] = (
    SignalKind("monsieur", N_("Monsieur (3 of coins)"), N_("look upwards without moving the head"), Card.parse("3O"),
               N_("the rules sheet's signal table (GameRules.com; fy, az, sq, pa sheets); trictrac.net (raised eyebrows)")),
    SignalKind("madame", N_("Madame (3 of cups)"), N_("tilt the head to one side, or smirk"), Card.parse("3C"), _BOTH),
    SignalKind("borgne", N_("le Borgne (2 of coins)"), N_("wink"), Card.parse("2O"), _BOTH),
    SignalKind("vache", N_("la Vache (2 of cups)"), N_("pout, or purse the lips"), Card.parse("2C"), _BOTH),
    SignalKind("grand_neuf", N_("Grand-neuf (9 of cups)"), N_("stick out the thumb"), Card.parse("9C"), _BOTH),
    SignalKind("petit_neuf", N_("Petit-neuf (9 of coins)"), N_("stick out the little finger (pinkie)"),
               Card.parse("9O"),
               N_("the rules sheet's signal table (GameRules.com; fy, az, sq, pa sheets); trictrac.net; the Albanian and "
                  "Azerbaijani sheets' thumb/'Grand-neuf' here is a translation slip")),
    SignalKind("deux_de_chene", N_("Deux de chêne (2 of batons)"),
               N_("stick out the index finger (or the index and middle fingers)"), Card.parse("2B"),
               N_("trictrac.net; the rules sheet's signal table (index or middle finger)")),
    SignalKind("deux_decrit", N_("Deux d'écrit (2 of swords)"), N_("stick out the ring finger, or act as if writing"),
               Card.parse("2E"), N_("the rules sheet's signal table (GameRules.com; fy, az, sq, pa sheets) (ring finger, writing); "
                  "trictrac.net (writing)")),
    SignalKind("aces", N_("aces (how many)"), N_("open the mouth once for each ace held"), None,
               N_("the rules sheet's signal table (GameRules.com; fy, az, sq, pa sheets); trictrac.net has other "
                  "gestures (tongue, teeth)")),
    SignalKind("useless", N_("I have a useless hand (no card above a king)"), N_("shrug the shoulders"), None,
               N_("the rules sheet's signal table (GameRules.com; fy, az, sq, pa sheets)")),
    SignalKind("mordienne", N_("I am going for mordienne"), N_("bite the lip"), None,
               N_("the rules sheet's signal table (GameRules.com; fy, az, sq, pa sheets); Jeux & Stratégie n° 2, 1980 "
                  "(bite the lower lip)")),
)

#: Named cards a seat must hold to signal "going for mordienne" (decision ``going-for-mordienne``).
MORDIENNE_NAMED_CARDS = 3
_NAMED = frozenset(NICKNAMED)


def is_useless_hand(hand: Iterable[Card]) -> bool:
    """True when ``hand`` holds no card above a king: none of the eight named cards and no ace (decision
    ``useless-hand`` of the module docstring).

    >>> is_useless_hand([Card.parse("12E"), Card.parse("4O")]), is_useless_hand([Card.parse("1B")])
    (True, False)
    """
    return all(card.strength <= Card.parse("12O").strength for card in hand)


def may_go_for_mordienne(hand: Iterable[Card]) -> bool:
    """True when ``hand`` holds at least :data:`MORDIENNE_NAMED_CARDS` of the eight named cards (decision
    ``going-for-mordienne`` of the module docstring).

    >>> may_go_for_mordienne([Card.parse("3O"), Card.parse("2C"), Card.parse("9O")])
    True
    """
    return sum(1 for card in hand if card in _NAMED) >= MORDIENNE_NAMED_CARDS


def signal_count(key: str, hand: Iterable[Card]) -> Optional[int]:
    """What a signal tells as a number, taken from the hand: the number of aces for ``"aces"``; ``None`` for the
    other signals.

    >>> signal_count("aces", [Card.parse("1O"), Card.parse("1E"), Card.parse("4C")]), signal_count("borgne", [])
    (2, None)
    """
    return sum(1 for card in hand if card.rank == 1) if key == "aces" else None


def signal_problem(key: str, hand: Iterable[Card], made: Iterable[str] = ()) -> Optional[str]:
    """Why a seat holding ``hand`` that has already made the signals ``made`` this deal may not make signal ``key``
    (decisions ``signals-honest`` and ``signals-once-per-deal``), or ``None`` when it may. The reason reads after
    the seat's name: ``f"{seat} {problem}"``.

    Raises:
        BadSignalError: unknown key.
    """
    kind = signal_for(key)
    hand = tuple(hand)
    if kind.card is not None and kind.card not in hand:
        return _("does not hold {card}; signals are honest here").format(card=_(kind.what))
    if key == "aces" and not signal_count(key, hand):
        return _("holds no ace to signal")
    if key == "useless" and not is_useless_hand(hand):
        return _("holds a card above a king (a named card or an ace), so the hand is not useless")
    if key == "mordienne" and not may_go_for_mordienne(hand):
        return _("holds fewer than {count} of the eight named cards, which going for mordienne needs here").format(
            count=MORDIENNE_NAMED_CARDS)
    if key in made:
        return _("has already signalled {signal} this deal").format(signal=quoted_name(kind))
    return None


def honest_signals(hand: Iterable[Card], made: Iterable[str] = ()) -> list[str]:
    """The keys of the signals, in table order, that a seat holding ``hand`` and having made ``made`` this deal may
    make (:func:`signal_problem` has nothing against them).

    >>> honest_signals([Card.parse("2O"), Card.parse("4C")])
    ['borgne']
    """
    hand, made = tuple(hand), frozenset(made)
    return [kind.key for kind in SIGNALS if signal_problem(kind.key, hand, made) is None]


_BY_KEY = {s.key: s for s in SIGNALS}


def quoted_name(kind: SignalKind) -> str:
    """The signal's words in quotation marks, in the page's language, as a refusal names it:
    ``"le Borgne (2 of coins)"`` / « « le Borgne (deux de deniers) » »."""
    return _("\"{words}\"").format(words=_(kind.what))


def signal_for(key: str) -> SignalKind:
    """The table line with this key.

    Raises:
        BadSignalError: unknown key (the message lists the known ones).
    """
    from .errors import BadSignalError, quoted
    try:
        return _BY_KEY[key]
    except (KeyError, TypeError):
        raise BadSignalError(_("unknown signal {key}; known signals: {keys}").format(key=quoted(key),
                                                                                   keys=", ".join(_BY_KEY)),
                             move=key) from None


def seen_by(signaller: Seat, viewer: Optional[Seat]) -> bool:
    """Whether ``viewer`` sees a signal made by ``signaller``: only the signaller's partnership does (the partner,
    and the signaller itself); ``viewer=None`` is the omniscient look. A simplification of this project
    (``signals-partner-only``: at a real table the opponents may catch a gesture). The one rule every view of a
    signal follows (:meth:`aluette.deal.Deal.view`, :func:`aluette.narration.deal_events`,
    :meth:`aluette.players.session.SessionEvent.seen_by`).

    >>> seen_by(Seat.N, Seat.S), seen_by(Seat.N, Seat.E), seen_by(Seat.N, None)
    (True, False, True)
    """
    return viewer is None or signaller.team is viewer.team
