"""The expert bot (issue 18 §5, :mod:`aluette.analysis.expert`): perfect-information Monte Carlo from its own seat's
view over the exact solver.

Rule sources for what the samples must keep: the rules sheet (``docs/sources/``), "setup" (nine cards each, twelve
left over; in the chant the stock goes to two players, who discard back to nine) and "gameplay" (any card may be
played: no obligation to follow, so a card played says nothing of a void); the project's decisions
``signals-honest`` (a signal names a card the signaller holds, its number of aces, a useless hand: no card above a
king), ``signals-partner-only`` and ``tricks-visible`` (:mod:`aluette.decisions`). Strength and speed are measured in
``tests/benchmarks/bench_expert.py``, never here.
"""

from __future__ import annotations

import numpy as np
import pytest

from aluette import AluetteError, BadSeedError, Deal, Options, Phase, Play, Seat, SEATS, solve
from aluette.analysis.expert import ExpertBot, HiddenCards
from aluette.players.bots import HeuristicBot
from aluette.cards import NICKNAMED
from aluette.players.drivers import next_bot_step, play_deal
from aluette.secrecy import hidden_cards
from aluette.signals import is_useless_hand

# cheap bounds for the tests: a few samples, solved from the fifth trick (strength is the benchmark's business)
FAST = dict(samples=3, solve_from=5)


class Recording:
    """A bot wrapper that records every view it is given and every decision it makes."""

    def __init__(self, bot):
        self.bot, self.views, self.decisions = bot, [], []

    def choose(self, view, legal_moves=()):
        self.views.append(view)
        decision = self.bot.choose(view, legal_moves)
        self.decisions.append(decision)
        return decision

    def signals(self, view, legal_signals):
        return self.bot.signals(view, legal_signals)


def experts(seed: int, **bounds) -> dict:
    """ExpertBots at N-S (seeded per seat), signalling HeuristicBots at E-W."""
    return {seat: ExpertBot(np.random.SeedSequence([seed, k]), **(bounds or FAST)) if seat.team.name == "NS"
            else HeuristicBot(signals=True) for k, seat in enumerate(SEATS)}


def positions(seeds, options=None, every: int = 5):
    """(deal copy, seat to move) at every ``every``-th play move of seeded deals played by signalling heuristic
    bots (the chant on by default: stock recipients and their discards come up)."""
    bots = {seat: HeuristicBot(signals=True) for seat in SEATS}
    for seed in seeds:
        deal = Deal.from_seed(seed, dealer=SEATS[seed % 4], options=options)
        offered, n = False, 0
        while not deal.is_over:
            step = next_bot_step(deal, bots, signals_offered=offered)
            if step.signals:
                offered = True
            elif deal.phase is Phase.PLAY:
                if n % every == 0:
                    yield deal.copy(), deal.to_move
                n += 1
            for decision in step.decisions:
                deal.apply(decision.move)


# ---------------------------------------------------------------------- whole deals
@pytest.mark.parametrize("seed, options", [(1, None), (2, Options(chant=False)), (7, Options(surrender=True)),
                                           (3, Options(surrender=True, surrender_until="last_trick")),
                                           (4, Options(chant=False, rebour="only_announced"))])
def test_plays_only_legal_moves_over_whole_seeded_deals(seed, options):
    deal = Deal.from_seed(seed, dealer=SEATS[seed % 4], options=options)
    bots = {seat: Recording(bot) for seat, bot in experts(seed).items()}
    decisions = play_deal(deal, bots)  # deal.apply raises IllegalMoveError on an illegal move
    assert deal.is_over and deal.result is not None
    turn_moves = [d.move for d in decisions if type(d.move).__name__ != "Signal"]
    assert turn_moves == [m for m in deal.moves if type(m).__name__ != "Signal"]
    reasons = [d.reason for seat in (Seat.N, Seat.S) for d in bots[seat].decisions]
    assert deal.result.score is not None  # played out (no surrender accepted in these seeds)
    assert any(r.startswith("expert: ") for r in reasons), reasons  # the solver chose some cards
    assert any(r.startswith("heuristic (first tricks") for r in reasons), reasons


def test_the_same_seed_gives_the_same_moves_and_the_bot_is_seeded():
    def moves(seed):
        deal = Deal.from_seed(11)
        return [(d.move, d.reason) for d in play_deal(deal, experts(seed))]

    assert moves(5) == moves(5)
    with pytest.raises(BadSeedError):
        ExpertBot(None)


# ---------------------------------------------------------------------- the sampler
def test_samples_keep_everything_the_seat_has_seen_and_its_partners_signals():
    rng = np.random.default_rng(3)
    checked_signals, chants = 0, set()
    for deal, seat in positions(range(6)):
        view = deal.view(seat, events=False)
        if view.chant_agreed:  # the stock went to two recipients: this seat is one (it saw its discards) or not
            chants.add(bool(view.discards))
        hidden = HiddenCards(view)
        truth = deal.hands[seat.partner]
        # positive control: the true deal keeps every fact the sampler imposes
        assert set(hidden.partner_holds) <= set(truth)
        if hidden.partner_aces is not None:
            assert hidden.partner_aces == sum(1 for c in truth if c.rank == 1)
            checked_signals += 1
        if hidden.partner_useless:
            assert is_useless_hand(truth)
        assert set(hidden.unseen) == set(hidden_cards(deal, seat)) | set(hidden.partner_holds)
        seen = view.visible_cards()
        for _ in range(8):
            sampled = hidden.sampled_view(view, rng)
            assert sampled.seat is None and sampled.hands[seat] == view.hand
            cards = [c for s in SEATS for c in sampled.hands[s]]
            assert len(cards) == len(set(cards))  # no card twice
            for other in SEATS:
                assert len(sampled.hands[other]) == view.hand_sizes[other]
                if other is not seat:
                    assert not set(sampled.hands[other]) & seen  # never a card the seat has seen elsewhere
            partner = sampled.hands[seat.partner]
            assert set(hidden.partner_holds) <= set(partner)
            if hidden.partner_aces is not None:
                assert sum(1 for c in partner if c.rank == 1) == hidden.partner_aces
            if hidden.partner_useless:
                assert is_useless_hand(partner)
    assert checked_signals  # these seeds reach positions with an "aces" signal
    assert chants == {True, False}  # ... and chants seen from a recipient and from a seat that received nothing


def test_samples_reach_every_unseen_card_in_each_free_hand():
    # uniform among the consistent deals: every unseen card that the partner's signals do not place can be in each
    # opponent's hand
    deal, seat = next(positions([4], every=12))
    view = deal.view(seat, events=False)
    hidden = HiddenCards(view)
    rng = np.random.default_rng(0)
    where = {other: set() for other in (seat.left, seat.right)}
    for _ in range(400):
        hands = hidden.sample(rng)
        for other in where:
            where[other].update(hands[other])
    free = set(hidden.unseen) - set(hidden.partner_holds)
    aces = {c for c in hidden.unseen if c.rank == 1}
    if hidden.partner_aces is not None and hidden.partner_aces == len(aces):
        free -= aces  # the partner's "aces" signal counts every unseen ace: they are all in its hand
    assert hidden.partner_aces is not None and free  # the position tests a signal (seed 4: W signals one ace)
    assert all(cards == free for cards in where.values()), {s: free - cards for s, cards in where.items()}


def test_a_going_for_mordienne_signal_is_kept():
    deal = Deal.from_hands({"N": "3O 3C 2O 1O 12O 11O 10O 8O 7O", "E": "2C 9C 9O 1C 12C 11C 10C 8C 7C",
                            "S": "2B 2E 1B 12B 11B 10B 8B 7B 6B", "W": "1E 12E 11E 10E 8E 7E 6E 5E 4E"},
                           options=Options(chant=False))
    deal.signal(Seat.N, "mordienne")
    hidden = HiddenCards(deal.view(Seat.S, events=False))
    assert hidden.partner_named_at_least == 3
    rng = np.random.default_rng(1)
    for _ in range(30):
        assert sum(1 for c in hidden.sample(rng)[Seat.N] if c in NICKNAMED) >= 3


# ---------------------------------------------------------------------- secrecy
def test_the_bot_is_given_its_own_seats_view_only_and_refuses_more():
    deal = Deal.from_seed(21, options=Options(chant=False))
    bots = {seat: Recording(bot) for seat, bot in experts(21).items()}
    history = []

    class Audited(Recording):
        def choose(self, view, legal_moves=()):
            history.append((view, hidden_cards(deal, view.seat)))
            return super().choose(view, legal_moves)

    bots[Seat.S] = Audited(bots[Seat.S].bot)
    play_deal(deal, bots)
    assert len(history) >= 9
    for view, hidden in history:
        assert view.seat is Seat.S and set(view.hands) == {Seat.S}
        assert not view.visible_cards() & hidden  # the view it is given holds no hidden card
        assert view.hand  # positive control: its own cards are there
    with pytest.raises(AluetteError, match="own seat"):
        ExpertBot(0).choose(Deal.from_seed(3).view(None))


def test_the_choice_depends_on_the_view_only():
    # two deals that differ only in cards South cannot see (an unplayed card of E and one of W swapped): the same
    # view of South, the same move
    options = Options(chant=False)
    a = Deal.from_hands(Deal.from_seed(8, options=options).hands, options=options)
    while len(a.tricks) < 5 or a.to_move is not Seat.S:  # everyone plays low into the sixth trick
        a.apply(Play(a.to_move, a.legal_cards()[-1]))
    e, w = a.hands[Seat.E][0], a.hands[Seat.W][0]
    hands = {seat: a.dealt_hand(seat) for seat in SEATS}
    swap = {e: w, w: e}
    b = Deal.from_hands({seat: [swap.get(c, c) for c in hands[seat]] for seat in SEATS}, options=options)
    for move in a.moves:
        b.apply(move)
    assert a.view(Seat.S, events=False) == b.view(Seat.S, events=False) and a.hands != b.hands
    choice_a = ExpertBot(9, **FAST).choose(a.view(Seat.S, events=False))
    choice_b = ExpertBot(9, **FAST).choose(b.view(Seat.S, events=False))
    assert choice_a == choice_b and choice_a.reason.startswith("expert: ")


# ---------------------------------------------------------------------- an end position
# Dealer N, no chant: E leads. E wins tricks 1-3, S tricks 4-6, W trick 7; W leads trick 8, N and E follow, and E's
# la Vache (2C) is best when S, last, holds Monsieur (3O) and the 4 of swords. Monsieur gives S a fourth trick
# before anyone else (E has three): N-S score whatever happens in trick 9 (rules sheet, "scoring": a tie for most
# tricks goes to whoever reached the number first). The 4 leaves trick 8 to E, whose fourth trick comes first.
END_HANDS = {"E": "3C 2O 9C 2C 12O 12C 12B 12E 11O", "S": "3O 4E 9O 2B 2E 5O 5C 5B 5E",
             "W": "1O 6O 6C 6B 6E 7O 7C 7B 7E", "N": "8O 8C 8B 8E 10O 10C 10B 10E 11C"}
END_PLAY = ("E 3C, S 5O, W 6O, N 8O; E 2O, S 5C, W 6C, N 8C; E 9C, S 5B, W 6B, N 8B; E 12O, S 9O, W 6E, N 8E; "
            "S 2B, W 7O, N 10O, E 12C; S 2E, W 7C, N 10C, E 12B; S 5E, W 1O, N 10B, E 12E; W 7B, N 10E, E 2C")


def end_position() -> Deal:
    deal = Deal.from_hands(END_HANDS, options=Options(chant=False))
    for trick in END_PLAY.split("; "):
        for play in trick.split(", "):
            seat, card = play.split()
            deal.apply(Play(Seat.parse(seat), card))
    return deal


def test_in_a_decided_end_position_it_finds_the_one_right_card():
    deal = end_position()
    assert deal.to_move is Seat.S and [t.winner for t in deal.tricks] == [Seat.E] * 3 + [Seat.S] * 3 + [Seat.W]
    truth = solve(deal)  # the true deal, every hand open
    assert {c.code: v for c, v in truth.by_card.items()} == {"3O": 1, "4E": -1}
    decision = ExpertBot(2).choose(deal.view(Seat.S, events=False))
    assert decision.move == Play(Seat.S, "3O")
    assert decision.reason.startswith("expert: 3O (Monsieur) scores +1.00") and "next best 4E -1.00" in decision.reason


def test_bounds_and_their_fallbacks_are_said():
    deal = end_position()
    view = deal.view(Seat.S, events=False)
    starved = ExpertBot(2, max_nodes=1).choose(view)  # no sample can be solved in one card play
    assert starved.reason.startswith("heuristic (no sampled deal solved within the search budget)")
    assert starved.move in [Play(Seat.S, c) for c in view.hand]
    hurried = ExpertBot(2, time_limit=1e-9).choose(view)  # the limit is checked after each sample: one is solved
    assert hurried.reason.startswith("expert: ") and " over 1 sampled deal " in hurried.reason
    assert " over 24 sampled deals " in ExpertBot(2).choose(view).reason  # the default number of samples
    early = Deal.from_seed(5, options=Options(chant=False))
    first = ExpertBot(2).choose(early.view(early.to_move, events=False))
    assert first.reason.startswith("heuristic (first tricks: I solve from trick 3)")
    for bad in (dict(samples=0), dict(solve_from=10), dict(max_nodes=True), dict(time_limit=-1)):
        with pytest.raises(AluetteError):
            ExpertBot(0, **bad)


def test_a_solver_failure_is_said_not_hidden(monkeypatch):
    # the solver's own check ("a card keeps the value") raising AssertionError: the bot stops sampling and says so
    import aluette.analysis.expert as expert

    real, calls = expert.solve, []

    def failing_after(n):
        def solve(view, **bounds):
            calls.append(view)
            if len(calls) > n:
                raise AssertionError("no card keeps the value")
            return real(view, **bounds)
        return solve

    view = end_position().view(Seat.S, events=False)
    monkeypatch.setattr(expert, "solve", failing_after(2))
    decision = ExpertBot(2).choose(view)
    assert decision.move == Play(Seat.S, "3O") and len(calls) == 3
    assert " over 2 sampled deals " in decision.reason and decision.reason.endswith(
        "the solver failed on the next sample, so I stopped there")
    calls.clear()
    monkeypatch.setattr(expert, "solve", failing_after(0))
    assert ExpertBot(2).choose(view).reason.startswith("heuristic (the solver failed on the first sampled deal)")


# ---------------------------------------------------------------------- registered, offered, property-tested
def test_registered_as_a_kind_of_bot_and_seeded_per_seat():
    # issue 18 §5: offered beside the heuristic and random bots (the one registry, drivers.BOT_KINDS)
    from aluette.players.drivers import BOT_KINDS, expert_bot_at, make_bot
    from aluette.players.session import make_bots

    assert BOT_KINDS["expert"] == "expert bots"
    bot = make_bot("expert", "E", 7)
    assert isinstance(bot, ExpertBot) and bot.solve_from == 3  # the first two tricks by the heuristic
    with pytest.raises(AluetteError, match="need a seed"):
        make_bot("expert", "E")
    bots = make_bots(7, "expert")  # a person at S: partner and opponents are experts
    assert {seat: type(b).__name__ for seat, b in bots.items()} == {Seat.N: "ExpertBot", Seat.E: "ExpertBot",
                                                                   Seat.W: "ExpertBot"}
    deal = play_positions_deal()
    view = deal.view(deal.to_move)
    # the same seed and seat choose alike (all chance from an explicit seed); the seats draw apart
    assert expert_bot_at(7, deal.to_move).choose(view) == expert_bot_at(7, deal.to_move).choose(view)
    assert not np.array_equal(expert_bot_at(7, "N").rng.integers(1 << 30, size=4),
                              expert_bot_at(7, "E").rng.integers(1 << 30, size=4))


def play_positions_deal() -> Deal:
    """A deal at its fifth trick, played so far by heuristic bots: the expert's solver chooses there."""
    deal = Deal.from_seed(12, options=Options(chant=False))
    bots = {seat: HeuristicBot(signals=True) for seat in SEATS}
    from aluette.players.drivers import play_turn
    while len(deal.tricks) < 4:
        play_turn(deal, bots[deal.to_move])
    return deal


from hypothesis import given, settings  # noqa: E402  (the property tests of the registered kind)
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), chant=st.booleans(), surrender=st.booleans())
def test_property_the_registered_expert_plays_legal_moves_from_its_own_view_only(seed, chant, surrender):
    """Whatever the deal: every move of an expert (made by ``make_bot``, as 08 and 10 make it) is legal, and each
    view it is given is its own seat's and holds none of the cards that seat may not see (tests/test_properties.py's
    style; quality bar: a player's view never holds another player's hidden cards)."""
    from aluette.players.drivers import make_bot, next_bot_step

    deal = Deal.from_seed(seed, options=Options(chant=chant, surrender=surrender))
    audits = []

    class Audited:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, view, legal_moves=()):
            audits.append((view.seat, view.visible_cards() & hidden_cards(deal, view.seat), set(view.hands)))
            decision = self.bot.choose(view, legal_moves)
            assert deal.is_legal(decision.move), decision
            return decision

        def signals(self, view, legal_signals):
            made = self.bot.signals(view, legal_signals)
            assert all(d.move.key in legal_signals and d.move.seat is view.seat for d in made)
            return made

    bots = {}
    for seat in SEATS:
        bot = make_bot("expert", seat, seed, signals=True)
        bot.samples, bot.solve_from = 2, 6  # cheap bounds: the property, not the strength
        bots[seat] = Audited(bot)
    offered = False
    while not deal.is_over:
        step = next_bot_step(deal, bots, signals_offered=offered)
        offered = offered or step.signals
        for decision in step.decisions:
            deal.apply(decision.move)
    assert audits and all(not leaked and hands == {seat} for seat, leaked, hands in audits)


def test_its_signals_follow_the_sources_advice():
    """pagat.com (French page, "Signale"): « Les débutants ont tendance à signaler beaucoup trop. Il est inutile de
    signaler une carte à moins que votre partenaire ait réellement besoin des informations. En particulier, si un
    membre d'un partenariat a une main forte, il ne sert à rien de signaler des cartes au partenaire le plus faible
    [...] D'autre part, il peut être utile pour le partenaire le plus faible de signaler une bonne carte pouvant
    compléter la participation du joueur le plus fort. » The expert signals as the heuristic bot does: a strong hand
    nothing, a weaker one only its cards above a king (named cards, aces) or a useless hand; never a low card."""
    from aluette.players.bots import hand_strength
    from aluette.players.drivers import make_bot
    from aluette.signals import signal_for

    strong = weak = 0
    for seed in range(60):
        deal = Deal.from_seed(seed, options=Options(chant=False))
        for seat in SEATS:
            bot = make_bot("expert", seat, seed, signals=True)
            view = deal.view(seat, events=False)
            made = bot.signals(view, deal.legal_signals(seat))
            if hand_strength(view.hand) >= HeuristicBot.signal_strong:
                assert made == []  # a strong hand signals nothing: it would only alert the opponents
                strong += 1
                continue
            weak += 1
            for decision in made:
                kind = decision.move.key
                card = signal_for(kind).card
                assert (card is not None and card in view.hand and card.strength > 10) or kind in ("aces", "useless")
            assert len(made) <= sum(1 for c in view.hand if c.strength > 10) + 1  # no more than its good cards
    assert strong and weak  # both kinds of hand met
    assert make_bot("expert", "N", 1, signals=False).signals(Deal.from_seed(1).view(Seat.N), ["aces"]) == []


# ---------------------------------------------------------------------- at a shared table (aluette.store)
class Gated(Recording):
    """A table's bot that, once armed, stops in its first card choice until released: an expert thinking."""

    def __init__(self, bot):
        super().__init__(bot)
        import threading

        self.armed, self.thinking, self.release = False, threading.Event(), threading.Event()
        self.timed_out = False

    def choose(self, view, legal_moves=()):
        if self.armed and view.phase is Phase.PLAY:
            self.armed = False
            self.views.append(view)
            self.thinking.set()
            self.timed_out = not self.release.wait(300)  # a deadlock fails the test, it never hangs it
            self.decisions.append(None)  # the stale choice: recorded, dropped by the table
            return self.bot.choose(view, legal_moves)
        return super().choose(view, legal_moves)


@pytest.fixture
def table_bots(monkeypatch):
    """The bots the shared tables make (``aluette.store.service._table_bot``), wrapped in :class:`Gated`, by seat."""
    from aluette.store import service as service_module

    made, real = {}, service_module._table_bot

    def wrapped(kind, seat, seed, signals):
        bot = made.setdefault(seat, Gated(None))
        bot.bot = real(kind, seat, seed, signals)  # a new bot per step, as the table makes them
        bot.kind = kind
        return bot
    monkeypatch.setattr(service_module, "_table_bot", wrapped)
    return made


def _heuristic_turn(service, name, ticket) -> bool:
    """N (a person) makes its move if it is its turn; whether it did."""
    state = service.seat_state(name, "N", ticket.code)
    if state.view.to_move is not Seat.N:
        return False
    service.submit(name, "N", ticket.code, HeuristicBot().choose(state.view).move, after=state.seq)
    return True


def test_a_host_seats_expert_bots_that_play_from_their_own_views_only(tmp_path, table_bots):
    # issue 18 §5 (offered in play together) and the quality bar: a view never holds another seat's hidden card
    from aluette.errors import TableError
    from aluette.store import TableService, TeacherDesk
    from aluette.store.db import SQLiteStore

    service = TableService(SQLiteStore(tmp_path / "t.sqlite3"))
    try:
        service.create_table("t", seed=3)
        ticket = service.take_seat("t", "N", "Ann")
        with pytest.raises(TableError, match="unknown kind of bot 'wizard'"):
            service.fill_with_bots("t", "N", ticket.code, kind="wizard")
        assert service.table_info("t").free_seats == (Seat.E, Seat.S, Seat.W)  # refused: nothing changed
        assert service.fill_with_bots("t", "N", ticket.code, kind="expert") == (Seat.E, Seat.S, Seat.W)
        while not service.replay("t").current.tricks:  # the chant, the signals, the first trick
            assert _heuristic_turn(service, "t", ticket) or service.step_bots("t")
        deal = service.replay("t").current
        assert {seat: (bot.kind, type(bot.bot).__name__) for seat, bot in table_bots.items()} == {
            seat: ("expert", "ExpertBot") for seat in (Seat.E, Seat.S, Seat.W)}
        for seat, bot in table_bots.items():
            assert bot.views and all(view.seat is seat for view in bot.views)
            for view in bot.views:  # no card still hidden from the seat now was in a view it was given before
                assert not view.visible_cards() & set(hidden_cards(deal, seat))
                assert set(view.hands) == {seat} and not set(view.discards) - {seat}
        # the teacher's bot at a seat may be an expert too
        desk = TeacherDesk(service)
        with pytest.raises(TableError, match="unknown kind of bot"):
            desk.replace_with_bot("t", "N", kind=3)
        desk.replace_with_bot("t", "N", kind="expert")
        for _ in range(40):  # a table of four bots now: until N's bot chose a card
            if Seat.N in table_bots and table_bots[Seat.N].decisions:
                break
            assert service.step_bots("t")
        assert table_bots[Seat.N].kind == "expert" and type(table_bots[Seat.N].bot).__name__ == "ExpertBot"
    finally:
        service.close()


def test_an_expert_thinks_outside_the_write_lock_and_never_plays_on_a_stale_state(tmp_path, table_bots):
    # issue 18 §5: an expert's move is chosen outside the store's write transaction (other pages' writes are never
    # held up), then written only if the table did not move on (else chosen again on the new state)
    import threading

    from aluette.match import Match
    from aluette.moves import Signal
    from aluette.store import TableService
    from aluette.store.db import SQLiteStore

    ann = TableService(SQLiteStore(tmp_path / "t.sqlite3"))  # N's page
    driver = TableService(SQLiteStore(tmp_path / "t.sqlite3"))  # the process driving the bots (a watcher's own)
    try:
        for seed in range(20):  # the first seed where S (a bot) is to play a card while N may still signal
            name = f"t{seed}"
            ann.create_table(name, seed=seed)
            ticket = ann.take_seat(name, "N", "Ann")
            ann.fill_with_bots(name, "N", ticket.code, kind="expert")
            state = ann.seat_state(name, "N", ticket.code)
            while not (state.view.phase is Phase.PLAY and state.view.to_move is Seat.S) and not state.view.tricks:
                assert _heuristic_turn(ann, name, ticket) or driver.step_bots(name)
                state = ann.seat_state(name, "N", ticket.code)
            if state.view.to_move is Seat.S and state.legal_signals:
                break
        else:
            pytest.fail("no seed of 0-19 gives the position")
        bot = table_bots[Seat.S]
        bot.armed = True
        thread = threading.Thread(target=driver.run_bots, args=(name, 5), daemon=True)
        thread.start()
        assert bot.thinking.wait(300), "S never chose its card"
        # while S thinks: N's signal is accepted (the database's write lock is free), and the bots' own session
        # still reads (its lock is free too)
        signal_seq = ann.submit(name, "N", ticket.code, Signal(Seat.N, state.legal_signals[0]))
        assert driver.table_info(name).ready
        bot.release.set()
        thread.join(300)
        assert not thread.is_alive() and not bot.timed_out
        stale, fresh = bot.views[-2], bot.views[-1]  # the choice made again after N's signal
        assert bot.decisions[-2] is None and bot.decisions[-1] is not None
        assert not any(r.seat is Seat.N for r in stale.signals) and any(r.seat is Seat.N for r in fresh.signals)
        # the card S played is the one chosen on the state it was written on, whose view S was given
        match = driver.replay(name)
        moves = match.current.moves
        at = next(i for i, m in enumerate(moves) if isinstance(m, Play) and m.seat is Seat.S)
        assert moves[at] == bot.decisions[-1].move and signal_seq < driver.seq(name)
        replayed = Match(seed, first_dealer=Seat.N).current
        for move in moves[:at]:
            replayed.apply(move)
        assert replayed.view(Seat.S, events=False) == fresh
    finally:
        ann.close()
        driver.close()
