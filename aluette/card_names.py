"""The cards' names as a reader sees them, in the page's language (:mod:`aluette.i18n`).

English is the engine's own names (:attr:`Card.name <aluette.cards.Card.name>`: ``"3 of coins"``,
``"cavalière of cups"``), byte for byte. French follows the table's usage (pagat's French page, the French descriptions): the rank
in words and the suit after « de », singular but for deniers: « trois de deniers », « la cavalière de coupe »,
« l'as de bâton », « le deux d'épée »; the nicknames (Monsieur, Madame, le Borgne, la Vache, Grand-neuf, Petit-neuf,
Deux de chêne, Deux d'écrit) are the same words in both languages. The names are built from a few catalogue
entries (a rank, a rank with its article, a suit's phrase), so the translator writes the elision (« d'épée »,
« l'as ») once. The ordinary French-suited deck's names (:func:`french_name`) are built the same way.
"""

from __future__ import annotations

import functools

from .cards import Card, Suit
from .i18n import language, pgettext
from .seats import Seat

__all__ = ["card_name", "class_name", "suit_name", "french_name", "seat_name", "phase_name"]


@functools.cache
def _tables(code: str) -> dict:
    # ``code`` keys the cache: the page's language is current when this runs (called from the functions below)
    rank = {1: pgettext("rank", "ace"), 2: pgettext("rank", "2"), 3: pgettext("rank", "3"),
            4: pgettext("rank", "4"), 5: pgettext("rank", "5"), 6: pgettext("rank", "6"),
            7: pgettext("rank", "7"), 8: pgettext("rank", "8"), 9: pgettext("rank", "9"),
            10: pgettext("rank", "jack"), 11: pgettext("rank", "cavalière"), 12: pgettext("rank", "king")}
    the = {1: pgettext("rank with article", "the ace"), 2: pgettext("rank with article", "the 2"),
           3: pgettext("rank with article", "the 3"), 4: pgettext("rank with article", "the 4"),
           5: pgettext("rank with article", "the 5"), 6: pgettext("rank with article", "the 6"),
           7: pgettext("rank with article", "the 7"), 8: pgettext("rank with article", "the 8"),
           9: pgettext("rank with article", "the 9"), 10: pgettext("rank with article", "the jack"),
           11: pgettext("rank with article", "the cavalière"), 12: pgettext("rank with article", "the king")}
    # TRANSLATORS: {rank} is a rank's name ("king", or "the king"); the suit follows as the table says it
    of = {Suit.COINS: pgettext("card name", "{rank} of coins"), Suit.CUPS: pgettext("card name", "{rank} of cups"),
          Suit.BATONS: pgettext("card name", "{rank} of batons"),
          Suit.SWORDS: pgettext("card name", "{rank} of swords")}
    suit = {Suit.COINS: pgettext("suit", "coins"), Suit.CUPS: pgettext("suit", "cups"),
            Suit.BATONS: pgettext("suit", "batons"), Suit.SWORDS: pgettext("suit", "swords")}
    classes = {"aces": pgettext("cards of a rank", "aces"), "kings": pgettext("cards of a rank", "kings"),
               "cavalières": pgettext("cards of a rank", "cavalières"),
               "jacks": pgettext("cards of a rank", "jacks"), "nines": pgettext("cards of a rank", "nines"),
               "eights": pgettext("cards of a rank", "eights"), "sevens": pgettext("cards of a rank", "sevens"),
               "sixes": pgettext("cards of a rank", "sixes"), "fives": pgettext("cards of a rank", "fives"),
               "fours": pgettext("cards of a rank", "fours"), "threes": pgettext("cards of a rank", "threes")}
    # TRANSLATORS: a ranking class as the object of "beats", with its article in French (« bat les quatre »)
    the_classes = {
        "aces": pgettext("cards of a rank, with article", "aces"),
        "kings": pgettext("cards of a rank, with article", "kings"),
        "cavalières": pgettext("cards of a rank, with article", "cavalières"),
        "jacks": pgettext("cards of a rank, with article", "jacks"),
        "nines": pgettext("cards of a rank, with article", "nines"),
        "eights": pgettext("cards of a rank, with article", "eights"),
        "sevens": pgettext("cards of a rank, with article", "sevens"),
        "sixes": pgettext("cards of a rank, with article", "sixes"),
        "fives": pgettext("cards of a rank, with article", "fives"),
        "fours": pgettext("cards of a rank, with article", "fours"),
        "threes": pgettext("cards of a rank, with article", "threes"),
    }
    french_rank = {**rank, 11: pgettext("ordinary deck", "queen")}
    french_the = {**the, 11: pgettext("ordinary deck", "the queen")}
    french_of = {Suit.COINS: pgettext("ordinary deck", "{rank} of diamonds"),
                 Suit.CUPS: pgettext("ordinary deck", "{rank} of hearts"),
                 Suit.BATONS: pgettext("ordinary deck", "{rank} of clubs"),
                 Suit.SWORDS: pgettext("ordinary deck", "{rank} of spades")}
    seats = {Seat.N: pgettext("seat", "North"), Seat.E: pgettext("seat", "East"), Seat.S: pgettext("seat", "South"),
             Seat.W: pgettext("seat", "West")}
    return {"rank": rank, "the": the, "of": of, "suit": suit, "classes": classes, "the_classes": the_classes, "french_rank": french_rank,
            "french_the": french_the, "french_of": french_of, "seats": seats}


def card_name(card: Card, article: bool = False) -> str:
    """The card's name in the page's language: ``"king of swords"`` / « roi d'épée »; ``article``: with its article,
    ``"the king of swords"`` / « le roi d'épée », « la cavalière de coupe », « l'as de bâton »."""
    table = _tables(language())
    return table["of"][card.suit].format(rank=table["the" if article else "rank"][card.rank])


def french_name(card: Card, article: bool = False) -> str:
    """The card's name on an ordinary French-suited deck, in the page's language: ``"3 of diamonds"`` / « trois de
    carreau » (Monsieur), ``"queen of hearts"`` / « dame de cœur »."""
    table = _tables(language())
    return table["french_of"][card.suit].format(rank=table["french_the" if article else "french_rank"][card.rank])


def suit_name(suit: Suit) -> str:
    """A suit's name in the page's language: ``"coins"`` / « deniers »."""
    return _tables(language())["suit"][suit]


def class_name(card: Card, article: bool = False) -> str:
    """The card's class in the ranking, in the page's language: a nickname (the same in both) or the rank's plural,
    ``"aces"`` / « as »; ``article``: with the article French needs after a verb (« bat les quatre »; English
    ``"fours"`` either way; a nickname keeps its own, « le Borgne »)."""
    return _tables(language())["the_classes" if article else "classes"].get(card.class_name, card.class_name)


def seat_name(seat: Seat) -> str:
    """A seat's full name in the page's language: ``"West"`` / « Ouest »."""
    return _tables(language())["seats"][seat]


def phase_name(phase) -> str:
    """A deal's phase (a :class:`~aluette.Phase` or its value) in the page's language: ``"chant"`` / « chant »."""
    value = str(getattr(phase, "value", phase))
    names = {"surrender": pgettext("phase", "surrender"), "chant": pgettext("phase", "chant"),
             "discard": pgettext("phase", "discard"), "announce": pgettext("phase", "announce"),
             "play": pgettext("phase", "play"), "over": pgettext("phase", "over")}  # nouns, not the buttons' verbs
    return names.get(value, value)
