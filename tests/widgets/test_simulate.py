"""The simulation controls of notebook 09, driven through the plain-Python plan and the widget's methods.

Rule sources: the simulation's chance contract (:mod:`aluette.simulation`: the same seed, options and players give the
same rows); the exact chance that a trick of random play is spoiled, :func:`aluette.probability.spoil_probability`
(seeds, "gameplay": a tie for the best card spoils the trick).
"""

from fractions import Fraction

import numpy as np
import pytest

from aluette import AluetteError, Options
from aluette.simulation import simulate_summary
from aluette.widgets.simulate import MAX_DEALS, SimulationExplorer, SimulationPlan, run_plan


class TestPlan:
    @pytest.mark.parametrize("ns, ew, signals, engine", [
        ("random", "random", False, "vectorized-random"), ("heuristic", "heuristic", False, "vectorized-heuristic"),
        ("heuristic", "random", False, "step"), ("heuristic", "heuristic", True, "step"),
        ("random", "random", True, "vectorized-random")])  # random players never signal
    def test_the_engine_follows_the_players(self, ns, ew, signals, engine):
        assert SimulationPlan(deals=1, ns=ns, ew=ew, signals=signals).engine == engine

    def test_the_number_of_deals_is_bounded_per_engine(self):
        for ns, ew, engine in (("random", "random", "vectorized-random"), ("heuristic", "random", "step")):
            SimulationPlan(deals=MAX_DEALS[engine], ns=ns, ew=ew)
            with pytest.raises(AluetteError, match=f"from 1 to {MAX_DEALS[engine]:,}"):
                SimulationPlan(deals=MAX_DEALS[engine] + 1, ns=ns, ew=ew)
        with pytest.raises(AluetteError, match="from 1 to"):
            SimulationPlan(deals=0)

    def test_bad_choices_are_refused(self):
        with pytest.raises(AluetteError, match="unknown players"):
            SimulationPlan(ns="clever")
        with pytest.raises(AluetteError, match="surrender needs mordienne"):
            SimulationPlan(mordienne=False, surrender=True)
        with pytest.raises(AluetteError, match="seed"):
            SimulationPlan(seed=-1)

    def test_signalling_bots_per_side(self):
        plan = SimulationPlan(deals=10, ns="heuristic", ew="random", signals=True)
        assert plan.players == {"N": "signalling", "S": "signalling", "E": "random", "W": "random"}


class TestRun:
    def test_the_run_is_the_simulation_of_the_plan(self):
        # chance contract: the same seed, options and players give the same figures, whatever the chunks
        plan = SimulationPlan(deals=3_000, seed=7, chant=False)
        seen = []
        result = run_plan(plan, progress=lambda done, total: seen.append((done, total)))
        assert result.summary == simulate_summary(3_000, seed=7, options=Options(chant=False), engine="vectorized")
        assert seen[-1] == (3_000, 3_000) and [d for d, _ in seen] == sorted(d for d, _ in seen)

    def test_exact_value_beside_the_simulated_one_for_random_play(self):
        plan = SimulationPlan(deals=20_000, seed=3)
        result = run_plan(plan)
        exact = plan.exact_spoil
        assert exact == Fraction(1343, 19458)
        assert f"exact for random play: {exact}" in result.sentence()
        n = 9 * result.summary.played
        assert abs(result.spoiled_share - float(exact)) < 3.29 * np.sqrt(float(exact) * (1 - float(exact)) / n)

    def test_no_exact_value_for_bots(self):
        plan = SimulationPlan(deals=200, ns="heuristic", ew="random")
        assert plan.exact_spoil is None and "exact" not in run_plan(plan).sentence()


class TestExplorer:
    def test_run_shows_the_sentence_the_plot_and_the_progress(self):
        x = SimulationExplorer(SimulationPlan(deals=2_000, seed=5))
        result = x.run()
        assert x.message.last_error is None and x.result is result
        assert x.progress.value == x.progress.max == 2_000
        assert result.sentence() in x.sentence.value.replace("&#x27;", "'")
        assert x.plot.value.startswith('<img src="data:image/png;base64,') and 'alt="In 2,000 deals' in x.plot.value

    def test_the_controls_make_the_plan(self):
        x = SimulationExplorer()
        x.deals.value, x.seed.value, x.ns.value = "300", "11", "heuristic"
        x.option_boxes["chant"].value = False
        assert x.plan() == SimulationPlan(deals=300, seed=11, ns="heuristic", chant=False)
        assert "at most 300 deals" in x.limit.value

    def test_too_many_deals_shows_a_message_and_keeps_the_last_result(self):
        x = SimulationExplorer(SimulationPlan(deals=1_000))
        first = x.run()
        x.ns.value = "heuristic"
        x.deals.value = "5_000"
        assert x.run() is None and "from 1 to 300" in x.message.last_error
        assert x.result is first and not x.run_button.disabled
