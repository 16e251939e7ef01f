"""Property tests: in any legal sequence of moves the rules' invariants hold.

Sources: the invariants of the rules (48 cards conserved, nine cards played per seat, nine tricks, scores add up,
replay equals
the original, a seat's view never contains a card it may not see); the rules themselves are in aluette/deal.py.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from aluette import DECK, ChantRecipients, Deal, Options, Phase, Rebour, Seat, SurrenderUntil, score_tricks
from aluette.moves import ChantAnswer, Discard, MordienneAnnouncement, Play, Signal, SurrenderAnswer, SurrenderOffer
from aluette.signals import SIGNALS


def _options(mordienne, chant, recipients, surrender, until, rebour):
    """Every variant the engine plays: the Rebour announcement needs mordienne and excludes the surrender
    (:class:`aluette.Options`), so a drawn Rebour turns the surrender off."""
    surrender = surrender and rebour is Rebour.OFF
    return Options(mordienne=mordienne or surrender or rebour is not Rebour.OFF, chant=chant,
                   chant_recipients=recipients, surrender=surrender,
                   surrender_until=until if surrender else SurrenderUntil.FIRST_TRICK, rebour=rebour)


options_strategy = st.builds(
    _options, st.booleans(), st.booleans(), st.sampled_from(list(ChantRecipients)), st.booleans(),
    st.sampled_from(list(SurrenderUntil)), st.sampled_from(list(Rebour)))


def allowed_cards(deal: Deal, seat: Seat) -> set:
    """What ``seat`` may have seen: its dealt hand, stock cards it received, and every card played."""
    view = deal.view(None)
    seen = set(deal.dealt_hand(seat)) | set(view.stock_received.get(seat, ()))
    seen.update(c for _, c in deal.current_trick)
    for trick in deal.tricks:
        seen.update(trick.cards)
    return seen


def drive(seed: int, options: Options, choices: list[int], signal_every: int) -> Deal:
    """Play a deal to the end with moves picked by ``choices`` (cycled), signalling now and then, checking views."""
    deal = Deal.from_seed(seed, options=options)
    step = 0
    while not deal.is_over:
        pick = choices[step % len(choices)]
        if signal_every and step % signal_every == 0:
            seat = Seat("NESW"[pick % 4])
            keys = deal.legal_signals(seat)
            if keys:
                deal.signal(seat, keys[pick % len(keys)])
        if deal.phase is Phase.DISCARD:
            hand = deal.hands[deal.to_move]
            start = pick % 10
            deal.discard(deal.to_move, hand[start:start + 6])
        else:
            moves = deal.legal_moves()
            deal.apply(moves[pick % len(moves)])
        if step % 7 == 0:
            for seat in Seat:
                assert deal.view(seat).visible_cards() <= allowed_cards(deal, seat)
        step += 1
    return deal


@given(seed=st.integers(0, 2**32), options=options_strategy,
       choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=40), signal_every=st.integers(0, 9))
def test_invariants_of_any_legal_sequence(seed, options, choices, signal_every):
    deal = drive(seed, options, choices, signal_every)
    result = deal.result
    played = [c for trick in deal.tricks for c in trick.cards]
    discarded = [c for cards in deal.view(None).discards.values() for c in cards]
    held = [c for seat in Seat for c in deal.hands[seat]]
    unused = list(deal.view(None).stock or ())
    # the 48 cards are conserved, none twice
    assert sorted(played + discarded + held + unused, key=lambda c: c.index) == list(DECK)
    if result.score is None:  # surrender accepted: no trick played, or (between tricks) the rest not played
        assert sum(result.points.values()) == 1
        assert deal.tricks == () or (options.surrender_until is SurrenderUntil.LAST_TRICK and len(deal.tricks) < 9)
        for seat in Seat:  # each seat played one card per trick played
            assert [s for t in deal.tricks for s, _ in t.plays].count(seat) == len(deal.tricks)
    else:
        assert len(deal.tricks) == 9
        for seat in Seat:  # every seat plays exactly nine cards, one per trick
            assert [s for t in deal.tricks for s, _ in t.plays].count(seat) == 9
        assert held == []
        announced = ({seat for seat, said in deal.announcements if said}
                     if options.rebour is Rebour.ONLY_ANNOUNCED else None)
        assert result.score == score_tricks(deal.notation, mordienne=options.mordienne, announced=announced)
        assert sum(result.points.values()) in (0, 1, 2)
    # replay from the history and from the saved file equals the original
    assert Deal.from_json(deal.to_json()).to_dict() == deal.to_dict()
    replayed = Deal.from_deck(deal.deck, dealer=deal.dealer, options=options)
    for move in deal.moves:
        replayed.apply(move)
    assert replayed.result == deal.result and replayed.tricks == deal.tricks


@given(seed=st.integers(0, 2**32))
def test_same_seed_same_deal(seed):
    assert Deal.from_seed(seed).deck == Deal.from_seed(seed).deck


def candidate_moves(deal: Deal, pick: int) -> list:
    """Moves of every kind for every seat, legal or not: each answer both ways, every card of the deck for every
    seat, and (in the discard phase) six of the seat's fifteen cards and six with a card it does not hold."""
    moves = []
    for seat in Seat:
        for yes in (True, False):
            moves += [ChantAnswer(seat, yes), SurrenderOffer(seat, yes), SurrenderAnswer(seat, yes),
                      MordienneAnnouncement(seat, yes)]
        moves += [Play(seat, card) for card in DECK]
        hand = deal.hands[seat]
        if len(hand) >= 6:
            start = pick % (len(hand) - 5)
            moves.append(Discard(seat, hand[start:start + 6]))
            stranger = next(c for c in DECK if c not in hand)
            moves.append(Discard(seat, (*hand[:5], stranger)))
    return moves


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), options=options_strategy,
       choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_is_legal_is_membership_of_legal_moves(seed, options, choices):
    """``deal.is_legal(m)`` ⇔ ``m in deal.legal_moves()`` for every turn move, and ``is_legal(Signal(s, k))`` ⇔
    ``k in deal.legal_signals(s)``, in every state of a deal played to the end (the engine's two answers to "may
    this move be made now" agree; python-chess keeps the same pair, ``is_legal`` and ``legal_moves``)."""
    deal = Deal.from_seed(seed, options=options)
    step = 0
    while True:
        pick = choices[step % len(choices)]
        legal = deal.legal_moves()
        listed = set(legal)  # in the discard phase all 5005 discards; the candidates are checked against them
        for move in candidate_moves(deal, pick):
            assert deal.is_legal(move) is (move in listed), move
        for seat in Seat:
            keys = set(deal.legal_signals(seat))
            for kind in SIGNALS:
                assert deal.is_legal(Signal(seat, kind.key)) is (kind.key in keys), (seat, kind.key)
        if deal.is_over:
            assert legal == []
            return
        assert legal and all(deal.is_legal(m) for m in legal[:50])
        deal.apply(legal[pick % len(legal)])
        step += 1
