"""Every text box has a length limit, checked before the box is read (quality bar; pasting 1 MB into notebook 01's
ordering exercise took 208 s of CPU); seed boxes refuse what is not a seed.

Quality bar: bad input gets a clear message and leaves the widget as it was; every text box has a length limit;
every check over user input is linear. The refusal is asserted here, never its time (measured for the report in
tools, not in a unit test).
"""

import ipywidgets as w
import pytest

from aluette import Phase, Seat
from aluette.widgets.chant import ChantDemo
from aluette.widgets.common import CARDS_TEXT, SAVE_TEXT, SHORT_TEXT, limited_text, seed_from_text
from aluette.widgets.edge import ScenarioBuilder
from aluette.widgets.match import MatchTable
from aluette.widgets.play import TrickPicker
from aluette.widgets.ranking import OrderingExercise, TrickComparer
from aluette.widgets.scoring import ScoringView
from aluette.widgets.setup import PartnershipDraw

from .test_breaking_widgets import tree

MEGABYTE = "3O " * 333_334  # 1 MB of valid-looking card codes: the worst case for a parser


def chant_discarding() -> ChantDemo:
    demo = ChantDemo(seed=7, you=Seat.E)
    for toggle in demo.answer_toggles:
        toggle.value = True  # all four agree: E receives six and must discard (the rules sheet, "setup")
    assert demo.deal.phase is Phase.DISCARD
    return demo


def match_table() -> MatchTable:
    return MatchTable(seed=3, bot_delay=0)


# (name, widget factory, its boxes of this kind, what sends a box (None: its observer), what must not change)
CASES = [
    ("chant typed discard", chant_discarding, lambda d: [d.typed], lambda d: d.typed_button.click(),
     lambda d: d.deal.to_json()),
    ("trick picker cards", TrickPicker, lambda p: list(p.card_boxes.values()), None, lambda p: repr(p.record)),
    ("trick comparer text", TrickComparer, lambda c: [c.text], lambda c: c.compare_button.click(),
     lambda c: (c.cards, c.winner)),
    ("ordering answer", OrderingExercise, lambda e: [e.answer], lambda e: e.check_button.click(),
     lambda e: (e.cards, e.correct)),
    ("scoring notation", ScoringView, lambda v: [v.notation], None, lambda v: v.score),
    ("draw names", PartnershipDraw, lambda d: list(d.name_boxes), None, lambda d: d.draw),
    ("scenario hands", ScenarioBuilder, lambda b: list(b.hand_boxes.values()), lambda b: b.deal_button.click(),
     lambda b: b.deal.to_json()),
    ("scenario json", ScenarioBuilder, lambda b: [b.json], lambda b: b.load_button.click(),
     lambda b: b.deal.to_json()),
    ("match seed", match_table, lambda t: [t.seed_box], None, lambda t: t.match.to_json()),
    # the seed boxes refuse as they are typed into (tests/widgets/test_seed_boxes.py has every bad value)
    ("chant seed", chant_discarding, lambda d: [d.seed], None, lambda d: d.deal.to_json()),
    ("ordering seed", OrderingExercise, lambda e: [e.seed], None, lambda e: (e.cards, e.correct)),
    ("draw seed", PartnershipDraw, lambda d: [d.seed], None, lambda d: d.draw),
    ("scenario seed", ScenarioBuilder, lambda b: [b.seed], None, lambda b: b.deal.to_json()),
]


@pytest.mark.parametrize("name,make,boxes,send,state", CASES, ids=[case[0] for case in CASES])
def test_one_megabyte_pasted_is_refused_with_a_message(name, make, boxes, send, state):
    widget = make()
    before = state(widget)
    for box in boxes(widget):
        original = box.value
        box.value = MEGABYTE
        if send is not None:
            send(widget)
        error = widget.message.last_error
        assert error and "characters long" in error and "at most" in error and len(error) < 300, error
        assert state(widget) == before
        box.value = original


@pytest.mark.parametrize("name,make,boxes,send,state", CASES, ids=[case[0] for case in CASES])
def test_one_megabyte_from_the_browser_is_refused_as_it_arrives(name, make, boxes, send, state):
    """A widget message (``update`` of the box's value, as the browser or a crafted client sends it) with a text
    over the box's limit: refused before any observer runs, the box keeps its value, the message says why
    (tests/server/test_long_texts.py sends it over a real server's websocket)."""
    widget = make()
    before = state(widget)
    for box in boxes(widget):
        original = box.value
        widget.message.clear()
        box.set_state({"value": MEGABYTE})
        error = widget.message.last_error
        assert error and f"{len(MEGABYTE):,} characters long; this box takes at most" in error, error
        assert len(error) < 300 and box.value == original and state(widget) == before
        box.set_state({"value": original})  # within the limit: taken as always
        assert box.value == original


def test_every_text_box_is_covered():
    # a new text box in one of these widgets needs a case above (and a limit in its handler)
    covered: dict = {}
    for _, make, boxes, *_ in CASES:
        covered.setdefault(make, set()).update(id(box) for box in boxes(make_once(make)))
    for make, ids in covered.items():
        widget = make_once(make)
        found = {id(x) for x in tree(widget) if isinstance(x, (w.Text, w.Textarea, w.Combobox))}
        assert found == ids, make


_MADE: dict = {}


def make_once(make):
    if make not in _MADE:
        _MADE[make] = make()
    return _MADE[make]


class TestLimitedText:
    def test_at_the_limit_and_beyond(self):
        assert limited_text("x" * SHORT_TEXT, SHORT_TEXT, "it") == "x" * SHORT_TEXT
        with pytest.raises(ValueError, match="101 characters long; this box takes at most 100"):
            limited_text("x" * 101, SHORT_TEXT, "it")
        assert SHORT_TEXT < CARDS_TEXT < SAVE_TEXT


class TestSeedBoxes:
    @pytest.mark.parametrize("text", ["12.7", "1e5", "-1", "１２", "4294967296", "9" * 5000, " "])
    def test_not_a_seed_is_refused(self, text):
        # "12.7" was read as 127 or 12; 5,000 digits raised a ValueError the student never saw
        with pytest.raises(ValueError, match="seed") as caught:
            seed_from_text(text)
        assert len(str(caught.value)) < 300

    def test_seeds(self):
        assert seed_from_text(" 4_294_967_295 ") == 2 ** 32 - 1 and seed_from_text("0") == 0

    def test_notebook_08s_seed_box_shows_the_error_of_a_huge_seed(self):
        table = match_table()
        before = table.match.to_json()
        seed = table.seed_box.value
        table.seed_box.value = "9" * 4301  # refused as typed: the box shows its seed again, the match goes on
        assert "characters long" in table.message.last_error and table.match.to_json() == before
        assert table.seed_box.value == seed
        table.seed_box.value = "12.7"
        assert "'12.7'" in table.message.last_error and table.match.to_json() == before
        assert table.seed_box.value == seed


class TestRecipeSeed:
    def test_a_recipe_the_seed_box_cannot_hold_is_refused(self):
        # decision of this project: refused (was: the seed box kept the old seed, and "Export recipe"
        # then exported another deal)
        builder = ScenarioBuilder(seed=5)
        before = (builder.deal.to_json(), builder.seed.value)
        builder.json.value = '{"format": "aluette-scenario", "seed": 4294967296, "leader": "E"}'
        builder.load_button.click()
        assert "larger than the seed box holds" in builder.message.last_error
        assert (builder.deal.to_json(), builder.seed.value) == before

    def test_a_recipe_within_the_box_loads_and_exports_the_same_deal(self):
        builder = ScenarioBuilder(seed=5)
        builder.json.value = '{"format": "aluette-scenario", "seed": 4294967295, "leader": "E"}'
        builder.load_button.click()
        assert builder.message.last_error is None and builder.seed.seed_value == 2 ** 32 - 1
        builder.recipe_button.click()
        assert '"seed": 4294967295' in builder.json.value
