"""Issue 9 §5: no "null" tooltip. ipywidgets 8 copies a description widget's ``tooltip`` into its label's ``title``;
``None`` shows as "null" when the mouse rests on the label. Every view leaves no ``tooltip`` at ``None``."""

import ipywidgets as w
import pytest

from aluette.widgets.chant import ChantDemo
from aluette.widgets.common import no_null_tooltips
from aluette.widgets.edge import ScenarioBuilder
from aluette.widgets.match import MatchTable
from aluette.widgets.play import TrickStepper
from aluette.widgets.play import TrickPicker
from aluette.widgets.ranking import OrderingExercise, TrickComparer
from aluette.widgets.scoring import MatchSheet, ScoringView
from aluette.widgets.setup import DealingStepper, PartnershipDraw
from aluette.widgets.signals import SignalQuiz
from aluette.widgets.simulate import SimulationExplorer


def widgets_under(root):
    seen, stack, found = set(), [root], []
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            found.append(node)
            stack.extend(c for c in getattr(node, "children", ()) if isinstance(c, w.Widget))
    return found


@pytest.mark.parametrize("make", [lambda: MatchTable(bot_delay=0), ChantDemo, ScenarioBuilder, TrickPicker,
                                  TrickStepper, OrderingExercise, TrickComparer, MatchSheet, ScoringView,
                                  DealingStepper, PartnershipDraw, SignalQuiz, SimulationExplorer])
def test_no_tooltip_is_none(make):
    view = make()
    described = [x for x in widgets_under(view) if "tooltip" in x.keys]
    assert described and all(x.tooltip is not None for x in described)


def test_the_helper_sets_only_missing_tooltips():
    box = w.VBox([w.Text(description="Seed"), w.Button(description="Go", tooltip="start")])
    no_null_tooltips(box)
    assert [c.tooltip for c in box.children] == ["", "start"] and box.tooltip == ""
