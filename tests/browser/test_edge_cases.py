"""Notebook 09 in a real browser (Voilà): the scenario builder (typed hands, a bad hand refused with a message, bots
playing the built deal to the end with the same result the engine gives for the same inputs; a card played by a
click on its picture) and the simulation controls (players, options, seed, deals bounded, a progress bar,
the sentence and the plot, the exact value beside the simulated one).

Sources: seeds "gameplay" and "scoring" (what decides the deal); decision of this project (aluette.scenario): blank
places are filled from the seed's shuffle, the dealer sits at the leader's right.

The three tests share one page of 09 (``page_09``; opening 09 costs ~8 s of simulations), in file order: the card
click plays on the notebook's own deal, then the builder deals its own hands, then the simulation (another widget).
"""

import pytest

from aluette import Options
from aluette.widgets.edge import ScenarioBuilder
from aluette.widgets.simulate import SimulationPlan, run_plan

from tests.browser.controls import expect_error, expect_no_error, field, finish, html
from tests.browser import harness
from tests.browser.harness import doc_image, expect, screenshot

WAIT = 30_000

pytestmark = pytest.mark.browser

TOP = "3O 3C 2O 2C 9C 9O 2B 2E 1O"  # the eight named cards and an ace


def engine_result(hand_n: str, seed: int) -> str:
    """The message the builder shows after Deal then Bots play to the end, computed in this process."""
    builder = ScenarioBuilder({"N": hand_n}, seed=seed, leader="N", options=Options(chant=False))
    builder.deal_button.click()
    builder.bots_button.click()
    return builder.deal.result.reason


@pytest.fixture(scope="module")
def page_09(module_page, voila):
    """Notebook 09, opened once for the module's tests."""
    harness.open_voila(module_page, "09_edge_cases.ipynb", server=voila)
    return module_page


def test_09_a_click_on_a_card_picture_plays_it(page_09):
    """Seeds, "gameplay": each player plays one card in turn; the builder's cards are the controls."""
    page = page_09
    wire = harness.wire_of(page)
    builder = page.locator(".aluette-edge-builder")
    cards = builder.locator(".aluette-edge-card svg[data-card]")
    expect(cards).to_have_count(9)  # N leads the notebook's deal: its nine cards
    code = cards.nth(3).get_attribute("data-card")
    cards.nth(3).scroll_into_view_if_needed()
    box = cards.nth(3).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(builder.locator(".aluette-message")).to_contain_text(f"N: {code} — ", timeout=WAIT)
    expect(cards).to_have_count(9)  # now E's nine cards
    finish(page, wire)


def test_09_builder_refuses_a_bad_hand_then_plays_a_typed_one(page_09):
    page = page_09
    wire = harness.wire_of(page)
    builder = page.locator(".aluette-edge-builder")
    message = builder.locator(".aluette-message")
    boxes = {seat: builder.locator(f".aluette-edge-hand-{seat} input") for seat in "NESW"}

    boxes["N"].fill("3O 3O 2O")  # a card given twice is refused, the deal shown stays as it was
    builder.locator("button.aluette-edge-deal").click()
    expect_error(message, "3O")

    for seat in "ESW":
        boxes[seat].fill("")
    boxes["N"].fill(TOP)
    seed = builder.locator(".aluette-edge-seed input")
    seed.fill("5")
    seed.press("Enter")
    builder.locator("button.aluette-edge-deal").click()
    expect_no_error(message)
    expect(message).to_contain_text("dealt from seed 5")

    builder.locator("button.aluette-edge-bots").click()
    expect(message).to_contain_text(engine_result(TOP, 5))
    expect(html(builder, "aluette-edge-tricks").locator("tbody tr")).to_have_count(9)  # nine tricks
    screenshot(page, "09_edge_cases-demo", element=builder)
    finish(page, wire)


def test_09_simulation_controls(page_09):
    """Choose players, options, seed and deals; Run shows the progress bar, then the sentence and the
    plot; the figures are the simulation's for that plan; too many deals for the players gets a message."""
    page = page_09
    wire = harness.wire_of(page)
    sim = page.locator(".aluette-sim")
    sim.scroll_into_view_if_needed()
    field(sim, "aluette-sim-deals").fill("5000")
    field(sim, "aluette-sim-deals").press("Enter")
    field(sim, "aluette-sim-seed").fill("11")
    field(sim, "aluette-sim-seed").press("Enter")
    sim.locator(".aluette-sim-chant input").uncheck()
    wire.wait_settled(page)
    sim.locator("button.aluette-sim-run").click()
    sentence = sim.locator(".aluette-sim-sentence")
    expected = run_plan(SimulationPlan(deals=5000, seed=11, chant=False)).sentence()
    expect(sentence).to_have_text(expected, timeout=WAIT)
    assert "exact for random play: 1343/19458" in expected
    expect(sim.locator(".aluette-sim-progress")).to_be_visible()
    expect(sim.locator(".aluette-sim-plot img")).to_have_attribute("alt", expected)

    sim.locator(".aluette-sim-ns select").select_option(label="heuristic bots")
    expect(sim.locator(".aluette-sim-limit")).to_contain_text("at most 300 deals")
    wire.wait_settled(page)
    sim.locator("button.aluette-sim-run").click()
    expect(sim.locator(".aluette-sim-message")).to_contain_text("from 1 to 300", timeout=WAIT)
    field(sim, "aluette-sim-deals").fill("300")
    field(sim, "aluette-sim-deals").press("Enter")
    wire.wait_settled(page)
    sim.locator("button.aluette-sim-run").click()
    expect(sentence).to_contain_text("In 300 deals, seed 11, N–S heuristic bots, E–W random players", timeout=WAIT)
    expect(sentence).not_to_contain_text("exact")
    doc_image(sim, "09_simulation_controls.png")
    finish(page, wire)
