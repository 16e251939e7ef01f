"""Cards, the 48-card Spanish deck and the ranking of Aluette.

Rule sources:

* The deck and the ranking: the rules sheet in ``docs/sources/`` (GameRules.com's Aluette page, five translations,
  section "card rankings") and pagat.com's Aluette page, which agree: Monsieur (3 of coins), Madame (3 of cups),
  le Borgne (2 of coins), la Vache (2 of cups), Grand-neuf (9 of cups), Petit-neuf (9 of coins), Deux de chêne
  (2 of batons), Deux d'écrit (2 of swords), then aces, kings, cavalières, jacks, the 9s of swords and batons, the
  8s, 7s, 6s, 5s, 4s and the 3s of swords and batons. The 11 is a woman on horseback, *la cavalière* (the rules sheet,
  pagat.com), *la dame* in regles2jeux.fr's names; this module never calls her "cavalier".
* Cards of one class are equal: a tie for the best class spoils the trick (see :mod:`aluette.tricks`). Suits matter
  for nothing else (the rules sheet, "gameplay": there are no restrictions on what may be played).
* An ordinary French-suited deck of 52 cards without its four 10s plays the game too: coins are diamonds (carreau),
  cups hearts (cœur), batons clubs (trèfle), swords spades (pique), the jack a valet, the cavalière a queen (dame).
  Sources, as the project's source list (``/work/shared/sources/README.md``'s table) reports them: catsatcards.com
  (the substitute and its suit mapping), loisirs.savoir.fr (an ordinary deck minus the 10s), jeuxloisirs.net
  ("Monsieur : Trois de Carreau"). :meth:`Card.parse` reads those names; :mod:`aluette.pictures` can draw the
  French-suited faces.

The ranking is data (:data:`RANKING`), from which every lookup is computed once at import.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable
from typing import Union

from .errors import UnknownCardError, quoted
from .i18n import _

__all__ = ["Suit", "Card", "DECK", "RANKING", "CardLike", "parse_cards", "TOP_FOUR", "NICKNAMED", "MAX_CARD_TEXT",
           "MAX_CARDS_TEXT", "HAND_ORDER", "hand_place"]


class Suit(enum.Enum):
    """The four Spanish suits; the value is the suit's initial in Spanish, used in card codes."""

    COINS = "O"  #: oros
    CUPS = "C"  #: copas
    BATONS = "B"  #: bastos
    SWORDS = "E"  #: espadas

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @property
    def english(self) -> str:
        """English plural name: ``"coins"``, ``"cups"``, ``"batons"``, ``"swords"``."""
        return self.name.lower()

    @property
    def spanish(self) -> str:
        """Spanish plural name: ``"oros"``, ``"copas"``, ``"bastos"``, ``"espadas"``."""
        return _SPANISH_SUIT[self]


_SPANISH_SUIT = {Suit.COINS: "oros", Suit.CUPS: "copas", Suit.BATONS: "bastos", Suit.SWORDS: "espadas"}
_SUIT_ORDER = (Suit.COINS, Suit.CUPS, Suit.BATONS, Suit.SWORDS)

#: English names of ranks 1-12 (10 = jack/sota, 11 = cavalière/caballo, 12 = king/rey). The 11 keeps the rules
#: sheet's word, "cavalière" (pagat.com's too), in English text.
RANK_NAMES = {1: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "jack", 11: "cavalière", 12: "king"}

#: The ranking, high to low: ``(class name, nickname or None, card codes)``. Strength = 19 for the first class
#: down to 1 for the last. Source: the rules sheet, "card rankings"; pagat.com Aluette, "Ranking of the cards".
RANKING: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("Monsieur", "Monsieur", ("3O",)),
    ("Madame", "Madame", ("3C",)),
    ("le Borgne", "le Borgne", ("2O",)),
    ("la Vache", "la Vache", ("2C",)),
    ("Grand-neuf", "Grand-neuf", ("9C",)),
    ("Petit-neuf", "Petit-neuf", ("9O",)),
    ("Deux de chêne", "Deux de chêne", ("2B",)),
    ("Deux d'écrit", "Deux d'écrit", ("2E",)),
    ("aces", None, ("1O", "1C", "1B", "1E")),
    ("kings", None, ("12O", "12C", "12B", "12E")),
    ("cavalières", None, ("11O", "11C", "11B", "11E")),
    ("jacks", None, ("10O", "10C", "10B", "10E")),
    ("nines", None, ("9E", "9B")),
    ("eights", None, ("8O", "8C", "8B", "8E")),
    ("sevens", None, ("7O", "7C", "7B", "7E")),
    ("sixes", None, ("6O", "6C", "6B", "6E")),
    ("fives", None, ("5O", "5C", "5B", "5E")),
    ("fours", None, ("4O", "4C", "4B", "4E")),
    ("threes", None, ("3E", "3B")),
)

_CODE_RE = re.compile(r"^\s*(1[0-2]|[1-9])\s*([ocbe])\s*$", re.IGNORECASE)


class Card:
    """One card of the Spanish deck. Immutable; there is exactly one object per card, so ``is`` and ``==`` agree.

    ``Card(3, Suit.COINS)`` or ``Card(3, "O")`` returns the canonical card; :meth:`parse` reads text. ``str(card)`` is
    the compact code (``"3O"``), ``repr(card)`` is ``Card.parse('3O')``.

    Attributes:
        rank: 1 (ace) to 9, 10 (jack, sota), 11 (cavalière, caballo), 12 (king, rey).
        suit: a :class:`Suit`.
        index: 0-47, the card's place in :data:`DECK` (suits coins, cups, batons, swords; ranks 1-12).
        strength: 19 (Monsieur) down to 1 (3 of swords or batons); equal strengths tie.
        class_name: the ranking class (``"Monsieur"``, ``"aces"``, ``"threes"``...).
        code: the compact code, rank number + Spanish suit initial (``"12E"`` = king of swords).
        name: English name (``"king of swords"``).
        nickname: traditional name of the top eight (``"la Vache"``), else ``None``.

    Raises:
        UnknownCardError: ``Card(rank, suit)`` with a rank outside 1-12 or an unknown suit.
    """

    __slots__ = ("rank", "suit", "index", "strength", "class_name", "code", "name", "nickname")

    def __new__(cls, rank: int, suit: Union[Suit, str]) -> "Card":
        try:
            suit = suit if isinstance(suit, Suit) else Suit(str(suit).upper())
        except ValueError:
            raise UnknownCardError(_("unknown suit {suit}: expected one of O (coins), C (cups), B (batons), E "
                                     "(swords)").format(suit=quoted(suit))) from None
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 12:
            raise UnknownCardError(_("unknown rank {rank}: expected an integer 1-12 (10 jack, 11 cavalière, 12 "
                                     "king)").format(rank=quoted(rank)))
        return _BY_RANK_SUIT[rank, suit]

    @classmethod
    def _make(cls, rank: int, suit: Suit, index: int) -> "Card":
        card = object.__new__(cls)
        for attr, value in (("rank", rank), ("suit", suit), ("index", index), ("code", f"{rank}{suit.value}"),
                            ("name", f"{RANK_NAMES[rank]} of {suit.english}")):
            object.__setattr__(card, attr, value)
        return card

    def __setattr__(self, name, value):
        raise AttributeError(f"Card is immutable (tried to set {name!r})")

    def __delattr__(self, name):
        raise AttributeError(f"Card is immutable (tried to delete {name!r})")

    def __hash__(self) -> int:
        return self.index  # deterministic: sets of cards iterate the same way on every run

    def __reduce__(self):
        return (Card, (self.rank, self.suit.value))

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo) -> "Card":
        return self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def beats(self, other: "Card") -> bool:
        """True when this card ranks strictly higher than ``other`` (equal classes do not beat each other)."""
        return self.strength > other.strength

    def ties(self, other: "Card") -> bool:
        """True when both cards are of the same ranking class (they would spoil a trick if both were best)."""
        return self.strength == other.strength

    @classmethod
    def parse(cls, text: Union[str, "Card"]) -> "Card":
        """Read a card from text.

        Accepted, in any case, with or without accents, and with or without an article in front (``le``, ``la``,
        ``l'``, ``the``: « le roi de deniers », « l'as de coupe », "the ace of cups"):

        * the compact code, rank + Spanish suit initial: ``"3O"``, ``"12e"``, ``"10 B"``;
        * English: ``"3 of coins"``, ``"king of swords"``, ``"cavalière of cups"``, ``"ace of batons"``; ranks may be
          digits, words (``"three"``) or Spanish (``"sota"``, ``"caballo"``, ``"rey"``), suits English or Spanish,
          singular or plural (``"coin"``, ``"oros"``);
        * French, the game's own language: ``"roi de deniers"``, ``"valet d'épées"``, ``"cavalière de coupes"``,
          ``"as de bâtons"``, ``"trois de coupe"``, ``"as d'ors"``; ranks as, deux ... neuf, valet, cavalière (or
          dame), roi; suits deniers (or ors), coupes, bâtons, épées, singular or plural, after "de" (or "d'" before a
          vowel). Sources of the names: the rules sheet ("cavalières", Spanish suits), trictrac.net ("Bâton, coupe,
          deniers et épée"), regles2jeux.fr (suits "épée, coupe, denier et bâton"; ranks "As, Roi, Dame, Valet");
        * an ordinary French-suited deck without its 10s (module docstring): ``"3 of diamonds"``, ``"queen of
          hearts"``, « trois de carreau », « dame de cœur », « as de pique », « roi de trèfle »: diamonds (carreau)
          are coins, hearts (cœur) cups, clubs (trèfle) batons, spades (pique) swords, the queen (dame) the cavalière;
        * the nicknames of the top eight: ``"Monsieur"``, ``"madame"``, ``"le borgne"`` or ``"borgne"``,
          ``"la vache"``, ``"grand-neuf"``, « le grand neuf », ``"petit neuf"``, ``"deux de chene"``,
          ``"deux d'ecrit"``, with the number in figures too (« le Grand 9 », « le 2 de Chêne », as jeuxloisirs.net
          writes them according to the project's source list);
        * two more traditional names (:data:`OTHER_NICKNAMES`), with or without their article: ``"la Grande Dame"``
          for Madame and ``"la balançoire"`` for the Deux de chêne. Source: Jacques Berthomeau's description of the
          game as played in the Vendée (http://www.berthomeau.com/article-5185569.html): "le 3 de "coupe" dit La
          grande Dame", "le 2 de "bâton" dit deux de chêne ou la balançoire".

        The text is first normalised with Unicode NFKC, so full-width or mathematical letters read as plain ones
        (``"３Ｏ"`` is ``"3O"``); text longer than :data:`MAX_CARD_TEXT` characters is refused before any work.
        A :class:`Card` is returned unchanged.

        Raises:
            UnknownCardError: the text matches none of these forms; the message quotes a short prefix of it and
                lists the forms.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise UnknownCardError(_("unknown card {text}: expected text such as '3O', 'king of swords', 'roi de "
                                     "deniers' or 'Monsieur', or a Card").format(text=quoted(text)))
        if len(text) > MAX_CARD_TEXT:
            raise UnknownCardError(_("unknown card {text}: a card is written in at most {limit} characters").format(
                text=quoted(text), limit=MAX_CARD_TEXT))
        folded = unicodedata.normalize("NFKC", text)
        match = _CODE_RE.match(folded)
        if match:
            return _BY_RANK_SUIT[int(match.group(1)), Suit(match.group(2).upper())]
        key = _ARTICLE_RE.sub("", _normalise(folded), count=1)
        if key in _BY_WORDS:
            return _BY_WORDS[key]
        if key in _TENS:
            raise UnknownCardError(_(
                "unknown card {text}: an ordinary deck plays Aluette without its four 10s (its jack is the valet, its "
                "queen the cavalière: 'valet de cœur', 'dame de cœur')").format(text=quoted(text)))
        nicknames = [repr(name) for _strength, name, _cards in RANKING if name] + list(map(repr, OTHER_NICKNAMES))
        raise UnknownCardError(_(
            "unknown card {text}: write a code (rank 1-12 then suit O coins, C cups, B batons, E swords, e.g. '3O', "
            "'12E'), English ('king of swords', 'cavalière of cups', '3 of coins'), French ('roi de deniers', 'valet "
            "d'épées', 'cavalière de coupes', 'l'as de bâtons'), an ordinary deck's name ('3 of diamonds', 'dame de "
            "cœur') or a nickname ({nicknames})").format(text=quoted(text), nicknames=", ".join(nicknames))
        )

    # Pictures in notebooks, drawn by aluette.pictures (imported only when a picture is asked for).
    def _repr_html_(self) -> str:
        from .pictures import cards_html
        return cards_html([self])

    def _repr_svg_(self) -> str:
        from .pictures import card_svg
        return card_svg(self)


CardLike = Union[Card, str]


def _normalise(text: str) -> str:
    """Lower case, accents removed (œ read as oe), a leading "l'" kept as "l " (so « l'as » is not "las"), other
    apostrophes removed, hyphens and runs of spaces folded to one space. One pass over the text per step: linear."""
    text = unicodedata.normalize("NFKD", text.replace("œ", "oe").replace("Œ", "OE"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = re.sub(r"^(\s*l)['’`´]", r"\1 ", text)
    text = re.sub(r"['’`´]", "", text)
    return " ".join(re.sub(r"[-_]", " ", text).split())


#: An article in front of a card's name, as :func:`_normalise` leaves it: « le », « la », « l' », "the".
_ARTICLE_RE = re.compile(r"^(?:le|la|l|the) (?=\S)")


#: The longest text :meth:`Card.parse` reads ("cavalière de bâtons" is 19 characters).
MAX_CARD_TEXT = 60

#: Suit words, as :func:`_normalise` leaves them (no accents): English, Spanish, French (deniers or ors, coupes,
#: bâtons, épées), then the ordinary French-suited deck's in English and French (diamonds/carreau, hearts/cœur,
#: clubs/trèfle, spades/pique).
_SUIT_WORDS = {
    Suit.COINS: ("coins", "coin", "oros", "oro", "deniers", "denier", "ors", "or",
                 "diamonds", "diamond", "carreaux", "carreau"),
    Suit.CUPS: ("cups", "cup", "copas", "copa", "coupes", "coupe", "hearts", "heart", "coeurs", "coeur"),
    Suit.BATONS: ("batons", "baton", "bastos", "basto", "clubs", "club", "trefles", "trefle"),
    Suit.SWORDS: ("swords", "sword", "espadas", "espada", "epees", "epee", "spades", "spade", "piques", "pique"),
}
#: Rank words: digits, English, Spanish and French (as, deux ... neuf, valet, cavalière or dame, roi), and the
#: ordinary deck's queen for the cavalière. "cavalier" and "knight" are read too, as a reader may type them; the
#: project writes only "cavalière".
_RANK_WORDS = {
    1: ("1", "ace", "as", "one"), 2: ("2", "two", "deux"), 3: ("3", "three", "trois"), 4: ("4", "four", "quatre"),
    5: ("5", "five", "cinq"), 6: ("6", "six"), 7: ("7", "seven", "sept"), 8: ("8", "eight", "huit"),
    9: ("9", "nine", "neuf"), 10: ("10", "jack", "sota", "valet"),
    11: ("11", "cavaliere", "dame", "queen", "caballo", "cavalier", "knight"), 12: ("12", "king", "rey", "roi"),
}

#: Traditional names besides the nicknames of :data:`RANKING`, and the card each names: Jacques Berthomeau's
#: description of the game in the Vendée (http://www.berthomeau.com/article-5185569.html) calls the 3 of cups "La
#: grande Dame" and the 2 of batons "deux de chêne ou la balançoire".
OTHER_NICKNAMES = {"la Grande Dame": "3C", "la balançoire": "2B"}

#: The ordinary French-suited deck's suit words, and the rank words that name no card of that deck: its 10s are left
#: out, and its jack, queen and king are not numbered 10-12 as the Spanish sota, caballo and rey are.
_ORDINARY_SUIT_WORDS = frozenset(("diamonds", "diamond", "carreaux", "carreau", "hearts", "heart", "coeurs", "coeur",
                                  "clubs", "club", "trefles", "trefle", "spades", "spade", "piques", "pique"))
_SPANISH_ONLY_RANKS = frozenset(("10", "11", "12", "sota", "caballo", "rey"))

DECK: tuple[Card, ...]
_TENS: set[str] = set()
_BY_RANK_SUIT: dict[tuple[int, Suit], Card] = {}
_BY_WORDS: dict[str, Card] = {}


def _build() -> tuple[Card, ...]:
    deck = []
    for s, suit in enumerate(_SUIT_ORDER):
        for rank in range(1, 13):
            card = Card._make(rank, suit, s * 12 + rank - 1)
            _BY_RANK_SUIT[rank, suit] = card
            deck.append(card)
    by_code = {c.code: c for c in deck}
    seen = set()
    for position, (class_name, nickname, codes) in enumerate(RANKING):
        for code in codes:
            card = by_code[code]
            object.__setattr__(card, "strength", len(RANKING) - position)
            object.__setattr__(card, "class_name", class_name)
            object.__setattr__(card, "nickname", nickname)
            seen.add(card)
            if nickname:
                # without its article (Card.parse drops one), and with its number in figures: « le Grand 9 »
                key = _ARTICLE_RE.sub("", _normalise(nickname))
                _BY_WORDS[key] = card
                _BY_WORDS[" ".join({"neuf": "9", "deux": "2"}.get(w, w) for w in key.split())] = card
    for nickname, code in OTHER_NICKNAMES.items():
        _BY_WORDS[_ARTICLE_RE.sub("", _normalise(nickname))] = by_code[code]
    assert len(seen) == 48, "RANKING must name every card exactly once"
    def names(rank_word: str, suit_word: str) -> tuple[str, ...]:
        elided = (f"{rank_word} d{suit_word}", f"{rank_word} d {suit_word}") if suit_word[0] in "aeiou" else ()
        return (f"{rank_word} of {suit_word}", f"{rank_word} de {suit_word}", *elided)  # « valet d'épées »

    for card in deck:
        for rank_word in _RANK_WORDS[card.rank]:
            for suit_word in _SUIT_WORDS[card.suit]:
                ordinary = suit_word in _ORDINARY_SUIT_WORDS
                if ordinary and rank_word in _SPANISH_ONLY_RANKS:
                    continue  # "10 of hearts" is an ordinary deck's 10, not the jack (module docstring)
                for key in names(rank_word, suit_word):
                    _BY_WORDS[key] = card
    for suit_word in _ORDINARY_SUIT_WORDS:
        for ten in ("10", "ten", "dix"):
            _TENS.update(names(ten, suit_word))
    return tuple(deck)


#: The 48 cards in a fixed order: coins 1-12, cups 1-12, batons 1-12, swords 1-12 (``card.index`` is the position).
DECK = _build()

#: Monsieur, Madame, le Borgne, la Vache, high to low: the four cards of the partnership draw, and the four that win
#: the last four tricks in a row for their holder (what a bot refusing a surrender counts on).
TOP_FOUR: tuple[Card, ...] = tuple(Card.parse(code) for _, _, (code,) in RANKING[:4])
#: The eight cards with traditional names, high to low.
NICKNAMED: tuple[Card, ...] = tuple(Card.parse(codes[0]) for _, nick, codes in RANKING if nick)

#: Strength of each card by ``card.index``: a tuple lookup used on hot paths.
STRENGTH: tuple[int, ...] = tuple(c.strength for c in DECK)

#: The 48 cards in hand order, the order a hand is shown and kept in: high to low by strength, then deck order
#: among equals (Monsieur first, then ... the 3 of batons, the 3 of swords).
HAND_ORDER: tuple[Card, ...] = tuple(sorted(DECK, key=lambda c: (-c.strength, c.index)))
_HAND_PLACE: tuple[int, ...] = tuple(HAND_ORDER.index(card) for card in DECK)


def hand_place(card: Card) -> int:
    """The card's place in :data:`HAND_ORDER` (0 for Monsieur ... 47): the sort key of a hand.

    >>> [c.code for c in sorted(parse_cards("4O 1E 3O 1C"), key=hand_place)]
    ['3O', '1C', '1E', '4O']
    """
    return _HAND_PLACE[card.index]


#: The longest text :func:`parse_cards` reads: 48 cards written in words, with room to spare.
MAX_CARDS_TEXT = 4000


def parse_cards(cards: Union[str, Iterable[CardLike]]) -> tuple[Card, ...]:
    """Read several cards: a string of codes separated by spaces (``"3O 2C 12E"``), by commas or semicolons
    (``"Monsieur, king of swords"``) or both (``"3O 2C, la vache"``), or an iterable of cards/texts.

    Raises:
        UnknownCardError: any item is not a card (the message names that item), ``cards`` is neither text nor
            an iterable of cards (``None``, a number, bytes), or the text is longer than :data:`MAX_CARDS_TEXT`.
    """
    if isinstance(cards, (bytes, bytearray)) or not isinstance(cards, (str, Iterable)):
        raise UnknownCardError(_("expected cards as text ('3O 2C 12E') or a sequence of cards, got {value}").format(
            value=quoted(cards)))
    if not isinstance(cards, str):
        return tuple(Card.parse(item) for item in cards)
    if len(cards) > MAX_CARDS_TEXT:
        raise UnknownCardError(_("too much text for cards: {text}; at most {limit} characters (a whole deck of 48 "
                                 "codes takes about 150)").format(text=quoted(cards), limit=MAX_CARDS_TEXT))
    parsed = []
    for piece in (t.strip() for t in re.split(r"[,;]", cards)):
        if not piece:
            continue
        try:
            parsed.append(Card.parse(piece))
        except UnknownCardError:
            # a comma-separated piece may itself be several codes: "3O 2C, 1E"
            parsed.extend(Card.parse(word) for word in piece.split())
    return tuple(parsed)
