"""Scoring one deal from the nine trick outcomes.

Rule sources and decisions:

* The rules sheet, "scoring": once the nine tricks are played, the partnership of the player who won the most tricks
  scores a point; partners do not pool their tricks. "If there is a tie for the most tricks won, whoever got that
  number first wins the point." (pagat.com agrees.)
* Decision of this project (the sources are silent) [all-nine-spoiled]: if nobody won a trick (all nine spoiled),
  nobody scores.
* Mordienne (the rules sheet and pagat; optional, :attr:`~aluette.options.Options.mordienne`): the deal's winner
  scores 2 instead of 1 when their won tricks are one unbroken run of consecutive tricks that ends with the ninth, and
  at least one trick came before the run that they did not win. One trick before the run is enough.
* Decision of this project (the sources are silent) [mordienne-spoiled-breaks-run]: a spoiled trick breaks a run;
  pagat's example ``EXWEWNNNX`` (a spoiled last trick) is no mordienne and scores 1.
* Decision of this project (the sources are silent) [mordienne-spoiled-counts-before]: a spoiled trick before the run
  counts as a trick "before" it, like a lost one: ``XXXXXSSSS`` is mordienne.
* Decision of this project (the sources are silent) [one-trick-run-mordienne]: a run of one trick, the ninth, that
  wins the deal is mordienne: ``XXXXXXXXS`` scores 2.
* Decision of this project (the sources are silent) [all-nine-not-mordienne]: winning all nine is not mordienne, since
  no trick came before the run: ``SSSSSSSSS`` scores 1.
* Surrender (pagat.com; :attr:`~aluette.options.Options.surrender`), scored by :func:`score_deal`: accepted, the
  accepting side scores 1 and the deal (or, after an offer between tricks, the rest of it) is not played; refused, the
  refusing side scores 2 if one of its players wins the deal with mordienne, otherwise (it fails) the offering side
  scores 2.
* Decision of this project (the sources are silent) [surrender-refused-all-spoiled]: after a refused surrender, a
  deal with all nine tricks spoiled counts as a failure of the refusing side (nobody made mordienne): the offering
  side scores 2.
* pagat's notation: one letter per trick, the seat that won it, ``X`` for a spoiled trick: ``"SENWSEXNW"``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional, Sequence, Union

from .decisions import badged, short_badge
from .errors import AluetteError, NotationError, quoted
from .i18n import _
from .records import DealResult
from .seats import SEATS, Seat, Team

__all__ = ["DealScore", "DealResult", "score_tricks", "score_deal", "explain_mordienne", "parse_outcomes",
           "outcomes_notation", "first_to_reach", "result_reason", "result_verdict", "result_decisions"]

Outcome = Optional[Seat]


def parse_outcomes(outcomes: Union[str, Iterable[Union[Seat, str, None]]]) -> tuple[Outcome, ...]:
    """Read nine trick outcomes: pagat notation (``"SENWSEXNW"``, any case, spaces ignored) or a sequence of seats,
    seat letters and ``None``/``"X"`` for spoiled tricks.

    Raises:
        NotationError: not exactly nine outcomes, an item that is not N, E, S, W, X or None (named in the message), or
            neither text nor a sequence (``None``, a number, bytes).
    """
    if isinstance(outcomes, (bytes, bytearray)) or not isinstance(outcomes, (str, Iterable)):
        raise NotationError(_("expected pagat notation as text ('SENWSEXNW') or a sequence of nine seats/None, got "
                              "{value}").format(value=quoted(outcomes)))
    if outcomes.__class__ is tuple and len(outcomes) == 9 and all(o is None or o.__class__ is Seat for o in outcomes):
        return outcomes  # already parsed (the deal's own outcomes): the hot path of the simulations
    items = list("".join(outcomes.split())) if isinstance(outcomes, str) else list(itertools.islice(outcomes, 10))
    parsed = _parse_items(items)  # linear in the text; the first bad letter is named
    if len(parsed) != 9:
        said = (_("a deal has nine tricks, got {count} or more in {value}") if len(parsed) == 10
                and not isinstance(outcomes, str) else _("a deal has nine tricks, got {count} in {value}"))
        raise NotationError(said.format(count=len(parsed), value=quoted(outcomes)))
    return parsed


#: The longest pagat notation read: nine letters and the spaces a reader may put between them.
_MAX_NOTATION = 100


def _parse_items(items: list) -> tuple[Outcome, ...]:
    """The outcomes of ``items`` (seats, seat letters, ``None`` or ``"X"``), in order."""
    if all(item is None or item.__class__ is Seat for item in items):
        return tuple(items)  # already parsed (the deal's own outcomes)
    parsed = []
    for position, item in enumerate(items, start=1):
        if item is None:
            parsed.append(None)
            continue
        key = item.value if isinstance(item, Seat) else str(item).strip().upper() if isinstance(item, str) else None
        if key == "X":
            parsed.append(None)
        elif key in ("N", "E", "S", "W"):
            parsed.append(Seat(key))
        else:
            raise NotationError(_("trick {position}: {value} is not a seat; pagat notation uses N, E, S, W for the "
                                  "seat that won the trick and X for a spoiled trick").format(position=position,
                                                                                              value=quoted(item)))
    return tuple(parsed)


def first_to_reach(outcomes: Union[str, Iterable[Union[Seat, str, None]]], n: int) -> Optional[Seat]:
    """The first seat to win ``n`` tricks in these outcomes (a whole deal or the tricks played so far), or ``None``
    when nobody has won ``n`` yet.

    pagat.com's Aluette page gives this as a custom of the table: the first player to win a second trick turns one
    of their tricks face up, and the first to win a third turns two, so everyone can see who reached two and three
    first (which decides a tie for the most tricks). ``first_to_reach(outcomes, 2)`` and ``first_to_reach(outcomes,
    3)`` say who turns the cards.

    >>> first_to_reach("SENWSEXNW", 2)     # pagat's example: S wins a second trick at trick 5, before anyone else
    Seat.S
    >>> first_to_reach("SENWSEXNW", 3) is None
    True
    >>> first_to_reach("NEWN", 2)          # a deal in progress: four tricks played
    Seat.N

    Raises:
        NotationError: more than nine outcomes, or an item that is not N, E, S, W, X or None.
        AluetteError: ``n`` is not a whole number from 1 to 9.
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 9:
        raise AluetteError(f"n must be a whole number of tricks from 1 to 9, got {quoted(n)}")
    if isinstance(outcomes, (bytes, bytearray)) or not isinstance(outcomes, (str, Iterable)):
        raise NotationError(_("expected pagat notation as text ('SENWSEXNW') or a sequence of seats/None, got "
                              "{value}").format(value=quoted(outcomes)))
    if isinstance(outcomes, str) and len(outcomes) > _MAX_NOTATION:
        raise NotationError(_("a deal has at most nine tricks; the notation given is {count} characters long "
                              "({start}…)").format(count=len(outcomes), start=repr(outcomes[:12])))
    items = list("".join(outcomes.split())) if isinstance(outcomes, str) else list(itertools.islice(outcomes, 10))
    outs = _parse_items(items)
    if len(outs) > 9:
        raise NotationError(_("a deal has at most nine tricks, got more in {value}").format(value=quoted(outcomes)))
    counts = dict.fromkeys(SEATS, 0)
    for seat in outs:
        if seat is not None:
            counts[seat] += 1
            if counts[seat] == n:
                return seat
    return None


def outcomes_notation(outcomes: Sequence[Outcome]) -> str:
    """Write trick outcomes in pagat notation (``None`` → ``X``); fewer than nine is allowed (a deal in progress)."""
    return "".join("X" if o is None else str(o) for o in outcomes)


@dataclass(frozen=True)
class DealScore:
    """The score of one deal, from its trick outcomes alone.

    Attributes:
        outcomes: the nine outcomes (a seat, or ``None`` for a spoiled trick).
        counts: tricks won per seat, as ``((Seat.N, n), (Seat.E, n), ...)``; see :meth:`count`.
        winner: the seat that scores for its partnership, or ``None`` when nobody won a trick.
        team: the winner's partnership (``Team.NS`` == ``"NS"``...), or ``None``.
        points: 0, 1, or 2 for mordienne.
        mordienne: whether the winner made mordienne (always ``False`` when the option is off).
        reached_first: ``True`` when several seats tied for most tricks and the winner got there first.
        reached_at: trick number (1-9) at which the winner reached its final count, or ``None``.
        mordienne_option: whether the deal was scored with the mordienne option on.
        unannounced: the winner won a mordienne run but had not announced it (the second form of Guy Rebour's account,
            :func:`score_tricks`'s ``announced``), so it scores 1.
        reason (a property): one or two sentences explaining the result, worded when read, in the page's language
            (:mod:`aluette.i18n`): a French page reads them in French.
    """

    outcomes: tuple[Outcome, ...]
    counts: tuple[tuple[Seat, int], ...]
    winner: Optional[Seat]
    team: Optional[Team]
    points: int
    mordienne: bool
    reached_first: bool
    reached_at: Optional[int]
    mordienne_option: bool = True
    unannounced: bool = False

    @property
    def reason(self) -> str:
        """One or two sentences explaining the result, in the page's language (worded now, from the facts above)."""
        return _score_reason(self)

    def __repr__(self) -> str:
        # short, so a notebook cell can end with the value: <DealScore NEWXSSSSS: S wins, NS scores 2 (mordienne)>
        if self.winner is None:
            return f"<DealScore {self.notation}: nobody scores>"
        return (f"<DealScore {self.notation}: {self.winner} wins, {self.team} scores {self.points}"
                f"{' (mordienne)' if self.mordienne else ''}>")

    def count(self, seat: Union[Seat, str]) -> int:
        """Tricks won by ``seat``."""
        return dict(self.counts)[Seat.parse(seat)]

    @property
    def notation(self) -> str:
        """The outcomes in pagat notation."""
        return outcomes_notation(self.outcomes)

    @property
    def team_points(self) -> Mapping[Team, int]:
        """Points per partnership, ``{Team.NS: p, Team.EW: q}``."""
        return {t: (self.points if t is self.team else 0) for t in Team}


def _is_mordienne(outcomes: Sequence[Outcome], seat: Seat) -> bool:
    # seat won every trick from its first won trick to the last, and that first one is not trick 1
    start = outcomes.index(seat)
    return start > 0 and outcomes.count(seat) == len(outcomes) - start


def score_tricks(outcomes, *, mordienne: bool = True, announced: Optional[Iterable[Union[Seat, str]]] = None
                 ) -> DealScore:
    """Score a deal from its nine trick outcomes (pagat notation or a sequence; see :func:`parse_outcomes`).

    ``announced`` is for the second form of Guy Rebour's account as pagat reports it (:class:`~aluette.options.Rebour`):
    the seats that announced mordienne before the first trick; a mordienne then scores 2 only when its maker is among them
    (otherwise 1). ``None`` (default): every mordienne scores 2.

    >>> score_tricks("SENWSEXNW").winner          # all four have two; S reached two first (pagat's example)
    Seat.S
    >>> score_tricks("XSENXWSSS").mordienne       # S won trick 2 too, so the run 7-9 is not all S won
    False
    >>> score_tricks("NEWNXSSSS").points           # S won tricks 6-9 in a row after tricks S did not win
    2
    >>> score_tricks("NEWNXSSSS", announced=["N"]).points   # Rebour, second form: S did not announce it
    1

    Raises:
        NotationError: not nine outcomes, or an unknown letter.
        AluetteError: ``mordienne`` is not ``True`` or ``False``.
        UnknownSeatError: an item of ``announced`` is not a seat.
    """
    if not isinstance(mordienne, bool):  # a truthy "no" must not switch the option on
        raise AluetteError(f"mordienne must be True or False, got {mordienne!r}")
    if announced is not None:
        if isinstance(announced, (str, bytes)) or not isinstance(announced, Iterable):
            raise AluetteError(f"announced must be a collection of seats, got {quoted(announced)}")
        announced = frozenset(Seat.parse(seat) for seat in itertools.islice(announced, 5))
    outs = parse_outcomes(outcomes)
    counts = {seat: outs.count(seat) for seat in SEATS}
    count_pairs = tuple(counts.items())
    top = max(counts.values())
    if top == 0:
        return DealScore(outs, count_pairs, None, None, 0, False, False, None, mordienne)
    leaders = [s for s in SEATS if counts[s] == top]
    # the trick index at which each leader reached its final count: its last won trick
    reached = {s: len(outs) - 1 - outs[::-1].index(s) for s in leaders}
    winner = min(leaders, key=reached.__getitem__)
    team = _TEAM[winner]
    tie = len(leaders) > 1
    run = mordienne and _is_mordienne(outs, winner)
    unannounced = run and announced is not None and winner not in announced
    made = run and not unannounced
    points = 2 if made else 1
    return DealScore(outs, count_pairs, winner, team, points, made, tie, reached[winner] + 1, mordienne, unannounced)


def _score_reason(score: DealScore) -> str:
    """:attr:`DealScore.reason`: the sentences of the score, in the page's language."""
    outs, winner = score.outcomes, score.winner
    if winner is None:
        return _("Every trick was spoiled: nobody won a trick, so nobody scores ({badge}).").format(
            badge=badged("all-nine-spoiled"))
    counts = dict(score.counts)
    top = counts[winner]
    leaders = [s for s in SEATS if counts[s] == top]
    reached = {s: len(outs) - 1 - outs[::-1].index(s) for s in leaders}
    name = _NAME[winner]
    if len(leaders) > 1:
        others = ", ".join(_("{seat} at trick {number}").format(seat=_NAME[s], number=reached[s] + 1)
                           for s in leaders if s is not winner)
        # TRANSLATORS: a tie for the most tricks, won by who reached the count first: "N, S tied with 3 tricks; N
        # reached 3 first, at trick 7 (S at trick 9)"
        reason = _("{seats} tied with {top} tricks; {seat} reached {top} first, at trick {number} ({others})").format(
            seats=", ".join(_NAME[s] for s in leaders), top=top, seat=name, number=reached[winner] + 1,
            others=others)
    else:
        reason = _("{seat} won the most tricks ({top})").format(seat=name, top=top)
    reason += _(", so {team} scores {points}.").format(team=_NAME[score.team], points=score.points)
    if score.mordienne:
        reason += " " + _("Mordienne: {run}").format(run=_run_sentence(outs, winner))
    elif score.mordienne_option and not _is_mordienne(outs, winner):
        reason += _no_run_by_decision(outs, winner)
    elif score.unannounced:
        reason += " " + _unannounced(name)
    return reason


def _unannounced(name: str) -> str:
    return _("{seat} won the last tricks in a run, but had not announced mordienne: under the second form of Guy "
             "Rebour's account it scores 1.").format(seat=name)


def _run_sentence(outcomes: Sequence[Outcome], winner: Seat) -> str:
    """``"S won tricks 6-9 in an unbroken run after not winning tricks 1-5."``: the mordienne ``winner`` made. Where
    the verdict rests on one of the project's decisions, the sentence says so with its badge (:func:`badged`): a run of
    one (``one-trick-run-mordienne``), spoiled tricks before the run (``mordienne-spoiled-counts-before``)."""
    first = outcomes.index(winner)
    applied = _run_decisions(outcomes, winner)
    run = (_("trick 9, a run of one ending the deal ({badge}),").format(badge=badged("one-trick-run-mordienne"))
           if "one-trick-run-mordienne" in applied
           else _("tricks {first}-9 in an unbroken run").format(first=first + 1))
    before = _("tricks 1-{last}").format(last=first) if first > 1 else _("trick 1")
    # TRANSLATORS: a mordienne: "S won tricks 6-9 in an unbroken run after not winning tricks 1-5"
    sentence = _("{seat} won {run} after not winning {before}").format(seat=_NAME[winner], run=run, before=before)
    if "mordienne-spoiled-counts-before" in applied:
        sentence += _("; a spoiled trick counts as a trick before the run ({badge})").format(
            badge=badged("mordienne-spoiled-counts-before"))
    return sentence + "."


def _run_decisions(outcomes: Sequence[Outcome], winner: Seat) -> tuple[str, ...]:
    """The decisions a mordienne ``winner`` made rests on: a run of one, the ninth trick
    (``one-trick-run-mordienne``); spoiled tricks before the run (``mordienne-spoiled-counts-before``)."""
    first = outcomes.index(winner)
    return (("one-trick-run-mordienne",) if first == 8 else ()) + (
        ("mordienne-spoiled-counts-before",) if None in outcomes[:first] else ())


def _no_run_decision(outcomes: Sequence[Outcome], winner: Seat) -> Optional[str]:
    """The one decision that alone keeps ``winner`` from mordienne, or ``None`` (:func:`_no_run_by_decision`)."""
    first = outcomes.index(winner)
    if first == 0:
        return "all-nine-not-mordienne" if outcomes.count(winner) == 9 else None
    rest = outcomes[first:]
    if None in rest and all(o is winner or o is None for o in rest):
        return "mordienne-spoiled-breaks-run"
    return None


def _no_run_by_decision(outcomes: Sequence[Outcome], winner: Seat) -> str:
    """The sentence a deal's reason adds when only one of the project's decisions keeps the winner from mordienne: their
    run broken by spoiled tricks alone (``mordienne-spoiled-breaks-run``, pagat's ``EXWEWNNNX``), or all nine won
    (``all-nine-not-mordienne``); ``""`` otherwise."""
    applied = _no_run_decision(outcomes, winner)
    if applied == "all-nine-not-mordienne":
        return " " + _("Winning all nine tricks is not mordienne ({badge}).").format(badge=badged(applied))
    if applied == "mordienne-spoiled-breaks-run":
        return " " + _("No mordienne: a spoiled trick breaks {seat}'s run ({badge}).").format(
            seat=_NAME[winner], badge=badged(applied))
    return ""


def explain_mordienne(score: DealScore, *, mordienne: bool = True) -> str:
    """Whether the deal's winner made mordienne and why, in the words of the engine's :attr:`DealScore.reason`
    (``mordienne``: whether the option was on when ``score`` was made, as for :func:`score_tricks`).

    >>> explain_mordienne(score_tricks("NEWNSSSSS"))
    'Mordienne: yes. S won tricks 5-9 in an unbroken run after not winning tricks 1-4. It is worth 2.'
    >>> explain_mordienne(score_tricks("XSENXWSSS"))[:40]
    'Mordienne: no. S won tricks 2, 7, 8 and '
    """
    winner = score.winner
    if winner is None:
        return _("Mordienne: no. Nobody won a trick, so nobody scores at all.")
    if not mordienne:
        return _("Mordienne is off: the deal's winner scores 1 whatever the order of the tricks.")
    if score.mordienne:
        return _("Mordienne: yes. {run} It is worth 2.").format(run=_run_sentence(score.outcomes, winner))
    if _is_mordienne(score.outcomes, winner):  # a run, not announced under Rebour's account, second form
        return _("Mordienne: no. {why}").format(why=_unannounced(_NAME[winner]))
    outcomes, name = score.outcomes, _NAME[winner]
    won = [i for i, o in enumerate(outcomes, start=1) if o is winner]
    and_ = _(" and ")
    listed = and_.join(map(str, won)) if len(won) < 3 else f"{', '.join(map(str, won[:-1]))}{and_}{won[-1]}"
    first = won[0] - 1
    if len(won) == len(outcomes):
        why = _("{seat} won every trick, so no trick comes before the run ({badge}).").format(
            seat=name, badge=badged("all-nine-not-mordienne"))
    elif first == 0:
        why = _("{seat} won trick 1, so no trick {seat} did not win comes before a run.").format(seat=name)
    else:  # not a run to trick 9: the first trick after the winner's first that went elsewhere breaks it
        breaker = next(k for k in range(first, len(outcomes)) if outcomes[k] is not winner)
        if outcomes[breaker] is None:
            why = _("After {seat}'s first trick (trick {first}), trick {breaker} went to nobody (spoiled), breaking "
                    "the run ({badge}).").format(seat=name, first=first + 1, breaker=breaker + 1,
                                                 badge=badged("mordienne-spoiled-breaks-run"))
        else:
            why = _("After {seat}'s first trick (trick {first}), trick {breaker} went to {other}, breaking the "
                    "run.").format(seat=name, first=first + 1, breaker=breaker + 1,
                                   other=_NAME[outcomes[breaker]])
    won_text = (_("{seat} won tricks {tricks}.") if len(won) > 1 else _("{seat} won trick {tricks}.")).format(
        seat=name, tricks=listed)
    return _("Mordienne: no. {won} {why} Mordienne needs the deal's winner to win one unbroken run of tricks ending "
             "with trick 9, after at least one trick they did not win.").format(won=won_text, why=why)


def score_deal(outcomes=None, *, mordienne: bool = True, announced: Optional[Iterable[Union[Seat, str]]] = None,
               surrendered_by: Union[Team, str, None] = None, surrender_accepted: Optional[bool] = None,
               offered_after: int = 0) -> DealResult:
    """The points of a finished deal, surrender included (module docstring): what :attr:`Deal.result
    <aluette.deal.Deal.result>` holds.

    ``outcomes`` are the nine trick outcomes (as :func:`score_tricks` reads them; ``mordienne`` and ``announced``
    as there), or ``None`` when a surrender was accepted and the deal not played. ``surrendered_by`` is the
    partnership that offered to surrender (``None``: nobody offered) and ``surrender_accepted`` the other side's
    answer; ``offered_after`` the number of tricks played when the offer was made (0: before the first trick; 1-8
    under ``Options(surrender_until="last_trick")``, decision ``surrender-between-tricks``). The points are the same
    whenever the offer was made: refused, the refusing side must make mordienne over the whole deal.

    >>> score_deal("NEWXSSSSS", surrendered_by="NS", surrender_accepted=False).points[Team.NS]  # NS made mordienne
    2
    >>> score_deal("SENWSEXNW", surrendered_by="EW", surrender_accepted=False).points[Team.EW]  # NS failed to
    2
    >>> score_deal(None, surrendered_by="EW", surrender_accepted=True).points[Team.NS]  # accepted: not played
    1
    >>> score_deal("NSWEXNNWE", surrendered_by="NS", surrender_accepted=False, offered_after=4).points[Team.NS]
    2

    Raises:
        AluetteError: an offer without its answer or an answer without an offer, outcomes for a deal that was not
            played (or none for one that was), ``surrender_accepted`` not ``True``/``False``/``None``, or
            ``offered_after`` not a whole number from 0 to 8 (or not 0 without an offer); see :func:`score_tricks`
            for the rest.
    """
    if surrendered_by is not None and surrendered_by not in _TEAMS:
        raise AluetteError(f"surrendered_by must be a partnership, NS or EW, got {quoted(surrendered_by)}")
    by = None if surrendered_by is None else Team(surrendered_by)
    if surrender_accepted not in (None, True, False) or (by is None) != (surrender_accepted is None):
        raise AluetteError(f"a surrender offer (surrendered_by={quoted(surrendered_by)}) and its answer "
                           f"(surrender_accepted={quoted(surrender_accepted)}) go together: both or neither")
    if offered_after.__class__ is not int or not 0 <= offered_after <= 8 or (offered_after and by is None):
        raise AluetteError(f"offered_after is the number of tricks played before a surrender offer, 0 to 8 (0 "
                           f"without an offer), got {quoted(offered_after)}")
    if surrender_accepted is True:
        if outcomes is not None:
            raise AluetteError("an accepted surrender ends the deal: it has no trick outcomes")
        return DealResult({by.other: 1, by: 0}, None, by, True, offered_after)
    if outcomes is None:
        raise AluetteError("a deal played out has nine trick outcomes; None is for an accepted surrender")
    score = score_tricks(outcomes, mordienne=mordienne, announced=announced)
    points = {team: (score.points if team is score.team else 0) for team in _TEAMS}  # score.team_points, faster
    if surrender_accepted is False:
        refusing = by.other
        if score.mordienne and score.team is refusing:
            points = {refusing: 2, by: 0}
        else:
            points = {by: 2, refusing: 0}
    return DealResult(points, score, by, surrender_accepted, offered_after)


def result_reason(result: DealResult) -> str:
    """:attr:`DealResult.reason <aluette.records.DealResult.reason>`: the sentences explaining a finished deal's
    points (the score's reason, then the surrender's), in the page's language."""
    by, after = result.surrendered_by, result.offered_after
    if result.surrender_accepted is True:
        winner = by.other
        if after:
            return _("{by} surrendered after trick {number} and {winner} accepted: {winner} scores 1 and the rest of "
                     "the deal is not played (pagat.com).").format(by=by, number=after, winner=winner)
        return _("{by} surrendered and {winner} accepted: {winner} scores 1 and the deal is not played "
                 "(pagat.com).").format(by=by, winner=winner)
    score = result.score
    reason = score.reason
    if result.surrender_accepted is False:
        refusing = by.other
        when = _(" after trick {number}").format(number=after) if after else ""
        if result.points[refusing]:
            reason += " " + _("{refusing} refused the surrender{when} and made mordienne: {refusing} scores "
                              "2.").format(refusing=refusing, when=when)
        else:
            source = ("pagat.com; " + badged("surrender-refused-all-spoiled") if score.winner is None
                      else "pagat.com")
            reason += " " + _("But {refusing} refused the surrender{when} and did not make mordienne: {by} scores 2 "
                              "instead ({source}).").format(refusing=refusing, when=when, by=by, source=source)
    return reason


def result_decisions(result: DealResult) -> tuple[str, ...]:
    """The names of the project's decisions a finished deal's points rest on, in the order its reason
    (:func:`result_reason`) states them, each badged there (:func:`aluette.decisions.badged`)."""
    score, by = result.score, result.surrendered_by
    if result.surrender_accepted is True:
        return ()
    winner = score.winner
    if winner is None:
        applied = ("all-nine-spoiled",)
    elif score.mordienne:
        applied = _run_decisions(score.outcomes, winner)
    elif score.mordienne_option and not _is_mordienne(score.outcomes, winner):
        applied = tuple(filter(None, [_no_run_decision(score.outcomes, winner)]))
    else:
        applied = ()
    if result.surrender_accepted is False and not result.points[by.other] and winner is None:
        applied += ("surrender-refused-all-spoiled",)
    return applied


def result_verdict(result: DealResult) -> str:
    """:attr:`DealResult.verdict <aluette.records.DealResult.verdict>`: a finished deal's points in one short
    sentence, who scores and in a few words why (``"NS scores 2: S made mordienne."``), for a page that shows the
    whole reason (:func:`result_reason`) on demand beside it. The project's decisions it rests on are marked
    once, by the short badge (:func:`aluette.decisions.short_badge`), however many; the reason names each.

    >>> result_verdict(score_deal("NEWNSSSSS"))
    'NS scores 2: S made mordienne.'
    >>> result_verdict(score_deal("XXXXXXXXS"))
    'NS scores 2: S made mordienne (⚖ our decision).'
    """
    by = result.surrendered_by
    if result.surrender_accepted is True:
        return _("{winner} scores 1: {by} surrendered.").format(winner=by.other, by=by)
    applied = result_decisions(result)
    # TRANSLATORS: {mark} is "" or, when the verdict rests on a decision of this project, " (⚖ our decision)"
    mark = _(" ({badge})").format(badge=short_badge(*applied)) if applied else ""
    score = result.score
    if result.surrender_accepted is False:
        refusing = by.other
        if result.points[refusing]:
            return _("{refusing} scores 2: {refusing} refused the surrender and made mordienne{mark}.").format(
                refusing=refusing, mark=mark)
        return _("{by} scores 2: {refusing} refused the surrender and did not make mordienne{mark}.").format(
            by=by, refusing=refusing, mark=mark)
    if score.winner is None:
        return _("Nobody scores: every trick was spoiled{mark}.").format(mark=mark)
    seat, team = _NAME[score.winner], _NAME[score.team]
    if score.mordienne:
        return _("{team} scores 2: {seat} made mordienne{mark}.").format(team=team, seat=seat, mark=mark)
    if score.unannounced:
        return _("{team} scores 1: {seat} won the most tricks; mordienne was not announced.").format(
            team=team, seat=seat)
    if applied:  # a decision alone keeps the winner from mordienne
        return _("{team} scores 1: {seat} won the most tricks, without mordienne{mark}.").format(
            team=team, seat=seat, mark=mark)
    if score.reached_first:
        return _("{team} scores 1: {seat} won the tie for the most tricks by reaching it first.").format(
            team=team, seat=seat)
    return _("{team} scores 1: {seat} won the most tricks.").format(team=team, seat=seat)


_TEAM = {seat: seat.team for seat in SEATS}
_TEAMS = tuple(Team)
_NAME = {**{seat: seat.value for seat in SEATS}, **{team: team.value for team in Team}}
