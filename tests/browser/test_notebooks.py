"""The main demo of each tutorial notebook (00-07), used in a real browser through Voilà: a real click or typed value
gives the right result on screen. That every notebook renders without errors (as a class gets it) is test_pages.py's
``test_notebook_renders``; here each test opens one notebook, drives its widgets by their CSS classes
(tests/browser/controls.py) and ends with the kernel idle and no exception in it or in the page. Tests of different
widgets of one notebook (01, 02, 04) share its page (``shared_page``), each checking the errors since it began.

Expected results come from the rule sources named at each test (the rules sheet = docs/sources/,
pagat.com, decisions of this project), computed with the engine from the same seed or cards where a whole deal is
involved. A picture of each demo (the widget alone) is saved as test-artifacts/screenshots/NN_name-demo.png when pictures are
asked for (``ALUETTE_SCREENSHOTS=1``, harness.pictures_wanted).
"""

import re

import pytest

from aluette import DECK, SIGNALS, Card, Deal, Seat, explain_trick, partnership_draw, score_tricks
from aluette.chance import shuffled_deck
from aluette.players.drivers import play_out
from aluette.widgets.common import card_label
from tests.browser.controls import PICTURES_JS, cards_in, enter, expect_no_error, field, finish, html, toggle
from tests.browser import harness
from tests.browser.harness import expect, screenshot

pytestmark = pytest.mark.browser

C = Card.parse


@pytest.fixture(scope="module")
def shared_page(browser, voila):
    """``shared_page(NAME)``: notebook NAME of notebooks/ opened once in Voilà for this module's tests that drive
    different widgets of it (01's comparer and ordering exercise, 02's draw and dealing stepper, 04's trick picker and
    trick stepper; a page costs seconds of a kernel's start and its cells). Returns ``(page, wire, since)``: each test
    reads only its own widget and checks the errors raised after ``since`` (:meth:`~tests.browser.harness.Wire.
    error_mark`), so that it neither depends on the other nor fails for it. The pages are closed after the module."""
    from tests.browser import conftest
    opened = {}

    def get(name: str):
        if name not in opened:
            page = conftest._new_page(browser)
            try:
                harness.open_voila(page, name, server=voila)
            except BaseException:
                conftest._close_page(page)
                raise
            opened[name] = page
        page = get.last = opened[name]
        wire = harness.wire_of(page)
        return page, wire, wire.error_mark()

    get.last = None  # the page of the test under way, for a failure's screenshot (conftest)
    yield get
    for page in opened.values():
        conftest._close_page(page)


def test_00_shows_the_whole_deck(page, wire, open_voila):
    """Source: the rules sheet, "the deck": 48 Spanish-suited cards, 1-12 in coins, cups, batons and swords."""
    open_voila(page, "00_start_here.ipynb")
    expect(page.locator("#rendered_cells svg.aluette-card")).to_have_count(48)
    shown = cards_in(page.locator("#rendered_cells"))
    assert sorted(shown) == sorted(card.code for card in DECK) and len(shown) == 48
    screenshot(page, "00_start_here-demo", element=page.locator(".aluette-cards").first)
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 01 ranking

def test_01_comparer_names_the_winner_typed_or_picked(shared_page):
    """Source: the rules sheet, "card rankings" (Monsieur, the 3 of coins, is the highest card; the four aces are one
    class, equal whatever their suit) and "gameplay" (the highest card wins; a tie for the highest spoils the trick)."""
    page, wire, since = shared_page("01_ranking.ipynb")
    comparer = page.locator(".aluette-compare")
    result = html(comparer, "aluette-compare-result")
    expect(result).to_contain_text("spoiled")  # the notebook opens on 1O 1E 12B

    enter(comparer, "aluette-compare-text", "1E, 3O")  # typed: Monsieur played second still wins
    expect(result).to_contain_text("won by card 2")
    expect(result).to_contain_text("3O (Monsieur), wins")
    assert cards_in(result) == ["1E", "3O"]
    for i in (3, 4):  # the empty slots say so (they showed a blank box before a fix)
        expect(comparer.locator(f".aluette-compare-card-{i} select")).to_have_value("— no card —")
    screenshot(page, "01_ranking-demo", element=comparer)

    pick = {i: comparer.locator(f".aluette-compare-card-{i} select") for i in (1, 2)}
    pick[1].select_option(card_label(C("3O")))  # picked: 3O vs 3O is refused...
    expect(html(comparer, "aluette-compare-message")).to_contain_text("appears twice in the trick: 3O")
    pick[2].select_option(card_label(C("1E")))  # ...then 3O vs 1E: Monsieur wins as card 1
    expect(result).to_contain_text("won by card 1")
    expect_no_error(html(comparer, "aluette-compare-message"))
    pick[1].select_option(card_label(C("1O")))  # 1O vs 1E: two aces tie for the highest
    expect(result).to_contain_text("spoiled")
    expect(result).to_contain_text("nobody wins")
    assert cards_in(result) == ["1O", "1E"]

    # a click on a card picture chooses it (card 1, then card 2...)
    palette = comparer.locator(".aluette-compare-pick")
    expect(palette).to_have_count(48)
    palette.filter(has=page.locator('svg[data-card="12E"]')).click()
    expect(html(comparer, "aluette-compare-next")).to_contain_text("Card 1: king of swords")
    palette.filter(has=page.locator('svg[data-card="3O"]')).click()
    # 12E vs 1E (after the first click) is also "won by card 2": wait for Monsieur's own line, not that phrase
    expect(result).to_contain_text("3O (Monsieur), wins")
    expect(result).to_contain_text("won by card 2")
    assert cards_in(result)[:2] == ["12E", "3O"]
    finish(page, wire, since)


def test_01_ordering_exercise_accepts_the_right_order(shared_page):
    """Source: the rules sheet, "card rankings": a card of a higher class beats one of a lower class (strength 19..1);
    cards of one class are equal, so either order of them is right. The exercise deals the top five cards of its seed's
    shuffle (OrderingExercise docstring; the same seed gives the same cards everywhere)."""
    page, wire, since = shared_page("01_ranking.ipynb")
    exercise = page.locator(".aluette-order")
    picks = exercise.locator(".aluette-order-pick")
    expect(picks.locator("svg[data-card]")).to_have_count(5)
    dealt = picks.evaluate_all(PICTURES_JS)
    assert dealt == [card.code for card in shuffled_deck(1)[0][:5]]  # the notebook's OrderingExercise(seed=1)
    cards = [C(code) for code in dealt]
    best_first = sorted(cards, key=lambda card: -card.strength)
    result = html(exercise, "aluette-order-result")

    def answer(order):
        exercise.locator(".aluette-order-clear").click()
        expect(field(exercise, "aluette-order-answer")).to_have_value("")
        for card in order:  # a click on the card's picture adds it
            picks.filter(has=page.locator(f'svg[data-card="{card.code}"]')).click()
        expect(field(exercise, "aluette-order-answer")).to_have_value(" ".join(card.code for card in order))
        exercise.locator(".aluette-order-check").click()

    assert best_first[0].strength > best_first[-1].strength  # so the reversed order is wrong
    answer(best_first[::-1])
    expect(result).to_contain_text("Not yet")
    answer(best_first)
    expect(result).to_contain_text("Right!")
    expect(result).to_contain_text(" > ".join(card.code for card in best_first))
    finish(page, wire, since)


# ------------------------------------------------------------------------------------------------ 02 setup

def test_02_partnership_draw_steps_to_the_end_and_seats_madames_holder_at_north(shared_page):
    """Source: the rules sheet, "setup" and pagat.com (cards are dealt face up one at a time; a player who receives one
    of the top four gets no more; Monsieur's holder partners Madame's, le Borgne's partners la Vache's, partners sit
    opposite) and decisions of this project (the first name deals the face-up cards, starting with the second;
    Madame's holder sits at N and deals first). Names and seed are typed in the page; the expected seating is the
    engine's partnership_draw for the same names and seed."""
    page, wire, since = shared_page("02_setup.ipynb")
    draw_widget = page.locator(".aluette-draw")
    names, seed = ["Ana", "Ben", "Cleo", "Dev"], 5
    for i, name in enumerate(names, start=1):
        enter(draw_widget, f"aluette-draw-name-{i}", name)
    enter(draw_widget, "aluette-draw-seed", str(seed))
    status = html(draw_widget, "aluette-draw-status")
    expect(status).to_contain_text(f"Ana shuffles (seed {seed})")
    expect(status).to_contain_text("starting with Ben")

    draw = partnership_draw(names, seed)
    draw_widget.locator(".aluette-draw-next").click()
    first_name, first_card = draw.steps[0]
    assert first_name == "Ben"  # the dealer of the draw starts with the next name
    expect(status).to_contain_text(f"Card 1 of {len(draw.steps)}: {card_label(first_card)} to Ben")

    draw_widget.locator(".aluette-draw-run").click()
    result = html(draw_widget, "aluette-draw-result")
    holder = {card: name for name, card in draw.top_card.items()}
    monsieur, madame = holder[C("Monsieur")], holder[C("Madame")]
    expect(result).to_contain_text(f"Madame's holder {madame} takes N")
    expect(result).to_contain_text(f"{monsieur} (Monsieur) with {madame} (Madame)")
    expect(result.locator(".aluette-seat-N")).to_contain_text(f"N {madame} (deals)")
    expect(result.locator(".aluette-seat-S")).to_contain_text(f"S {monsieur}")
    for seat in Seat:
        expect(result.locator(f".aluette-seat-{seat}")).to_contain_text(f"{seat} {draw.seating[seat]}")
    expect(status).to_contain_text(f"Card {len(draw.steps)} of {len(draw.steps)}")
    screenshot(page, "02_setup-demo", element=draw_widget)
    finish(page, wire, since)


def test_02_deal_stepper_runs_to_the_end_and_shows_twelve_stock_cards(shared_page):
    """Source: the rules sheet, "setup" and pagat.com: nine cards each, dealt in threes clockwise from the dealer's
    left; the twelve left over (48 - 4 x 9) are the stock. The notebook's DealingStepper(seed=1, dealer=N) must deal
    exactly Deal.from_seed(1, dealer=N) (same seed, same deal everywhere)."""
    page, wire, since = shared_page("02_setup.ipynb")
    stepper = page.locator(".aluette-deal")
    status = html(stepper, "aluette-deal-status")
    stepper.locator(".aluette-deal-next").click()
    expect(status).to_contain_text("Step 1: W, at the dealer's right, cuts")
    stepper.locator(".aluette-deal-next").click()
    expect(status).to_contain_text("E (the dealer's left: the deal starts here) receives")
    stepper.locator(".aluette-deal-run").click()
    expect(status).to_contain_text("Step 14")
    table = html(stepper, "aluette-deal-table")
    pile = table.locator(":scope > .aluette-cards")
    expect(pile).to_contain_text("The stock (12 cards, top first)")
    deal = Deal.from_seed(1, dealer=Seat.N)
    assert cards_in(pile) == [card.code for card in deal.stock]
    for seat in Seat:
        cell = table.locator(f".aluette-seat-{seat}")
        expect(cell).to_contain_text("(9 cards)")
        assert sorted(cards_in(cell)) == sorted(card.code for card in deal.dealt_hand(seat))
    stepper.locator(".aluette-deal-next").click()  # past the end: a message, nothing changes
    expect(html(stepper, "aluette-deal-message")).to_contain_text("the deal is done")
    finish(page, wire, since)


# ------------------------------------------------------------------------------------------------ 03 chant

def answer_chant(chant, answers):
    """Click agree/decline for the seats asked, in asking order; each toggle waits until its seat is asked."""
    for k, agree in enumerate(answers, start=1):
        button = toggle(chant, f"aluette-chant-answer-{k}", "agree" if agree else "decline")
        expect(button).to_be_enabled()
        button.click()


def test_03_all_agree_then_a_discard_of_six_picked_by_clicks(page, wire, open_voila):
    """Source: the rules sheet, "setup" and pagat.com: every player is asked from the dealer's left; if all four agree,
    the twelve stock cards go alternately to the dealer's left and the dealer, six each, and each discards six face
    down, keeping nine. The notebook's ChantDemo(seed=7, dealer=N) seats you at E, the dealer's left."""
    open_voila(page, "03_chant.ipynb")
    chant = page.locator(".aluette-chant")
    answer_chant(chant, [True, True, True, True])
    result = html(chant, "aluette-chant-result")
    expect(result).to_contain_text("All four agree")
    picks = chant.locator(".aluette-chant-pick")
    expect(picks).to_have_count(15)  # nine dealt and six from the stock
    expect(picks.locator("svg[data-card]")).to_have_count(15)  # the pictures drawn
    deal = Deal.from_seed(7, dealer=Seat.N)
    for seat in deal.dealer.left.clockwise_from():
        deal.answer_chant(seat, True)
    fifteen = [C(code) for code in picks.evaluate_all(PICTURES_JS)]
    assert sorted(fifteen, key=DECK.index) == sorted(deal.hands[Seat.E], key=DECK.index)
    received = set(deal.hands[Seat.E]) - set(deal.dealt_hand(Seat.E))
    wire.wait_settled(page)
    assert len(received) == 6 and all(f'data-card="{card.code}"' in wire.text() for card in received)  # control
    # for the secrecy check of the decline test: E's stock cards do reach the browser once E holds them

    chosen = fifteen[:6]
    for i in range(6):
        picks.nth(i).click()
    expect(html(chant, "aluette-chant-count")).to_contain_text("6 of 6 chosen: " + " ".join(c.code for c in chosen))
    screenshot(page, "03_chant-demo", element=chant)
    chant.locator(".aluette-chant-discard").click()
    message = html(chant, "aluette-chant-message")
    expect(message).to_contain_text(f"You discarded {' '.join(c.code for c in chosen)} face down")
    expect(message).to_contain_text("you hold nine cards again")
    expect(result).to_contain_text("E and N each took six and discarded six face down")
    expect(chant.locator(".aluette-chant-picker")).to_be_hidden()
    table = html(chant, "aluette-chant-table")
    for seat in Seat:
        expect(table.locator(f".aluette-seat-{seat}")).to_contain_text("(9 cards)")
    mine = table.locator(".aluette-seat-E .aluette-cards")
    expect(mine).to_have_count(2)  # the hand, and the discard under it
    assert sorted(cards_in(mine.nth(0)), key=lambda code: DECK.index(C(code))) == sorted(
        (c.code for c in fifteen[6:]), key=lambda code: DECK.index(C(code)))
    assert cards_in(mine.nth(1)) == [c.code for c in chosen]
    finish(page, wire)


def test_03_one_decline_leaves_the_stock_unused_and_unseen(page, wire, open_voila):
    """Source: the rules sheet, "setup" and pagat.com: the chant happens only if all four agree; otherwise the stock
    stays unused and unseen and every hand keeps its nine cards. Decision of this project: asking stops at the first
    refusal. Secrecy (quality bar): no stock card is ever drawn face up in the browser."""
    open_voila(page, "03_chant.ipynb")
    chant = page.locator(".aluette-chant")
    answer_chant(chant, [True, False])  # E agrees, S declines
    result = html(chant, "aluette-chant-result")
    expect(result).to_contain_text("S declines, so the chant is off")
    expect(result).to_contain_text("The stock stays unused and unseen")
    for k in (3, 4):  # W and N are never asked
        expect(toggle(chant, f"aluette-chant-answer-{k}", "agree")).to_be_disabled()
    expect(chant.locator(".aluette-chant-picker")).to_be_hidden()
    table = html(chant, "aluette-chant-table")
    expect(table).to_contain_text("The stock (12 cards, unused and unseen)")
    for seat in Seat:
        expect(table.locator(f".aluette-seat-{seat}")).to_contain_text("(9 cards)")
    deal = Deal.from_seed(7, dealer=Seat.N)
    assert sorted(cards_in(table.locator(".aluette-seat-E"))) == sorted(card.code for card in deal.dealt_hand(Seat.E))
    wire.wait_settled(page)
    received = wire.text()
    assert not [card.code for card in deal.stock if f'data-card="{card.code}"' in received]
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 04 play

def test_04_trick_picker_shows_the_winner_or_the_spoiled_trick(shared_page):
    """Source: the rules sheet, "gameplay": the highest card wins and its player leads next; a tie for the highest
    spoils the trick and its leader leads again. The rules sheet, "card rankings": the aces are one class, above the
    kings; Monsieur (3O) is the highest card, Madame (3C) the next."""
    page, wire, since = shared_page("04_play.ipynb")
    picker = page.locator(".aluette-play-trick")
    result = html(picker, "aluette-play-trick-result")
    expect(result).to_contain_text("South wins the trick and leads next.")  # the notebook's start: 3C is Madame
    picker.locator(".aluette-play-leader select").select_option("E (East)")
    # one box at a time, in an order that never gives one card to two seats; S wins until the last one
    for seat, card in [("N", "4C"), ("E", "1O"), ("W", "1E"), ("S", "12E")]:
        enter(picker, f"aluette-play-card-{seat}", card)
    expect(result).to_contain_text("The trick is spoiled: East led it and leads again.")
    expect(picker).to_contain_text("Play order: East → South → West → North")
    assert sorted(cards_in(result)) == sorted(["1O", "12E", "1E", "4C"])
    enter(picker, "aluette-play-card-S", "Monsieur")
    expect(result).to_contain_text("South wins the trick and leads next.")
    expect_no_error(picker.locator(".aluette-message"))
    screenshot(page, "04_play-demo", element=picker)
    finish(page, wire, since)


def test_04_deal_stepper_steps_then_runs_to_the_end(shared_page):
    """Source: the engine plays the deal (the rules sheet, "gameplay" and "scoring"); the widget's documented player rule is
    "each seat plays its highest card" (simple_move), so the page must show exactly
    play_out(Deal.from_seed(7), "highest"): the notebook's TrickStepper(seed=7)."""
    page, wire, since = shared_page("04_play.ipynb")
    stepper = page.locator(".aluette-play-deal")
    expected = play_out(Deal.from_seed(7, dealer=Seat.N), "highest")
    counts = html(stepper, "aluette-play-counts")
    stepper.locator(".aluette-play-next").click()
    expect(counts).to_contain_text(f"After 1 of 9 tricks (pagat notation {expected.notation[0]})")
    expect(stepper.locator(".aluette-message")).to_contain_text(expected.tricks[0].explain())
    stepper.locator(".aluette-play-run").click()
    expect(counts).to_contain_text(f"After 9 of 9 tricks (pagat notation {expected.notation})")
    expect(stepper.locator(".aluette-message")).to_contain_text(expected.result.reason)
    expect(html(stepper, "aluette-play-table")).to_contain_text(f"Result: {expected.result.reason}")
    expect(stepper.locator(".aluette-play-next")).to_be_disabled()
    expect(stepper.locator(".aluette-play-run")).to_be_disabled()
    screenshot(page, "04_play-deal", element=stepper)
    finish(page, wire, since)


# ------------------------------------------------------------------------------------------------ 05 scoring

def test_05_scoring_box_and_slots_show_point_and_mordienne(page, wire, open_voila):
    """Source: the rules sheet, "scoring" and pagat.com: the player with the most tricks scores for their partnership;
    on a tie the one who reached that count first; mordienne (the winner's tricks form one unbroken run ending with
    trick 9, after a trick they did not win) is worth 2. Spoiled tricks count as tricks before the run: decision of this
    project. SENWSEXNW: everyone on two, S reached two first (trick 5): S, N–S, 1 point. XXXXXSSSS: S alone with
    four, won in one run 6-9 after five spoiled tricks: mordienne, 2 points."""
    open_voila(page, "05_scoring.ipynb")
    view = page.locator(".aluette-scoring")
    result = html(view, "aluette-scoring-result")

    enter(view, "aluette-scoring-input", "XXXXXSSSS")
    expect(result).to_contain_text("S (South) scores 2 points for N–S.")
    expect(result).to_contain_text("Mordienne: yes.")
    expect(toggle(view, "aluette-scoring-slot-1", "X")).to_have_class(re.compile(r"\bmod-active\b"))

    enter(view, "aluette-scoring-input", "senw sexnw")  # any case, spaces ignored
    expect(result).to_contain_text("S (South) scores 1 point for N–S.")
    expect(result).to_contain_text("S reached 2 first, at trick 5")
    expect(result).to_contain_text("Mordienne: no.")
    for number, letter in enumerate("SENWSEXNW", start=1):  # the typed deal is shown on the slots too
        expect(toggle(view, f"aluette-scoring-slot-{number}", letter)).to_have_class(re.compile(r"\bmod-active\b"))
    screenshot(page, "05_scoring-demo", element=view)

    toggle(view, "aluette-scoring-slot-9", "E").click()  # E: tricks 2, 6 and 9, the most, alone
    expect(field(view, "aluette-scoring-input")).to_have_value("SENWSEXNE")
    expect(result).to_contain_text("E (East) scores 1 point for E–W.")
    expect(result).to_contain_text("held by E alone")

    enter(view, "aluette-scoring-input", "XXXXXSSSS")
    expect(result).to_contain_text("scores 2 points")
    view.locator(".aluette-scoring-mordienne input").uncheck()  # without mordienne the same deal is worth 1
    expect(result).to_contain_text("S (South) scores 1 point for N–S.")
    expect(result).to_contain_text("Mordienne is off")
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 06 signals

def test_06_quiz_answer_gives_feedback_and_updates_the_score(page, wire, open_voila):
    """Source: the rules sheet's signal table, checked against pagat.com (aluette.SIGNALS): the right answer to a
    gesture is the line of the table with that gesture, looked up here from the gesture shown on the page."""
    open_voila(page, "06_signals.ipynb")
    quiz = page.locator(".aluette-signals-quiz")
    score, feedback = html(quiz, "aluette-signals-score"), html(quiz, "aluette-signals-feedback")
    expect(score).to_have_text("Score: 0 right out of 0")
    meaning = {signal.gesture: signal.what for signal in SIGNALS}

    def shown_gesture():
        return html(quiz, "aluette-signals-question").locator("b").inner_text()

    choices = quiz.locator(".aluette-signals-choices")
    right = meaning[shown_gesture()]
    choices.get_by_role("radio", name=right, exact=True).check()
    quiz.locator(".aluette-signals-check").click()
    expect(feedback).to_contain_text("✔ Right!")
    expect(feedback).to_contain_text(f"“{shown_gesture()}” signals “{right}”")
    expect(score).to_have_text("Score: 1 right out of 1")
    screenshot(page, "06_signals-demo", element=quiz)

    quiz.locator(".aluette-signals-next").click()
    expect(html(quiz, "aluette-signals-question")).to_contain_text("Card 2 of")
    right = meaning[shown_gesture()]
    expect(choices.get_by_role("radio", name=right, exact=True)).to_have_count(1)  # the new card's choices are in
    wrong = next(label for label in choices.locator(".widget-radio-box label").all_inner_texts() if label != right)
    choices.get_by_role("radio", name=wrong, exact=True).check()
    quiz.locator(".aluette-signals-check").click()
    expect(feedback).to_contain_text("✘ Not quite")
    expect(feedback).to_contain_text(f"signals “{right}”")
    expect(score).to_have_text("Score: 1 right out of 2")
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 07 teacher's guide

def test_07_show_answer_reveals_the_engines_answers(page, wire, open_voila):
    """Source: the rules sheet, "gameplay": North's ace of coins and South's ace of swords tie for the highest card
    (aces are one class, above the king), so the trick is spoiled and North leads again. The answer is computed by the
    engine when the button is pressed and is not sent to the browser before."""
    open_voila(page, "07_teachers_guide.ipynb")
    expected = explain_trick(["1O", "12E", "1E", "4C"])
    assert expected.startswith("Spoiled")
    first = page.locator(".aluette-exercise").first
    expect(first.locator(".aluette-exercise-question")).to_contain_text("North leads the ace of coins")
    answer = html(first, "aluette-exercise-answer")
    expect(answer).to_have_text("")
    wire.wait_settled(page)
    assert expected not in wire.text()
    first.locator(".aluette-exercise-show").click()
    expect(answer).to_contain_text(expected)
    expect(answer).to_contain_text("(the rules sheet, gameplay)")
    expect(first.locator(".aluette-exercise-show")).to_have_text("Hide answer")
    screenshot(page, "07_teachers_guide-demo", element=page.locator(".aluette-exercises"))
    first.locator(".aluette-exercise-show").click()
    expect(answer).to_have_text("")
    expect(first.locator(".aluette-exercise-show")).to_have_text("Show answer")

    # Every exercise's button reveals its own answer. Exercise 3 (the rules sheet, "scoring"): in NSENSEWWX N, E, S and W
    # each win two tricks and North reaches two first (trick 4), so N-S scores 1.
    score = score_tricks("NSENSEWWX")
    assert score.winner is Seat.N and score.reached_at == 4 and score.points == 1
    rows = page.locator(".aluette-exercise")
    assert rows.count() == 8
    for row in rows.all():
        row.locator(".aluette-exercise-show").click()
    for row in rows.all():
        expect(html(row, "aluette-exercise-answer")).not_to_have_text("")
    expect(rows.nth(2).locator(".aluette-exercise-question")).to_contain_text("NSENSEWWX")
    expect(html(rows.nth(2), "aluette-exercise-answer")).to_contain_text(score.reason)
    finish(page, wire)
