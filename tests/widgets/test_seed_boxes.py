"""Every seed box (and the simulation's number of deals) is a text box read by one check
(:func:`aluette.widgets.common.number_from_text`, :func:`~aluette.widgets.common.seed_from_text`): a browser's
number box turned a pasted ``12.7`` into 127 while the deal was built from 12, and clamped ``-1`` to 0 without a word.

Quality bar of this project: bad input gets a clear message of the project's error family naming the problem and
quoting at most a short prefix; the state is left exactly as it was (here: the box shows the seed it had, and no other
widget changes); every text box has a length limit. Spaces around a number are ignored (a pasted " 12 " is 12); ``_``
between digits is allowed, as Python writes numbers; nothing else is read.
"""

import ipywidgets as w
import pytest

from aluette.errors import AluetteError, BadSeedError, InputTooLongError
from aluette.widgets.chant import ChantDemo
from aluette.widgets.common import MAX_SEED, NumberBox, SeedBox, next_seed, number_from_text, reachable_widgets, \
    seed_from_text
from aluette.widgets.edge import ScenarioBuilder
from aluette.widgets.match import MatchTable
from aluette.widgets.play import TrickStepper
from aluette.widgets.ranking import OrderingExercise
from aluette.widgets.scoring import MatchSheet
from aluette.widgets.setup import DealingStepper, PartnershipDraw
from aluette.widgets.signals import SignalQuiz
from aluette.widgets.simulate import MAX_DEALS, SimulationExplorer

#: (name, widget factory, the box); every seed box of aluette.widgets, and the number of deals
BOXES = [
    ("draw", lambda: PartnershipDraw(seed=3), lambda x: x.seed),
    ("dealing", lambda: DealingStepper(seed=3), lambda x: x.seed),
    ("chant", lambda: ChantDemo(seed=3), lambda x: x.seed),
    ("ordering", lambda: OrderingExercise(seed=3), lambda x: x.seed),
    ("trick stepper", lambda: TrickStepper(seed=3), lambda x: x.seed),
    ("match sheet", lambda: MatchSheet(seed=3), lambda x: x.seed),
    ("signal quiz", lambda: SignalQuiz(seed=3), lambda x: x.seed),
    ("scenario", lambda: ScenarioBuilder(seed=3), lambda x: x.seed),
    ("match table", lambda: MatchTable(seed=3, bot_delay=0), lambda x: x.seed_box),
    ("simulation seed", lambda: SimulationExplorer(), lambda x: x.seed),
    ("simulation deals", lambda: SimulationExplorer(), lambda x: x.deals),
]
IDS = [case[0] for case in BOXES]

#: typed text, then what the message must say about it (a short quote, or the problem)
BAD = [
    ("12.7", "got '12.7': type digits only"),
    ("1e3", "got '1e3': type digits only"),
    ("-1", "got '-1': type digits only"),
    ("1 2", "got '1 2': type digits only"),
    ("１２", "got '１２': type digits only"),  # full-width digits are not read as 12
    ("0x10", "got '0x10': type digits only"),
    ("4294967296", "got '4294967296', which is larger"),
    ("", "the box is empty"),
    ("   ", "the box is empty"),
    ("9" * 1_000_000, "is 1,000,000 characters long; this box takes at most 100"),
]


def others(widget: w.Widget, box: w.Widget) -> dict:
    """The state of every widget under ``widget`` but the box and the message: what a refused value must not
    change."""
    return {id(x): x.get_state() for x in reachable_widgets(widget) if x is not box and x is not widget.message}


class TestEveryBox:
    def test_every_seed_box_is_listed(self):
        # a new seed box (a NumberBox) in a widget needs a line in BOXES
        for make in (PartnershipDraw, DealingStepper, ChantDemo, OrderingExercise, TrickStepper, MatchSheet,
                     SignalQuiz, ScenarioBuilder, SimulationExplorer):
            widget = make()
            listed = {id(box(widget)) for _, factory, box in BOXES if type(factory()) is make}
            assert {id(x) for x in reachable_widgets(widget) if isinstance(x, NumberBox)} == listed, make
            assert not [x for x in reachable_widgets(widget) if isinstance(x, (w.BoundedIntText, w.IntText))], make

    @pytest.mark.parametrize("name,make,get", BOXES, ids=IDS)
    @pytest.mark.parametrize("typed,named", BAD, ids=[repr(t[:8]) for t, _ in BAD])
    def test_a_bad_value_is_refused_and_nothing_changes(self, name, make, get, typed, named):
        widget = make()
        box = get(widget)
        kept, shown = box.number, box.value
        before = others(widget, box)
        box.value = typed
        error = widget.message.last_error
        assert error and named in error and len(error) < 300, error
        assert error.startswith(f"{box.what} ") and error.endswith(f"stays {kept}.")
        assert box.value == shown == str(kept) and box.number == kept
        assert others(widget, box) == before

    @pytest.mark.parametrize("name,make,get", BOXES, ids=IDS)
    def test_a_valid_value_is_read_shown_plainly_and_clears_the_box_message(self, name, make, get):
        widget = make()
        box = get(widget)
        box.value = "12.7"
        assert widget.message.last_error
        box.value = " 1_2 "  # spaces around are ignored, _ between digits allowed
        assert box.number == 12 and box.value == "12" and widget.message.last_error is None

    @pytest.mark.parametrize("name,make,get", BOXES, ids=IDS)
    def test_a_number_set_from_python_is_checked(self, name, make, get):
        box = get(make())
        for bad in (12.7, "12", True, -1, box.maximum + 1, None):
            with pytest.raises(AluetteError):
                box.number = bad
        box.number = 7
        assert box.value == "7" and box.number == 7


class TestSeedsActAsBefore:
    """A valid seed typed deals that seed's deal (the rules sheet, "setup": the deal comes from the shuffle of the seed)."""

    def test_the_stepper_deals_the_seed_typed(self):
        from aluette import Deal
        stepper = TrickStepper(seed=3)
        stepper.seed.value = "12"
        assert stepper.deal.seed == 12 and stepper.deal.hands == Deal.from_seed(12).hands
        stepper.seed.value = "12.7"  # was: the box showed 127 while the deal came from 12
        assert stepper.deal.seed == 12 and stepper.seed.value == "12"

    def test_the_same_seed_again_does_not_deal_again(self):
        stepper = TrickStepper(seed=3)
        stepper.next_button.click()
        stepper.seed.value = "003"  # the same seed: nothing to deal again, the box shows it plainly
        assert len(stepper.deal.tricks) == 1 and stepper.seed.value == "3"

    def test_the_simulation_reads_the_boxes(self):
        explorer = SimulationExplorer()
        explorer.deals.value, explorer.seed.value = "1_000", "11"
        plan = explorer.plan()
        assert (plan.deals, plan.seed) == (1000, 11)

    def test_next_seed_wraps(self):
        box = SeedBox(MAX_SEED, "x")
        next_seed(box)
        assert box.seed_value == 0 and box.value == "0"

    def test_a_box_without_a_message_raises(self):
        box = SeedBox(1, "x")
        with pytest.raises(BadSeedError):
            box.value = "12.7"
        assert box.value == "1" and box.seed_value == 1


class TestReading:
    def test_one_reading_for_every_box(self):
        assert seed_from_text(" 4_294_967_295 ") == MAX_SEED and seed_from_text("0") == 0
        assert number_from_text("80000", "the number of deals", 1, max(MAX_DEALS.values())) == 80_000
        for typed, _ in BAD:
            with pytest.raises(BadSeedError if len(typed) <= 100 else InputTooLongError):
                seed_from_text(typed)
        for typed in ("0", "80001", "_1", "1__0", "1_"):
            with pytest.raises(AluetteError, match="the number of deals must be a whole number from 1 to 80000"):
                number_from_text(typed, "the number of deals", 1, 80_000)
