"""The kinds of practice task, as data: each a generator ``(rng) -> Task`` drawing its position from an explicit
numpy ``Generator``, a parser for its answers, and a judge and a solution worked out by the engine's own functions
(never a stored answer).

* ``winner`` (lessons 01, 04): which card wins this trick, or is it spoiled (:func:`aluette.tricks.trick_winner`).
* ``order`` (01): put these cards in order, highest first (:meth:`aluette.Card.beats`).
* ``score`` (05): who wins this deal, written in pagat's notation, and for how many points
  (:func:`aluette.scoring.score_tricks`: first to reach, mordienne, spoiled tricks).
* ``setup`` (02): who cuts, who is dealt first, who leads, who deals next; who partners whom and who deals first
  after the partnership draw (:func:`aluette.chance.deal_steps`, :attr:`aluette.Deal.leader`,
  :func:`aluette.partnership_draw`).
* ``still`` (09): after some tricks, can this seat still win the deal, or make mordienne (every way the other
  tricks can go, scored by :func:`aluette.scoring.score_tricks`).
* ``chant`` (03): who receives the stock and how many cards each holds (a real :class:`aluette.Deal` is dealt and
  its chant answered; :func:`aluette.options.chant_recipients`).
* ``signal`` (06): which signal means this, both ways (:data:`aluette.SIGNALS`).
* ``play`` (04): last to play, which card wins cheaply, or spoils (:func:`aluette.tricks.best_of` for every card of
  the hand).
* ``puzzle-spoiling``, ``puzzle-first``, ``puzzle-last``, ``puzzle-mordienne`` (13): a shipped puzzle of that
  reason (:data:`aluette.analysis.puzzles.SHIPPED`, every one proved by the solver in ``tests/test_puzzles.py``):
  every hand open, find the one class of card that keeps the best result; judged from the puzzle's proved values
  (the answer's and every other card's), explained by the rule that decides it (spoiling, first to reach, playing
  last, mordienne), with a ladder of hints from the idea to the card.

Generators draw everything from the ``Generator`` they are given, so the same seed gives the same task on every
machine; a shaped draw (a spoiled trick, a run that ends a deal) only makes the interesting cases frequent: the
answer is still found by the engine.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

import numpy as np

from ..cards import DECK, Card, parse_cards
from ..card_names import card_name, class_name, seat_name
from ..chance import deal_steps
from ..deal import Deal
from ..draw import partnership_draw
from ..match import Match
from ..errors import AnswerError, DuplicateCardError, DuplicateSeatError, quoted
from ..i18n import N_, _, ngettext
from ..options import ChantRecipients, Options, chant_recipients
from ..records import Hand
from ..scoring import explain_mordienne, first_to_reach, outcomes_notation, score_tricks
from ..seats import SEATS, Seat
from ..signals import SIGNALS, signal_for
from ..tricks import best_of, explain_trick, strongest, trick_winner
from .rules import RULES
from .tasks import ClassOf, Hint, Joined, Rule, Task, Text, text

if TYPE_CHECKING:
    from ..analysis.puzzles import Puzzle

__all__ = ["Kind", "KINDS", "SETUP_QUESTIONS", "TrickPosition", "OrderPosition", "SetupPosition", "ScorePosition",
           "StillPosition", "ChantPosition", "SignalPosition", "PlayPosition", "PuzzlePosition",
           "PUZZLE_KINDS", "PUZZLE_RULES"]


@dataclass(frozen=True)
class Kind:
    """A kind of task.

    Attributes:
        key: its identifier (``"winner"``).
        title: what it asks, in a few words.
        generate: ``(rng) -> Task``: a new task drawn from a numpy ``Generator``.
        parse: ``(position, text) -> value``: an answer's engine value (the text already stripped and limited).
        judge: ``(position, value) -> (right, explanation, rule or None)``; the explanation of a wrong answer may
            give the right one away, so it is shown only once the task is over.
        solution: ``(position) -> str``: the right answer in words, with why.
        nudge: ``(position, value) -> str``: what is wrong with a wrong answer, without the right one (shown while
            tries are left, as lichess answers a wrong move: about the learner's own move, the answer only when
            asked); ``None`` where the judge's explanation of a wrong answer never gives it away.
    """

    key: str
    title: str
    generate: Callable[[np.random.Generator], Task]
    parse: Callable
    judge: Callable
    solution: Callable
    nudge: Optional[Callable] = None


def _task_id(kind: str, rng: np.random.Generator) -> str:
    return f"{kind}-{int(rng.integers(2 ** 48)):012x}"


def _cards(rng: np.random.Generator, pool, n: int) -> list[Card]:
    """``n`` distinct cards drawn from ``pool`` (a sequence of cards), in the order drawn."""
    return [pool[int(i)] for i in rng.choice(len(pool), n, replace=False)]


def _plays_text(plays) -> Joined:
    first, *rest = plays
    return Joined((text(N_("{seat} leads {card}."), seat=first[0], card=first[1]),)
                  + tuple(text(N_("{seat} plays {card}."), seat=seat, card=card) for seat, card in rest), " ")


#: Multi-card classes, by strength: classes of which two cards can tie.
_BY_STRENGTH: dict[int, list[Card]] = {}
for _card in DECK:
    _BY_STRENGTH.setdefault(_card.strength, []).append(_card)
_TIEABLE = sorted(s for s, cards in _BY_STRENGTH.items() if len(cards) > 1)


def _below(strength: int) -> list[Card]:
    return [card for card in DECK if card.strength < strength]


def _above(strength: int) -> list[Card]:
    return [card for card in DECK if card.strength > strength]


# ---------------------------------------------------------------------------------------------------------- winner
@dataclass(frozen=True)
class TrickPosition:
    """A whole trick: ``plays`` is ``((seat, card), ...)`` in play order, the leader first."""

    plays: tuple[tuple[Seat, Card], ...]


#: The words that answer "spoiled", in either language (the French form asks for « pourri »).
_SPOILED_WORDS = frozenset({"spoiled", "spoilt", "x", "nobody", "none", "pourri", "pourrie", "spoiled trick",
                            "pli pourri", "personne"})


def _generate_winner(rng: np.random.Generator) -> Task:
    task_id = _task_id("winner", rng)
    leader = SEATS[int(rng.integers(4))]
    if rng.random() < 0.4:  # shape a tie for the best class; the engine still decides
        strength = _TIEABLE[int(rng.integers(2, len(_TIEABLE)))]  # a class with two lower classes below it
        cards = _cards(rng, _BY_STRENGTH[strength], 2) + _cards(rng, _below(strength), 2)
        cards = [cards[int(i)] for i in rng.permutation(4)]
    else:
        cards = _cards(rng, DECK, 4)
    plays = tuple(zip(leader.clockwise_from(), cards))
    best = strongest(list(plays))[0][1]
    return Task(task_id, "winner", "01", text(N_("{plays} Which card wins the trick?"), plays=_plays_text(plays)),
                text(N_("a card of the trick (3O, 'king of swords', 'la Vache'), or 'spoiled' if nobody wins it")),
                TrickPosition(plays), 3,
                (Hint(text(N_("Suits matter for nothing: only each card's ranking class counts.")), 1),
                 Hint(text(N_("The best class in this trick is {best}. Is it played once, or more than once?"),
                           best=ClassOf(best)), 1)),
                RULES["equal-classes-spoil"])


def _parse_winner(position: TrickPosition, text: str) -> Optional[Card]:
    if " ".join(text.lower().split()) in _SPOILED_WORDS:
        return None
    card = Card.parse(text)
    if all(card is not played for _, played in position.plays):
        raise AnswerError(_("{card} is not in this trick; its cards are {cards} (or answer 'spoiled')").format(
            card=card, cards=", ".join(str(c) for _seat, c in position.plays)))
    return card


def _winner(position: TrickPosition) -> Optional[Card]:
    index = trick_winner([card for _, card in position.plays])
    return None if index is None else position.plays[index][1]


def _judge_winner(position: TrickPosition, value: Optional[Card]):
    winner = _winner(position)
    why = explain_trick([card for _, card in position.plays])
    if value is winner:
        return True, why, None
    if winner is None:
        return False, _("Not {card}. {why}").format(card=value, why=why), RULES["equal-classes-spoil"]
    if value is None:
        return False, _("Not spoiled: {card} is the only card of the best class. {why}").format(
            card=winner, why=why), RULES["equal-classes-spoil"]
    return False, _("{card} ({name}, strength {strength}) does not win. {why}").format(
        card=value, name=class_name(value), strength=value.strength, why=why), RULES["highest-class-wins"]


def _nudge_winner(position: TrickPosition, value: Optional[Card]) -> str:
    cards = [card for _, card in position.plays]
    if value is None:
        return _("Not spoiled: this trick has only one card of the best class on it.")
    if value.strength == max(card.strength for card in cards):
        return _("{card} is of the best class on this trick, but it is not alone in it.").format(card=value)
    return _("{card} ({name}, strength {strength}) does not win this trick: a card on it is stronger.").format(
        card=value, name=class_name(value), strength=value.strength)


def _solution_winner(position: TrickPosition) -> str:
    winner = _winner(position)
    why = explain_trick([card for _, card in position.plays])
    if winner is None:
        return _("spoiled: {why} {seat} leads again.").format(why=why, seat=seat_name(position.plays[0][0]))
    seat = next(seat for seat, card in position.plays if card is winner)
    return _("{card}: {why} {seat} leads the next trick.").format(card=winner, why=why, seat=seat_name(seat))


# ----------------------------------------------------------------------------------------------------------- order
@dataclass(frozen=True)
class OrderPosition:
    """Cards to put in order, in the order shown."""

    cards: tuple[Card, ...]


def _generate_order(rng: np.random.Generator) -> Task:
    task_id = _task_id("order", rng)
    size = int(rng.integers(4, 7))
    if rng.random() < 0.5:  # shape a pair of one class, whose order does not matter
        strength = _TIEABLE[int(rng.integers(len(_TIEABLE)))]
        pair = _cards(rng, _BY_STRENGTH[strength], 2)
        rest = [card for card in DECK if card not in pair]
        cards = pair + _cards(rng, rest, size - 2)
        cards = [cards[int(i)] for i in rng.permutation(size)]
    else:
        cards = _cards(rng, DECK, size)
    top = Hand(cards)[0]
    return Task(task_id, "order", "01",
                text(N_("Put these {size} cards in order, highest first: {cards}."), size=size, cards=tuple(cards)),
                text(N_("the cards highest first, separated by spaces (3O 1E 12B 7C)")), OrderPosition(tuple(cards)),
                3, (Hint(text(N_("Two cards of one class (two aces, two kings) are equal: either order of them is "
                                 "right.")), 1),
                    Hint(text(N_("The highest card here is {card}."), card=top), 1)),
                RULES["ranking-order"])


def _parse_order(position: OrderPosition, text: str) -> tuple[Card, ...]:
    answer = parse_cards(text)
    shown, given = set(position.cards), {}
    for card in answer:  # linear: each card counted once
        given[card] = given.get(card, 0) + 1
    repeated = [c.code for c, n in given.items() if n > 1]
    if repeated:
        raise DuplicateCardError(_("each card once, please: {cards} given twice").format(cards=", ".join(repeated)))
    extra = [c.code for c in answer if c not in shown]
    missing = [c.code for c in position.cards if c not in given]
    if extra or missing:
        problems = ([_("not among these cards: {cards}").format(cards=", ".join(extra))] if extra else []) + \
                   ([_("missing: {cards}").format(cards=", ".join(missing))] if missing else [])
        raise AnswerError(_("give each of the {n} cards exactly once ({problems})").format(
            n=len(position.cards), problems="; ".join(problems)))
    return answer


def _judge_order(position: OrderPosition, value: tuple[Card, ...]):
    wrong = next(((a, b) for a, b in zip(value, value[1:]) if b.beats(a)), None)
    if wrong is None:
        ties = "".join(" " + _("{a} and {b} are both {name}: equal, so either order is right.").format(
            a=a, b=b, name=class_name(a)) for a, b in zip(value, value[1:]) if a.ties(b))
        return True, _("Right: {order}.").format(order=" > ".join(c.code for c in value)) + ties, None
    a, b = wrong
    return False, _("You put {first} before {second}, but {b} ({b_name}, strength {b_strength}) beats {a} ({a_name}, "
                    "strength {a_strength}).").format(
        first=_card_label(a), second=_card_label(b), a=a, b=b, a_name=class_name(a), b_name=class_name(b),
        a_strength=a.strength, b_strength=b.strength), RULES["ranking-order"]


def _solution_order(position: OrderPosition) -> str:
    return _("{cards}, highest first (cards of one class in either order).").format(cards=Hand(position.cards))


# ----------------------------------------------------------------------------------------------------------- setup
@dataclass(frozen=True)
class SetupPosition:
    """A question about the start of a deal or a match: ``question`` one of :data:`SETUP_QUESTIONS`; for the deal's
    questions the deal ``Deal.from_seed(seed, dealer=dealer)``; for the draw's, the partnership draw of ``names``
    (clockwise, the first dealing the face-up cards) from ``seed``, and ``about`` the name asked about."""

    question: str
    seed: int
    dealer: Optional[Seat] = None
    names: tuple[str, ...] = ()
    about: str = ""


#: The questions of the ``setup`` kind: what each asks.
SETUP_QUESTIONS = {
    "cut": N_("Who cuts the deck?"),
    "first-packet": N_("Who is dealt the first three cards?"),
    "first-lead": N_("Who leads the first trick?"),
    "next-dealer": N_("Who deals the next deal?"),
    "partner": N_("Who is {about}'s partner?"),
    "first-dealer": N_("Who deals first?"),
}
_NAMES = ("Ann", "Bastien", "Chloé", "Denis", "Erwan", "Fanny", "Gaël", "Hélène", "Iwan", "Jade")


def _generate_setup(rng: np.random.Generator) -> Task:
    task_id = _task_id("setup", rng)
    question = tuple(SETUP_QUESTIONS)[int(rng.integers(len(SETUP_QUESTIONS)))]
    seed = int(rng.integers(2 ** 63))
    if question in ("partner", "first-dealer"):
        names = tuple(_NAMES[int(i)] for i in rng.choice(len(_NAMES), 4, replace=False))
        about = names[int(rng.integers(4))]
        position = SetupPosition(question, seed, names=names, about=about)
        draw = partnership_draw(names, seed)
        got = ", ".join(f"{name} {draw.top_card[name].nickname}" for name in names)
        prompt = text(N_("In the partnership draw {dealer} deals the cards face up to {others}; the four top cards "
                         "go to: {got}. {question}"), dealer=names[0], others=", ".join(names[1:]), got=got,
                      question=text(SETUP_QUESTIONS[question], about=about))
        form, rule = text(N_("one of the four names")), RULES["partnership-draw"]
    else:
        dealer = SEATS[int(rng.integers(4))]
        position = SetupPosition(question, seed, dealer=dealer)
        prompt = text(N_("{dealer} deals. {question}"), dealer=dealer, question=text(SETUP_QUESTIONS[question]))
        form, rule = text(N_("a seat: N, E, S or W (or North, East, South, West)")), RULES["deal-roles"]
    return Task(task_id, "setup", "02", prompt, form, position, 2,
                (Hint(text(N_("Everything goes clockwise, N, E, S, W: the player to a seat's left is the next one "
                              "round.")) if rule is RULES["deal-roles"] else
                      text(N_("Monsieur partners Madame, le Borgne partners la Vache; Madame's holder deals "
                              "first.")), 1),),
                rule)


def _setup_answer(position: SetupPosition):
    """The answer, worked out by the engine: a seat for the deal's questions, a name for the draw's."""
    if position.names:
        draw = partnership_draw(position.names, position.seed)
        if position.question == "first-dealer":
            return draw.seating[draw.first_dealer]
        pair = next(pair for pair in draw.pairs if position.about in pair)
        return pair[1] if pair[0] == position.about else pair[0]
    if position.question == "cut":
        return position.dealer.right  # the dealer's right cuts (aluette.chance)
    if position.question == "next-dealer":  # the deal passes to the left
        return Match(position.seed, first_dealer=position.dealer).dealer_of(2)
    deal = Deal.from_seed(position.seed, dealer=position.dealer)
    if position.question == "first-packet":
        return deal_steps(deal.deck, position.dealer)[0][0]
    return deal.leader  # first-lead


def _folded(name: str) -> str:
    """A name without case or accents: "Chloe" answers for "Chloé"."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).casefold()


def _parse_setup(position: SetupPosition, text: str):
    if not position.names:
        return Seat.parse(text)
    for name in position.names:
        if _folded(name) == _folded(text):
            return name
    raise AnswerError(_("answer with one of the four names, {names}; got {text}").format(
        names=", ".join(position.names), text=quoted(text)))


def _setup_why(position: SetupPosition) -> str:
    answer = _setup_answer(position)
    if position.names:
        if position.question == "first-dealer":
            return _("{name} holds Madame, so {name} deals first (and sits at N).").format(name=answer)
        return _("{name} is {about}'s partner: Monsieur partners Madame, le Borgne partners la Vache.").format(
            name=answer, about=position.about)
    said = {"cut": N_("{seat}, at {dealer}'s right, cuts."),
            "first-packet": N_("{seat}, at {dealer}'s left, is dealt first; the deal goes clockwise."),
            "first-lead": N_("{seat}, at {dealer}'s left, leads the first trick."),
            "next-dealer": N_("The deal passes to the left: {seat} deals next.")}[position.question]
    return _(said).format(seat=seat_name(answer), dealer=seat_name(position.dealer))


def _judge_setup(position: SetupPosition, value):
    if value == _setup_answer(position):
        return True, _setup_why(position), None
    rule = RULES["partnership-draw"] if position.names else RULES["deal-roles"]
    return False, _("Not {answer}. {why}").format(answer=value, why=_setup_why(position)), rule


def _nudge_setup(position: SetupPosition, value) -> str:
    return _("Not {answer}.").format(answer=value if position.names else seat_name(value))


def _solution_setup(position: SetupPosition) -> str:
    return f"{_setup_answer(position)}: {_setup_why(position)}"


# ----------------------------------------------------------------------------------------------------------- score
@dataclass(frozen=True)
class ScorePosition:
    """A finished deal's nine trick outcomes (a seat, or ``None`` for a spoiled trick), mordienne on or off."""

    outcomes: tuple[Optional[Seat], ...]
    mordienne: bool = True

    @property
    def notation(self) -> str:
        return outcomes_notation(self.outcomes)


#: The words that answer "nobody scores", in either language (the French form asks for « personne »).
_NOBODY = frozenset({"nobody", "none", "no one", "noone", "x", "nobody 0", "none 0", "0", "personne", "personne 0"})
_GLUED = re.compile(r"^([A-Za-z]+)([0-9])$")
_LETTERS = (Seat.N, Seat.E, Seat.S, Seat.W, None)


def _generate_score(rng: np.random.Generator) -> Task:
    task_id = _task_id("score", rng)
    weights = np.array([0.22, 0.22, 0.22, 0.22, 0.12])
    outcomes = [_LETTERS[int(i)] for i in rng.choice(5, 9, p=weights)]
    if rng.random() < 0.45:  # shape a run that ends the deal: mordienne or nearly
        run = int(rng.integers(2, 6))
        seat = SEATS[int(rng.integers(4))]
        outcomes[9 - run:] = [seat] * run
    position = ScorePosition(tuple(outcomes))
    return Task(task_id, "score", "05",
                text(N_("A deal ended {notation} (pagat's notation: for each trick in turn the seat that won it, X "
                        "for a spoiled trick). Mordienne is played. Which seat wins the deal, and how many points "
                        "does its partnership score?"), notation=position.notation),
                text(N_("the seat and the points ('S 1', 'E 2'), or 'nobody'")), position, 3,
                (Hint(text(N_("Count the tricks of each player, not of each partnership; on a tie for the most, who "
                              "got there first?")), 1),
                 Hint(text(N_("Did the winner's tricks end the deal in one unbroken run, after a trick they did not "
                              "win? Then it is mordienne.")), 1)),
                RULES["most-tricks-first-to-reach"])


def _parse_score(position: ScorePosition, text: str) -> tuple[Optional[Seat], int]:
    if " ".join(text.lower().split()) in _NOBODY:
        return None, 0
    words = [w for w in re.split(r"[\s,;:]+", text) if w]
    if len(words) == 1 and _GLUED.match(words[0]):  # "S2"
        words = list(_GLUED.match(words[0]).groups())
    if len(words) != 2 or words[1] not in ("0", "1", "2"):
        raise AnswerError(_("write the winning seat and the points, 0, 1 or 2 ('S 1', 'E 2'), or 'nobody'; got "
                            "{text}").format(text=quoted(text)))
    if words[0].upper() in ("NS", "EW"):
        raise AnswerError(_("name the seat that won the deal (N, E, S or W), not the partnership {team}: partners do "
                            "not pool their tricks").format(team=words[0].upper()))
    seat = Seat.parse(words[0])
    return seat, int(words[1])


def _judge_score(position: ScorePosition, value: tuple[Optional[Seat], int]):
    score = score_tricks(position.outcomes, mordienne=position.mordienne)
    seat, points = value
    if (seat, points) == (score.winner, score.points):
        return True, score.reason, None
    if score.winner is None:
        return False, score.reason, RULES["all-nine-spoiled"]
    if seat is not score.winner:
        counts = ", ".join(f"{s} {n}" for s, n in score.counts)
        wrong = "" if seat is None else (" " + _("{seat} is {winner}'s partner, but partners do not pool "
                                                 "tricks.").format(seat=seat, winner=score.winner)
                                         if seat is score.winner.partner else "")
        rule = (RULES["best-single-player"] if seat is score.winner.partner
                else RULES["most-tricks-first-to-reach"])
        return False, _("Tricks won: {counts}.").format(counts=counts) + wrong + " " + score.reason, rule
    return False, _("{seat} wins, but not {points}. {why}").format(
        seat=score.winner, points=points, why=explain_mordienne(score, mordienne=position.mordienne)), \
        RULES["mordienne"]


def _nudge_score(position: ScorePosition, value: tuple[Optional[Seat], int]) -> str:
    score = score_tricks(position.outcomes, mordienne=position.mordienne)
    seat, points = value
    if score.winner is None:
        return _("{seat} does not win this deal: count each player's tricks.").format(seat=seat)
    if seat is None:
        return _("Somebody wins this deal: count each player's tricks.")
    if seat is score.winner.partner:
        return _("Partners do not pool their tricks: count each player's own.")
    if seat is not score.winner:
        return _("{seat} does not win this deal: count each player's tricks, and see who got there first.").format(
            seat=seat)
    return ngettext("{seat} wins, but not {points} point.", "{seat} wins, but not {points} points.",
                    points).format(seat=seat, points=points)


def _solution_score(position: ScorePosition) -> str:
    score = score_tricks(position.outcomes, mordienne=position.mordienne)
    if score.winner is None:
        return _("nobody: {why}").format(why=score.reason)
    reached = "".join(" " + _("First to reach {n}: {seat}.").format(n=n, seat=first_to_reach(position.outcomes, n))
                      for n in (2, 3) if first_to_reach(position.outcomes, n) is not None)
    return f"{score.winner} {score.points}: {score.reason}{reached}"


# ----------------------------------------------------------------------------------------------------------- still
@dataclass(frozen=True)
class StillPosition:
    """A deal in progress: the outcomes of the tricks played so far (``played``, fewer than nine), the ``seat``
    asked about, and the ``question``: ``"win"`` (can it still win the deal?) or ``"mordienne"`` (still make
    mordienne?)."""

    played: tuple[Optional[Seat], ...]
    seat: Seat
    question: str


_YES = frozenset({"yes", "y", "oui", "true"})
_NO = frozenset({"no", "n", "non", "false"})


def _generate_still(rng: np.random.Generator) -> Task:
    task_id = _task_id("still", rng)
    played = tuple(_LETTERS[int(i)] for i in rng.choice(5, int(rng.integers(5, 8)),
                                                        p=[0.22, 0.22, 0.22, 0.22, 0.12]))
    question = "mordienne" if rng.random() < 0.5 else "win"
    if rng.random() < 0.5:  # shape the less frequent answers: the last in tricks to win; a clean run for mordienne
        if question == "win":
            candidates = [s for s in SEATS if played.count(s) == min(played.count(t) for t in SEATS)]
        else:
            candidates = [s for s in SEATS if s in played[1:] and played.index(s) == len(played) - played.count(s)
                          ] or [s for s in SEATS if s not in played]
        seat = candidates[int(rng.integers(len(candidates)))] if candidates else SEATS[int(rng.integers(4))]
    else:
        seat = SEATS[int(rng.integers(4))]
    position = StillPosition(played, seat, question)
    asked = (N_("After {played} tricks a deal stands at {notation} (pagat's notation: the seat that won each trick, "
                "X for a spoiled one). Whatever happens in the other {left} tricks, can {seat} still make "
                "mordienne?") if question == "mordienne" else
             N_("After {played} tricks a deal stands at {notation} (pagat's notation: the seat that won each trick, "
                "X for a spoiled one). Whatever happens in the other {left} tricks, can {seat} still win the deal?"))
    return Task(task_id, "still", "09",
                text(asked, played=len(played), notation=outcomes_notation(played), left=9 - len(played), seat=seat),
                text(N_("yes or no")), position, 2,
                (Hint(text(N_("Try the best case for them: what if they win every trick left?")) if question == "win"
                      else text(N_("Has this seat already won a trick that was followed by one it did not win?")),
                      1),),
                RULES["mordienne-still"] if question == "mordienne" else RULES["most-tricks-first-to-reach"],
                tries=1)


def _still_example(position: StillPosition) -> Optional[str]:
    """The first way to finish the deal (in pagat's notation) in which the seat does what is asked, trying every
    outcome of the tricks left and scoring each with the engine; ``None`` when there is none."""
    for rest in itertools.product(_LETTERS, repeat=9 - len(position.played)):
        score = score_tricks(position.played + rest)
        if score.winner is position.seat and (position.question == "win" or score.mordienne):
            return outcomes_notation(position.played + rest)
    return None


def _parse_still(position: StillPosition, text: str) -> bool:
    word = text.lower().strip(" .!")
    if word in _YES or word in _NO:
        return word in _YES
    raise AnswerError(_("answer yes or no; got {text}").format(text=quoted(text)))


def _still_why(position: StillPosition) -> str:
    example = _still_example(position)
    if example is not None:
        return _("Yes: for example {example}, scored by the engine: {why}").format(
            example=example, why=score_tricks(example).reason)
    seat, played = position.seat, position.played
    won = [k for k, outcome in enumerate(played) if outcome is seat]
    broken = next((k for k in won if k + 1 < len(played) and played[k + 1] is not seat), None)
    if position.question == "mordienne" and won and won[0] == 0:
        return _("No: {seat} won trick 1, so no trick {seat} did not win can come before the run.").format(
            seat=seat)
    if position.question == "mordienne" and broken is not None:
        return _("No: {seat} won trick {won} and then did not win trick {lost}, so trick {won} can never be part of "
                 "a run ending with trick 9.").format(seat=seat, won=broken + 1, lost=broken + 2)
    best = played + (seat,) * (9 - len(played))
    said = (N_("No: even if {seat} wins every trick left ({notation}), mordienne is not theirs: {why}")
            if position.question == "mordienne" else
            N_("No: even if {seat} wins every trick left ({notation}), the deal is not theirs: {why}"))
    return _(said).format(seat=seat, notation=outcomes_notation(best), why=score_tricks(best).reason)


def _judge_still(position: StillPosition, value: bool):
    right = (_still_example(position) is not None) is value
    rule = RULES["mordienne-still"] if position.question == "mordienne" else RULES["most-tricks-first-to-reach"]
    return right, _still_why(position), None if right else rule


def _solution_still(position: StillPosition) -> str:
    return _still_why(position)


# ----------------------------------------------------------------------------------------------------------- chant
@dataclass(frozen=True)
class ChantPosition:
    """A fresh deal (``Deal.from_seed(deal_seed, dealer=dealer, options=options)``) and the chant answers given,
    ``((seat, agrees), ...)`` in the order asked (clockwise from the dealer's left, stopping at a refusal)."""

    dealer: Seat
    options: Options
    answers: tuple[tuple[Seat, bool], ...]
    deal_seed: int


_PARTNER_VARIANT = Options(chant_recipients=ChantRecipients.LEFT_AND_PARTNER)


def _generate_chant(rng: np.random.Generator) -> Task:
    task_id = _task_id("chant", rng)
    dealer = SEATS[int(rng.integers(4))]
    options = _PARTNER_VARIANT if rng.random() < 0.3 else Options()
    asked = dealer.left.clockwise_from()
    refusal = 4 if rng.random() < 0.65 else int(rng.integers(4))  # 4: all agree
    answers = tuple((seat, i != refusal) for i, seat in enumerate(asked[:refusal + 1]))
    position = ChantPosition(dealer, options, answers, int(rng.integers(2 ** 63)))
    said = tuple(text(N_("{seat} agrees") if agree else N_("{seat} declines"), seat=seat) for seat, agree in answers)
    variant = options.chant_recipients is ChantRecipients.LEFT_AND_PARTNER
    rule = RULES["chant-partner-variant"] if variant else RULES["chant-recipients"]
    asked = (N_("{dealer} deals. The table plays the variant in which the dealer's partner receives instead of the "
                "dealer. Asked in turn about the chant: {said}. Who receives the stock, and how many cards does each "
                "player hold now, before any discard?") if variant else
             N_("{dealer} deals. Asked in turn about the chant: {said}. Who receives the stock, and how many cards "
                "does each player hold now, before any discard?"))
    return Task(task_id, "chant", "03", text(asked, dealer=dealer, said=said),
                text(N_("a count for each seat ('N 9, E 15, S 9, W 15')")), position, 3,
                (Hint(text(N_("The chant happens only if all four agree; one refusal settles it.")), 1),
                 Hint(text(N_("When it happens, the twelve stock cards go alternately to the dealer's left and the "
                              "dealer (or, in the variant, the dealer's partner), six each.")), 1)),
                rule)


_COUNT_RE = re.compile(r"^(\d{1,2})$")


def _parse_chant(position: ChantPosition, text: str) -> tuple[tuple[Seat, int], ...]:
    words = [w for w in re.split(r"[\s,;:=]+", text) if w]
    if len(words) != 8:
        raise AnswerError(_("give a count for each of the four seats, seat then number ('N 9, E 15, S 9, W 15'); "
                            "got {text}").format(text=quoted(text)))
    counts: dict[Seat, int] = {}
    for name, number in zip(words[::2], words[1::2]):
        seat = Seat.parse(name)
        if seat in counts:
            raise DuplicateSeatError(_("{seat} is given twice: one count per seat").format(seat=seat))
        if not _COUNT_RE.match(number):
            raise AnswerError(_("{seat}'s count must be a number of cards, got {text}").format(
                seat=seat, text=quoted(number)))
        counts[seat] = int(number)
    return tuple((seat, counts[seat]) for seat in SEATS)


def _chant_deal(position: ChantPosition) -> Deal:
    deal = Deal.from_seed(position.deal_seed, dealer=position.dealer, options=position.options)
    for seat, agree in position.answers:
        deal.answer_chant(seat, agree)
    return deal


def _chant_counts(position: ChantPosition) -> tuple[tuple[Seat, int], ...]:
    hands = _chant_deal(position).hands
    return tuple((seat, len(hands[seat])) for seat in SEATS)


def _chant_why(position: ChantPosition) -> tuple[str, Rule]:
    refused = next((seat for seat, agree in position.answers if not agree), None)
    if refused is not None:
        return (_("{seat} declined, so there is no chant: the stock stays unused and everyone keeps nine "
                  "cards.").format(seat=seat_name(refused)), RULES["chant-declined"])
    first, second = chant_recipients(position.dealer, position.options)
    rule = (RULES["chant-partner-variant"] if position.options.chant_recipients is ChantRecipients.LEFT_AND_PARTNER
            else RULES["chant-recipients"])
    return (_("All four agreed, so the stock went alternately to {first} (the dealer's left) and {second}, six each: "
              "they hold fifteen, the others nine.").format(first=seat_name(first), second=seat_name(second)), rule)


def _judge_chant(position: ChantPosition, value):
    why, rule = _chant_why(position)
    if value == _chant_counts(position):
        return True, why, None
    return False, why, rule


def _nudge_chant(position: ChantPosition, value) -> str:
    wrong = [seat for (seat, n), (_, right) in zip(value, _chant_counts(position)) if n != right]
    seats = _(", ").join(seat_name(seat) for seat in wrong)
    return ngettext("The count of {seats} is wrong.", "The counts of {seats} are wrong.", len(wrong)).format(
        seats=seats)


def _solution_chant(position: ChantPosition) -> str:
    counts = ", ".join(f"{seat} {n}" for seat, n in _chant_counts(position))
    return f"{counts}. {_chant_why(position)[0]}"


# ---------------------------------------------------------------------------------------------------------- signal
@dataclass(frozen=True)
class SignalPosition:
    """A flash card: ``direction`` ``"gesture"`` (the gesture is shown, what it signals is asked) or ``"what"``
    (the reverse); ``key`` the signal asked about; ``choices`` the signal keys offered, in order."""

    direction: str
    key: str
    choices: tuple[str, ...]


_CHOICE_LETTERS = "ABCD"


def _generate_signal(rng: np.random.Generator) -> Task:
    task_id = _task_id("signal", rng)
    direction = "gesture" if rng.random() < 0.5 else "what"
    signal = SIGNALS[int(rng.integers(len(SIGNALS)))]
    others = [s.key for s in SIGNALS if s is not signal]
    keys = [signal.key] + [others[int(i)] for i in rng.choice(len(others), 3, replace=False)]
    choices = tuple(keys[int(i)] for i in rng.permutation(4))
    shown = "what" if direction == "gesture" else "gesture"
    listed = Joined(tuple(text(N_("{letter}) {words}."), letter=letter, words=text(getattr(signal_for(key), shown)))
                          for letter, key in zip(_CHOICE_LETTERS, choices)), " ")
    prompt = (text(N_("Your partner makes this signal: {gesture}. What does it tell you? {listed}"),
                   gesture=text(signal.gesture), listed=listed)
              if direction == "gesture" else
              text(N_("How do you tell your partner \"{what}\"? {listed}"), what=text(signal.what), listed=listed))
    about = (N_("This signal is about a named card.") if signal.card is not None else
             N_("This signal is about the aces.") if signal.key == "aces" else
             N_("This signal is about the whole hand."))
    return Task(task_id, "signal", "06", prompt, text(N_("the letter of your choice (A, B, C or D)")),
                SignalPosition(direction, signal.key, choices), 2,
                (Hint(text(about), 1),), RULES["signal-table"], tries=1)


def _parse_signal(position: SignalPosition, text: str) -> int:
    letter = text.strip(" .)").upper()
    if len(letter) != 1 or letter not in _CHOICE_LETTERS[:len(position.choices)]:
        raise AnswerError(_("answer with one letter, A to {last}; got {text}").format(
            last=_CHOICE_LETTERS[len(position.choices) - 1], text=quoted(text)))
    return _CHOICE_LETTERS.index(letter)


def _judge_signal(position: SignalPosition, value: int):
    asked, chosen = signal_for(position.key), signal_for(position.choices[value])
    if chosen is asked:
        return True, _("Right: \"{gesture}\" signals {what}.").format(gesture=_(asked.gesture), what=_(asked.what)), \
            None
    return False, _("\"{gesture}\" signals {what}; {asked} is signalled by \"{asked_gesture}\".").format(
        gesture=_(chosen.gesture), what=_(chosen.what), asked=_(asked.what), asked_gesture=_(asked.gesture)), \
        RULES["signal-table"]


def _solution_signal(position: SignalPosition) -> str:
    asked = signal_for(position.key)
    letter = _CHOICE_LETTERS[position.choices.index(asked.key)]
    return _("{letter}: \"{gesture}\" signals {what}.").format(letter=letter, gesture=_(asked.gesture),
                                                                 what=_(asked.what))


# ------------------------------------------------------------------------------------------------------------ play
@dataclass(frozen=True)
class PlayPosition:
    """Three cards of a trick played (``plays``, the leader first) and the hand of ``seat``, the last to play."""

    plays: tuple[tuple[Seat, Card], ...]
    seat: Seat
    hand: Hand


def _generate_play(rng: np.random.Generator) -> Task:
    task_id = _task_id("play", rng)
    leader = SEATS[int(rng.integers(4))]
    seats = leader.clockwise_from()
    seat = seats[3]
    opponent = seats[int(rng.choice([0, 2]))]  # the best card so far is an opponent's (the leader or the third)
    strength = _TIEABLE[int(rng.integers(3, len(_TIEABLE) - 1))]  # sixes ... kings: room above and below
    best = _cards(rng, _BY_STRENGTH[strength], 2)
    low = _cards(rng, [c for c in _below(strength) if c not in best], 6)
    if rng.random() < 0.5:  # can win: two or three cards above the best, and low ones
        above = _cards(rng, _above(strength), int(rng.integers(2, 4)))
        hand = above + low[2:2 + 5 - len(above)]
    else:  # cannot win: one of the best card's class, and low ones
        hand = [best[1]] + low[2:6]
    others = iter(low[:2])
    cards = {s: (best[0] if s is opponent else next(others)) for s in seats[:3]}
    plays = tuple((s, cards[s]) for s in seats[:3])
    position = PlayPosition(plays, seat, Hand(hand))
    return Task(task_id, "play", "04",
                text(N_("You are {seat}, last to play to this trick. {plays} You hold {hand}. An opponent is winning: "
                        "which card keeps the trick from them at the least cost?"), seat=seat,
                     plays=_plays_text(plays), hand=tuple(position.hand)),
                text(N_("a card of your hand (3O, 'ace of swords')")), position, 3,
                (Hint(text(N_("The best card so far is {card}, {seat}'s. Which of your cards beat it? Of those, which "
                              "is the lowest?"), card=best[0], seat=opponent), 1),
                 Hint(text(N_("If none beats it, a card of the same class as the best card spoils the trick: nobody "
                              "wins it.")), 1)),
                RULES["play-last"])


def _parse_play(position: PlayPosition, text: str) -> Card:
    card = Card.parse(text)
    if card not in position.hand:
        raise AnswerError(_("you do not hold {card}; your hand: {hand}").format(card=card, hand=position.hand))
    return card


def _outcome(position: PlayPosition, card: Card) -> Optional[Seat]:
    return best_of(list(position.plays) + [(position.seat, card)])


def _right_plays(position: PlayPosition) -> tuple[tuple[Card, ...], str]:
    """The right cards (all of one class), and what they do: ``"win"``, ``"spoil"`` or ``"throw"``."""
    by = {"win": [], "spoil": [], "throw": []}
    for card in position.hand:
        winner = _outcome(position, card)
        by["win" if winner is position.seat else "spoil" if winner is None else "throw"].append(card)
    what = next(w for w in ("win", "spoil", "throw") if by[w])
    lowest = min(card.strength for card in by[what])
    return tuple(card for card in by[what] if card.strength == lowest), what


def _judge_play(position: PlayPosition, value: Card):
    right, what = _right_plays(position)
    trick = [card for _, card in position.plays] + [value]
    why = explain_trick(trick)
    if value in right:
        return True, why + " " + (_("The cheapest card that wins.") if what == "win" else _("It spoils the trick.")), \
            None
    winner = _outcome(position, value)
    if winner is position.seat:
        return False, _("{card} wins, but {right} ({name}) wins too and costs less: keep the stronger card for a "
                        "later trick.").format(card=value, right=right[0], name=class_name(right[0])), \
            RULES["play-last"]
    if what == "win":
        return False, why + " " + _("{card} would have won it.").format(card=right[0]), RULES["play-last"]
    return False, why + " " + _("{card} would have spoiled it, so the opponent would not get it.").format(
        card=right[0]), RULES["play-last"]


def _nudge_play(position: PlayPosition, value: Card) -> str:
    if _outcome(position, value) is position.seat:
        return _("{card} wins, but a cheaper card of your hand wins too: keep the stronger card for a later "
                 "trick.").format(card=value)
    return _("A card of your hand does better than {card}.").format(card=value)


def _solution_play(position: PlayPosition) -> str:
    right, what = _right_plays(position)
    names = _(" or ").join(_card_label(c) for c in right)
    doing = {"win": N_("{cards}: it wins the trick as cheaply as you can. {why}"),
             "spoil": N_("{cards}: it spoils the trick (you cannot win it). {why}"),
             "throw": N_("{cards}: it is your lowest: nothing wins or spoils. {why}")}[what]
    return _(doing).format(cards=names, why=explain_trick([c for _seat, c in position.plays] + [right[0]]))


# ---------------------------------------------------------------------------------------------------------- puzzle
@dataclass(frozen=True)
class PuzzlePosition:
    """A shipped puzzle (:data:`aluette.analysis.puzzles.SHIPPED`): its seeded deal with its cards played, every
    hand open (the solver proved the answer against best play by everyone, which needs every hand)."""

    puzzle: "Puzzle"

    def deal(self) -> Deal:
        """The position as a deal (played again from its seed: the puzzle holds no deal)."""
        from ..analysis.puzzles import position
        return position(self.puzzle)

    @property
    def seat(self) -> Seat:
        return Seat.parse(self.puzzle.to_move)

    @property
    def reason(self) -> str:
        return self.puzzle.reason


#: The puzzle kinds: key → the reason of :data:`aluette.analysis.puzzles.REASONS` its puzzles rest on, in the order
#: lesson 13 teaches them.
PUZZLE_KINDS = {"puzzle-spoiling": "spoiling", "puzzle-first": "first to reach", "puzzle-last": "playing last",
                "puzzle-mordienne": "mordienne"}
#: The rule each reason rests on, where the lessons teach it.
PUZZLE_RULES = {"spoiling": "equal-classes-spoil", "first to reach": "most-tricks-first-to-reach",
                "playing last": "play-last", "mordienne": "mordienne"}
#: The first rung of each reason's ladder: the idea, with the lesson that teaches it.
_IDEAS = {
    "spoiling": N_("The idea: spoiling. Cards of one class are equal, whatever their suit: when the best class of a "
                   "trick is played twice, nobody wins the trick (lesson 01)."),
    "first to reach": N_("The idea: first to reach. When players tie for the most tricks, the deal goes to the one "
                         "who reached that number first (lesson 05)."),
    "playing last": N_("The idea: playing last. The last player to a trick sees every other card of it: beat the "
                       "best one as cheaply as you can, or spoil the trick (lesson 04)."),
    "mordienne": N_("The idea: mordienne. Winning every trick from some trick to the ninth, after a trick you did "
                    "not win, scores 2 points: make it, or break the other side's run (lesson 05)."),
}


def _team_name(team) -> str:
    return _("North-South") if team.value == "NS" else _("East-West")


def _card_label(card: Card) -> str:
    """``"Monsieur (3O)"``, ``"the ace of coins (1O)"``, in the page's language."""
    return f"{card.nickname} ({card.code})" if card.nickname else f"{card_name(card, article=True)} ({card.code})"


def _result(value: int) -> str:
    """N-S points minus E-W points, in words."""
    if value == 0:
        return _("nobody scores")
    team = _("North-South") if value > 0 else _("East-West")
    points = abs(value)
    text = ngettext("{team} score {n} point", "{team} score {n} points", points).format(team=team, n=points)
    return text + (_(" (mordienne)") if points == 2 else "")


def _team_text(team) -> Text:
    """:func:`_team_name`, worded when shown."""
    return text(N_("North-South")) if team.value == "NS" else text(N_("East-West"))


def _counts(deal: Deal) -> Joined:
    """``"North 2, East 1, South 0, West 1, spoiled 1"``, worded when shown."""
    counts = deal.trick_counts
    spoiled = sum(outcome is None for outcome in deal.outcomes)
    return Joined(tuple(Joined((seat, counts[seat]), " ") for seat in SEATS) + (text(N_("spoiled {n}"), n=spoiled),))


def _trick_words(deal: Deal) -> Text | Joined:
    trick = deal.current_trick
    if not trick:
        return text(N_("{seat} leads this trick."), seat=deal.to_move)
    return Joined(tuple(text(N_("{seat} led {card}.") if i == 0 else N_("{seat} played {card}."), seat=seat, card=card)
                        for i, (seat, card) in enumerate(trick)), " ")


def _best_on_table(deal: Deal) -> Optional[tuple[Seat, Card]]:
    trick = deal.current_trick
    return max(trick, key=lambda play: play[1].strength) if trick else None


def _puzzle_generator(key: str) -> Callable[[np.random.Generator], Task]:
    reason = PUZZLE_KINDS[key]

    def generate(rng: np.random.Generator) -> Task:
        from ..analysis.puzzles import SHIPPED
        task_id = _task_id(key, rng)
        pool = [puzzle for puzzle in SHIPPED if puzzle.reason == reason]
        position = PuzzlePosition(pool[int(rng.integers(len(pool)))])
        deal = position.deal()
        seat = deal.to_move
        notation = deal.notation or text(N_("none yet"))
        prompt = text(N_("You are {seat} ({team}), to play to trick {n} of 9. Every hand is open. Tricks so far, in "
                         "pagat's notation: {notation} ({counts}). {trick} Which card keeps the best result for "
                         "{team}, with best play by everyone from here?"),
                      seat=seat, team=_team_text(seat.team), n=len(deal.tricks) + 1, notation=notation,
                      counts=_counts(deal), trick=_trick_words(deal))
        best = _best_on_table(deal)
        if reason in ("spoiling", "playing last") and best is not None:
            second = text(N_("The best card on the table is {card}, {seat}'s. For each of your cards, ask: does it "
                             "win this trick, spoil it, or lose it? And who leads next?"), card=best[1], seat=best[0])
        elif reason == "first to reach":
            second = text(N_("Count the tricks ({counts}) and who reached each number first; then ask who wins this "
                             "trick and who leads the next one."), counts=_counts(deal))
        else:
            second = text(N_("Who could win every trick from here to the ninth? One card keeps that run for your "
                             "side, or breaks it for the other side."))
        answer = tuple(Card.parse(code) for code in position.puzzle.answer)
        card = text(N_("Play {cards}."), cards=Joined(answer, N_(" or ")))
        legal = deal.legal_cards()
        return Task(task_id, key, "13", prompt, text(N_("a card of your hand (3O, 'ace of swords')")), position, 4,
                    (Hint(text(_IDEAS[reason]), 1), Hint(second, 1), Hint(card, 2)),
                    RULES[PUZZLE_RULES[reason]], tries=1 if len(legal) <= 2 else 2)

    return generate


def _parse_puzzle(position: PuzzlePosition, text: str) -> Card:
    card = Card.parse(text)
    hand = position.deal().legal_cards()
    if card not in hand:
        raise AnswerError(_("{seat} does not hold {card}; {seat}'s cards: {hand}").format(
            seat=seat_name(position.seat), card=card.code, hand=" ".join(c.code for c in hand)))
    return card


def _value_after(position: PuzzlePosition, card: Card) -> int:
    if card.code in position.puzzle.answer:
        return position.puzzle.value
    return dict(position.puzzle.others)[card.code]


def _why_right(position: PuzzlePosition, deal: Deal) -> str:
    """Why the answer is right: the rule that decides it, in words."""
    reason, puzzle = position.reason, position.puzzle
    if reason == "spoiling":
        best = _best_on_table(deal)
        return _("It ties the best card on the table, {card}: the trick is spoiled, nobody wins it, so the other "
                 "side does not get it (spoiling, lesson 01).").format(card=_card_label(best[1]))
    if reason == "playing last":
        return _("Playing last, you see the whole trick: this card wins it, the trick your side needs (playing last, "
                 "lesson 04).")
    if reason == "first to reach":
        return _("With best play the deal ends in a tie for the most tricks, and the tie goes to whoever reached "
                 "that number first (first to reach, lesson 05).")
    other = -1 if deal.to_move.team.value == "NS" else 1
    if any(value == 2 * other for _code, value in puzzle.others):
        return _("Every other card lets {team} win every trick to the ninth: mordienne, 2 points. This card breaks "
                 "their run (mordienne, lesson 05).").format(team=_team_name(deal.to_move.team.other))
    return _("This card keeps your side's run to the ninth trick: mordienne, 2 points (mordienne, lesson 05).")


def _judge_puzzle(position: PuzzlePosition, value: Card):
    deal = position.deal()
    after = _result(_value_after(position, value))
    if value.code in position.puzzle.answer:
        return True, _("Right: {card}. With best play by both sides from here, {result}. {why}").format(
            card=_card_label(value), result=after, why=_why_right(position, deal)), None
    trick = deal.current_trick
    does = ""
    if len(trick) == 3:
        winner = best_of(list(trick) + [(deal.to_move, value)])
        does = (_("It spoils this trick. ") if winner is None else _("It wins this trick. ") if winner is deal.to_move
                else _("It loses this trick to {seat}. ").format(seat=seat_name(winner)))
    return False, _("Not {card}. {does}With best play by both sides after it, {result}; a better card exists for "
                    "{team}.").format(card=_card_label(value), does=does, result=after,
                                      team=_team_name(deal.to_move.team)), RULES[PUZZLE_RULES[position.reason]]


def _solution_puzzle(position: PuzzlePosition) -> str:
    deal = position.deal()
    puzzle = position.puzzle
    answer = _(" or ").join(_card_label(Card.parse(code)) for code in puzzle.answer)
    others = "; ".join(_("{card}: {result}").format(card=_card_label(Card.parse(code)), result=_result(value))
                       for code, value in puzzle.others)
    return _("{answer}: with best play, {result}. {why} Every other card does worse ({others}). Best play assumes "
             "every hand is known: at the table a player could not be sure of this.").format(
        answer=answer, result=_result(puzzle.value), why=_why_right(position, deal), others=others)


#: The kinds, by key.
KINDS: dict[str, Kind] = {kind.key: kind for kind in (
    Kind("winner", "which card wins this trick", _generate_winner, _parse_winner, _judge_winner, _solution_winner,
         _nudge_winner),
    Kind("order", "put these cards in order", _generate_order, _parse_order, _judge_order, _solution_order),
    Kind("setup", "who cuts, deals, leads; who partners whom", _generate_setup, _parse_setup, _judge_setup,
         _solution_setup, _nudge_setup),
    Kind("score", "score this deal from its notation", _generate_score, _parse_score, _judge_score, _solution_score,
         _nudge_score),
    Kind("still", "can this seat still win, or make mordienne", _generate_still, _parse_still, _judge_still,
         _solution_still),
    Kind("chant", "who receives the stock, and how many cards each holds", _generate_chant, _parse_chant,
         _judge_chant, _solution_chant, _nudge_chant),
    Kind("signal", "which signal means this", _generate_signal, _parse_signal, _judge_signal, _solution_signal),
    Kind("play", "play the card that wins cheaply or spoils", _generate_play, _parse_play, _judge_play,
         _solution_play, _nudge_play),
) + tuple(Kind(key, f"find the best card (a puzzle: {reason})", _puzzle_generator(key), _parse_puzzle, _judge_puzzle,
               _solution_puzzle) for key, reason in PUZZLE_KINDS.items())}
