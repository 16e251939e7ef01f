"""The rule options of a deal and a match, as one frozen object.

Every real variant of Aluette this project knows is an option here, with its source; nothing is a hidden constant.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping, Optional

from .errors import AluetteError

__all__ = ["Options", "ChantRecipients"]


class ChantRecipients(str, enum.Enum):
    """Who receives the twelve stock cards when all four agree to the chant.

    * ``LEFT_AND_DEALER`` (default; seeds, "setup", and pagat.com): the player at the dealer's left and the dealer,
      alternately, starting with the dealer's left.
    * ``LEFT_AND_PARTNER`` (variant given by some French descriptions): the player at the dealer's left and the
      dealer's partner, alternately, starting with the dealer's left.
    """

    LEFT_AND_DEALER = "left_and_dealer"
    LEFT_AND_PARTNER = "left_and_partner"


@dataclass(frozen=True)
class Options:
    """Rule options. Frozen; make a changed copy with :meth:`replace`.

    Attributes:
        mordienne: score 2 instead of 1 for mordienne (seeds and pagat: optional rule; on by default here).
        chant: offer the chant each deal (seeds: "all players may agree to the chant"). When off, the stock is never
            used and play starts at once.
        chant_recipients: who gets the stock in the chant, see :class:`ChantRecipients`.
        surrender: a partnership may offer to surrender (pagat.com; off by default; needs ``mordienne``). Decision
            of this project (the sources are silent) [surrender-before-first-trick]: only before the first trick
            (see :mod:`aluette.deal` for who speaks and who answers). Accepted: the accepting side scores 1 and the deal ends. Refused: the refusing side must
            make mordienne, scoring 2 if it does, else the surrendering side scores 2.
        match_deals: deals in a match (seeds and pagat: 5, so the first dealer deals twice). Used when
            ``target_points`` is ``None``; a tie after the last deal is a drawn match (``drawn-match``, :mod:`aluette.match`).
        target_points: variant from several French descriptions: the match goes on until a partnership reaches this
            many points (often 5); ``None`` (default) plays ``match_deals`` deals.

    Raises:
        AluetteError: an inconsistent combination (surrender without mordienne, fewer than one deal, a target below
            one point), or a field of the wrong type.
    """

    mordienne: bool = True
    chant: bool = True
    chant_recipients: ChantRecipients = ChantRecipients.LEFT_AND_DEALER
    surrender: bool = False
    match_deals: int = 5
    target_points: Optional[int] = None

    def __post_init__(self):
        for name in ("mordienne", "chant", "surrender"):
            if not isinstance(getattr(self, name), bool):
                raise AluetteError(f"option {name} must be True or False, got {getattr(self, name)!r}")
        try:
            object.__setattr__(self, "chant_recipients", ChantRecipients(self.chant_recipients))
        except ValueError:
            raise AluetteError(f"option chant_recipients must be one of "
                               f"{[r.value for r in ChantRecipients]}, got {self.chant_recipients!r}") from None
        if isinstance(self.match_deals, bool) or not isinstance(self.match_deals, int) or self.match_deals < 1:
            raise AluetteError(f"option match_deals must be a whole number of at least 1, got {self.match_deals!r}")
        if self.target_points is not None and (isinstance(self.target_points, bool)
                                               or not isinstance(self.target_points, int) or self.target_points < 1):
            raise AluetteError(f"option target_points must be None or a whole number of at least 1, "
                               f"got {self.target_points!r}")
        if self.surrender and not self.mordienne:
            raise AluetteError("option surrender needs mordienne: a refused surrender must be answered by making "
                               "mordienne (pagat.com)")

    def replace(self, **changes: Any) -> "Options":
        """A copy with some options changed (validated like the constructor)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise AluetteError(f"unknown option(s) {sorted(unknown)}; known: {[f.name for f in fields(self)]}")
        return Options(**{**asdict(self), **changes})

    def to_dict(self) -> dict:
        """Plain JSON-ready dictionary."""
        data = asdict(self)
        data["chant_recipients"] = self.chant_recipients.value
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
            raise AluetteError(f"unknown option(s) {unknown!r}; option names are text")
        return cls().replace(**dict(data))
