"""The words the tutorial uses for the game's things and its sources (issue 19): what a student reads (the
catalogue's English and French entries, the notebooks' markdown in both languages) and what the engine's docstrings
say. Each rule is checked on the whole text, and each check is shown to fail on the wording it replaced.

Sources of the rules, next to each test.
"""

from __future__ import annotations

import ast
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "aluette" / "locale" / "aluette.pot"
PO = ROOT / "aluette" / "locale" / "fr" / "LC_MESSAGES" / "aluette.po"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks" / "fr").glob("*.ipynb"))
MODULES = sorted((ROOT / "aluette").rglob("*.py"))


def _strings(value) -> list[str]:
    return [value] if isinstance(value, str) else [v for v in value if v]


@lru_cache(maxsize=None)
def catalogue_texts() -> tuple[tuple[str, str], ...]:
    """(where, text) for every entry a student may read: the English ids (the .pot) and the French (the .po)."""
    found = []
    for path in (POT, PO):
        with path.open("rb") as f:
            for message in read_po(f):
                if message.id:
                    texts = _strings(message.id) + (_strings(message.string) if path == PO else [])
                    found += [(f"{path.name}: {_strings(message.id)[0][:60]!r}", t) for t in texts]
    return tuple(found)


@lru_cache(maxsize=None)
def notebook_texts() -> tuple[tuple[str, str], ...]:
    """(where, text) for every markdown cell of the English and French notebooks."""
    return tuple((f"{path.relative_to(ROOT)} cell {cell.get('id')}", "".join(cell["source"]))
                 for path in NOTEBOOKS for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
                 if cell["cell_type"] == "markdown")


@lru_cache(maxsize=None)
def docstring_texts(paths=tuple(MODULES)) -> tuple[tuple[str, str], ...]:
    """(where, text) for every docstring (module, class, function) of the engine's modules."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    found.append((f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 1)}", doc))
    return tuple(found)


def sentences(text: str) -> list[str]:
    """The sentences of a text, whitespace folded (a wrapped line does not cut a sentence)."""
    return [s for s in re.split(r"(?<=[.;!?])\s+|\n\s*\n|\n\s*[*-] ", text) if s.strip()]


def folded(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------------------------------- first to 5 points
#: A match to 5 points, in English or French words, or the option that sets it.
FIRST_TO_FIVE = re.compile(r"\b(?:5|five|cinq) points\b|\bfirst (?:side |team |partnership )?to (?:reach )?(?:5|five)\b"
                           r"|\btarget_points\b|\bà (?:5|cinq)\b|premi[eè]re? équipe à", re.IGNORECASE)
#: The Vendée and Brittany, in English and French.
REGION = re.compile(r"vend[ée]e|vendéen|breton|brittany|bretagne", re.IGNORECASE)


def first_to_five_tied_to_a_region(texts) -> list[tuple[str, str]]:
    return [(where, folded(s)[:160]) for where, text in texts for s in sentences(text)
            if FIRST_TO_FIVE.search(s) and REGION.search(s)]


def test_first_to_five_is_not_tied_to_the_vendee_or_brittany():
    # Source: the French descriptions that play first to 5 (trictrac.net: « L'équipe gagnante est celle qui marque la
    # première cinq points »; regles2jeux.fr: « être la première équipe à marquer 5 points ») name no region for it,
    # and trictrac warns against tying the game to the Vendée (issue 19 §2): the match is "as the French
    # descriptions give it", never "of the Vendée and Brittany"
    texts = catalogue_texts() + notebook_texts() + docstring_texts()
    assert first_to_five_tied_to_a_region(texts) == []


def test_the_region_check_can_fail():
    # the wording aluette/options.py had, and wordings that are right
    wrong = [("options", "``match_deals`` deals. Sources for 5 points, the match of the Vendée and Breton\n"
                         "descriptions: trictrac.net"),
             ("fr", "la première équipe à 5 points, comme on joue en Vendée")]
    right = [("options", "First to 5 points is the match as the French descriptions give it (trictrac.net)."),
             ("00", "Aluette is played in the Vendée, the Loire estuary and Brittany. A match is five deals.")]
    assert [w for w, _ in first_to_five_tied_to_a_region(wrong + right)] == ["options", "fr"]


# ---------------------------------------------------------------------------------------------- la cavalière
#: The 11 called a man on horseback: "cavalier(s)" as a whole word ("cavalière(s)" is the right word).
CAVALIER = re.compile(r"\bcavaliers?\b", re.IGNORECASE)


def cavaliers(texts) -> list[tuple[str, str]]:
    return [(where, m.group(0)) for where, text in texts for m in CAVALIER.finditer(text)]


def test_the_eleven_is_a_cavaliere_wherever_a_student_reads():
    # Source: the rules sheet ("cavalières", docs/sources/) and pagat.com (« Les quatre Cavalières »): the 11 is a
    # woman on horseback, la cavalière, never "cavalier" (issue 19 §4); regles2jeux.fr calls her la dame
    assert cavaliers(catalogue_texts() + notebook_texts()) == []


def test_the_cavalier_check_can_fail():
    # the practice rule's old wording is found; the right words, and other words that begin alike, are not
    found = cavaliers([("rules", "then aces, kings, cavaliers, jacks ..."), ("fr", "le Cavalier de coupe"),
                       ("ok", "aces, kings, cavalières, jacks; la cavalière; cavalièrement")])
    assert found == [("rules", "cavaliers"), ("fr", "Cavalier")]


# ---------------------------------------------------------------------------------------------- Guy Rebour's account
#: The announced mordienne named as a variant of Rebour's or of pagat's, as if it were a tradition of the table.
REBOUR_VARIANT = re.compile(r"\bRebour(?:'s)? variant\b|\bpagat(?:\.com)?'s Rebour\b|\bvariante (?:de )?Rebour\b",
                            re.IGNORECASE)


def rebour_named_as_a_variant(texts) -> list[tuple[str, str]]:
    return [(where, m.group(0)) for where, text in texts for m in REBOUR_VARIANT.finditer(folded(text))]


def test_the_announced_mordienne_is_named_after_guy_rebours_account():
    # Source: pagat.com (French translation) reports one book: « Selon un récit du jeu (Guy Rebour: La Crapette et le
    # Jeu de Aluette) », and doubts it: « C'est un peu difficile à comprendre » (issue 19 §1). So the variant is "an
    # announced mordienne, from Guy Rebour's account of the game as pagat.com reports it" (aluette/options.py, Rebour),
    # never pagat's own variant nor Rebour's as if he had made a tradition
    texts = catalogue_texts() + notebook_texts() + docstring_texts()
    assert rebour_named_as_a_variant(texts) == []


def test_the_rebour_check_can_fail():
    # aluette/moves.py's old wording, wrapped as it was; the project's own wordings pass
    wrong = [("moves", "before the first trick: pagat.com's\n    Rebour variant (:class:`Rebour`)"),
             ("issue", "not as \"Rebour's variant\" as if it were a tradition")]
    right = [("options", "An announced mordienne, from Guy Rebour's account of the game as pagat.com reports it"),
             ("05", "A variant from one book: Guy Rebour's announced mordienne")]
    assert rebour_named_as_a_variant(wrong + right) == [("moves", "pagat.com's Rebour"), ("issue", "Rebour's variant")]


# ---------------------------------------------------------------------------------------------- pagat on spoiling
#: Spoiling presented as what one does "when it cannot" win: a fallback, not the advice pagat gives.
SPOIL_AS_FALLBACK = re.compile(r"\b(?:when (?:it|you|they) (?:cannot|can't)|quand (?:il|on|vous) ne (?:le )?"
                               r"(?:peut|pouvez) pas)\b[^.]*?\b(?:spoil|pourri)", re.IGNORECASE)


def spoil_credited_to_pagat_as_a_fallback(texts) -> list[tuple[str, str]]:
    """(where, sentence) for each sentence of a paragraph naming pagat that gives spoiling as a fallback."""
    return [(where, m.group(0)) for where, text in texts for para in re.split(r"\n\s*\n", text)
            if "pagat" in para.lower() for sentence in re.split(r"(?<=\.)\s+", folded(para))
            for m in SPOIL_AS_FALLBACK.finditer(sentence)]


def test_pagat_offers_the_spoil_to_the_fourth_player_as_advice():
    # Source: pagat.com (French translation, "Comment jouer"): the fourth player « tentera de battre cette carte le
    # plus économiquement possible »; and « C'est souvent une bonne idée que le quatrième joueur gâche le tour en
    # égalisant la carte du troisième joueur, gardant ainsi l'avantage de jouer en dernier »: advice beside the cheap
    # win, never "when it cannot" (that is the rules sheet's "if you can't win by going last"; issue 19 §2). Which the
    # bot tries first is the project's decision heuristic-bot (aluette/players/bots.py, tests/test_bots.py)
    texts = catalogue_texts() + notebook_texts() + docstring_texts()
    assert spoil_credited_to_pagat_as_a_fallback(texts) == []
    for name in ("notebooks/08_play_a_match.ipynb", "notebooks/fr/08_play_a_match.ipynb"):
        hint = next(text for where, text in notebook_texts() if where == f"{name} cell 818da79f")  # "What the hint does"
        assert "« souvent une bonne idée »" in folded(hint) and "<!-- heuristic-bot -->" in hint


def test_the_spoil_check_can_fail():
    # notebook 08's old wording, and 04's French; the rules sheet's own sentence, and the bot's rule, pass
    wrong = [("08", "Its rules start from pagat.com's advice: the fourth beats the best card as cheaply as\npossible, "
                    "or, when it cannot, spoils the trick by matching the best card's class."),
             ("fr/04", "pagat.com conseille ainsi le quatrième joueur : battre la meilleure carte, ou, quand il ne\n"
                       "peut pas gagner, **pourrir le pli**.")]
    right = [("04", "The rules sheet says: if you can't win by going last, spoiling the trick is often an advantage. "
                    "pagat.com's advice: it is « souvent une bonne idée » to spoil the trick."),
             ("08", "pagat does not say which to prefer; the bot beats the best card when it can, spoils only when it "
                    "cannot and an opponent holds the trick, and otherwise throws its lowest.")]
    assert [w for w, _ in spoil_credited_to_pagat_as_a_fallback(wrong + right)] == ["08", "fr/04"]
