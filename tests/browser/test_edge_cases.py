"""Notebook 09 in a real browser (Voilà): the scenario builder (typed hands, a bad hand refused with a message, bots
playing the built deal to the end with the same result the engine gives for the same inputs; a card played by a
click on its picture) and the simulation controls (players per side or per seat, options, seed, deals bounded, a
progress bar, the sentence and the plot, the exact value beside the simulated one, the results by seat). Last, what a
student reads on 02 and 09 at phone width (no word split in two, no decision id; 02's cards on Large).

Sources: the rules sheet, "gameplay" and "scoring" (what decides the deal); decision of this project (aluette.scenario):
blank places are filled from the seed's shuffle, the dealer sits at the leader's right.

The five tests of 09's widgets share one page of 09 (``page_09``; opening 09 costs ~10 s of simulations), in file
order: the card click and then a double click play on the notebook's own deal, then the builder deals its own hands,
then replays that deal from trick 3 (Undo, Replay from here), then the simulation (another widget).
"""

import re

import pytest

from aluette import SEATS, Card, Options, Seat
from aluette.widgets.edge import ScenarioBuilder
from aluette.widgets.simulate import SimulationPlan, run_plan

from tests.browser.controls import (ARMING, aim_at, double_click, expect_error, expect_no_error, field, finish,
                                    html)
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
    """The rules sheet, "gameplay": each player plays one card in turn; the builder's cards are the controls."""
    page = page_09
    wire = harness.wire_of(page)
    builder = page.locator(".aluette-edge-builder").first  # 09 has a second one below
    cards = builder.locator(".aluette-edge-card svg[data-card]")
    expect(cards).to_have_count(9)  # N leads the notebook's deal: its nine cards
    code = cards.nth(3).get_attribute("data-card")
    page.mouse.click(*aim_at(page, cards.nth(3), WAIT))
    expect(builder.locator(".aluette-message").first).to_contain_text(f"N: {code} — ", timeout=WAIT)
    expect(cards).to_have_count(9)  # now E's nine cards
    finish(page, wire)


def test_09_a_double_click_on_a_card_plays_it_alone(page_09):
    """Issue 22 §6 in the explorer: after a card is played, the next seat's cards take the same places; a double
    click plays the card clicked and not the next seat's card drawn where it was (each card's button is new and
    ignores the pointer for 0.4 s; a late click names the card already played). A try whose presses the page
    handled 0.4 s apart or more is two clicks and is not judged (controls.ARMING): at most four tries."""
    page = page_09
    wire = harness.wire_of(page)
    builder = page.locator(".aluette-edge-builder").first  # 09 has a second one below
    head = builder.locator(".aluette-edge-cards-head")
    cards = builder.locator(".aluette-edge-card svg[data-card]")
    gaps = []
    for _ in range(4):
        seat = re.search(r"([NESW]) to play", head.text_content()).group(1)
        code = cards.nth(0).get_attribute("data-card")
        click = double_click(page, *aim_at(page, cards.nth(0), WAIT), builder.locator(".aluette-edge-cards"))
        gaps.append(click.gap)
        expect(builder.locator(".aluette-message").first).to_contain_text(f"{seat}: {code} — ", timeout=WAIT)
        if click.gap < ARMING:
            after = SEATS[(SEATS.index(Seat(seat)) + 1) % 4]
            expect(head).to_contain_text(f"{after} to play")  # one card played, the next seat's turn
            assert click.others(Card.parse(code)) == [], (code, click)
            break
    else:
        pytest.fail(f"no double click whose presses came within {ARMING} ms in four tries: {gaps} ms apart")
    # WCAG 2.4.3: the focus went to the next seat's first card, not to the top of the page
    expect(page.locator(":focus")).to_have_class(re.compile(r"\baluette-edge-card-button\b"))
    finish(page, wire)


def test_09_builder_refuses_a_bad_hand_then_plays_a_typed_one(page_09):
    page = page_09
    wire = harness.wire_of(page)
    builder = page.locator(".aluette-edge-builder").first  # 09 has a second one below
    message = builder.locator(".aluette-message").first
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


def test_09_builder_undo_and_replay_from_a_trick(page_09):
    """After the typed deal above is played out: Replay from here goes back to just before trick 3's first card
    (aluette.scenario.replayed_from_trick; the rules sheet, "gameplay": the winner of trick 2 leads it), a card played there
    can be taken back with Undo, and the bots play the rest again."""
    page = page_09
    wire = harness.wire_of(page)
    builder = page.locator(".aluette-edge-builder").first  # 09 has a second one below
    message = builder.locator(".aluette-message").first
    played = ScenarioBuilder({"N": TOP}, seed=5, leader="N", options=Options(chant=False))
    played.bots_button.click()
    leader = played.deal.tricks[2].leader
    builder.locator(".aluette-edge-trick select").select_option(label="trick 3")
    wire.wait_settled(page)
    builder.locator("button.aluette-edge-replay").click()
    expect(message).to_contain_text(f"Back to just before trick 3 (28 moves taken back): {leader} leads")
    rows = html(builder, "aluette-edge-tricks").locator("tbody tr")
    expect(rows).to_have_count(2)  # the two tricks before it
    cards = builder.locator(".aluette-edge-card svg[data-card]")
    expect(cards).to_have_count(10 - 3)  # the leader's seven cards
    first = cards.nth(0).get_attribute("data-card")
    page.mouse.click(*aim_at(page, cards.nth(0), WAIT))
    expect(message).to_contain_text(f"{leader}: {first} — ")
    builder.locator("button.aluette-edge-undo").click()
    expect(message).to_contain_text(f"Took back {leader}: {first} — ")
    expect(cards).to_have_count(7)
    expect(cards.nth(0)).to_have_attribute("data-card", first)
    builder.locator("button.aluette-edge-bots").click()
    expect(rows).to_have_count(9, timeout=WAIT)
    expect_no_error(message)
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

    limit = sim.locator(".aluette-sim-limit")
    sim.locator(".aluette-sim-ns select").select_option(label="heuristic bots")
    expect(limit).to_contain_text("at most 50,000 deals")  # a side of bots: the fast engine
    sim.locator(".aluette-sim-signals input").check()
    expect(limit).to_contain_text("at most 300 deals")  # signalling bots: step by step
    wire.wait_settled(page)
    sim.locator("button.aluette-sim-run").click()
    expect(sim.locator(".aluette-sim-message")).to_contain_text("from 1 to 300", timeout=WAIT)
    field(sim, "aluette-sim-deals").fill("300")
    field(sim, "aluette-sim-deals").press("Enter")
    wire.wait_settled(page)
    sim.locator("button.aluette-sim-run").click()
    expect(sentence).to_contain_text("In 300 deals, seed 11, N–S heuristic bots, E–W random players; bots signal",
                                     timeout=WAIT)
    expect(sentence).not_to_contain_text("exact")
    sim.locator(".aluette-sim-signals input").uncheck()

    # per seat: one bot at North among three random players; the results by the dealer's side and by seat
    sim.locator(".aluette-sim-choose button", has_text="per seat").click()
    expect(sim.locator(".aluette-sim-seat-S select")).to_be_visible()
    expect(sim.locator(".aluette-sim-ns select")).to_be_hidden()
    # the kernel answers "per seat" by setting each seat's player from its side, then showing the seats (once, on a
    # loaded machine, they were shown first and South's choice was overwritten: fixed in the widget); settled anyway
    wire.wait_settled(page)
    sim.locator(".aluette-sim-seat-S select").select_option(label="random players")
    field(sim, "aluette-sim-deals").fill("5000")
    field(sim, "aluette-sim-deals").press("Enter")
    wire.wait_settled(page)
    sim.locator("button.aluette-sim-run").click()
    result = run_plan(SimulationPlan(deals=5000, seed=11, chant=False,
                                     seats=("heuristic", "random", "random", "random")))
    expect(sentence).to_have_text(result.sentence(), timeout=WAIT)
    assert "the dealer's side scored" in result.sentence()
    seats = sim.locator(".aluette-sim-seats table")
    expect(seats.locator("caption")).to_have_text("By seat")
    won = result.summary.by_seat().won
    north = seats.locator("tbody tr").first
    expect(north.locator("th")).to_have_text("N")
    expect(north.locator("td").nth(0)).to_have_text("heuristic bots")
    expect(north.locator("td").nth(1)).to_contain_text(f"{int(won['N']):,} (")
    doc_image(sim, "09_simulation_controls.png")
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ what a student reads
# Issue 23, point 8, on rendered students' pages at phone width: no word split by a line break ("B / runo": the
# printed output's `word-break: break-all` of JupyterLab and Solara, undone by aluette.widgets.common.WRAP_CSS), and no
# decision id ("[all-nine-spoiled]") in the text; the badge and the decision are shown (aluette.decisions.badged).
# Point 10: on "Large" the cards of 02 are drawn large (aluette.widgets.setup.PICTURE_WIDTHS).

PHONE = {"width": 390, "height": 844}

# Each word (letters and digits) of every text shown, whose characters sit on more than one line while the word is
# narrower than its box (a word longer than the whole line may break: nothing is cut off). Text of buttons, inputs and
# pictures left out. Returns 'word' in tag.class for each, at most 20.
SPLIT_WORDS_JS = """() => {
    const found = [], range = document.createRange();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && found.length < 20; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || el.closest('svg, button, select, input, textarea, script, style')) continue;
        const room = el.closest('pre, p, li, td, th, div, span') || el;
        for (const m of node.textContent.matchAll(/[\\p{L}\\p{N}']+/gu)) {
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const rects = [...range.getClientRects()].filter(r => r.width > 0);
            const lines = new Set(rects.map(r => Math.round(r.bottom)));
            const width = rects.reduce((sum, r) => sum + r.width, 0);
            if (lines.size > 1 && width < room.clientWidth)
                found.push(`'${m[0]}' in ${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}`);
        }
    }
    return found;
}"""


def decision_ids(text: str) -> list[str]:
    from aluette.decisions import DECISIONS
    return [d.name for d in DECISIONS if f"[{d.name}]" in text or f"<!-- {d.name}" in text]


def test_02_at_phone_width_words_whole_and_large_cards_large(page, open_app):
    """02 prints the partnership draw ("... to Bruno") and lets the reader choose the card size."""
    from aluette.widgets.setup import PICTURE_WIDTHS
    page.set_viewport_size(PHONE)
    open_app(page, "02_setup.ipynb")
    wire = harness.wire_of(page)
    expect(page.locator("pre", has_text="to Bruno").first).to_be_visible()
    assert page.evaluate(SPLIT_WORDS_JS) == []
    # the check can fail: JupyterLab's own rule, put back on the printed text, splits words again
    # (waited for, within a bound: in a loaded run on 2026-12-07 the first reading after the rule found no split word)
    page.add_style_tag(content=".jp-OutputArea-output pre, .widget-html-content pre "
                               "{ word-break: break-all !important; }")
    page.wait_for_function(f"() => ({SPLIT_WORDS_JS})().length > 0", timeout=harness.SETTLE * 1000)
    page.evaluate("() => document.head.lastElementChild.remove()")
    page.wait_for_function(f"() => ({SPLIT_WORDS_JS})().length === 0", timeout=harness.SETTLE * 1000)

    draw = page.locator(".aluette-draw")
    pictures = draw.locator(".aluette-draw-cards svg.aluette-card")
    draw.locator("button.aluette-draw-run").click()
    expect(pictures.first).to_be_visible(timeout=WAIT)
    normal = pictures.first.bounding_box()["width"]
    draw.locator(".aluette-card-size button", has_text="Large").click()
    expect(pictures.first).to_have_attribute("width", str(PICTURE_WIDTHS["large"][0]), timeout=WAIT)
    large = pictures.first.bounding_box()["width"]
    assert abs(normal - PICTURE_WIDTHS["normal"][0]) <= 1 and large >= 1.5 * normal, (normal, large)
    stock = page.locator(".aluette-deal-table svg.aluette-card").first  # the other view of the page follows too
    expect(stock).to_have_attribute("width", str(PICTURE_WIDTHS["large"][2]), timeout=WAIT)
    draw.locator(".aluette-card-size button", has_text="Normal").click()
    expect(pictures.first).to_have_attribute("width", str(PICTURE_WIDTHS["normal"][0]), timeout=WAIT)
    finish(page, wire)


def test_02_in_voila_prints_words_whole(page, open_voila):
    """Voilà draws the page with JupyterLab's style sheets, whose printed output breaks words anywhere: the card
    views' style sheet (aluette.widgets.common.card_style) carries the rule that wraps it between words."""
    page.set_viewport_size(PHONE)
    open_voila(page, "02_setup.ipynb")
    wire = harness.wire_of(page)
    expect(page.locator("pre", has_text="to Bruno").first).to_be_visible()
    assert page.evaluate(SPLIT_WORDS_JS) == []
    finish(page, wire)
