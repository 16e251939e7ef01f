"""Play together (notebook 10) in a real browser: four devices at one table, and the teacher's page (notebook 11).

What is proven, in one run to keep the browser budget small: four Chromium contexts (four devices, each with its own
page on the students' app, Solara's server of ``make app``, all four pages in its one process) open notebook 10, sit
at the four seats of one table and play a whole five-deal match by clicking (the chant, then every card; Next deal
pressed by each player in turn), each page seeing the others' moves arrive by its own polling of the table; each
device's every received frame is searched for the cards its seat must not see (from the engine: the table's match
rebuilt from the database), with its own hand as the positive control, at the hands dealt, mid-deal and at the end
of every deal; in the middle of a trick of the first deal one player's page is reloaded (its virtual kernel closed
by the page's close request, its widgets gone): with the seat code the player is back at the seat, the same hand
and the same cards on the table, and plays on; a fifth context, the teacher's page (Voilà, as ``make teacher``
serves it), shows the table's deal and score from the database and receives no card at all.

In a second test, on the same server: the link a seated student is shown beside the seat code
(``/10_play_together?table=...&code=...``), opened in a new device's tab, sits the student at the same seat with the
same hand; the same link with a wrong code gives the seat code's error and no seat.

Sources: seeds, "gameplay" (each player plays one card in turn, clockwise) and "setup" (the chant); the quality bar
of this project (a player's view never contains another player's hidden cards, in the browser frames too).
"""

from __future__ import annotations

import os
import re
import secrets
import time
from urllib.parse import urlencode

import pytest

from aluette.deal import Phase
from aluette.secrecy import hidden_cards
from aluette.seats import Seat, Team
from aluette.store import TableService, open_store
from tests.browser.harness import (DOC_IMAGES, RENDER, SCREENSHOTS, SOLARA_DRAWN, expect, open_notebook,
                                   screenshot, wire_of)

pytestmark = pytest.mark.browser

STUDENT, TEACHER = "10_play_together.ipynb", "11_teachers_tables.ipynb"
WAIT = 15_000  # ms
NAMES = {"N": "Ann", "E": "Bob", "S": "Cat", "W": "Dan"}


def open_all(pages, names, servers):
    """Open each page's notebook on its server, one after the other (Voilà running several notebooks at once waited
    on their outputs, "Timeout waiting for IOPub output", until the pages timed out in about half of the runs)."""
    for p, name, server in zip(pages, names, servers):
        open_notebook(p, name, server=server)


def root(page):
    return page.locator(".aluette-together")


def status(page) -> str:
    return root(page).locator(".aluette-together-status").text_content() or ""


HAND_JS = """(el) => [...el.querySelectorAll('.aluette-together-card')]
        .filter(card => getComputedStyle(card).display !== 'none')
        .map(card => card.querySelector('svg[data-card]').dataset.card)"""


def hand(page) -> list[str]:
    return root(page).evaluate(HAND_JS)


def on_table(page) -> list[str]:
    return root(page).evaluate("""(el) => [...el.querySelectorAll('.aluette-together-round svg[data-card]')]
        .map(svg => svg.dataset.card)""")


def act(page) -> bool:
    """Make this device's move if the status says it is its turn: decline the chant, or click its first card."""
    text = status(page)
    if "Your turn" not in text:
        return False
    message = root(page).locator(".aluette-together-message")
    if "agree to the chant" in text:
        root(page).locator("button.aluette-together-chant-decline").click()
        expect(message).to_contain_text("You decline the chant", timeout=WAIT)
    else:
        card = hand(page)[0]
        root(page).locator(f'.aluette-together-card:has(svg[data-card="{card}"]) button').click()
        expect(message).to_contain_text(f"You played {card} ", timeout=WAIT)
    return True


def play(students, service, table, until, budget: float = 60.0) -> int:
    """Moves by clicking until ``until()``: the seat to move is read from the database, its page is awaited until
    it says it is its turn (polling brought the last move there), then clicked; returns the moves made."""
    deadline, made = time.monotonic() + budget, 0
    while not until():
        assert time.monotonic() < deadline, [status(p) for p in students]
        seat = service.replay(table).current.to_move
        assert seat is not None, "the deal is over before the end asked for"
        page = students["NESW".index(str(seat))]
        expect(root(page).locator(".aluette-together-status")).to_contain_text("Your turn", timeout=WAIT)
        assert act(page)
        made += 1
    return made


def trick_state(service, table) -> tuple[int, int]:
    """(tricks over, cards on the table) of the table's current deal, from the database."""
    view = service.replay(table).current.view(None, events=False)
    return len(view.tricks), len(view.trick)


def audit(students, service, table, marks=None):
    """Each device's received frames (since its mark in ``marks``, taken as the deal began, if given) against the
    cards its seat must not see now (the engine's deal from the database), with the seat's own hand as the positive
    control."""
    deal = service.replay(table).current
    for seat, p in zip("NESW", students):
        named = wire_of(p).cards_named(since=marks[seat] if marks else 0)
        assert named & hidden_cards(deal, seat) == frozenset(), f"{seat}'s device received a hidden card"
        assert set(deal.hands[Seat.parse(seat)]) <= named, f"{seat}'s own hand is missing from its frames"


def test_four_devices_play_a_match_a_reloaded_page_loses_nothing_and_the_teacher_sees_no_card(
        pages, solara, voila, _server_home):
    table = f"Table {secrets.token_hex(3)}"
    students, (teacher,) = pages(4), pages(1)
    open_all(students + [teacher], [STUDENT] * 4 + [TEACHER], [solara] * 4 + [voila])
    service = TableService(open_store(path=_server_home / "data" / "tables.sqlite3"))
    try:
        service.create_table(table, seed=2026)  # the pages open it: the same cards on every run
        seat_and_play(students, teacher, service, table)
    finally:
        service.close()


def seat_and_play(students, teacher, service, table):
    codes = {}
    for seat, p in zip("NESW", students):
        root(p).locator(".aluette-together-table input").fill(table)
        root(p).locator(".aluette-together-name input").fill(NAMES[seat])
        root(p).locator(f"button.aluette-together-seat-{seat}").click()
        code = root(p).locator(".aluette-together-code-text")
        expect(code).to_have_text(re.compile(r"^[A-Z2-9]{5}-[A-Z2-9]{5}$"), timeout=WAIT)
        codes[seat] = code.text_content()
    for p in students:  # every device sees the four seats held (by polling) and its hand
        expect(root(p).locator(".aluette-together-seats")).to_contain_text("all four seats held", timeout=WAIT)
        expect(root(p).locator(".aluette-together-card").first).to_be_visible(timeout=WAIT)
    desk_row = teacher.locator(".aluette-desk-table", has_text=table)
    expect(desk_row).to_contain_text("NS 0 – EW 0", timeout=WAIT)

    play(students, service, table, lambda: trick_state(service, table) == (0, 0)
         and service.replay(table).current.phase is Phase.PLAY)  # the chant, all decline
    audit(students, service, table)
    play(students, service, table, lambda: trick_state(service, table) == (2, 2))
    # mid-trick: the pictures for the README, then the page of the next player to move is reloaded
    for seat, p in zip("NESW", students):
        screenshot(p, f"10_play_together-{seat}", element=root(p))
    screenshot(teacher, "11_teachers_tables", element=teacher.locator(".aluette-desk"))
    compose_readme_picture()
    deal = service.replay(table).current
    victim_seat = str(deal.to_move)
    victim = students["NESW".index(victim_seat)]
    expect(root(victim).locator(".aluette-together-status")).to_contain_text("Your turn", timeout=WAIT)
    before_hand, before_table = hand(victim), on_table(victim)
    audit(students, service, table)
    pages_before = len(wire_of(victim).solara_pages)
    victim.reload(wait_until="commit", timeout=RENDER * 1000)
    victim.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
    victim.wait_for_selector(".aluette-together", state="visible", timeout=RENDER * 1000)
    assert len(wire_of(victim).solara_pages) == pages_before + 1  # a new page, with a virtual kernel of its own
    root(victim).locator(".aluette-together-table input").fill(table)
    root(victim).locator(".aluette-together-code input").fill(codes[victim_seat])
    root(victim).locator("button.aluette-together-rejoin").click()
    expect(root(victim).locator(".aluette-together-message")).to_contain_text(
        f"Welcome back, {NAMES[victim_seat]}: you sit at {victim_seat}", timeout=WAIT)
    expect(root(victim).locator(".aluette-together-status")).to_contain_text("Your turn", timeout=WAIT)
    # the page draws the hand and the table in several widget messages after the status: wait for them (bounded)
    deadline = time.monotonic() + WAIT / 1000
    while (hand(victim), on_table(victim)) != (before_hand, before_table) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (hand(victim), on_table(victim)) == (before_hand, before_table)
    assert trick_state(service, table) == (2, 2)  # nothing lost, nothing played meanwhile

    play(students, service, table, lambda: service.replay(table).current.phase is Phase.OVER)
    audit(students, service, table)
    match = service.replay(table)
    score = f"NS {match.scores[Team.NS]} – EW {match.scores[Team.EW]}"
    expect(desk_row).to_contain_text(score, timeout=WAIT)
    expect(desk_row).to_contain_text("deal 1, over", timeout=WAIT)
    for p in students:
        expect(root(p).locator(".aluette-together-score")).to_contain_text(f"Match score: {score}")

    # the rest of the match, deal by deal: a player presses Next deal (each in turn), all four play it by clicking
    while not service.replay(table).is_over:
        number = service.replay(table).deal_number
        starter = students[number % 4]
        next_button = root(starter).locator("button.aluette-together-next")
        expect(next_button).to_be_enabled(timeout=WAIT)
        marks = {seat: wire_of(p).mark() for seat, p in zip("NESW", students)}  # the earlier deals' cards are no secret
        next_button.click()
        expect(desk_row).to_contain_text(f"deal {number + 1}", timeout=WAIT)
        play(students, service, table, lambda: service.replay(table).current.phase is Phase.OVER, budget=120.0)
        audit(students, service, table, marks)
    match = service.replay(table)
    assert len(match.deals) == 5  # the seed sheet's match: five deals
    score = f"NS {match.scores[Team.NS]} – EW {match.scores[Team.EW]}"
    expect(desk_row).to_contain_text(score, timeout=WAIT)
    expect(desk_row).to_contain_text(f"match over: {match.winner} wins" if match.winner else "match over: drawn",
                                     timeout=WAIT)
    for p in students:
        expect(root(p).locator(".aluette-together-score")).to_contain_text(f"Match score: {score}")
        expect(root(p).locator("button.aluette-together-next")).to_be_disabled()
    assert wire_of(teacher).cards_named() == frozenset(), "the teacher's page received a card"
    for p in students + [teacher]:
        assert wire_of(p).kernel_errors() == [] and wire_of(p).js_errors() == []


def compose_readme_picture() -> None:
    """The README's picture ``play_together.png``: the four devices in a 2 x 2 grid, the teacher's page under them;
    in test-artifacts/screenshots/, and in docs/images/ with ``ALUETTE_UPDATE_DOC_IMAGES=1`` (see harness.doc_image)."""
    from PIL import Image
    seats = [Image.open(SCREENSHOTS / f"10_play_together-{s}.png") for s in "NESW"]
    desk = Image.open(SCREENSHOTS / "11_teachers_tables.png")
    cell_w = max(i.width for i in seats)
    cell_h = max(i.height for i in seats)
    picture = Image.new("RGB", (2 * cell_w, 2 * cell_h + desk.height), "white")
    for k, image in enumerate(seats):
        picture.paste(image, ((k % 2) * cell_w, (k // 2) * cell_h))
    picture.paste(desk, (0, 2 * cell_h))
    scale = 1600 / picture.width
    path = SCREENSHOTS / "play_together.png"
    picture.resize((1600, int(picture.height * scale))).save(path, optimize=True)
    if os.environ.get("ALUETTE_UPDATE_DOC_IMAGES") == "1":
        (DOC_IMAGES / path.name).write_bytes(path.read_bytes())


def test_the_seats_link_brings_the_student_back_to_the_same_seat_and_hand_and_a_wrong_code_to_a_clear_error(
        pages, solara):
    """Solara's server (``make app``) gives the page its address's query (``classroom/solara_app.py``): the link shown
    beside the seat code, opened in a new tab, sits the student at the same seat with the same hand; the same link
    with another code gives the seat code's error and no seat."""
    table = f"Link {secrets.token_hex(3)}"
    first, again, wrong = pages(3)
    open_notebook(first, STUDENT, server=solara)
    root(first).locator(".aluette-together-table input").fill(table)
    root(first).locator(".aluette-together-name input").fill("Ann")
    root(first).locator("button.aluette-together-seat-E").click()
    code = root(first).locator(".aluette-together-code-text")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{5}-[A-Z2-9]{5}$"), timeout=WAIT)
    code = code.text_content()
    root(first).locator("button.aluette-together-fill").click()  # three bots: the deal starts, the hand is shown
    expect(root(first).locator(".aluette-together-card").first).to_be_visible(timeout=WAIT)
    link = root(first).locator("a.aluette-together-link").evaluate("a => a.href")
    assert link == f"{solara.url}/10_play_together?{urlencode({'table': table, 'code': code})}"
    before = hand(first)
    assert len(before) >= 9

    for p, address in ((again, link), (wrong, link.replace(code, "ABCDE-FGHJK" if code != "ABCDE-FGHJK"
                                                                  else "BCDEF-GHJKL"))):
        p.goto(address, wait_until="domcontentloaded", timeout=RENDER * 1000)
        p.wait_for_selector(SOLARA_DRAWN, state="visible", timeout=RENDER * 1000)
        p.wait_for_selector(".aluette-together", state="visible", timeout=RENDER * 1000)
    expect(root(again).locator(".aluette-together-message")).to_contain_text(
        f"Welcome back, Ann: you sit at E at table {table}", timeout=WAIT)
    expect(root(again).locator(".aluette-together-code-text")).to_have_text(code)
    deadline = time.monotonic() + WAIT / 1000  # the hand is drawn in messages after the welcome: wait (bounded)
    while hand(again) != before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert hand(again) == before

    expect(root(wrong).locator(".aluette-together-message")).to_contain_text(
        "that seat code is not the code of a player's seat at table", timeout=WAIT)
    expect(root(wrong).locator(".aluette-together-table input")).to_have_value(table)
    assert root(wrong).locator(".aluette-together-code-text").count() == 0  # no seat, no code shown
    assert root(wrong).locator(".aluette-together-card:visible").count() == 0
    for p in (first, again, wrong):
        assert wire_of(p).kernel_errors() == [] and wire_of(p).js_errors() == []
