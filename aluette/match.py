"""A match: several deals, the deal passing to the left, points added up.

Rule sources and decisions:

* The rules sheet, "end of game", and pagat.com: a match is five deals, so the first dealer deals twice (the first and
  the fifth deal); the partnership with the higher score wins. The deal passes to the left (clockwise: N, E, S, W).
* Decision of this project (the sources are silent) [drawn-match]: a tie after the last deal is a drawn match (no
  extra deal).
* Variant (:attr:`Options.target_points`, several French descriptions): play until a partnership reaches the target.
* Guy Rebour's account as pagat.com reports it (:class:`~aluette.options.Rebour`, first form): once mordienne is
  announced the match is extended, « jusqu'à ce qu'une équipe gagne en obtenant un score d'au moins 10 points »
  (:attr:`Match.extended`; decision ``rebour-extended-target`` in :mod:`aluette.options`). pagat doubts the account.

Chance: the match holds no generator (the rule of :mod:`aluette.chance`). Deal ``k`` draws its shuffle from the seed
and ``k`` alone (:func:`aluette.chance.match_deal_seed`: ``SeedSequence(seed, spawn_key=(1, k))``, the first deal from
``SeedSequence(seed, spawn_key=(1,))`` as before), so the seed and the moves replay the whole match, any deal of it
can be dealt again alone, and the single-deal demos, which show every hand, cannot deal the match's hands from the
seed it shows. Saves of :data:`MATCH_VERSION` 1 drew every deal in turn
from one generator (:func:`aluette.chance.match_generator`); they still load, and go on as they began
(``Match(..., version=1)``: deal ``k`` is the ``k``-th shuffle of that stream, drawn again from the seed).
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Union

import numpy as np

from .card_names import phase_name
from .chance import SeedLike, check_seed, match_deal_seed, match_generator, seed_number
from .deal import Deal, View
from .errors import AluetteError, DealOverError, MalformedSaveError, WrongPhaseError, quoted
from .i18n import N_, _
from .moves import Move
from .options import REBOUR_TARGET, Options, Rebour
from .savefile import check_header, load_json
from .seats import Seat, Team

__all__ = ["Match", "MATCH_FORMAT", "MATCH_VERSION", "MATCH_VERSIONS"]

MATCH_FORMAT = "aluette-match"
#: The save version of a match: 2 since deal ``k`` comes from the seed and ``k`` (:func:`~aluette.chance.match_deal_seed`);
#: version 1 (every deal drawn in turn from one generator) still loads.
MATCH_VERSION = 2
#: The versions :meth:`Match.from_dict` reads, and the ways of dealing :class:`Match` knows (``version=``).
MATCH_VERSIONS = (1, 2)


#: The longest name a match keeps for a seat (the shared tables' names are shorter, 30: store.service).
NAME_LIMIT = 60


def _checked_names(names: Any) -> dict[Seat, str]:
    """``{seat: name}`` from an optional mapping of seats (any spelling) to non-empty text of at most
    :data:`NAME_LIMIT` printable characters (no line break, no control character), each seat once."""
    if names is None:
        return {}
    checked = Seat.parse_mapping(names, "name")
    for seat, name in checked.items():
        if not isinstance(name, str) or not name.strip():
            raise AluetteError(_("names: the name of {seat} must be non-empty text, got {value}").format(
                seat=seat, value=quoted(name)))
        if len(name) > NAME_LIMIT or not name.isprintable():
            raise AluetteError(_("names: the name of {seat} is at most {limit} characters on one line, with no "
                                 "control character; got {value}").format(seat=seat, limit=NAME_LIMIT,
                                                                           value=quoted(name)))
    return checked


class Match:
    """A match of Aluette between N–S and E–W.

    Args:
        seed: a non-negative ``int`` (reproducible everywhere) or a numpy ``Generator``; each deal's shuffle is drawn
            from it in turn.
        first_dealer: the seat that deals first (after a partnership draw, Madame's holder, N).
        options: the rule :class:`Options` for every deal.
        names: optional ``{seat: name}`` for display (each seat once, names non-empty text of at most
            :data:`NAME_LIMIT` printable characters).
        version: how the deals are drawn from the seed: :data:`MATCH_VERSION` (deal ``k`` from the seed and ``k``),
            or 1, to go on with a match saved (or a shared table opened) before it (every deal drawn in turn from one
            generator; an integer seed only).

    Raises:
        BadSeedError: no explicit seed, or not a seed. AluetteError: bad options or names (not a mapping, a seat
            twice, a name that is not non-empty printable text of at most :data:`NAME_LIMIT` characters), or a version
            this aluette does not know.
    """

    def __init__(self, seed: SeedLike, *, first_dealer: Union[Seat, str] = Seat.N,
                 options: Optional[Options] = None, names: Optional[Mapping[Union[Seat, str], str]] = None,
                 version: int = MATCH_VERSION):
        self._seed = seed_number(seed)  # raises BadSeedError unless a seed or a Generator
        if type(version) is not int or version not in MATCH_VERSIONS:
            raise AluetteError(_("a match's version is one of {versions}, got {value}").format(
                versions=", ".join(map(str, MATCH_VERSIONS)), value=quoted(version)))
        if version == 1 and self._seed is None:
            raise AluetteError(_("a match of version 1 deals from an integer seed only"))
        self._version = version
        # deal k's shuffle comes from this root and k (chance.match_deal_seed); a Generator is asked once, here
        self._root = (seed if isinstance(seed, np.random.SeedSequence)
                      else np.random.SeedSequence(seed.integers(0, 2 ** 32, size=4).tolist())
                      if isinstance(seed, np.random.Generator) else self._seed)
        self._options = Options.coerce(options)
        self._first_dealer = Seat.parse(first_dealer)
        self._names = _checked_names(names)
        self._deals: list[Deal] = []
        self._start_deal()

    # ----------------------------------------------------------------- state
    @property
    def options(self) -> Options:
        return self._options

    @property
    def seed(self) -> Optional[int]:
        return self._seed

    @property
    def version(self) -> int:
        """How the deals are drawn from the seed (:data:`MATCH_VERSION`, or 1 for a match saved before it)."""
        return self._version

    @property
    def first_dealer(self) -> Seat:
        return self._first_dealer

    @property
    def names(self) -> Mapping[Seat, str]:
        """``{seat: name}``, defaulting to the seat's full name."""
        return {s: self._names.get(s, s.full_name) for s in Seat}

    @property
    def deals(self) -> tuple[Deal, ...]:
        """Every deal so far, the current one last."""
        return tuple(self._deals)

    @property
    def current(self) -> Deal:
        """The deal in progress (or the last one, once it is over)."""
        return self._deals[-1]

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return len(self._deals)

    def dealer_of(self, number: int) -> Seat:
        """The dealer of deal ``number`` (1-based): the first dealer, then passing left.

        Raises:
            AluetteError: ``number`` is not a whole number of at least 1.
        """
        if type(number) is not int or number < 1:
            raise AluetteError(_("deals are numbered from 1, got {number}").format(number=quoted(number)))
        seat = self._first_dealer
        for _turn in range((number - 1) % 4):
            seat = seat.left
        return seat

    @property
    def scores(self) -> dict[Team, int]:
        """Points per partnership over the finished deals."""
        totals = {Team.NS: 0, Team.EW: 0}
        for deal in self._deals:
            if deal.result is not None:
                for team, points in deal.result.points.items():
                    totals[team] += points
        return totals

    @property
    def extended(self) -> bool:
        """True once the match is extended under the first form of Guy Rebour's account (``Options(rebour=
        "announced")``, as pagat.com reports it): a player announced mordienne in one of its deals, so the match goes
        on until a partnership has at least :data:`~aluette.options.REBOUR_TARGET` points (:attr:`target`)."""
        return self._options.rebour is Rebour.ANNOUNCED and any(
            said for deal in self._deals for _, said in deal.announcements)

    @property
    def target(self) -> Optional[int]:
        """The points that end the match now: :attr:`Options.target_points`, or in an :attr:`extended` match at
        least :data:`~aluette.options.REBOUR_TARGET` (decision ``rebour-extended-target``); ``None`` for a match
        of :attr:`Options.match_deals` deals.

        Decision of this project (the sources are silent) [rebour-extended-target]: an extended match ends after the
        first deal at whose end a partnership has at least 10 points (« au moins 10 points »), or the match's own
        target when that is higher; the deals played before the announcement count."""
        target = self._options.target_points
        if self.extended:
            return max(REBOUR_TARGET, target or 0)
        return target

    @property
    def is_over(self) -> bool:
        """True once the last deal is over (or a partnership reached the :attr:`target`, when there is one)."""
        if not self.current.is_over:
            return False
        target = self.target
        if target is not None:
            return max(self.scores.values()) >= target
        return len(self._deals) >= self._options.match_deals

    @property
    def winner(self) -> Optional[Team]:
        """The winning partnership once the match is over; ``None`` while playing or when drawn."""
        if not self.is_over:
            return None
        s = self.scores
        return None if s[Team.NS] == s[Team.EW] else max(s, key=s.get)

    @property
    def is_drawn(self) -> bool:
        """True when the match is over with equal scores (see ``drawn-match`` in the module docstring)."""
        return self.is_over and self.winner is None

    @property
    def to_move(self) -> Optional[Seat]:
        """Whose turn it is in the current deal; ``None`` between deals and at the end."""
        return self.current.to_move

    @property
    def awaiting_next_deal(self) -> bool:
        """True when the current deal is over and the match is not: call :meth:`next_deal`."""
        return self.current.is_over and not self.is_over

    # ----------------------------------------------------------------- moves
    def legal_moves(self) -> list[Move]:
        """The current deal's legal moves."""
        return self.current.legal_moves()

    def apply(self, move) -> None:
        """Apply a move to the current deal (see :meth:`Deal.apply`; same errors, state unchanged on error)."""
        self.current.apply(move)

    def play(self, seat, card):
        """``seat`` plays ``card`` in the current deal (see :meth:`Deal.play`)."""
        return self.current.play(seat, card)

    def next_deal(self) -> Deal:
        """Start the next deal (the dealer passes left) and return it.

        Raises:
            WrongPhaseError: the current deal is not over yet.
            DealOverError: the match is over.
        """
        if self.is_over:
            raise DealOverError(_("the match is over; no further deal"))
        if not self.current.is_over:
            raise WrongPhaseError(_("deal {number} is not over yet ({phase} phase, {seat} to move)").format(
                number=self.deal_number, phase=phase_name(self.current.phase), seat=self.current.to_move))
        return self._start_deal()

    def _deal_chance(self, number: int):
        """Where deal ``number`` draws its shuffle: from the seed and ``number`` alone (version 1: the
        ``number``-th shuffle of the match's one stream, drawn again from the seed)."""
        if self._version == 1:
            rng = match_generator(self._seed)
            rng.random((number - 1, 49))  # the shuffles of the deals before (49 doubles each, aluette.chance)
            return rng
        return match_deal_seed(self._root, number)

    def _start_deal(self) -> Deal:
        number = len(self._deals) + 1
        deal = Deal.from_seed(self._deal_chance(number), dealer=self.dealer_of(number), options=self._options)
        self._deals.append(deal)
        return deal

    def view(self, seat: Union[Seat, str, None]) -> View:
        """The current deal as ``seat`` sees it (``None``: omniscient)."""
        return self.current.view(seat)

    def score_sheet(self):
        """The match so far as a pandas DataFrame, one row per deal (see :func:`aluette.frames.score_sheet`)."""
        from .frames import score_sheet
        return score_sheet(self)

    def _repr_html_(self) -> str:
        from .pictures import match_html
        return match_html(self)

    def __repr__(self) -> str:
        s = self.scores
        return f"<Match deal {self.deal_number} NS {s[Team.NS]} EW {s[Team.EW]}{' over' if self.is_over else ''}>"

    # ----------------------------------------------------------------- persistence
    def to_dict(self) -> dict:
        """JSON-ready: format, version, seed, first dealer, options, names and every deal's :meth:`Deal.to_dict`."""
        if self._seed is None:
            raise AluetteError(_("only a match started from an integer seed can be saved"))
        return {"format": MATCH_FORMAT, "version": self._version, "seed": self._seed,
                "first_dealer": str(self._first_dealer), "options": self._options.to_dict(),
                "names": {str(s): n for s, n in self._names.items()},
                "deals": [d.to_dict() for d in self._deals]}

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: Any) -> "Match":
        """Rebuild a match by replaying every deal from the seed.

        A save of version 1 (before deal ``k`` came from the seed and ``k``) loads as the match it was, and goes on
        dealing as it began (:attr:`version` 1; saved again as version 1).

        Raises:
            MalformedSaveError: wrong format, a version other than :data:`MATCH_VERSIONS`, a deal whose deck differs
                from the seed's, an illegal move, a deal started before the previous one ended, or more deals than
                the match allows.
        """
        version = data.get("version") if isinstance(data, dict) else None
        check_header(data, format=MATCH_FORMAT, what=N_("a saved match"),
                     version=version if type(version) is int and version in MATCH_VERSIONS else MATCH_VERSION,
                     fields=("format", "version", "seed", "first_dealer", "options", "names", "deals"),
                     required=("seed", "first_dealer", "options", "deals"))
        try:
            match = cls(check_seed(data["seed"]), first_dealer=data["first_dealer"],
                        options=Options.from_dict(data["options"]), names=data.get("names") or {}, version=version)
        except AluetteError as error:
            raise MalformedSaveError(_("saved match: {error}").format(error=error)) from None
        deals = data.get("deals")
        if not isinstance(deals, list) or not deals:
            raise MalformedSaveError(_("saved match: deals must be a non-empty list"))
        for number, saved in enumerate(deals, start=1):
            if number > 1:
                try:
                    match.next_deal()
                except AluetteError as error:
                    raise MalformedSaveError(_("saved match, deal {number}: {error}").format(number=number,
                                                                                          error=error)) from None
            loaded = Deal.from_dict(saved)
            if loaded.deck != match.current.deck or loaded.dealer != match.current.dealer:
                raise MalformedSaveError(_("saved match, deal {number}: the deck or dealer does not match the match "
                                           "seed; the file was edited or is damaged").format(number=number))
            if loaded.options != match.options:
                raise MalformedSaveError(_("saved match, deal {number}: options differ from the match's").format(
                    number=number))
            for move in loaded.moves:
                match.apply(move)
        return match

    @classmethod
    def from_json(cls, text: str) -> "Match":
        """Load a match saved by :meth:`to_json` (errors: see :meth:`from_dict`)."""
        return cls.from_dict(load_json(text, N_("a saved match")))
