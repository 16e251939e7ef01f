"""Names people type at a shared table: table names and players' first names (issue 22, "Names").

A name is read the way Unicode's security guidance for identifiers reads one (UTS #39, in a small form that needs
no data beyond :mod:`unicodedata`), in one pass over at most a few dozen characters:

* normalised (NFKC: full-width and other compatibility forms become the ordinary letter) and its spaces collapsed;
* made of letters, digits, the combining marks that follow a letter (Hindi's vowel signs, Thai's tone marks), and
  ``space - _ ' .``; invisible letters and marks (the Hangul fillers, which look like nothing, the combining grapheme
  joiner and the variation selectors: Unicode's default-ignorable characters that ``isalpha`` or category ``M``
  would let in) are refused, and a name holds at least one visible letter or digit;
* at most :data:`MARKS_IN_A_ROW` combining marks on one letter, never the same mark twice in a row (UTS #39's
  check of nonspacing marks: a letter under ten accents spills over the names around it, while the scripts that
  stack marks, Thai's vowel and tone, Hindi's conjuncts, put two or three on a letter);
* each word written in one script: a word that mixes alphabets ("Аlice" with a Cyrillic "А") is what a look-alike
  of another player's name is made of, while a real name is written in one (Japanese kanji with kana, and Korean
  hangul with hanja, count as one);
* not one of the labels the pages themselves show for a seat ("a bot", "you", "empty"), in any language the pages
  are written in ("un robot", "vous"), nor another player's name at the same table, nor one that looks like it
  (:func:`skeleton`): a second Ann adds an initial. A table's name is not one that looks like another open
  table's (:func:`check_not_like`, from :meth:`aluette.store.TableService.create_table`).

What is not refused: a name written wholly in another alphabet, even one whose letters all look like Latin ones
("Оксана"): those are real names; it is refused only beside the name it looks like.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any, Iterable

from ..errors import InputTooLongError, TableError, quoted
from ..i18n import LANGUAGES, _, translations

__all__ = ["clean_name", "skeleton", "check_not_like", "reserved_labels", "RESERVED", "MARKS_IN_A_ROW"]

#: Punctuation a name may hold besides letters and digits.
PUNCTUATION = frozenset(" -_'.")
#: Letters and marks that are drawn as nothing (Unicode's default-ignorable letters, category Lo, which ``isalpha``
#: accepts, and marks, category Mn: the Hangul fillers, the combining grapheme joiner, Khmer's inherent vowels, the
#: Mongolian and the other variation selectors).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5" + "".join(map(chr, range(0x180b, 0x1810)))
                      + "".join(map(chr, range(0xfe00, 0xfe10))) + "".join(map(chr, range(0xe0100, 0xe01f0))))
#: At most this many combining marks in a row (UTS #39 flags more than four nonspacing marks on one letter).
MARKS_IN_A_ROW = 4
#: What the pages write in place of a player's name; no player may be called so.
RESERVED = frozenset({"a bot", "bot", "you", "empty", "nobody"})
#: The pages' labels for a seat, translated in every language of the pages (:func:`reserved_labels`).
_PAGE_LABELS = ("a bot", "you", "nobody yet", "a person")
#: Scripts written together in one word by the languages that use them.
_SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "KATAKANA-HIRAGANA": "CJK", "HANGUL": "CJK",
                  "BOPOMOFO": "CJK", "IDEOGRAPHIC": "CJK"}
#: Letters of other alphabets drawn like a Latin letter (the common ones of Unicode's confusables list).
_LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "һ": "h", "ӏ": "l", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "0": "o", "1": "l", "|": "l",
    # Latin small capitals and other letters drawn like a plain one
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l",
    "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
    "ı": "i",
})


def _script(char: str) -> str:
    """The script of a letter, from its Unicode name ("LATIN SMALL LETTER A" → ``"LATIN"``), East Asian scripts
    written together as one; ``""`` for a letter of no one script (modifier letters)."""
    word = unicodedata.name(char, "").split(" ", 1)[0]
    if word in ("MODIFIER", ""):
        return ""
    return _SCRIPT_GROUPS.get(word, word)


def clean_name(value: Any, what: str, limit: int) -> str:
    """``value`` as stored and shown (see the module): NFKC, spaces collapsed, 1 to ``limit`` characters.

    Raises:
        InputTooLongError: longer than ``limit`` (checked before it is read). TableError: not text, empty, a
        character a name may not hold, an invisible letter, marks stacked on a letter, or a word that mixes scripts
        (a label the pages show is refused by :func:`check_not_like`). The messages are in the page's language
        (``what``, marked for the catalogue where it is written, too).
    """
    what = _(what)
    if not isinstance(value, str):
        raise TableError(_("{what} must be text, got {value}").format(what=what, value=quoted(value)))
    if len(value) > limit:  # refused before it is read
        raise InputTooLongError(_("{what} is at most {limit} characters, got {value}").format(
            what=what, limit=limit, value=quoted(value)))
    text = " ".join(unicodedata.normalize("NFKC", value).split())
    if not text:
        raise TableError(_("{what} is empty: type a few letters").format(what=what))
    if len(text) > limit:
        raise InputTooLongError(_("{what} is at most {limit} characters, got {value}").format(
            what=what, limit=limit, value=quoted(text)))
    visible = False
    previous = " "
    script = ""
    marks = 0
    # the marks are counted on the decomposed form (UTS #39): NFKC composed "e" and its first acute into "é", so that
    # a second acute on it was counted as the first of its kind
    for char in unicodedata.normalize("NFD", text):
        if char in INVISIBLE:
            raise TableError(_("{what} may not hold invisible letters ({char} in {text})").format(
                what=what, char=quoted(char), text=quoted(text)))
        category = unicodedata.category(char)
        if category[0] == "M":
            if not (previous.isalpha() or unicodedata.category(previous)[0] == "M"):
                raise TableError(_("{what}: the mark {char} in {text} must follow a letter").format(
                    what=what, char=quoted(char), text=quoted(text)))
            marks += 1
            if marks > MARKS_IN_A_ROW or char == previous:
                stacks = (_("{what} stacks the same mark twice on one letter in {text}: at most {most} different "
                            "marks") if char == previous else
                          _("{what} stacks too many marks on one letter in {text}: at most {most} different marks"))
                raise TableError(stacks.format(what=what, text=quoted(text), most=MARKS_IN_A_ROW))
            previous = char
            continue
        marks = 0
        if char.isalpha():
            visible = True
            mine = _script(char)
            if mine and script and mine != script:
                raise TableError(_("{what} mixes two alphabets in one word ({first} and {second} in {text}), as "
                                   "names made to look like another do: write it in one").format(
                    what=what, first=script.title(), second=mine.title(), text=quoted(text)))
            script = mine or script
        elif char.isdigit():
            visible = True
        elif char in PUNCTUATION:
            if char in " -":
                script = ""  # a new word may be in another script ("Anna Иванова")
        else:
            raise TableError(_("{what} may hold letters, digits, spaces and - _ ' . only; {char} in {text} is not "
                               "allowed").format(what=what, char=quoted(char), text=quoted(text)))
        previous = char
    if not visible:
        raise TableError(_("{what} needs at least one letter or digit, got {text}").format(
            what=what, text=quoted(text)))
    return text


def skeleton(name: str) -> str:
    """What a name looks like, for telling look-alikes apart: case folded, accents and spaces dropped, letters of
    other alphabets drawn like a Latin letter read as that letter (``"Аlice"`` and ``"alice"`` share one)."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in folded if unicodedata.category(c)[0] != "M" and c not in " -_'.").translate(
        _LOOK_ALIKES)


@functools.lru_cache(maxsize=1)
def reserved_labels() -> frozenset[str]:
    """:data:`RESERVED` and the pages' labels for a seat in every language of the pages (``"un robot"``), folded."""
    return frozenset({*RESERVED, *(translations(code).gettext(label).casefold() for code in LANGUAGES
                                   for label in _PAGE_LABELS)})


def check_not_like(player: str, others: Iterable[str], seat_labels: Iterable[str] = ()) -> None:
    """Refuse a player's name that is a label the pages show (:data:`RESERVED`, "bot North"...), another player's name
    at the table, or one that looks like it.

    Raises:
        TableError: naming the label or the name it looks like; a name that is not text (a program's error: the
            callers pass names :func:`clean_name` returned).
    """
    others = tuple(others)
    for value in (player, *others):
        if not isinstance(value, str):
            raise TableError(_("{what} must be text, got {value}").format(what=_("a player's name"),
                                                                          value=quoted(value)))
    folded = player.casefold()
    labels = {*reserved_labels(), *(label.casefold() for label in seat_labels)}
    mine = skeleton(player)
    for label in labels:
        if folded == label or mine == skeleton(label):
            raise TableError(_("{name} is what the page writes for a seat ({label}): choose another name").format(
                name=quoted(player), label=quoted(label)))
    for other in others:
        if other == player:
            raise TableError(_("{name} is already at this table: add an initial ({example}) so that the others can "
                               "tell you apart").format(name=quoted(player), example=f'"{player[:20]} B."'))
        if skeleton(other) == mine:
            raise TableError(_("{name} looks like {other}, already at this table: choose a name the others can tell "
                               "apart").format(name=quoted(player), other=quoted(other)))
