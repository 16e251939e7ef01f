"""Practice tasks written as data (issue 20, §1): every kind's generator gives tasks whose right answer, found here
with the engine's own functions, is accepted and whose wrong answer is refused, over many seeds; the same seed gives
the same task; hints cost what they say; bad answers get the project's errors and change nothing; a failed task
comes back varied; a session's dict goes round and is checked on load.

Rule sources, as in the engine: the rules sheet ("gameplay": the highest card wins, a tie for the highest spoils the
trick; "card rankings"; "scoring"; "setup": the chant) and pagat.com (first to reach, mordienne, its example deals,
the fourth player beats cheaply or spoils); the signal table of the rules sheet and trictrac.net.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from pathlib import Path

import pytest

from aluette import (DECK, Card, Deal, DuplicateCardError, HeuristicBot, DuplicateSeatError, MalformedSaveError, Options, Seat,
                     UnknownCardError, UnknownSeatError, parse_outcomes, partnership_draw, score_tricks, trick_winner)
from aluette.card_names import seat_name
from aluette.errors import AluetteError, AnswerError, InputTooLongError
from aluette.practice import (KINDS, LESSONS, MAX_ANSWER_TEXT, MAX_TASKS, RETRY_COST, RULES, PracticeSession,
                              task_from_seed)
from aluette.practice.kinds import PlayPosition, ScorePosition, StillPosition, TrickPosition
from aluette.records import Hand
from aluette.signals import SIGNALS
from aluette.tricks import best_of

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(120)


# ------------------------------------------------------------------------------ right and wrong, found by the engine
def words(text: str) -> set[str]:
    """The words of ``text``, with the full name of each seat letter and the names of each card code in it (so that
    an explanation that says "East" or "Madame" is caught giving away an answer written "E" or "3C")."""
    found = set(re.findall(r"[\w']+", text))
    for word in list(found):
        if word in "NESW" and len(word) == 1:
            found.add(seat_name(Seat(word)))
        else:
            try:
                card = Card.parse(word)
            except AluetteError:
                continue
            found |= {w for w in re.findall(r"[\w']+", card.name) if not w.isdigit()} - {"of", "de", "la", "le"}
    return found


def answers(task) -> tuple[str, str | None]:
    """A right answer and a wrong one (``None`` when the position has none), worked out here from the position with
    the engine's functions, not from the task's own judge."""
    pos = task.position
    if task.kind == "winner":
        cards = [card for _, card in pos.plays]
        index = trick_winner(cards)  # the rules sheet, "gameplay"
        if index is None:
            return "spoiled", cards[0].code
        return cards[index].code, ("spoiled" if index else cards[1].code)
    if task.kind == "order":
        ranked = Hand(pos.cards)  # the engine's order, high to low
        wrong = None if ranked[0].ties(ranked[-1]) else " ".join(c.code for c in reversed(ranked))
        return " ".join(c.code for c in ranked), wrong
    if task.kind == "setup":
        if pos.names:  # the rules sheet, "setup": Monsieur with Madame, le Borgne with la Vache; Madame deals first
            draw = partnership_draw(pos.names, pos.seed)
            holder = {card.nickname: name for name, card in draw.top_card.items()}
            pairs = {"Monsieur": "Madame", "Madame": "Monsieur", "le Borgne": "la Vache", "la Vache": "le Borgne"}
            right = (holder["Madame"] if pos.question == "first-dealer"
                     else holder[pairs[draw.top_card[pos.about].nickname]])
            return right, next(name for name in pos.names if name != right)
        seats = list(Seat)  # clockwise N, E, S, W: the dealer's right cuts, the dealer's left is dealt and leads
        at = seats.index(pos.dealer)
        right = {"cut": seats[at - 1], "next-dealer": seats[(at + 1) % 4], "first-packet": seats[(at + 1) % 4],
                 "first-lead": Deal.from_seed(pos.seed, dealer=pos.dealer, options=Options(chant=False)).to_move
                 }[pos.question]
        return right.value, seats[(seats.index(right) + 2) % 4].value
    if task.kind == "still":
        finishes = (pos.played + rest for rest in itertools.product((*Seat, None), repeat=9 - len(pos.played)))
        possible = any(score.winner is pos.seat and (pos.question == "win" or score.mordienne)
                       for score in map(score_tricks, finishes))
        return ("yes", "no") if possible else ("no", "yes")
    if task.kind == "score":
        score = score_tricks(pos.outcomes)
        if score.winner is None:
            return "nobody", "N 1"
        return f"{score.winner} {score.points}", f"{score.winner} {3 - score.points}"
    if task.kind == "chant":
        deal = Deal.from_seed(pos.deal_seed, dealer=pos.dealer, options=pos.options)
        for seat, agree in pos.answers:
            deal.answer_chant(seat, agree)
        counts = {seat: len(deal.hands[seat]) for seat in Seat}
        right = ", ".join(f"{seat} {n}" for seat, n in counts.items())
        wrong = ", ".join(f"{seat} {24 - n}" for seat, n in counts.items())  # 9 <-> 15
        return right, wrong
    if task.kind == "signal":
        letters = "ABCD"
        right = pos.choices.index(pos.key)
        return letters[right], letters[(right + 1) % 4]
    if task.kind == "play":
        outcome = {card: best_of(list(pos.plays) + [(pos.seat, card)]) for card in pos.hand}
        winners = [c for c in pos.hand if outcome[c] is pos.seat]
        spoilers = [c for c in pos.hand if outcome[c] is None]
        good = winners or spoilers
        cheapest = min(good, key=lambda c: c.strength)
        wrong = next((c for c in pos.hand if c.strength != cheapest.strength), None)
        return cheapest.code, None if wrong is None else wrong.code
    if task.kind.startswith("puzzle"):  # the solver, with every hand open (issue 18 §4)
        from aluette import solve
        deal = task.position.deal()
        solution = solve(deal)
        wrong = next((c for c in deal.legal_cards() if solution.by_card[c] != solution.value), None)
        return solution.best_cards[0].code, None if wrong is None else wrong.code
    raise AssertionError(task.kind)


@pytest.mark.parametrize("kind", sorted(KINDS))
class TestEveryKind:
    def test_right_accepted_wrong_refused_over_many_seeds(self, kind):
        wrongs = 0
        for seed in SEEDS:
            task = task_from_seed(kind, seed)
            assert task.kind == kind and task.rule.key in RULES
            right, wrong = answers(task)
            verdict = task.check(right)
            assert verdict.right and verdict.points == task.points and verdict.over, (seed, task.prompt, right)
            assert verdict.answer == task.solution()
            if wrong is None:
                continue
            wrongs += 1
            verdict = task.check(wrong)
            assert not verdict.right and verdict.points == 0, (seed, task.prompt, wrong)
            assert verdict.rule is not None and verdict.rule.where in verdict.explanation
            assert (verdict.answer is None) is (task.tries > 1)  # the answer only once the task is over
        assert wrongs >= len(SEEDS) * 0.9

    def test_a_wrong_answer_with_a_try_left_is_told_what_is_wrong_not_the_answer(self, kind):
        """lichess's practice, the project's model (STYLE.md): feedback on the learner's own move, the answer only
        when asked or when the tries are spent. With a try left, the explanation names no card, seat or word of the
        right answer that the wrong answer does not hold; at the last try the whole reason comes, with the answer."""
        told = checked = 0
        for seed in SEEDS:
            task = task_from_seed(kind, seed)
            right, wrong = answers(task)
            if wrong is None or task.tries < 2:  # one try: a wrong answer ends the task, with the answer
                continue
            checked += 1
            first = task.check(wrong)
            assert not first.over and first.answer is None
            said = first.explanation.split(" The rule: ")[0]
            assert words(said) & (words(right) - words(wrong)) == set(), (seed, task.prompt, right, wrong, said)
            last = task.check(wrong, wrong_tries=task.tries - 1)
            assert last.over and last.answer == task.solution()
            told += said != last.explanation.split(" The rule: ")[0]
        if not checked:
            pytest.skip(f"every {kind} task here has one try")
        assert told >= 1 or KINDS[kind].nudge is None  # a kind with a nudge says less before the last try

    def test_same_seed_same_task_neighbours_differ(self, kind):
        assert task_from_seed(kind, 12345) == task_from_seed(kind, 12345)
        tasks = [task_from_seed(kind, seed) for seed in range(40)]
        assert len({task.id for task in tasks}) == 40
        if kind.startswith("puzzle"):  # drawn from the shipped puzzles of its reason (a handful each)
            assert len({task.position for task in tasks}) >= 4
            return
        assert len({task.position for task in tasks}) == 40
        # the chant has 40 cases (dealers, answers, variant), the deal's questions of setup 16: prompts repeat
        assert len({task.prompt for task in tasks}) >= {"chant": 12, "setup": 20}.get(kind, 30)

    def test_hints_cost_what_they_say(self, kind):
        task = task_from_seed(kind, 5)
        right, _ = answers(task)
        assert task.hints and all(h.cost > 0 for h in task.hints)
        for used in range(len(task.hints) + 1):
            cost = sum(h.cost for h in task.hints[:used])
            assert task.check(right, hints_used=used).points == max(0, task.points - cost)

    def test_bad_answers_get_clear_errors(self, kind):
        task = task_from_seed(kind, 9)
        with pytest.raises(InputTooLongError) as error:
            task.parse("3O " * 1000)
        assert "3O 3O" not in str(error.value) and str(MAX_ANSWER_TEXT) in str(error.value)
        for empty in ("", "   "):
            with pytest.raises(AnswerError, match="empty"):
                task.parse(empty)
        with pytest.raises(AnswerError, match="text"):
            task.parse(None)
        with pytest.raises(AluetteError) as error:
            task.parse("zz" * 60)  # a long unknown word: the message quotes a short prefix only
        assert len(str(error.value)) < 600 and "zz" * 30 not in str(error.value)


class TestTheRules:
    def test_every_rule_is_taught_where_it_says(self):
        # the section named is a heading of the lesson's notebook, as written there
        for rule in RULES.values():
            notebook = json.loads((ROOT / "notebooks" / rule.notebook).read_text(encoding="utf-8"))
            headings = {line.lstrip("#").strip() for cell in notebook["cells"] if cell["cell_type"] == "markdown"
                        for line in "".join(cell["source"]).splitlines() if line.startswith("#")}
            assert rule.section in headings, (rule.key, rule.notebook)

    @pytest.mark.parametrize("notation, answer", [
        ("SENWSEXNW", "S 1"),   # pagat's example 1: all four have two, S reached two first
        ("XSENXWSSS", "S 1"),   # pagat's example 4: S won trick 2 too, so no mordienne
        ("EXWEWNNNX", "N 1"),   # pagat: a spoiled last trick breaks the run (decision mordienne-spoiled-breaks-run)
        ("NEWXSSSSS", "S 2"),   # mordienne: S won tricks 5-9 in a run after tricks it did not win
        ("XXXXXXXXX", "nobody"),  # decision all-nine-spoiled
    ])
    def test_scoring_pagats_examples(self, notation, answer):
        task = dataclasses.replace(task_from_seed("score", 1), position=ScorePosition(parse_outcomes(notation)))
        assert task.check(answer).right
        assert not task.check("W 1").right

    @pytest.mark.parametrize("played, question, answer", [
        ("NWSEWE", "mordienne", "no"),   # notebook 09 (NWSEWENNN): North's first trick breaks the run
        ("WWSEXE", "mordienne", "yes"),  # North wins the last three and has the most: NS scores 2
        ("NNNNEE", "mordienne", "no"),   # won trick 1: no trick comes before the run
        ("EEEEEX", "win", "no"),         # E has five tricks, N can reach three at most
        ("EEXNNX", "win", "yes"),
    ])
    def test_still_possible(self, played, question, answer):
        position = StillPosition(tuple(parse_outcomes(played + "X" * (9 - len(played))))[:len(played)], Seat.N,
                                 question)
        task = dataclasses.replace(task_from_seed("still", 1), position=position)
        assert task.check(answer).right
        assert not task.check({"yes": "no", "no": "yes"}[answer]).right

    def test_scoring_partner_is_not_the_winner(self):
        # the rules sheet, "scoring": partners do not pool their tricks (N 3 + S 2 against E 4)
        task = dataclasses.replace(task_from_seed("score", 1), position=ScorePosition(parse_outcomes("NENENESWS")))
        assert task.check("N 1").right
        verdict = task.check("S 1")
        assert not verdict.right and verdict.rule is RULES["best-single-player"]

    def test_winner_spoiled_trick(self):
        # the rules sheet, "gameplay": two aces tie for the best card, the trick is spoiled
        plays = tuple(zip(Seat.E.clockwise_from(), (DECK[0], DECK[12 * 3 + 11], DECK[12 * 3], DECK[12 + 3])))
        task = dataclasses.replace(task_from_seed("winner", 1), position=TrickPosition(plays))
        assert task.check("spoiled").right and task.check("nobody").right
        verdict = task.check("1O")
        assert not verdict.right and verdict.rule is RULES["equal-classes-spoil"]

    def test_play_last_beats_cheaply_or_spoils(self):
        # notebook 04's two positions (pagat.com: beat the best card as cheaply as possible, or spoil)
        cheap = PlayPosition(((Seat.N, card("5O")), (Seat.E, card("7C")), (Seat.S, card("12B"))), Seat.W,
                             Hand("3O 1E 1B 4E 5E"))
        task = dataclasses.replace(task_from_seed("play", 1), position=cheap)
        assert task.check("1E").right and task.check("ace of batons").right
        assert not task.check("Monsieur").right  # it wins, but an ace wins too and costs less
        spoil = PlayPosition(((Seat.N, card("4C")), (Seat.E, card("6O")), (Seat.S, card("1O"))), Seat.W,
                             Hand("1B 4E 12E 5C 6B"))
        task = dataclasses.replace(task, position=spoil)
        assert task.check("1B").right and not task.check("4E").right

    def test_play_agrees_with_the_heuristic_bot(self):
        # pagat.com's advice for the fourth player, as HeuristicBot plays it: each task's position is set up as the
        # first trick of a real deal (the hand filled up with cards below the best one, which change nothing) and
        # the bot's card must be one the task accepts
        checked = 0
        for seed in SEEDS:
            task = task_from_seed("play", seed)
            pos = task.position
            best = max(card.strength for _, card in pos.plays)
            used = set(pos.hand) | {card for _, card in pos.plays}
            spare = [c for c in DECK if c not in used and c.strength < best]
            if len(spare) < 4:
                continue
            rest = iter(c for c in DECK if c not in used and c not in spare[:4])
            hands = {seat: [card] + [next(rest) for _ in range(8)] for seat, card in pos.plays}
            hands[pos.seat] = list(pos.hand) + spare[:4]
            deal = Deal.from_hands(hands, dealer=pos.plays[0][0].right, options=Options(chant=False))
            for seat, played in pos.plays:
                deal.play(seat, played)
            decision = HeuristicBot().choose(deal.view(pos.seat), deal.legal_moves())
            assert task.check(decision.move.card.code).right, (seed, decision.reason)
            checked += 1
        assert checked >= len(SEEDS) // 2

    def test_chant_variant_and_refusal(self):
        # the rules sheet, "setup": the stock goes to the dealer's left and the dealer; the variant's partner
        for seed in range(60):
            task = task_from_seed("chant", seed)
            pos = task.position
            agreed = all(agree for _, agree in pos.answers) and len(pos.answers) == 4
            variant = pos.options == Options(chant_recipients="left_and_partner")
            second = (pos.dealer.partner if variant else pos.dealer)
            expected = {seat: 15 if agreed and seat in (pos.dealer.left, second) else 9 for seat in Seat}
            assert task.check(", ".join(f"{s} {n}" for s, n in expected.items())).right


def card(text):
    return Card.parse(text)


class TestAnswerErrors:
    def test_unknown_card_and_card_not_shown(self):
        task = task_from_seed("winner", 3)
        with pytest.raises(UnknownCardError):
            task.parse("the joker")
        absent = next(c for c in DECK if all(c is not p for _, p in task.position.plays))
        with pytest.raises(AnswerError, match="not in this trick"):
            task.parse(absent.code)

    def test_order_needs_each_card_once(self):
        task = task_from_seed("order", 3)
        codes = [c.code for c in task.position.cards]
        with pytest.raises(DuplicateCardError):
            task.parse(" ".join(codes + codes[:1]))
        with pytest.raises(AnswerError, match="missing"):
            task.parse(" ".join(codes[1:]))

    def test_score_and_chant_forms(self):
        score = task_from_seed("score", 3)
        with pytest.raises(AnswerError, match="points"):
            score.parse("S 7")
        with pytest.raises(UnknownSeatError):
            score.parse("Q 1")
        with pytest.raises(AnswerError, match="not the partnership"):
            score.parse("NS 1")
        assert score.parse("south 2").value == (Seat.S, 2) and score.parse("W1").value == (Seat.W, 1)
        chant = task_from_seed("chant", 3)
        with pytest.raises(DuplicateSeatError):
            chant.parse("N 9 N 9 S 9 W 9")
        with pytest.raises(AnswerError, match="each of the four seats"):
            chant.parse("N 9")
        signal = task_from_seed("signal", 3)
        with pytest.raises(AnswerError, match="one letter"):
            signal.parse("E")

    def test_setup_names_and_seats(self):
        draw = next(t for t in map(lambda s: task_from_seed("setup", s), range(50)) if t.position.names)
        name = draw.position.names[0]
        folded = name.replace("é", "e").upper()
        assert draw.parse(folded).value == name  # case and accents do not matter
        with pytest.raises(AnswerError, match="one of the four names"):
            draw.parse("Zoé")
        deal = next(t for t in map(lambda s: task_from_seed("setup", s), range(50)) if not t.position.names)
        assert deal.parse("north").value is Seat.N
        with pytest.raises(UnknownSeatError):
            deal.parse("the dealer")


# ------------------------------------------------------------------------------------------------------ the session
def solve(session):
    return session.answer(answers(session.current)[0])


def fail(session):
    """Answer the current task wrong until it is over; the last verdict."""
    while True:
        _, wrong = answers(session.current)
        verdict = session.answer(wrong)
        if verdict.over:
            return verdict


class TestSession:
    @pytest.mark.parametrize("lesson", sorted(LESSONS))
    def test_a_lesson_in_order_all_right(self, lesson):
        session = PracticeSession(lesson, seed=11)
        assert [t.kind for t in session.tasks] == list(LESSONS[lesson])
        while not session.done:
            assert solve(session).right
        assert session.score == session.possible == sum(t.points for t in session.tasks)
        assert len(session.attempts) == len(LESSONS[lesson])
        with pytest.raises(AluetteError, match="over"):
            session.answer("3O")

    def test_neighbours_get_different_tasks(self):
        a, b = PracticeSession("05", seed=1), PracticeSession("05", seed=2)
        assert [t.id for t in a.tasks] != [t.id for t in b.tasks]
        assert [t.id for t in a.tasks] == [t.id for t in PracticeSession("05", seed=1).tasks]

    def test_trying_again_gives_new_tasks(self):
        session = PracticeSession("01", seed=1)
        again = session.again()
        assert again.lesson == "01" and again.seed != session.seed
        assert not {t.id for t in again.tasks} & {t.id for t in session.tasks}
        assert [t.id for t in again.tasks] == [t.id for t in PracticeSession("01", seed=1).again().tasks]

    def test_hints_cost_in_the_session(self):
        session = PracticeSession("01", seed=4)
        task = session.current
        first = session.hint()
        assert first is task.hints[0]
        for _ in task.hints[1:]:
            session.hint()
        before = session.to_dict()
        with pytest.raises(AluetteError, match="no more hints"):
            session.hint()
        assert session.to_dict() == before
        verdict = solve(session)
        assert verdict.points == max(0, task.points - sum(h.cost for h in task.hints))
        assert session.hints_used == len(task.hints) and session.attempts[0].hints == len(task.hints)

    def test_bad_answers_change_nothing(self):
        session = PracticeSession("01", seed=4)
        session.hint()
        before = session.to_dict()
        for bad, error in (("x" * (MAX_ANSWER_TEXT + 1), InputTooLongError), ("", AnswerError),
                           ("the joker", UnknownCardError), (17, AnswerError)):
            with pytest.raises(error):
                session.answer(bad)
            assert session.to_dict() == before

    def test_wrong_then_right_costs_a_retry(self):
        session = PracticeSession("01", seed=8)
        task = session.current
        right, wrong = answers(task)
        first = session.answer(wrong)
        assert not first.right and not first.over and first.answer is None and session.current is task
        second = session.answer(right)
        assert second.right and second.points == task.points - RETRY_COST
        assert len(session.tasks) == len(LESSONS["01"])  # answered: nothing comes back

    def test_failed_task_comes_back_varied_until_right(self):
        session = PracticeSession("05", seed=3, gap=2)
        failed = session.current
        verdict = fail(session)
        assert verdict.over and verdict.answer == failed.solution() and failed.rule.where
        tasks = session.tasks
        assert len(tasks) == 5 and tasks[3].kind == failed.kind and tasks[3].id != failed.id
        assert tasks[3] not in tasks[:3]
        solve(session), solve(session)
        again = session.current
        assert again is tasks[3]
        fail(session)  # failed again: back once more, at the end now
        assert session.tasks[-1].kind == failed.kind and session.tasks[-1].id not in {t.id for t in tasks}
        while not session.done:
            assert solve(session).right
        assert [a.right for a in session.attempts] == [False, True, True, False, True, True]

    def test_repetition_is_bounded(self):
        session = PracticeSession("06", seed=5, gap=0)
        while session.repeats_left:
            session.reveal()  # each comes back at once, varied
        assert len(session.tasks) == MAX_TASKS and not session.done
        session.reveal()  # nothing more is drawn: the session ends once the tasks left are done
        assert len(session.tasks) == MAX_TASKS
        while not session.done:
            session.reveal()
        assert len(session.attempts) == MAX_TASKS
        assert PracticeSession.from_dict(json.loads(json.dumps(session.to_dict()))).to_dict() == session.to_dict()

    def test_asking_for_the_answer(self):
        session = PracticeSession("06", seed=2)
        task = session.current
        verdict = session.reveal()
        assert verdict.over and not verdict.right and verdict.points == 0 and verdict.answer == task.solution()
        assert session.attempts[0].asked and session.tasks[3].kind == "signal" and len(session.tasks) == 6


class TestSavedSession:
    def play_some(self):
        session = PracticeSession("04", seed=21)
        solve(session)
        fail(session)
        session.hint()
        session.answer(answers(session.current)[1])  # one wrong try on the current task
        return session

    def test_round_trip(self):
        session = self.play_some()
        data = json.loads(json.dumps(session.to_dict()))
        loaded = PracticeSession.from_dict(data)
        assert loaded.to_dict() == session.to_dict()
        assert loaded.tasks == session.tasks and loaded.attempts == session.attempts
        assert (loaded.hints_taken, loaded.wrong_tries, loaded.score) == (1, 1, session.score)
        for both in (session, loaded):  # they go on alike
            while not both.done:
                solve(both)
        assert loaded.to_dict() == session.to_dict()

    @pytest.mark.parametrize("change", [
        lambda d: d.update(format="aluette-deal"),
        lambda d: d.update(version=2),
        lambda d: d.pop("attempts"),
        lambda d: d.update(extra=1),
        lambda d: d.update(lesson="99"),
        lambda d: d.update(seed=-1),
        lambda d: d.update(position=99),
        lambda d: d.update(hints=5),
        lambda d: d["tasks"][0].update(id="winner-000000000000"),
        lambda d: d["tasks"][1].update(seed=d["tasks"][0]["seed"]),
        lambda d: d["tasks"][0].update(seed=[1]),
        lambda d: d["attempts"][0].update(points=99),
        lambda d: d["attempts"][1].update(right=True, asked=True),
        lambda d: d["attempts"][1].update(wrong=0),  # failed without using its tries nor asking
        lambda d: d["attempts"][0].update(hints=-1),
        lambda d: d["attempts"].pop(),
        lambda d: d.update(tasks="x" * 10_000),
    ])
    def test_malformed_or_foreign_is_refused(self, change):
        data = json.loads(json.dumps(self.play_some().to_dict()))
        change(data)
        with pytest.raises(MalformedSaveError) as error:
            PracticeSession.from_dict(data)
        assert len(str(error.value)) < 400

    @pytest.mark.parametrize("thing", [None, [], "aluette-practice", {"format": "aluette-practice"}])
    def test_not_a_dict_of_a_session(self, thing):
        with pytest.raises(MalformedSaveError):
            PracticeSession.from_dict(thing)


def test_signal_tasks_cover_the_table():
    keys = {task_from_seed("signal", seed).position.key for seed in range(200)}
    assert keys == {s.key for s in SIGNALS}
