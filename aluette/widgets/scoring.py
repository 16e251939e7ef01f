"""Widgets for the "Scoring" notebook: score a deal written in pagat's notation, surrender, a match score sheet.

Every verdict comes from the engine: :func:`~aluette.score_tricks` (the rules sheet, "scoring"; pagat.com; decisions
of this project named in :mod:`aluette.scoring`), :class:`~aluette.Deal` for surrender (pagat.com) and
:class:`~aluette.Match` for the score sheet (the rules sheet, "end of game"; a tie after five deals is a drawn match,
decision of this project). The widgets only show the engine's answers.

* :class:`ScoringView`: type nine outcomes (``SENWSEXNW``) or click them (nine trick slots, N/E/S/W/X); see the
  running counts per seat, who reached the top count first, whether mordienne applies and why; mordienne on/off.
* :class:`SurrenderDemo`: a built position (:func:`surrender_position`) where E–W offers to surrender; N answers for
  N–S; accepted or refused, played out by a trivial rule.
* :class:`MatchSheet`: a five-deal match from a seed box, played by a trivial rule, as a score sheet.
"""

from __future__ import annotations

from html import escape
from typing import Optional

import ipywidgets as w
import pandas as pd

from ..decisions import badged
from ..deal import Deal
from ..i18n import N_, _
from ..match import Match
from ..players.drivers import SIMPLE_RULES, play_out, play_out_match
from ..guide import SURRENDER_HANDS, surrender_position  # the demo's built position (also exercise 6 of the guide)
from ..options import Options
from ..scoring import DealScore, explain_mordienne, outcomes_notation, parse_outcomes, score_tricks
from ..card_names import seat_name
from ..i18n import ngettext
from ..seats import SEATS, Team
from .common import (SHORT_TEXT, LimitedText, MessageArea, check_choice, check_seed, friendly, limited_text,
                     no_null_tooltips, seed_box, sheet_html)

__all__ = ["running_counts", "ScoringView", "SURRENDER_HANDS", "surrender_position", "SurrenderDemo", "MatchSheet", "team_label"]

_CHOICES = ("N", "E", "S", "W", "X")
_TOOLTIPS = [N_("won by North"), N_("won by East"), N_("won by South"), N_("won by West"), N_("spoiled")]


def team_label(team: Optional[Team]) -> str:
    """``"N–S"`` / ``"E–W"`` (with an en dash, as in the prose), or ``"nobody"`` (in the page's language)."""
    return _("nobody") if team is None else "–".join(str(s) for s in team.seats)


def running_counts(outcomes) -> pd.DataFrame:
    """Tricks won so far by each seat after each trick: one row per trick (index ``trick`` 1-9), a column ``won by``
    (the seat, or ``X`` for a spoiled trick) and one column per seat (N, E, S, W). A spoiled trick adds to nobody.

    Raises:
        NotationError: see :func:`aluette.parse_outcomes`.
    """
    outs = parse_outcomes(outcomes)
    counts = pd.DataFrame({str(s): [int(o is s) for o in outs] for s in SEATS}).cumsum()
    counts.insert(0, "won by", list(outcomes_notation(outs)))
    counts.index = pd.RangeIndex(1, 10, name="trick")
    return counts


class ScoringView(w.VBox):
    """Score one deal from its nine trick outcomes.

    Controls (CSS classes): ``notation`` text box (``aluette-scoring-input``; pagat notation, one letter per trick:
    the seat that won it, X for spoiled; any case, spaces ignored; read on Enter or when the box loses focus),
    ``slots`` — nine toggle groups N/E/S/W/X (``aluette-scoring-slot``, ``aluette-scoring-slot-1``...), the
    ``mordienne`` checkbox (``aluette-scoring-mordienne``). Views: ``counts`` (running counts per seat,
    ``aluette-scoring-counts``), ``result`` (winner, partnership, points, who reached the top count first, mordienne
    and why, ``aluette-scoring-result``), ``message``. Typing and clicking stay in step. Read-only: ``score``
    (the :class:`~aluette.DealScore` shown).

    Bad notation (a letter other than N, E, S, W, X; not nine tricks) shows the engine's message naming the problem;
    the slots and the result keep the last valid deal and the widget keeps working (the mordienne checkbox rescores
    that deal).
    """

    def __init__(self, notation: str = "SENWSEXNW", mordienne: bool = True):
        start = parse_outcomes(notation)
        self.notation = LimitedText(limit=SHORT_TEXT, what=_("the tricks"), message=lambda: self.message,
                                    value=outcomes_notation(start), description=_("Tricks"),
                                    continuous_update=False,
                                    placeholder=_("nine letters from N E S W X, e.g. SENWSEXNW"))
        self.notation.add_class("aluette-scoring-input")
        self.slots = []
        for number, outcome in enumerate(outcomes_notation(start), start=1):
            slot = w.ToggleButtons(options=_CHOICES, value=outcome, tooltips=[_(tip) for tip in _TOOLTIPS],
                                   style={"button_width": "3em"})
            slot.add_class("aluette-scoring-slot")
            slot.add_class(f"aluette-scoring-slot-{number}")
            self.slots.append(slot)
        self.mordienne = w.Checkbox(value=mordienne, description=_("play with mordienne (2 points)"), indent=False,
                                    layout=w.Layout(width="auto", margin="0 0 0 2em"))
        self.mordienne.add_class("aluette-scoring-mordienne")
        self.counts = w.HTML()
        self.counts.add_class("aluette-scoring-counts")
        self.result = w.HTML()
        self.result.add_class("aluette-scoring-result")
        self.message = MessageArea()
        self.score: Optional[DealScore] = None
        self._syncing = False
        self.notation.observe(self._typed, names="value")
        for slot in self.slots:
            slot.observe(self._clicked, names="value")
        self.mordienne.observe(self._toggled, names="value")
        super().__init__([w.HBox([self.notation, self.mordienne]), self.message,
                          w.HBox([w.VBox([w.HBox([w.Label(_("Trick {number}").format(number=number), layout=w.Layout(width="4.5em")), slot])
                                          for number, slot in enumerate(self.slots, start=1)]),
                                  self.counts]),
                          self.result])
        self.add_class("aluette-scoring")
        self._typed()
        no_null_tooltips(self)

    @friendly()
    def _typed(self, change=None) -> None:
        # NotationError names the bad letter or the count
        outcomes = parse_outcomes(limited_text(self.notation.value, SHORT_TEXT, _("the tricks")))
        self._syncing = True
        try:
            for slot, letter in zip(self.slots, outcomes_notation(outcomes)):
                slot.value = letter
        finally:
            self._syncing = False
        self._show(score_tricks(outcomes, mordienne=self.mordienne.value))

    def _toggled(self, change=None) -> None:
        # rescore the deal in the slots (the last valid one), so the result always follows the checkbox; a bad text
        # in the box keeps its message
        error = self.message.last_error
        self._show(score_tricks("".join(slot.value for slot in self.slots), mordienne=self.mordienne.value))
        if error is not None:
            self.message.error(error)

    def _clicked(self, change=None) -> None:
        if self._syncing:
            return
        text = "".join(slot.value for slot in self.slots)
        if self.notation.value == text:
            self._typed()
        else:
            self.notation.value = text  # its observer scores it

    def _show(self, score: DealScore) -> None:
        self.score = score
        table = running_counts(score.outcomes).reset_index()
        table.columns = [_(RUNNING_COLUMNS.get(name, name)) for name in table.columns]
        self.counts.value = "<b>" + escape(_("Tricks won so far")) + "</b>" + table.to_html(index=False)
        if score.winner is None:
            head = _("Nobody scores.")
            first = _("Nobody reached a count: every trick was spoiled.")
        else:
            head = ngettext("{seat} ({name}) scores {points} point for {team}.",
                            "{seat} ({name}) scores {points} points for {team}.", score.points).format(
                seat=score.winner, name=seat_name(score.winner), points=score.points, team=team_label(score.team))
            top = max(dict(score.counts).values())
            holders = [str(s) for s, n in score.counts if n == top]
            if score.reached_first:
                first = _("Top count {top}, held by {holders}: a tie, so whoever got there first scores; {seat} "
                          "reached {top} first, at trick {number}.").format(
                    top=top, holders=", ".join(holders), seat=score.winner, number=score.reached_at)
            else:
                first = _("Top count {top}, held by {seat} alone (reached at trick {number}); no tie, so no question "
                          "of who got there first.").format(top=top, seat=score.winner, number=score.reached_at)
        self.result.value = (f"<div style='font-size:1.15em'><b>{escape(head)}</b></div>"
                             f"<div>{escape(first)}</div>"
                             f"<div>{escape(explain_mordienne(score, mordienne=self.mordienne.value))}</div>"
                             "<div>" + _("<i>Engine's reason:</i> {reason}").format(reason=escape(score.reason))
                             + "</div>")
        self.message.clear()


class SurrenderDemo(w.VBox):
    """E–W offers to surrender in :func:`surrender_position`; choose N's answer for N–S and how the cards are played.

    pagat.com: accepted, the accepting side scores 1 and the deal is not played; refused, the refusing side must make
    mordienne: 2 to it if it does, otherwise 2 to the side that offered. Controls (CSS classes): ``answer``
    (``aluette-surrender-answer``: "accept"/"refuse"), ``rule`` (``aluette-surrender-rule``); view ``result``
    (``aluette-surrender-result``). Read-only: ``deal`` (the finished deal shown).

    Raises:
        AluetteError: ``answer`` not "accept" or "refuse"; ``rule`` not one of :data:`~aluette.players.drivers.SIMPLE_RULES`.
    """

    def __init__(self, answer: str = "refuse", rule: str = "highest"):
        check_choice(answer, ("accept", "refuse"), "surrender answer")
        check_choice(rule, SIMPLE_RULES, "playing rule")
        self.answer = w.ToggleButtons(options=[(_("N accepts"), "accept"), (_("N refuses"), "refuse")], value=answer,
                                      description=_("N–S answer"), style={"description_width": "initial"})
        self.answer.add_class("aluette-surrender-answer")
        self.rule = w.Dropdown(options=[(_(text), key) for key, text in SIMPLE_RULES.items()], value=rule,
                               description=_("Then"), layout=w.Layout(width="max-content"))
        self.rule.add_class("aluette-surrender-rule")
        self.result = w.HTML()
        self.result.add_class("aluette-surrender-result")
        self.message = MessageArea()
        self.deal: Optional[Deal] = None
        self.answer.observe(self._update, names="value")
        self.rule.observe(self._update, names="value")
        super().__init__([w.HBox([self.answer, self.rule]), self.message, self.result])
        self.add_class("aluette-surrender")
        self._update()
        no_null_tooltips(self)

    @friendly()
    def _update(self, change=None) -> None:
        deal = surrender_position()
        deal.offer_surrender("E", True)
        deal.answer_surrender("N", self.answer.value == "accept")
        play_out(deal, self.rule.value)
        self.deal = deal
        points = deal.result.points
        dealt = {_("{seat} is dealt {hand}.").format(seat=s, hand=deal.dealt_hand(s)) for s in SEATS}
        lines = [line for line in deal.events if line not in dealt]  # the events in the page's language
        tricks = "<code>" + (deal.notation or escape(_("not played"))) + "</code>"
        self.result.value = (f"<div style='font-size:1.15em'><b>N–S {points[Team.NS]}, E–W {points[Team.EW]}</b>"
                             f"</div><div>{escape(deal.result.reason)}</div>"
                             "<div>" + _("Tricks: {tricks}").format(tricks=tricks) + "</div>"
                             "<details><summary>" + escape(_("Events")) + f"</summary><pre>{escape(chr(10).join(lines))}"
                             "</pre></details>")
        self.message.clear()


#: The two matches the sources play, as equals (notebook 05): five deals (the rules sheet and pagat.com, the English
#: descriptions) or the first side to 5 points (the French descriptions: trictrac.net, regles2jeux.fr).
MATCH_FORMATS = {"deals": (N_("five deals"), Options()),
                 "points": (N_("first side to 5 points"), Options(target_points=5))}

#: The running counts' column names (:func:`running_counts`), as shown.
RUNNING_COLUMNS = {"trick": N_("trick"), "won by": N_("won by")}


class MatchSheet(w.VBox):
    """A match from a seed, five deals or first side to 5 points (:data:`MATCH_FORMATS`, the reader's choice),
    played by the trivial rule of :func:`~aluette.players.drivers.simple_move`, shown as the engine's score sheet
    (:meth:`Match.score_sheet`).

    Controls (CSS classes): ``seed`` (``aluette-match-seed``), ``rule`` (``aluette-match-rule``), ``format``
    (``aluette-match-format``); views ``sheet`` (``aluette-match-sheet``) and ``summary`` (the totals and the winner,
    or a drawn match, ``aluette-match-result``). Read-only: ``match``.

    Raises:
        AluetteError: ``seed`` outside 0 to 2**32-1 or not a whole number; an unknown ``rule`` or ``format``.
    """

    def __init__(self, seed: int = 1, rule: str = "highest", format: str = "deals"):
        check_seed(seed)
        check_choice(rule, SIMPLE_RULES, "playing rule")
        check_choice(format, MATCH_FORMATS, "match")
        self.seed = seed_box(seed, "aluette-match-seed", self._update, lambda: self.message)
        self.rule = w.Dropdown(options=[(_(text), key) for key, text in SIMPLE_RULES.items()], value=rule,
                               description=_("Rule"), layout=w.Layout(width="max-content"))
        self.rule.add_class("aluette-match-rule")
        self.format = w.Dropdown(options=[(_(text), key) for key, (text, _options) in MATCH_FORMATS.items()],
                                 value=format, description=_("Match"), layout=w.Layout(width="max-content"))
        self.format.add_class("aluette-match-format")
        self.sheet = w.HTML()
        self.sheet.add_class("aluette-match-sheet")
        self.summary = w.HTML()
        self.summary.add_class("aluette-match-result")
        self.message = MessageArea()
        self.match: Optional[Match] = None
        self.rule.observe(self._update, names="value")
        self.format.observe(self._update, names="value")
        super().__init__([w.HBox([self.seed, self.rule, self.format]), self.message, self.summary, self.sheet])
        self.add_class("aluette-match")
        self._update()
        no_null_tooltips(self)

    @friendly()
    def _update(self, change=None) -> None:
        match = play_out_match(Match(self.seed.seed_value, options=MATCH_FORMATS[self.format.value][1]),
                               self.rule.value)
        self.match = match
        scores = match.scores
        if match.winner is None:
            verdict = _("a drawn match: a tie after the last deal is a draw ({badge}).").format(
                badge=badged('drawn-match'))
        else:
            verdict = _("{team} wins the match.").format(team=team_label(match.winner))
        self.summary.value = ("<div style='font-size:1.15em'><b>" + escape(_(
            "After {count} deals: N–S {ns}, E–W {ew}: {verdict}").format(
            count=len(match.deals), ns=scores[Team.NS], ew=scores[Team.EW], verdict=verdict)) + "</b></div>")
        self.sheet.value = sheet_html(match.score_sheet().reset_index(), index=False)
        self.message.clear()
