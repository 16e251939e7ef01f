"""The secrecy audit (:mod:`aluette.secrecy`) that the widget tests and the browser harness share.

Sources: the rules sheet (``docs/sources/``), "setup" (the stock stays unused and unseen when the chant is
declined; the discards are face down) and "signals" (the partner's honest signals name cards the partner then
knows); the quality bar of this project (a player's view never contains another player's hidden cards).
"""

import json

from aluette import DECK, Deal, Options, Seat
from aluette.secrecy import cards_named, hidden_cards, hidden_named, secrecy_problems
from tests.browser.harness import Wire

S, N, E, W = Seat.S, Seat.N, Seat.E, Seat.W


def test_hidden_cards_are_the_other_hands_and_the_unused_stock():
    deal = Deal.from_seed(3)
    assert hidden_cards(deal, S) == frozenset(DECK) - set(deal.hands[S])  # 27 in hands + 12 in the stock
    assert len(hidden_cards(deal, "east")) == 39 and not set(deal.hands[E]) & hidden_cards(deal, E)


def test_played_cards_are_public():
    deal = Deal.from_seed(3, options=Options(chant=False))
    card = deal.legal_cards()[0]
    seat = deal.to_move
    deal.play(seat, card)
    assert all(card not in hidden_cards(deal, other) for other in (N, E, S, W))


def test_cards_named_matches_whole_codes_names_and_nicknames():
    assert cards_named("13O 103O #3E0a0b 3Oa a3O 11") == frozenset()
    for card in DECK:
        assert cards_named(f"<b>{card.code}</b>") == {card}
        assert cards_named(card.name.upper()) == {card}
    assert {c.code for c in cards_named("la vache, DEUX D'ÉCRIT and the king of swords")} == {"2C", "2E", "12E"}


def test_problems_name_a_leak_and_a_missing_own_card():
    deal = Deal.from_seed(3)
    mine = " ".join(c.code for c in deal.hands[S])
    secret = deal.hands[E][0]
    assert secrecy_problems(mine, deal, S) == [] and hidden_named(mine, deal, S) == []
    assert hidden_named(f"{mine} {secret.code}", deal, S) == [secret]
    assert secrecy_problems(f"{mine} {secret.code}", deal, S, where="the page") == [
        f"hidden card {secret} ({secret.nickname or secret.name}) is in the page"]
    first = deal.hands[S][0]
    assert secrecy_problems(mine.replace(first.code, ""), deal, S) == [f"your card {first} is missing from the text"]


def test_the_browser_harness_reads_frames_with_the_same_audit():
    deal = Deal.from_seed(3)
    secret = deal.hands[E][0]
    message = {"header": {"msg_type": "comm_msg"}, "parent_header": {}, "metadata": {},
               "content": {"data": {"method": "update", "state": {"tooltip": f"{secret.code}"}}}}
    wire = Wire(frames=[("<", "ws://127.0.0.1/", json.dumps(message))])
    assert wire.cards_named() & hidden_cards(deal, S) == {secret}
    assert Wire().cards_named() == frozenset()
