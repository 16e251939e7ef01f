"""The expert bot: perfect-information Monte Carlo from its own seat's view, on the exact solver (issue 18 §5).

:class:`ExpertBot` plays the way the strongest bridge and skat programs play a card: it deals the cards it cannot
see to the other seats at random, in every way consistent with what its seat has seen (:class:`HiddenCards`,
:meth:`HiddenCards.sample`), solves each of those deals with every hand open (:func:`aluette.solve`), and plays the
card whose value for its side is best on average over the samples. It is given its own seat's
:class:`~aluette.records.View` only (:mod:`aluette.players.protocol`), which never holds another seat's hidden cards;
the hands it solves are its own guesses.

What the seat has seen, and so what every sampled deal keeps (the hidden-card accounting of :mod:`aluette.deal`):

* its own hand, and, when it received the stock in the chant, the six cards it received and the six it discarded;
* every card played, in the completed tricks and in the trick on the table (the project's decision
  ``tricks-visible``);
* the hand sizes of the other seats; the cards it has not seen are those hands and the cards nobody plays that it
  has not seen: the unused stock (twelve) when the chant was not agreed, else the discards it cannot see (the other
  recipient's six, or both recipients' twelve);
* its partner's signals, which are honest (decision ``signals-honest``, :mod:`aluette.signals`): a signalled named
  card not yet played is in the partner's hand; "aces" gives the number of aces the partner held when it signalled
  (minus those it has played since); "a useless hand", nothing above a king; "going for mordienne", at least three
  of the eight named cards (minus those played since). A signal is read as describing the hand once it was final,
  which is when bots signal (:func:`aluette.players.drivers.signals_due`); a person may signal during the chant, before
  discarding, and such a signal may then be wrong (when the signals ask for a partner's hand that no deal can
  hold, the sample ignores them, never the cards seen).

Nothing else constrains the samples: any card may be played to any trick (rules sheet, "gameplay": "there are no
restrictions on what can be played"), so a card played says nothing certain about a hand, and every deal that keeps
the facts above is drawn with the same chance (:meth:`HiddenCards.sample`). The bot then guesses how the others
chose their cards (:mod:`aluette.analysis.inference`, the decision below): it draws more deals than it solves and
solves those in which the other seats' past cards are most often the ones the heuristic bot would have played. It
guesses nothing about their chant answers or discards.

Decision of this project (the sources are silent) [expert-bot]: the expert's choices outside the card play, and
its first tricks, are the heuristic bot's (:class:`~aluette.players.bots.HeuristicBot`, with signals):

* the chant, the discards, the surrender question and Rebour's announcements are not searched by the solver, so
  the expert answers them as the heuristic bot does;
* in the first tricks, before the trick :attr:`ExpertBot.solve_from` (the third by default), a deal with every
  hand open is too dear to solve many times in a second (measured on this machine, idle, from the lead of deals
  played by heuristic bots: a median of 0.27 s in the second trick, 22 ms in the third, 2.4 ms in the fourth), so the
  expert plays the heuristic bot's card and its reason says so ("heuristic (first tricks: I solve from trick 3):
  ...");
* its signals are the heuristic bot's, the one signal policy of the project: its named cards, its aces and a
  useless hand, what the partner needs to place the cards that win tricks;
* it takes the heuristic bot as its model of the other players: of the :attr:`ExpertBot.candidates` deals it draws
  for a move (four times its samples by default), it solves the :attr:`ExpertBot.samples` in which the other seats'
  past cards are most often the ones the heuristic bot would have played with the sampled hands
  (:meth:`ExpertBot.draw`); a preference, never a rule, so a player who plays otherwise (a person, an expert partner)
  only makes the deals fit less (its effect on the share of points: ``docs/benchmarks.md``);
* a move whose search runs out of its budget before any sample is solved is the heuristic bot's too (and says so),
  and so is one whose first sample the solver fails on (its own check raises ``AssertionError``: a bug of the
  solver, never hidden: the reason says so, and a later failure stops the sampling and is said too).

The work per move is bounded by :attr:`ExpertBot.samples` (the sampled deals) and :attr:`ExpertBot.max_nodes` (the
card plays the solver may try over all the samples of one move, a bound on time that does not depend on the
machine); ``time_limit`` adds a bound in seconds, checked between the deals drawn and between the samples solved,
which makes the choice depend on the machine's speed (off by default). All chance comes from the generator given
to the bot: the same seed and the same positions give the same moves.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Mapping, Optional, Sequence

import numpy as np

from ..players.protocol import Decision, own_seat
from ..players.bots import HeuristicBot
from ..cards import DECK, NICKNAMED, Card
from ..chance import SeedLike, as_generator
from ..errors import AluetteError, SearchBudgetError, quoted
from ..moves import Move, Play
from ..records import Hand, Phase, View
from ..seats import SEATS, Seat, Team
from ..signals import MORDIENNE_NAMED_CARDS, signal_for
from .inference import PastPlays
from .solver import solve

__all__ = ["ExpertBot", "HiddenCards"]

_NAMED = frozenset(NICKNAMED)
_KING = Card.parse("12O").strength  # a useless hand holds nothing above a king (signals.is_useless_hand)
_RETRIES = 200  # draws of the partner's hand before a "going for mordienne" signal is given up as unmeetable


def _label(card: Card) -> str:
    return f"{card.code} ({card.nickname or card.name})"


def _cheapest(cards) -> Card:
    """The cheapest card: lowest class, then first in deck order (the heuristic bot's tie-break)."""
    return min(cards, key=lambda c: (c.strength, c.index))


class HiddenCards:
    """What one seat knows about the cards it cannot see, from its :class:`~aluette.records.View` alone (module
    docstring), and a sampler of the hidden hands.

    Attributes:
        seat: whose knowledge.
        unseen: the cards the seat has not seen, in deck order (the other hands, and the unused stock or the
            discards it did not make).
        sizes: ``{seat: cards held}`` for the three other seats.
        partner_holds: the named cards the partner's signals place in its hand (not yet played).
        partner_aces: the number of aces the partner holds by its "aces" signal, or ``None``.
        partner_useless: the partner signalled a useless hand (nothing above a king).
        partner_named_at_least: the named cards the partner holds at least, by a "going for mordienne" signal.

    Raises:
        AluetteError: ``view`` is not one seat's view.
    """

    def __init__(self, view: View):
        seat = own_seat(view)
        self.seat = seat
        seen = view.visible_cards()  # own hand, own stock and discards, every card played
        self.unseen = tuple(card for card in DECK if card not in seen)
        self.sizes = {other: view.hand_sizes[other] for other in SEATS if other is not seat}
        if sum(self.sizes.values()) > len(self.unseen):  # pragma: no cover - a view of a real deal never is
            raise AluetteError(f"{seat}'s view holds {len(self.unseen)} unseen cards for "
                               f"{sum(self.sizes.values())} in the other hands")
        partner = seat.partner
        played_since = self._played_by(view, partner)
        holds, aces, useless, named = set(), None, False, None
        for record in view.signals:
            if record.seat is not partner:
                continue
            card = signal_for(record.key).card
            later = [c for trick, c in played_since if trick >= record.trick]
            if card is not None:
                if card in self.unseen:
                    holds.add(card)
            elif record.key == "aces" and record.count is not None:
                aces = max(0, record.count - sum(1 for c in later if c.rank == 1))
            elif record.key == "useless":
                useless = True
            elif record.key == "mordienne":
                named = max(0, MORDIENNE_NAMED_CARDS - sum(1 for c in later if c in _NAMED))
        self.partner_holds = tuple(sorted(holds, key=lambda c: c.index))
        self.partner_aces = aces
        self.partner_useless = useless
        self.partner_named_at_least = named or 0

    @staticmethod
    def _played_by(view: View, seat: Seat) -> list[tuple[int, Card]]:
        """``(trick index, card)`` of every card ``seat`` has played, the trick on the table included."""
        played = [(number, c) for number, record in enumerate(view.tricks) for s, c in record.plays if s is seat]
        return played + [(len(view.tricks), c) for s, c in view.trick if s is seat]

    def __repr__(self) -> str:
        return f"<HiddenCards of {self.seat}: {len(self.unseen)} unseen, partner holds " \
               f"{' '.join(map(str, self.partner_holds)) or 'nothing known'}>"

    def _partner_hand(self, rng: np.random.Generator, relax: bool) -> Optional[list[Card]]:
        """A uniform draw of the partner's hand among those its signals allow (all of them when ``relax``), or
        ``None`` when none is."""
        size = self.sizes[self.seat.partner]
        required = [] if relax else list(self.partner_holds)[:size]
        rest = [c for c in self.unseen if c not in required]
        k = size - len(required)
        if relax:
            groups = [(rest, k)]
        elif self.partner_useless:
            groups = [([c for c in rest if c.strength <= _KING], k)]
        elif self.partner_aces is not None:
            a = self.partner_aces
            groups = [([c for c in rest if c.rank == 1], a), ([c for c in rest if c.rank != 1], k - a)]
        else:
            groups = [(rest, k)]
        hand = list(required)
        for cards, n in groups:
            if n < 0 or n > len(cards):
                return None
            hand += [cards[i] for i in sorted(rng.choice(len(cards), size=n, replace=False))]
        return hand

    def sample(self, rng: np.random.Generator) -> dict[Seat, Hand]:
        """The three other hands, drawn from ``rng`` uniformly among the deals that keep everything the seat knows
        (the partner's hand among those its signals allow, then the other two hands from the cards left; the cards
        left over are those nobody plays). The seat's own hand is not included.

        Raises:
            BadSeedError: ``rng`` is not a seed or a generator.
        """
        rng = as_generator(rng)
        partner = self.seat.partner
        hand = None
        for _ in range(_RETRIES):
            hand = self._partner_hand(rng, relax=False)
            if hand is None:
                break
            if sum(1 for c in hand if c in _NAMED) >= self.partner_named_at_least:
                break
            hand = None
        if hand is None:  # the signals ask for a hand no deal can hold (a signal made before discarding): ignore them
            hand = self._partner_hand(rng, relax=True)
        taken = set(hand)
        rest = [c for c in self.unseen if c not in taken]
        order = rng.permutation(len(rest))
        hands, start = {partner: Hand(hand)}, 0
        for other in SEATS:
            if other is self.seat or other is partner:
                continue
            size = self.sizes[other]
            hands[other] = Hand(rest[i] for i in order[start:start + size])
            start += size
        return hands

    def sampled_view(self, view: View, rng: np.random.Generator) -> View:
        """The omniscient view of one sampled deal: ``view`` with the other hands drawn by :meth:`sample` (and no
        signal, stock or discard, which the solver does not read)."""
        return self.open_view(view, self.sample(rng))

    def open_view(self, view: View, hands: Mapping[Seat, Hand]) -> View:
        """The omniscient view of ``view``'s position with the other seats holding ``hands`` (a :meth:`sample`)."""
        hands = dict(hands)
        hands[self.seat] = view.hand
        return dataclasses.replace(view, seat=None, hands={s: hands[s] for s in SEATS}, stock_received={},
                                   discards={}, stock=None, signals=(), events=())


class ExpertBot:
    """Plays each card by perfect-information Monte Carlo over the exact solver, from its own seat's view only
    (module docstring; decision ``expert-bot``). It plays the first tricks (before :attr:`solve_from`, the third by
    default) as the heuristic bot does, where solving is dear, and its chant, discards, surrender answers and
    signals too; so a move takes at most about a second (``tests/benchmarks/bench_expert.py`` measures it beside
    the target p95 <= 1 s). Registered as the bot kind ``"expert"`` (:data:`aluette.players.drivers.BOT_KINDS`, made by
    :func:`aluette.players.drivers.make_bot`), offered in notebook 08 and at the shared tables of notebook 10
    (:meth:`aluette.store.TableService.fill_with_bots`, which chooses its moves outside the table's write transaction).

    Args:
        seed: a non-negative ``int``, a ``SeedSequence`` or a numpy ``Generator``: every sampled deal is drawn from
            the bot's own generator, so the same seed and the same positions give the same moves.
        samples: sampled deals solved per move (default 24).
        candidates: deals drawn per move, of which the ``samples`` that best fit the others' past cards are solved
            (default four times ``samples``; equal to ``samples``: every deal drawn is solved, no guess about how the
            others play).
        solve_from: the first trick (1-9) whose cards are chosen by the solver (default 3); before it the heuristic
            bot plays, and says so in the reason.
        max_nodes: card plays the solver may try over all the samples of one move (default 4,000,000, under a
            second on an idle core: p95 0.85 s in ``bench_expert.py``): a bound on time that does not depend on the
            machine. The samples solved when
            it runs out are the ones averaged.
        time_limit: seconds per move, checked between the deals drawn and between the samples solved (default
            ``None``: no limit); at least one deal is drawn, and the best fit of those drawn is solved unless the
            card plays run out first. With a limit, a slower machine weighs and solves fewer deals and may choose
            another card.
        signals: make the heuristic bot's honest signals to the partner (default ``True``); the partner's signals
            are always read.
        name: an optional label.

    Choice of a card: for each sample, :func:`aluette.solve` values every legal card (the N-S points minus the E-W
    points under best play, every hand open); the bot averages them from its side's point of view and plays the
    card of the best average; a tie goes to the cheapest card (the lowest class, then deck order). A hand whose
    cards are all of one class is played without search.

    Raises:
        BadSeedError: no explicit seed. AluetteError: a bound that is not a positive whole number (``time_limit``:
            a positive number of seconds), ``candidates`` fewer than ``samples``, or ``solve_from`` outside 1-9.
    """

    def __init__(self, seed: SeedLike, *, samples: int = 24, candidates: Optional[int] = None, solve_from: int = 3,
                 max_nodes: int = 4_000_000, time_limit: Optional[float] = None, signals: bool = True,
                 name: Optional[str] = None):
        self.rng = as_generator(seed)
        if candidates is None and isinstance(samples, int) and not isinstance(samples, bool):
            candidates = 4 * samples
        for what, value, low, high in (("samples", samples, 1, 10_000), ("solve_from", solve_from, 1, 9),
                                       ("max_nodes", max_nodes, 1, 10 ** 12)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise AluetteError(f"{what} must be a whole number from {low} to {high:,}, got {quoted(value)}")
        if isinstance(candidates, bool) or not isinstance(candidates, int) or not samples <= candidates <= 40_000:
            raise AluetteError(f"candidates must be a whole number from samples ({samples}) to 40,000, got "
                               f"{quoted(candidates)}")
        self.candidates = candidates
        if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                       or not 0 < time_limit <= 3600):
            raise AluetteError(f"time_limit must be None or a number of seconds up to 3600, got {quoted(time_limit)}")
        self.samples, self.solve_from, self.max_nodes, self.time_limit = samples, solve_from, max_nodes, time_limit
        self.heuristic = HeuristicBot(signals=True)  # reads the partner's signals in the first tricks
        self.use_signals = bool(signals)
        self.name = name or repr(self)

    def __repr__(self) -> str:
        return (f"ExpertBot(samples={self.samples}, candidates={self.candidates}, solve_from={self.solve_from}, "
                f"max_nodes={self.max_nodes:,})")

    # ------------------------------------------------------------------ protocol
    def signals(self, view: View, legal_signals: Sequence[str]) -> list[Decision]:
        """The heuristic bot's signals (:meth:`aluette.players.bots.HeuristicBot.signals`): the project's one signal
        policy; none with ``signals=False``."""
        return self.heuristic.signals(view, legal_signals) if self.use_signals else []

    def choose(self, view: View, legal_moves: Sequence[Move] = ()) -> Decision:
        """The move for ``view.seat``: a card by perfect-information Monte Carlo from the trick
        :attr:`solve_from` on, else the heuristic bot's move (its reason prefixed with why).

        Raises:
            AluetteError: ``view`` is not a seat's view, or it is not that seat's turn.
        """
        seat = own_seat(view)
        if view.to_move is not seat:
            raise AluetteError(f"it is {view.to_move}'s turn, not {seat}'s ({view.phase.value} phase)")
        if view.phase is not Phase.PLAY:
            return self._heuristic(view, "heuristic (the solver searches only the play)")
        trick = len(view.tricks) + 1
        if trick < self.solve_from:
            return self._heuristic(view, f"heuristic (first tricks: I solve from trick {self.solve_from})")
        classes = {card.strength for card in view.hand}
        if len(classes) == 1:
            card = _cheapest(view.hand)
            return Decision(Play(seat, card), f"{_label(card)}: all my cards are of one class")
        return self._monte_carlo(view)

    # ------------------------------------------------------------------ the search
    def _heuristic(self, view: View, why: str) -> Decision:
        decision = self.heuristic.choose(view)
        return Decision(decision.move, f"{why}: {decision.reason}")

    def card_values(self, view: View) -> tuple[dict[Card, float], int, bool]:
        """``({card: average value for this seat's side}, samples solved, failed)`` over the sampled deals of
        ``view``'s position (the seat to move's view, in the play); the values are points of the side minus points of
        the other side, from -2 to 2. Draws from the bot's generator. ``({}, 0, failed)`` when no sample was solved
        within the bounds. ``failed``: the solver's own consistency check failed on a sample (an ``AssertionError``
        from :func:`aluette.solve`, a bug of the solver, not a rule); sampling stopped there, since the work that
        sample took is unknown, and the reason of the move says so.
        """
        seat = own_seat(view)
        sign = 1 if seat.team is Team.NS else -1
        hidden = HiddenCards(view)
        totals: dict[Card, int] = {card: 0 for card in view.hand}
        solved, budget, failed = 0, self.max_nodes, False
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for hands in self.draw(view, hidden, deadline=deadline):
            if deadline is not None and solved and time.perf_counter() > deadline:
                break
            sampled = hidden.open_view(view, hands)
            try:
                solution = solve(sampled, max_nodes=budget)
            except SearchBudgetError:
                break
            except AssertionError:  # the solver's check "a card keeps the value" failed: say so, stop
                failed = True
                break
            budget -= solution.nodes
            solved += 1
            for card, value in solution.by_card.items():
                totals[card] += sign * value
            if budget < 1:
                break
        if not solved:
            return {}, 0, failed
        return {card: total / solved for card, total in totals.items()}, solved, failed

    def draw(self, view: View, hidden: Optional[HiddenCards] = None, *,
             deadline: Optional[float] = None) -> list[dict[Seat, Hand]]:
        """The sampled deals to solve for ``view``'s move, best first: :attr:`candidates` deals drawn from the bot's
        generator (:meth:`HiddenCards.sample`), of which the :attr:`samples` whose other seats' past cards the
        heuristic bot would have played most often (:meth:`aluette.analysis.inference.PastPlays.misfits`, fewest
        misfits first, then in the order drawn; decision ``expert-bot``). Only :attr:`samples` deals are drawn
        when no other seat has chosen a card yet, or when :attr:`candidates` equals :attr:`samples`. ``deadline``
        (a :func:`time.perf_counter` time, from ``time_limit``): no deal is drawn after it but the first."""
        hidden = hidden or HiddenCards(view)
        past = PastPlays(view, self.heuristic) if self.candidates > self.samples else None

        def late() -> bool:
            return deadline is not None and time.perf_counter() > deadline

        if past is None or not len(past):
            drawn = []
            for _ in range(self.samples):
                if drawn and late():
                    break
                drawn.append(dict(hidden.sample(self.rng)))
            return drawn
        kept: list[tuple[int, int, dict[Seat, Hand]]] = []  # (misfits, order drawn, hands), sorted, samples at most
        for order in range(self.candidates):
            if kept and late():
                break
            full = len(kept) == self.samples
            if full and kept[-1][0] == 0:
                break  # every deal kept fits every past card: none drawn later could take a place
            hands = dict(hidden.sample(self.rng))
            misses = past.misfits(hands, limit=kept[-1][0] - 1 if full else None)
            if full and misses >= kept[-1][0]:
                continue  # fits no better than the worst kept, which was drawn first
            kept.append((misses, order, hands))
            kept.sort(key=lambda item: item[:2])
            del kept[self.samples:]
        return [hands for _, _, hands in kept]

    def _monte_carlo(self, view: View) -> Decision:
        seat = view.seat
        values, solved, failed = self.card_values(view)
        if not solved:
            why = "the solver failed on the first sampled deal" if failed else \
                "no sampled deal solved within the search budget"
            return self._heuristic(view, f"heuristic ({why})")
        best = max(values.values())
        card = _cheapest(c for c, v in values.items() if v == best)
        others = [(v, c) for c, v in values.items() if c.strength != card.strength]
        runner = ""
        if others:
            v, c = max(others, key=lambda vc: (vc[0], -vc[1].strength))
            runner = f"; {c.code} does as well, and mine is cheaper" if v == best else f"; next best {c.code} {v:+.2f}"
        return Decision(Play(seat, card), f"expert: {_label(card)} scores {best:+.2f} for my side on average over "
                        f"{solved} sampled deal{'s' * (solved != 1)} (best play, all hands open in each){runner}"
                        + ("; the solver failed on the next sample, so I stopped there" if failed else ""))
