"""The simulation controls of notebook 09, driven through the plain-Python plan and the widget's methods.

Rule sources: the simulation's chance contract (:mod:`aluette.simulation`: the same seed, options and players give the
same rows); the exact chance that a trick of random play is spoiled, :func:`aluette.probability.spoil_probability`
(the rules sheet, "gameplay": a tie for the best card spoils the trick).
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
        ("heuristic", "random", False, "vectorized-heuristic"), ("heuristic", "heuristic", True, "step"),
        ("random", "heuristic", True, "step"),
        ("random", "random", True, "vectorized-random")])  # random players never signal
    def test_the_engine_follows_the_players(self, ns, ew, signals, engine):
        assert SimulationPlan(deals=1, ns=ns, ew=ew, signals=signals).engine == engine

    def test_the_number_of_deals_is_bounded_per_engine(self):
        for ns, ew, signals, engine in (("random", "random", False, "vectorized-random"),
                                        ("heuristic", "random", False, "vectorized-heuristic"),
                                        ("heuristic", "random", True, "step")):
            SimulationPlan(deals=MAX_DEALS[engine], ns=ns, ew=ew, signals=signals)
            with pytest.raises(AluetteError, match=f"from 1 to {MAX_DEALS[engine]:,}"):
                SimulationPlan(deals=MAX_DEALS[engine] + 1, ns=ns, ew=ew, signals=signals)
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
        assert "at most 50,000 deals" in x.limit.value
        x.option_boxes["signals"].value = True
        assert "at most 300 deals" in x.limit.value

    def test_too_many_deals_shows_a_message_and_keeps_the_last_result(self):
        x = SimulationExplorer(SimulationPlan(deals=1_000))
        first = x.run()
        x.ns.value = "heuristic"
        x.option_boxes["signals"].value = True
        x.deals.value = "5_000"
        assert x.run() is None and "from 1 to 300" in x.message.last_error
        assert x.result is first and not x.run_button.disabled


class TestPerSeatAndDealer:
    """Players chosen seat by seat, and the results by the dealer's side and by seat (the rules sheet, "scoring": the point
    goes to the winner's partnership; the dealer's side is the dealer's partnership)."""

    def test_per_seat_players_are_the_simulations(self):
        plan = SimulationPlan(deals=2_000, seed=9, seats=("heuristic", "random", "random", "random"))
        assert plan.engine == "vectorized-heuristic" and plan.exact_spoil is None
        assert plan.players == {"N": "heuristic", "E": "random", "S": "random", "W": "random"}
        assert "N heuristic bot, E random player, S random player, W random player" in plan.describe()
        result = run_plan(plan)
        assert result.summary == simulate_summary(2_000, seed=9, players=plan.players, engine="vectorized")
        seats = result.summary.by_seat()
        assert seats.won["N"] > max(seats.won["E"], seats.won["S"], seats.won["W"])  # one bot among random players
        assert SimulationPlan(seats=("random",) * 4).engine == "vectorized-random"
        assert SimulationPlan(deals=10, seats=("heuristic", "random", "random", "random"), signals=True).players == {
            "N": "signalling", "E": "random", "S": "random", "W": "random"}

    def test_bad_seats_are_refused(self):
        for bad in (("random", "random"), "rrrr", ("random",) * 5):
            with pytest.raises(AluetteError, match="seats must be four players"):
                SimulationPlan(seats=bad)
        assert SimulationPlan(seats=["heuristic", "random", "random", "random"]).seats == (
            "heuristic", "random", "random", "random")
        with pytest.raises(AluetteError, match="unknown players"):
            SimulationPlan(seats=("random", "random", "clever", "random"))

    def test_the_sentence_gives_the_dealers_side(self):
        result = run_plan(SimulationPlan(deals=3_000, seed=4, ns="heuristic", ew="heuristic"))
        s, edge = result.summary, result.summary.dealer_edge()
        points = s.points["NS"] + s.points["EW"]
        assert (f"the dealer's side scored {s.dealer_side_points / points:.1%} of them, {edge.mean:+.3f} points per "
                f"deal more than the other side (95% interval {edge.low:+.3f} to {edge.high:+.3f})") in result.sentence()

    def test_the_explorer_per_seat(self):
        x = SimulationExplorer(SimulationPlan(deals=1_000, seed=3))
        assert x._seats_row.layout.display == "none" and x._sides_row.layout.display is None
        x.ew.value = "heuristic"
        x.choose.value = "seat"  # per seat starts from the sides' players
        assert x._seats_row.layout.display is None and x._sides_row.layout.display == "none"
        assert x.plan().seats == ("random", "heuristic", "random", "heuristic")
        x.seat_boxes["E"].value = "random"
        x.seat_boxes["W"].value = "heuristic"
        assert x.plan().seats == ("random", "random", "random", "heuristic")
        assert "at most 50,000 deals" in x.limit.value
        result = x.run()
        assert x.message.last_error is None and result.plan.kinds == ("random", "random", "random", "heuristic")
        table = result.summary.by_seat()
        assert "<caption>By seat</caption>" in x.seats.value and f"{int(table.won['W']):,} (" in x.seats.value
        assert x.seats.value.count("<tr>") == 5 and "heuristic bots" in x.seats.value
        x.choose.value = "side"
        assert x.plan().seats is None

    def test_the_seats_get_the_sides_players_before_they_are_shown(self):
        # the order of the messages a page receives is the order of these changes: shown first, a seat chosen at
        # once in the browser was overwritten by the copy that followed (a browser test on a loaded machine)
        x = SimulationExplorer(SimulationPlan(deals=1_000, seed=3))
        x.ns.value = "heuristic"
        changes = []  # a widget sends its change (its comm's message) as notify_change begins, before its observers

        def record(widget, name):
            notify = widget.notify_change
            widget.notify_change = lambda change: (change["name"] in ("value", "display") and changes.append(name),
                                                   notify(change))
        for seat, box in x.seat_boxes.items():
            record(box, seat)
        record(x._seats_row.layout, "shown")
        x.choose.value = "seat"
        assert changes == ["N", "S", "shown"]  # E and W keep their random players: no change to send
