"""The Review of a finished deal in notebook 08, in a real browser through Voilà (issue 18 §2), on one page.

What is proven: a deal played in 08 (the chant declined, then a card of yours each turn; the bots play the other
seats) shows no review while it is played and no card hidden from South in any frame received before its end; once
it is over the Review appears, says it is hindsight, is worked out in the background (the page keeps its kernel
free) and ends with a summary; "Find a better card" opens a mistake without its answer, and "Show the answer" shows
it on request; the unused stock is never named, before or after the end.

Sources: the rules sheet, "setup" (the twelve stock cards stay unused and unseen when the chant is declined) and
"gameplay"; the quality bar of this project (a player's view never holds another player's hidden cards, analyses
shown before a deal is over included).
"""

import pytest

from aluette import Phase, Seat
from aluette.secrecy import hidden_cards
from tests.browser.harness import expect
from tests.browser.test_match import NOTEBOOK, card_button, hand, match_root, replay, settle, status

pytestmark = pytest.mark.browser

READY = 240_000  # ms: the review's worker starts, loads the solver and works out nine positions on a busy machine


def middle(cards):
    """The card South plays: the middle one of its hand (in this deal of seed 2026 it loses the deal in the second
    trick, so the review has a mistake to look at)."""
    return cards[len(cards) // 2]


def test_the_review_appears_after_the_deal_only_and_finds_a_better_card(page, wire, open_voila):
    open_voila(page, NOTEBOOK)
    root = match_root(page)
    settle(page, wire, root)
    review = root.locator(".aluette-match-review")
    root.locator(".aluette-match-chant-decline").click()
    settle(page, wire, root)
    plays = []
    while True:
        assert "click a card to play it" in status(root)
        assert review.count() == 0 or not review.first.is_visible()  # no review while the deal is played
        cards = hand(root)
        if len(cards) == 1:  # before the last card: nothing South may not see reached the page in any frame
            engine = replay(False, plays)  # the same match in this process: the chant declined, the same cards
            assert engine.deal.phase is Phase.PLAY and list(engine.deal.hands[Seat.S]) == cards
            hidden = hidden_cards(engine.deal)
            assert len(hidden) >= 12 and not wire.cards_named() & hidden  # the others' last cards, the stock
            assert set(cards) <= wire.cards_named()  # positive control
            engine.close()
        card = middle(cards)
        card_button(root, card).click()
        plays.append(card)
        settle(page, wire, root)
        if len(cards) == 1:
            break
    head = root.locator(".aluette-match-review-head")
    expect(head).to_contain_text("Review of your deal", timeout=30_000)
    expect(head).to_contain_text("hindsight")
    expect(head).to_contain_text("9 cards:", timeout=READY)  # the summary: every move worked out or said not to be
    expect(head).to_contain_text("lost the deal")
    rows = root.locator(".aluette-match-review-rows li")
    assert rows.count() == 9
    find = root.locator(".aluette-match-review-find")
    find.click()
    wire.wait_settled(page)
    position = root.locator(".aluette-match-review-position")
    expect(position).to_contain_text("Find a better card: trick 2")
    feedback = root.locator(".aluette-match-review-feedback")
    assert "The answer" not in (feedback.text_content() or "")  # the answer only on request
    root.locator(".aluette-match-review-answer").click()
    wire.wait_settled(page)
    expect(feedback).to_contain_text("The answer:")
    engine = replay(False, plays)  # the same match in this process: the chant declined, the same cards
    assert engine.deal.is_over
    stock = set(engine.deal.stock)
    assert len(stock) == 12 and not wire.cards_named() & stock  # the unused stock, never shown
    engine.close()
