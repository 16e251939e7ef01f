"""Bad input typed into every text box of notebooks 01-06 (07 has none), in a real browser: each bad value shows a
message naming the problem, the widget keeps its last good state, and a right value typed afterwards gives the
right result. One test per notebook (one page); each ends with the kernel idle and no exception in it or the page.

The seed boxes are text boxes read by one check (aluette.widgets.common.SeedBox): "12.7", "-5" or 10**20 typed into
one shows a message naming it, the box shows the seed it had and the deal stays (a browser's number box used to show
127 for a pasted 12.7 while the deal came from 12); the seeds 0 and 4294967295 typed then give their deals.

Sources: the quality bar of this project (bad input gets a clear message, state is left as it was) and, for the
right results, the rules named at each test (the rules sheet, pagat.com, decisions of this project).
"""

import re

import pytest

from aluette import Card, Deal, Match, Seat, Team, partnership_draw
from aluette.chance import shuffled_deck
from aluette.players.drivers import play_out_match
from aluette.widgets.signals import flash_cards
from tests.browser.controls import (LONG, PICTURES_JS, cards_in, enter, expect_cards, expect_error, expect_no_error,
                                    field, finish, html, toggle)
from tests.browser.harness import expect

pytestmark = pytest.mark.browser

C = Card.parse
MAX_SEED = 2**32 - 1
OUT_OF_RANGE = [(" 0 ", 0), (str(MAX_SEED), MAX_SEED)]  # typed (spaces around are ignored), then the seed used
#: typed into a seed box, then what the message names: each is refused
BAD_SEEDS = [("12.7", "got '12.7': type digits only"), ("-5", "got '-5'"),
             ("99999999999999999999", "got '99999999999999999999', which is larger")]


def type_seed(scope, css, typed, seed):
    enter(scope, css, typed)
    expect(field(scope, css)).to_have_value(str(seed))


def refuse_seeds(scope, css, message, unchanged=lambda: None):
    """Each of BAD_SEEDS typed into the seed box ``css``: a message naming it, the box shows the seed it had again,
    and ``unchanged()`` (expectations on what the seed shows) still holds."""
    shown = field(scope, css).input_value()
    for typed, needle in BAD_SEEDS:
        enter(scope, css, typed)
        expect_error(message, "the seed must be a whole number from 0 to 4294967295", needle,
                     f"The seed stays {shown}.")
        expect(field(scope, css)).to_have_value(shown)
        unchanged()


# ------------------------------------------------------------------------------------------------ 01 ranking

def test_01_bad_cards_typed_into_the_comparer_and_the_ordering_answer(page, wire, open_voila):
    """Right results: the rules sheet, "card rankings" and "gameplay" (Madame, 3 of cups, beats an ace; highest
    first)."""
    open_voila(page, "01_ranking.ipynb")
    comparer = page.locator(".aluette-compare")
    message, result = html(comparer, "aluette-compare-message"), html(comparer, "aluette-compare-result")
    start = ["1O", "1E", "12B"]
    expect(result.locator("svg.aluette-card")).to_have_count(3)  # drawn a moment after the page settles, on a busy machine
    assert cards_in(result) == start
    for typed, needle in [("3Q", "unknown card '3Q'"), ("", "type two to four cards first"),
                          ("3O", "a trick has 2 to 4 cards; you typed 1"), ("3O 3O", "appears twice in the trick: 3O"),
                          ("3O 1E 12B 4C 5C", "you typed 5"), (LONG, "unknown card 'QQQQ")]:
        enter(comparer, "aluette-compare-text", typed)
        expect_error(message, needle)
        assert cards_in(result) == start  # the last good trick stays
    comparer.locator(".aluette-compare-card-3 select").select_option("— no card —")  # a good pick clears it
    expect(result).to_contain_text("spoiled")
    expect_no_error(message)
    expect(comparer.locator(".aluette-compare-card-3 select")).to_have_value("— no card —")  # not a blank box
    comparer.locator(".aluette-compare-go").click()  # the box still holds the long value: only the button reads it
    expect_error(message, "unknown card 'QQQQ")
    assert cards_in(result) == ["1O", "1E"]
    enter(comparer, "aluette-compare-text", "1E, Madame")
    expect(result).to_contain_text("won by card 2")
    expect_no_error(message)
    assert cards_in(result) == ["1E", "3C"]

    exercise = page.locator(".aluette-order")
    feedback = html(exercise, "aluette-order-result")
    picks = exercise.locator(".aluette-order-pick")
    expect(picks.locator("svg[data-card]")).to_have_count(5)
    dealt = [C(code) for code in picks.evaluate_all(PICTURES_JS)]
    stranger = next(card for card in map(C, ["3O", "3C", "2O", "2C", "9C", "9O"]) if card not in dealt)
    for typed, needle in [("3Q", "unknown card '3Q'"), ("", "give each of the 5 dealt cards exactly once (missing:"),
                          (" ".join(c.code for c in [stranger, *dealt[1:]]), f"not dealt here: {stranger.code}"),
                          (" ".join(c.code for c in [dealt[0], *dealt]), f"given twice: {dealt[0].code}"),
                          (LONG, "unknown card 'QQQQ")]:
        field(exercise, "aluette-order-answer").fill(typed)
        exercise.locator(".aluette-order-check").click()
        expect_error(feedback, needle)
    best_first = sorted(dealt, key=lambda card: -card.strength)
    field(exercise, "aluette-order-answer").fill(" ".join(card.code for card in best_first))
    exercise.locator(".aluette-order-check").click()
    expect(feedback).to_contain_text("Right!")
    assert [C(code) for code in picks.evaluate_all(PICTURES_JS)] == dealt

    refuse_seeds(exercise, "aluette-order-seed", feedback,
                 lambda: expect(html(exercise, "aluette-order-cards")).to_contain_text("put these 5 cards in order"))
    assert picks.evaluate_all(PICTURES_JS) == [card.code for card in dealt]  # the same five cards
    for typed, seed in OUT_OF_RANGE:  # the exercise deals the top five of its seed's shuffle
        type_seed(exercise, "aluette-order-seed", typed, seed)
        expect(html(exercise, "aluette-order-cards")).to_contain_text(f"Seed {seed}: put these 5 cards in order")
        expect(picks.locator("svg[data-card]")).to_have_count(5)
        expect(picks.locator("svg[data-card]").first).to_have_attribute("data-card", shuffled_deck(seed)[0][0].code)
        assert picks.evaluate_all(PICTURES_JS) == [c.code for c in shuffled_deck(seed)[0][:5]]
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 02 setup

def test_02_bad_names_and_seeds(page, wire, open_voila):
    """The draw needs four different non-empty names (decision of this project); names and seed typed in the page
    give the engine's partnership_draw for the same names and seed (Madame's holder at N: decision of this
    project). A 500-character name is a name: the draw takes it."""
    open_voila(page, "02_setup.ipynb")
    draw_widget = page.locator(".aluette-draw")
    message, status = html(draw_widget, "aluette-draw-message"), html(draw_widget, "aluette-draw-status")
    names = ["Anne", "Bruno", "Chantal", "Denis"]
    places = ["1st", "2nd", "3rd", "4th"]
    for i, name in enumerate(names, start=1):
        other = names[i % 4]
        first, second = sorted([places[i - 1], places[i % 4]])
        # the good name between "" and "   " clears the message, so that "   " (the same words) is checked on its
        # own answer, not on the one before
        for typed, needle in [("", f"the {places[i - 1]} name is empty"), (name, None),
                              ("   ", f"the {places[i - 1]} name is empty"),
                              (other, f'the {first} and {second} names are both "{other}"')]:
            enter(draw_widget, f"aluette-draw-name-{i}", typed)
            if needle is None:
                expect_no_error(message)
                continue
            expect_error(message, needle)  # in words: no Python list
            expect(message).not_to_contain_text("[")
            expect(status).to_contain_text("Anne shuffles (seed 1)")  # the draw is left as it was
        enter(draw_widget, f"aluette-draw-name-{i}", name)
        expect_no_error(message)

    enter(draw_widget, "aluette-draw-name-2", LONG)  # longer than a name box takes (quality bar: a length limit)
    expect_error(message, "is 500 characters long; this box takes at most 100")
    expect(status).to_contain_text("starting with Bruno")  # the draw is left as it was
    names[1] = LONG[:100]  # the longest name a box takes is a name: the draw takes it
    enter(draw_widget, "aluette-draw-name-2", names[1])
    expect(status).to_contain_text(f"starting with {names[1]}")
    draw_widget.locator(".aluette-draw-run").click()
    draw = partnership_draw(names, 1)
    for seat in Seat:
        expect(html(draw_widget, "aluette-draw-result").locator(f".aluette-seat-{seat}")).to_contain_text(
            f"{seat} {draw.seating[seat]}")
    expect_no_error(message)

    drawn = status.inner_text()
    refuse_seeds(draw_widget, "aluette-draw-seed", message, lambda: expect(status).to_have_text(drawn))
    for typed, seed in OUT_OF_RANGE:
        type_seed(draw_widget, "aluette-draw-seed", typed, seed)
        expect(status).to_contain_text(f"(seed {seed})")
    stepper = page.locator(".aluette-deal")
    stepper.locator(".aluette-deal-next").click()  # step 1 of seed 1's deal, which a refused seed leaves as it is
    expect(html(stepper, "aluette-deal-status")).not_to_contain_text("Step 0")
    step_one = html(stepper, "aluette-deal-status").inner_text()
    refuse_seeds(stepper, "aluette-deal-seed", stepper.locator(".aluette-deal-message"),
                 lambda: expect(html(stepper, "aluette-deal-status")).to_have_text(step_one))
    for typed, seed in OUT_OF_RANGE:
        type_seed(stepper, "aluette-deal-seed", typed, seed)
        expect(html(stepper, "aluette-deal-status")).to_contain_text(f"shuffles (seed {seed})")
        pile = html(stepper, "aluette-deal-table").locator(":scope > .aluette-cards")
        expect(pile).to_contain_text("The deck (48 cards")  # back at step 0
        stepper.locator(".aluette-deal-run").click()
        expect(pile).to_contain_text("The stock (12 cards")
        assert cards_in(pile) == [c.code for c in Deal.from_seed(seed, dealer=Seat.N).stock]
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 03 chant

def test_03_bad_discards_typed_then_a_good_one(page, wire, open_voila):
    """Source: the rules sheet, "setup" and pagat.com: a stock recipient discards exactly six of its own fifteen cards,
    keeping nine. A refused discard leaves the fifteen cards in hand."""
    open_voila(page, "03_chant.ipynb")
    chant = page.locator(".aluette-chant")
    for k in range(1, 5):
        button = toggle(chant, f"aluette-chant-answer-{k}", "agree")
        expect(button).to_be_enabled()
        button.click()
    picks = chant.locator(".aluette-chant-pick")
    expect(picks).to_have_count(15)
    expect(picks.locator("svg[data-card]")).to_have_count(15)  # the pictures drawn
    hand = [C(code) for code in picks.evaluate_all(PICTURES_JS)]
    stranger = next(card for card in map(C, ["3O", "3C", "2O", "2C", "9C", "9O", "1O"]) if card not in hand)
    message = html(chant, "aluette-chant-message")
    codes = [card.code for card in hand]
    for typed, needle in [("3Q", "unknown card '3Q'"), ("", "type six card codes first"),
                          (" ".join(codes[:5]), "got 5"), (" ".join(codes[:5] + codes[:1]), "got 6 with a repeat"),
                          (" ".join(codes[:5] + [stranger.code]), f"cannot discard {stranger.code}: not in their hand"),
                          (LONG, "unknown card 'QQQQ")]:
        field(chant, "aluette-chant-typed").fill(typed)
        chant.locator(".aluette-chant-discard-typed").click()
        expect_error(message, needle)
        expect(picks).to_have_count(15)  # nothing was discarded
    field(chant, "aluette-chant-typed").fill(" ".join(codes[-6:]))
    chant.locator(".aluette-chant-discard-typed").click()
    expect(message).to_contain_text(f"You discarded {' '.join(codes[-6:])} face down; you hold nine cards again.")
    expect(chant.locator(".aluette-chant-picker")).to_be_hidden()
    expect(html(chant, "aluette-chant-table").locator(".aluette-seat-E")).to_contain_text("(9 cards)")

    refuse_seeds(chant, "aluette-chant-seed", message,  # the discard made stays
                 lambda: expect(html(chant, "aluette-chant-table").locator(".aluette-seat-E")).to_contain_text(
                     "(9 cards)"))
    for typed, seed in OUT_OF_RANGE:  # a new seed deals that seed's deal and asks again from the start
        type_seed(chant, "aluette-chant-seed", typed, seed)
        expect(toggle(chant, "aluette-chant-answer-1", "agree")).to_be_enabled()
        mine = html(chant, "aluette-chant-table").locator(".aluette-seat-E")
        expect(mine).to_contain_text("(9 cards)")
        expect_cards(mine, [card.code for card in Deal.from_seed(seed, dealer=Seat.N).dealt_hand(Seat.E)])
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 04 play

def test_04_bad_cards_typed_into_each_seat_of_the_trick_picker(page, wire, open_voila):
    """Source: the rules sheet, "gameplay" (the highest card wins and leads next) and "card rankings" (Monsieur, 3O, is
    the highest card); one of each card in the deck, so a card cannot be played by two seats."""
    open_voila(page, "04_play.ipynb")
    picker = page.locator(".aluette-play-trick")
    message, result = picker.locator(".aluette-message"), html(picker, "aluette-play-trick-result")
    start = {"N": "1O", "E": "12E", "S": "3C", "W": "1B"}
    expect(result).to_contain_text("South wins the trick and leads next.")
    for seat, name in [("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")]:
        taken = start["E" if seat == "N" else "N"]
        for typed, needle in [("3Q", f"{name}'s card: unknown card '3Q'"), ("", f"choose a card for {name}"),
                              (taken, f"{taken} is chosen twice"),
                              (LONG, f"{name}'s card is 500 characters long; this box takes at most 100")]:
            enter(picker, f"aluette-play-card-{seat}", typed)
            expect_error(message, needle)
            assert sorted(cards_in(result)) == sorted(start.values())  # the last good trick stays shown
        enter(picker, f"aluette-play-card-{seat}", start[seat])
        expect_no_error(message)
    enter(picker, "aluette-play-card-W", "Monsieur")
    expect(result).to_contain_text("West wins the trick and leads next.")

    deal_widget = page.locator(".aluette-play-deal")
    start = int(field(deal_widget, "aluette-play-seed").input_value())  # the notebook's seed
    shown = [c.code for s in Seat for c in Deal.from_seed(start, dealer=Seat.N).dealt_hand(s)]
    expect_cards(html(deal_widget, "aluette-play-table"), shown)
    refuse_seeds(deal_widget, "aluette-play-seed", deal_widget.locator(".aluette-message"),
                 lambda: expect_cards(html(deal_widget, "aluette-play-table"), shown))  # the same deal
    for typed, seed in OUT_OF_RANGE:
        type_seed(deal_widget, "aluette-play-seed", typed, seed)
        expect(deal_widget.locator(".aluette-message")).to_contain_text(f"Seed {seed}, dealer North")
        dealt = Deal.from_seed(seed, dealer=Seat.N)
        expect_cards(html(deal_widget, "aluette-play-table"), [c.code for s in Seat for c in dealt.dealt_hand(s)])
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 05 scoring

def test_05_bad_notation_then_a_good_one(page, wire, open_voila):
    """Source: pagat.com's notation (nine letters, the seat that won each trick, X for spoiled); the rules sheet,
    "scoring": XXXXXSSSS is mordienne for S, 2 points (spoiled tricks count as tricks before the run: decision of this
    project); a match is five deals, the partnership with more points wins, a tie is a drawn match (decision of
    this project)."""
    open_voila(page, "05_scoring.ipynb")
    view = page.locator(".aluette-scoring")
    message, result = view.locator(".aluette-message").first, html(view, "aluette-scoring-result")
    expect(result).to_contain_text("S (South) scores 1 point for N–S.")  # the notebook's SENWSEXNW
    for typed, needle in [("SENWSEXNQ", "trick 9: 'Q' is not a seat"), ("", "a deal has nine tricks, got 0"),
                          ("SENWSEXN", "got 8"), ("SENWSEXNWS", "got 10"),
                          (LONG, "the tricks is 500 characters long; this box takes at most 100")]:
        enter(view, "aluette-scoring-input", typed)
        expect_error(message, needle)
        expect(result).to_contain_text("S (South) scores 1 point for N–S.")  # the last good deal stays
    for number, letter in enumerate("SENWSEXNW", start=1):  # the slots too
        expect(toggle(view, f"aluette-scoring-slot-{number}", letter)).to_have_class(re.compile(r"\bmod-active\b"))
    enter(view, "aluette-scoring-input", "XXXXXSSSS")
    expect(result).to_contain_text("S (South) scores 2 points for N–S.")
    expect(result).to_contain_text("Mordienne: yes.")
    expect_no_error(message)
    enter(view, "aluette-scoring-input", "XXXXXSSSQ")  # a bad value, then a slot click: the slots' deal is scored
    expect_error(message, "trick 9: 'Q' is not a seat")
    toggle(view, "aluette-scoring-slot-9", "N").click()
    expect(field(view, "aluette-scoring-input")).to_have_value("XXXXXSSSN")
    expect(result).to_contain_text("S (South) scores 1 point for N–S.")
    expect_no_error(message)

    sheet = page.locator(".aluette-match")
    before = html(sheet, "aluette-match-result").inner_text()
    refuse_seeds(sheet, "aluette-match-seed", sheet.locator(".aluette-message"),
                 lambda: expect(html(sheet, "aluette-match-result")).to_have_text(before))
    for typed, seed in OUT_OF_RANGE:
        type_seed(sheet, "aluette-match-seed", typed, seed)
        match = play_out_match(Match(seed))
        verdict = "a drawn match" if match.winner is None else "wins the match"
        expect(html(sheet, "aluette-match-result")).to_contain_text(
            f"After 5 deals: N–S {match.scores[Team.NS]}, E–W {match.scores[Team.EW]}: ")
        expect(html(sheet, "aluette-match-result")).to_contain_text(verdict)
    finish(page, wire)


# ------------------------------------------------------------------------------------------------ 06 signals

def test_06_quiz_refuses_a_check_without_an_answer_and_follows_its_seed(page, wire, open_voila):
    """The quiz's only box is its seed: a new seed starts the quiz of that seed (flash_cards, the same seed giving the
    same quiz everywhere) with the score back to zero."""
    open_voila(page, "06_signals.ipynb")
    quiz = page.locator(".aluette-signals-quiz")
    message, score = quiz.locator(".aluette-message"), html(quiz, "aluette-signals-score")
    quiz.locator(".aluette-signals-check").click()
    expect_error(message, "Pick an answer first")
    expect(score).to_have_text("Score: 0 right out of 0")
    quiz.locator(".aluette-signals-choices input").first.check()
    quiz.locator(".aluette-signals-check").click()
    expect(score).to_have_text(re.compile(r"Score: [01] right out of 1"))
    expect(quiz.locator(".aluette-signals-check")).to_be_disabled()
    answered = score.inner_text()
    refuse_seeds(quiz, "aluette-signals-seed", message, lambda: expect(score).to_have_text(answered))  # same quiz
    for typed, seed in OUT_OF_RANGE:
        type_seed(quiz, "aluette-signals-seed", typed, seed)
        expect(score).to_have_text("Score: 0 right out of 0")
        expect(html(quiz, "aluette-signals-question")).to_contain_text(flash_cards(seed)[0].prompt)
    finish(page, wire)
