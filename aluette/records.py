"""The values a deal hands out: a :class:`Hand`, each completed trick (:class:`TrickRecord`), each signal
(:class:`SignalRecord`), the :class:`DealResult`, the :class:`Phase` a deal is in and what one seat may see of it (a
:class:`View`). All immutable: frozen dataclasses whose mappings are read-only (:func:`read_only`).

The state machine that makes them is :class:`aluette.deal.Deal`; the sentences that tell them are in
:mod:`aluette.narration`.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Iterable, Mapping, Optional, Sequence

from .cards import Card, CardLike, hand_place, parse_cards
from .errors import DuplicateCardError
from .i18n import _
from .narration import signal_sentence, trick_sentence
from .options import Options
from .seats import Seat, Team

if TYPE_CHECKING:
    from .scoring import DealScore

__all__ = ["Phase", "Hand", "TrickRecord", "SignalRecord", "DealResult", "View", "read_only"]


class Phase(enum.Enum):
    """Where a deal stands."""

    CHANT = "chant"  #: players are asked, from the dealer's left, whether to chant
    DISCARD = "discard"  #: the two stock recipients discard six cards each
    SURRENDER = "surrender"  #: partnerships may offer to surrender (option)
    ANNOUNCE = "announce"  #: each player may announce mordienne (the Rebour option)
    PLAY = "play"  #: tricks are being played
    OVER = "over"  #: nine tricks played, or a surrender accepted

    @property
    def hands_final(self) -> bool:
        """Whether every hand is final in this phase: after any chant and discards, before the deal is over
        (surrender, announce or play). The moment the bots are offered their one round of signals
        (:func:`aluette.players.drivers.signals_due`), before the surrender and the Rebour announcements: the sources give no
        moment for a signal (pagat: « à tout moment pendant le jeu »), and this is the first at which a signal about a
        hand cannot go stale."""
        return self in _HANDS_FINAL


_HANDS_FINAL = frozenset({Phase.SURRENDER, Phase.ANNOUNCE, Phase.PLAY})



def read_only(mapping: Mapping) -> Mapping:
    """A read-only copy of ``mapping`` (kept as is when it already is one)."""
    return mapping if isinstance(mapping, MappingProxyType) else MappingProxyType(dict(mapping))


class Hand(tuple):
    """An immutable hand: cards sorted high to low (by strength, then deck order). ``str`` gives the codes.

    Raises:
        UnknownCardError: an item is not a card. AluetteError: a card given twice.
    """

    def __new__(cls, cards: Iterable[CardLike] = ()):
        if isinstance(cards, Hand):
            return cards
        parsed = parse_cards(cards)
        if len(set(parsed)) != len(parsed):  # linear: counted once, not card by card (quality bar)
            twice = sorted((c for c, n in Counter(parsed).items() if n > 1), key=lambda c: c.index)
            raise DuplicateCardError(_("a hand holds each card once; given twice: {cards}").format(
                cards=", ".join(map(str, twice[:12]))))
        return super().__new__(cls, sorted(parsed, key=hand_place))

    @classmethod
    def _of_sorted(cls, cards: Sequence[Card]) -> "Hand":
        # hot path: cards already parsed and sorted (the deal keeps each hand sorted)
        return tuple.__new__(cls, cards)

    def __str__(self) -> str:
        return " ".join(c.code for c in self)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def _repr_html_(self) -> str:
        from .pictures import cards_html
        return cards_html(self)


@dataclass(frozen=True)
class TrickRecord:
    """A completed trick.

    Attributes:
        number: 1-9.
        leader: the seat that led.
        plays: ``((seat, card), ...)`` in play order.
        winner: the seat that won, or ``None`` when spoiled.
    """

    number: int
    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Optional[Seat]

    @classmethod
    def _new(cls, number: int, leader: Seat, plays: tuple, winner: Optional[Seat]) -> "TrickRecord":
        # The constructor without a frozen dataclass's four setattr calls: nine records per deal on the hot path.
        record = object.__new__(cls)
        record.__dict__.update(number=number, leader=leader, plays=plays, winner=winner)
        return record

    def __repr__(self) -> str:
        # <TrickRecord 3: E 3O, S 1E, W 4O, N 5O; E wins>
        played = ", ".join(f"{s} {c}" for s, c in self.plays)
        return f"<TrickRecord {self.number}: {played}; {'spoiled' if self.winner is None else f'{self.winner} wins'}>"

    @property
    def spoiled(self) -> bool:
        """True when the best class was tied and nobody won the trick."""
        return self.winner is None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play order."""
        return tuple(card for _, card in self.plays)

    def card_of(self, seat: Seat) -> Card:
        """The card ``seat`` played."""
        return dict(self.plays)[Seat.parse(seat)]

    def explain(self) -> str:
        """One sentence: who won with what, or why the trick was spoiled and who leads again
        (:func:`aluette.narration.trick_sentence`)."""
        return trick_sentence(self)

    def _repr_html_(self) -> str:
        from .i18n import _
        from .pictures import trick_html
        return trick_html(self.plays, title=_("Trick {number}").format(number=self.number), winner=self.winner,
                          spoiled=self.spoiled)


@dataclass(frozen=True)
class SignalRecord:
    """A signal made in a deal (visible to the signalling seat and its partner only).

    Attributes:
        seat: who signalled.
        key: the :data:`~aluette.signals.SIGNALS` key.
        count: number of aces, for the ``"aces"`` signal; else ``None``.
        trick: number of tricks completed when the signal was made.
    """

    seat: Seat
    key: str
    count: Optional[int]
    trick: int

    def describe(self) -> str:
        """``"S signals le Borgne (2 of coins): wink"`` (:func:`aluette.narration.signal_sentence`)."""
        return signal_sentence(self)


@dataclass(frozen=True)
class DealResult:
    """The outcome of a finished deal.

    Attributes:
        points: ``{Team.NS: p, Team.EW: q}``; at most one side scores.
        score: the trick-based :class:`~aluette.scoring.DealScore`, or ``None`` when a surrender was accepted.
        surrendered_by: the partnership that offered to surrender, if one did.
        surrender_accepted: ``True``/``False`` after an offer, else ``None``.
        offered_after: the tricks played when the surrender was offered (0: before the first, or no offer).
        reason (a property): sentences explaining the points, worded when read, in the page's language
            (:func:`aluette.scoring.result_reason`).
        verdict (a property): the points in one short sentence (:func:`aluette.scoring.result_verdict`).
    """

    points: Mapping[Team, int]
    score: Optional[DealScore]
    surrendered_by: Optional[Team]
    surrender_accepted: Optional[bool]
    offered_after: int = 0

    @property
    def reason(self) -> str:
        """Sentences explaining the points, in the page's language (worded now)."""
        from .scoring import result_reason
        return result_reason(self)

    @property
    def verdict(self) -> str:
        """The points in one short sentence, who scores and why in a few words, in the page's language; the whole
        :attr:`reason` is for the detail (:func:`aluette.scoring.result_verdict`)."""
        from .scoring import result_verdict
        return result_verdict(self)

    def __post_init__(self):
        # read-only: `result.points[Team.NS] = 99` would rewrite the deal's own save
        object.__setattr__(self, "points", read_only(self.points))

    @property
    def team(self) -> Optional[Team]:
        """The partnership that scored, or ``None``."""
        return next((t for t, p in self.points.items() if p), None)


@dataclass(frozen=True)
class View:
    """What one seat may see of a deal (or everything, when ``seat`` is ``None``: the omniscient teaching view).

    A seat's view holds its own hand, the cards it received from the stock and discarded, every card played, and the
    signals of its own partnership; never another seat's hidden cards or unplayed stock cards.

    Attributes:
        seat: whose view, or ``None`` for the omniscient view.
        dealer, phase, to_move, leader: as on :class:`~aluette.deal.Deal`.
        hands: ``{seat: Hand}`` of the hands this view may see (its own; all four when omniscient).
        hand_sizes: cards held by each seat.
        trick: the current, incomplete trick as ``((seat, card), ...)``.
        tricks: completed :class:`TrickRecord` s.
        trick_counts: tricks won per seat so far.
        chant_answers: ``((seat, agreed), ...)`` so far.
        chant_agreed: ``True`` if all four agreed, ``False`` if one declined, ``None`` while undecided.
        stock_received: ``{seat: cards}`` of stock cards this view may see.
        discards: ``{seat: cards}`` of discards this view may see.
        stock: the unused stock (omniscient view only; else ``None``).
        signals: the :class:`SignalRecord` s this view may see.
        result: the :class:`DealResult` once the deal is over.
        events: the history as sentences, filtered to what this view may see (empty from ``view(seat, events=False)``).
        surrender_spoken: ``((seat, offered), ...)``: the surrender offers spoken so far (public, like the chant).
        surrender_by: the partnership that offered to surrender, or ``None``.
        surrender_accepted: ``True``/``False`` once an offer is answered, else ``None``.
        announcements: ``((seat, announced), ...)``: the Rebour announcements of mordienne so far (public).
    """

    seat: Optional[Seat]
    dealer: Seat
    phase: Phase
    to_move: Optional[Seat]
    leader: Optional[Seat]
    options: Options
    hands: Mapping[Seat, Hand]
    hand_sizes: Mapping[Seat, int]
    trick: tuple[tuple[Seat, Card], ...]
    tricks: tuple[TrickRecord, ...]
    trick_counts: Mapping[Seat, int]
    chant_answers: tuple[tuple[Seat, bool], ...]
    chant_agreed: Optional[bool]
    stock_received: Mapping[Seat, tuple[Card, ...]]
    discards: Mapping[Seat, tuple[Card, ...]]
    stock: Optional[tuple[Card, ...]]
    signals: tuple[SignalRecord, ...]
    result: Optional[DealResult]
    events: tuple[str, ...]
    surrender_spoken: tuple[tuple[Seat, bool], ...] = ()
    surrender_by: Optional[Team] = None
    surrender_accepted: Optional[bool] = None
    announcements: tuple[tuple[Seat, bool], ...] = ()

    def __post_init__(self):
        # the mappings are read-only, as the frozen view around them
        for name in ("hands", "hand_sizes", "trick_counts", "stock_received", "discards"):
            object.__setattr__(self, name, read_only(getattr(self, name)))

    @property
    def hand(self) -> Hand:
        """This seat's own hand (empty for the omniscient view)."""
        return self.hands.get(self.seat, Hand()) if self.seat is not None else Hand()

    def visible_cards(self) -> frozenset:
        """Every card this view shows, anywhere in it (used to prove a view hides what it must)."""
        cards = set()
        for group in (*self.hands.values(), *self.stock_received.values(), *self.discards.values(), self.stock or ()):
            cards.update(group)
        cards.update(c for _, c in self.trick)
        for record in self.tricks:
            cards.update(record.cards)
        return frozenset(cards)

    def _repr_html_(self) -> str:
        from .pictures import view_html
        return view_html(self)
