"""The rule options of a deal and a match, as one frozen object.

Every real variant of Aluette this project knows is an option here, with its source; nothing is a hidden constant.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, Optional

from .errors import AluetteError, quoted
from .seats import Seat

__all__ = ["Options", "ChantRecipients", "Rebour", "REBOUR_TARGET", "SurrenderUntil", "chant_recipients"]


class ChantRecipients(str, enum.Enum):
    """Who receives the twelve stock cards when all four agree to the chant.

    * ``LEFT_AND_DEALER`` (default; seeds, "setup", and pagat.com): the player at the dealer's left and the dealer,
      alternately, starting with the dealer's left.
    * ``LEFT_AND_PARTNER`` (variant given by some French descriptions): the player at the dealer's left and the
      dealer's partner, alternately, starting with the dealer's left.
    """

    LEFT_AND_DEALER = "left_and_dealer"
    LEFT_AND_PARTNER = "left_and_partner"

    def __repr__(self) -> str:
        return f"ChantRecipients.{self.name}"


class Rebour(str, enum.Enum):
    """pagat.com's Rebour variant: mordienne is announced before the first trick, and the match is played to 10
    points (:data:`REBOUR_TARGET`).

    The wording here is issue 8's account of pagat.com's Aluette page ("mordienne announced before the first trick,
    with the match played to 10 points; and its second form, where mordienne scores only when announced"): pagat's
    own text could not be checked when this was written, so nothing beyond that account is credited to pagat.

    * ``OFF`` (default): no announcement.
    * ``ANNOUNCED``: before the first trick each player in turn says whether they announce mordienne. Decision of
      this project (the sources are silent) [rebour-announcement-no-score]: in this first form the announcement
      changes no score: a mordienne scores 2 announced or not, and an announcement that fails costs nothing.
    * ``ONLY_ANNOUNCED``: the second form: a mordienne scores 2 only when the player who makes it announced it;
      otherwise that player's side scores 1, as for any deal won.
    """

    OFF = "off"
    ANNOUNCED = "announced"
    ONLY_ANNOUNCED = "only_announced"


class SurrenderUntil(str, enum.Enum):
    """Until when a surrender may be offered (with :attr:`Options.surrender` on). pagat.com, which gives the
    surrender, gives no time for it, so both are choices of this project:

    * ``FIRST_TRICK`` (default): only before the first trick, after the chant and the discards. Decision of this
      project (the sources are silent) [surrender-before-first-trick]: pagat gives no time, and this is the one
      moment every player can judge a whole hand.
    * ``LAST_TRICK``: before any trick up to the last (the ninth), between tricks, never in the middle of one.
      Decision of this project (the sources are silent) [surrender-between-tricks]: the question is put again
      before each trick until an offer is made: the leader of the next trick speaks first for their side, then the
      player at the leader's right (the last to play to it) for theirs; an offer is answered at once by the other
      side's speaker, and once an offer is answered no more are asked in that deal.
    """

    FIRST_TRICK = "first_trick"
    LAST_TRICK = "last_trick"


#: The match target of the Rebour variant, in points (pagat.com, as issue 8 reports it).
REBOUR_TARGET = 10


@dataclass(frozen=True)
class Options:
    """Rule options. Frozen; make a changed copy with :meth:`replace`.

    Attributes:
        mordienne: score 2 instead of 1 for mordienne (seeds and pagat: optional rule; on by default here).
        chant: offer the chant each deal (seeds: "all players may agree to the chant"). When off, the stock is never
            used and play starts at once.
        chant_recipients: who gets the stock in the chant, see :class:`ChantRecipients`.
        surrender: a partnership may offer to surrender (pagat.com; off by default; needs ``mordienne``); by
            default only before the first trick (:attr:`surrender_until`; see :mod:`aluette.deal` for who speaks
            and who answers). Accepted: the accepting side scores 1 and the
            deal ends. Refused: the refusing side must make mordienne, scoring 2 if it does, else the surrendering
            side scores 2. Until when it may be offered: :attr:`surrender_until`.
        surrender_until: with ``surrender``, until when an offer may be made: :class:`SurrenderUntil`
            (``"first_trick"``, the default, or ``"last_trick"``: before any trick up to the ninth). pagat gives no
            time, so both are marked as the project's choices in :class:`SurrenderUntil`
            (``surrender-before-first-trick``, ``surrender-between-tricks``). ``"last_trick"`` needs ``surrender``, and the
            simulations do not play it (:meth:`check_simulable`).
        match_deals: deals in a match (seeds and pagat: 5, so the first dealer deals twice). Used when
            ``target_points`` is ``None``; a tie after the last deal is a drawn match (``drawn-match``,
            :mod:`aluette.match`).
        target_points: the first partnership to reach this many points wins the match; ``None`` (default) plays
            ``match_deals`` deals. Sources for 5 points, the match of the Vendée and Breton descriptions:
            trictrac.net ("L'équipe gagnante est celle qui marque la première cinq points"), regles2jeux.fr ("le but
            du jeu, c'est d'être la première équipe à marquer 5 points"); olonnes.com is named for it by issue 8 (its
            text could not be checked here). Under :attr:`rebour` the default is :data:`REBOUR_TARGET` (10).
        rebour: pagat.com's Rebour variant, see :class:`Rebour` (default ``Rebour.OFF``). Needs ``mordienne``.
            Decision of this project (the sources are silent) [rebour-announce-order]: each player is asked once,
            clockwise from the dealer's left, after the chant and the discards. Rebour and ``surrender`` together
            are refused: the sources do not say how a refused surrender's mordienne and an announcement combine.

    Raises:
        AluetteError: an inconsistent combination (surrender or Rebour without mordienne, Rebour with surrender,
            ``surrender_until="last_trick"`` without surrender, fewer than one deal, a target below one point), or a field of the wrong type.
    """

    mordienne: bool = True
    chant: bool = True
    chant_recipients: ChantRecipients = ChantRecipients.LEFT_AND_DEALER
    surrender: bool = False
    surrender_until: SurrenderUntil = SurrenderUntil.FIRST_TRICK
    match_deals: int = 5
    target_points: Optional[int] = None
    rebour: Rebour = Rebour.OFF

    def __post_init__(self):
        for name in ("mordienne", "chant", "surrender"):
            if not isinstance(getattr(self, name), bool):
                raise AluetteError(f"option {name} must be True or False, got {quoted(getattr(self, name))}")
        try:
            object.__setattr__(self, "chant_recipients", ChantRecipients(self.chant_recipients))
        except ValueError:
            raise AluetteError(f"option chant_recipients must be one of "
                               f"{[r.value for r in ChantRecipients]}, got {quoted(self.chant_recipients)}") from None
        if isinstance(self.match_deals, bool) or not isinstance(self.match_deals, int) or self.match_deals < 1:
            raise AluetteError(f"option match_deals must be a whole number of at least 1, got "
                               f"{quoted(self.match_deals)}")
        if self.target_points is not None and (isinstance(self.target_points, bool)
                                               or not isinstance(self.target_points, int) or self.target_points < 1):
            raise AluetteError(f"option target_points must be None or a whole number of at least 1, "
                               f"got {quoted(self.target_points)}")
        try:
            object.__setattr__(self, "surrender_until", SurrenderUntil(self.surrender_until))
        except ValueError:
            raise AluetteError(f"option surrender_until must be one of {[u.value for u in SurrenderUntil]}, "
                               f"got {quoted(self.surrender_until)}") from None
        if self.surrender_until is SurrenderUntil.LAST_TRICK and not self.surrender:
            raise AluetteError("option surrender_until='last_trick' needs surrender=True: without surrender it "
                               "would change nothing")
        if self.surrender and not self.mordienne:
            raise AluetteError("option surrender needs mordienne: a refused surrender must be answered by making "
                               "mordienne (pagat.com)")
        try:
            object.__setattr__(self, "rebour", Rebour(self.rebour))
        except ValueError:
            raise AluetteError(f"option rebour must be one of {[r.value for r in Rebour]}, "
                               f"got {str(self.rebour)[:40]!r}") from None
        if self.rebour is not Rebour.OFF:
            if not self.mordienne:
                raise AluetteError("option rebour needs mordienne: Rebour announces mordienne (pagat.com)")
            if self.surrender:
                raise AluetteError("options rebour and surrender cannot be combined: the sources do not say how a "
                                   "refused surrender's mordienne and a Rebour announcement go together")
            if self.target_points is None:  # Rebour's match is played to 10 points (pagat.com)
                object.__setattr__(self, "target_points", REBOUR_TARGET)

    def check_simulable(self) -> "Options":
        """These options, when the simulations can play them (``self``); used by :mod:`aluette.simulation` and the
        numpy engines.

        Raises:
            AluetteError: the Rebour announcement is on, or a surrender may be offered between tricks
                (``surrender_until="last_trick"``): the simulations' chance contract (a fixed slot for each
                decision, :mod:`aluette.sim_chance`) has no slot for either.
        """
        if self.rebour is not Rebour.OFF:
            raise AluetteError(f"simulations do not play the Rebour announcement (rebour={self.rebour.value!r}); "
                               f"play it with Deal or Match")
        if self.surrender_until is not SurrenderUntil.FIRST_TRICK:
            raise AluetteError(f"simulations offer a surrender only before the first trick, not "
                               f"surrender_until={self.surrender_until.value!r}: their chance contract has three "
                               f"slots for the surrender, not a question before every trick; play it with Deal or "
                               f"Match")
        return self

    def __repr__(self) -> str:
        """``Options()`` or the options that differ from the defaults, e.g. ``Options(surrender=True)``: text that
        reads back as the same options."""
        def text(value: Any) -> str:
            return f"{type(value).__name__}.{value.name}" if isinstance(value, enum.Enum) else repr(value)
        changed = [f"{f.name}={text(getattr(self, f.name))}" for f in fields(self)
                   if getattr(self, f.name) != f.default]
        return f"Options({', '.join(changed)})"

    @classmethod
    def coerce(cls, options: Optional["Options"]) -> "Options":
        """``options``, or the default ``Options()`` for ``None``: the one place every API that takes options reads
        them.

        Raises:
            AluetteError: anything else (a dict, a string...): build it with ``Options(**...)`` or
                :meth:`from_dict`.
        """
        if options is None:
            return _DEFAULT
        if not isinstance(options, Options):
            raise AluetteError(f"options must be an aluette.Options (or None for the defaults), got "
                               f"{type(options).__name__} {quoted(options)}")
        return options

    def replace(self, **changes: Any) -> "Options":
        """A copy with some options changed (validated like the constructor)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            names = ", ".join(quoted(name, 20) for name in sorted(unknown)[:5]) + (" …" if len(unknown) > 5 else "")
            raise AluetteError(f"unknown option(s) {names}; known: {', '.join(f.name for f in fields(self))}")
        return Options(**{**asdict(self), **changes})

    def to_dict(self) -> dict:
        """Plain JSON-ready dictionary."""
        data = asdict(self)
        data["chant_recipients"] = self.chant_recipients.value
        data["rebour"] = self.rebour.value
        data["surrender_until"] = self.surrender_until.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Options":
        """Inverse of :meth:`to_dict`; unknown keys are refused.

        Raises:
            AluetteError: not a mapping, an unknown key, or an invalid value.
        """
        if not isinstance(data, Mapping):
            raise AluetteError(f"options must be a mapping, got {type(data).__name__}")
        unknown = [key for key in data if not isinstance(key, str)]
        if unknown:  # replace(**data) would raise TypeError: keywords must be strings
            raise AluetteError(f"unknown option(s) {quoted(unknown)}; option names are text")
        return cls().replace(**dict(data))


_DEFAULT = Options()


def chant_recipients(dealer, options: Optional[Options] = None) -> tuple[Seat, Seat]:
    """The two seats that receive the stock when all four agree to the chant, in the order they receive it: the
    dealer's left first, then the dealer (seeds, "setup"; pagat.com), or the dealer's partner under
    :attr:`ChantRecipients.LEFT_AND_PARTNER` (``options.chant_recipients``; default ``Options()``).

    >>> chant_recipients("N"), chant_recipients("N", Options(chant_recipients="left_and_partner"))
    ((Seat.E, Seat.N), (Seat.E, Seat.S))

    Raises:
        UnknownSeatError: ``dealer`` is not a seat. AluetteError: ``options`` is not an :class:`Options`.
    """
    dealer = Seat.parse(dealer)
    if Options.coerce(options).chant_recipients is ChantRecipients.LEFT_AND_DEALER:
        return dealer.left, dealer
    return dealer.left, dealer.partner
