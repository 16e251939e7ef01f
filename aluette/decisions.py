"""The project's own decisions: every rule the sources leave open, decided once, named, and listed here.

The sources (the rules sheet in ``docs/sources/``, in five translations; pagat.com's Aluette page; the French
descriptions of trictrac.net and regles2jeux.fr) leave some points open. Where they do, this project
decides and says so with one marker:

* in a docstring, the phrase :data:`MARKER` followed by the decision's name in brackets and a colon, e.g.
  ``Decision of this project (the sources are silent) [all-nine-spoiled]: if nobody won a trick, nobody scores.``;
* in a notebook, the visible badge :data:`BADGE` before the decision, with the decision's name in an HTML comment
  next to it (``⚖ Our decision: <!-- all-nine-spoiled --> ...``), so readers see the badge and the test can find the
  name;
* in the printable summary of notebook 07 (a handout), a numbered note of its box :data:`HANDOUT_BOX` ("In this
  app"), the names of the decisions it states in HTML comments (``1. <!-- all-nine-spoiled --> If all nine ...``);
* in a text the engine shows a reader after a deal (a deal's reason, a mordienne verdict), :func:`badged`; in the
  one-line verdict beside the whole reason (:func:`aluette.scoring.result_verdict`), the short :func:`short_badge`.

:data:`DECISIONS` is the one list. ``tests/test_decisions.py`` checks that every decision is in the README's table
(:func:`decisions_markdown` writes it; ``python -m aluette.decisions`` prints it), is named with the marker in a
docstring of each module listed in its ``where``, and carries the badge in each notebook of its ``taught_in``; and
that no docstring uses the marker for a name missing here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_, _

__all__ = ["ProjectDecision", "DECISIONS", "MARKER", "BADGE", "SHORT_BADGE", "HANDOUT_BOX", "decision", "badged",
           "short_badge", "decisions_markdown"]

#: The phrase that marks a decision in a docstring (followed by `` [name]:`` and the decision).
MARKER = "Decision of this project (the sources are silent)"
#: The visible badge that marks a decision in a notebook.
BADGE = N_("⚖ Our decision:")
#: The badge's short form, once in a one-line verdict whatever the decisions it rests on (:func:`short_badge`).
SHORT_BADGE = N_("⚖ our decision")
#: The heading of the box of the printable summary (notebook 07) whose numbered notes state the decisions it applies.
HANDOUT_BOX = "In this app"


@dataclass(frozen=True)
class ProjectDecision:
    """One of the project's decisions.

    Attributes:
        name: a short stable name (``"all-nine-spoiled"``), used in docstrings and notebooks.
        statement: the decision in one sentence.
        where: the modules that implement it (paths from the repository root, ``"aluette/scoring.py"``).
        taught_in: the notebooks that teach it (file names without ``.ipynb``); each carries the badge for it.
    """

    name: str
    statement: str
    where: tuple[str, ...]
    taught_in: tuple[str, ...] = ()


_D = ProjectDecision

#: Every decision of this project, in the order of the game (draw, deal, chant, surrender, play, scoring, match,
#: signals), then the decisions of the software (chance, simulations, scenarios, bots).
DECISIONS: tuple[ProjectDecision, ...] = (
    _D("draw-dealt-clockwise",
       "The partnership draw is dealt face up one card at a time clockwise (the rules sheet says only that any player "
       "deals).",
       ("aluette/draw.py",), ("02_setup", "07_teachers_guide")),
    _D("draw-first-name-deals",
       "The first player named deals the draw, starting with the second name (the player to their left).",
       ("aluette/draw.py",), ("02_setup", "07_teachers_guide")),
    _D("seating-after-draw",
       "After the draw Madame's holder sits at N, Monsieur's at S, le Borgne's at E and la Vache's at W, so N deals "
       "first.",
       ("aluette/draw.py",), ("02_setup", "07_teachers_guide")),
    _D("deal-from-dealer-left",
       "The dealer deals the three rounds of three cards starting with the player at the dealer's left, clockwise (the "
       "rules sheet and pagat say only nine cards each, three at a time).",
       ("aluette/chance.py",), ("02_setup", "07_teachers_guide")),
    _D("partners-chosen-option",
       "At a play-together table a group may choose its partners by the seats it takes instead of the draw (an "
       "option); N then deals first. A table with a bot has no draw.",
       ("aluette/store/service.py",)),
    _D("chant-from-dealer-left",
       "The chant is asked of each player in turn clockwise, starting at the dealer's left.",
       ("aluette/deal.py",), ("03_chant", "07_teachers_guide")),
    _D("chant-stops-at-first-refusal",
       "Asking for the chant stops at the first refusal, since one refusal settles it.",
       ("aluette/deal.py",), ("03_chant", "07_teachers_guide")),
    _D("chant-variant-alternate",
       "In the variant where the dealer's partner receives, the twelve stock cards are dealt one at a time, "
       "alternately, starting with the dealer's left, as in the main rule (the variant gives six to the left "
       "neighbour and six to the partner, not the order).",
       ("aluette/chance.py",), ("03_chant",)),
    _D("dealer-left-discards-first",
       "After the chant the dealer's left discards first, then the other stock recipient.",
       ("aluette/deal.py",), ("03_chant", "07_teachers_guide")),
    _D("surrender-before-first-trick",
       "By default a surrender is offered only before the first trick (pagat gives no time for it; "
       "`Options.surrender_until` offers the other choice).",
       ("aluette/deal.py", "aluette/options.py"), ("05_scoring", "07_teachers_guide", "08_play_a_match")),
    _D("surrender-speaking-order",
       "The dealer's left speaks for their side first, then the dealer for theirs, one question each; an offer is "
       "answered by the other side's speaker at once, so only the first offer made is put.",
       ("aluette/deal.py",), ("05_scoring", "07_teachers_guide", "08_play_a_match")),
    _D("surrender-between-tricks",
       "With `surrender_until=\"last_trick\"` the surrender question is put again before each trick up to the "
       "ninth, between tricks, until an offer is made: the next trick's leader speaks first for their side, then "
       "the leader's right; once an offer is answered no more are asked, and the points are scored as before the "
       "first trick.",
       ("aluette/deal.py", "aluette/options.py"), ("05_scoring", "07_teachers_guide", "08_play_a_match")),
    _D("surrender-refused-all-spoiled",
       "After a refused surrender a deal with all nine tricks spoiled is a failure of the refusing side (it made no "
       "mordienne): the offering side scores 2.",
       ("aluette/scoring.py",), ("05_scoring", "07_teachers_guide")),
    _D("rebour-announce-order",
       "Under Guy Rebour's account every player may announce mordienne: each is asked once, clockwise from the "
       "dealer's left, after the chant and the discards.",
       ("aluette/options.py", "aluette/deal.py"), ("05_scoring",)),
    _D("rebour-partner-announcement",
       "Under Guy Rebour's account any player's announcement extends the match (first form); in the second form a "
       "mordienne scores 2 only when its maker announced it, not when only the maker's partner did.",
       ("aluette/options.py",), ("05_scoring",)),
    _D("rebour-announcement-no-score",
       "Under Guy Rebour's account a failed announcement costs nothing, and in the first form an announcement "
       "changes no score: a mordienne scores 2 announced or not.",
       ("aluette/options.py",), ("05_scoring",)),
    _D("rebour-extended-target",
       "A match extended by an announcement (Guy Rebour's first form) ends after the first deal at whose end a "
       "partnership has at least 10 points, or the match's own target if higher; the deals already played count.",
       ("aluette/options.py", "aluette/match.py"), ("05_scoring",)),
    _D("tricks-visible",
       "Completed tricks are visible to every seat in the engine's views (at a real table they are stacked face "
       "down before their winner).",
       ("aluette/deal.py",), ("04_play", "07_teachers_guide", "08_play_a_match", "10_play_together")),
    _D("all-nine-spoiled",
       "If all nine tricks are spoiled nobody won a trick, and nobody scores.",
       ("aluette/scoring.py",), ("05_scoring", "07_teachers_guide", "09_edge_cases")),
    _D("mordienne-spoiled-breaks-run",
       "A spoiled trick breaks a mordienne run (pagat's example EXWEWNNNX, a spoiled last trick, scores 1).",
       ("aluette/scoring.py",), ("05_scoring", "07_teachers_guide", "09_edge_cases")),
    _D("mordienne-spoiled-counts-before",
       "A spoiled trick before the run counts as a trick before it, like a lost one (XXXXXSSSS is mordienne).",
       ("aluette/scoring.py",), ("05_scoring", "07_teachers_guide", "09_edge_cases")),
    _D("one-trick-run-mordienne",
       "A run of one trick, the ninth, that wins the deal is mordienne (XXXXXXXXS scores 2).",
       ("aluette/scoring.py",), ("05_scoring", "07_teachers_guide")),
    _D("all-nine-not-mordienne",
       "Winning all nine tricks is not mordienne: no trick came before the run (SSSSSSSSS scores 1).",
       ("aluette/scoring.py",), ("05_scoring", "07_teachers_guide")),
    _D("drawn-match",
       "A match tied after its last deal is drawn (no extra deal).",
       ("aluette/match.py",), ("05_scoring", "07_teachers_guide", "08_play_a_match", "10_play_together")),
    _D("signals-partner-only",
       "A signal is seen by the signaller's partner only (a simplification: at a real table signals are gestures "
       "the opponents may catch, so partners make them discreetly).",
       ("aluette/deal.py",), ("06_signals", "07_teachers_guide", "08_play_a_match", "10_play_together")),
    _D("signals-honest",
       "Signals are honest: a seat signals only a named card it holds, its aces when it holds any, and a useless "
       "hand or mordienne only when its hand fits their definitions.",
       ("aluette/signals.py",), ("06_signals", "07_teachers_guide", "08_play_a_match")),
    _D("signals-once-per-deal",
       "Each signal is made at most once per deal by each seat.",
       ("aluette/signals.py",), ("06_signals", "07_teachers_guide", "10_play_together")),
    _D("useless-hand",
       "\"A useless hand\" means holding none of the eight named cards and no ace.",
       ("aluette/signals.py",), ("06_signals", "07_teachers_guide")),
    _D("going-for-mordienne",
       "\"Going for mordienne\" may be signalled only holding at least three of the eight named cards (the number is "
       "the project's choice: no source gives one).",
       ("aluette/signals.py",), ("06_signals", "07_teachers_guide")),
    _D("shuffle-from-pcg64",
       "A shuffle is the stable argsort of 48 doubles from numpy's PCG64, the cut drawn from a 49th.",
       ("aluette/chance.py",), ("02_setup", "07_teachers_guide")),
    _D("simulation-blocks",
       "Simulations draw blocks of 1,000 deals, each block from its own SeedSequence, 94 doubles per deal, so "
       "results do not depend on workers or chunks.",
       ("aluette/simulation/contract.py",), ("09_edge_cases",)),
    _D("scenario-fill",
       "The scenario builder fills blank places from the seed's shuffle, and the dealer sits at the leader's right.",
       ("aluette/scenario.py",), ("09_edge_cases",)),
    _D("heuristic-bot",
       "The heuristic bot's rules (chant, discard, surrender, play, signals) are pagat.com's advice made exact, with "
       "thresholds chosen by measurement.",
       ("aluette/players/bots.py",), ("08_play_a_match",)),
    _D("expert-bot",
       "The expert bot plays the heuristic bot's moves outside the card play and in the first tricks, where solving "
       "is dear, and signals as it does; it draws four times as many deals as it solves (by default), uniformly among "
       "those its seat's view allows, and solves those in which the others' past cards are most often those the "
       "heuristic bot would have played.",
       ("aluette/analysis/expert.py",), ("08_play_a_match",)),
)

_BY_NAME = {d.name: d for d in DECISIONS}
assert len(_BY_NAME) == len(DECISIONS), "decision names must be unique"


def decision(name: str) -> ProjectDecision:
    """The decision with this name.

    Raises:
        AluetteError: no decision has that name (the message lists them).
    """
    from .errors import AluetteError
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise AluetteError(f"no decision named {str(name)[:40]!r}; known: {', '.join(_BY_NAME)}") from None


def badged(name: str) -> str:
    """How a text the engine shows a reader (a deal's reason, :attr:`aluette.scoring.DealScore.reason`) marks a
    decision: the notebooks' badge and that the sources are silent, beside the sentence that states the decision.
    The registered name is checked but not shown: a reader (a student's page) sees the badge and the decision,
    never an id.

    >>> badged("all-nine-spoiled")
    '⚖ Our decision: the sources are silent'

    Raises:
        AluetteError: no decision has that name.
    """
    decision(name)  # raises for a name that is not registered
    # TRANSLATORS: the badge of a decision of this project where the sources say nothing, in the engine's texts
    return _("{badge} the sources are silent").format(badge=_(BADGE))


def short_badge(*names: str) -> str:
    """The badge's short form, for a one-line text that rests on the decisions ``names`` (at least one) and shows
    them whole on demand (a deal's verdict, :func:`aluette.scoring.result_verdict`, beside its reason): one mark
    however many decisions, without "the sources are silent" (the whole reason says it, with :func:`badged`).

    >>> short_badge("one-trick-run-mordienne", "mordienne-spoiled-counts-before")
    '⚖ our decision'

    Raises:
        AluetteError: no name, or no decision has one of them.
    """
    from .errors import AluetteError
    if not names:
        raise AluetteError("short_badge needs the name of the decision it marks")
    for name in names:
        decision(name)  # raises for a name that is not registered
    # TRANSLATORS: the short badge of a decision of this project, once in a deal's one-line verdict
    return _(SHORT_BADGE)


def decisions_markdown() -> str:
    """The README's table of decisions, one row per decision: the statement, its name, and where it lives."""
    rows = ["| decision | name | where |", "| --- | --- | --- |"]
    for d in DECISIONS:
        rows.append(f"| {d.statement} | `{d.name}` | {', '.join(f'`{w}`' for w in d.where)} |")
    return "\n".join(rows)


if __name__ == "__main__":  # pragma: no cover - prints the README table
    print(decisions_markdown())
