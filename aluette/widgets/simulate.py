"""Controls for the simulations of notebook 09: choose the deals, the players (per side or per seat), the options and
the seed, run, and see the plot and its sentence, with the exact value beside the simulated one where there is one,
and the results by the dealer's side and by seat.

The logic is the plain-Python :class:`SimulationPlan` (what to run, checked) and :func:`run_plan` (runs it chunk by
chunk through :func:`aluette.simulation.simulate_chunks`, adds up a :class:`~aluette.simulation.Summary`, reports
progress); :class:`SimulationExplorer` only wires controls to them.

Cost bound: a click costs at most about a second of CPU on the project's 2-core machine, so the number of
deals is bounded per engine (:data:`MAX_DEALS`). Measured there (``time.process_time`` around one Run, the plot
included): 80,000 deals of random players on the vectorized engine 0.70 s; 50,000 of heuristic bots on the vectorized
engine 0.37 s (any mix of bots and random players, one kind per seat, is played there too, and costs less: 0.61 s
for one bot and 0.64 s for a side of bots in a run where four bots took 1.09 s, the machine loaded); on the step-by-step
engine, 400 deals of signalling bots 1.02 s, hence 300 there. A measurement, not a test: a unit test never asserts a
time.

Exact values (:mod:`aluette.probability`): when all four players are random, the four cards of every trick are a
uniformly random set of four, so each trick is spoiled with probability ``spoil_probability(4)`` = 1343/19458 and a
deal has on average ``9 × 1343/19458`` spoiled tricks (notebook 09 shows why). Other players have no exact value.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Callable, Optional

import ipywidgets as w

from ..errors import AluetteError
from ..frames import TABLE_COLUMNS
from ..i18n import SIGNED, N_, _, ngettext, number, percent
from ..options import Options
from ..seats import SEATS
from ..probability import spoil_probability
from ..simulation import Summary, simulate_chunks
from .common import (MessageArea, NumberBox, SeedBox, check_choice, check_seed, friendly, no_null_tooltips,
                     styled)

__all__ = ["SIDES", "MAX_DEALS", "SimulationPlan", "SimulationResult", "run_plan", "SimulationExplorer"]

_LETTERS = tuple(str(seat) for seat in SEATS)  # "N", "E", "S", "W"

#: The players a side may have: key → label.
SIDES = {"random": N_("random players"), "heuristic": N_("heuristic bots")}
#: One player of each kind (:meth:`SimulationPlan.describe`, players seat by seat).
_ONE = {"random": N_("random player"), "heuristic": N_("heuristic bot")}

#: The most deals one click may run, per engine (about a second of CPU; module docstring).
MAX_DEALS = {"vectorized-random": 80_000, "vectorized-heuristic": 50_000, "step": 300}

#: The rule options and the bots' signals, as their check boxes name them.
_OPTION_NAMES = {"mordienne": N_("mordienne"), "chant": N_("chant"), "surrender": N_("surrender"),
                 "signals": N_("signals")}

#: The columns of the results by seat (:meth:`SimulationResult.seats_html`).
_SEAT_COLUMNS = (TABLE_COLUMNS["seat"], N_("players"), TABLE_COLUMNS["won"], TABLE_COLUMNS["side_points"],
                 TABLE_COLUMNS["per_deal_dealt"])  # the words of the frame's columns (frames.shown)


@dataclass(frozen=True)
class SimulationPlan:
    """What to simulate, checked on creation.

    Attributes:
        deals: how many deals (1 to :attr:`max_deals`).
        ns, ew: the players of each side, a key of :data:`SIDES`.
        seats: ``None`` (the players are chosen per side), or the players of N, E, S and W, four keys of
            :data:`SIDES` (then ``ns`` and ``ew`` are not used).
        mordienne, chant, surrender: the rule :class:`~aluette.Options`.
        signals: whether heuristic bots signal to their partner (random players never do).
        seed: the seed (0 to 2**32 - 1); the same plan gives the same figures.

    Raises:
        AluetteError: an unknown side or seat's players, not four seats, a bad seed, options that do not go
            together, or more deals than :attr:`max_deals` (the message names the limit and why).
    """

    deals: int = 10_000
    ns: str = "random"
    ew: str = "random"
    mordienne: bool = True
    chant: bool = True
    surrender: bool = False
    signals: bool = False
    seed: int = 2026
    seats: Optional[tuple] = None

    def __post_init__(self):
        check_choice(self.ns, SIDES, "players")
        check_choice(self.ew, SIDES, "players")
        if self.seats is not None:
            if isinstance(self.seats, str) or not isinstance(self.seats, (tuple, list)) or len(self.seats) != 4:
                raise AluetteError(f"seats must be four players, for N, E, S and W, got {str(self.seats)[:60]!r}")
            object.__setattr__(self, "seats", tuple(self.seats))  # a list of four is taken as the tuple
            for kind in self.seats:
                check_choice(kind, SIDES, "players")
        check_seed(self.seed)
        self.options  # noqa: B018 - raises for options that do not go together
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or not 1 <= self.deals <= self.max_deals:
            raise AluetteError(f"the number of deals must be a whole number from 1 to {self.max_deals:,} with these "
                               f"players (about a second of computing), got {self.deals!r}")

    @property
    def options(self) -> Options:
        return Options(mordienne=self.mordienne, chant=self.chant, surrender=self.surrender)

    @property
    def kinds(self) -> tuple:
        """The players of N, E, S and W, keys of :data:`SIDES`."""
        return self.seats if self.seats is not None else (self.ns, self.ew, self.ns, self.ew)

    @property
    def engine(self) -> str:
        """``"vectorized-random"`` (four random players), ``"vectorized-heuristic"`` (heuristic bots without signals,
        random players beside them or not) or ``"step"`` (signalling bots)."""
        if "heuristic" in self.kinds and self.signals:
            return "step"
        return "vectorized-random" if set(self.kinds) == {"random"} else "vectorized-heuristic"

    @property
    def max_deals(self) -> int:
        return MAX_DEALS[self.engine]

    @property
    def players(self):
        """The ``players`` argument of :func:`aluette.simulation.simulate`."""
        if self.engine == "vectorized-random":
            return "random"
        kind = {"random": "random", "heuristic": "signalling" if self.signals else "heuristic"}
        return {seat: kind[k] for seat, k in zip(_LETTERS, self.kinds)}

    @property
    def exact_spoil(self) -> Optional[Fraction]:
        """The exact chance that a trick is spoiled, when all four players are random (else ``None``)."""
        return spoil_probability(4) if set(self.kinds) == {"random"} else None

    def describe(self) -> str:
        kinds = self.kinds
        if kinds[0] == kinds[2] and kinds[1] == kinds[3]:
            sides = (_("all four {players}").format(players=_(SIDES[kinds[0]])) if kinds[0] == kinds[1]
                     else _("N–S {ns}, E–W {ew}").format(ns=_(SIDES[kinds[0]]), ew=_(SIDES[kinds[1]])))
        else:
            sides = ", ".join(f"{seat} {_(_ONE[k])}" for seat, k in zip(_LETTERS, kinds))
        rules = ", ".join((_("{rule} on") if on else _("{rule} off")).format(rule=name) for name, on in
                          ((_("mordienne"), self.mordienne), (_("chant"), self.chant),
                           (_("surrender"), self.surrender)))
        signals = _("; bots signal") if self.signals and "heuristic" in kinds else ""
        return _("{deals} deals, seed {seed}, {sides}{signals}; {rules}").format(
            deals=number(self.deals), seed=self.seed, sides=sides, signals=signals, rules=rules)


@dataclass(frozen=True)
class SimulationResult:
    """A finished run: its plan and :class:`~aluette.simulation.Summary`, with the figures the explorer shows."""

    plan: SimulationPlan
    summary: Summary

    @property
    def spoiled_share(self) -> float:
        """The share of played tricks that were spoiled."""
        return float(self.summary.spoiled_by_trick.sum()) / max(9 * self.summary.played, 1)

    @property
    def spoiled_by_trick(self):
        return self.summary.spoiled_by_trick / max(self.summary.played, 1)

    def share(self, count: int) -> float:
        return count / max(self.summary.deals, 1)

    def sentence(self) -> str:
        """The result in words, the exact value beside the simulated one where there is one."""
        s, plan = self.summary, self.plan
        exact = plan.exact_spoil
        spoiled = _("{share} of the tricks were spoiled").format(share=percent(self.spoiled_share, 2))
        if exact is not None:
            spoiled += _(" (exact for random play: {exact} ≈ {value})").format(exact=exact,
                                                                              value=percent(float(exact), 2))
        points = s.points["NS"] + s.points["EW"]
        if points:
            edge = s.dealer_edge()
            ns = _("N–S scored {ns} of the points; the dealer's side scored {dealer} of them, {mean} points per deal "
                   "more than the other side (95% interval {low} to {high})").format(
                ns=percent(s.points["NS"] / points, 0), dealer=percent(s.dealer_side_points / points, 1),
                mean=number(edge.mean, SIGNED), low=number(edge.low, SIGNED), high=number(edge.high, SIGNED))
        else:
            ns = _("nobody scored")
        return _("In {plan}: {spoiled}; {first} of the deals were decided by first to reach, mordienne was made in "
                 "{mordienne}, and {all_spoiled} had all nine tricks spoiled; {ns}.").format(
            plan=plan.describe(), spoiled=spoiled, first=percent(self.share(s.first_to_reach), 1),
            mordienne=percent(self.share(s.mordienne), 2),
            all_spoiled=ngettext("{count} deal", "{count} deals", s.all_spoiled).format(count=s.all_spoiled), ns=ns)

    def seats_html(self) -> str:
        """The results by seat as a small table: who plays there, the deals it won on tricks, the points of its
        side, and its side's points per deal when it dealt."""
        table = self.summary.by_seat()
        rows = "".join(
            f"<tr><th scope=\"row\">{seat}</th><td>{escape(_(SIDES[kind]))}</td><td>{number(int(row.won))} "
            f"({percent(row.won_share, 1)})</td><td>{number(int(row.side_points))}</td>"
            f"<td>{number(row.per_deal_dealt, '0.000')}</td></tr>"
            for (seat, row), kind in zip(table.iterrows(), self.plan.kinds))
        head = "".join(f"<th scope=\"col\">{escape(_(name))}</th>" for name in _SEAT_COLUMNS)
        return ("<table class=\"aluette-sim-seats-table\"><caption>" + escape(_("By seat")) + "</caption><thead><tr>"
                f"{head}</tr></thead><tbody>{rows}</tbody></table>")

    def plot_png(self) -> bytes:
        """The spoiled share per trick number (with the exact value, if any) as a PNG."""
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib.figure import Figure
        figure = Figure(figsize=(7.5, 3))
        ax = figure.subplots()
        ax.bar(range(1, 10), self.spoiled_by_trick, color="#1f4e9c", label=_("simulated"))
        exact = self.plan.exact_spoil
        if exact is not None:
            ax.axhline(float(exact), color="black", ls="--",
                       label=_("exact, {exact} ≈ {value}").format(exact=exact, value=f"{float(exact):.4f}"))
        ax.set(xlabel=_("trick number"), ylabel=_("share spoiled"), xticks=range(1, 10),
               ylim=(0, max(0.12, float(self.spoiled_by_trick.max()) * 1.2)),
               title=_("Spoiled tricks, {deals} deals").format(deals=number(self.plan.deals)))
        ax.legend(loc="upper right")
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=80)
        return buffer.getvalue()


def run_plan(plan: SimulationPlan, progress: Optional[Callable[[int, int], object]] = None) -> SimulationResult:
    """Run ``plan`` chunk by chunk; ``progress(done, total)`` is called after each chunk (deals done so far)."""
    engine = "step" if plan.engine == "step" else "vectorized"
    chunk = 100 if engine == "step" else 10_000
    summary = Summary()
    for frame in simulate_chunks(plan.deals, seed=plan.seed, options=plan.options, players=plan.players,
                                 engine=engine, chunk_size=chunk):
        summary.add(frame)
        if progress is not None:
            progress(summary.deals, plan.deals)
    return SimulationResult(plan, summary)


class SimulationExplorer(w.VBox):
    """Run a simulation of your own: deals, players per side or per seat, options, signals and seed; Run shows a
    progress bar, then the plot and its sentence (exact value beside the simulated one when all play at random; the
    dealer's side's share and edge) and the results by seat.

    Controls (CSS classes): ``deals`` (``aluette-sim-deals``), ``choose`` (``aluette-sim-choose``: players per
    side or per seat), ``ns`` and ``ew`` (``aluette-sim-ns``, ``aluette-sim-ew``, shown per side), ``seat_boxes``
    (``aluette-sim-seat-N``... shown per seat), ``option_boxes`` (``aluette-sim-mordienne``, ``-chant``,
    ``-surrender``, ``-signals``), ``seed`` (``aluette-sim-seed``), ``run_button`` (``aluette-sim-run``); views
    ``progress`` (``aluette-sim-progress``), ``limit`` (``aluette-sim-limit``: the largest number of deals for these
    players), ``sentence`` (``aluette-sim-sentence``), ``seats`` (``aluette-sim-seats``: the results by seat),
    ``plot`` (``aluette-sim-plot``, an image whose text alternative is the sentence), ``message``. Read-only:
    :attr:`result`.
    """

    def __init__(self, plan: Optional[SimulationPlan] = None):
        plan = SimulationPlan() if plan is None else plan
        self.deals = NumberBox(plan.deals, "aluette-sim-deals", what=_("the number of deals"), minimum=1,
                               maximum=max(MAX_DEALS.values()), message=lambda: self.message,
                               description=_("Deals"), width="200px")
        sides = [(_(v), k) for k, v in SIDES.items()]
        self.ns = styled(w.Dropdown(options=sides, value=plan.ns,
                                    description="N–S", layout=w.Layout(width="260px")), "aluette-sim-ns")
        self.ew = styled(w.Dropdown(options=sides, value=plan.ew,
                                    description="E–W", layout=w.Layout(width="260px")), "aluette-sim-ew")
        self.choose = styled(w.ToggleButtons(options=[(_("per side"), "side"), (_("per seat"), "seat")],
                                             value="side" if plan.seats is None else "seat",
                                             description=_("Players"),
                                             tooltips=[_("the same players for partners"), _("players seat by seat")],
                                             style={"button_width": "auto"}), "aluette-sim-choose")
        self.seat_boxes = {seat: styled(w.Dropdown(options=sides, value=kind,
                                                   description=seat, layout=w.Layout(width="230px")),
                                        f"aluette-sim-seat-{seat}") for seat, kind in zip(_LETTERS, plan.kinds)}
        self.option_boxes = {name: styled(w.Checkbox(value=getattr(plan, name), description=_(_OPTION_NAMES[name]),
                                                     indent=False,
                                                     layout=w.Layout(width="120px")), f"aluette-sim-{name}")
                             for name in ("mordienne", "chant", "surrender", "signals")}
        self.seed = SeedBox(plan.seed, "aluette-sim-seed", message=lambda: self.message, width="200px")
        self.run_button = styled(w.Button(description=_("Run the simulation"), button_style="primary", icon="play",
                                          tooltip=_("simulate the deals with these players and options"),
                                          layout=w.Layout(width="auto")), "aluette-sim-run")
        self.progress = styled(w.IntProgress(value=0, min=0, max=1, description=_("Progress"),
                                             layout=w.Layout(width="420px", visibility="hidden")),
                               "aluette-sim-progress")
        self.limit = styled(w.HTML(), "aluette-sim-limit")
        self.sentence = styled(w.HTML(), "aluette-sim-sentence")
        self.seats = styled(w.HTML(), "aluette-sim-seats")
        self.plot = styled(w.HTML(), "aluette-sim-plot")
        self.message = styled(MessageArea(), "aluette-sim-message")
        self.result: Optional[SimulationResult] = None
        self.run_button.on_click(lambda _: self.run())
        # first the seats take the sides' players, then they are shown: a page receives the changes in the order they
        # are made, and a seat shown before its copy arrived could be chosen and then overwritten (a loaded machine's
        # browser test, stop 39)
        self.choose.observe(self._copy_sides, names="value")
        self.choose.observe(lambda change: self._show_rows(), names="value")
        for control in (self.ns, self.ew, self.choose, self.option_boxes["signals"], *self.seat_boxes.values()):
            control.observe(lambda change: self._show_limit(), names="value")
        self._sides_row = w.HBox([self.ns, self.ew], layout=w.Layout(flex_flow="row wrap"))
        self._seats_row = w.HBox(list(self.seat_boxes.values()), layout=w.Layout(flex_flow="row wrap"))
        super().__init__([w.HBox([self.deals, self.seed], layout=w.Layout(flex_flow="row wrap")), self.choose,
                          self._sides_row, self._seats_row,
                          w.HBox(list(self.option_boxes.values()), layout=w.Layout(flex_flow="row wrap")),
                          self.limit, w.HBox([self.run_button, self.progress]), self.message, self.sentence,
                          self.seats, self.plot])
        self.add_class("aluette-sim")
        self._show_rows()
        self._show_limit()
        no_null_tooltips(self)

    def plan(self) -> SimulationPlan:
        """The plan the controls describe.

        Raises:
            AluetteError: as :class:`SimulationPlan` (too many deals for these players...)."""
        return SimulationPlan(deals=self.deals.number, ns=self.ns.value, ew=self.ew.value, seats=self._seats(),
                              seed=self.seed.seed_value, **{k: b.value for k, b in self.option_boxes.items()})

    def _seats(self) -> Optional[tuple]:
        return tuple(box.value for box in self.seat_boxes.values()) if self.choose.value == "seat" else None

    @friendly()
    def run(self) -> Optional[SimulationResult]:
        """What Run does: check the plan, run it with the progress bar, show the sentence and the plot. A bad plan
        shows a message and changes nothing."""
        plan = self.plan()
        self.message.clear()
        self.progress.max, self.progress.value = plan.deals, 0
        self.progress.layout.visibility = "visible"
        self.run_button.disabled = True
        try:
            result = run_plan(plan, progress=lambda done, total: setattr(self.progress, "value", done))
        finally:
            self.run_button.disabled = False
        self.result = result
        text = result.sentence()
        self.sentence.value = f'<div role="status" aria-live="polite"><b>{escape(text)}</b></div>'
        self.seats.value = result.seats_html()
        png = base64.b64encode(result.plot_png()).decode("ascii")
        self.plot.value = (f'<img src="data:image/png;base64,{png}" alt="{escape(text)}" '
                           f'style="max-width:100%">')
        return result

    def _copy_sides(self, change) -> None:
        """Per seat starts from the players chosen per side."""
        if change["new"] == "seat":
            for seat, box in self.seat_boxes.items():
                box.value = self.ns.value if seat in "NS" else self.ew.value

    def _show_rows(self) -> None:
        """The sides' players or the seats', as chosen."""
        per_seat = self.choose.value == "seat"
        self._sides_row.layout.display = "none" if per_seat else None
        self._seats_row.layout.display = None if per_seat else "none"

    def _show_limit(self) -> None:
        try:
            probe = SimulationPlan(deals=1, ns=self.ns.value, ew=self.ew.value, seats=self._seats(),
                                   signals=self.option_boxes["signals"].value)
        except AluetteError:  # pragma: no cover - the drop-downs offer only valid sides
            return
        engine = {"vectorized-random": _("the fast engine (random players)"),
                  "vectorized-heuristic": _("the fast engine (heuristic bots without signals, any mix)"),
                  "step": _("the step-by-step engine (signalling bots)")}[probe.engine]
        self.limit.value = escape(_("With these players: {engine}, at most {count} deals per run (about a second of "
                                    "computing).").format(engine=engine, count=number(probe.max_deals)))
