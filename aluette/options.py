"""The rule options of a deal and a match, as one frozen object.

Every real variant of Aluette this project knows is an option here, with its source; nothing is a hidden constant.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, Optional

from .errors import AluetteError, quoted
from .i18n import _
from .seats import Seat

__all__ = ["Options", "ChantRecipients", "Rebour", "REBOUR_TARGET", "SurrenderUntil", "chant_recipients"]


class ChantRecipients(str, enum.Enum):
    """Who receives the twelve stock cards when all four agree to the chant.

    * ``LEFT_AND_DEALER`` (default; the rules sheet, "setup", and pagat.com): the player at the dealer's left and the
      dealer, alternately, starting with the dealer's left.
    * ``LEFT_AND_PARTNER`` (variant: loisirs.savoir.fr, as the project's source list gives it): six cards to the
      dealer's left and six to the dealer's partner, dealt alternately starting with the dealer's left as in the main
      rule (decision ``chant-variant-alternate``, :func:`aluette.chance.stock_steps`).
    """

    LEFT_AND_DEALER = "left_and_dealer"
    LEFT_AND_PARTNER = "left_and_partner"

    def __repr__(self) -> str:
        return f"ChantRecipients.{self.name}"


class Rebour(str, enum.Enum):
    """An announced mordienne, from Guy Rebour's account of the game as pagat.com reports it (French translation of
    pagat's page: « Selon un récit du jeu (Guy Rebour: La Crapette et le Jeu de Aluette), copié en grande partie par
    d'autres auteurs, mordienne peut être annoncé avant le début du premier tour »). pagat doubts the account:
    « C'est un peu difficile à comprendre »; it finds it hard to see why anyone would give away an attempt at
    mordienne by announcing it, and surprising that it changes the match so much. Not a tradition of the table: one
    book's account, offered as an option.

    * ``OFF`` (default): no announcement.
    * ``ANNOUNCED``: the account's first form. Before the first trick mordienne may be announced, and « si cela se
      produit, le match est prolongé: il continue autant de fois que nécessaire jusqu'à ce qu'une équipe gagne en
      obtenant un score d'au moins 10 points »: the match is as set (five deals, or :attr:`Options.target_points`)
      until someone announces; from then on it goes on until a partnership has at least :data:`REBOUR_TARGET`
      points (:attr:`aluette.match.Match.extended`).
    * ``ONLY_ANNOUNCED``: the form pagat suggests Rebour may really describe (« une variante dans laquelle mordienne ne
      marque que s'il est annoncé et que la cible est toujours de 10 points »): a mordienne scores 2 only when the
      player who makes it announced it, otherwise 1 as for any deal won, and the match is always played to
      :data:`REBOUR_TARGET` points.

    What the text leaves open is decided by this project and marked (:mod:`aluette.decisions`):

    * Decision of this project (the sources are silent) [rebour-announce-order]: every player may announce; each is
      asked once, clockwise from the dealer's left, after the chant and the discards.
    * Decision of this project (the sources are silent) [rebour-partner-announcement]: in the first form any
      player's announcement extends the match, a partner's or an opponent's alike; in the second a mordienne scores
      2 only when its maker announced it: the partner's announcement does not count for it.
    * Decision of this project (the sources are silent) [rebour-announcement-no-score]: an announcement that fails
      costs nothing, and in the first form an announcement changes no score (a mordienne scores 2 announced or not).
    * Decision of this project (the sources are silent) [rebour-extended-target]: an extended match ends after the
      first deal at whose end a partnership has at least :data:`REBOUR_TARGET` points (or the match's own
      :attr:`Options.target_points` when that is higher); the deals already played count.
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


#: The match target of Guy Rebour's account, in points, as pagat.com reports it (« au moins 10 points »): the target
#: of an extended match under the first form, and always under the second (:class:`Rebour`).
REBOUR_TARGET = 10


@dataclass(frozen=True)
class Options:
    """Rule options. Frozen; make a changed copy with :meth:`replace`.

    Attributes:
        mordienne: score 2 instead of 1 for mordienne (the rules sheet and pagat: optional rule; on by default here).
        chant: offer the chant each deal (the rules sheet: "all players may agree to the chant"). When off, the stock is never
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
        match_deals: deals in a match (the rules sheet and pagat: 5, so the first dealer deals twice). Used when
            ``target_points`` is ``None``; a tie after the last deal is a drawn match (``drawn-match``,
            :mod:`aluette.match`).
        target_points: the first partnership to reach this many points wins the match; ``None`` (default) plays
            ``match_deals`` deals. First to 5 points is the match as the French descriptions give it (trictrac.net,
            regles2jeux.fr): trictrac.net ("L'équipe gagnante est celle qui marque la première cinq points"),
            regles2jeux.fr ("le but du jeu, c'est d'être la première équipe à marquer 5 points"); olonnes.com is
            named for it by issue 8 (its text could not be checked here). Under ``rebour="only_announced"`` the default is
            :data:`REBOUR_TARGET` (10); under ``rebour="announced"`` the match is as set until a mordienne is
            announced (:class:`Rebour`).
        rebour: an announced mordienne, from Guy Rebour's account as pagat.com reports it (and doubts it), see
            :class:`Rebour` (default ``Rebour.OFF``). Needs ``mordienne``. Rebour and ``surrender`` together are
            refused: the sources do not say how a refused surrender's mordienne and an announcement combine.

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
                raise AluetteError(_("option {name} must be True or False, got {value}").format(
                    name=name, value=quoted(getattr(self, name))))
        try:
            object.__setattr__(self, "chant_recipients", ChantRecipients(self.chant_recipients))
        except ValueError:
            raise AluetteError(_("option {name} must be one of {values}, got {value}").format(
                name="chant_recipients", values=[r.value for r in ChantRecipients],
                value=quoted(self.chant_recipients))) from None
        if isinstance(self.match_deals, bool) or not isinstance(self.match_deals, int) or self.match_deals < 1:
            raise AluetteError(_("option match_deals must be a whole number of at least 1, got {value}").format(
                value=quoted(self.match_deals)))
        if self.target_points is not None and (isinstance(self.target_points, bool)
                                               or not isinstance(self.target_points, int) or self.target_points < 1):
            raise AluetteError(_("option target_points must be None or a whole number of at least 1, got "
                                 "{value}").format(value=quoted(self.target_points)))
        try:
            object.__setattr__(self, "surrender_until", SurrenderUntil(self.surrender_until))
        except ValueError:
            raise AluetteError(_("option {name} must be one of {values}, got {value}").format(
                name="surrender_until", values=[u.value for u in SurrenderUntil],
                value=quoted(self.surrender_until))) from None
        if self.surrender_until is SurrenderUntil.LAST_TRICK and not self.surrender:
            raise AluetteError(_("option surrender_until='last_trick' needs surrender=True: without surrender it "
                                 "would change nothing"))
        if self.surrender and not self.mordienne:
            raise AluetteError(_("option surrender needs mordienne: a refused surrender must be answered by making "
                                 "mordienne (pagat.com)"))
        try:
            object.__setattr__(self, "rebour", Rebour(self.rebour))
        except ValueError:
            raise AluetteError(_("option {name} must be one of {values}, got {value}").format(
                name="rebour", values=[r.value for r in Rebour], value=quoted(self.rebour))) from None
        if self.rebour is not Rebour.OFF:
            if not self.mordienne:
                raise AluetteError(_("option rebour needs mordienne: Guy Rebour's account announces mordienne "
                                     "(pagat.com)"))
            if self.surrender:
                raise AluetteError(_("options rebour and surrender cannot be combined: the sources do not say how a "
                                     "refused surrender's mordienne and a Rebour announcement go together"))
            if self.rebour is Rebour.ONLY_ANNOUNCED and self.target_points is None:  # « toujours de 10 points »
                object.__setattr__(self, "target_points", REBOUR_TARGET)

    def check_simulable(self) -> "Options":
        """These options, when the simulations can play them (``self``); used by :mod:`aluette.simulation` and the
        numpy engines.

        Raises:
            AluetteError: the Rebour announcement is on, or a surrender may be offered between tricks
                (``surrender_until="last_trick"``): the simulations' chance contract (a fixed slot for each
                decision, :mod:`aluette.simulation.contract`) has no slot for either.
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
            raise AluetteError(_("options must be an aluette.Options (or None for the defaults), got {value}").format(
                value=quoted(options)))
        return options

    def replace(self, **changes: Any) -> "Options":
        """A copy with some options changed (validated like the constructor)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            names = ", ".join(quoted(name, 20) for name in sorted(unknown)[:5]) + (" …" if len(unknown) > 5 else "")
            raise AluetteError(_("unknown option(s) {names}; known: {known}").format(
                names=names, known=", ".join(f.name for f in fields(self))))
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
            raise AluetteError(_("options must be a mapping, got {value}").format(value=quoted(data)))
        unknown = [key for key in data if not isinstance(key, str)]
        if unknown:  # replace(**data) would raise TypeError: keywords must be strings
            raise AluetteError(_("unknown option(s) {names}; option names are text").format(names=quoted(unknown)))
        return cls().replace(**dict(data))


_DEFAULT = Options()


def chant_recipients(dealer, options: Optional[Options] = None) -> tuple[Seat, Seat]:
    """The two seats that receive the stock when all four agree to the chant, in the order they receive it: the
    dealer's left first, then the dealer (the rules sheet, "setup"; pagat.com), or the dealer's partner under
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
