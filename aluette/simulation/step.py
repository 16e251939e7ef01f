"""The step engine of the simulation: deals played move by move with :class:`~aluette.deal.Deal` (every rule check,
any players), from their rows of uniform doubles laid out by the chance contract (:mod:`aluette.simulation.contract`).

:func:`step_deals` is the step-by-step twin of :func:`aluette.simulation.numpy_random.random_deals`: the same arguments and, for
random players, the same result (``tests/test_vectorized.py``). Random players follow contract point 4
(:func:`_random_move`); bots are asked by the drivers of :mod:`aluette.players.drivers`, each from its own seat's view.
"""

from __future__ import annotations

import itertools
from typing import Optional

import numpy as np

from ..cards import DECK
from ..chance import shuffles_from_uniforms
from ..deal import Deal, Phase
from ..players.drivers import play_turn, signal_round
from ..options import Options
from ..seats import SEATS, Seat, Team
from .contract import CHANT_SLOTS, DISCARD_SLOTS, PLAY_SLOTS, SURRENDER_SLOTS

__all__ = ["step_deals"]

_LETTER = {Seat.N: "N", Seat.E: "E", Seat.S: "S", Seat.W: "W", None: "X"}
_SEAT_CODE = {Seat.N: 0, Seat.E: 1, Seat.S: 2, Seat.W: 3, None: -1}
_TEAM_CODE = {Team.NS: 0, Team.EW: 1, None: -1}
_UNPLAYED = "........."  # notation placeholder for a deal ended by an accepted surrender (its outcomes are -1)
_CODE_OF_ASCII = np.full(128, -1, dtype=np.int8)
for _code, _letter in enumerate("NESWX"):
    _CODE_OF_ASCII[ord(_letter)] = _code
_OVER = Phase.OVER
_PHASES = (_CHANT, _DISCARD, _SURRENDER, _PLAY) = (Phase.CHANT, Phase.DISCARD, Phase.SURRENDER, Phase.PLAY)
_NS, _EW = Team.NS, Team.EW
_DISCARD_COMBOS: Optional[tuple] = None


def _discard_combos() -> tuple:
    global _DISCARD_COMBOS
    if _DISCARD_COMBOS is None:
        _DISCARD_COMBOS = tuple(itertools.combinations(range(15), 6))
    return _DISCARD_COMBOS


def _random_move(deal: Deal, u: float) -> None:
    """The random player's move for the seat to move: ``legal_moves()[floor(u * len(legal_moves()))]`` (contract
    point 4), made without listing the moves where they are known: a chant answer or a surrender offer or answer is
    yes when ``u < 0.5`` (``True`` is listed first), a play and a discard take their index in the hand."""
    phase, seat = deal.phase, deal.to_move
    if phase is _PLAY:
        deal.play_index(int(u * len(deal.legal_cards())))
    elif phase is _CHANT:
        deal.answer_chant(seat, u < 0.5)
    elif phase is _DISCARD:
        hand = deal.hands[seat]  # fifteen cards, high to low: legal_moves() lists the combinations of it
        deal.discard(seat, [hand[i] for i in _discard_combos()[int(u * 5005)]])
    else:
        moves = deal.legal_moves()
        deal.apply(moves[int(u * len(moves))])


_CARDS_IN_HAND = [9 - p // 4 for p in range(36)]  # when making play p (0-35) of a deal
_FIRST_SLOTS = (CHANT_SLOTS - 49, DISCARD_SLOTS - 49, SURRENDER_SLOTS - 49, PLAY_SLOTS - 49)  # in a row's u[49:]


def _play_out(deal: Deal, u: list, bots: Optional[tuple]) -> None:
    """Play ``deal`` to the end; ``u`` holds the deal's 45 decision doubles (row slots 49-93); ``bots`` is ``None``
    for four random players, else a bot or ``None`` (random) per seat, in SEATS order."""
    made = [0, 0, 0, 0]  # decisions made so far in each phase of _PHASES: the next slot of that phase
    signalled = bots is None
    while deal.phase is not _OVER:
        phase = deal.phase
        if not signalled and (phase is _SURRENDER or phase is _PLAY):
            signalled = True  # the hands are final: the bots may signal, as in aluette.players.drivers.play_deal
            signal_round(deal, {seat: bot for seat, bot in zip(SEATS, bots) if bot is not None})
        if phase is _PLAY and bots is None:  # the hot path: 36 random plays, legal_cards()[floor(u * k)]
            for x, k in zip(u[PLAY_SLOTS - 49:], _CARDS_IN_HAND):
                deal.play_index(int(x * k))
            return
        which = 0 if phase is _CHANT else 1 if phase is _DISCARD else 2 if phase is _SURRENDER else 3
        bot = bots[SEATS.index(deal.to_move)] if bots is not None else None
        if bot is None:
            _random_move(deal, u[_FIRST_SLOTS[which] + made[which]])
        else:
            play_turn(deal, bot)
        made[which] += 1


def step_deals(draws: np.ndarray, dealers: np.ndarray, options: Optional[Options] = None,
               bots: Optional[tuple] = None) -> dict:
    """Play deals to the end with :class:`Deal`, move by move: the step-by-step twin of
    :func:`aluette.simulation.numpy_random.random_deals`, with the same arguments and the same result for random players.

    Args:
        draws: ``(n, 94)`` uniform doubles, one row per deal (layout: :mod:`aluette.simulation.contract`).
        dealers: ``(n,)`` dealer of each deal as a seat index (0 N, 1 E, 2 S, 3 W).
        options: the rule :class:`Options` (default ``Options()``).
        bots: ``None`` for four random players, else one bot (:mod:`aluette.players.protocol`) or ``None`` (random) per
            seat, in SEATS order.

    Returns:
        The per-deal arrays described by :func:`aluette.simulation.numpy_random.random_deals`.

    Raises:
        AluetteError: a bot's illegal move (the engine's error).
    """
    options = Options.coerce(options).check_simulable()
    draws = np.asarray(draws, dtype=np.float64)
    m = len(draws)
    orders, cuts = shuffles_from_uniforms(draws[:, :49])
    rows = []
    for order, cut, u, dealer in zip(orders.tolist(), cuts.tolist(), draws[:, 49:].tolist(),
                                     np.asarray(dealers).tolist()):
        deal = Deal.from_shuffle(tuple(map(DECK.__getitem__, order)), cut, dealer=SEATS[dealer], options=options)
        _play_out(deal, u, bots)
        result = deal.result
        score = result.score
        ns, ew = result.points[_NS], result.points[_EW]
        rows.append((_UNPLAYED if score is None else "".join(map(_LETTER.__getitem__, score.outcomes)),
                     -1 if score is None else _SEAT_CODE[score.winner],
                     0 if ns else 1 if ew else -1, ns, ew,
                     score is not None and score.mordienne, score is not None and score.reached_first,
                     options.chant and deal.chant_agreed is True, _TEAM_CODE[result.surrendered_by],
                     -1 if result.surrender_accepted is None else int(result.surrender_accepted)))
    notation, winner, team, ns, ew, mordienne, first, chant, by, accepted = list(zip(*rows)) or [()] * 10
    letters = np.frombuffer("".join(notation).encode("ascii"), dtype=np.uint8).reshape(m, 9)
    return {"outcomes": _CODE_OF_ASCII[letters], "winner": np.array(winner, dtype=np.int8),
            "team": np.array(team, dtype=np.int8), "points_ns": np.array(ns, dtype=np.int8),
            "points_ew": np.array(ew, dtype=np.int8), "mordienne": np.array(mordienne, dtype=bool),
            "first_to_reach": np.array(first, dtype=bool), "chant": np.array(chant, dtype=bool),
            "surrendered_by": np.array(by, dtype=np.int8), "surrender_accepted": np.array(accepted, dtype=np.int8)}
