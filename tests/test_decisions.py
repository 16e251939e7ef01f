"""The decisions of this project stay in step everywhere (aluette/decisions.py, the README's table).

Source of the rule being tested: the project's own convention (``aluette/decisions.py``): where the sources are
silent the project decides, names the decision once in :data:`aluette.decisions.DECISIONS`, marks it in the
docstring that implements it with :data:`~aluette.decisions.MARKER`, lists it in the README's table, and shows the
badge :data:`~aluette.decisions.BADGE` wherever a notebook teaches it.
"""

import ast
import json
import re
from pathlib import Path

import pytest

from aluette import AluetteError
from aluette.decisions import BADGE, DECISIONS, HANDOUT_BOX, MARKER, badged, decision, decisions_markdown

ROOT = Path(__file__).resolve().parent.parent
ENGINE = sorted((ROOT / "aluette").glob("*.py"))
#: the marker, then the decision's name in brackets: "Decision of this project (the sources are silent) [name]:"
MARKED = re.compile(re.escape(MARKER) + r"(?: \[([a-z0-9-]+)\])?(:?)")
#: the name next to a badge in a notebook: the badge, optional spaces, then <!-- name -->
BADGED = re.compile(re.escape(BADGE) + r"\s*<!--\s*([a-z0-9-]+)\s*-->")


def docstrings(path: Path) -> list[str]:
    """Every docstring of a module (module, classes, functions), whitespace folded so a wrapped phrase is found."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef,
                                                                  ast.AsyncFunctionDef)))]
    return [" ".join(doc.split()) for doc in map(ast.get_docstring, nodes) if doc]


def marked_names(path: Path) -> list[str]:
    """The names of the decisions marked in ``path``'s docstrings (``None`` for a marker without a name)."""
    return [m.group(1) if m.group(2) else None for doc in docstrings(path) for m in MARKED.finditer(doc)]


#: a numbered note of the printable summary's box (notebook 07): "3. <text> <!-- name --> <!-- name -->"
BOX_NOTE = re.compile(r"^\d+\. .*$", re.MULTILINE)


def notebook_markdown(name: str) -> str:
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def handout_box(markdown: str) -> str:
    """The box "In this app" of the printable summary (the markdown after its bold heading), or ``""``."""
    heading = f"**{HANDOUT_BOX}**"
    return markdown[markdown.index(heading):] if heading in markdown else ""


def marked_in_notebook(name: str) -> list[str]:
    """The decisions a notebook marks: by the badge, and by the numbered notes of the handout's box."""
    markdown = notebook_markdown(name)
    box = [n for note in BOX_NOTE.findall(handout_box(markdown)) for n in re.findall(r"<!--\s*([a-z0-9-]+)\s*-->", note)]
    return BADGED.findall(markdown) + box


class TestRegistry:
    def test_names_are_short_and_stable(self):
        for d in DECISIONS:
            assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", d.name), d.name
            assert d.statement.endswith(".") and "|" not in d.statement, d.name
            assert d.where and all((ROOT / w).is_file() for w in d.where), d.name
            assert all((ROOT / "notebooks" / f"{n}.ipynb").is_file() for n in d.taught_in), d.name

    def test_the_engine_shows_a_decision_with_the_badge_not_its_name(self):
        # a deal's reason, as the reader (a student) sees it, marks the decision with the notebooks' badge beside
        # the decision itself; the registered name is for the code, never shown (issue 23, point 8)
        from aluette.decisions import badged
        from aluette.scoring import score_tricks
        reason = score_tricks("XXXXXXXXX").reason
        assert badged("all-nine-spoiled") in reason and BADGE in reason and "nobody scores" in reason
        assert not any(d.name in reason for d in DECISIONS) and "[" not in reason
        assert "decision of this project" not in reason.lower()
        with pytest.raises(AluetteError, match="no decision named"):
            badged("nine-spoiled")

    def test_lookup(self):
        assert decision("all-nine-spoiled").where == ("aluette/scoring.py",)
        with pytest.raises(AluetteError, match="no decision named 'nine-spoiled'; known: draw-dealt-clockwise"):
            decision("nine-spoiled")

    def test_issue_8_lists_these_decisions(self):
        # each of these must be in the one registry
        named = {"all-nine-spoiled", "mordienne-spoiled-breaks-run", "mordienne-spoiled-counts-before",
                 "drawn-match", "surrender-before-first-trick", "draw-dealt-clockwise", "signals-partner-only",
                 "tricks-visible", "one-trick-run-mordienne", "all-nine-not-mordienne", "chant-from-dealer-left"}
        assert named <= {d.name for d in DECISIONS}


class TestReadme:
    def test_readme_table_is_the_registry(self):
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        assert decisions_markdown() in readme, "README's decisions table differs: paste `python -m aluette.decisions`"

    def test_every_decision_is_a_row(self):
        table = decisions_markdown()
        for d in DECISIONS:
            assert f"| `{d.name}` |" in table


class TestDocstrings:
    @pytest.mark.parametrize("d", DECISIONS, ids=lambda d: d.name)
    def test_each_decision_is_marked_where_it_lives(self, d):
        for where in d.where:
            assert d.name in marked_names(ROOT / where), f"{where} has no '{MARKER} [{d.name}]:' in a docstring"

    @pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
    def test_no_marker_for_an_unknown_decision(self, path):
        known = {d.name for d in DECISIONS}
        for name in marked_names(path):
            assert name in known, f"{path.name}: the marker names {name!r}, missing from aluette/decisions.py"

    @pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
    def test_one_marker_only(self, path):
        # the engine's docstrings use no other wording for a decision ("*Decision:*", "(decision of this project)")
        for doc in docstrings(path):
            rest = MARKED.sub("", doc)
            assert not re.search(r"\*decisions?:?\*|decisions? of this project", rest, re.IGNORECASE), \
                f"{path.name}: a decision marked otherwise than '{MARKER} [name]:': {rest[:200]}"

    def test_the_check_finds_a_missing_name(self, tmp_path):
        # the checks above can fail: a marker without a name, and one with a name, are told apart
        module = tmp_path / "m.py"
        module.write_text(f'"""{MARKER} [all-nine-spoiled]: nobody scores.\n\n{MARKER}: unnamed."""\n')
        assert marked_names(module) == ["all-nine-spoiled", None]


class TestNotebooks:
    @pytest.mark.parametrize("d", [d for d in DECISIONS if d.taught_in], ids=lambda d: d.name)
    def test_badge_where_taught(self, d):
        for notebook in d.taught_in:
            names = marked_in_notebook(notebook)
            assert d.name in names, (f"{notebook}.ipynb teaches {d.name} without '{BADGE} <!-- {d.name} -->' (or a "
                                     f"numbered note of the handout's box '{HANDOUT_BOX}')")

    def test_the_handout_marks_its_decisions_in_its_box_only(self):
        # issue 19 §5: the printable summary reads as rules, the app's decisions in one short box of numbered notes
        from aluette.classroom.landing import summary_markdown
        summary = summary_markdown(ROOT / "notebooks" / "07_teachers_guide.ipynb")
        box = handout_box(summary)
        assert BADGE.rstrip(":") not in summary and box and len(BOX_NOTE.findall(box)) <= 8
        assert {d.name for d in DECISIONS if "07_teachers_guide" in d.taught_in} <= set(marked_in_notebook(
            "07_teachers_guide"))

    def test_the_box_check_can_fail(self):
        box = f"**{HANDOUT_BOX}** decides:\n\n1. Nobody scores. <!-- all-nine-spoiled -->\nNot a note <!-- drawn-match -->"
        assert [n for note in BOX_NOTE.findall(handout_box(box)) for n in re.findall(r"<!-- ([a-z0-9-]+) -->", note)] \
            == ["all-nine-spoiled"]
        assert handout_box("no box here") == ""

    def test_no_badge_for_an_unknown_decision(self):
        known = {d.name: d for d in DECISIONS}
        for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
            for name in marked_in_notebook(path.stem):
                assert name in known, f"{path.name}: badge for {name!r}, missing from aluette/decisions.py"
                assert path.stem in known[name].taught_in, f"{path.name} teaches {name}: add it to taught_in"


#: Deals (pagat's notation) and the decisions of this project their reason rests on.
APPLIED = [
    ("XXXXXXXXS", {"one-trick-run-mordienne", "mordienne-spoiled-counts-before"}),
    ("XXXXSSSSS", {"mordienne-spoiled-counts-before"}),
    ("NEWXSSSSS", {"mordienne-spoiled-counts-before"}),
    ("EXWEWNNNX", {"mordienne-spoiled-breaks-run"}),       # pagat's example: a spoiled last trick
    ("NEWSXSSSS", {"mordienne-spoiled-breaks-run"}),
    ("SSSSSSSSS", {"all-nine-not-mordienne"}),
    ("XXXXXXXXX", {"all-nine-spoiled"}),
    ("NEWNSSSSS", set()), ("SENWSEXNW", set()), ("XSENXWSSS", set()),  # no decision applied: no badge
]


class TestEngineTexts:
    """Issue 19 §2: every text a student reads after a deal that applies a decision marks it with :func:`badged`: a
    deal's reason (05, 08, 10 show it), the mordienne verdict, the narration of the chant's variant."""

    @pytest.mark.parametrize("notation,names", APPLIED)
    def test_a_deals_reason_and_verdict_badge_the_decisions_they_apply(self, notation, names):
        from aluette.scoring import explain_mordienne, score_tricks
        score = score_tricks(notation)
        for text in (score.reason, explain_mordienne(score)):
            # a reader sees the badge beside each decision applied, never the decision's id (issue 23 §8)
            assert not re.search(r"\[[a-z0-9-]+\]", text), text
            if text is score.reason or notation != "XXXXXXXXX":  # the verdict on nine spoiled says "nobody won"
                assert text.count(BADGE) == len(names), (notation, text)

    @pytest.mark.parametrize("notation,names,by", [(n, names, None) for n, names in APPLIED] + [
        ("XXXXXXXXX", {"all-nine-spoiled", "surrender-refused-all-spoiled"}, "EW"),  # refused, all nine spoiled
        ("XXXXXXXXS", {"one-trick-run-mordienne", "mordienne-spoiled-counts-before"}, "EW"),  # refused, NS made it
        ("SENWSEXNW", set(), "NS")])
    def test_the_one_line_verdict_marks_the_decisions_once_with_the_short_badge(self, notation, names, by):
        # issue 23 §6: the deal's verdict is one short line (the match table shows it, the reason on demand): the
        # decisions it rests on, the ones its reason badges, are marked once, by the short badge, however many
        from aluette.decisions import SHORT_BADGE, short_badge
        from aluette.scoring import result_decisions, score_deal
        result = score_deal(notation, **({"surrendered_by": by, "surrender_accepted": False} if by else {}))
        assert set(result_decisions(result)) == names and len(result_decisions(result)) == result.reason.count(BADGE)
        verdict = result.verdict
        assert verdict.count(SHORT_BADGE) == (1 if names else 0) and BADGE not in verdict, verdict
        assert not re.search(r"\[[a-z0-9-]+\]", verdict) and len(verdict) < 90, verdict
        if names:
            assert short_badge(*names) == SHORT_BADGE
        with pytest.raises(AluetteError, match="no decision named"):
            short_badge("nine-spoiled")
        with pytest.raises(AluetteError, match="needs the name"):
            short_badge()

    def test_the_chant_variant_is_badged_in_the_narration(self):
        from aluette import Deal, Options
        from aluette.options import ChantRecipients
        variant = Deal.from_seed(7, dealer="N", options=Options(chant_recipients=ChantRecipients.LEFT_AND_PARTNER))
        plain = Deal.from_seed(7, dealer="N")
        for deal in (variant, plain):
            for seat in "ESWN":
                deal.answer_chant(seat, True)
        told = [line for line in variant.view(None).events if "stock goes" in line]
        assert told and badged("chant-variant-alternate") in told[0] and "six to E" in told[0] and "six to S" in told[0]
        assert not any(BADGE in line for line in plain.view(None).events if "stock goes" in line)

    def test_the_chant_demo_badges_the_variants_dealing(self):
        from aluette.options import ChantRecipients
        from aluette.widgets.chant import ChantDemo
        variant = ChantDemo(seed=7, dealer="N", recipients=ChantRecipients.LEFT_AND_PARTNER)
        plain = ChantDemo(seed=7, dealer="N")
        assert BADGE in variant._result.value and "alternately to E and S" in variant._result.value
        assert "[chant-variant-alternate]" not in variant._result.value  # the badge, never the id
        assert BADGE not in plain._result.value and "alternately to E and N" in plain._result.value
        for demo in (variant, plain):
            demo.close()

    def test_a_refused_surrender_with_nine_spoiled_tricks_is_badged(self):
        # pagat: refused, the refusing side must make mordienne; with all nine spoiled nobody did (decision)
        from aluette.scoring import score_deal
        spoiled = score_deal("XXXXXXXXX", surrendered_by="NS", surrender_accepted=False)
        assert badged("surrender-refused-all-spoiled") in spoiled.reason and badged("all-nine-spoiled") in spoiled.reason
        played = score_deal("SENWSEXNW", surrendered_by="EW", surrender_accepted=False)
        assert "surrender-refused-all-spoiled" not in played.reason
