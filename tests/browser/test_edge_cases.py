"""Notebook 09's scenario builder in a real browser (Voilà): typed hands, a bad hand refused with a message, bots
playing the built deal to the end with the same result the engine gives for the same inputs.

Sources: seeds "gameplay" and "scoring" (what decides the deal); decision of this project (aluette.scenario): blank
places are filled from the seed's shuffle, the dealer sits at the leader's right.
"""

import pytest

from aluette import Options
from aluette.widgets.edge import ScenarioBuilder
from tests.browser.controls import expect_error, expect_no_error, finish, html
from tests.browser.harness import expect, screenshot

pytestmark = pytest.mark.browser

TOP = "3O 3C 2O 2C 9C 9O 2B 2E 1O"  # the eight named cards and an ace


def engine_result(hand_n: str, seed: int) -> str:
    """The message the builder shows after Deal then Bots play to the end, computed in this process."""
    builder = ScenarioBuilder({"N": hand_n}, seed=seed, leader="N", options=Options(chant=False))
    builder.deal_button.click()
    builder.bots_button.click()
    return builder.deal.result.reason


def test_09_builder_refuses_a_bad_hand_then_plays_a_typed_one(page, wire, open_voila):
    open_voila(page, "09_edge_cases.ipynb")
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
