"""Controls for the simulations of notebook 09: choose the deals, the players, the options and the seed, run, and
see the plot and its sentence, with the exact value beside the simulated one where there is one.

The logic is the plain-Python :class:`SimulationPlan` (what to run, checked) and :func:`run_plan` (runs it chunk by
chunk through :func:`aluette.simulation.simulate_chunks`, adds up a :class:`~aluette.simulation.Summary`, reports
progress); :class:`SimulationExplorer` only wires controls to them.

Cost bound: a click costs at most about a second of CPU on the project's 2-core machine, so the number of
deals is bounded per engine (:data:`MAX_DEALS`). Measured there (``time.process_time`` around one Run, the plot
included): 80,000 deals of random players on the vectorized engine 0.70 s; 50,000 of heuristic bots on the vectorized
engine 0.37 s; on the step-by-step engine, 400 deals of mixed sides 0.40 s and 400 of signalling bots 1.02 s, hence
300 there. A measurement, not a test: a unit test never asserts a time.

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
from ..options import Options
from ..probability import spoil_probability
from ..simulation import Summary, simulate_chunks
from .common import (MessageArea, NumberBox, SeedBox, check_choice, check_seed, friendly, no_null_tooltips, plural,
                     styled)

__all__ = ["SIDES", "MAX_DEALS", "SimulationPlan", "SimulationResult", "run_plan", "SimulationExplorer"]

#: The players a side may have: key → label.
SIDES = {"random": "random players", "heuristic": "heuristic bots"}

#: The most deals one click may run, per engine (about a second of CPU; module docstring).
MAX_DEALS = {"vectorized-random": 80_000, "vectorized-heuristic": 50_000, "step": 300}


@dataclass(frozen=True)
class SimulationPlan:
    """What to simulate, checked on creation.

    Attributes:
        deals: how many deals (1 to :attr:`max_deals`).
        ns, ew: the players of each side, a key of :data:`SIDES`.
        mordienne, chant, surrender: the rule :class:`~aluette.Options`.
        signals: whether heuristic bots signal to their partner (random players never do).
        seed: the seed (0 to 2**32 - 1); the same plan gives the same figures.

    Raises:
        AluetteError: an unknown side, a bad seed, options that do not go together, or more deals than
            :attr:`max_deals` (the message names the limit and why).
    """

    deals: int = 10_000
    ns: str = "random"
    ew: str = "random"
    mordienne: bool = True
    chant: bool = True
    surrender: bool = False
    signals: bool = False
    seed: int = 2026

    def __post_init__(self):
        check_choice(self.ns, SIDES, "players")
        check_choice(self.ew, SIDES, "players")
        check_seed(self.seed)
        self.options  # noqa: B018 - raises for options that do not go together
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or not 1 <= self.deals <= self.max_deals:
            raise AluetteError(f"the number of deals must be a whole number from 1 to {self.max_deals:,} with these "
                               f"players (about a second of computing), got {self.deals!r}")

    @property
    def options(self) -> Options:
        return Options(mordienne=self.mordienne, chant=self.chant, surrender=self.surrender)

    @property
    def engine(self) -> str:
        """``"vectorized-random"``, ``"vectorized-heuristic"`` (both sides alike, no signals) or ``"step"``."""
        if self.ns == self.ew and not (self.signals and self.ns == "heuristic"):
            return f"vectorized-{self.ns}"
        return "step"

    @property
    def max_deals(self) -> int:
        return MAX_DEALS[self.engine]

    @property
    def players(self):
        """The ``players`` argument of :func:`aluette.simulation.simulate`."""
        kind = {"random": "random", "heuristic": "signalling" if self.signals else "heuristic"}
        if self.engine != "step":
            return self.ns
        return {seat: kind[self.ns if seat in "NS" else self.ew] for seat in "NESW"}

    @property
    def exact_spoil(self) -> Optional[Fraction]:
        """The exact chance that a trick is spoiled, when all four players are random (else ``None``)."""
        return spoil_probability(4) if self.ns == self.ew == "random" else None

    def describe(self) -> str:
        sides = (f"both sides {SIDES[self.ns]}" if self.ns == self.ew
                 else f"N–S {SIDES[self.ns]}, E–W {SIDES[self.ew]}")
        rules = ", ".join(f"{name} {'on' if on else 'off'}" for name, on in
                          (("mordienne", self.mordienne), ("chant", self.chant), ("surrender", self.surrender)))
        signals = "; bots signal" if self.signals and "heuristic" in (self.ns, self.ew) else ""
        return f"{self.deals:,} deals, seed {self.seed}, {sides}{signals}; {rules}"


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
        spoiled = f"{self.spoiled_share:.2%} of the tricks were spoiled"
        if exact is not None:
            spoiled += f" (exact for random play: {exact} ≈ {float(exact):.2%})"
        points = s.points["NS"] + s.points["EW"]
        ns = f"N–S scored {s.points['NS'] / points:.0%} of the points" if points else "nobody scored"
        return (f"In {plan.describe()}: {spoiled}; {self.share(s.first_to_reach):.1%} of the deals were decided by "
                f"first to reach, mordienne was made in {self.share(s.mordienne):.2%}, and "
                f"{plural(s.all_spoiled, 'deal')} had all nine tricks spoiled; {ns}.")

    def plot_png(self) -> bytes:
        """The spoiled share per trick number (with the exact value, if any) as a PNG."""
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib.figure import Figure
        figure = Figure(figsize=(7.5, 3))
        ax = figure.subplots()
        ax.bar(range(1, 10), self.spoiled_by_trick, color="#1f4e9c", label="simulated")
        exact = self.plan.exact_spoil
        if exact is not None:
            ax.axhline(float(exact), color="black", ls="--", label=f"exact, {exact} ≈ {float(exact):.4f}")
        ax.set(xlabel="trick number", ylabel="share spoiled", xticks=range(1, 10),
               ylim=(0, max(0.12, float(self.spoiled_by_trick.max()) * 1.2)),
               title=f"Spoiled tricks, {self.plan.deals:,} deals")
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
    """Run a simulation of your own: deals, players per side, options, signals and seed; Run shows a progress bar,
    then the plot and its sentence (exact value beside the simulated one when all play at random).

    Controls (CSS classes): ``deals`` (``aluette-sim-deals``), ``ns`` and ``ew`` (``aluette-sim-ns``,
    ``aluette-sim-ew``), ``option_boxes`` (``aluette-sim-mordienne``, ``-chant``, ``-surrender``, ``-signals``),
    ``seed`` (``aluette-sim-seed``), ``run_button`` (``aluette-sim-run``); views ``progress``
    (``aluette-sim-progress``), ``limit`` (``aluette-sim-limit``: the largest number of deals for these players),
    ``sentence`` (``aluette-sim-sentence``), ``plot`` (``aluette-sim-plot``, an image whose text alternative is the
    sentence), ``message``. Read-only: :attr:`result`.
    """

    def __init__(self, plan: Optional[SimulationPlan] = None):
        plan = SimulationPlan() if plan is None else plan
        self.deals = NumberBox(plan.deals, "aluette-sim-deals", what="the number of deals", minimum=1,
                               maximum=max(MAX_DEALS.values()), message=lambda: self.message,
                               description="Deals", width="200px")
        self.ns = styled(w.Dropdown(options=[(v, k) for k, v in SIDES.items()], value=plan.ns,
                                    description="N–S", layout=w.Layout(width="260px")), "aluette-sim-ns")
        self.ew = styled(w.Dropdown(options=[(v, k) for k, v in SIDES.items()], value=plan.ew,
                                    description="E–W", layout=w.Layout(width="260px")), "aluette-sim-ew")
        self.option_boxes = {name: styled(w.Checkbox(value=getattr(plan, name), description=name, indent=False,
                                                     layout=w.Layout(width="120px")), f"aluette-sim-{name}")
                             for name in ("mordienne", "chant", "surrender", "signals")}
        self.seed = SeedBox(plan.seed, "aluette-sim-seed", message=lambda: self.message, width="200px")
        self.run_button = styled(w.Button(description="Run the simulation", button_style="primary", icon="play",
                                          tooltip="simulate the deals with these players and options",
                                          layout=w.Layout(width="auto")), "aluette-sim-run")
        self.progress = styled(w.IntProgress(value=0, min=0, max=1, description="Progress",
                                             layout=w.Layout(width="420px", visibility="hidden")),
                               "aluette-sim-progress")
        self.limit = styled(w.HTML(), "aluette-sim-limit")
        self.sentence = styled(w.HTML(), "aluette-sim-sentence")
        self.plot = styled(w.HTML(), "aluette-sim-plot")
        self.message = styled(MessageArea(), "aluette-sim-message")
        self.result: Optional[SimulationResult] = None
        self.run_button.on_click(lambda _: self.run())
        for control in (self.ns, self.ew, self.option_boxes["signals"]):
            control.observe(lambda change: self._show_limit(), names="value")
        super().__init__([w.HBox([self.deals, self.seed, self.ns, self.ew], layout=w.Layout(flex_flow="row wrap")),
                          w.HBox(list(self.option_boxes.values()), layout=w.Layout(flex_flow="row wrap")),
                          self.limit, w.HBox([self.run_button, self.progress]), self.message, self.sentence,
                          self.plot])
        self.add_class("aluette-sim")
        self._show_limit()
        no_null_tooltips(self)

    def plan(self) -> SimulationPlan:
        """The plan the controls describe.

        Raises:
            AluetteError: as :class:`SimulationPlan` (too many deals for these players...)."""
        return SimulationPlan(deals=self.deals.number, ns=self.ns.value, ew=self.ew.value,
                              seed=self.seed.seed_value, **{k: b.value for k, b in self.option_boxes.items()})

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
        png = base64.b64encode(result.plot_png()).decode("ascii")
        self.plot.value = (f'<img src="data:image/png;base64,{png}" alt="{escape(text)}" '
                           f'style="max-width:100%">')
        return result

    def _show_limit(self) -> None:
        try:
            probe = SimulationPlan(deals=1, ns=self.ns.value, ew=self.ew.value,
                                   signals=self.option_boxes["signals"].value)
        except AluetteError:  # pragma: no cover - the drop-downs offer only valid sides
            return
        engine = {"vectorized-random": "the fast engine (random players)",
                  "vectorized-heuristic": "the fast engine (heuristic bots, no signals)",
                  "step": "the step-by-step engine (mixed sides or signalling bots)"}[probe.engine]
        self.limit.value = (f"With these players: {engine}, at most {probe.max_deals:,} deals per run (about a "
                            f"second of computing).")
