"""The French notebooks (``notebooks/fr/``) are kept in step with the English ones (``notebooks/``), issue 21: every
English notebook has its French twin of the same file name, with the same cells in the same order (same types, same
tags and metadata) and the same code, apart from one code cell tagged ``language`` at the top that sets the
language (``set_language("fr")``); each markdown cell carries its English cell's decision marks. A markdown cell
must be translated: not empty, and not the English text, unless it holds only code, links or pictures (nothing to
translate). Links from a French lesson to another lesson lead to the French one. So a new English cell without its
French twin fails, and so does English code changed without its twin (a changed English sentence is not detected:
its translator must follow the English diff).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tools.notebooks import NOTEBOOKS

FRENCH = NOTEBOOKS / "fr"
ENGLISH_PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
LANGUAGE_TAG = "language"
LANGUAGE_SOURCE = 'from aluette.i18n import set_language\n\nset_language("fr")'

#: English notebooks whose French twin is still to be written (issue 21): this list only shrinks.
NOT_YET_TRANSLATED: frozenset[str] = frozenset()

# what a markdown cell may hold and still be the same in both languages: code spans, links, HTML tags, pictures
_UNTRANSLATABLE = re.compile(r"`[^`]*`|!?\[[^\]]*\]\([^)]*\)|<[^>]*>|[\s\W\d_]+")
#: a decision's mark in the prose (``⚖ Our decision: <!-- name -->``, tests/test_decisions.py): each French cell
#: carries the marks of its English cell, in the same order
_MARK = re.compile(r"<!-- ([a-z0-9-]+) -->")
_LESSON_LINK = re.compile(r"\]\(([^)\s]*\.ipynb)(#[^)]*)?\)|href=\"([^\"]*\.ipynb)")


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def language_cell(cell: dict) -> bool:
    return LANGUAGE_TAG in cell.get("metadata", {}).get("tags", [])


def only_untranslatable(text: str) -> bool:
    return not _UNTRANSLATABLE.sub("", text).strip()


def twin_problems(english: Path, french: Path) -> list[str]:
    """What keeps ``french`` from being the twin of ``english`` (empty when it is)."""
    if not french.exists():
        return [f"{french.name}: no French twin in notebooks/fr/"]
    found = []
    fr_cells = cells(french)
    set_lines = [i for i, c in enumerate(fr_cells) if language_cell(c)]
    if set_lines != [0] or fr_cells[0]["cell_type"] != "code" or source(fr_cells[0]).strip() != LANGUAGE_SOURCE:
        found.append(f"{french.name}: the first cell, and only it, must be the code cell tagged {LANGUAGE_TAG!r} "
                     f"holding {LANGUAGE_SOURCE!r}")
    fr_cells = [c for c in fr_cells if not language_cell(c)]
    en_cells = cells(english)
    if len(en_cells) != len(fr_cells):
        found.append(f"{french.name}: {len(fr_cells)} cells besides the language cell, the English has "
                     f"{len(en_cells)}")
    for number, (en, fr) in enumerate(zip(en_cells, fr_cells), start=1):
        where = f"{french.name} cell {number} (English cell {number})"
        if en["cell_type"] != fr["cell_type"]:
            found.append(f"{where}: a {fr['cell_type']} cell where the English has a {en['cell_type']} cell")
            continue
        en_meta = {k: v for k, v in en.get("metadata", {}).items() if k not in ("execution", "collapsed")}
        fr_meta = {k: v for k, v in fr.get("metadata", {}).items() if k not in ("execution", "collapsed")}
        if en_meta != fr_meta:
            found.append(f"{where}: metadata {fr_meta} where the English has {en_meta}")
        if en["cell_type"] == "code":
            if source(en) != source(fr):
                found.append(f"{where}: the code differs from the English")
            continue
        text = source(fr)
        if not text.strip():
            found.append(f"{where}: empty")
        elif text == source(en) and not only_untranslatable(text):
            found.append(f"{where}: left in English")
        en_marks, fr_marks = _MARK.findall(source(en)), _MARK.findall(text)
        if en_marks != fr_marks:
            found.append(f"{where}: decision marks {fr_marks} where the English has {en_marks}")
        for link in _LESSON_LINK.finditer(text):
            target = link.group(1) or link.group(3)
            # a lesson still on NOT_YET_TRANSLATED is linked where its French twin will be
            if "/" in target or not ((french.parent / target).exists() or target in NOT_YET_TRANSLATED):
                found.append(f"{where}: links to {target!r}, not to a French lesson beside it")
    return found


@pytest.mark.parametrize("english", ENGLISH_PATHS, ids=[p.name for p in ENGLISH_PATHS])
def test_french_twin_keeps_in_step(english: Path):
    problems = twin_problems(english, FRENCH / english.name)
    if english.name in NOT_YET_TRANSLATED:
        if problems:
            pytest.xfail(f"French twin still to be written: {problems[0]}")
        pytest.fail(f"{english.name} is translated and in step: take it off NOT_YET_TRANSLATED")
    assert problems == []


def test_every_french_notebook_has_an_english_original():
    assert {p.name for p in FRENCH.glob("*.ipynb")} <= {p.name for p in ENGLISH_PATHS}


def test_not_yet_translated_names_english_notebooks():
    assert NOT_YET_TRANSLATED <= {p.name for p in ENGLISH_PATHS}


def test_the_check_catches_what_it_should(tmp_path: Path):
    # positive control: a faithful twin passes; an untranslated cell, a missing cell, changed code, a changed tag,
    # an English link, a missing language cell, an empty cell and a decision mark the English lacks each fail
    english = tmp_path / "01_x.ipynb"
    (tmp_path / "fr").mkdir()
    french = tmp_path / "fr" / "01_x.ipynb"
    (tmp_path / "fr" / "02_y.ipynb").write_text("{}", encoding="utf-8")

    def notebook(path, cell_list):
        path.write_text(json.dumps({"cells": cell_list}), encoding="utf-8")

    def md(text, tags=None):
        return {"cell_type": "markdown", "metadata": {"tags": tags} if tags else {}, "source": [text]}

    def code(text, tags=None):
        return {"cell_type": "code", "metadata": {"tags": tags} if tags else {}, "source": [text]}

    lang = code(LANGUAGE_SOURCE, [LANGUAGE_TAG])
    notebook(english, [md("# The ranking\n\nSee [02](02_y.ipynb)."), code("x = 1", ["remove-cell"]), md("`x`")])
    notebook(french, [lang, md("# Le classement\n\nVoir [02](02_y.ipynb)."), code("x = 1", ["remove-cell"]),
                      md("`x`")])
    assert twin_problems(english, french) == []
    cases = {
        "left in English": [lang, md("# The ranking\n\nSee [02](02_y.ipynb)."), code("x = 1", ["remove-cell"]),
                            md("`x`")],
        "cells besides": [lang, md("# Le classement"), code("x = 1", ["remove-cell"])],
        "code differs": [lang, md("# Le classement"), code("x = 2", ["remove-cell"]), md("`x`")],
        "metadata": [lang, md("# Le classement"), code("x = 1"), md("`x`")],
        "not to a French lesson": [lang, md("# Le classement\n\n[02](../02_y.ipynb)"),
                                   code("x = 1", ["remove-cell"]), md("`x`")],
        "first cell": [md("# Le classement"), code("x = 1", ["remove-cell"]), md("`x`")],
        "empty": [lang, md(" "), code("x = 1", ["remove-cell"]), md("`x`")],
    "decision marks": [lang, md("# Le classement"), code("x = 1", ["remove-cell"]), md("`x` <!-- a-b -->")],
    }
    for expected, cell_list in cases.items():
        notebook(french, cell_list)
        assert any(expected in p for p in twin_problems(english, french)), expected


# « Faire autant » is the table's word for spoiling a trick by matching the best card (Jeux & Stratégie n° 2, 1980,
# quoted in lesson 04); "first to reach" (who reached the most tricks first, lesson 05) is « le premier à y arriver ».
def term_pairs() -> list[tuple[str, str, str]]:
    """(where, English, French) for every translated text: each twin cell, each landing line, each catalogue entry."""
    from babel.messages.pofile import read_po

    from aluette.classroom.landing import read_entry
    pairs = []
    for english in ENGLISH_PATHS:
        french = FRENCH / english.name
        if not french.exists():
            continue
        for k, (en, fr) in enumerate(zip(cells(english), cells(french)[1:])):
            pairs.append((f"{english.name} cell {k}", source(en), source(fr)))
        pairs.append((f"{english.name} landing", read_entry(english).description, read_entry(french).description))
    po = Path(__file__).parent.parent / "aluette" / "locale" / "fr" / "LC_MESSAGES" / "aluette.po"
    for message in read_po(po.open("rb")):
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            pairs.append((f"catalogue {ids[0][:40]!r}", " ".join(ids), " ".join(strings)))
    return pairs


def test_first_to_reach_is_not_faire_autant():
    wrong = [where for where, en, fr in term_pairs()
             if "first to reach" in en.lower() and "faire autant" in fr.lower()]
    assert wrong == []
    # the check looks where it should: lesson 13's landing line names the idea in French
    assert any(where == "13_puzzles.ipynb landing" and "le premier à y arriver" in fr
               for where, en, fr in term_pairs())


# French typography (Imprimerie nationale's rules, as the catalogue's messages follow them): a no-break space
# before : ; ? ! and », and after «. Code spans, links' targets, HTML tags and addresses are left as they are.
_CODE_LIKE = re.compile(r"(```.*?```|`[^`\n]*`|\]\([^)]*\)|<[^>\n]*>|https?://\S+|\$[^$\n]*\$)", re.S)
_LOOSE = re.compile(r"[ \u202f]+[:;?!»]|«[ \u202f]+")


def loose_spaces(text: str) -> list[str]:
    """The places of ``text`` (a French markdown cell) where an ordinary space stands before : ; ? ! » or after «,
    each with a few words around it."""
    found = []
    for i, part in enumerate(_CODE_LIKE.split(text)):
        if i % 2 == 0:
            found += [part[max(0, m.start() - 20):m.end() + 5] for m in _LOOSE.finditer(part)]
    return found


@pytest.mark.parametrize("french", sorted(FRENCH.glob("*.ipynb")), ids=lambda p: p.name)
def test_french_prose_keeps_its_spaces_together(french: Path):
    # a line never breaks between a word and its colon, question mark or guillemet (a phone's narrow page)
    problems = [place for cell in cells(french) if cell["cell_type"] == "markdown"
                for place in loose_spaces(source(cell))]
    assert problems == [], problems[:5]


def test_the_spaces_check_catches_what_it_should():
    # positive control: each loose space is found (6 here); a code span, a link's target and no-break spaces are not
    assert len(loose_spaces("Réponse : oui ; « pli pourri » ? Non !")) == 6
    found = loose_spaces("Réponse\u00a0: `a : b` [lien](http://x?y) «\u00a0oui\u00a0» ; fin")
    assert len(found) == 1 and found[0].endswith(" ; fin")
