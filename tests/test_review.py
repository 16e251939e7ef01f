"""Review your deal (issue 18 §2, :mod:`aluette.analysis.review`, :mod:`aluette.widgets.review`).

The verdicts are checked against :func:`aluette.solve` run on the real deal (not the review's rebuilt one), at the
position before each of the seat's cards, with the issue's definitions: "best" keeps the best result the side could
reach, "mordienne missed" loses a mordienne the side could still make (2 to 1), "lost the deal" turns a win into no
win, "cost your side a point" is any other loss. Secrecy (the project's quality bar; the rules sheet, "setup": the
discards are face down, the unused stock is never seen): nothing is reviewed before the deal's end, and no review
names a card that was not played. How long a review takes is measured in ``tests/benchmarks/bench_review.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from aluette import Deal, Options, Phase, Play, Seat, SEATS, Team, WrongPhaseError, solve
from aluette.analysis.review import (HINDSIGHT, Verdict, played_deal, positions, review_deal, work_out)
from aluette.players.bots import HeuristicBot, RandomBot
from aluette.players.drivers import bots_for, play_deal
from aluette.scenario import rewound
from aluette.secrecy import secrecy_problems
from aluette.widgets.common import state_text
from aluette.widgets.match import MatchTable

S = Seat.S
FAST_FROM = 3  # the tricks checked against the solver here (the first two are dear: the benchmark's business)


def mixed_deal(seed: int, options=None) -> Deal:
    """A seeded deal played out by heuristic bots at N-S and random bots at E-W (so mistakes happen)."""
    deal = Deal.from_seed(seed, dealer=SEATS[seed % 4], options=options)
    bots = {seat: HeuristicBot(signals=True) if seat.team is Team.NS else RandomBot(np.random.SeedSequence([seed, i]))
            for i, seat in enumerate(SEATS)}
    play_deal(deal, bots)
    return deal


def expected_verdict(best: int, result: int) -> Verdict:
    # the four verdicts, in its words (§2), from the side's point of view
    if result == best:
        return Verdict.BEST
    if best == 2 and result == 1:
        return Verdict.MORDIENNE_MISSED
    if best > 0 >= result:
        return Verdict.LOST
    return Verdict.COST


@pytest.mark.parametrize("seed", [3, 11])
def test_verdicts_agree_with_the_solver_on_the_real_deal(seed):
    deal = mixed_deal(seed)
    plays = [i for i, m in enumerate(deal.moves) if isinstance(m, Play)]
    rebuilt, found = positions(deal.view(S))
    checked = 0
    for seat in (S, Seat.E):
        rebuilt, found = positions(deal.view(seat))
        sign = 1 if seat.team is Team.NS else -1
        for pos in found:
            if pos.trick < FAST_FROM:
                continue
            move = work_out(rebuilt, pos)
            real = rewound(deal, plays[4 * (pos.trick - 1) + pos.place - 1])  # the real deal, chant and all
            assert real.to_move is seat and real.legal_cards() == tuple(pos.hand)
            solution = solve(real)
            assert move.best == sign * solution.value
            assert move.result == sign * solution.by_card[pos.played]
            assert dict(move.by_card) == {c: sign * v for c, v in solution.by_card.items()}
            assert move.verdict is expected_verdict(move.best, move.result)
            assert set(move.best_cards) == {c for c, v in move.by_card.items() if v == move.best}
            checked += 1
    assert checked == 14  # tricks 3-9, two seats


@pytest.mark.parametrize("options", [Options(surrender=True, surrender_until="last_trick"),
                                     Options(rebour="announced")])
def test_the_rebuilt_play_is_the_deal_from_the_first_lead(options):
    # the public questions between the chant and the play (and between tricks) are replayed as they were answered
    def played(seed):
        deal = Deal.from_seed(seed, options=options)
        play_deal(deal, bots_for("heuristic", seed, signals=True))
        return deal

    deal = next(d for d in map(played, range(50)) if len(d.tricks) == 9 and d.view(None).announcements
                + d.view(None).surrender_spoken)
    rebuilt = played_deal(deal.view(Seat.W))
    first = next(i for i, m in enumerate(deal.moves) if isinstance(m, Play))
    again = next(i for i, m in enumerate(rebuilt.moves) if isinstance(m, Play))
    assert dict(rewound(rebuilt, again).hands) == dict(rewound(deal, first).hands)
    assert [m for m in rebuilt.moves if isinstance(m, Play)] == [m for m in deal.moves if isinstance(m, Play)]
    assert dict(rebuilt.result.points) == dict(deal.result.points)


def test_nothing_is_reviewed_before_the_deals_end():
    deal = Deal.from_seed(8)
    bots = bots_for("heuristic", 8, signals=True)
    ended = Deal.from_seed(8)
    play_deal(ended, bots)
    for k in range(len(ended.moves)):
        view = rewound(ended, k).view(S)
        with pytest.raises(WrongPhaseError, match="once the deal is over"):
            review_deal(view)
        with pytest.raises(WrongPhaseError):
            positions(view)
    assert review_deal(ended.view(S), first_trick_nodes=1, max_nodes=1).seat is S
    del deal


def test_a_surrendered_deal_is_not_reviewed():
    for seed in range(200):
        deal = Deal.from_seed(seed, options=Options(surrender=True, chant=False))
        play_deal(deal, bots_for("heuristic", seed))
        if deal.result.surrender_accepted:
            break
    else:  # pragma: no cover
        pytest.fail("no accepted surrender in 200 seeded deals")
    with pytest.raises(WrongPhaseError, match="surrender"):
        review_deal(deal.view(S))


def test_no_review_names_a_card_that_was_not_played():
    # chant agreed: discards and stock cards exist, and S may have discarded; none of it is in the review
    for seed in range(40):
        deal = mixed_deal(seed)
        if deal.view(None).chant_agreed:
            break
    played = {c for t in deal.tricks for c in t.cards}
    hidden = set(deal.view(None).discards.get(Seat.N, ())) | set(deal.view(None).discards.get(Seat.E, ())) \
        | set(deal.view(None).discards.get(S, ())) | set(deal.view(None).discards.get(Seat.W, ()))
    assert len(hidden) == 12 and not hidden & played
    review = review_deal(deal.view(S), first_trick_nodes=1, max_nodes=1)  # budgets run out: text still shown
    for move in review.moves:
        cards = {*move.hand, *(c for _, c in move.table), move.played, *move.by_card, *move.best_cards}
        assert cards <= played
        assert not any(card.code in move.text().split() for card in hidden)
        assert move.verdict is Verdict.NOT_WORKED_OUT and not move.by_card and move.best is None
        assert "budget" in move.text()


def test_not_worked_out_is_never_a_guess_and_find_a_better_card():
    deal = mixed_deal(3)
    rebuilt, found = positions(deal.view(S))
    tiny = work_out(rebuilt, found[0], max_nodes=1)
    assert tiny.verdict is Verdict.NOT_WORKED_OUT and tiny.best is None and tiny.result is None
    with pytest.raises(Exception, match="not worked out"):
        tiny.try_card(found[0].played)
    moves = [work_out(rebuilt, p) for p in found if p.trick >= FAST_FROM]
    for move in moves:
        for card in move.hand:
            right, said = move.try_card(card)
            assert right == (move.by_card[card] == move.best and card.strength != move.played.strength)
            assert said
    with pytest.raises(Exception, match="not in your hand"):
        moves[-1].try_card(next(c for c in Deal.from_seed(0).hands[S] if c not in moves[-1].hand))
    assert "hindsight" in HINDSIGHT


def test_the_panel_in_the_match_table_appears_only_after_the_deal():
    t = MatchTable(seed=1, bot_delay=0)  # seed 1: South's heuristic cards miss a mordienne in trick 3
    while not t.deal.is_over:
        assert t.review_panel is None  # made at the first deal's end
        assert "Review of your deal" not in state_text(t)
        t.follow_hint()
    panel = t.review_panel
    assert panel.layout.display is None and "hindsight" in panel.head.value
    # the panel hides its own controls only: its Find button shared the table's layout, and hiding it hid the status,
    # the trick, the hand and Next deal of every page at each deal's end (seen in the browser, issue 23 §6)
    shown = [t, t.status, t.table, t.hand_box, t.next_button]
    assert panel.find_button.layout.display == "none" and all(x.layout.display != "none" for x in shown)
    panel.first_trick_nodes, panel.max_nodes = 1_000, 1_500_000
    review = panel.work_out()
    assert review is not None and len(review.moves) == 9
    assert secrecy_problems(state_text(t), t.deal, S, where="the widget state") == []
    mistake = review.mistakes[0]
    best = " or ".join(map(str, mistake.best_cards))
    assert best not in panel.rows.value  # the answer only on request
    assert panel.find_better() is mistake
    assert best not in panel.position_view.value + panel.feedback.value
    assert [b.description.split()[0] for b in panel.card_row.children] == [c.code for c in mistake.hand]
    assert panel.try_card(mistake.played) is False
    assert panel.try_card(mistake.best_cards[0]) is True
    assert panel.show_answer() == mistake.best_cards and best in panel.feedback.value
    t.next_deal()
    assert panel.layout.display == "none" and panel.review is None and "Review of your deal" not in state_text(t)
    while not t.deal.is_over:
        t.follow_hint()
    assert panel.layout.display is None and panel.review is None  # the second deal's review, not the first's
    t.close()
    assert panel.comm is None


def test_with_an_event_loop_the_review_is_worked_out_in_the_background_and_the_loop_stays_free():
    """In JupyterLab and the classroom app a loop runs: the panel hands the work to its worker process and the loop
    keeps running (clicks are answered) until every row is in; a result of a deal no longer shown is dropped."""
    import asyncio

    from aluette.widgets.review import ReviewPanel
    from tests.coroutines import run

    deal = mixed_deal(3)
    panel = ReviewPanel("aluette-test", first_trick_nodes=1_000, max_nodes=400_000)

    async def main():
        panel.show(deal.view(S))
        assert panel.review is None and "0 of 9 done" in panel.head.value  # nothing worked out inside the call
        ticks = 0
        for _ in range(2400):  # at most 120 s (the worker starts and loads the solver first)
            if panel.review is not None:
                break
            await asyncio.sleep(0.05)
            ticks += 1
        return ticks

    ticks = run(main())
    assert panel.review is not None and len(panel.review.moves) == 9 and ticks >= 1  # the loop ran meanwhile
    assert all(m.worked_out or m.why for m in panel.review.moves)
    assert "9 cards:" in panel.head.value and panel.rows.value.count("<li>") == 9
    panel.show(Deal.from_seed(3).view(S))  # a new deal: hidden, the old review gone
    assert panel.layout.display == "none" and panel.review is None
    panel.close()


def test_a_worker_that_died_is_replaced_and_the_next_review_is_worked_out():
    """The review's worker process may die (killed, out of memory): the pool is then broken for good, and every
    later review of the page would fail at its first submit. The panel starts a new worker instead."""
    import asyncio
    import os
    import signal

    from aluette.widgets import review
    from aluette.widgets.review import ReviewPanel
    from tests.coroutines import run

    panel = ReviewPanel("aluette-test", first_trick_nodes=1_000, max_nodes=400_000)

    async def reviewed(deal):
        panel.show(deal.view(S))
        for _ in range(2400):  # at most 120 s (a new worker starts and loads the solver first)
            if panel.review is not None:
                return panel.review
            await asyncio.sleep(0.05)
        return None

    async def main():
        first = await reviewed(mixed_deal(3))
        old = review._POOL
        for pid in list(old._processes):
            os.kill(pid, signal.SIGKILL)
        for _ in range(200):  # the pool notices its worker's death (at most 10 s)
            if old._broken:
                break
            await asyncio.sleep(0.05)
        assert old._broken, "the killed worker was not noticed"
        return first, await reviewed(mixed_deal(4)), old

    first, second, old = run(main())
    assert first is not None and second is not None and len(second.moves) == 9
    assert review._POOL is not old  # a new worker did the second review
    assert all(m.worked_out or m.why for m in second.moves)
    panel.close()


def test_the_review_in_play_together_is_drawn_from_the_seats_view(tmp_path):
    """Notebook 10's seat view is the same SeatTable: at a shared table the Review appears at the deal's end, from
    the student's own view, and the page's state still names no card hidden from the student."""
    from aluette.store import TableService, open_store
    from aluette.together import SeatController
    from aluette.widgets.together import PlayTogether

    service = TableService(open_store(path=tmp_path / "tables.sqlite3"))
    ann = PlayTogether(SeatController(service), poll=False)
    service.create_table("Solo", seed=7)
    ann.table_box.value, ann.name_box.value = "Solo", "Ann"
    ann.seat_buttons[S].click()
    ann.fill_button.click()
    for _ in range(400):
        ann.refresh()
        view = ann.controller.state.view
        if view.phase is Phase.OVER:
            break
        seat = ann.seat_table
        assert seat.review_panel is None or seat.review_panel.layout.display == "none"
        if view.to_move is S:
            seat.follow_hint()
    assert ann.controller.state.view.phase is Phase.OVER
    panel = ann.seat_table.review_panel
    assert panel is not None and panel.layout.display is None and "Review of your deal" in panel.head.value
    panel.first_trick_nodes, panel.max_nodes = 1_000, 1_000  # tiny budgets: the rows, not the search
    review = panel.work_out()
    assert len(review.moves) == 9 and panel.rows.value.count("<li>") == 9
    deal = service.replay("Solo").current
    assert secrecy_problems(state_text(ann), deal, S, where="Ann's page") == []
    ann.close()
    service.close()
