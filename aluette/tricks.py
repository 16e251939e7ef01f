"""Who wins a trick: :func:`best_of` is the rule, for every caller (the deal, the bots, the explanations; the numpy
engines of :mod:`aluette.simulation.numpy_random` mirror it and are tested against it).

Rule source: the rules sheet, "gameplay" — the highest-ranking card played wins; "a tie for the highest card in a
trick means the trick is considered spoiled. No player wins this trick and the original leader of the trick will lead
again." pagat.com agrees (a spoiled trick, *pourrie*). Any card may be played: there is no duty to follow suit.
"""

from __future__ import annotations

from typing import Hashable, Optional, Sequence, TypeVar

from .cards import Card, CardLike, parse_cards
from .card_names import card_name, class_name
from .errors import AluetteError, DuplicateCardError
from .i18n import _

__all__ = ["best_of", "strongest", "trick_winner", "explain_trick"]

Who = TypeVar("Who", bound=Hashable)


def strongest(plays: Sequence[tuple[Who, Card]]) -> list[tuple[Who, Card]]:
    """The plays of the strongest ranking class among ``plays``, ``((who, card), ...)`` in play order (a whole trick
    or the start of one; ``who`` is a seat, or any label). Suits do not matter: cards of one class are equal.

    >>> from aluette.cards import Card
    >>> strongest([("E", Card.parse("1O")), ("S", Card.parse("12E")), ("W", Card.parse("1E"))])
    [('E', Card.parse('1O')), ('W', Card.parse('1E'))]
    """
    best = max(card.strength for _, card in plays)
    return [(who, card) for who, card in plays if card.strength == best]


def best_of(plays: Sequence[tuple[Who, Card]]) -> Optional[Who]:
    """Who wins ``plays``, ``((who, card), ...)`` in play order (a whole trick, or the best so far of a trick in
    progress): the one who played the only card of the strongest class, or ``None`` when that class was played more
    than once (a spoiled trick: nobody wins it, its leader leads again).

    The cards must be :class:`~aluette.cards.Card` objects (not checked: this is the hot path of the deal);
    :func:`trick_winner` reads and checks text and codes.

    >>> from aluette.cards import parse_cards
    >>> best_of(list(zip("ESWN", parse_cards("1O 3O 12E 4C"))))   # Monsieur wins
    'S'
    >>> best_of(list(zip("ESW", parse_cards("1O 1E 12E")))) is None  # two aces tie for best: spoiled
    True
    """
    best, winner = 0, None
    for who, card in plays:  # one pass: the first card of the strongest class so far, None once that class is tied
        strength = card.strength
        if strength > best:
            best, winner = strength, who
        elif strength == best:
            winner = None
    return winner


def _cards(cards: Sequence[CardLike]) -> tuple[Card, ...]:
    parsed = parse_cards(cards)  # text ("1O 3O"), cards or codes; None or a number is an UnknownCardError
    if not 2 <= len(parsed) <= 4:
        shown = " ".join(map(str, parsed[:6])) + (" …" if len(parsed) > 6 else "")
        raise AluetteError(_("a trick has 2 to 4 cards, got {count}: {cards}").format(count=len(parsed),
                                                                                     cards=shown or _("none")))
    if len(set(parsed)) != len(parsed):
        dup = sorted({str(c) for c in parsed if parsed.count(c) > 1})  # at most four cards here
        raise DuplicateCardError(_("a card appears twice in the trick: {cards}").format(cards=", ".join(dup)))
    return parsed


def trick_winner(cards: Sequence[CardLike]) -> Optional[int]:
    """Index of the winning card among two to four distinct cards in play order, or ``None`` if the trick is spoiled
    (the highest ranking class was played more than once).

    >>> trick_winner(["1O", "3O", "12E", "4C"])   # Monsieur wins
    1
    >>> trick_winner(["1O", "1E", "12E"]) is None  # two aces tie for best: spoiled
    True

    ``cards`` may also be text read by :func:`~aluette.cards.parse_cards` (``"1O 3O 12E"``).

    Raises:
        UnknownCardError: an item is not a card, or ``cards`` is not cards at all (``None``, a number).
        AluetteError: fewer than two or more than four cards, or a card given twice.
    """
    return best_of(list(enumerate(_cards(cards))))


def explain_trick(cards: Sequence[CardLike]) -> str:
    """One sentence saying which card wins and why, or why the trick is spoiled (for notebooks and widgets)."""
    parsed = _cards(cards)
    plays = list(enumerate(parsed))
    winner = best_of(plays)
    if winner is None:
        tied = [card for _, card in strongest(plays)]
        and_ = _(" and ")
        names = and_.join(map(str, tied)) if len(tied) == 2 else f"{', '.join(map(str, tied[:-1]))}{and_}{tied[-1]}"
        # TRANSLATORS: a spoiled trick (« pli pourri »): {cards} are the tied cards' codes, {rank} their class
        text = (_("Spoiled: {cards} are both {rank}, equal whatever their suit; nobody wins and the leader leads "
                  "again.") if len(tied) == 2 else
                _("Spoiled: {cards} are all {rank}, equal whatever their suit; nobody wins and the leader leads "
                  "again."))
        return text.format(cards=names, rank=class_name(tied[0]))
    card = parsed[winner]
    label = f"{card} ({card.nickname})" if card.nickname else f"{card} ({card_name(card)})"
    others = [c for i, c in enumerate(parsed) if i != winner]
    second = strongest(list(enumerate(others)))[0][1]
    return _("Card {number}, {label}, wins: class {rank} (strength {strength}) beats {other} (strength "
             "{other_strength}).").format(number=winner + 1, label=label, rank=class_name(card),
                                          strength=card.strength, other=class_name(second, article=True),
                                          other_strength=second.strength)
